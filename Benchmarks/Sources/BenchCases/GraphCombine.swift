import OpenCombine

/// The kairo/cellx shapes on OpenCombine. No batching exists: multi-source writes are sent
/// one after another. Dynamic dependencies are not expressible; `unstable` subscribes to the
/// static superset (head, double, inverse).
public func combineGraph(_ shape: Shape) -> GraphBench {
    let g = CombineGraph()
    typealias S = CurrentValueSubject<Int, Never>
    switch shape {
    case .chain100, .fan1000, .diamond100:
        return combineNodeUpdates(shape)
    case .deep:
        let len = 50
        let head = S(0)
        var current = head
        for _ in 0..<len { current = g.map(current) { $0 + 1 } }
        let last = current
        let counter = Counter()
        g.effect(last) { _ in counter.count += 1 }
        return GraphBench(keepAlive: [g, head, last]) {
            head.send(1)
            let before = counter.count
            for i in 0..<50 {
                head.send(i)
                check(last.value == len + i, "deep value")
            }
            return counter.count - before - 50
        }
    case .broad:
        let head = S(0)
        var last = head
        let counter = Counter()
        for i in 0..<50 {
            let current = g.map(head) { $0 + i }
            let current2 = g.map(current) { $0 + 1 }
            g.effect(current2) { _ in counter.count += 1 }
            last = current2
        }
        let end = last
        return GraphBench(keepAlive: [g, head]) {
            head.send(1)
            let before = counter.count
            for i in 0..<50 {
                head.send(i)
                check(end.value == i + 50, "broad value")
            }
            return counter.count - before - 50 * 50
        }
    case .diamond:
        let width = 5
        let head = S(0)
        let branches = (0..<width).map { _ in g.map(head) { $0 + 1 } }
        let sum = g.combine(branches) { $0.reduce(0, +) }
        let counter = Counter()
        g.effect(sum) { _ in counter.count += 1 }
        return GraphBench(keepAlive: [g, head, branches]) {
            head.send(1)
            check(sum.value == 2 * width, "diamond initial")
            let before = counter.count
            for i in 0..<500 {
                head.send(i)
                check(sum.value == (i + 1) * width, "diamond value")
            }
            return counter.count - before - 500
        }
    case .triangle:
        let width = 10
        let head = S(0)
        var current = head
        var list: [S] = []
        for _ in 0..<width {
            list.append(current)
            current = g.map(current) { $0 + 1 }
        }
        let sum = g.combine(list) { $0.reduce(0, +) }
        let counter = Counter()
        g.effect(sum) { _ in counter.count += 1 }
        let constant = triangleCount(width)
        return GraphBench(keepAlive: [g, head, list]) {
            head.send(1)
            check(sum.value == constant, "triangle initial")
            let before = counter.count
            for i in 0..<100 {
                head.send(i)
                check(sum.value == constant - width + i * width, "triangle value")
            }
            return counter.count - before - 100
        }
    case .mux:
        let heads = (0..<100).map { _ in S(0) }
        let mux = g.combine(heads) { values in
            Dictionary(uniqueKeysWithValues: values.enumerated().map { ($0.offset, $0.element) })
        }
        let splitted = (0..<100).map { index in
            g.map(g.map(mux) { $0[index]! }) { $0 + 1 }
        }
        let counter = Counter()
        for node in splitted { g.effect(node) { _ in counter.count += 1 } }
        return GraphBench(keepAlive: [g, heads, splitted, mux]) {
            let before = counter.count
            var expected = 0
            for i in 0..<10 {
                if heads[i].value != i { expected += 1 }
                heads[i].send(i)
                check(splitted[i].value == i + 1, "mux value")
            }
            for i in 0..<10 {
                if heads[i].value != i * 2 { expected += 1 }
                heads[i].send(i * 2)
                check(splitted[i].value == i * 2 + 1, "mux value 2")
            }
            return counter.count - before - expected
        }
    case .repeatedObservers:
        let size = 30
        let head = S(0)
        let current = g.map(head) { value in
            var result = 0
            for _ in 0..<size { result += value }
            return result
        }
        let counter = Counter()
        g.effect(current) { _ in counter.count += 1 }
        return GraphBench(keepAlive: [g, head, current]) {
            head.send(1)
            check(current.value == size, "repeated initial")
            let before = counter.count
            for i in 0..<100 {
                head.send(i)
                check(current.value == i * size, "repeated value")
            }
            return counter.count - before - 100
        }
    case .unstable:
        let head = S(0)
        let double = g.map(head) { $0 * 2 }
        let inverse = g.map(head) { -$0 }
        let current = g.combine([head, double, inverse]) { values in
            var result = 0
            for _ in 0..<20 {
                result += values[0] % 2 != 0 ? values[1] : values[2]
            }
            return result
        }
        let counter = Counter()
        g.effect(current) { _ in counter.count += 1 }
        return GraphBench(keepAlive: [g, head, current, double, inverse]) {
            head.send(1)
            check(current.value == 40, "unstable initial")
            let before = counter.count
            for i in 0..<100 {
                head.send(i)
                check(current.value == (i % 2 != 0 ? i * 2 * 20 : i * -20), "unstable value")
            }
            return counter.count - before - 100
        }
    case .avoidable:
        let head = S(0)
        let c1 = g.map(head) { $0 }
        let c2 = g.map(c1) { _ in 0 }
        let c3 = g.map(c2) { value -> Int in consume(busy()); return value + 1 }
        let c4 = g.map(c3) { $0 + 2 }
        let c5 = g.map(c4) { $0 + 3 }
        let counter = Counter()
        g.effect(c5) { _ in counter.count += 1; consume(busy()) }
        return GraphBench(keepAlive: [g, head, c1, c2, c3, c4, c5]) {
            head.send(1)
            check(c5.value == 6, "avoidable initial")
            let before = counter.count
            for i in 0..<1000 {
                head.send(i)
                check(c5.value == 6, "avoidable value")
            }
            return counter.count - before
        }
    case .cellx1000:
        return combineCellx(layers: 1000)
    }
}

