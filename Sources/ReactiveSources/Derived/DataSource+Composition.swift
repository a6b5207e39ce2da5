import Signals

extension DataSource {
    /// This source's objects transformed by `transform`, without those it maps to `nil`, in
    /// this source's order and sections. A parent edit of k rows costs k calls of `transform`
    /// and O(k log n) bookkeeping (see ``DerivedDataSource``).
    public func compactMap<Mapped: Hashable & Sendable>(_ transform: @escaping @Sendable (Object) -> Mapped?) -> DerivedDataSource<Object, Mapped> {
        DerivedDataSource(parent: self, transform: CompactMapTransform(transform))
    }

    /// This source's objects grouped into sections by `key` (a ``SectionedDataSource`` over
    /// this source, named like it unless `name` is given). A parent edit of k rows costs
    /// O(k log² n + sections log sections); see ``SectionedDataSource`` for titles and order.
    /// Inlinable, so the merge loop of large edits is compiled for `Object`.
    @inlinable
    public func sectioned<Key: Hashable & Sendable>(
        by key: @escaping @Sendable (Object) -> Key,
        name: String? = nil,
        title: @escaping @Sendable (Key) -> String = { String(describing: $0) },
        sectionOrder: SectionOrder<Key> = .firstAppearance,
        objectOrder: (@Sendable (Object, Object) -> Bool)? = nil
    ) -> SectionedDataSource<Object, Key> {
        SectionedDataSource(
            name: name ?? self.name, child: self, key: key, title: title, sectionOrder: sectionOrder, objectOrder: objectOrder
        )
    }

    /// This source's objects grouped into sections by the value at `keyPath` (see
    /// ``sectioned(by:name:title:sectionOrder:objectOrder:)-(Object)->Key``). Inlinable, so
    /// the key path is read in code compiled for `Object`.
    @inlinable
    public func sectioned<Key: Hashable & Sendable>(
        by keyPath: KeyPath<Object, Key>,
        name: String? = nil,
        title: @escaping @Sendable (Key) -> String = { String(describing: $0) },
        sectionOrder: SectionOrder<Key> = .firstAppearance,
        objectOrder: (@Sendable (Object, Object) -> Bool)? = nil
    ) -> SectionedDataSource<Object, Key> {
        sectioned(by: reader(of: keyPath), name: name, title: title, sectionOrder: sectionOrder, objectOrder: objectOrder)
    }

    /// A ``MultiDataSource`` showing this source followed by `others` (each child's sections
    /// in turn; see ``MultiDataSource/init(name:children:sectionIDs:splicesChildSections:)``).
    public func composed(
        with others: any DataSource<Object>..., name: String = "", splicesChildSections: Bool = false
    ) -> MultiDataSource<Object> {
        MultiDataSource(name: name, children: [self] + others, splicesChildSections: splicesChildSections)
    }
}
