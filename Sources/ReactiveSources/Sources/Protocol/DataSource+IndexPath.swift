import Foundation

/// `IndexPath` spellings for UIKit and AppKit code: each converts with ``RowPath/init(_:)``
/// and answers `nil` (or ignores the call) for a path that does not have exactly two indexes.
extension DataSource {
    /// The object at `indexPath`, or `nil` for an invalid or malformed path or a placeholder row.
    public func object(at indexPath: IndexPath) -> Object? {
        RowPath(indexPath).flatMap { object(at: $0) }
    }

    /// The row at `indexPath`, or `nil` for an invalid or malformed path.
    public func row(at indexPath: IndexPath) -> Row<Object>? {
        RowPath(indexPath).flatMap { row(at: $0) }
    }

    /// The index path of `object`, or `nil` if it is not shown (``path(of:)`` as an
    /// `IndexPath`).
    public func indexPath(of object: Object) -> IndexPath? {
        path(of: object).map(IndexPath.init)
    }

    /// Tells the source the row at `indexPath` is displayed; malformed paths are ignored.
    public func willDisplayRow(at indexPath: IndexPath) {
        if let path = RowPath(indexPath) { willDisplayRow(at: path) }
    }
}
