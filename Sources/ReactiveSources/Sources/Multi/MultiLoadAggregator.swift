import Foundation
import Signals

/// The load lifecycle of a Multi source, aggregated from its children's load events.
///
/// Rules:
/// - the composed fetch starts (`willLoad`) when `fetchData()` is called on the Multi, or
///   when any child starts a fetch of its own while the Multi is idle;
/// - while it runs, every child batch and every child that ends while others still load
///   is a `didPartiallyLoad`;
/// - it ends when no child is loading: `didFinishLoading` if at least one child finished,
///   otherwise `didFail` with the first child's error (`.cancelled` if all were cancelled);
/// - `fetchData()` while a composed fetch runs ends it with `didFail(.cancelled)` first;
///   children's finishers for fetches superseded that way are ignored.
@usableFromInline
final class MultiLoadAggregator: @unchecked Sendable {
    fileprivate enum ChildPhase {
        case idle
        /// `fetchData()` was called on the Multi; the child's `willLoad` has not arrived yet.
        case starting
        case loading
        case finished
        case failed(DataSourceError)
    }

    let loadState: MutableProperty<LoadState>
    let loadEvents: Signal<LoadEvent>
    private let input: Signal<LoadEvent>.Input
    private let hasContent: @Sendable () -> Bool
    /// Called with a child's index before its event is recorded (see `init`).
    private let willRecord: @Sendable (Int) -> Void
    private let lock = NSRecursiveLock()
    private var phases: [ChildPhase]
    private var inFlight = false
    private var subscriptions: [SignalSubscription] = []

    /// Starts from the children's current states: a child that is already fetching makes the
    /// composed fetch start at once (its finisher, delivered later, ends it).
    @usableFromInline
    ///
    /// `willRecord(index)` runs before child `index`'s event changes the aggregate state: the
    /// Multi composes that child's current snapshot there, so no load state it publishes is
    /// ahead of the rows it shows, whichever threads the children publish from.
    init<Object>(
        children: [any DataSource<Object>], hasContent: @escaping @Sendable () -> Bool,
        willRecord: @escaping @Sendable (Int) -> Void = { _ in }
    ) {
        (loadEvents, input) = Signal<LoadEvent>.pipe()
        self.hasContent = hasContent
        self.willRecord = willRecord
        phases = Array(repeating: .idle, count: children.count)
        loadState = MutableProperty(LoadState())
        lock.lock()
        defer { lock.unlock() }
        // Subscribe before reading the states, under the lock: an event sent meanwhile waits
        // for the lock and then meets the phases read here, so no finisher is lost.
        subscriptions = children.enumerated().map { index, child in
            child.loadEvents.observe { [weak self] event in self?.child(index, sent: event) }
        }
        for (index, child) in children.enumerated() where child.loadState.value.isFetching {
            phases[index] = .loading
        }
        if phases.contains(where: \.isActive) {
            inFlight = true
            loadState.value = LoadState().applying(.willLoad, hasContent: hasContent())
        }
    }

    /// Starts a composed fetch (callers then fetch every child, in the same batch).
    func beginFetch() {
        locked {
            if inFlight { emit(.didFail(.cancelled)) }
            inFlight = true
            for index in phases.indices { phases[index] = .starting }
            emit(.willLoad)
            if phases.isEmpty { finishIfDone() }
        }
    }

    /// Ends the composed fetch as cancelled (callers then cancel every child).
    func cancelFetch() {
        locked {
            guard inFlight else { return }
            inFlight = false
            for index in phases.indices where phases[index].isActive { phases[index] = .failed(.cancelled) }
            emit(.didFail(.cancelled))
        }
    }

    private func child(_ index: Int, sent event: LoadEvent) {
        locked {
            willRecord(index)
            switch event {
            case .willLoad:
                phases[index] = .loading
                if !inFlight {
                    inFlight = true
                    emit(.willLoad)
                }
            case .didPartiallyLoad:
                guard case .loading = phases[index], inFlight else { return }
                emit(.didPartiallyLoad)
            case .didFinishLoading, .didFail:
                // A finisher while `.starting` belongs to a fetch the Multi superseded.
                guard case .loading = phases[index] else { return }
                if case .didFail(let error) = event {
                    phases[index] = .failed(error)
                } else {
                    phases[index] = .finished
                }
                guard inFlight else { return }
                if !finishIfDone() { emit(.didPartiallyLoad) }
            }
        }
    }

    /// Ends the composed fetch if no child is active; returns whether it did.
    @discardableResult
    private func finishIfDone() -> Bool {
        guard !phases.contains(where: \.isActive) else { return false }
        inFlight = false
        var firstError: DataSourceError?
        var anyFinished = phases.isEmpty
        for phase in phases {
            switch phase {
            case .finished: anyFinished = true
            case .failed(let error): firstError = firstError ?? (error.isCancellation ? nil : error)
            case .idle, .starting, .loading: break
            }
        }
        emit(anyFinished ? .didFinishLoading : .didFail(firstError ?? .cancelled))
        return true
    }

    /// Applies `event` to the load state and sends it in one step (see `SourceEngine.emit`).
    private func emit(_ event: LoadEvent) {
        let hasContent = hasContent()
        loadState.modify { state in
            state = state.applying(event, hasContent: hasContent)
            input.send(event)
        }
    }

    private func locked<Result>(_ body: () -> Result) -> Result {
        batch {
            lock.lock()
            defer { lock.unlock() }
            return body()
        }
    }
}

extension MultiLoadAggregator.ChildPhase {
    var isActive: Bool {
        switch self {
        case .starting, .loading: return true
        case .idle, .finished, .failed: return false
        }
    }
}
