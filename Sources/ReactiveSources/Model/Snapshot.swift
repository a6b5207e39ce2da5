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
    /// The reverse lookup behind ``path(of:)``, shared by copies (see ``ObjectLookup``).
    private(set) var lookup = ObjectLookup<Object>()

    /// Creates a snapshot from sections.
    public init(sections: [SnapshotSection<Object>] = []) {
        self.sections = sections
    }

    /// Number of sections. The counts and row reads below are inlinable: a list asks for
    /// them on every layout and cell, and compiled for the client's `Object` they read the
    /// arrays without runtime generic-metadata lookups (unspecialised, a `row(at:)` cost
    /// ~130 ns, now a few ns).
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
    @inlinable
    public func row(at path: RowPath) -> Row<Object>? {
        let (section, item) = (path.section, path.item)
        guard sections.indices.contains(section) else { return nil }
        return sections[section].row(at: item)
    }

    /// The object at `path`, or `nil` for an invalid path or a placeholder row.
    @inlinable
    public func object(at path: RowPath) -> Object? {
        row(at: path)?.object
    }

    /// The index path of `object`, or `nil` if absent.
    ///
    /// An object present more than once: the path of one of its occurrences (always a row
    /// that holds it). That is the first occurrence when the lookup was built from scratch;
    /// after incremental updates (below) it may be a later one.
    ///
    /// Complexity: the first lookup on a snapshot builds an index: O(n) from scratch, or,
    /// for a snapshot a source published by a change set when the previous version's lookup
    /// was built (a consumer that looks objects up after every update, or every few: up to
    /// 16 versions without a lookup are bridged), O(k log n) amortised for k changed rows,
    /// reusing the previous index. Later lookups: O(log n) (a walk of the
    /// short chain of changes to the last full index, each step a binary search and a hash).
    /// Looking up an object that occurs several times, after the occurrence the index tracked
    /// was removed, rebuilds the index (O(n)). A snapshot whose lookup is never used pays
    /// nothing for it.
    public func path(of object: Object) -> RowPath? {
        lookup.path(of: object, in: sections)
    }

    /// Records that this snapshot was made by `changes` from the snapshot whose lookup is
    /// `previous`, so its first ``path(of:)`` can reuse that lookup if it was built. O(1).
    func linkLookup(to previous: ObjectLookup<Object>, changes: ChangeSet) {
        lookup.link(to: previous, changes: changes)
    }

    public static func == (lhs: Snapshot, rhs: Snapshot) -> Bool {
        lhs.sections == rhs.sections
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(sections)
    }
}
