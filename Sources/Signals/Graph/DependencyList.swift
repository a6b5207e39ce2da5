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

    /// The list's object (a node or a buffer), unretained: the list keeps it alive while it is
    /// unchanged. Read as bits, so that a walk over it retains nothing (a strong reference
    /// loaded from a property the walk's callbacks could change is retained for the walk).
    @inline(__always)
    private mutating func unretainedReference() -> UnsafeMutableRawPointer? {
        withUnsafeBytes(of: &reference) { $0.load(as: UnsafeMutableRawPointer?.self) }
    }

    /// Calls `body` with the dependencies in read order, as reads (unretained nodes: valid
    /// while this list is alive and unchanged). O(1), nothing retained. `mutating` only so
    /// that a caller walks the list in place (see ``unretainedReference()``); `body` must not
    /// change the list.
    @inline(__always)
    mutating func withReads<R>(_ body: (UnsafeBufferPointer<Read>) -> R) -> R {
        guard let object = unretainedReference() else { return body(UnsafeBufferPointer(start: nil, count: 0)) }
        if singleVersion == Self.holdsBuffer {
            // A `Dependency` is laid out as a `Read` (a class reference is one pointer).
            return Unmanaged<DependencyBuffer>.fromOpaque(object)._withUnsafeGuaranteedRef {
                $0.withUnsafeMutablePointers { count, elements in
                    elements.withMemoryRebound(to: Read.self, capacity: count.pointee) {
                        body(UnsafeBufferPointer(start: $0, count: count.pointee))
                    }
                }
            }
        }
        let single = Read(node: Unmanaged<GraphNode>.fromOpaque(object), version: singleVersion)
        return withUnsafePointer(to: single) { body(UnsafeBufferPointer(start: $0, count: 1)) }
    }

    /// Replaces the list with `reads` in its own buffer, when it holds one that no copy of
    /// the list shares and that has room for them (two or more): retains the nodes that are
    /// new at their position and releases the ones they replace. Returns false, changing
    /// nothing, otherwise. O(reads), no allocation.
    mutating func overwrite(with reads: UnsafeBufferPointer<Read>) -> Bool {
        guard reads.count > 1, singleVersion == Self.holdsBuffer, isKnownUniquelyReferenced(&reference) else { return false }
        return Unmanaged<DependencyBuffer>.fromOpaque(unretainedReference().unsafelyUnwrapped)
            ._withUnsafeGuaranteedRef { $0.overwrite(with: reads) }
    }

    var count: Int {
        guard let reference else { return 0 }
        // Through the pointer: `header` is a class property, checked for exclusivity per access.
        return singleVersion == Self.holdsBuffer
            ? unsafeDowncast(reference, to: DependencyBuffer.self).withUnsafeMutablePointerToHeader { $0.pointee } : 1
    }

    /// Calls `body` with every node (unretained: valid while this list is alive and
    /// unchanged), in read order; nothing retained, `mutating` only to walk the list in place
    /// (see ``withReads(_:)``); `body` must not change the list.
    @inline(__always)
    mutating func forEachNode(_ body: (GraphNode) -> Void) {
        withReads { reads in
            for read in reads { read.node._withUnsafeGuaranteedRef(body) }
        }
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

    /// See ``DependencyList/overwrite(with:)``.
    func overwrite(with reads: UnsafeBufferPointer<Read>) -> Bool {
        guard reads.count <= capacity else { return false }
        withUnsafeMutablePointers { count, elements in
            let old = count.pointee
            for index in reads.indices {
                let read = reads[index]
                if index >= old {
                    (elements + index).initialize(to: Dependency(node: read.node.takeUnretainedValue(), version: read.version))
                } else if elements[index].node === read.node.takeUnretainedValue() {
                    elements[index].version = read.version
                } else {
                    elements[index] = Dependency(node: read.node.takeUnretainedValue(), version: read.version)
                }
            }
            if old > reads.count { (elements + reads.count).deinitialize(count: old - reads.count) }
            count.pointee = reads.count
        }
        return true
    }

    @inline(__always)
    func matchRead(of node: GraphNode, at index: Int, version: UInt64) -> Bool {
        withUnsafeMutablePointers { count, elements in
            guard index < count.pointee, elements[index].node === node else { return false }
            elements[index].version = version
            return true
        }
    }
}
