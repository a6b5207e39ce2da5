/// One instantiated graph case for one framework: `run` performs one kairo iteration
/// (asserting values) and returns how many effect runs happened beyond the expected count.
public struct GraphBench {
    public var run: () -> Int
    public var keepAlive: [Any]

    public init(keepAlive: [Any] = [], run: @escaping () -> Int) {
        self.run = run
        self.keepAlive = keepAlive
    }
}

/// The kairo shapes (js-reactivity-benchmark `kairo/*.ts`) plus cellx.
public enum Shape: String, CaseIterable, Sendable {
    case chain100, fan1000, diamond100
    case deep, broad, diamond, triangle, mux, repeatedObservers = "repeated", unstable, avoidable, cellx1000 = "cellx1000"

    public var title: String {
        switch self {
        case .chain100: "deep: 100-chain, effect on the tail, 1,000 writes"
        case .fan1000: "broad: 1 source -> 1,000 derived, each observed, 100 writes"
        case .diamond100: "diamond: 1 -> 100 -> sum, observed, 1,000 writes"
        case .deep: "kairo deep (50-chain)"
        case .broad: "kairo broad (50 x 3)"
        case .diamond: "kairo diamond (width 5)"
        case .triangle: "kairo triangle (width 10)"
        case .mux: "kairo mux (100)"
        case .repeatedObservers: "kairo repeated observers (30)"
        case .unstable: "kairo unstable"
        case .avoidable: "kairo avoidable propagation"
        case .cellx1000: "cellx 1000 layers"
        }
    }

    /// Timed iterations in full mode.
    public var iterations: Int {
        switch self {
        case .cellx1000: 100
        case .chain100, .fan1000, .diamond100: 30
        default: 200
        }
    }
}

/// Sum 1...n (kairo `count`).
@inline(__always) func triangleCount(_ n: Int) -> Int { n * (n + 1) / 2 }

/// A few hundred additions, like kairo's `busy()`.
@inline(never) public func busy() -> Int {
    var a = 0
    for i in 0..<100 { a &+= i & 1 }
    return a
}

/// Expected cellx end values after writing (4, 3, 2, 1) and back to (1, 2, 3, 4), computed
/// plainly.
func cellxExpected(layers: Int, start: (Int, Int, Int, Int)) -> (Int, Int, Int, Int) {
    var p = start
    for _ in 0..<layers {
        p = (p.1, p.0 - p.2, p.1 + p.3, p.2)
    }
    return p
}

/// How many derived cellx nodes change value when the inputs go from `from` to `to`.
func cellxChangedCount(layers: Int, from: (Int, Int, Int, Int), to: (Int, Int, Int, Int)) -> Int {
    var a = from, b = to, changed = 0
    for _ in 0..<layers {
        a = (a.1, a.0 - a.2, a.1 + a.3, a.2)
        b = (b.1, b.0 - b.2, b.1 + b.3, b.2)
        if a.0 != b.0 { changed += 1 }
        if a.1 != b.1 { changed += 1 }
        if a.2 != b.2 { changed += 1 }
        if a.3 != b.3 { changed += 1 }
    }
    return changed
}
