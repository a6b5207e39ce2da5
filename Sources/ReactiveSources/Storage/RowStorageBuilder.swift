/// Builds a `RowStorage` by appends, bottom-up: each element is written once, into a full-size
/// leaf, and full leaves are kept until ``finish()`` puts a tree over them (no intermediate
/// array, no copy). Inlinable, so that a caller that knows `Element` appends in code compiled
/// for it. O(1) an append (amortized), O(n / chunk) to finish. Never copy a builder that has
/// elements: the copies would share the leaf being filled (it is mutated in place). (Not
/// `~Copyable` only because a Sectioned source keeps one per group in an array.)
@usableFromInline
struct RowStorageBuilder<Element> {
    @usableFromInline typealias Node = RowStorageNode<Element>
    /// The full leaves so far.
    @usableFromInline var leaves: ContiguousArray<Node> = []
    /// The leaf being filled (allocated by the first append) and how many it holds (its
    /// header too, so that a builder dropped unfinished releases what it holds).
    @usableFromInline var leaf: Node?
    @usableFromInline var width = 0
    @usableFromInline var count = 0

    @inlinable
    init() {}

    @inlinable
    mutating func append(_ element: Element) {
        if width == 0 { leaf = Node.makeLeaf() }
        let node = leaf.unsafelyUnwrapped
        (node.elements + width).initialize(to: element)
        width &+= 1
        count &+= 1
        node.headerPointer.pointee.width = Int32(width)
        if width == Node.leafCapacity {
            leaves.append(node)
            leaf = nil
            width = 0
        }
    }

    /// The storage of everything appended; the builder is left empty.
    @inlinable
    mutating func finish() -> RowStorage<Element> {
        if let leaf, width > 0 { leaves.append(leaf) }
        let storage = RowStorage(root: Node.root(over: leaves), count: count)
        self = RowStorageBuilder()
        return storage
    }
}

extension RowStorage {
    /// A storage holding `transform` of each element of `source`, in order (see
    /// ``RowStorageBuilder``). Inlinable, so that from a caller that knows both element types
    /// the loop is compiled for them. O(n) calls of `transform`.
    @inlinable
    init<Source>(mapping source: RowStorage<Source>, _ transform: (Source) -> Element) {
        var builder = RowStorageBuilder<Element>()
        builder.leaves.reserveCapacity(source.count / RowStorageNode<Element>.leafCapacity + 1)
        source.forEach { builder.append(transform($0)) }
        self = builder.finish()
    }
}
