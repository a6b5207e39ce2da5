/// The duplicate rule of a ``PaginatedDataSource``: which objects of a new page repeat a
/// shown one, by identity, kept in a `Set` of identities.
///
/// Made of closures built by the inlinable factories below, which the source's public
/// initialisers call: the closures (and the `Set` operations) are compiled in the client's
/// module, specialised for its identity type. Used only under the source's engine lock; the
/// identity (user code) runs outside the Signals graph lock.
@usableFromInline
final class SeenIdentities<Object: Hashable & Sendable>: @unchecked Sendable {
    /// The objects of a page whose identity is not shown nor earlier in the page, in order
    /// (the page itself when all are new); records them. O(page) expected.
    let insertNew: ([Object]) -> [Object]
    /// Forgets the identities of the given objects (shown objects about to be dropped).
    let forget: ([Object]) -> Void
    /// Forgets every identity (before the shown objects are replaced).
    let removeAll: () -> Void

    @usableFromInline
    init(insertNew: @escaping ([Object]) -> [Object], forget: @escaping ([Object]) -> Void, removeAll: @escaping () -> Void) {
        self.insertNew = insertNew
        self.forget = forget
        self.removeAll = removeAll
    }

    /// Identities given by `identity`: a typed key (an `Identifiable` object's `id`), or an
    /// `AnyHashable` from a closure.
    @inlinable
    static func keys<Identity: Hashable>(_ identity: @escaping (Object) -> Identity) -> SeenIdentities {
        let seen = SeenSet<Identity>()
        return SeenIdentities(
            insertNew: { seen.insertNew($0, identity) },
            forget: { for object in $0 { seen.set.remove(identity(object)) } },
            removeAll: { seen.set.removeAll() }
        )
    }

    /// Identities that are the objects themselves (the identity function is inlined).
    @inlinable
    static func objects() -> SeenIdentities {
        let seen = SeenSet<Object>()
        return SeenIdentities(
            insertNew: { seen.insertNew($0) { $0 } },
            forget: { for object in $0 { seen.set.remove(object) } },
            removeAll: { seen.set.removeAll() }
        )
    }
}

/// The identities shown, for ``SeenIdentities``; touched only under the source's lock.
@usableFromInline
final class SeenSet<Identity: Hashable> {
    @usableFromInline var set: Set<Identity> = []

    @inlinable
    init() {}

    /// The objects of `page` whose identity is not in the set nor earlier in the page, in
    /// order (the page itself when all are new: no second array); records them.
    @inlinable
    func insertNew<Object>(_ page: [Object], _ identity: (Object) -> Identity) -> [Object] {
        // The set is moved out for the page: one exclusivity check, not one per object.
        var set: Set<Identity> = []
        swap(&set, &self.set)
        defer { swap(&set, &self.set) }
        // Growing rehashes every identity: growing 4x at a time does it a third as often
        // as the `Set`'s own doubling.
        let needed = set.count + page.count
        if needed > set.capacity { set.reserveCapacity(Swift.max(needed, 4 * set.capacity)) }
        var fresh: [Object]? // nil while every object so far is new
        for index in page.indices {
            // `update(with:)` returns nil for a new identity, where `insert` also returns a
            // copy of it; an identity already there is replaced by this equal one.
            let isNew = set.update(with: identity(page[index])) == nil
            if fresh == nil {
                if isNew { continue }
                fresh = Array(page[..<index])
            } else if isNew {
                fresh?.append(page[index])
            }
        }
        return fresh ?? page
    }
}
