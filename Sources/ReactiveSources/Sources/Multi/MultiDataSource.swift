import Foundation
import Signals

/// A source with one section per child source, titled by the child's name: a composed view
/// of several sources, derived from them.
///
/// - **Derived and incremental.** The snapshot is derived from the children: the Multi
///   observes each child and updates by itself whenever one publishes (partial loads
///   included), touching only that child's sections. A child's change set is translated into
///   the composed one (section indexes shifted), so a child that partially loads k objects
///   costs O(k), not O(total objects) nor O(children) (O(children) integer additions when
///   splicing). Skipped updates of a child are composed (see
///   ``SnapshotUpdate/changes(since:)``); a child whose change cannot be translated (its
///   section layout changed within skipped updates, or more than 64 were skipped) is
///   re-diffed on its own: O(that child's size). A load-state change that changes nothing
///   visible publishes nothing. A flattened child with one section shares its row storage
///   with the Multi (nothing is copied, see ``RowStorage``); a child with several sections
///   has them concatenated (O(that child's size) per change).
/// - **Consistent.** The snapshot and the load state are published together: an observer of
///   ``updates`` that reads ``loadState`` (or the other way round) sees values that belong
///   together, as long as each child is changed by one thread at a time. When two threads
///   change or fetch the same child at once, an ``updates`` observer may read a load state
///   one step behind; ``loadState`` then changes right after and its observers see the
///   final state. The aggregated content state (empty or loaded) is judged from the
///   children themselves, so it is never behind the objects. The composed snapshot is updated when the child's change is delivered (by the
///   thread that made it, right after the child's write, unless that thread is inside an
///   observer or a `batch`, in which case it is updated when that observer returns or that
///   batch ends): code that changes a child and reads the Multi in the same observer
///   callback or batch still sees the previous composition.
/// - **Stable sections.** In the default mode every child always occupies exactly one
///   section (its objects, flattened if it has several sections), so later sections never
///   shift while children load. A child that is loading with nothing to show gets a
///   ``Placeholder/loading`` row; a failed child (its last fetch failed, not cancelled) gets a ``Placeholder/error(message:)`` row
///   under whatever objects it kept, unless it shows a placeholder of its own,
///   in its own section, and the others are unaffected. With `splicesChildSections`, each
///   child's own sections are spliced in instead (a child then occupies as many sections as
///   it has, at least one).
/// - **Section identity.** Each composed section's `id` is the id given for the child, else
///   the child's name (see ``sectionIDs``: an empty or repeated one gets `"#<index>"`
///   appended), or
///   `"<that id>.<child section id>"` when splicing, so a selection policy or a lookup can
///   name a child's section (`"Size"`) and sections of different children never collide.
/// - **Mixed element types.** Children must share `Object`; map differing children to a
///   common type (usually an enum) with ``DataSource/map(_:)``.
/// - **Aggregate status.** See ``MultiLoadAggregator``: loading while any child loads,
///   `didPartiallyLoad` as children deliver or end, finished when every child has ended
///   (failed only if every child failed).
///
/// `fetchData()` fetches every child (a composed fetch in flight ends with
/// `didFail(.cancelled)` first); `cancelFetch()` cancels every child (the composed fetch ends
/// with `didFail(.cancelled)`); `willDisplayRow(at:)` goes to the child that owns the row,
/// with the child's own index path.
public final class MultiDataSource<Object: Hashable & Sendable>: DerivedSourceNode<Object>, DataSource, @unchecked Sendable {
    /// The name of the composed source.
    public let name: String
    /// The children, in section order.
    public let children: [any DataSource<Object>]
    /// Whether each child's own sections are spliced in (see the type's documentation).
    public let splicesChildSections: Bool
    /// The section id of each child, in child order: the id given at creation, else its
    /// name, made unique (an empty or repeated one becomes `"<id>#<index>"`, e.g. `"#1"` for
    /// an unnamed second child).
    /// When splicing, the child's sections are `"<id>.<child section id>"`.
    public var sectionIDs: [String] { composer.ids }
    @usableFromInline let composer: MultiComposer<Object>
    @usableFromInline let childSubscriptions: [SignalSubscription]

    /// Creates a composed source over `children`. Each child's section is identified by
    /// `sectionIDs[index]` when given (and not empty), else by the child's name; ids are made
    /// unique (see ``sectionIDs``), and extra `sectionIDs` are ignored. Inlinable: the
    /// composition code is then compiled for the client's `Object` (unspecialised, each array
    /// operation on it costs a runtime metadata lookup).
    @inlinable
    public init(name: String = "", children: [any DataSource<Object>], sectionIDs: [String]? = nil, splicesChildSections: Bool = false) {
        self.name = name
        self.children = children
        self.splicesChildSections = splicesChildSections
        let composer = MultiComposer<Object>(children: children, sectionIDs: sectionIDs, splices: splicesChildSections)
        self.composer = composer
        // Content is judged from the children themselves, which are always current; the
        // composition may lag behind a child changed on another thread.
        let aggregator = MultiLoadAggregator(children: children, hasContent: {
            children.contains { $0.snapshot.objectCount > 0 }
        }, willRecord: { [composer] index in
            composer.childPublished(index, update: children[index].updates.value, state: children[index].loadState.value)
        })
        childSubscriptions = composer.attach(to: children)
        super.init(published: composer.published.readOnly, upstream: .children(children, aggregator)) { [composer] path, own in
            composer.parentRow(ofOwn: path, own: own)
        }
    }
}
