import Foundation

/// The position of a row: a section index and an item (row) index within that section.
///
/// The package's own path type, the same on every platform (Foundation's `IndexPath` has
/// `section` and `item` only where UIKit or AppKit is imported). Convert with
/// ``init(_:)`` and `IndexPath(_:)` at the boundary with UIKit or AppKit.
/// Paths order by section, then item. Negative components are allowed in the value and
/// rejected (`nil`) by every lookup.
public struct RowPath: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The section index.
    public var section: Int
    /// The item index within the section.
    public var item: Int

    /// The path of `item` in `section`.
    @inlinable
    public init(item: Int, section: Int) {
        self.section = section
        self.item = item
    }

    /// The path of `row` in `section` (UIKit's table-view spelling).
    @inlinable
    public init(row: Int, section: Int) {
        self.init(item: row, section: section)
    }

    /// The row index (same as ``item``).
    @inlinable
    public var row: Int { item }

    /// The path an `IndexPath` holds, or `nil` unless it has exactly two indexes.
    public init?(_ indexPath: IndexPath) {
        guard indexPath.count == 2 else { return nil }
        self.init(item: indexPath[1], section: indexPath[0])
    }

    @inlinable
    public static func < (lhs: RowPath, rhs: RowPath) -> Bool {
        (lhs.section, lhs.item) < (rhs.section, rhs.item)
    }

    /// `"section-item"`, e.g. `"0-3"`.
    public var description: String { "\(section)-\(item)" }
}

extension IndexPath {
    /// The two-index path `[section, item]` of `path`.
    public init(_ path: RowPath) {
        self.init(index: path.section)
        append(path.item)
    }
}
