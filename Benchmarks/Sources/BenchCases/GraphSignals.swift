import Signals

/// The kairo/cellx shapes on `Signals` (ours).
public func signalsGraph(_ shape: Shape) -> GraphBench {
    switch shape {
    case .chain100, .fan1000, .diamond100:
        return signalsNodeUpdates(shape)
    case .deep:
        let len = 50
        let head = MutableProperty(0)
        var current: Property<Int> = head
        for _ in 0..<len { current = current.map { $0 + 1 } }
        let last = current
        let counter = Counter()
        let sub = last.observe { _ in counter.count += 1 }
        return GraphBench(keepAlive: [sub, head, last]) {
            batch { head.value = 1 }
            let before = counter.count
            for i in 0..<50 {
                batch { head.value = i }
                check(last.value == len + i, "deep value")
            }
            return counter.count - before - 50
        }
    case .broad:
        let head = MutableProperty(0)
        var last: Property<Int> = head
        let counter = Counter()
        var subs: [SignalSubscription] = []
        var nodes: [Property<Int>] = []
        for i in 0..<50 {
            let current = Property { head.value + i }
            let current2 = current.map { $0 + 1 }
            subs.append(current2.observe { _ in counter.count += 1 })
            nodes.append(current)
            nodes.append(current2)
            last = current2
        }
        let end = last
        return GraphBench(keepAlive: [subs, nodes, head]) {
            batch { head.value = 1 }
            let before = counter.count
            for i in 0..<50 {
                batch { head.value = i }
                check(end.value == i + 50, "broad value")
            }
            return counter.count - before - 50 * 50
        }
    case .diamond:
        let width = 5
        let head = MutableProperty(0)
        let branches: [Property<Int>] = (0..<width).map { _ in head.map { $0 + 1 } }
        // Same closure as the floor's and Observation's sum (kairo: one computed reading all).
        let sum = Property { branches.reduce(0) { $0 + $1.value } }
        let counter = Counter()
        let sub = sum.observe { _ in counter.count += 1 }
        return GraphBench(keepAlive: [sub, branches, head, sum]) {
            batch { head.value = 1 }
            check(sum.value == 2 * width, "diamond initial")
            let before = counter.count
            for i in 0..<500 {
                batch { head.value = i }
                check(sum.value == (i + 1) * width, "diamond value")
            }
            return counter.count - before - 500
        }
    case .triangle:
        let width = 10
        let head = MutableProperty(0)
        var current: Property<Int> = head
        var list: [Property<Int>] = []
        for _ in 0..<width {
            let c = current
            list.append(current)
            current = Property { c.value + 1 }
        }
        let all = list
        let sum = Property { all.reduce(0) { $0 + $1.value } }
        let counter = Counter()
        let sub = sum.observe { _ in counter.count += 1 }
        let constant = triangleCount(width)
        return GraphBench(keepAlive: [sub, list, head, sum, current]) {
            batch { head.value = 1 }
            check(sum.value == constant, "triangle initial")
            let before = counter.count
            for i in 0..<100 {
                batch { head.value = i }
                check(sum.value == constant - width + i * width, "triangle value")
            }
            return counter.count - before - 100
        }
    case .mux:
        let heads = (0..<100).map { _ in MutableProperty(0) }
        let mux = combineLatest(heads.map(\.readOnly)).map { values in
            Dictionary(uniqueKeysWithValues: values.enumerated().map { ($0.offset, $0.element) })
        }
        let splitted: [Property<Int>] = (0..<100).map { index in
            mux.map { $0[index]! }.map { $0 + 1 }
        }
        let counter = Counter()
        let subs = splitted.map { $0.observe { _ in counter.count += 1 } }
        return GraphBench(keepAlive: [subs, heads, splitted, mux]) {
            let before = counter.count
            var expected = 0
            for i in 0..<10 {
                if heads[i].value != i { expected += 1 }
                batch { heads[i].value = i }
                check(splitted[i].value == i + 1, "mux value")
            }
            for i in 0..<10 {
                if heads[i].value != i * 2 { expected += 1 }
                batch { heads[i].value = i * 2 }
                check(splitted[i].value == i * 2 + 1, "mux value 2")
            }
            return counter.count - before - expected
        }
    case .repeatedObservers:
        let size = 30
        let head = MutableProperty(0)
        let current = Property {
            var result = 0
            for _ in 0..<size { result += head.value }
            return result
        }
        let counter = Counter()
        let sub = current.observe { _ in counter.count += 1 }
        return GraphBench(keepAlive: [sub, head, current]) {
            batch { head.value = 1 }
            check(current.value == size, "repeated initial")
            let before = counter.count
            for i in 0..<100 {
                batch { head.value = i }
                check(current.value == i * size, "repeated value")
            }
            return counter.count - before - 100
        }
    case .unstable:
        let head = MutableProperty(0)
        let double = head.map { $0 * 2 }
        let inverse = head.map { -$0 }
        let current = Property {
            var result = 0
            for _ in 0..<20 {
                result += head.value % 2 != 0 ? double.value : inverse.value
            }
            return result
        }
        let counter = Counter()
        let sub = current.observe { _ in counter.count += 1 }
        return GraphBench(keepAlive: [sub, head, current, double, inverse]) {
            batch { head.value = 1 }
            check(current.value == 40, "unstable initial")
            let before = counter.count
            for i in 0..<100 {
                batch { head.value = i }
                check(current.value == (i % 2 != 0 ? i * 2 * 20 : i * -20), "unstable value")
            }
            return counter.count - before - 100
        }
    case .avoidable:
        let head = MutableProperty(0)
        let c1 = head.map { $0 }
        let c2 = c1.map { _ in 0 }
        let c3 = c2.map { value -> Int in consume(busy()); return value + 1 }
        let c4 = c3.map { $0 + 2 }
        let c5 = c4.map { $0 + 3 }
        let counter = Counter()
        let sub = c5.observe { _ in counter.count += 1; consume(busy()) }
        return GraphBench(keepAlive: [sub, head, c1, c2, c3, c4, c5]) {
            batch { head.value = 1 }
            check(c5.value == 6, "avoidable initial")
            let before = counter.count
            for i in 0..<1000 {
                batch { head.value = i }
                check(c5.value == 6, "avoidable value")
            }
            return counter.count - before
        }
    case .cellx1000:
        return signalsCellx(layers: 1000)
    }
}

