/// The nodes a derived node read in its last run, with the versions it saw, in read order.
///
/// Most derived nodes read one property, so a single dependency is stored inline and costs
/// no allocation; two or more live in an array. A run that reads the same nodes as the
/// previous one only updates the versions in place. The list owns its nodes (strong
/// references), which lets its walks hand them out unretained.
struct DependencyList {
    /// The only dependency when there is exactly one.
    private var singleNode: GraphNode?
    private var singleVersion: UInt64 = 0
    /// Every dependency when there are two or more; empty otherwise.
    private var several: ContiguousArray<Dependency> = []

    init() {}

    /// A list of `reads`, in order.
    init(_ reads: UnsafeBufferPointer<Dependency>) {
        if reads.count == 1 {
            singleNode = reads[0].node
            singleVersion = reads[0].version
        } else if reads.count > 1 {
            several = ContiguousArray(reads)
        }
    }

    /// If `reads` are the same nodes in the same order, takes their versions and returns
    /// true; otherwise changes nothing and returns false.
    mutating func updateVersions(ifSameNodesAs reads: UnsafeBufferPointer<Dependency>) -> Bool {
        if singleNode != nil {
            guard reads.count == 1, reads[0].node === singleNode.unsafelyUnwrapped else { return false }
            singleVersion = reads[0].version
            return true
        }
        guard reads.count == several.count, reads.count > 0 else { return false }
        return several.withUnsafeMutableBufferPointer { dependencies in
            for index in reads.indices where reads[index].node !== dependencies[index].node {
                return false
            }
            for index in reads.indices {
                dependencies[index].version = reads[index].version
            }
            return true
        }
    }

    var count: Int { singleNode != nil ? 1 : several.count }

    /// Whether `body` returns true for a dependency, called in read order with the node
    /// (unretained: valid while this list is alive and unchanged) and the version seen.
    @inline(__always)
    func contains(where body: (GraphNode, UInt64) -> Bool) -> Bool {
        if singleNode != nil {
            let seen = singleVersion
            return Unmanaged.passUnretained(singleNode.unsafelyUnwrapped)._withUnsafeGuaranteedRef { body($0, seen) }
        }
        return several.withUnsafeBufferPointer { dependencies in
            for dependency in dependencies {
                let version = dependency.version
                if Unmanaged.passUnretained(dependency.node)._withUnsafeGuaranteedRef({ body($0, version) }) {
                    return true
                }
            }
            return false
        }
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
