import Foundation
import Signals

/// Synchronous access to the current snapshot. Each call reads the snapshot once; to read
/// several values consistently, read ``snapshot`` once and query it.
extension DataSource {
    /// The current snapshot.
    public var snapshot: Snapshot<Object> { updates.value.snapshot }

    /// The snapshot as an observable property (without change sets).
    public var snapshots: Property<Snapshot<Object>> { updates.map(\.snapshot) }

    /// Whether a fetch is in flight, observable.
    public var isFetching: Property<Bool> { loadState.map(\.isFetching) }

    /// The fetch status, observable.
    public var status: Property<FetchStatus> { loadState.map(\.status) }

    /// The content state, observable.
    public var contentState: Property<ContentState> { loadState.map(\.content) }

    /// Number of sections.
    public var numberOfSections: Int { snapshot.numberOfSections }

    /// Number of rows (placeholders included) in `section`; 0 for an invalid section.
    public func numberOfRows(inSection section: Int) -> Int { snapshot.numberOfRows(inSection: section) }

    /// Number of objects (placeholders excluded) in `section`; 0 for an invalid section.
    public func numberOfObjects(inSection section: Int) -> Int { snapshot.numberOfObjects(inSection: section) }

    /// The object at `path`, or `nil` for an invalid path or a placeholder row.
    public func object(at path: RowPath) -> Object? { snapshot.object(at: path) }

    /// The row (object or placeholder) at `path`, or `nil` for an invalid path.
    public func row(at path: RowPath) -> Row<Object>? { snapshot.row(at: path) }

    /// The index path of `object`, or `nil` if it is not shown; for an object shown more than
    /// once, one of its paths. See ``Snapshot/path(of:)`` for the cost: O(log n) once the
    /// snapshot's index exists, which a source keeps up to date incrementally.
    public func path(of object: Object) -> RowPath? { snapshot.path(of: object) }

    /// The title of `section`, or `nil` for an untitled or invalid section.
    public func title(ofSection section: Int) -> String? { snapshot.title(ofSection: section) }

    /// All objects, section by section.
    public var allObjects: [Object] { snapshot.allObjects }
}
