import Foundation
import Signals

/// A source over an array: one section titled by ``name``.
///
/// `fetchData()` completes at once (`willLoad` then `didFinishLoading`, synchronously).
/// Mutations publish a new snapshot with an exact change set; an out-of-range index throws
/// ``MutationError`` and changes nothing. Thread-safe. The row mutations are inlinable:
/// compiled for the client's `Object`, they look up no runtime generic metadata for the
/// snapshot types they name (unspecialised, those lookups were about a fifth of an edit).
public final class SimpleDataSource<Object: Hashable & Sendable>: DataSource, BeforeImageSource {
    /// The section title.
    public let name: String
    @usableFromInline let engine: SourceEngine<Object>

    /// Creates a source showing `objects` in one section titled `name`.
    public init(name: String = "", objects: [Object] = []) {
        self.name = name
        engine = SourceEngine(snapshot: Snapshot(sections: [SnapshotSection(id: name, title: name, objects: objects)]))
    }

    /// The current snapshot and the change that produced it (see ``DataSource/updates``).
    public var updates: Property<SnapshotUpdate<Object>> { engine.updates }
    /// The fetch status and content state (see ``DataSource/loadState``).
    public var loadState: Property<LoadState> { engine.loadState }
    /// Will load, partially loaded, finished, failed (see ``DataSource/loadEvents``).
    public var loadEvents: Signal<LoadEvent> { engine.loadEvents }

    /// Sends `willLoad` then `didFinishLoading`: the objects are already here.
    public func fetchData() {
        engine.locked {
            let fetch = engine.begin { _ in nil }
            engine.finish(fetch)
        }
    }

    /// Does nothing: a simple source's fetch completes before `fetchData()` returns.
    public func cancelFetch() {
        engine.cancel()
    }

    /// The objects, in order.
    public var objects: [Object] { Array(engine.snapshot.sections[0].objects) }

    /// Replaces all objects; the change set is computed by diffing.
    public func replaceObjects(with objects: [Object]) {
        engine.locked {
            var next = engine.snapshot
            next.sections[0].objects = RowStorage(objects)
            engine.replace(with: next)
        }
    }

    /// Appends `objects` at the end.
    @inlinable
    public func append(_ objects: [Object]) {
        engine.locked {
            engine.mutateRecording { snapshot, recording in
                let start = snapshot.sections[0].objects.count
                snapshot.sections[0].objects.append(contentsOf: objects)
                return (.insertedRows(start..<(start + objects.count), inSection: 0), recording ? BeforeImages.empty : nil)
            }
        }
    }

    /// Inserts `objects` before the object at `index` (`index == count` appends).
    /// Throws ``MutationError/indexOutOfRange(index:validRange:)`` for any other index.
    @inlinable
    public func insert(_ objects: [Object], at index: Int) throws(MutationError) {
        try engine.locked { () throws(MutationError) in
            let count = engine.snapshot.sections[0].objects.count
            guard index >= 0 && index <= count else { throw .indexOutOfRange(index: index, validRange: 0...count) }
            engine.mutateRecording { snapshot, recording in
                snapshot.sections[0].objects.insert(contentsOf: objects, at: index)
                return (.insertedRows(index..<(index + objects.count), inSection: 0), recording ? BeforeImages.empty : nil)
            }
        }
    }

    /// Removes and returns the object at `index`.
    /// Throws ``MutationError/indexOutOfRange(index:validRange:)`` for an invalid index.
    @inlinable
    @discardableResult
    public func remove(at index: Int) throws(MutationError) -> Object {
        try engine.locked { () throws(MutationError) -> Object in
            let count = engine.snapshot.sections[0].objects.count
            guard index >= 0 && index < count else {
                throw .indexOutOfRange(index: index, validRange: count == 0 ? nil : 0...(count - 1))
            }
            var removed: Object?
            engine.mutateRecording { snapshot, recording in
                let object = snapshot.sections[0].objects.remove(at: index)
                removed = object
                return (.deletedRows(index..<(index + 1), inSection: 0), recording ? BeforeImages.one(RowPath(item: index, section: 0), object) : nil)
            }
            return removed!
        }
    }

    /// Replaces the object at `index` with `object`: an update of that row (a list reloads
    /// or reconfigures it). Throws ``MutationError/indexOutOfRange(index:validRange:)`` for an
    /// invalid index and changes nothing.
    @inlinable
    public func replace(at index: Int, with object: Object) throws(MutationError) {
        try engine.locked { () throws(MutationError) in
            let count = engine.snapshot.sections[0].objects.count
            guard index >= 0 && index < count else {
                throw .indexOutOfRange(index: index, validRange: count == 0 ? nil : 0...(count - 1))
            }
            engine.mutateRecording { snapshot, recording in
                let old = recording ? snapshot.sections[0].objects[index] : nil
                snapshot.sections[0].objects[index] = object
                var changes = ChangeSet()
                changes.updatedRows = [RowPath(item: index, section: 0)]
                return (changes, old.map { BeforeImages.one(RowPath(item: index, section: 0), $0) })
            }
        }
    }

    /// Moves the object at `source` so that it ends up at `destination`.
    /// Throws ``MutationError/indexOutOfRange(index:validRange:)`` if either index is invalid.
    @inlinable
    public func move(from source: Int, to destination: Int) throws(MutationError) {
        try engine.locked { () throws(MutationError) in
            let count = engine.snapshot.sections[0].objects.count
            let valid = count == 0 ? nil : 0...(count - 1)
            guard source >= 0 && source < count else { throw .indexOutOfRange(index: source, validRange: valid) }
            guard destination >= 0 && destination < count else { throw .indexOutOfRange(index: destination, validRange: valid) }
            guard source != destination else { return }
            engine.mutateRecording { snapshot, recording in
                let object = snapshot.sections[0].objects.remove(at: source)
                snapshot.sections[0].objects.insert(object, at: destination)
                var changes = ChangeSet()
                changes.movedRows = [.init(from: RowPath(item: source, section: 0), to: RowPath(item: destination, section: 0))]
                return (changes, recording ? BeforeImages.one(RowPath(item: source, section: 0), object) : nil)
            }
        }
    }
}

extension SimpleDataSource {
    func requestBeforeImages() { engine.requestBeforeImages() }
    func endBeforeImages() { engine.endBeforeImages() }
}
