/// The identities of the objects a ``PaginatedDataSource`` shows, for dropping duplicates.
///
/// Made of closures built by the inlinable factories below, which the source's public
/// initialisers call: the closures are compiled in the client's module, specialised for its
/// object type, so checking a page hashes each object with a direct call and probes a
/// ``HashValueTable`` with no generic dispatch. A custom identity closure returns
/// `AnyHashable`; those are stored with their hash, so a probe compares hashes before
/// calling `AnyHashable`'s (slow, type-checking) `==`. Used only under the source's engine
/// lock.
@usableFromInline
final class SeenIdentities<Object>: @unchecked Sendable {
    /// Adds the identities of a page's objects; returns those whose identity was new (the
    /// first of repeats within the page is kept), in order, or the page itself, uncopied,
    /// when every identity was new.
    let insertNew: ([Object]) -> [Object]
    /// Forgets the identity of an object.
    let remove: (Object) -> Void
    /// Forgets every identity.
    let removeAll: () -> Void

    @usableFromInline
    init(insertNew: @escaping ([Object]) -> [Object], remove: @escaping (Object) -> Void, removeAll: @escaping () -> Void) {
        self.insertNew = insertNew
        self.remove = remove
        self.removeAll = removeAll
    }

    /// Identities given by a closure returning `AnyHashable`.
    @usableFromInline
    static func anyHashables(_ identity: @escaping (Object) -> AnyHashable) -> SeenIdentities {
        let table = HashValueTable<HashedIdentity>()
        return SeenIdentities(
            insertNew: { table.insertNew($0) { HashedIdentity(identity($0)) } },
            remove: { table.remove(HashedIdentity(identity($0))) },
            removeAll: { table.removeAll() }
        )
    }
}

extension SeenIdentities where Object: Hashable {
    /// Identities that are the objects themselves.
    @inlinable
    static func objects() -> SeenIdentities {
        let table = HashValueTable<Object>()
        return SeenIdentities(
            insertNew: { table.insertNew($0) { $0 } },
            remove: { table.remove($0) },
            removeAll: { table.removeAll() }
        )
    }
}

extension SeenIdentities {
    /// Identities given by a typed key (an `Identifiable` object's `id`).
    @inlinable
    static func keys<Key: Hashable>(_ key: @escaping (Object) -> Key) -> SeenIdentities {
        let table = HashValueTable<Key>()
        return SeenIdentities(
            insertNew: { table.insertNew($0, key) },
            remove: { table.remove(key($0)) },
            removeAll: { table.removeAll() }
        )
    }
}

extension HashValueTable {
    /// Adds the keys of `objects`; returns the objects whose key was new (the first of
    /// repeats is kept), in order, or `objects` itself when every key was new.
    @inlinable
    func insertNew<Object>(_ objects: [Object], _ key: (Object) -> Element) -> [Object] {
        var index = objects.startIndex
        while index < objects.endIndex, insert(key(objects[index])) { index += 1 }
        guard index < objects.endIndex else { return objects }
        var kept = Array(objects[..<index])
        for object in objects[(index + 1)...] where insert(key(object)) { kept.append(object) }
        return kept
    }
}

/// An `AnyHashable` identity with its hash computed once.
struct HashedIdentity: Hashable {
    let hash: Int
    let value: AnyHashable

    init(_ value: AnyHashable) {
        self.value = value
        hash = value.hashValue
    }

    static func == (lhs: HashedIdentity, rhs: HashedIdentity) -> Bool { lhs.hash == rhs.hash && lhs.value == rhs.value }
    func hash(into hasher: inout Hasher) { hasher.combine(hash) }
}
