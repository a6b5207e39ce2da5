extension RowStorage: ExpressibleByArrayLiteral {
    /// A storage holding the literal's elements. O(n).
    @inlinable
    public init(arrayLiteral elements: Element...) {
        self.init(elements)
    }
}

extension RowStorage: @unchecked Sendable where Element: Sendable {}
extension RowStorage.Iterator: @unchecked Sendable where Element: Sendable {}

extension RowStorage: Equatable where Element: Equatable {
    /// Whether both hold equal elements in the same order. O(1) for the same version
    /// (`sharesStorage(with:)`) or different counts; for two versions of one storage that
    /// differ by edits in place, it skips the subtrees they share (O(edited chunks * log n));
    /// otherwise O(n).
    @inlinable
    public static func == (lhs: RowStorage, rhs: RowStorage) -> Bool {
        if lhs.storedCount != rhs.storedCount { return false }
        if lhs.sharesStorage(with: rhs) { return true }
        if lhs.tail.count == rhs.tail.count {
            var shapesMatch = true
            if let left = lhs.root, let right = rhs.root {
                switch RowStorageNode.compare(left, right) {
                case false?: return false
                case true?: break
                case nil: shapesMatch = false
                }
            }
            if shapesMatch { return lhs.tail == rhs.tail }
        }
        return lhs.elementsEqual(rhs)
    }
}

extension RowStorageNode where Element: Equatable {
    /// Whether two subtrees hold equal elements, comparing shared nodes by identity; nil
    /// when their shapes differ (then the caller compares element by element).
    @inlinable
    static func compare(_ left: RowStorageNode, _ right: RowStorageNode) -> Bool? {
        if left === right { return true }
        if left.height != right.height { return nil }
        let width = left.width
        if width != right.width { return nil }
        if left.height == 0 {
            return left.elementBuffer.elementsEqual(right.elementBuffer)
        }
        let leftEntries = left.entries, rightEntries = right.entries
        for index in 0..<width where leftEntries[index].end != rightEntries[index].end { return nil }
        var result: Bool? = true
        for index in 0..<width {
            switch compare(leftEntries[index].child, rightEntries[index].child) {
            case false?: return false
            case nil: result = nil
            case true?: break
            }
        }
        return result
    }
}

extension RowStorage: Hashable where Element: Hashable {
    /// Hashes the count and every element, as `Array` does. O(n).
    @inlinable
    public func hash(into hasher: inout Hasher) {
        hasher.combine(storedCount)
        for element in self { hasher.combine(element) }
    }
}

extension RowStorage: CustomStringConvertible, CustomDebugStringConvertible {
    /// The elements as an array literal, e.g. `[1, 2, 3]`. O(n).
    public var description: String {
        Array(self).description
    }

    /// `RowStorage(` then the elements as an array literal then `)`. O(n).
    public var debugDescription: String {
        "RowStorage(" + Array(self).debugDescription + ")"
    }
}
