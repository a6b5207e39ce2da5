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
    /// Adds the identities of a page's objects (the second argument) and appends to the
    /// shown objects (the first) those whose identity was new, in order (the first of
    /// repeats within the page is kept); returns how many it appended. Compiled for `Object`
    /// like the rest, so the append copies objects directly, not through value witnesses.
    let appendNew: (inout [Object], [Object]) -> Int
    /// Forgets the identity of an object.
    let remove: (Object) -> Void
    /// Forgets every identity.
    let removeAll: () -> Void

    @usableFromInline
    init(appendNew: @escaping (inout [Object], [Object]) -> Int, remove: @escaping (Object) -> Void, removeAll: @escaping () -> Void) {
        self.appendNew = appendNew
        self.remove = remove
        self.removeAll = removeAll
    }

    /// Identities given by a closure returning `AnyHashable`.
    @usableFromInline
    static func anyHashables(_ identity: @escaping (Object) -> AnyHashable) -> SeenIdentities {
        let table = HashValueTable<HashedIdentity>()
        return SeenIdentities(
            appendNew: { table.appendNew($1, to: &$0) { HashedIdentity(identity($0)) } },
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
            appendNew: { table.appendNew($1, to: &$0) { $0 } },
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
            appendNew: { table.appendNew($1, to: &$0, key) },
            remove: { table.remove(key($0)) },
            removeAll: { table.removeAll() }
        )
    }
}

extension HashValueTable {
    /// Adds the keys of `objects` and appends to `shown` the objects whose key was new (the
    /// first of repeats is kept), in order; returns how many it appended.
    @inlinable
    func appendNew<Object>(_ objects: [Object], to shown: inout [Object], _ key: (Object) -> Element) -> Int {
        reserve(objects.count)
        let before = shown.count
        for object in objects where insert(key(object)) { shown.append(object) }
        return shown.count - before
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