func signalsCellx(layers: Int) -> GraphBench {
    struct Layer {
        var p1, p2, p3, p4: Property<Int>
    }
    let s1 = MutableProperty(1), s2 = MutableProperty(2), s3 = MutableProperty(3), s4 = MutableProperty(4)
    var layer = Layer(p1: s1, p2: s2, p3: s3, p4: s4)
    let counter = Counter()
    var subs: [SignalSubscription] = []
    var all: [Layer] = []
    subs.reserveCapacity(layers * 4)
    for _ in 0..<layers {
        let m = layer
        let next = Layer(
            p1: Property { m.p2.value },
            p2: Property { m.p1.value - m.p3.value },
            p3: Property { m.p2.value + m.p4.value },
            p4: Property { m.p3.value }
        )
        for p in [next.p1, next.p2, next.p3, next.p4] {
            subs.append(p.observe { _ in counter.count += 1 })
        }
        all.append(next)
        layer = next
    }
    let end = layer
    let forward = cellxExpected(layers: layers, start: (4, 3, 2, 1))
    let backward = cellxExpected(layers: layers, start: (1, 2, 3, 4))
    let changed = cellxChangedCount(layers: layers, from: (1, 2, 3, 4), to: (4, 3, 2, 1))
    var flip = false
    return GraphBench(keepAlive: [subs, all, s1, s2, s3, s4]) {
        let before = counter.count
        flip.toggle()
        let values = flip ? (4, 3, 2, 1) : (1, 2, 3, 4)
        let expected = flip ? forward : backward
        batch {
            s1.value = values.0
            s2.value = values.1
            s3.value = values.2
            s4.value = values.3
        }
        check(end.p1.value == expected.0 && end.p2.value == expected.1 && end.p3.value == expected.2 && end.p4.value == expected.3, "cellx values")
        return counter.count - before - changed
    }
}
