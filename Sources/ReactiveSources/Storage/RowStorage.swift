/// An ordered collection of rows that versions cheaply: a persistent B+tree of fixed-size
/// chunks (leaves of about 1 KiB of elements, inner nodes of 32 children with their running
/// counts), shared between copies and copied path by path on write.
///
/// Copies are O(1) and share every node. A mutation copies only the nodes on its path that
/// another copy still holds: appending, inserting, removing or replacing k elements copies
/// O(k + chunk * log n) elements and node entries, never all n, and happens fully in place
/// when the storage is uniquely referenced. Reading an element is O(log n) (O(1) per level
/// for storage built by appends); iteration walks the leaves at close to an `Array`'s speed.
/// Indices are the `Int`s `0..<count`, like an `Array`'s; out-of-range indices trap.
public struct RowStorage<Element> {
    /// The tree; `nil` when empty.
    @usableFromInline var root: RowStorageNode<Element>?
    /// The number of elements (kept here so `count` reads no node).
    @usableFromInline var storedCount: Int

    @inlinable
    init(root: RowStorageNode<Element>?, count: Int) {
        self.root = root
        storedCount = count
    }

    /// An empty storage. O(1), allocates nothing.
    @inlinable
    public init() {
        self.init(root: nil, count: 0)
    }

    /// A storage holding `elements` in order, built bottom-up with full chunks. O(n).
    @inlinable
    public init<S: Sequence>(_ elements: S) where S.Element == Element {
        let array = ContiguousArray(elements)
        self.init(root: RowStorageNode.root(over: RowStorageNode.leaves(array, packed: true)), count: array.count)
    }

    /// Whether `self` and `other` are the same version: they share their whole tree (or are
    /// both empty), so they hold equal elements without comparing any. False does not mean
    /// they differ. O(1).
    @inlinable
    public func sharesStorage(with other: RowStorage) -> Bool {
        root === other.root
    }

    /// Makes the root uniquely referenced (copying it if another version holds it) and
    /// returns it; the storage must not be empty.
    @inlinable
    mutating func uniqueRoot() -> RowStorageNode<Element> {
        if !isKnownUniquelyReferenced(&root!) {
            root = root!.copy()
        }
        return root!
    }

    /// Drops inner roots left with a single child.
    @inlinable
    mutating func collapseRoot() {
        while let node = root, node.height > 0, node.children.count == 1 {
            root = node.children[0]
        }
    }
}
