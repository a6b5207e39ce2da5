import Observation

/// Swift's Observation module used as a reactive graph. Observation has no derived values
/// and no scheduler, so this is the thinnest layer that makes one: every node is an
/// `@Observable` cell; a derived node or effect re-runs its closure inside
/// `withObservationTracking`, whose one-shot `onChange` (called on `willSet`) queues the node
/// in a FIFO that the writer drains after its write (or batch of writes). Nodes recompute
/// in the order they were queued (push order), so shapes with unequal path lengths
/// (triangle, cellx) can see intermediate values; such extra runs are counted as glitches.
public enum Obs {
    @Observable
    public final class Cell<Value> {
        public var value: Value
        public init(_ value: Value) { self.value = value }
    }

    /// The FIFO of queued nodes (single-threaded).
    public final class Context: @unchecked Sendable {
        var pending: ContiguousArray<Node> = []
        var batchDepth = 0
        public init() {}

        /// Runs queued nodes until none are left.
        public func flush() {
            var index = 0
            while index < pending.count {
                pending[index].run()
                index += 1
            }
            pending.removeAll(keepingCapacity: true)
        }

        /// Writes in `body`, then drains once.
        public func batch(_ body: () -> Void) {
            body()
            flush()
        }
    }

    public class Node: @unchecked Sendable {
        unowned(unsafe) let context: Context
        final var isQueued = false

        init(context: Context) { self.context = context }

        func run() {}

        /// The `onChange` handler: queue this node (built here, outside generic context).
        final func onChange() -> @Sendable () -> Void {
            { [unowned(unsafe) self] in self.schedule() }
        }

        final func schedule() {
            if isQueued { return }
            isQueued = true
            context.pending.append(self)
        }
    }

    public final class Computed<Value: Equatable>: Node, @unchecked Sendable {
        public let cell: Cell<Value>
        private let compute: () -> Value

        public init(in context: Context, _ compute: @escaping () -> Value) {
            self.compute = compute
            // First run outside tracking to get a value, then the tracked run.
            cell = Cell(compute())
            super.init(context: context)
            _ = tracked()
        }

        private func tracked() -> Value {
            withObservationTracking(compute, onChange: onChange())
        }

        override func run() {
            isQueued = false
            let newValue = tracked()
            if cell.value != newValue { cell.value = newValue }
        }

        /// The value, recording an access when read inside another node's closure.
        public var value: Value { cell.value }
    }

    public final class Effect: Node, @unchecked Sendable {
        private let body: () -> Void

        public init(in context: Context, _ body: @escaping () -> Void) {
            self.body = body
            super.init(context: context)
            run()
        }

        override func run() {
            isQueued = false
            withObservationTracking(body, onChange: onChange())
        }
    }
}

