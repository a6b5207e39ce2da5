import Signals

/// A source derived from one parent source: its objects mapped, filtered or sorted, with the
/// parent's sections, placeholders, load state and events. Make one with ``DataSource/map(_:)``,
/// ``DataSource/filter(_:)``, ``DataSource/sorted(by:)`` and their variants; links chain
/// (`photos.filter { $0.isFavourite }.sorted(by: \.date)`).
///
/// - **Incremental.** Each update of the parent is followed through its change set (the
///   change sets of skipped versions composed when updates were coalesced): k changed rows
///   cost O(k log n), and the derived change set is exact (an edited row is an update, or a
///   move and an update when it changes place in a sorted source). When the parent's change
///   cannot be composed (sections changed in a gap of skipped versions, or over 64 skipped) or
///   touches more than an eighth of the rows, or a `Signals` property that the closures read
///   changed, everything is derived again: O(n), published as one update. A sorted source merges a large change instead
///   (O(n + k log k), no diff).
/// - **Lazy.** The snapshot is a derived `Signals` property: computed when read or observed.
///   Transform closures must be pure apart from reading `Signals` properties (a search text):
///   the source depends on every property they read, and derives everything again when one
///   changes. It reads them all again on every update (O(p) for p properties, so keep them
///   few and shared: not one per row); it cannot tell which row read which, so it keeps
///   those of removed rows until it holds twice what the last full pass read, plus 64, and
///   then derives everything again (O(n)). They run serially, while the graph derives, and must not write properties.
/// - **Lifecycle.** Load state and load events are the parent's; `fetchData()`,
///   `cancelFetch()` and `willDisplayRow(at:)` go to the parent (see ``DerivedSourceNode``).
/// - **Lifetime.** The source holds its parent; a chain nobody holds is freed.
/// - **Threading.** Every member may be called from any thread (see ``DataSource``).
public final class DerivedDataSource<Base: Hashable & Sendable, Object: Hashable & Sendable>: DerivedSourceNode<Object>, DataSource, @unchecked Sendable {
    /// The source this one is derived from.
    public let parent: any DataSource<Base>

    init<Transform: RowTransform>(parent: any DataSource<Base>, transform: Transform) where Transform.Base == Base, Transform.Object == Object {
        self.parent = parent
        super.init(Derivation(parent: parent, transform: transform), upstream: .parent(parent))
    }

    /// The parent's name.
    public var name: String { parent.name }
}

extension DerivedDataSource {
    /// A source showing `parent`'s objects transformed by `transform`.
    @usableFromInline
    convenience init(parent: any DataSource<Base>, mappedBy transform: MapTransform<Base, Object>) {
        self.init(parent: parent, transform: transform)
    }
}

extension DerivedDataSource where Base == Object {
    /// A source showing `parent`'s objects that pass `isIncluded`.
    @usableFromInline
    convenience init(parent: any DataSource<Object>, filteredBy isIncluded: @escaping @Sendable (Object) -> Bool, loops: CompiledLoops<Object>) {
        self.init(parent: parent, transform: FilterTransform(isIncluded, loops: loops))
    }

    /// A source showing `parent`'s objects sorted by `less`.
    @usableFromInline
    convenience init(parent: any DataSource<Object>, sortedBy less: @escaping @Sendable (Object, Object) -> Bool, loops: CompiledLoops<Object>) {
        self.init(parent: parent, transform: SortTransform(less, loops: loops))
    }
}

/// A source showing its parent's objects transformed (see ``DataSource/map(_:)``).
public typealias MappedDataSource<Base: Hashable & Sendable, Object: Hashable & Sendable> = DerivedDataSource<Base, Object>
/// A source showing the parent's objects that pass a predicate (see ``DataSource/filter(_:)``).
public typealias FilteredDataSource<Object: Hashable & Sendable> = DerivedDataSource<Object, Object>
/// A source showing its parent's objects sorted (see ``DataSource/sorted(by:)``).
public typealias SortedDataSource<Object: Hashable & Sendable> = DerivedDataSource<Object, Object>
