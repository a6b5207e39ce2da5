import Signals

extension DataSource {
    /// This source with every object transformed by `transform`, row for row.
    /// A parent edit of k rows costs k calls of `transform` (see ``DerivedDataSource``).
    public func map<Mapped: Hashable & Sendable>(_ transform: @escaping @Sendable (Object) -> Mapped) -> DerivedDataSource<Object, Mapped> {
        DerivedDataSource(parent: self, transform: MapTransform(transform))
    }

    /// The objects for which `isIncluded` is true, in this source's order, in the same
    /// sections (a section whose objects are all filtered out stays, empty).
    /// A parent edit of k rows costs O(k log n) (see ``DerivedDataSource``).
    /// `isIncluded` must depend on the object alone: it runs only for the rows that change,
    /// so one that reads a property (a search text) would leave the other rows filtered by
    /// its old value. Pass such a property to ``filter(using:_:)``, which filters again when
    /// it changes.
    @inlinable
    public func filter(_ isIncluded: @escaping @Sendable (Object) -> Bool) -> DerivedDataSource<Object, Object> {
        // Inlinable, so the filter loop is compiled for `Object` (see `CompiledLoops`).
        DerivedDataSource(parent: self, filteredBy: isIncluded, loops: .compiled())
    }

    /// As ``filter(_:)``, with a predicate that depends on `parameter` (a search text, a
    /// switch): when the parameter changes, the objects are filtered again in one pass (O(n))
    /// and one update with the minimal change set is published.
    @inlinable
    public func filter<Parameter: Equatable & Sendable>(
        using parameter: Property<Parameter>, _ isIncluded: @escaping @Sendable (Parameter, Object) -> Bool
    ) -> DerivedDataSource<Object, Object> {
        DerivedDataSource(parent: self, filteredUsing: parameter, isIncluded, loops: .compiled())
    }

    /// The objects sorted by `areInIncreasingOrder` within each section. A parent edit of
    /// k rows costs O(k log n) comparisons, or O(n + k log k) when it touches more than a
    /// sixteenth of the rows (one merge pass; see ``DerivedDataSource``); the first
    /// derivation sorts stably. `areInIncreasingOrder` must be a strict weak ordering; with one that is
    /// not (a `Double` key that can be NaN), the rows are still the parent's, in an
    /// unspecified order, and a parent edit whose row cannot be found derives the section
    /// again (O(n log n)). It must depend on the two objects alone (an order read from a
    /// property goes through ``sorted(using:by:)``, which sorts again when it changes).
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

    /// As ``sorted(by:)-(Object,Object)->Bool``, with an order that depends on `parameter`
    /// (a sort-order switch): when it changes, everything is sorted again (O(n log n)) and
    /// one update with the rows' moves is published.
    @inlinable
    public func sorted<Parameter: Equatable & Sendable>(
        using parameter: Property<Parameter>, by areInIncreasingOrder: @escaping @Sendable (Parameter, Object, Object) -> Bool
    ) -> DerivedDataSource<Object, Object> {
        DerivedDataSource(parent: self, sortedUsing: parameter, by: areInIncreasingOrder, loops: .compiled())
    }
}

/// The parameter value a derivation last used. Touched only from the derived property's
/// closure, which runs serially.
final class ParameterBox<Value: Equatable & Sendable>: @unchecked Sendable {
    private var value: Value

    init(_ value: Value) {
        self.value = value
    }

    /// Stores `new`; returns whether it differs from the value stored before.
    func replace(with new: Value) -> Bool {
        guard new != value else { return false }
        value = new
        return true
    }
}
