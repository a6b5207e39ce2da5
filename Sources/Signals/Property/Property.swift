/// A read-only, observable value that always has a current value.
///
/// A property is either constant (``init(value:)``), derived from other properties
/// (``init(_:)-swift.init``, ``map(_:)``, ``combineLatest(_:)``...), or a read-only view
/// of a ``MutableProperty``.
///
/// ## Derived properties
/// A derived property runs its closure lazily: nothing is computed on writes; the value is
/// recomputed on the next read (or delivery to an observer) and only if a property it read
/// during its last run has changed. Dependencies are rediscovered on every run, so
/// `Property { flag.value ? a.value : b.value }` depends only on what it actually read.
/// Derived values are glitch-free: in a diamond, a single write recomputes the join once
/// and observers see exactly one consistent value. When a recomputed value is equal to the
/// previous one (Equatable values, or an explicit `equals:`), nothing downstream recomputes
/// and no observer is called.
///
/// Derived closures run while their graph is locked: keep them pure and fast, do not block
/// on other threads inside them, and do not write to properties from them. Each connected
/// graph has its own lock: properties that share no node (a closure that reads two of them
/// joins their graphs for good) never wait for each other, so a slow closure stalls only its
/// own graph. The first run of a `Property { }` starts under a lock shared by all new
/// closures until it reads a property; a closure that blocks before its first read holds up
/// other new closures' first runs meanwhile. When a closure reads a graph that another
/// thread holds, its thread waits for both with its own released: writes to its own graph
/// may land meanwhile, and its result then counts as stale (it recomputes on its next read),
/// as for a write made by a derived closure. What misuse gets:
/// - **A dependency cycle** (a derived property reading itself, directly or through other
///   derived properties): while it computes (or links to what it read, when it gains an
///   observer), a read that reaches it again returns its
///   previous value and is not recorded as a dependency. Nothing hangs or recurses without
///   end, but the values in a cycle are not glitch-free: each may have seen the other's
///   previous value, and they may move on later reads. If the property has no previous value
///   (the cycle is hit during its first computation), it is a precondition failure
///   ("a derived property read itself while computing its first value").
/// - **A write from a derived closure** takes effect at once, like any write on that thread:
///   its observers run once the read, write or delivery that ran the closure is done, and
///   derived properties that had already read the written property — the writing one
///   included — recompute on their next read. A closure that changes its own input on
///   every run therefore never settles: each read recomputes it.
/// - **An observer that keeps writing what it observes** (directly, or through other
///   observers) would be called without end: after
///   ``SignalsDiagnostics/feedbackLoopLimit`` calls in one delivery run, the delivering
///   thread stops calling it, reports ``SignalsDiagnostic/feedbackLoop(calls:)`` to
///   ``SignalsDiagnostics/handler``, and the write that started the run returns.
///
/// ## Threading
/// All members may be called from any thread. Observers are called with no lock held, so
/// they may read and write any property, and:
/// - **on the writing thread, before the write returns**: a write delivers the observers it
///   made due before returning, in the order they became due;
/// - **except for writes made inside an observer or a ``batch(_:)``**: those are queued on
///   that thread and delivered after the current observer returns (or the batch ends),
///   never lost, never nested, never deadlocking; writes inside a
///   ``MutableProperty/modify(_:)`` body or a derived closure are delivered when that
///   outermost call returns;
/// - **`observe` calls its observer with the current value before returning**, also inside
///   an observer or a batch (that first call runs nested in the caller; later values follow
///   the rules above). Only inside a `modify` body or a derived closure, where no observer
///   may run, is the first call queued until that outermost call returns;
/// - **per thread**: each thread delivers what its own writes made due, so different
///   observers may run at the same time on different threads, and a batch on one thread
///   does not delay deliveries made due by another (see ``batch(_:)``);
/// - **never concurrently with itself**: if one subscription's observer is already running
///   on another thread, or already due there (held by that thread's batch, or queued behind
///   the observer it is running), that thread calls it with the latest value once it gets
///   to it, so a write may return before this observer has seen its value.
///
/// Cancelling from any thread, including from inside observers, never waits for an observer
/// call; see ``SignalSubscription`` (and its ``SignalSubscription/waitForLastCall()``).
///
/// Reading ``value`` from outside any closure takes its graph's lock for the read, except
/// for an observed derived property whose value is up to date and trivially copyable (`Int`,
/// `Bool`, a struct of such): that read takes no lock and is retried under it if a writer
/// held the lock meanwhile. Either way a read returns a whole value, never older than a
/// write that returned before the read began.
///
/// Observers see the latest value: when several writes land before an observer is called
/// (a batch, concurrent writers, a reentrant write), it is called once with the newest
/// value. Every observer is eventually called with the final value, and never twice with
/// the same version.
public class Property<Value: Sendable>: @unchecked Sendable {
    @usableFromInline let node: ValueNode<Value>

