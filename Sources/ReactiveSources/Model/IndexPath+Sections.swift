import Foundation

#if !canImport(UIKit) && !canImport(AppKit)
extension IndexPath {
    /// An index path for `item` in `section`, as UIKit spells it. (Foundation on Linux has no
    /// such initialiser; on Apple platforms UIKit/AppKit provide the same API.)
    public init(item: Int, section: Int) {
        self.init(section: section, item: item)
    }

    /// An index path for `row` in `section`, as UIKit spells it.
    public init(row: Int, section: Int) {
        self.init(item: row, section: section)
    }

    /// The section index, or -1 when the path has fewer than two indexes (which every data
    /// source treats as an invalid path).
    public var section: Int { count >= 2 ? self[0] : -1 }

    /// The item index, or -1 when the path has fewer than two indexes.
    public var item: Int { count >= 2 ? self[1] : -1 }

    /// The row index (same as ``item``).
    public var row: Int { item }
}
#endif

extension IndexPath {
    /// The path of `item` in `section`, on every platform. Built by appending, without the
    /// array `init(indexes:)` allocates (about 300 instructions a path).
    init(section: Int, item: Int) {
        self.init(index: section)
        append(item)
    }

    /// `(section, item)` when this path has exactly two indexes, `nil` otherwise.
    /// Used by every source so malformed paths are rejected the same way on every platform.
    var sectionAndItem: (section: Int, item: Int)? {
        count == 2 ? (self[0], self[1]) : nil
    }
}
