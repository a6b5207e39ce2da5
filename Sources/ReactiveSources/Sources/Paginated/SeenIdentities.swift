/// The duplicate rule of a ``PaginatedDataSource``: which objects of a new page repeat a
/// shown one, by identity.
///
/// Made of closures built by the inlinable factories below, which the source's public
/// initialisers call: the closures are compiled in the client's module, specialised for its
/// object type, so checking a page hashes each identity with a direct call and probes an
/// ``IdentityTable`` with no generic dispatch, and appending the new objects copies them
/// directly. Used only under the source's engine lock, always with the source's shown
/// objects; the identity (user code) runs outside the Signals graph lock.
@usableFromInline
final class SeenIdentities<Object: Hashable & Sendable>: @unchecked Sendable {
    /// The objects of a page (the third argument) whose identity is not in the shown
    /// objects (the first) after the first `n` (the second, which the caller drops) nor
    /// earlier in the page, in order; records them as appended.
    let insertNew: (RowStorage<Object>, Int, [Object]) -> [Object]
    /// Appends the objects `insertNew` returned to the shown objects.
    let append: (inout RowStorage<Object>, [Object]) -> Void
    /// Forgets the first `n` (the first argument) of the shown objects (the second), before
    /// the caller removes them.
    let dropFirst: (Int, RowStorage<Object>) -> Void
    /// Forgets every identity (before the shown objects are replaced).
    let removeAll: () -> Void

    /// The shown objects left once the first `dropped` go (`dropped` clamped to
    /// `0...shown.count`).
    @inlinable
    static func remaining(_ shown: RowStorage<Object>, afterDropping dropped: Int) -> Slice<RowStorage<Object>> {
        shown[min(max(0, dropped), shown.count)...]
    }

    @usableFromInline
    init(
        insertNew: @escaping (RowStorage<Object>, Int, [Object]) -> [Object],
        append: @escaping (inout RowStorage<Object>, [Object]) -> Void,
        dropFirst: @escaping (Int, RowStorage<Object>) -> Void,
        removeAll: @escaping () -> Void
    ) {
        self.insertNew = insertNew
        self.append = append
        self.dropFirst = dropFirst
        self.removeAll = removeAll
    }

    /// Identities given by `identity`: a typed key (an `Identifiable` object's `id`), or an
    /// `AnyHashable` from a closure.
    @inlinable
    static func keys<Identity: Hashable>(_ identity: @escaping (Object) -> Identity) -> SeenIdentities {
        let table = IdentityTable()
        return SeenIdentities(
            insertNew: { table.insertNew($2, after: remaining($0, afterDropping: $1), hash: { $0.combine(identity($1)) }, same: { identity($0) == identity($1) }) },
            append: { $0.append(contentsOf: $1) },
            dropFirst: { table.dropFirst($0, of: $1, hash: { $0.combine(identity($1)) }) },
            removeAll: { table.removeAll() }
        )
    }
}

extension SeenIdentities {
    /// Identities that are the objects themselves, hashed and compared where they are
    /// stored (no copy of an object is made to hash it).
    @inlinable
    static func objects() -> SeenIdentities {
        let table = IdentityTable()
        return SeenIdentities(
            insertNew: { table.insertNew($2, after: remaining($0, afterDropping: $1), hash: { $0.combine($1) }, same: { $0 == $1 }) },
            append: { $0.append(contentsOf: $1) },
            dropFirst: { table.dropFirst($0, of: $1, hash: { $0.combine($1) }) },
            removeAll: { table.removeAll() }
        )
    }
}
