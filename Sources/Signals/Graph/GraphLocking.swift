#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// Taking and joining component locks (see "Locking" in ``Graph``).
extension Graph {
    /// Takes the lock of `node`'s component (joining it to the one this thread holds, if
    /// another).
    @inlinable @inline(__always) func lock(_ node: GraphNode) {
        let bits = node.componentBits.load(ordering: .acquiring)
        if bits == heldMember {
            depth &+= 1
            return
        }
        if _slowPath(bits == GraphComponent.nurseryBits) {
            lockUnplaced(node)
            return
        }
        // Unretained: the node keeps its component alive (a strong reference here cost a
        // retain and a release per lock).
        Unmanaged<GraphComponent>.fromOpaque(UnsafeRawPointer(bitPattern: bits)!)._withUnsafeGuaranteedRef { lock($0) }
        heldMember = bits
    }

    /// Takes the lock for a node in the nursery: the nursery's (to compute it there), unless
    /// this thread holds another component: then the node, and the unplaced nodes it was
    /// made from, are placed in that component.
    @usableFromInline func lockUnplaced(_ node: GraphNode) {
        let nursery = GraphComponent.nursery
        if depth > 0 {
            if held.unsafelyUnwrapped.toOpaque() == Unmanaged.passUnretained(nursery).toOpaque() {
                depth += 1
                return
            }
            pthread_mutex_lock(nursery.mutex)
            if node.isUnplaced { Self.place(Unmanaged.passUnretained(node), in: held.unsafelyUnwrapped.takeUnretainedValue()) }
            pthread_mutex_unlock(nursery.mutex)
            lock(node.component)
            return
        }
        pthread_mutex_lock(nursery.mutex)
        if !node.isUnplaced {
            pthread_mutex_unlock(nursery.mutex)
            lock(node.component)
            return
        }
        held = Unmanaged.passUnretained(nursery)
        nursery.beginChanges()
        depth = 1
    }

    /// Called holding the nursery, when the computation in progress reads a node of
    /// `target` (or, having read none, leaves with a new component): places the unplaced
    /// nodes this thread is computing or checking, and those they were made from, in
    /// `target`'s root, and holds that root instead of the nursery. If that root is busy,
    /// the nursery is released first (see "Locking": the placed nodes stay busy meanwhile).
    func leaveNursery(to target: GraphComponent) {
        let nursery = GraphComponent.nursery
        guard held.unsafelyUnwrapped.toOpaque() == Unmanaged.passUnretained(nursery).toOpaque() else { return }
        while true {
            let root = target.root.takeUnretainedValue()
            if pthread_mutex_trylock(root.mutex) == 0 {
                guard root.isRoot else {
                    pthread_mutex_unlock(root.mutex)
                    continue
                }
                root.beginChanges()
                placeWorkingNodes(in: root)
                held = Unmanaged.passUnretained(root)
                heldMember = 0
                nursery.endChanges()
                pthread_mutex_unlock(nursery.mutex)
                return
            }
            placeWorkingNodes(in: root)
            releasedToJoin { _ in lockOutermost(target) }
            return
        }
    }

    /// Places the unplaced nodes this thread is computing or checking (see ``place(_:in:)``).
    private func placeWorkingNodes(in component: GraphComponent) {
        for index in busy.indices {
            Self.place(busy[index], in: component)
        }
        for index in checkStack.indices {
            Self.place(checkStack[index].node, in: component)
        }
    }

    /// Places `first` if unplaced, and the unplaced nodes it was made from
    /// (their inputs, transitively), in `component`. Caller holds the nursery's lock.
    private static func place(_ first: Unmanaged<GraphNode>, in component: GraphComponent) {
        var next: Unmanaged<GraphNode>? = first
        var pending: [Unmanaged<GraphNode>] = []
        while let node = next ?? pending.popLast() {
            next = nil
            node._withUnsafeGuaranteedRef { node in
                guard node.isUnplaced else { return }
                node.place(in: component)
                var index = 0
                while let (input, _) = node.dependency(at: index) {
                    if input._withUnsafeGuaranteedRef({ $0.isUnplaced }) { pending.append(input) }
                    index += 1
                }
            }
        }
    }

