import OpenCombine
import Signals

/// The per-node-update shapes: many node updates per iteration, so the median
/// divided by `nodeUpdates` is the cost of one node update (recompute + propagation, plus
/// the effect or observer call where one is attached).
extension Shape {
    /// Whether this is one of the node-update shapes (not a kairo/cellx one).
    public var isNodeUpdateShape: Bool {
        switch self {
        case .chain100, .fan1000, .diamond100: true
        default: false
        }
    }

    /// Node updates in one iteration (derived nodes recomputed per write × writes).
    public var nodeUpdates: Int {
        switch self {
        case .chain100: 100 * 1_000
        case .fan1000: 1_000 * 100
        case .diamond100: 101 * 1_000
        default: 0
        }
    }
}

/// Writes per iteration and sizes of the node-update shapes.
private enum Sizes {
    static let chain = 100, chainWrites = 1_000
    static let fan = 1_000, fanWrites = 100
    static let diamond = 100, diamondWrites = 1_000
}

/// Values written, distinct from the previous write in every iteration.
private final class Ticker {
    var value = 0
    func next() -> Int {
        value &+= 1
        return value
    }
}

func floorNodeUpdates(_ shape: Shape, ctx: Floor.Context) -> GraphBench {
    typealias S = Floor.Signal<Int>
    typealias C = Floor.Computed<Int>
    let head = S(0, in: ctx)
    let ticker = Ticker()
    let counter = Counter()
    switch shape {
    case .chain100:
        var nodes: [C] = []
        var previous: () -> Int = { head.value }
        for _ in 0..<Sizes.chain {
            let read = previous
            let node = C(in: ctx) { read() + 1 }
            nodes.append(node)
            previous = { node.value }
        }
        let last = nodes.last!
        let effect = Floor.Effect(in: ctx) { _ = last.value; counter.count += 1 }
        return GraphBench(keepAlive: [effect, nodes, head, ctx]) {
            let before = counter.count
            for _ in 0..<Sizes.chainWrites { head.value = ticker.next() }
            check(last.value == ticker.value + Sizes.chain, "chain value")
            return counter.count - before - Sizes.chainWrites
        }
    case .fan1000:
        let nodes = (0..<Sizes.fan).map { i in C(in: ctx) { head.value + i } }
        let effects = nodes.map { node in Floor.Effect(in: ctx) { _ = node.value; counter.count += 1 } }
        return GraphBench(keepAlive: [effects, nodes, head, ctx]) {
            let before = counter.count
            for _ in 0..<Sizes.fanWrites { head.value = ticker.next() }
            check(nodes[Sizes.fan - 1].value == ticker.value + Sizes.fan - 1, "fan value")
            return counter.count - before - Sizes.fan * Sizes.fanWrites
        }
    default:
        let branches = (0..<Sizes.diamond).map { i in C(in: ctx) { head.value + i } }
        let sum = C(in: ctx) { branches.reduce(0) { $0 + $1.value } }
        let effect = Floor.Effect(in: ctx) { _ = sum.value; counter.count += 1 }
        return GraphBench(keepAlive: [effect, branches, sum, head, ctx]) {
            let before = counter.count
            for _ in 0..<Sizes.diamondWrites { head.value = ticker.next() }
            check(sum.value == ticker.value * Sizes.diamond + triangleCount(Sizes.diamond - 1), "diamond sum")
            return counter.count - before - Sizes.diamondWrites
        }
    }
}

