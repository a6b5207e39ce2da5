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
    /// (`sharesStorage(with:)`) or different counts, else O(n).
    @inlinable
    public static func == (lhs: RowStorage, rhs: RowStorage) -> Bool {
        if lhs.storedCount != rhs.storedCount { return false }
        if lhs.sharesStorage(with: rhs) { return true }
        return lhs.elementsEqual(rhs)
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