    /// Takes `component`'s lock (see "Locking").
    @inlinable @inline(__always) func lock(_ component: GraphComponent) {
        if depth > 0 {
            if component.root.toOpaque() != held.unsafelyUnwrapped.toOpaque() { join(component) }
            depth &+= 1
            return
        }
        lockOutermost(component)
        depth = 1
    }

    /// Takes `component`'s root lock with nothing held.
    @usableFromInline func lockOutermost(_ component: GraphComponent) {
        while true {
            let root = component.root
            pthread_mutex_lock(root._withUnsafeGuaranteedRef { $0.mutex })
            if root._withUnsafeGuaranteedRef({ $0.isRoot }) {
                root._withUnsafeGuaranteedRef { $0.beginChanges() }
                held = root
                // The root's own nodes are in its tree: their reads re-enter without a walk.
                heldMember = UInt(bitPattern: root.toOpaque())
                return
            }
            pthread_mutex_unlock(root._withUnsafeGuaranteedRef { $0.mutex })
        }
    }

    @inlinable @inline(__always) func unlock() {
        depth &-= 1
        if depth == 0 {
            let root = held.unsafelyUnwrapped
            held = nil
            heldMember = 0
            root._withUnsafeGuaranteedRef { $0.endChanges() }
            pthread_mutex_unlock(root._withUnsafeGuaranteedRef { $0.mutex })
        }
    }

    /// Joins `component` to the one this thread holds (see "Locking"); afterwards `held` is
    /// the merged root.
    @usableFromInline func join(_ component: GraphComponent) {
        if held.unsafelyUnwrapped.toOpaque() == Unmanaged.passUnretained(GraphComponent.nursery).toOpaque() {
            leaveNursery(to: component)
            return
        }
        while true {
            let other = component.root
            let mine = held.unsafelyUnwrapped
            if other.toOpaque() == mine.toOpaque() { return }
            let otherRoot = other.takeUnretainedValue()
            if pthread_mutex_trylock(otherRoot.mutex) == 0 {
                if otherRoot.isRoot {
                    otherRoot.beginChanges()
                    held = Unmanaged.passUnretained(Self.merge(mine.takeUnretainedValue(), otherRoot))
                    return
                }
                pthread_mutex_unlock(otherRoot.mutex)
                continue
            }
            releasedToJoin { previous in
                lockJoined(previous, component)
            }
            return
        }
    }

    /// Merges two roots whose locks the caller holds; returns the new root, still locked.
    private static func merge(_ a: GraphComponent, _ b: GraphComponent) -> GraphComponent {
        if a.size >= b.size {
            b.merge(into: a)
            return a
        }
        a.merge(into: b)
        return b
    }

    /// With nothing held: takes the locks of `a`'s and `b`'s roots in address order (so that
    /// no two threads wait for each other), merges them and holds the result.
    private func lockJoined(_ a: GraphComponent, _ b: GraphComponent) {
        while true {
            let x = a.root.takeUnretainedValue()
            let y = b.root.takeUnretainedValue()
            if x === y {
                lockOutermost(x)
                return
            }
            let (first, second) = UInt(bitPattern: ObjectIdentifier(x).hashValue) < UInt(bitPattern: ObjectIdentifier(y).hashValue) ? (x, y) : (y, x)
            pthread_mutex_lock(first.mutex)
            guard first.isRoot else {
                pthread_mutex_unlock(first.mutex)
                continue
            }
            pthread_mutex_lock(second.mutex)
            guard second.isRoot else {
                pthread_mutex_unlock(second.mutex)
                pthread_mutex_unlock(first.mutex)
                continue
            }
            first.beginChanges()
            second.beginChanges()
            held = Unmanaged.passUnretained(Self.merge(first, second))
            return
        }
    }
}
