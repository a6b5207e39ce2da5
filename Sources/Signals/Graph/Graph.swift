#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization
import SignalsThreadLocal

/// One thread's view of the reactive graph: the component lock it holds, its dependency
/// tracking, its work stacks and its queue of observer deliveries.
///
/// ## Locking
/// Each connected component of the graph has its own lock (``GraphComponent``); a thread
/// holds at most one at a time, re-entrantly (`depth`). Every node field is guarded by the
/// lock of the node's component. Code running under a lock that touches a node of another
/// component (a derived closure reading it, a `modify` body writing it) joins the two
/// components: if the other one's lock is free it is taken at once and the two merge.
/// If it is busy, the thread does not wait while holding its own lock (two threads doing
/// that from opposite sides would deadlock): it releases its lock, takes both in address
/// order, merges them and goes on. While it waits, other threads may use its component; the
/// derived nodes it is computing (and the property it is modifying) stay marked busy, and a
/// thread that needs one of them waits for it the same way (``Suspensions``). Such a thread
/// resumes with what other threads wrote meanwhile: a derived closure that joined a busy
/// component may have read values from before and after another thread's write, and then
/// counts as stale (it recomputes on its next read), as for a write made by a derived closure.
///
/// Observer closures are only ever called by a thread's drain, with no lock held.
///
/// One read takes no lock: `Property.value` from outside any closure, of a watched derived
/// node that is up to date, whose value is trivially copyable. Each component root counts
/// its lock holds (``GraphComponent/sequence``: odd while held); the read copies the value
/// between two loads of that count and keeps it only if both found the same even number
/// (a sequence lock: a reader never writes, so readers do not contend with each other or
/// slow writers down). Every thread that takes a root's lock makes the count odd before
/// changing anything, and even again just before releasing it.
///
/// Delivery is per thread: the thread whose write (or subscription) made observers due
/// delivers them after its outermost lock is released, unless that thread is already
/// delivering (a write from inside an observer) or inside a ``batch(_:)``: then the jobs
/// wait in its queue and run after the current observer returns or the batch ends.
@usableFromInline
final class Graph {
    /// The component root this thread holds, if any.
    @usableFromInline @exclusivity(unchecked) var held: Unmanaged<GraphComponent>?
    /// How many times this thread holds `held`.
    @usableFromInline @exclusivity(unchecked) var depth = 0
    /// The ``GraphNode/componentBits`` of the last node locked while `depth > 0`: a component
    /// known to be in `held`'s tree (merges only grow it), so that re-entering for another
    /// node of it skips the walk to the root. 0 when unknown (reset whenever `held` is
    /// released or leaves the nursery), and always 0 while `depth` is 0, so that
    /// ``lock(_:)-(GraphNode)`` tests it alone (no node's bits are 0).
    @usableFromInline @exclusivity(unchecked) var heldMember: UInt = 0
    /// Whether a derived node's closure is running and recording what it reads.
    @usableFromInline @exclusivity(unchecked) var isTracking = false
    /// Identifies the running derived computation; a node read in this run has this
    /// `trackEpoch`, which records each read once. Unique across threads (``takeEpochBlock()``).
    @usableFromInline @exclusivity(unchecked) var runEpoch: UInt64 = 0
    @exclusivity(unchecked) var epochCounter: UInt64
    /// The address of the last source node the running computation recorded a read of
    /// (``recordSource(_:)``), or 0: this thread holds its lock, so reading it again needs nothing
    /// but its value (see `Property.value`). Reset when a run begins or ends, when this
    /// thread releases its lock to wait (``released(_:reacquire:)``) and when a `modify` begins.
    @usableFromInline @exclusivity(unchecked) var repeatedSource: UInt = 0
    /// The same for an unwatched derived node read again in this run with nothing written
    /// since it was validated (`DerivedNode.checkedValue`), or 0; also reset by every write.
    @usableFromInline @exclusivity(unchecked) var repeatedDerived: UInt = 0
    /// What the running computations have read, the innermost one's reads last (a stack:
    /// a nested computation appends after its caller's reads and removes its own when done).
    @usableFromInline @exclusivity(unchecked) var collected = TrivialStack<Read>()
    /// The derived node whose computation is running (see ``beginRun(for:)``).
    @exclusivity(unchecked) var runNode: Unmanaged<GraphNode>?
    /// How many of ``runNode``'s dependencies its run has read so far, in order; -1 once the
    /// run read something else (its reads are then in ``collected``).
    @exclusivity(unchecked) var cursor = 0
    /// Jobs made due while this thread holds a lock; moved to `pending` when it releases
    /// its outermost lock (or calls an observer).
    @usableFromInline @exclusivity(unchecked) var queue = DeliveryQueue()
    /// The push phase's worklist (see ``GraphNode/markSubscribersStale(in:)``).
    @exclusivity(unchecked) var markStack = TrivialStack<Unmanaged<GraphNode>>()
    /// The pull phase's stack of derived nodes being checked (see ``validate(_:)``).
    @exclusivity(unchecked) var checkStack = TrivialStack<CheckFrame>()
    /// See ``keepUntilChecked(_:)``.
    @exclusivity(unchecked) private var replacedWhileChecking: [DependencyList] = []
    /// Nodes this thread's check refers to unretained, kept from a wait until the outermost
    /// check ends (see ``released(_:reacquire:)``).
    @exclusivity(unchecked) var keptWhileChecking: [GraphNode] = []
    /// Derived nodes whose subscriber list became empty or non-empty, to link or unlink.
    @exclusivity(unchecked) private var unsettled: ContiguousArray<GraphNode> = []
    @exclusivity(unchecked) private var isSettling = false
    /// The derived nodes this thread is computing and the source it is modifying, innermost
    /// last: other threads that meet them while this thread waits (see "Locking") wait too.
    @exclusivity(unchecked) var busy = TrivialStack<Unmanaged<GraphNode>>()
    /// ``Suspensions/counter``, held here so that hot paths read it without a lazy-initialisation check.
    let suspended = Suspensions.counter
    /// The busy node of another thread this thread waits for (guarded by ``Suspensions``).
    @exclusivity(unchecked) var waitingFor: Unmanaged<GraphNode>?

