/// A set of `Element`s stored by their hash value in a `[Int: Element]`, for code that runs
/// unspecialised (generic over the client's type): each element is hashed once, the table's
/// own hashing and resizing work on `Int`s, and only a hash hit compares elements with `==`.
///
/// A `Set<Element>` in unspecialised code pays a generic call per hash and comparison and
/// rehashes every element when it grows; for a page of structs with string fields that was
/// three quarters of a page's cost in a ``PaginatedDataSource``.
///
/// Two unequal elements with the same hash value are both kept: the later ones in a short
/// overflow list. Complexity: O(1) expected per operation (the overflow list is searched
/// only on a hash collision between unequal elements).
struct HashValueTable<Element: Hashable> {
    /// The first element stored with each hash value.
    private var byHash: [Int: Element] = [:]
    /// Elements whose hash value an unequal element holds in `byHash`.
    private var collided: [Element] = []

    /// Adds `element`; returns whether it was not there yet.
    mutating func insert(_ element: Element) -> Bool {
        let hash = element.hashValue
        guard let holder = byHash.updateValue(element, forKey: hash) else { return true }
        if holder == element { return false }
        byHash[hash] = holder
        if collided.contains(element) { return false }
        collided.append(element)
        return true
    }

    /// Removes `element` if present.
    mutating func remove(_ element: Element) {
        let hash = element.hashValue
        if let holder = byHash[hash], holder == element {
            if let index = collided.firstIndex(where: { $0.hashValue == hash }) {
                byHash[hash] = collided.remove(at: index)
            } else {
                byHash[hash] = nil
            }
        } else if let index = collided.firstIndex(of: element) {
            collided.remove(at: index)
        }
    }

    /// Removes every element.
    mutating func removeAll() {
        byHash.removeAll()
        collided.removeAll()
    }
}