public func combineCellx(layers: Int) -> GraphBench {
    typealias S = CurrentValueSubject<Int, Never>
    let g = CombineGraph()
    let s1 = S(1), s2 = S(2), s3 = S(3), s4 = S(4)
    var layer = (s1, s2, s3, s4)
    let counter = Counter()
    var nodes: [S] = []
    for _ in 0..<layers {
        let m = layer
        let p1 = g.map(m.1) { $0 }
        let p2 = g.combine([m.0, m.2]) { $0[0] - $0[1] }
        let p3 = g.combine([m.1, m.3]) { $0[0] + $0[1] }
        let p4 = g.map(m.2) { $0 }
        for p in [p1, p2, p3, p4] {
            g.effect(p) { _ in counter.count += 1 }
        }
        nodes.append(contentsOf: [p1, p2, p3, p4])
        layer = (p1, p2, p3, p4)
    }
    let end = layer
    let forward = cellxExpected(layers: layers, start: (4, 3, 2, 1))
    let backward = cellxExpected(layers: layers, start: (1, 2, 3, 4))
    let changed = cellxChangedCount(layers: layers, from: (1, 2, 3, 4), to: (4, 3, 2, 1))
    var flip = false
    return GraphBench(keepAlive: [g, nodes, s1, s2, s3, s4]) {
        let before = counter.count
        flip.toggle()
        let values = flip ? (4, 3, 2, 1) : (1, 2, 3, 4)
        let expected = flip ? forward : backward
        s1.send(values.0)
        s2.send(values.1)
        s3.send(values.2)
        s4.send(values.3)
        check(end.0.value == expected.0 && end.1.value == expected.1 && end.2.value == expected.2 && end.3.value == expected.3, "cellx values")
        return counter.count - before - changed
    }
}