/// The kairo/cellx shapes on Swift Observation (see ``Obs``).
public func observationGraph(_ shape: Shape) -> GraphBench {
    let ctx = Obs.Context()
    typealias S = Obs.Cell<Int>
    typealias C = Obs.Computed<Int>
    switch shape {
    case .chain100, .fan1000, .diamond100:
        fatalError("the node-update shapes are not measured on Observation")
    case .deep:
        let len = 50
        let head = S(0)
        var current: () -> Int = { head.value }
        var nodes: [C] = []
        for _ in 0..<len {
            let read = current
            let node = C(in: ctx) { read() + 1 }
            nodes.append(node)
            current = { node.value }
        }
        let last = nodes.last!
        let counter = Counter()
        let effect = Obs.Effect(in: ctx) { _ = last.value; counter.count += 1 }
        return GraphBench(keepAlive: [effect, nodes, head, ctx]) {
            ctx.batch { head.value = 1 }
            let before = counter.count
            for i in 0..<50 {
                ctx.batch { head.value = i }
                check(last.value == len + i, "deep value")
            }
            return counter.count - before - 50
        }
    case .broad:
        let head = S(0)
        var last: C?
        let counter = Counter()
        var effects: [Obs.Effect] = []
        var nodes: [C] = []
        for i in 0..<50 {
            let current = C(in: ctx) { head.value + i }
            let current2 = C(in: ctx) { current.value + 1 }
            effects.append(Obs.Effect(in: ctx) { _ = current2.value; counter.count += 1 })
            nodes.append(current)
            nodes.append(current2)
            last = current2
        }
        let end = last!
        return GraphBench(keepAlive: [effects, nodes, head, ctx]) {
            ctx.batch { head.value = 1 }
            let before = counter.count
            for i in 0..<50 {
                ctx.batch { head.value = i }
                check(end.value == i + 50, "broad value")
            }
            return counter.count - before - 50 * 50
        }
    case .diamond:
        let width = 5
        let head = S(0)
        let branches: [C] = (0..<width).map { _ in C(in: ctx) { head.value + 1 } }
        let sum = C(in: ctx) { branches.reduce(0) { $0 + $1.value } }
        let counter = Counter()
        let effect = Obs.Effect(in: ctx) { _ = sum.value; counter.count += 1 }
        return GraphBench(keepAlive: [effect, branches, head, sum, ctx]) {
            ctx.batch { head.value = 1 }
            check(sum.value == 2 * width, "diamond initial")
            let before = counter.count
            for i in 0..<500 {
                ctx.batch { head.value = i }
                check(sum.value == (i + 1) * width, "diamond value")
            }
            return counter.count - before - 500
        }
    case .triangle:
        let width = 10
        let head = S(0)
        var current: () -> Int = { head.value }
        var list: [() -> Int] = []
        var nodes: [C] = []
        for _ in 0..<width {
            let read = current
            list.append(read)
            let node = C(in: ctx) { read() + 1 }
            nodes.append(node)
            current = { node.value }
        }
        let all = list
        let sum = C(in: ctx) { all.reduce(0) { $0 + $1() } }
        let counter = Counter()
        let effect = Obs.Effect(in: ctx) { _ = sum.value; counter.count += 1 }
        let constant = triangleCount(width)
        return GraphBench(keepAlive: [effect, nodes, head, sum, ctx]) {
            ctx.batch { head.value = 1 }
            check(sum.value == constant, "triangle initial")
            let before = counter.count
            for i in 0..<100 {
                ctx.batch { head.value = i }
                check(sum.value == constant - width + i * width, "triangle value")
            }
            return counter.count - before - 100
        }
    case .mux:
        let heads = (0..<100).map { _ in S(0) }
        let mux = Obs.Computed<[Int: Int]>(in: ctx) {
            Dictionary(uniqueKeysWithValues: heads.enumerated().map { ($0.offset, $0.element.value) })
        }
        let splitted: [C] = (0..<100).map { index in
            let pick = C(in: ctx) { mux.value[index]! }
            return C(in: ctx) { pick.value + 1 }
        }
        let counter = Counter()
        let effects = splitted.map { node in Obs.Effect(in: ctx) { _ = node.value; counter.count += 1 } }
        return GraphBench(keepAlive: [effects, heads, splitted, mux, ctx]) {
            let before = counter.count
            var expected = 0
            for i in 0..<10 {
                if heads[i].value != i { expected += 1 }
                ctx.batch { heads[i].value = i }
                check(splitted[i].value == i + 1, "mux value")
            }
            for i in 0..<10 {
                if heads[i].value != i * 2 { expected += 1 }
                ctx.batch { heads[i].value = i * 2 }
                check(splitted[i].value == i * 2 + 1, "mux value 2")
            }
            return counter.count - before - expected
        }
    case .repeatedObservers:
        let size = 30
        let head = S(0)
        let current = C(in: ctx) {
            var result = 0
            for _ in 0..<size { result += head.value }
            return result
        }
        let counter = Counter()
        let effect = Obs.Effect(in: ctx) { _ = current.value; counter.count += 1 }
        return GraphBench(keepAlive: [effect, head, current, ctx]) {
            ctx.batch { head.value = 1 }
            check(current.value == size, "repeated initial")
            let before = counter.count
            for i in 0..<100 {
                ctx.batch { head.value = i }
                check(current.value == i * size, "repeated value")
            }
            return counter.count - before - 100
        }
    case .unstable:
        let head = S(0)
        let double = C(in: ctx) { head.value * 2 }
        let inverse = C(in: ctx) { -head.value }
        let current = C(in: ctx) {
            var result = 0
            for _ in 0..<20 {
                result += head.value % 2 != 0 ? double.value : inverse.value
            }
            return result
        }
        let counter = Counter()
        let effect = Obs.Effect(in: ctx) { _ = current.value; counter.count += 1 }
        return GraphBench(keepAlive: [effect, head, current, double, inverse, ctx]) {
            ctx.batch { head.value = 1 }
            check(current.value == 40, "unstable initial")
            let before = counter.count
            for i in 0..<100 {
                ctx.batch { head.value = i }
                check(current.value == (i % 2 != 0 ? i * 2 * 20 : i * -20), "unstable value")
            }
            return counter.count - before - 100
        }
    case .avoidable:
        let head = S(0)
        let c1 = C(in: ctx) { head.value }
        let c2 = C(in: ctx) { _ = c1.value; return 0 }
        let c3 = C(in: ctx) { consume(busy()); return c2.value + 1 }
        let c4 = C(in: ctx) { c3.value + 2 }
        let c5 = C(in: ctx) { c4.value + 3 }
        let counter = Counter()
        let effect = Obs.Effect(in: ctx) { _ = c5.value; counter.count += 1; consume(busy()) }
        return GraphBench(keepAlive: [effect, head, c1, c2, c3, c4, c5, ctx]) {
            ctx.batch { head.value = 1 }
            check(c5.value == 6, "avoidable initial")
            let before = counter.count
            for i in 0..<1000 {
                ctx.batch { head.value = i }
                check(c5.value == 6, "avoidable value")
            }
            return counter.count - before
        }
    case .cellx1000:
        return observationCellx(layers: 1000, ctx: ctx)
    }
}

