/// The identities of the objects a ``PaginatedDataSource`` shows, for dropping duplicates.
///
/// Typed tables where the identity's type is known (the object itself, or its `id`), so
/// inserting hashes the value directly, with no `AnyHashable` box per object (see
/// ``HashValueTable`` for why not a `Set`). A custom
/// identity closure returns `AnyHashable`; those are stored with their hash, so a probe
/// compares hashes before calling `AnyHashable`'s (slow, type-checking) `==`.
/// Used only under the source's engine lock.
class SeenIdentities<Object>: @unchecked Sendable {
    /// Adds the identity of `object`; returns whether it was new.
    func insert(_ object: Object) -> Bool { fatalError("abstract") }

    /// Adds the identities of `objects`; returns those whose identity was new (or repeated
    /// within `objects`: the first occurrence is kept), in order. Returns `objects` itself,
    /// without copying, when every identity was new.
    final func insertNew(_ objects: [Object]) -> [Object] {
        var index = objects.startIndex
        while index < objects.endIndex, insert(objects[index]) { index += 1 }
        guard index < objects.endIndex else { return objects }
        var kept = Array(objects[..<index])
        for object in objects[(index + 1)...] where insert(object) { kept.append(object) }
        return kept
    }
    /// Forgets the identity of `object`.
    func remove(_ object: Object) {}
    /// Forgets every identity.
    func removeAll() {}
}

/// Identities that are the objects themselves.
final class SeenObjects<Object: Hashable>: SeenIdentities<Object>, @unchecked Sendable {
    private let seen = HashValueTable<Object>()

    override func insert(_ object: Object) -> Bool { seen.insert(object) }
    override func remove(_ object: Object) { seen.remove(object) }
    override func removeAll() { seen.removeAll() }
}

/// Identities given by a typed key (an `Identifiable` object's `id`).
final class SeenKeys<Object, Key: Hashable>: SeenIdentities<Object>, @unchecked Sendable {
    private let key: (Object) -> Key
    private let seen = HashValueTable<Key>()

    init(key: @escaping (Object) -> Key) {
        self.key = key
    }

    override func insert(_ object: Object) -> Bool { seen.insert(key(object)) }
    override func remove(_ object: Object) { seen.remove(key(object)) }
    override func removeAll() { seen.removeAll() }
}

/// Identities given by a closure returning `AnyHashable`.
final class SeenAnyHashables<Object>: SeenIdentities<Object>, @unchecked Sendable {
    private let identity: (Object) -> AnyHashable
    private var seen = Set<Hashed>()

    init(identity: @escaping (Object) -> AnyHashable) {
        self.identity = identity
    }

    override func insert(_ object: Object) -> Bool { seen.insert(Hashed(identity(object))).inserted }
    override func remove(_ object: Object) { seen.remove(Hashed(identity(object))) }
    override func removeAll() { seen.removeAll() }

    /// An identity with its hash computed once.
    private struct Hashed: Hashable {
        let hash: Int
        let value: AnyHashable

        init(_ value: AnyHashable) {
            self.value = value
            hash = value.hashValue
        }

        static func == (lhs: Hashed, rhs: Hashed) -> Bool { lhs.hash == rhs.hash && lhs.value == rhs.value }
        func hash(into hasher: inout Hasher) { hasher.combine(hash) }
    }
}
