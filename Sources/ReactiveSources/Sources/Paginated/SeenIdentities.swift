/// The duplicate rule of a ``PaginatedDataSource``: which objects of a new page repeat a
/// shown one, by identity, kept in a ``SeenTable`` of the identities' hash values.
///
/// Made of closures built by the inlinable factories below, which the source's public
/// initialisers call: the closures (and the table's operations) are compiled in the client's
/// module, specialised for its identity type. Used only under the source's engine lock; the
/// identity (user code) runs outside the Signals graph lock.
@usableFromInline
final class SeenIdentities<Object: Hashable & Sendable>: @unchecked Sendable {
    /// The objects of a page whose identity is not shown nor earlier in the page, in order
    /// (the page itself when all are new); records them. The second argument reads the
    /// `i`-th shown object that is still kept (after the last ``forget``). O(page) expected.
    let insertNew: (_ page: [Object], _ shown: (Int) -> Object) -> [Object]
    /// Forgets the first shown objects (about to be dropped), given in order.
    let forget: ([Object]) -> Void
    /// Forgets every identity (before the shown objects are replaced).
    let removeAll: () -> Void

    @usableFromInline
    init(
        insertNew: @escaping (_ page: [Object], _ shown: (Int) -> Object) -> [Object], forget: @escaping ([Object]) -> Void,
        removeAll: @escaping () -> Void
    ) {
        self.insertNew = insertNew
        self.forget = forget
        self.removeAll = removeAll
    }

    /// Identities given by `identity`: a typed key (an `Identifiable` object's `id`), or an
    /// `AnyHashable` from a closure.
    @inlinable
    static func keys<Identity: Hashable>(_ identity: @escaping (Object) -> Identity) -> SeenIdentities {
        let seen = SeenTable<Identity>()
        return SeenIdentities(
            insertNew: { seen.insertNew($0, shown: $1, identity) },
            forget: { seen.forget($0, identity) },
            removeAll: { seen.removeAll() }
        )
    }

    /// Identities that are the objects themselves (the identity function is inlined).
    @inlinable
    static func objects() -> SeenIdentities {
        let seen = SeenTable<Object>()
        return SeenIdentities(
            insertNew: { seen.insertNew($0, shown: $1) { $0 } },
            forget: { seen.forget($0) { $0 } },
            removeAll: { seen.removeAll() }
        )
    }
}

/// The shown identities as their hash values, each mapped to the serial number of the shown
/// object that has it; for ``SeenIdentities``, touched only under the source's lock.
///
/// Each received identity is hashed once (`hashValue`). A hash value not in the table is a
/// new identity; one in the table is a duplicate only if the identity of the object at that
/// serial is equal (read from the shown objects). Two distinct shown identities with one
/// hash value (a 64-bit collision) are kept right: the second goes to `collided`, a
/// `Dictionary` of identities. The table holds no copy of the objects, so growing it and
/// freeing it touch no object (measurements in Benchmarks/BENCHMARKS.md, "HTTP").
@usableFromInline
final class SeenTable<Identity: Hashable> {
    /// A shown identity's hash value -> the serial of the shown object that has it.
    @usableFromInline var serials: [HashValue: Int] = [:]
    /// Shown identities whose hash value is held in `serials` by another shown identity,
    /// with their serials (empty unless two hash values collided).
    @usableFromInline var collided: [Identity: Int] = [:]
    /// The serial of the first kept object: serials count the objects recorded since
    /// ``removeAll()``, and the first `first` of them are forgotten.
    @usableFromInline var first = 0
    /// The serial the next new object gets.
    @usableFromInline var next = 0

    @inlinable
    init() {}

    /// The objects of `page` whose identity is neither shown nor earlier in the page, in
    /// order (the page itself when all are new: no second array); records them. `shown(i)`
    /// is the `i`-th kept shown object, read only when a hash value is already in the table.
    @inlinable
    func insertNew<Object>(_ page: [Object], shown: (Int) -> Object, _ identity: (Object) -> Identity) -> [Object] {
        // The table is moved out for the page: one exclusivity check, not one per object.
        var serials: [HashValue: Int] = [:]
        swap(&serials, &self.serials)
        defer { swap(&serials, &self.serials) }
        let pageStart = next
        var fresh: [Object]? // nil while every object so far is new
        for index in page.indices {
            let object = identity(page[index])
            let hash = HashValue(object.hashValue)
            var isNew = true
            // One lookup for a new hash value; a known one is put back.
            if let serial = serials.updateValue(next, forKey: hash) {
                serials[hash] = serial
                let other = serial < pageStart ? shown(serial - first) : (fresh?[serial - pageStart] ?? page[serial - pageStart])
                if identity(other) == object || collided[object] != nil {
                    isNew = false
                } else {
                    collided[object] = next
                }
            }
            if isNew {
                next += 1
                fresh?.append(page[index])
            } else if fresh == nil {
                fresh = Array(page[..<index])
            }
        }
        return fresh ?? page
    }

    /// Forgets the first kept objects, `objects` in order.
    @inlinable
    func forget<Object>(_ objects: [Object], _ identity: (Object) -> Identity) {
        for (offset, object) in objects.enumerated() {
            let object = identity(object)
            let hash = HashValue(object.hashValue)
            if serials[hash] == first + offset {
                serials[hash] = nil
                // A collided identity with this hash value takes the slot, so a hash value
                // missing from `serials` always means a new identity.
                if !collided.isEmpty, let heir = collided.first(where: { HashValue($0.key.hashValue) == hash }) {
                    collided[heir.key] = nil
                    serials[hash] = heir.value
                }
            } else if !collided.isEmpty {
                collided[object] = nil
            }
        }
        first += objects.count
    }

    /// Forgets every identity.
    @inlinable
    func removeAll() {
        serials.removeAll()
        collided.removeAll()
        first = 0
        next = 0
    }
}

/// An identity's hash value (a `Hasher` result) as a table key. It hashes to itself, mixed
/// with the table's seed: it is already a well-mixed hash, so hashing it again through
/// `Hasher` would only cost time (a second SipHash per object, and per key on each growth).
@usableFromInline
struct HashValue: Hashable {
    @usableFromInline let value: Int

    @inlinable
    init(_ value: Int) { self.value = value }

    @inlinable
    func hash(into hasher: inout Hasher) { hasher.combine(value) }

    @inlinable
    func _rawHashValue(seed: Int) -> Int { value ^ seed }
}
