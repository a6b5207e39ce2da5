/// The nodes a derived node read in its last run, with the versions it saw, in read order.
///
/// Two words. Most derived nodes read one property: that node and its version are stored
/// inline and cost no allocation. Two or more live in one ``DependencyBuffer`` (a single
/// allocation), marked by a version no node reaches. A run that reads the same nodes
/// as the previous one only updates the versions in place. The list owns its nodes (strong
/// references), which lets its walks hand them out unretained.
struct DependencyList {
    /// `nil`, the only dependency's node, or a ``DependencyBuffer``.
    private var reference: AnyObject?
    /// The only dependency's version when there is exactly one; ``holdsBuffer`` when
    /// `reference` is a buffer (no node's version gets there).
    private var singleVersion: UInt64 = 0

    private static let holdsBuffer = UInt64.max

    init() {}

    /// A list of `reads`, in order.
    init(_ reads: UnsafeBufferPointer<Dependency>) {
        if reads.count == 1 {
            reference = reads[0].node
            singleVersion = reads[0].version
        } else if reads.count > 1 {
            reference = DependencyBuffer.make(reads)
            singleVersion = Self.holdsBuffer
        }
    }

    /// If `reads` are the same nodes in the same order, takes their versions and returns
    /// true; otherwise changes nothing and returns false. The versions change in place,
    /// also for copies of this list (they only use its nodes).
    mutating func updateVersions(ifSameNodesAs reads: UnsafeBufferPointer<Dependency>) -> Bool {
        guard let reference else { return false }
        if singleVersion == Self.holdsBuffer {
            return unsafeDowncast(reference, to: DependencyBuffer.self).updateVersions(ifSameNodesAs: reads)
        }
        guard reads.count == 1, reads[0].node === reference else { return false }
        singleVersion = reads[0].version
        return true
    }

    /// A list of nodes a first run will read (their versions do not matter before it).
    init(inputs: [GraphNode]) {
        let reads = inputs.map { Dependency(node: $0, version: 0) }
        self = reads.withUnsafeBufferPointer { DependencyList($0) }
    }

    /// The dependency at `index` in read order (unretained: valid while this list is alive),
    /// or `nil` past the end.
    @inline(__always)
    func dependency(at index: Int) -> (node: Unmanaged<GraphNode>, version: UInt64)? {
        guard let reference else { return nil }
        if singleVersion == Self.holdsBuffer {
            return unsafeDowncast(reference, to: DependencyBuffer.self).withUnsafeMutablePointers { count, elements in
                index < count.pointee ? (Unmanaged.passUnretained(elements[index].node), elements[index].version) : nil
            }
        }
        return index == 0 ? (Unmanaged.passUnretained(unsafeDowncast(reference, to: GraphNode.self)), singleVersion) : nil
    }

    var count: Int {
        guard let reference else { return 0 }
        return singleVersion == Self.holdsBuffer ? unsafeDowncast(reference, to: DependencyBuffer.self).header : 1
    }

    /// Whether `body` returns true for a dependency, called in read order with the node
    /// (unretained: valid while this list is alive and unchanged) and the version seen.
    @inline(__always)
    func contains(where body: (GraphNode, UInt64) -> Bool) -> Bool {
        guard let reference else { return false }
        if singleVersion == Self.holdsBuffer {
            return unsafeDowncast(reference, to: DependencyBuffer.self).contains(where: body)
        }
        let seen = singleVersion
        return Unmanaged.passUnretained(unsafeDowncast(reference, to: GraphNode.self))._withUnsafeGuaranteedRef { body($0, seen) }
    }

    /// Calls `body` with every node, in read order.
    @inline(__always)
    func forEachNode(_ body: (GraphNode) -> Void) {
        _ = contains { node, _ in
            body(node)
            return false
        }
    }

    /// Whether `node` is in the list (a linear search).
    func containsNode(_ node: GraphNode) -> Bool {
        contains { candidate, _ in candidate === node }
    }

    /// The identities of the nodes, for set differences.
    func nodeIdentifiers() -> Set<ObjectIdentifier> {
        var identifiers = Set<ObjectIdentifier>(minimumCapacity: count)
        forEachNode { identifiers.insert(ObjectIdentifier($0)) }
        return identifiers
    }
}

/// Two or more dependencies in one allocation: the count, then the elements.
final class DependencyBuffer: ManagedBuffer<Int, Dependency> {
    /// A buffer holding a copy of `reads`.
    static func make(_ reads: UnsafeBufferPointer<Dependency>) -> DependencyBuffer {
        let buffer = DependencyBuffer.create(minimumCapacity: reads.count) { _ in reads.count }
        buffer.withUnsafeMutablePointerToElements { elements in
            _ = UnsafeMutableBufferPointer(start: elements, count: reads.count).initialize(from: reads)
        }
        return unsafeDowncast(buffer, to: DependencyBuffer.self)
    }

    deinit {
        _ = withUnsafeMutablePointers { count, elements in
            elements.deinitialize(count: count.pointee)
        }
    }

    func updateVersions(ifSameNodesAs reads: UnsafeBufferPointer<Dependency>) -> Bool {
        withUnsafeMutablePointers { count, elements in
            guard reads.count == count.pointee else { return false }
            for index in reads.indices where reads[index].node !== elements[index].node {
                return false
            }
            for index in reads.indices {
                elements[index].version = reads[index].version
            }
            return true
        }
    }

    @inline(__always)
    func contains(where body: (GraphNode, UInt64) -> Bool) -> Bool {
        withUnsafeMutablePointers { count, elements in
            for index in 0..<count.pointee {
                let version = elements[index].version
                if Unmanaged.passUnretained(elements[index].node)._withUnsafeGuaranteedRef({ body($0, version) }) {
                    return true
                }
            }
            return false
        }
    }
}
