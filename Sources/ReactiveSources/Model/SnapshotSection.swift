/// One section of a snapshot: an identity, a title, the objects in order, and at most one
/// trailing placeholder row.
///
/// Rows are `objects` followed by `placeholder` (when present), so a placeholder is always
/// the last row.
public struct SnapshotSection<Object: Hashable & Sendable>: Hashable, Sendable {
    /// Identity used to match sections across snapshots (diffing, selection).
    public var id: String
    /// The title shown for the section, if any.
    public var title: String?
    /// The objects, in row order, in storage that versions cheaply: a snapshot kept by an
    /// observer does not make the source's next edit copy every object (see ``RowStorage``).
    public var objects: RowStorage<Object>
    /// The trailing placeholder row, if any.
    public var placeholder: Placeholder?

    /// Creates a section. `id` defaults to `title` (or "" when untitled).
    public init(id: String? = nil, title: String? = nil, objects: RowStorage<Object> = [], placeholder: Placeholder? = nil) {
        self.id = id ?? title ?? ""
        self.title = title
        self.objects = objects
        self.placeholder = placeholder
    }

    /// Creates a section holding `objects` (copied into row storage, O(n)).
    public init<Objects: Sequence<Object>>(id: String? = nil, title: String? = nil, objects: Objects, placeholder: Placeholder? = nil) {
        self.init(id: id, title: title, objects: RowStorage(objects), placeholder: placeholder)
    }

    /// Number of rows: objects plus the placeholder row, if any.
    @inlinable
    public var rowCount: Int { objects.count + (placeholder == nil ? 0 : 1) }

    /// The row at `index`, or `nil` when `index` is out of range (negative included).
    @inlinable
    public func row(at index: Int) -> Row<Object>? {
        if index >= 0 && index < objects.count { return .object(objects[index]) }
        if index == objects.count, let placeholder { return .placeholder(placeholder) }
        return nil
    }

    /// All rows in order. O(n): prefer ``row(at:)`` for single rows.
    public var rows: [Row<Object>] {
        var rows = objects.map(Row.object)
        if let placeholder { rows.append(.placeholder(placeholder)) }
        return rows
    }
}
