/// The duplicate rule of a ``PaginatedDataSource``: which shown objects a new page's objects
/// repeat, by identity.
///
/// Made of closures built by the inlinable factories below, which the source's public
/// initialisers call: the closures are compiled in the client's module, specialised for its
/// object type, so checking a page hashes each identity with a direct call and probes an
/// ``IdentityTable`` with no generic dispatch, and the append copies objects directly. Used
/// only under the source's engine lock, always with the source's shown objects.
@usableFromInline
final class SeenIdentities<Object>: @unchecked Sendable {
    /// Appends to the shown objects (the first argument) those of a page (the second) whose
    /// identity is new, in order (the first of repeats within the page is kept), and records
    /// them; returns how many it appended.
    let appendNew: (inout [Object], [Object]) -> Int
    /// Forgets the first `n` shown objects (the first argument) of the shown objects (the
    /// second), before the caller removes them.
    let dropFirst: (Int, [Object]) -> Void
    /// Forgets every identity (before the shown objects are replaced).
    let removeAll: () -> Void

    @usableFromInline
    init(appendNew: @escaping (inout [Object], [Object]) -> Int, dropFirst: @escaping (Int, [Object]) -> Void, removeAll: @escaping () -> Void) {
        self.appendNew = appendNew
        self.dropFirst = dropFirst
        self.removeAll = removeAll
    }

    /// Identities given by `identity`: a typed key (an `Identifiable` object's `id`), the
    /// object itself, or an `AnyHashable` from a closure.
    @inlinable
    static func keys<Identity: Hashable>(_ identity: @escaping (Object) -> Identity) -> SeenIdentities {
        let table = IdentityTable()
        return SeenIdentities(
            appendNew: { table.appendNew($1, to: &$0, identity: identity) },
            dropFirst: { table.dropFirst($0, of: $1, identity: identity) },
            removeAll: { table.removeAll() }
        )
    }
}

extension SeenIdentities where Object: Hashable {
    /// Identities that are the objects themselves.
    @inlinable
    static func objects() -> SeenIdentities {
        let table = IdentityTable()
        return SeenIdentities(
            appendNew: { table.appendNew($1, to: &$0) { $0 } },
            dropFirst: { table.dropFirst($0, of: $1) { $0 } },
            removeAll: { table.removeAll() }
        )
    }
}