public func observationCellx(layers: Int, ctx: Obs.Context = Obs.Context()) -> GraphBench {
    typealias C = Obs.Computed<Int>
    let s1 = Obs.Cell(1), s2 = Obs.Cell(2), s3 = Obs.Cell(3), s4 = Obs.Cell(4)
    var layer: (() -> Int, () -> Int, () -> Int, () -> Int) = ({ s1.value }, { s2.value }, { s3.value }, { s4.value })
    let counter = Counter()
    var effects: [Obs.Effect] = []
    var nodes: [C] = []
    var end: [C] = []
    for _ in 0..<layers {
        let m = layer
        let p1 = C(in: ctx) { m.1() }
        let p2 = C(in: ctx) { m.0() - m.2() }
        let p3 = C(in: ctx) { m.1() + m.3() }
        let p4 = C(in: ctx) { m.2() }
        for p in [p1, p2, p3, p4] {
            effects.append(Obs.Effect(in: ctx) { _ = p.value; counter.count += 1 })
        }
        nodes.append(contentsOf: [p1, p2, p3, p4])
        end = [p1, p2, p3, p4]
        layer = ({ p1.value }, { p2.value }, { p3.value }, { p4.value })
    }
    let forward = cellxExpected(layers: layers, start: (4, 3, 2, 1))
    let backward = cellxExpected(layers: layers, start: (1, 2, 3, 4))
    let changed = cellxChangedCount(layers: layers, from: (1, 2, 3, 4), to: (4, 3, 2, 1))
    var flip = false
    return GraphBench(keepAlive: [effects, nodes, s1, s2, s3, s4, ctx]) {
        let before = counter.count
        flip.toggle()
        let values = flip ? (4, 3, 2, 1) : (1, 2, 3, 4)
        let expected = flip ? forward : backward
        ctx.batch {
            s1.value = values.0
            s2.value = values.1
            s3.value = values.2
            s4.value = values.3
        }
        check(end[0].value == expected.0 && end[1].value == expected.1 && end[2].value == expected.2 && end[3].value == expected.3, "cellx values")
        return counter.count - before - changed
    }
}
