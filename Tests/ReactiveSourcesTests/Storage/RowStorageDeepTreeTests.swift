import ReactiveSourcesTesting
import Testing
@testable import ReactiveSources

/// Trees too big to build row by row, made of shared nodes: the dense read's loop past the
/// straight-line heights, and nodes over `Int32.max` rows (no search keys).
@Suite("RowStorage trees of shared nodes")
struct RowStorageDeepTreeTests {
    typealias Node = RowStorageNode<Int>

    /// A full, dense subtree of `height` over `leaf`, every level sharing one child.
    static func shared(_ leaf: Node, height: Int) -> Node {
        var node = leaf
        for level in 1...height { node = Node.inner(height: level, children: Array(repeating: node, count: Node.innerCapacity)) }
        return node
    }

    @Test("dense reads at heights 4 to 6 take the right child on every level")
    func denseReadsPastTheStraightLineHeights() {
        // P = [P', Q', P', Q', ...], Q = [Q', P', ...]: a row's value is the parity of the child
        // indexes on its way down, so a wrong index on any level shows.
        let leafRows = Node.leafCapacity
        var p = Node.leaf(repeatElement(0, count: leafRows))
        var q = Node.leaf(repeatElement(1, count: leafRows))
        for height in 1...6 {
            let nextP = Node.inner(height: height, children: (0..<Node.innerCapacity).map { $0 % 2 == 0 ? p : q })
            let nextQ = Node.inner(height: height, children: (0..<Node.innerCapacity).map { $0 % 2 == 0 ? q : p })
            p = nextP
            q = nextQ
            guard height >= 4 else { continue }
            let storage = RowStorage<Int>(root: p, count: p.count)
            #expect(p.isDense)
            var random = SplitMix64(seed: UInt64(height))
            for _ in 0..<5_000 {
                let position = Int.random(in: 0..<p.count, using: &random)
                let leafNumber = position / leafRows
                var parity = 0
                for level in 0..<height { parity ^= (leafNumber >> (Node.innerShift * level)) & 1 }
                #expect(storage[position] == parity, "height \(height), position \(position)")
            }
        }
    }

    @Test("a tree over Int32.max rows (nodes without search keys) reads and edits right")
    func overInt32Max() {
        let full = Self.shared(Node.leaf(0..<Node.leafCapacity), height: 6)
        let partial = Self.shared(Node.leaf(1_000..<1_100), height: 6)
        #expect(full.count > Int(Int32.max) && !full.headerPointer.pointee.hasKeys)
        #expect(partial.headerPointer.pointee.hasKeys && !partial.isDense)
        let parts = [partial, full, partial, full]
        let root = Node.inner(height: 7, children: parts)
        #expect(!root.headerPointer.pointee.hasKeys && !root.isDense)
        var storage = RowStorage<Int>(root: root, count: root.count)
        var model: (Int) -> Int = { position in
            var position = position
            for part in parts {
                if position < part.count { return part === full ? position % Node.leafCapacity : 1_000 + position % 100 }
                position -= part.count
            }
            return Int.min
        }
        var random = SplitMix64(seed: 35)
        for step in 0..<60 {
            let count = storage.count
            var probes = (0..<40).map { _ in Int.random(in: 0..<count, using: &random) }
            var boundary = 0
            for part in parts {
                boundary += part.count
                probes += (-2...2).map { boundary + $0 }.filter { $0 >= 0 && $0 < count }
            }
            let wrong = probes.filter { storage[$0] != model($0) }
            #expect(wrong.isEmpty, "step \(step): rows \(wrong.prefix(5)) read wrong")
            if !wrong.isEmpty { return }
            let at = Int.random(in: 0..<count, using: &random)
            let old = model
            if step % 2 == 0 {
                storage.insert(-step - 1, at: at)
                model = { $0 < at ? old($0) : $0 == at ? -step - 1 : old($0 - 1) }
            } else {
                let end = min(count, at + Int.random(in: 1...300, using: &random))
                storage.removeSubrange(at..<end)
                model = { $0 < at ? old($0) : old($0 + (end - at)) }
            }
        }
    }
}
