/// The objects a change deleted, updated or moved, as they were before it, by their old
/// paths (see ``SnapshotUpdate/beforeImages(since:)``). Nothing here is generic (the objects
/// are type-erased, inline for small values), so the derived sources' code, which runs
/// unspecialised, reads them without runtime metadata lookups, and recording one image
/// allocates nothing.
@usableFromInline
enum BeforeImages: Sendable {
    /// None: a change that only inserted rows.
    case empty
    /// The one object a change replaced, removed or moved, at its old path.
    case one(RowPath, any Sendable)
    /// Old paths, ascending, each once, and the objects at them.
    case many([RowPath], [any Sendable])

    /// The object at old `path`, or `nil` when the change did not delete, update or move a
    /// row there (or it is not an `Object`). O(log k).
    func object<Object>(at path: RowPath, as type: Object.Type) -> Object? {
        switch self {
        case .empty:
            return nil
        case let .one(only, object):
            return only == path ? object as? Object : nil
        case let .many(paths, objects):
            let index = paths.partitioningIndex { $0 >= path }
            guard index < paths.count, paths[index] == path else { return nil }
            return objects[index] as? Object
        }
    }

    /// Calls `body` with each old path and its object.
    func forEach(_ body: (RowPath, any Sendable) -> Void) {
        switch self {
        case .empty: break
        case let .one(path, object): body(path, object)
        case let .many(paths, objects):
            for index in paths.indices { body(paths[index], objects[index]) }
        }
    }

    /// Images gathered from several changes, oldest first (`rank` ascending), at paths of one
    /// version: sorted by path, the oldest image of each path kept. O(k log k).
    init(gathered: [(path: RowPath, rank: Int, object: any Sendable)]) {
        let sorted = gathered.sorted { $0.path != $1.path ? $0.path < $1.path : $0.rank < $1.rank }
        var paths: [RowPath] = []
        var objects: [any Sendable] = []
        paths.reserveCapacity(sorted.count)
        objects.reserveCapacity(sorted.count)
        for entry in sorted where paths.last != entry.path {
            paths.append(entry.path)
            objects.append(entry.object)
        }
        self = .many(paths, objects)
    }
}
