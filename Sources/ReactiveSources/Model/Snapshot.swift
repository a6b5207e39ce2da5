import Foundation
import Synchronization

/// An immutable picture of a source's content: sections of rows.
///
/// Lookups never trap: every accessor returns `nil` (or 0) for an invalid index path or
/// section (negative, out of range, or malformed).
public struct Snapshot<Object: Hashable & Sendable>: Hashable, Sendable {
    /// The sections, in display order.
    public var sections: [SnapshotSection<Object>] {
        didSet {
            // A table no other copy shares is emptied in place: no allocation per mutation.
            if isKnownUniquelyReferenced(&lookup) {
                lookup.invalidate()
            } else {
                lookup = ObjectLookup<Object>()
            }
        }
    }
    private var lookup = ObjectLookup<Object>()

    /// Creates a snapshot from sections.
    public init(sections: [SnapshotSection<Object>] = []) {
        self.sections = sections
    }

    /// Number of sections. The counts below are inlinable: a list asks for them on every
    /// layout, and compiled for the client's `Object` they read the arrays without runtime
    /// generic-metadata lookups.
    @inlinable
    public var numberOfSections: Int { sections.count }

    /// Number of rows in `section` (placeholder included), or 0 for an invalid section.
    @inlinable
    public func numberOfRows(inSection section: Int) -> Int {
        sections.indices.contains(section) ? sections[section].rowCount : 0
    }

    /// Number of objects in `section` (placeholder excluded), or 0 for an invalid section.
    @inlinable
    public func numberOfObjects(inSection section: Int) -> Int {
        sections.indices.contains(section) ? sections[section].objects.count : 0
    }

    /// Total number of objects in all sections.
    @inlinable
    public var objectCount: Int { sections.reduce(0) { $0 + $1.objects.count } }

    /// All objects, section by section.
    public var allObjects: [Object] { sections.flatMap(\.objects) }

    /// The title of `section`, or `nil` for an untitled or invalid section.
    @inlinable
    public func title(ofSection section: Int) -> String? {
        sections.indices.contains(section) ? sections[section].title : nil
    }

    /// The row at `path`, or `nil` for an invalid path.
    public func row(at path: RowPath) -> Row<Object>? {
        let (section, item) = (path.section, path.item)
        guard sections.indices.contains(section) else { return nil }
        return sections[section].row(at: item)
    }

    /// The object at `path`, or `nil` for an invalid path or a placeholder row.
    public func object(at path: RowPath) -> Object? {
        row(at: path)?.object
    }

    /// The index path of `object` (its first occurrence), or `nil` if absent.
    ///
    /// Complexity: O(1) on average; the first lookup on a snapshot builds an index in O(n).
    public func path(of object: Object) -> RowPath? {
        lookup.path(of: object, in: sections)
    }

    public static func == (lhs: Snapshot, rhs: Snapshot) -> Bool {
        lhs.sections == rhs.sections
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(sections)
    }
}

/// A lazily built object -> index path table shared by copies of one snapshot value.
private final class ObjectLookup<Object: Hashable & Sendable>: Sendable {
    private let table = Mutex<[Object: RowPath]?>(nil)
    /// Set once `table` is built: lets `invalidate()` skip the lock (and the generic table)
    /// for a table never built.
    private let mayBeBuilt = Atomic<Bool>(false)

    /// Drops the table, if built; the next lookup rebuilds it. The caller holds the only
    /// reference to this object.
    func invalidate() {
        guard mayBeBuilt.load(ordering: .acquiring) else { return }
        table.withLock { $0 = nil }
        mayBeBuilt.store(false, ordering: .releasing)
    }

    func path(of object: Object, in sections: [SnapshotSection<Object>]) -> RowPath? {
        table.withLock { table in
            if table == nil {
                var built: [Object: RowPath] = [:]
                built.reserveCapacity(sections.reduce(0) { $0 + $1.objects.count })
                for (sectionIndex, section) in sections.enumerated() {
                    for (itemIndex, object) in section.objects.enumerated() where built[object] == nil {
                        built[object] = RowPath(item: itemIndex, section: sectionIndex)
                    }
                }
                table = built
                mayBeBuilt.store(true, ordering: .releasing)
            }
            return table?[object]
        }
    }
}
