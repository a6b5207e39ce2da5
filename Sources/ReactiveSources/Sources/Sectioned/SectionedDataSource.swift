import Foundation
import Signals

/// A source that groups another source's objects into sections by a key, derived from it.
///
/// - **Grouping.** Every object with the same key ends up in the same section (not only
///   adjacent ones). Section titles come from the key (`title(for:)`, by default the key's
///   description), and so does a section's `id`, which diffs match sections by: two keys
///   with the same title make two sections with the same id, which a diff pairs by order
///   (the change sets stay valid, but a view may animate one as the other), so give keys
///   titles that differ.
/// - **Order.** Sections follow `sectionOrder`: by default the order in which each key first
///   appears in the child's objects; or sorted by key. Within a section, objects keep the
///   child's order unless `objectOrder` is given (then sorted, stably).
/// - **Derived and incremental.** The snapshot is a derived `Signals` property and updates by
///   itself whenever the child publishes, partial loads included. A child edit of k rows
///   (appends, inserts, removals, moves, edits; coalesced updates composed) costs
///   O(k log² n) when no section appears, empties or changes place, else O(k log² n +
///   sections log sections): each row's place in its section is found by binary search over
///   order labels. Exceptions: with `objectOrder`, removing the row of a section that comes
///   first in the child costs O(that section) (to find the next one); about 30 inserts at
///   one place in the middle of the child use up the room between two labels and regroup
///   everything (O(n)); appends and prepends have room for about 2^30 rows. An edit that
///   changes the key of an object moves its row to the new section (a move and an update).
///   A child edit touching more than a sixteenth of the rows (a predicate change upstream, a
///   refresh) is merged into the sections in one pass (O(n + k log k), no diff) when no
///   section appears, empties or moves. The child adding, removing or moving sections,
///   becoming empty or non-empty, regroups everything (O(n)) and diffs. Keys that `sectionOrder` ranks equal are ordered by first
///   appearance.
/// - **Lifecycle.** Load state and load events are the child's own; `fetchData()` and
///   `cancelFetch()` go to the child, and `willDisplayRow(at:)` too, with the child's path
///   of the displayed object (or of its placeholder row).
/// - **Placeholders.** While the child has no objects, its placeholder row (loading, no
///   results, error) is shown in a single untitled section.
public final class SectionedDataSource<Object: Hashable & Sendable, Key: Hashable & Sendable>: DerivedSourceNode<Object>, DataSource, @unchecked Sendable {
    /// The source's name.
    public let name: String
    /// The grouped source.
    public let child: any DataSource<Object>

    /// Groups `child`'s objects by `key`.
    /// - Parameters:
    ///   - title: The section title for a key; defaults to `String(describing: key)`.
    ///   - sectionOrder: The order of sections; defaults to first appearance.
    ///   - objectOrder: Optional order of objects within a section.
    /// Inlinable, so the merge loop of large edits is compiled for `Object` (and reading the
    /// sections of the rows they remove, for `Key`).
    @inlinable
    public convenience init(
        name: String = "",
        child: any DataSource<Object>,
        key: @escaping @Sendable (Object) -> Key,
        title: @escaping @Sendable (Key) -> String = { String(describing: $0) },
        sectionOrder: SectionOrder<Key> = .firstAppearance,
        objectOrder: (@Sendable (Object, Object) -> Bool)? = nil
    ) {
        self.init(name: name, child: child, key: key, title: title, sectionOrder: sectionOrder, objectOrder: objectOrder, loops: .compiled(), keyLoops: .compiled(key: key))
    }

    @usableFromInline
    init(
        name: String,
        child: any DataSource<Object>,
        key: @escaping @Sendable (Object) -> Key,
        title: @escaping @Sendable (Key) -> String,
        sectionOrder: SectionOrder<Key>,
        objectOrder: (@Sendable (Object, Object) -> Bool)?,
        loops: CompiledLoops<Object>,
        keyLoops: SectionKeyLoops<Object, Key>
    ) {
        self.name = name
        self.child = child
        let grouper = Grouper(
            parent: child, key: key, title: title, sectionOrder: sectionOrder, objectOrder: objectOrder, loops: loops, keyLoops: keyLoops
        )
        super.init(grouper, upstream: .parent(child))
    }

    /// Groups `child`'s objects by the value at `keyPath` (inlinable, so the key path is read
    /// in code compiled for `Object`).
    @inlinable
    public convenience init(
        name: String = "",
        child: any DataSource<Object>,
        keyPath: KeyPath<Object, Key>,
        sectionOrder: SectionOrder<Key> = .firstAppearance,
        objectOrder: (@Sendable (Object, Object) -> Bool)? = nil
    ) {
        self.init(name: name, child: child, key: reader(of: keyPath), sectionOrder: sectionOrder, objectOrder: objectOrder)
    }
}

extension Grouper: NodeTransformer {
    func next(_ previous: SnapshotUpdate<Object>) -> SnapshotUpdate<Object> { group(previous) }

    /// The child's path of the object shown at `path`, or of the child's placeholder row.
    func parentRow(ofOwn path: RowPath, own: SnapshotUpdate<Object>) -> ParentRow? {
        switch own.snapshot.row(at: path) {
        case .object(let object)?:
            return parent.path(of: object).map { ParentRow(parent: parent, path: $0) }
        case .placeholder?:
            let childSnapshot = parent.snapshot
            guard let last = childSnapshot.sections.indices.last else { return nil }
            return ParentRow(parent: parent, path: RowPath(item: childSnapshot.sections[last].objects.count, section: last))
        case nil:
            return nil
        }
    }
}
