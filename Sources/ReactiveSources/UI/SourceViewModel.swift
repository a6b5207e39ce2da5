import Foundation
import Observation
import Signals

/// An `@Observable` view model of a source for SwiftUI (or any `Observation` user): its
/// snapshot, the change that produced it, its load and content state, and optionally a
/// selection, updated on the main actor. A SwiftUI view reads it directly; only the
/// properties a view reads make it redraw.
///
/// Updates arrive as ``DataSource/observeChangesOnMainActor(_:)`` delivers them: in order,
/// merged when they come faster than the main actor runs. The model observes the source
/// until it is deinitialised (it holds the source; the source does not hold it).
@MainActor
@Observable
public final class SourceViewModel<Object: Hashable & Sendable> {
    /// The snapshot shown.
    public private(set) var snapshot: Snapshot<Object>
    /// The change that turned the previous ``snapshot`` into this one.
    public private(set) var changes = ChangeSet()
    /// The fetch status and content state.
    public private(set) var loadState: LoadState
    /// The selected objects by section index (empty without a selection).
    public private(set) var selected: [Int: [Object]] = [:]
    /// The source.
    @ObservationIgnored public let source: any DataSource<Object>
    /// The selection given at creation, if any.
    @ObservationIgnored public let selection: Selection<Object>?
    @ObservationIgnored private var subscriptions: [SignalSubscription] = []

    /// A model of `source` (and of `selection`, whose source should be `source`), with the
    /// current values at once.
    public init(source: any DataSource<Object>, selection: Selection<Object>? = nil) {
        self.source = source
        self.selection = selection
        snapshot = source.snapshot
        loadState = source.loadState.value
        selected = selection?.selection.value ?? [:]
        var isFirst = true
        subscriptions.append(source.observeChangesOnMainActor { [weak self] snapshot, changes in
            guard let self else { return }
            // The first call describes the whole snapshot; the model already shows one.
            if isFirst {
                isFirst = false
                if snapshot == self.snapshot { return }
                self.changes = ChangeSet(from: self.snapshot, to: snapshot)
            } else {
                self.changes = changes
            }
            self.snapshot = snapshot
        })
        subscriptions.append(source.loadState.observeLatestOnMainActor { [weak self] state in
            if self?.loadState != state { self?.loadState = state }
        })
        if let selection {
            subscriptions.append(selection.selection.observeLatestOnMainActor { [weak self] value in
                if self?.selected != value { self?.selected = value }
            })
        }
        // The subscriptions cancel themselves when the model goes away.
    }

    /// The content state (loading, loaded, empty, failed...).
    public var contentState: ContentState { loadState.content }

    /// Starts a fetch of the source.
    public func fetchData() { source.fetchData() }
}
