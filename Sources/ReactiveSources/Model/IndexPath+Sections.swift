import Foundation

#if !canImport(UIKit) && !canImport(AppKit)
extension IndexPath {
    /// An index path for `item` in `section`, as UIKit spells it. (Foundation on Linux has no
    /// such initialiser; on Apple platforms UIKit/AppKit provide the same API.)
    public init(item: Int, section: Int) {
        self.init(indexes: [section, item])
    }

    /// An index path for `row` in `section`, as UIKit spells it.
    public init(row: Int, section: Int) {
        self.init(indexes: [section, row])
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
    /// `(section, item)` when this path has exactly two indexes, `nil` otherwise.
    /// Used by every source so malformed paths are rejected the same way on every platform.
    var sectionAndItem: (section: Int, item: Int)? {
        count == 2 ? (self[0], self[1]) : nil
    }
}
