import Foundation
import Signals

/// A store of objects behind index paths (sections and items) that fetches them on demand
/// and lets anyone observe its content and its fetches.
///
/// Observable state, all `Signals` values:
/// - ``updates``: the current ``Snapshot`` with the ``ChangeSet`` that produced it (the one
///   source of truth: counts, lookups and titles are read from it);
/// - ``loadState``: the fetch status and the content state, changed together;
/// - ``loadEvents``: will load, partially loaded, finished, failed (see ``LoadEvent`` for the
///   lifecycle contract every source honours).
///
/// Threading: every member may be called from any thread. Observers run as described in
/// `Property` (on the thread that made the change, never concurrently with themselves,
/// with no lock held). A snapshot and the load
/// state it belongs to are published in one `batch`, so an observer never sees one without
/// the other. The package's sources change a load state and send the load event that
/// produced it in one step: a thread that reads ``loadState`` and then observes
/// ``loadEvents`` receives only events sent after that state was published, never the one
/// that produced it (and misses those sent between its read and its `observe`).
public protocol DataSource<Object>: AnyObject, Sendable {
    /// The type of the objects shown.
    associatedtype Object: Hashable & Sendable

    /// A name for the source; a Multi source uses it as the section title.
    var name: String { get }

    /// The current snapshot and the change set that produced it.
    var updates: Property<SnapshotUpdate<Object>> { get }

    /// The fetch status and content state.
    var loadState: Property<LoadState> { get }

    /// The load events of every fetch, in order.
    var loadEvents: Signal<LoadEvent> { get }

    /// Starts a fetch. A fetch already in flight is cancelled first (it ends with
    /// `didFail(.cancelled)`) and its results are ignored even if they arrive later.
    func fetchData()

    /// Cancels the fetch in flight, if any: it ends with `didFail(.cancelled)`, `isFetching`
    /// becomes false and the content shown so far is kept. Does nothing when idle.
    func cancelFetch()

    /// Tells the source a row is being displayed. Paginated sources use it to load the next
    /// page near the end; others ignore it. Invalid paths are ignored.
    func willDisplayRow(at path: RowPath)
}

extension DataSource {
    /// Ignores the call: only paginated sources load more on display.
    public func willDisplayRow(at path: RowPath) {}
}
