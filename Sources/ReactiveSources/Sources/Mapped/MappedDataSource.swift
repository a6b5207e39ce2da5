import Foundation
import Signals

/// A source showing another source's objects transformed, with the same sections, rows,
/// placeholders, change sets, load state and events. Use it to give children of a
/// ``MultiDataSource`` a common object type (for example an enum of text lines and photos).
///
/// Derived and incremental: when the child appends k objects, only those k are transformed;
/// any other change transforms the child's objects again (O(n)). `transform` must be pure; it
/// runs while the Signals graph is locked.
public final class MappedDataSource<Base: Hashable & Sendable, Object: Hashable & Sendable>: DataSource {
    /// The transformed source.
    public let child: any DataSource<Base>
    /// The current snapshot and the change that produced it (see ``DataSource/updates``).
    public let updates: Property<SnapshotUpdate<Object>>

    /// Creates a source showing `transform(object)` for each of `child`'s objects.
    public init(child: any DataSource<Base>, transform: @escaping @Sendable (Base) -> Object) {
        self.child = child
        let mapper = SnapshotMapper(child: child, transform: transform)
        updates = Property(reducing: SnapshotUpdate(snapshot: Snapshot()), equals: { $0.version == $1.version }, mapper.map)
    }

    /// The child's name.
    public var name: String { child.name }
    /// The fetch status and content state (see ``DataSource/loadState``).
    public var loadState: Property<LoadState> { child.loadState }
    /// Will load, partially loaded, finished, failed (see ``DataSource/loadEvents``).
    public var loadEvents: Signal<LoadEvent> { child.loadEvents }

    /// Fetches the child.
    public func fetchData() { child.fetchData() }

    /// Cancels the child's fetch.
    public func cancelFetch() { child.cancelFetch() }

    /// Forwards to the child (index paths are the same).
    public func willDisplayRow(at path: RowPath) { child.willDisplayRow(at: path) }
}

extension DataSource {
    /// This source with every object transformed by `transform` (see ``MappedDataSource``).
    public func map<Mapped: Hashable & Sendable>(_ transform: @escaping @Sendable (Object) -> Mapped) -> MappedDataSource<Object, Mapped> {
        MappedDataSource(child: self, transform: transform)
    }
}

/// Transforms a child's snapshots, incrementally for appends. Touched only from the derived
/// property's closure, which runs serially.
final class SnapshotMapper<Base: Hashable & Sendable, Object: Hashable & Sendable>: @unchecked Sendable {
    private let child: any DataSource<Base>
    private let transform: @Sendable (Base) -> Object
    private var last: SnapshotUpdate<Base>?

    init(child: any DataSource<Base>, transform: @escaping @Sendable (Base) -> Object) {
        self.child = child
        self.transform = transform
    }

    func map(_ previous: SnapshotUpdate<Object>) -> SnapshotUpdate<Object> {
        let update = child.updates.value
        if let last, last.version == update.version { return previous }
        defer { last = update }
        let consecutive = last.map { update.version == $0.version &+ 1 } ?? false
        if consecutive, let last, let sections = appendOnly(from: last.snapshot, to: update, previous: previous.snapshot) {
            return SnapshotUpdate(snapshot: Snapshot(sections: sections), changes: update.changes, version: previous.version &+ 1)
        }
        let sections = update.snapshot.sections.map { section in
            SnapshotSection(id: section.id, title: section.title, objects: section.objects.map(transform), placeholder: section.placeholder)
        }
        let snapshot = Snapshot(sections: sections)
        let changes = consecutive ? update.changes : ChangeSet(from: previous.snapshot, to: snapshot)
        return SnapshotUpdate(snapshot: snapshot, changes: changes, version: previous.version &+ 1)
    }

    /// The mapped sections when the child only appended objects to existing sections (and
    /// changed placeholders); `nil` otherwise.
    private func appendOnly(from old: Snapshot<Base>, to update: SnapshotUpdate<Base>, previous: Snapshot<Object>) -> [SnapshotSection<Object>]? {
        let changes = update.changes
        let new = update.snapshot.sections
        guard changes.touchesOnlyRows, changes.movedRows.isEmpty, changes.updatedRows.isEmpty,
              old.sections.count == new.count, previous.sections.count == new.count else { return nil }
        for path in changes.deletedRows where path.item < old.sections[path.section].objects.count { return nil }
        for path in changes.insertedRows where path.item < old.sections[path.section].objects.count { return nil }
        var sections = previous.sections
        for index in new.indices {
            let oldCount = old.sections[index].objects.count
            guard new[index].objects.count >= oldCount else { return nil }
            if new[index].objects.count > oldCount {
                sections[index].objects.append(contentsOf: new[index].objects[oldCount...].map(transform))
            }
            sections[index].placeholder = new[index].placeholder
            sections[index].title = new[index].title
        }
        return sections
    }
}