    @usableFromInline init(node: ValueNode<Value>) {
        self.node = node
    }

    /// A property whose value never changes.
    public convenience init(value: Value) {
        self.init(node: SourceNode(value, isEqual: nil))
    }

    /// A derived property computed by `compute`, which may read any other properties;
    /// it recomputes whenever something it read changes. Every recomputation notifies
    /// observers (use the Equatable overload or ``init(equals:_:)`` to cut off equal values).
    /// `compute` must not read this property itself (directly or through others) or write
    /// properties: see "Derived properties" in the type's documentation for what that gets.
    public convenience init(_ compute: @escaping @Sendable () -> Value) {
        self.init(node: ComputedNode(compute))
    }

    /// A derived property that treats values for which `equals` returns true as unchanged:
    /// nothing downstream recomputes and no observer is called.
    public convenience init(equals: @escaping @Sendable (Value, Value) -> Bool, _ compute: @escaping @Sendable () -> Value) {
        self.init(node: ClosureComputedNode(compute: { _ in compute() }, isEqual: equals))
    }

    /// A reducer-style derived property: `next` receives the previous value (`initial` on
    /// the first run) and returns the new one, reading whatever properties it needs.
    /// Use it to update a large value incrementally from what changed.
    public convenience init(reducing initial: Value, _ next: @escaping @Sendable (_ previous: Value) -> Value) {
        self.init(node: ClosureComputedNode(compute: { previous in next(previous?.pointee ?? initial) }, isEqual: nil))
    }

    /// The current value. Reading it inside a derived closure records a dependency.
    ///
    /// Final and inlinable, so that client code reads any property's value specialised for
    /// its type, with no call through the vtable to unspecialised code (the hot path of
    /// every derived closure). ``MutableProperty`` gets its setter from
    /// ``_SettablePropertyValue``, not by overriding this.
    @inlinable public final var value: Value {
        @inline(__always) get {
            Graph.current._withUnsafeGuaranteedRef { graph in
                // A source the running computation read already: nothing to lock, record or check.
                if UInt(bitPattern: Unmanaged.passUnretained(node).toOpaque()) == graph.repeatedSource {
                    return unsafeDowncast(node, to: SourceNode<Value>.self).value
                }
                // A read from a derived closure (or a `modify` body) whose thread already
                // holds this node's component: no lock round trip (see ``Graph/holds(_:)``).
                if graph.holds(node) { return graph.readHeld(node) }
                return graph.readUnheld(node)
            }
        }
    }

    /// Calls `observer` with the current value (unless `emitsCurrentValue` is false) before
    /// returning, and then with every new value, until the returned subscription is cancelled
    /// or deinitialised. Inside a `modify` body or a derived closure the first call waits
    /// until that outermost call returns.
    /// See the type's documentation for the threading contract. Observing from inside a
    /// derived closure does not make that closure depend on this property.
    public func observe(emitsCurrentValue: Bool = true, _ observer: @escaping @Sendable (Value) -> Void) -> SignalSubscription {
        let observation = Graph.current._withUnsafeGuaranteedRef { graph in
            graph.lock(node)
            if node.isUnplaced {
                // A new derived property: its first computation places it, so that the
                // observation joins that component and not the nursery.
                let wasTracking = graph.isTracking
                graph.isTracking = false
                _ = node.currentValue(in: graph)
                graph.isTracking = wasTracking
            }
            let observation = PropertyObservation(node: node, emitsCurrentValue: emitsCurrentValue, observer: observer, in: graph)
            let atOnce = emitsCurrentValue && graph.deliversFirstValueAtOnce
            if emitsCurrentValue && !atOnce { graph.enqueue(observation) }
            graph.unlockAndDeliver()
            if atOnce {
                observation.deliver(in: graph)
                // Outside a drain: a delivery that called nothing returns with its lock
                // kept (see ``Graph/lockForDelivery(_:)``), and no drain releases it here.
                graph.releaseKeptLock()
            }
            return observation
        }
        return SignalSubscription.detaching(
            {
                Graph.current._withUnsafeGuaranteedRef { graph in
                    graph.lock(observation.component)
                    observation.detach(in: graph)
                    graph.unlockAndDeliver()
                }
            },
            lastCall: { await Graph.callEnded(of: observation) }
        )
    }
}

extension Property where Value: Equatable {
    /// A derived property that skips values equal to the previous one: equal results do not
    /// recompute anything downstream or notify observers.
    @inlinable public convenience init(_ compute: @escaping @Sendable () -> Value) {
        self.init(node: EquatableComputedNode(compute) { compute, storage, hasValue in
            storeIfChanged(compute(), into: storage, hasValue: hasValue)
        })
    }
}

extension Property {
    /// How many graph nodes and observers currently depend on this property (for tests).
    var subscriberCount: Int {
        Graph.current._withUnsafeGuaranteedRef { graph in
            graph.lock(node)
            defer { graph.unlock() }
            return node.subscribers.count
        }
    }
}
