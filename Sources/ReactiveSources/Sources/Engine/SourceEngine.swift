import Foundation
import Signals
import Synchronization

/// The lifecycle machinery shared by the leaf sources (Simple, Remote, Paginated): the
/// observable state, the fetch generation, the task in flight and the event order.
///
/// Every operation runs inside a Signals `batch` and under the engine's lock, so a snapshot
/// and its load state are published together, observers run only after the lock is
/// released (they may call back into the source), and operations from different threads
/// are serialised. Results are applied only through ``ifCurrent(_:_:)``, the one place that
/// checks a fetch's generation: work from a superseded or cancelled fetch cannot land.
@usableFromInline
final class SourceEngine<Object: Hashable & Sendable>: @unchecked Sendable {
    @usableFromInline let updates: MutableProperty<SnapshotUpdate<Object>>
    let loadState: MutableProperty<LoadState>
    let loadEvents: Signal<LoadEvent>
    private let eventInput: Signal<LoadEvent>.Input
    private let lock = NSRecursiveLock()
    private var generation: UInt64 = 0
    private var inFlight = false
    private var task: Task<Void, Never>?
    /// How many derived sources asked for before-images (``requestBeforeImages()``).
    @usableFromInline let imageRequests = Atomic<Int>(0)

    init(snapshot: Snapshot<Object>) {
        updates = MutableProperty(SnapshotUpdate(snapshot: snapshot), equals: nil)
        loadState = MutableProperty(LoadState())
        (loadEvents, eventInput) = Signal<LoadEvent>.pipe()
    }

    /// Runs `body` locked, inside a batch.
    @usableFromInline
    func locked<Result, Failure: Error>(_ body: () throws(Failure) -> Result) throws(Failure) -> Result {
        try batch { () throws(Failure) -> Result in
            lock.lock()
            defer { lock.unlock() }
            return try body()
        }
    }

    /// Runs `body` locked, without a batch: for bookkeeping that publishes nothing.
    func withLock<Result>(_ body: () -> Result) -> Result {
        lock.lock()
        defer { lock.unlock() }
        return body()
    }

    /// The snapshot as last published.
    @usableFromInline var snapshot: Snapshot<Object> { updates.value.snapshot }

    /// Whether a fetch is in flight (read under the lock; publishes nothing, so no batch).
    var isInFlight: Bool { withLock { inFlight } }

    // MARK: Publishing (callers hold the lock)

    /// Mutates the snapshot in place; `body` returns the change it made (with no
    /// before-images: a derived source that reads old rows then holds the previous rows).
    @inlinable
    func mutate(_ body: (inout Snapshot<Object>) -> ChangeSet) {
        mutateRecording { snapshot, _ in (body(&snapshot), nil) }
    }

    /// ``mutate(_:)`` for a row edit that knows what it replaced: `body` is told whether
    /// before-images are wanted (a derived source that reads old rows asked for them, see
    /// ``requestBeforeImages()``) and returns the change and then the objects it deleted,
    /// updated or moved as they were, keyed by their old paths (see
    /// ``SnapshotUpdate/beforeImages(since:)``), or `nil` when not wanted.
    @inlinable
    func mutateRecording(_ body: (inout Snapshot<Object>, _ recording: Bool) -> (ChangeSet, BeforeImages?)) {
        let recording = imageRequests.load(ordering: .relaxed) > 0
        updates.modify { update in
            let (changes, images) = body(&update.snapshot, recording)
            update.advance(changes, beforeImages: images)
        }
    }

    /// Asks for before-images with every row edit from now on, until the matching
    /// ``endBeforeImages()``. Any thread.
    func requestBeforeImages() {
        imageRequests.add(1, ordering: .relaxed)
    }

    /// Ends a ``requestBeforeImages()``. Any thread.
    func endBeforeImages() {
        imageRequests.subtract(1, ordering: .relaxed)
    }

    /// Sets the placeholder row of `section`, publishing only if it changes.
    func setPlaceholder(_ placeholder: Placeholder?, inSection section: Int) {
        let sections = snapshot.sections
        guard sections.indices.contains(section), sections[section].placeholder != placeholder else { return }
        mutate { $0.setPlaceholder(placeholder, inSection: section) }
    }

    /// Replaces the snapshot, computing the change set by diffing.
    func replace(with snapshot: Snapshot<Object>) {
        updates.modify { update in
            update = update.next(snapshot, changes: ChangeSet(from: update.snapshot, to: snapshot))
        }
    }

    /// Applies `event` to the load state and sends it, in one step under the graph lock: a
    /// thread that reads the new state and then observes ``loadEvents`` does not receive
    /// `event` (its deliveries were fixed when it was sent), and one that observes first
    /// reads the old state until `event` is on its way to it. On the emitting thread the
    /// event's observers are therefore queued before the state's (the state is stored as
    /// `modify` returns).
    func emit(_ event: LoadEvent) {
        let hasContent = snapshot.objectCount > 0
        loadState.modify { state in
            state = state.applying(event, hasContent: hasContent)
            eventInput.send(event)
        }
    }

    // MARK: Lifecycle

    /// Starts a fetch: ends the one in flight with `didFail(.cancelled)`, bumps the
    /// generation, lets `prepare` adjust the snapshot (placeholders), sends `willLoad`, then
    /// records the task `start` makes for the new generation (`nil`: a source with nothing
    /// to fetch), which it returns. A fetch task waits at a ``StartGate`` that its caller
    /// opens once the call is over (the start rule).
    @discardableResult
    func begin(prepare: () -> Void = {}, start: (UInt64) -> Task<Void, Never>?) -> UInt64 {
        locked {
            endInFlight()
            generation &+= 1
            inFlight = true
            prepare()
            emit(.willLoad)
            task = start(generation)
            return generation
        }
    }

    /// Runs `body` only if `fetch` is still the fetch in flight; returns whether it ran.
    @discardableResult
    func ifCurrent(_ fetch: UInt64, _ body: () -> Void) -> Bool {
        locked {
            guard inFlight, fetch == generation else { return false }
            body()
            return true
        }
    }

    /// Ends fetch `fetch` with `didFinishLoading` after `finalize` adjusts the snapshot.
    func finish(_ fetch: UInt64, finalize: () -> Void = {}) {
        ifCurrent(fetch) {
            finalize()
            inFlight = false
            task = nil
            emit(.didFinishLoading)
        }
    }

    /// Ends fetch `fetch` with `didFail` after `finalize` adjusts the snapshot for the error.
    func fail(_ fetch: UInt64, error: any Error, finalize: (DataSourceError) -> Void = { _ in }) {
        let failure = DataSourceError(error)
        ifCurrent(fetch) {
            finalize(failure)
            inFlight = false
            task = nil
            emit(.didFail(failure))
        }
    }

    /// Cancels the fetch in flight, if any, after `cleanup` adjusts the snapshot.
    func cancel(cleanup: () -> Void = {}) {
        locked {
            guard inFlight else { return }
            cleanup()
            endInFlight()
        }
    }

    /// Cancels the task in flight, if any, without ending its fetch here: for an owner that
    /// is going away. The task stops (its fetcher sees the cancellation) and ends the fetch
    /// as cancelled through ``fail(_:error:finalize:)`` if anyone still holds the engine.
    func cancelTask() {
        withLock { task?.cancel() }
    }

    /// Ends the fetch in flight (if any) as cancelled. Caller holds the lock.
    private func endInFlight() {
        guard inFlight else { return }
        task?.cancel()
        task = nil
        inFlight = false
        generation &+= 1
        emit(.didFail(.cancelled))
    }
}
