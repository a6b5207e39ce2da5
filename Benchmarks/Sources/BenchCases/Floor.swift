#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The "floor": a minimal push-pull graph, the limit Signals is measured against. It does
/// not honour Signals' threading contract (one context, one thread at a time), so it pays
/// only what a graph must: final classes, values unboxed in typed nodes, one uncontended
/// mutex per write, and alien-signals' intrusive dependency lists — each edge is one `Link`
/// object made when the edge first appears and reused while the reads stay the same, with
/// no retain or release on the hot path (`unowned(unsafe)`). A write bumps the source's
/// version and flags the subscribers (dirty for direct ones, pending beyond); a read of a
/// pending node checks its dependencies' versions and recomputes only if one moved;
/// effects are queued by the push and run at the end of the write or batch. Nothing is
/// allocated per update. Dependencies are tracked dynamically (re-read on every run).
public enum Floor {
    /// Per-graph context (one per benchmark case instance).
    public final class Context {
        @exclusivity(unchecked) var tracking: Unmanaged<Node>?
        @exclusivity(unchecked) var runEpoch: UInt64 = 0
        @exclusivity(unchecked) var epochCounter: UInt64 = 0
        /// Unretained: the effects' owners keep them alive (a retain and a release each
        /// time one is scheduled otherwise).
        @exclusivity(unchecked) var effects: ContiguousArray<Unmanaged<Effect>> = []
        @exclusivity(unchecked) var batchDepth = 0
        let mutex: UnsafeMutablePointer<pthread_mutex_t>

        public init() {
            mutex = .allocate(capacity: 1)
            pthread_mutex_init(mutex, nil)
        }

        deinit {
            pthread_mutex_destroy(mutex)
            mutex.deallocate()
        }

        public func batch(_ body: () -> Void) {
            batchDepth += 1
            body()
            batchDepth -= 1
            if batchDepth == 0 { flush() }
        }

        @inline(__always) func flush() {
            var index = 0
            while index < effects.count {
                effects[index]._withUnsafeGuaranteedRef { $0.runIfNeeded() }
                index += 1
            }
            effects.removeAll(keepingCapacity: true)
        }
    }

    /// An edge: `dep` is read by `sub`. Owned by `sub`'s dependency list (retained once when
    /// made, released when dropped); every reference to a link or a node on the hot path is
    /// `Unmanaged`, so walking the lists retains and releases nothing.
    final class Link {
        let dep: Unmanaged<Node>
        let sub: Unmanaged<Node>
        @exclusivity(unchecked) var version: UInt64
        @exclusivity(unchecked) var nextDep: Unmanaged<Link>?
        @exclusivity(unchecked) var prevSub: Unmanaged<Link>?
        @exclusivity(unchecked) var nextSub: Unmanaged<Link>?

        init(dep: Unmanaged<Node>, sub: Unmanaged<Node>, version: UInt64) {
            self.dep = dep
            self.sub = sub
            self.version = version
        }
    }

    enum State: UInt8 { case clean, pending, dirty }

    public class Node {
        /// Unretained, and used through a borrowed reference: an `unowned(unsafe)` reference
        /// is copied into a strong one (a retain and a release) wherever a use needs one.
        let contextRef: Unmanaged<Context>
        @inline(__always) final func withContext<R>(_ body: (Context) -> R) -> R {
            contextRef._withUnsafeGuaranteedRef(body)
        }
        @exclusivity(unchecked) final var version: UInt64 = 0
        @exclusivity(unchecked) final var state: State
        @exclusivity(unchecked) final var trackEpoch: UInt64 = 0
        // Dependencies (owned), and where the running computation's reads are matched.
        @exclusivity(unchecked) final var firstDep: Unmanaged<Link>?
        @exclusivity(unchecked) final var cursor: Unmanaged<Link>?
        @exclusivity(unchecked) final var lastMatched: Unmanaged<Link>?
        // Subscribers (not owned).
        @exclusivity(unchecked) final var firstSub: Unmanaged<Link>?
        @exclusivity(unchecked) final var lastSub: Unmanaged<Link>?

        /// The recomputation, built in the subclass's (specialised) initialiser: methods of
        /// a generic class called through the vtable are not specialised for `Value`.
        final let recompute: (Node) -> Bool

        init(context: Context, state: State, recompute: @escaping (Node) -> Bool) {
            contextRef = Unmanaged.passUnretained(context)
            self.state = state
            self.recompute = recompute
        }

        deinit {
            dropDeps(from: firstDep)
        }

        /// Unlinks and releases the links from `first` to the end of the dependency list.
        final func dropDeps(from first: Unmanaged<Link>?) {
            var link = first
            while let current = link {
                link = current._withUnsafeGuaranteedRef { current in
                    current.dep._withUnsafeGuaranteedRef { $0.removeSub(current) }
                    return current.nextDep
                }
                current.release()
            }
        }

        /// Called by the push on an effect that became pending or dirty.
        func schedule() {}

