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

    /// A list of `reads`, in order (it retains their nodes).
    init(_ reads: UnsafeBufferPointer<Read>) {
        if reads.count == 1 {
            reference = reads[0].node.takeUnretainedValue()
            singleVersion = reads[0].version
        } else if reads.count > 1 {
            reference = DependencyBuffer.make(reads)
            singleVersion = Self.holdsBuffer
        }
    }

    /// If the dependency at `index` is `node`, stores `version` as seen and returns true;
    /// otherwise changes nothing and returns false. The version changes in place, also for
    /// copies of this list (they only use its nodes).
    @inline(__always)
    mutating func matchRead(of node: GraphNode, at index: Int, version: UInt64) -> Bool {
        guard let reference else { return false }
        if singleVersion == Self.holdsBuffer {
            return unsafeDowncast(reference, to: DependencyBuffer.self).matchRead(of: node, at: index, version: version)
        }
        guard index == 0, reference === node else { return false }
        singleVersion = version
        return true
    }

    /// The first `count` dependencies of `list`.
    init(prefixOf list: DependencyList, count: Int) {
        var reads: [Read] = []
        reads.reserveCapacity(count)
        for index in 0..<count {
            let (node, version) = list.dependency(at: index).unsafelyUnwrapped
            reads.append(Read(node: node, version: version))
        }
        self = reads.withUnsafeBufferPointer { DependencyList($0) }
    }

    /// A list of nodes a first run will read (their versions do not matter before it).
    init(inputs: [GraphNode]) {
        let reads = inputs.map { Read(node: Unmanaged.passUnretained($0), version: 0) }
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

    var isEmpty: Bool { reference == nil }

    var count: Int {
        guard let reference else { return 0 }
        // Through the pointer: `header` is a class property, checked for exclusivity per access.
        return singleVersion == Self.holdsBuffer
            ? unsafeDowncast(reference, to: DependencyBuffer.self).withUnsafeMutablePointerToHeader { $0.pointee } : 1
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
    func containsNode(_ node: Unmanaged<GraphNode>) -> Bool {
        var index = 0
        while let (candidate, _) = dependency(at: index) {
            if candidate.toOpaque() == node.toOpaque() { return true }
            index += 1
        }
        return false
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
    /// A buffer holding `reads` (retaining their nodes).
    static func make(_ reads: UnsafeBufferPointer<Read>) -> DependencyBuffer {
        let buffer = DependencyBuffer.create(minimumCapacity: reads.count) { _ in reads.count }
        buffer.withUnsafeMutablePointerToElements { elements in
            for index in reads.indices {
                (elements + index).initialize(to: Dependency(node: reads[index].node.takeUnretainedValue(), version: reads[index].version))
            }
        }
        return unsafeDowncast(buffer, to: DependencyBuffer.self)
    }

    deinit {
        _ = withUnsafeMutablePointers { count, elements in
            elements.deinitialize(count: count.pointee)
        }
    }

    @inline(__always)
    func matchRead(of node: GraphNode, at index: Int, version: UInt64) -> Bool {
        withUnsafeMutablePointers { count, elements in
            guard index < count.pointee, elements[index].node === node else { return false }
            elements[index].version = version
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