    // Delivery state (see Graph+Delivery.swift).
    @usableFromInline @exclusivity(unchecked) var batchDepth = 0
    /// Identifies this thread's outermost batch in progress (or the last one): unique across
    /// threads, never 0 (see ``SourceNode/recordedBatch``).
    @usableFromInline @exclusivity(unchecked) var batchID: UInt64 = 0
    @exclusivity(unchecked) var isDelivering = false
    @exclusivity(unchecked) var pending = DeliveryQueue()
    /// Numbers this thread's delivery runs, for feedback-loop detection: the thread's number
    /// in the high bits, so runs of different threads differ.
    @exclusivity(unchecked) var runCounter: UInt64
    /// The run of the delivery in progress: read by a job when it starts (``FeedbackCounter``).
    @exclusivity(unchecked) var deliveryRun: UInt64 = 0
    /// The first write of this thread's batch to each source node with an equality.
    @usableFromInline @exclusivity(unchecked) var writes: [GraphNode] = []

    private static let threadNumbers = Atomic<UInt64>(0)
    private static let epochBlocks = Atomic<UInt64>(0)
    /// Epochs are handed out to threads in blocks of this many.
    private static let epochBlockSize: UInt64 = 1 << 20

    private init() {
        epochCounter = Self.takeEpochBlock()
        runCounter = Self.threadNumbers.wrappingAdd(1, ordering: .relaxed).newValue << 32
    }

    deinit {
        collected.deallocate()
        markStack.deallocate()
        checkStack.deallocate()
        busy.deallocate()
        queue.deallocate()
        pending.deallocate()
    }

    /// The first epoch of a block no thread has used (epochs have 56 bits, see
    /// ``GraphNode/stamp``: 2^36 blocks before they wrap).
    private static func takeEpochBlock() -> UInt64 {
        epochBlocks.wrappingAdd(1, ordering: .relaxed).newValue &* epochBlockSize
    }