        /// Records a read of this node by the computation running.
        @inline(__always) final func track() {
            guard let (tracking, epoch) = withContext({ context in context.tracking.map { ($0, context.runEpoch) } }),
                  trackEpoch != epoch else { return }
            trackEpoch = epoch
            tracking._withUnsafeGuaranteedRef { sub in
                if let cursor = sub.cursor, cursor._withUnsafeGuaranteedRef({ $0.dep.toOpaque() == Unmanaged.passUnretained(self).toOpaque() }) {
                    cursor._withUnsafeGuaranteedRef { link in
                        link.version = version
                        sub.cursor = link.nextDep
                    }
                    sub.lastMatched = cursor
                    return
                }
                let link = Unmanaged.passRetained(Link(dep: Unmanaged.passUnretained(self), sub: tracking, version: version))
                link._withUnsafeGuaranteedRef { $0.nextDep = sub.cursor }
                if let last = sub.lastMatched {
                    last._withUnsafeGuaranteedRef { $0.nextDep = link }
                } else {
                    sub.firstDep = link
                }
                sub.lastMatched = link
                addSub(link)
            }
        }

        @inline(__always) final func addSub(_ link: Unmanaged<Link>) {
            link._withUnsafeGuaranteedRef { $0.prevSub = lastSub }
            if let last = lastSub {
                last._withUnsafeGuaranteedRef { $0.nextSub = link }
            } else {
                firstSub = link
            }
            lastSub = link
        }

        final func removeSub(_ link: Link) {
            if let prev = link.prevSub {
                prev._withUnsafeGuaranteedRef { $0.nextSub = link.nextSub }
            } else {
                firstSub = link.nextSub
            }
            if let next = link.nextSub {
                next._withUnsafeGuaranteedRef { $0.prevSub = link.prevSub }
            } else {
                lastSub = link.prevSub
            }
        }

        /// Push: direct subscribers become dirty, the ones beyond pending.
        final func markSubs(_ newState: State) {
            var link = firstSub
            while let current = link {
                link = current._withUnsafeGuaranteedRef { current in
                    current.sub._withUnsafeGuaranteedRef { sub in
                        if sub.state.rawValue < newState.rawValue {
                            let wasClean = sub.state == .clean
                            sub.state = newState
                            if wasClean {
                                sub.schedule()
                                sub.markSubs(.pending)
                            }
                        }
                    }
                    return current.nextSub
                }
            }
        }

        /// Pull: brings the node up to date.
        final func updateIfNeeded() {
            if state == .pending {
                var link = firstDep
                while let current = link {
                    let changed: Bool
                    (changed, link) = current._withUnsafeGuaranteedRef { current in
                        current.dep._withUnsafeGuaranteedRef { dep in
                            if dep.state != .clean { dep.updateIfNeeded() }
                            return (dep.version != current.version, current.nextDep)
                        }
                    }
                    if changed {
                        state = .dirty
                        break
                    }
                }
            }
            if state == .dirty {
                run()
            }
            state = .clean
        }

        /// Runs the computation with tracking, reusing the links of an unchanged read order.
        final func run() {
            let (previous, previousEpoch) = withContext { context in
                let saved = (context.tracking, context.runEpoch)
                context.tracking = Unmanaged.passUnretained(self)
                context.epochCounter &+= 1
                context.runEpoch = context.epochCounter
                return saved
            }
            cursor = firstDep
            lastMatched = nil
            if recompute(self) { version &+= 1 }
            // Reads that stopped: unlink the rest of the list.
            let stale = cursor
            if let last = lastMatched {
                last._withUnsafeGuaranteedRef { $0.nextDep = nil }
            } else {
                firstDep = nil
            }
            dropDeps(from: stale)
            cursor = nil
            lastMatched = nil
            withContext { context in
                context.tracking = previous
                context.runEpoch = previousEpoch
            }
            state = .clean
        }
    }

    public final class Signal<Value: Equatable>: Node {
        @exclusivity(unchecked) private var storage: Value

        public init(_ value: Value, in context: Context) {
            storage = value
            super.init(context: context, state: .clean) { _ in false }
        }

        public var value: Value {
            @inline(__always) get {
                track()
                return storage
            }
            set {
                let mutex = withContext { $0.mutex }
                pthread_mutex_lock(mutex)
                defer { pthread_mutex_unlock(mutex) }
                if storage == newValue { return }
                storage = newValue
                version &+= 1
                markSubs(.dirty)
                withContext { context in
                    if context.batchDepth == 0 { context.flush() }
                }
            }
        }
    }

    public final class Computed<Value: Equatable>: Node {
        @exclusivity(unchecked) private var storage: Value?
        private let compute: () -> Value

        public init(in context: Context, _ compute: @escaping () -> Value) {
            self.compute = compute
            super.init(context: context, state: .dirty) { node in
                unsafeDowncast(node, to: Computed<Value>.self).recomputeValue()
            }
        }

        @inline(__always) func recomputeValue() -> Bool {
            let newValue = compute()
            if let storage, storage == newValue { return false }
            storage = newValue
            return true
        }

        public var value: Value {
            @inline(__always) get {
                if state != .clean { updateIfNeeded() }
                track()
                return storage!
            }
        }
    }

    public final class Effect: Node {
        private let body: () -> Void

        /// Runs `body` once now, then after every batch/write that changes what it read.
        public init(in context: Context, _ body: @escaping () -> Void) {
            self.body = body
            super.init(context: context, state: .dirty) { node in
                unsafeDowncast(node, to: Effect.self).body()
                return false
            }
            run()
        }

        override func schedule() {
            withContext { $0.effects.append(Unmanaged.passUnretained(self)) }
        }

        func runIfNeeded() {
            updateIfNeeded()
        }

        /// Unsubscribes from every source.
        public func dispose() {
            dropDeps(from: firstDep)
            firstDep = nil
        }
    }
}