func signalsNodeUpdates(_ shape: Shape) -> GraphBench {
    let head = MutableProperty(0)
    let ticker = Ticker()
    let counter = Counter()
    switch shape {
    case .chain100:
        var last: Property<Int> = head
        for _ in 0..<Sizes.chain { last = last.map { $0 + 1 } }
        let tail = last
        let subscription = tail.observe { _ in counter.count += 1 }
        return GraphBench(keepAlive: [subscription, tail, head]) {
            let before = counter.count
            for _ in 0..<Sizes.chainWrites { head.value = ticker.next() }
            check(tail.value == ticker.value + Sizes.chain, "chain value")
            return counter.count - before - Sizes.chainWrites
        }
    case .fan1000:
        let nodes = (0..<Sizes.fan).map { i in head.map { $0 + i } }
        let subscriptions = nodes.map { $0.observe { _ in counter.count += 1 } }
        return GraphBench(keepAlive: [subscriptions, nodes, head]) {
            let before = counter.count
            for _ in 0..<Sizes.fanWrites { head.value = ticker.next() }
            check(nodes[Sizes.fan - 1].value == ticker.value + Sizes.fan - 1, "fan value")
            return counter.count - before - Sizes.fan * Sizes.fanWrites
        }
    default:
        let branches = (0..<Sizes.diamond).map { i in head.map { $0 + i } }
        let sum = Property { branches.reduce(0) { $0 + $1.value } }
        let subscription = sum.observe { _ in counter.count += 1 }
        return GraphBench(keepAlive: [subscription, branches, sum, head]) {
            let before = counter.count
            for _ in 0..<Sizes.diamondWrites { head.value = ticker.next() }
            check(sum.value == ticker.value * Sizes.diamond + triangleCount(Sizes.diamond - 1), "diamond sum")
            return counter.count - before - Sizes.diamondWrites
        }
    }
}

/// OpenCombine: the chain a plain `map` chain; in the other shapes every node a
/// `CurrentValueSubject` fed by `map` (equality cut-off in the sink), the diamond's join a
/// combineLatest, which emits once per branch that changed (99
/// intermediate sums per write, counted as extra runs).
func combineNodeUpdates(_ shape: Shape) -> GraphBench {
    typealias S = CurrentValueSubject<Int, Never>
    let g = CombineGraph()
    let head = S(0)
    let ticker = Ticker()
    let counter = Counter()
    switch shape {
    case .chain100:
        // A plain operator chain, as a Combine user writes it: no subject per node, no
        // equality cut-off (every node "changes" on every write here anyway).
        var last = head.eraseToAnyPublisher()
        for _ in 0..<Sizes.chain { last = last.map { $0 + 1 }.eraseToAnyPublisher() }
        let tail = Ticker()
        let sink = last.sink { value in
            tail.value = value
            counter.count += 1
        }
        return GraphBench(keepAlive: [sink, head]) {
            let before = counter.count
            for _ in 0..<Sizes.chainWrites { head.send(ticker.next()) }
            check(tail.value == ticker.value + Sizes.chain, "chain value")
            return counter.count - before - Sizes.chainWrites
        }
    case .fan1000:
        let nodes = (0..<Sizes.fan).map { i in g.map(head) { $0 + i } }
        for node in nodes { g.effect(node) { _ in counter.count += 1 } }
        return GraphBench(keepAlive: [g, head, nodes]) {
            let before = counter.count
            for _ in 0..<Sizes.fanWrites { head.send(ticker.next()) }
            check(nodes[Sizes.fan - 1].value == ticker.value + Sizes.fan - 1, "fan value")
            // Each effect also gets the subject's current value when attached: not in this window.
            return counter.count - before - Sizes.fan * Sizes.fanWrites
        }
    default:
        let branches = (0..<Sizes.diamond).map { i in g.map(head) { $0 + i } }
        let sum = g.combine(branches) { $0.reduce(0, +) }
        g.effect(sum) { _ in counter.count += 1 }
        return GraphBench(keepAlive: [g, head, branches, sum]) {
            let before = counter.count
            for _ in 0..<Sizes.diamondWrites { head.send(ticker.next()) }
            check(sum.value == ticker.value * Sizes.diamond + triangleCount(Sizes.diamond - 1), "diamond sum")
            return counter.count - before - Sizes.diamondWrites
        }
    }
}