    /// Keeps each thread's state alive until the thread exits (its destructor releases it).
    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key) { pointer in
            // On the exiting thread: a later use on it (another key's destructor) makes a new state.
            signals_set_thread_graph(nil)
            #if canImport(Darwin)
            Unmanaged<Graph>.fromOpaque(pointer).release()
            #else
            if let pointer { Unmanaged<Graph>.fromOpaque(pointer).release() }
            #endif
        }
        return key
    }()

    /// The calling thread's graph state, made on first use and released when the thread
    /// exits. A C thread-local (one load, inlined into the caller), not `pthread_getspecific`
    /// (a call and ~20 instructions on every read from a derived closure).
    @inlinable @inline(__always) static var current: Unmanaged<Graph> {
        if let pointer = signals_thread_graph() {
            return Unmanaged<Graph>.fromOpaque(pointer)
        }
        return makeCurrent()
    }

    @usableFromInline @inline(never) static func makeCurrent() -> Unmanaged<Graph> {
        let graph = Unmanaged.passRetained(Graph())
        pthread_setspecific(key, graph.toOpaque())
        signals_set_thread_graph(graph.toOpaque())
        return graph
    }

    /// The version clock of the component this thread holds.
    var globalVersion: UInt64 {
        @inline(__always) get { held.unsafelyUnwrapped._withUnsafeGuaranteedRef { $0.globalVersion } }
        @inline(__always) set { held.unsafelyUnwrapped._withUnsafeGuaranteedRef { $0.globalVersion = newValue } }
    }

    // MARK: Tracking

    /// The tracking state of a computation further up the stack, saved while a nested one
    /// runs, and where the nested run's reads start in ``collected``.
    struct Run {
        fileprivate let wasTracking: Bool
        fileprivate let outerEpoch: UInt64
        fileprivate let epoch: UInt64
        fileprivate let outerNode: Unmanaged<GraphNode>?
        fileprivate let outerCursor: Int
        let start: Int
    }

    /// A new epoch (see ``runEpoch``).
    @inline(__always) func nextEpoch() -> UInt64 {
        epochCounter &+= 1
        if epochCounter % Self.epochBlockSize == 0 { epochCounter = Self.takeEpochBlock() &+ 1 }
        return epochCounter
    }

    /// Starts recording the reads of `node`'s computation; pair with ``endRun(_:)``.
    ///
    /// Reads are first matched in place against the node's dependency list (``cursor``):
    /// while the run reads the same nodes in the same order as the last one, each read only
    /// stores the version seen, and nothing is collected or retained. At the first read that
    /// differs the run diverges: the matched prefix is copied to ``collected``, and every
    /// read from then on is collected there (retained, so that a node made and dropped inside
    /// the closure stays valid until the new list is made).
    @inline(__always) func beginRun(for node: GraphNode) -> Run {
        let epoch = nextEpoch()
        let run = Run(
            wasTracking: isTracking, outerEpoch: runEpoch, epoch: epoch,
            outerNode: runNode, outerCursor: cursor, start: collected.count
        )
        isTracking = true
        runEpoch = epoch
        repeatedSource = 0
        repeatedDerived = 0
        runNode = Unmanaged.passUnretained(node)
        cursor = 0
        return run
    }

    /// Stops recording and resumes the computation `beginRun` suspended. Returns how many
    /// of the node's dependencies the run read, in order, when it read nothing else (then
    /// `collected` holds nothing of this run); `nil` when it diverged: then the run's reads
    /// are at `collected[run.start...]`, each node once, retained until ``dropReads(of:)``.
    @inline(__always) func endRun(_ run: Run) -> Int? {
        let matched = cursor
        isTracking = run.wasTracking
        runEpoch = run.outerEpoch
        repeatedSource = 0
        repeatedDerived = 0
        runNode = run.outerNode
        cursor = run.outerCursor
        if matched >= 0 { return matched }
        // A nested run re-stamps the nodes it reads (and so may another thread while this one
        // waited), so this run may have recorded one of them a second time after that.
        if epochCounter != run.epoch {
            removeRepeatedReads(from: run.start)
        }
        return nil
    }

    /// Keeps the first read of each node in the run's reads (with the version it saw then).
    private func removeRepeatedReads(from start: Int) {
        let end = collected.count
        guard end - start > 1 else { return }
        var kept = start
        if end - start <= 32 {
            let reads = collected.base
            for index in start..<end {
                let node = reads[index].node.toOpaque()
                var other = start
                while other < kept && reads[other].node.toOpaque() != node { other &+= 1 }
                if other == kept {
                    if kept != index { collected.swapAt(kept, index) }
                    kept &+= 1
                }
            }
        } else {
            var seen = Set<UnsafeMutableRawPointer>(minimumCapacity: end - start)
            for index in start..<end where seen.insert(collected[index].node.toOpaque()).inserted {
                collected.swapAt(kept, index)
                kept += 1
            }
        }
        for index in kept..<end { collected[index].node.release() }
        collected.removeSuffix(from: kept)
    }

    /// Releases and removes a finished run's collected reads.
    @inline(__always) func dropReads(of run: Run) {
        if collected.count == run.start { return }
        for index in run.start..<collected.count { collected[index].node.release() }
        collected.removeSuffix(from: run.start)
    }

    /// Records a read of `node` by the derived computation running, once per run.
    @inlinable @inline(__always) func track(_ node: GraphNode) {
        guard isTracking, node.trackEpoch != runEpoch else { return }
        node.trackEpoch = runEpoch
        record(node)
    }

    /// As ``track(_:)``, for a read made earlier at `version` (by a nested run, see
    /// ``ReadRecord``): the version it saw, not the current one, so that a write made since
    /// (while this thread waited with its lock released) makes the computation stale.
    func track(_ node: GraphNode, seen version: UInt64) {
        guard isTracking, node.trackEpoch != runEpoch else { return }
        node.trackEpoch = runEpoch
        if cursor >= 0 && runNode.unsafelyUnwrapped._withUnsafeGuaranteedRef({
            $0.dependencies.matchRead(of: node, at: cursor, version: version)
        }) {
            cursor &+= 1
            return
        }
        recordUnmatched(node, version: version)
    }

    /// Matches a read against the running node's next dependency, or collects it (see
    /// ``beginRun(for:)``).
    /// The matched read (the usual one) is this function alone, with no call: it needs no
    /// registers saved; anything else goes to ``recordUnmatched(_:)``.
    @usableFromInline func record(_ node: GraphNode) {
        if cursor >= 0 && runNode.unsafelyUnwrapped._withUnsafeGuaranteedRef({
            $0.dependencies.matchRead(of: node, at: cursor, version: node.version)
        }) {
            cursor &+= 1
            return
        }
        recordUnmatched(node, version: node.version)
    }

    /// ``track(_:)`` of a source node, which also becomes the ``repeatedSource``.
    @inlinable @inline(__always) func track<Value>(source node: SourceNode<Value>) {
        guard isTracking, node.trackEpoch != runEpoch else { return }
        node.trackEpoch = runEpoch
        recordSource(node)
    }

    /// ``record(_:)`` of a source node, which also becomes the ``repeatedSource``.
    @usableFromInline func recordSource(_ node: GraphNode) {
        repeatedSource = UInt(bitPattern: Unmanaged.passUnretained(node).toOpaque())
        if cursor >= 0 && runNode.unsafelyUnwrapped._withUnsafeGuaranteedRef({
            $0.dependencies.matchRead(of: node, at: cursor, version: node.version)
        }) {
            cursor &+= 1
            return
        }
        recordUnmatched(node, version: node.version)
    }

    /// ``record(_:)`` of a read (seen at `version`) that differs from the last run's at
    /// this position.
    @inline(never) private func recordUnmatched(_ node: GraphNode, version: UInt64) {
        if cursor >= 0 { diverge() }
        collected.append(Read(node: Unmanaged.passRetained(node), version: version))
    }

    /// Copies the running node's matched dependencies to ``collected`` (retained) and
    /// collects every read from now on.
    private func diverge() {
        let node = runNode.unsafelyUnwrapped
        for index in 0..<cursor {
            let (dependency, version) = node._withUnsafeGuaranteedRef { $0.dependency(at: index) }.unsafelyUnwrapped
            collected.append(Read(node: dependency.retain(), version: version))
        }
        cursor = -1
    }

    // MARK: Validation

    /// One derived node being checked: the next dependency to look at, and whether the
    /// node must recompute anyway (it has no value yet). The node is unretained: the root is
    /// kept alive by the caller, every other one by the dependency list of the node below
    /// it, which cannot be freed while that node is checked (``keepUntilChecked(_:)``; and
    /// while this thread waits, ``released(_:reacquire:)`` retains them).
    struct CheckFrame {
        let node: Unmanaged<GraphNode>
        /// The dependency to look at when the check comes back to this node (written when
        /// the check descends from it).
        var index = 0
        let mustRecompute: Bool
    }

    /// Brings the derived node `root` up to date: walks down what it read, depth first, to
    /// the nodes that changed, and recomputes on the way back only the nodes whose inputs
    /// changed version. Iterative (an explicit stack), so a chain of any length validates in
    /// constant native stack; user closures run only in recomputations, whose inputs are
    /// then already up to date. Caller holds the lock.
    ///
    /// Every node being checked has a frame on ``checkStack`` (other code walks them while
    /// this thread waits); the innermost one's state is kept in locals, and its frame is
    /// written only when the check descends from it.
    ///
    /// The usual case first, with no frame: a node with a value whose dependencies need no
    /// check and are not busy (sources, nodes validated already) only compares versions and
    /// recomputes at most once; the walk takes over at the first dependency that needs more.
    func validate(_ root: GraphNode) {
        let hasValue = root.beginWatchedCheck(in: self)
        var index = 0
        // A dependency to descend into found by that first pass.
        var first: Unmanaged<GraphNode>?
        if hasValue {
            var needsWalk = false
            while let (dependency, seen) = root.dependency(at: index) {
                let flags = dependency._withUnsafeGuaranteedRef { (busy: $0.isBusy, check: $0.needsCheck(in: self)) }
                if flags.busy || flags.check {
                    if !flags.busy { first = dependency }
                    needsWalk = true
                    break
                }
                if dependency._withUnsafeGuaranteedRef({ $0.version }) != seen {
                    root.recompute(in: self)
                    return
                }
                index &+= 1
            }
            if !needsWalk { return }
        }
        // The walk, from the dependency that needs more (descending into it at once if it
        // needs a check; a busy one is looked at again by the loop below).
        let base = checkStack.count
        var node = Unmanaged.passUnretained(root)
        var mustRecompute = !hasValue
        checkStack.append(CheckFrame(node: node, index: index, mustRecompute: mustRecompute))
        if let first {
            node = first
            mustRecompute = !first._withUnsafeGuaranteedRef { $0.beginWatchedCheck(in: self) }
            checkStack.append(CheckFrame(node: first, mustRecompute: mustRecompute))
            index = 0
        }
        walk: while true {
            var changed = mustRecompute
            var next: Unmanaged<GraphNode>?
            var waited = false
            while let (dependency, seen) = node._withUnsafeGuaranteedRef({ $0.dependency(at: index) }) {
                if dependency._withUnsafeGuaranteedRef({ $0.isBusy }) && isBusyElsewhere(dependency)
                    && waitUntilNotBusy(dependency) {
                    waited = true
                    break
                }
                if dependency._withUnsafeGuaranteedRef({ $0.needsCheck(in: self) }) {
                    next = dependency
                    break
                }
                if !mustRecompute && dependency._withUnsafeGuaranteedRef({ $0.version }) != seen {
                    changed = true
                    break
                }
                index &+= 1
            }
            // After a wait, look at the same dependency again: it may have changed meanwhile.
            if waited { continue }
            if let next {
                checkStack.lastPointer.pointee.index = index
                node = next
                mustRecompute = !next._withUnsafeGuaranteedRef { $0.beginWatchedCheck(in: self) }
                checkStack.append(CheckFrame(node: next, mustRecompute: mustRecompute))
                index = 0
                continue
            }
            // `node` is done: recompute it if it must, and return to the frame below, where the
            // dependency at `index` was just checked: compare its version (do not descend).
            // A node that this finishes (it changed, or that was its last dependency) is done
            // at once, and so on down a chain; otherwise the scan goes on after it.
            while true {
                checkStack.removeLast()
                if changed {
                    node._withUnsafeGuaranteedRef { $0.recompute(in: self) }
                }
                if checkStack.count == base { break walk }
                let frame = checkStack.lastPointer.pointee
                node = frame.node
                index = frame.index
                mustRecompute = frame.mustRecompute
                changed = mustRecompute
                guard let (dependency, seen) = node._withUnsafeGuaranteedRef({ $0.dependency(at: index) }) else { continue }
                if !mustRecompute && dependency._withUnsafeGuaranteedRef({ $0.version }) != seen {
                    changed = true
                    continue
                }
                index &+= 1
                if node._withUnsafeGuaranteedRef({ $0.dependency(at: index) }) == nil { continue }
                break
            }
        }
        if base == 0 && !replacedWhileChecking.isEmpty {
            replacedWhileChecking.removeAll()
        }
        if base == 0 && !keptWhileChecking.isEmpty {
            keptWhileChecking.removeAll()
        }
    }

    /// Whether a ``validate(_:)`` is in progress on this thread's stack.
    var isChecking: Bool { !checkStack.isEmpty }

    /// Keeps a dependency list replaced during a check until the outermost check ends:
    /// frames may refer to its nodes unretained (a node whose frame is on the stack can be
    /// recomputed from a derived closure further up, in a cycle or after a write).
    func keepUntilChecked(_ dependencies: DependencyList) {
        replacedWhileChecking.append(dependencies)
    }

    /// Notes that `node`'s subscriber list became empty or non-empty: it is linked to (or
    /// unlinked from) its dependencies by a loop, so that observing or releasing a chain
    /// of any length uses constant stack. Caller holds the lock.
    func needsSettling(_ node: GraphNode) {
        if isSettling {
            // Retained while it waits: the caller's reference may be gone by then.
            unsettled.append(node)
            return
        }
        isSettling = true
        // The caller keeps `node` alive for this call.
        node.settleLink(in: self)
        while let next = unsettled.popLast() {
            next.settleLink(in: self)
        }
        isSettling = false
    }
}
