import Signals

extension DataSource {
    /// This source with every object transformed by `transform`, row for row.
    /// A parent edit of k rows costs k calls of `transform` (see ``DerivedDataSource``); the
    /// first derivation n calls. Inlinable, so that loop is compiled for both object types.
    @inlinable
    public func map<Mapped: Hashable & Sendable>(_ transform: @escaping @Sendable (Object) -> Mapped) -> DerivedDataSource<Object, Mapped> {
        DerivedDataSource(parent: self, mappedBy: MapTransform(transform, buildAll: { RowStorage(mapping: $0, transform) }))
    }

    /// The objects for which `isIncluded` is true, in this source's order, in the same
    /// sections (a section whose objects are all filtered out stays, empty).
    /// A parent edit of k rows costs O(k log n) (see ``DerivedDataSource``).
    /// `isIncluded` may read `Signals` properties (a search text, a "favourites only"
    /// switch): when one changes, every row is filtered again (O(n)) and one update with the
    /// rows that left and arrived is published. Every update reads those properties again
    /// (O(p) for p properties): meant for a few shared ones; a closure that reads a property
    /// per row pays O(rows) per update and keeps removed rows' properties until the next
    /// full pass (see ``DerivedDataSource``).
    @inlinable
    public func filter(_ isIncluded: @escaping @Sendable (Object) -> Bool) -> DerivedDataSource<Object, Object> {
        // Inlinable, so the filter loop is compiled for `Object` (see `CompiledLoops`).
        DerivedDataSource(parent: self, filteredBy: isIncluded, loops: .compiled())
    }

    /// The objects sorted by `areInIncreasingOrder` within each section. A parent edit of
    /// k rows costs O(k log n) comparisons, or O(n + k log k) when it touches more than a
    /// sixteenth of the rows (one merge pass; see ``DerivedDataSource``); the first
    /// derivation sorts stably. `areInIncreasingOrder` must be a strict weak ordering; with one that is
    /// not (a `Double` key that can be NaN), the rows are still the parent's, in an
    /// unspecified order, and a parent edit whose row cannot be found derives the section
    /// again (O(n log n)). It may read `Signals` properties (a sort-order switch): when one
    /// changes, everything is sorted again (O(n log n)) and one update is published.
    @inlinable
    public func sorted(by areInIncreasingOrder: @escaping @Sendable (Object, Object) -> Bool) -> DerivedDataSource<Object, Object> {
        // Inlinable, so the sort and merge loops are compiled for `Object` (see `CompiledLoops`).
        DerivedDataSource(parent: self, sortedBy: areInIncreasingOrder, loops: .compiled())
    }

    /// The objects sorted by the value at `keyPath`, ascending. Inlinable, so the key path
    /// is read in code compiled for `Object` (through generic code, each read costs runtime
    /// metadata lookups).
    @inlinable
    public func sorted<Key: Comparable & Sendable>(by keyPath: KeyPath<Object, Key>) -> DerivedDataSource<Object, Object> {
        let key = reader(of: keyPath)
        return sorted { key($0) < key($1) }
    }
}
