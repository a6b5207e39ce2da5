extension RowStorage {
    /// The first broken structural invariant, or nil: every leaf at one depth, no node empty
    /// or over capacity, running counts, density flags, search keys and the stored count right. For tests. O(n / chunk).
    func invariantViolation() -> String? {
        if tail.count > RowStorageNode<Element>.leafCapacity { return "tail over capacity: \(tail.count)" }
        guard let root else { return storedCount == tail.count ? nil : "no root but count \(storedCount), tail \(tail.count)" }
        if root.count + tail.count != storedCount { return "root holds \(root.count), tail \(tail.count), count says \(storedCount)" }
        if root.height > 0 && root.width < 2 { return "inner root with \(root.width) children" }
        return Self.violation(in: root)
    }

    private static func violation(in node: RowStorageNode<Element>) -> String? {
        if node.height == 0 {
            if node.width == 0 { return "empty leaf" }
            if node.width > RowStorageNode<Element>.leafCapacity { return "leaf over capacity: \(node.width)" }
            if !node.isDense { return "leaf not dense" }
            return nil
        }
        if node.width == 0 { return "inner node without children" }
        let entries = node.entryBuffer
        let regular = entries.dropLast().allSatisfy { $0.child.count == node.childCapacity }
        if node.isDense != (regular && entries.last!.child.isDense) { return "density flag \(node.isDense) wrong at height \(node.height)" }
        if node.width > RowStorageNode<Element>.innerCapacity { return "inner node over capacity: \(node.width)" }
        let fitsKeys = node.count <= Int(Int32.max)
        if node.headerPointer.pointee.hasKeys != fitsKeys { return "search keys flag \(!fitsKeys) wrong at height \(node.height)" }
        if fitsKeys {
            let keys = UnsafeBufferPointer(start: node.keys, count: RowStorageNode<Element>.innerCapacity)
            let starts = [0] + entries.dropLast().map(\.end)
            let expected = starts.map(Int32.init) + Array(repeating: Int32.max, count: keys.count - starts.count)
            if Array(keys) != expected { return "search keys \(Array(keys)) should be \(expected) at height \(node.height)" }
        }
        var total = 0
        for (index, entry) in node.entryBuffer.enumerated() {
            let child = entry.child
            if child.height != node.height - 1 { return "child height \(child.height) under height \(node.height)" }
            total += child.count
            if entry.end != total { return "running count \(entry.end) at \(index) should be \(total)" }
            if let violation = violation(in: child) { return violation }
        }
        return nil
    }

    /// The tree's height (0 for a single leaf or empty). For tests.
    var height: Int { root?.height ?? 0 }
}
