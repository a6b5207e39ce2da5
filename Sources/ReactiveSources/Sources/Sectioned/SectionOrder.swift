/// How a ``SectionedDataSource`` orders its sections.
public struct SectionOrder<Key: Hashable & Sendable>: Sendable {
    let areInIncreasingOrder: (@Sendable (Key, Key) -> Bool)?

    /// Sections appear in the order their key first appears in the child's objects.
    public static var firstAppearance: SectionOrder { SectionOrder(areInIncreasingOrder: nil) }

    /// Sections are sorted by key with `areInIncreasingOrder` (a strict weak ordering).
    public static func sorted(by areInIncreasingOrder: @escaping @Sendable (Key, Key) -> Bool) -> SectionOrder {
        SectionOrder(areInIncreasingOrder: areInIncreasingOrder)
    }
}

extension SectionOrder where Key: Comparable {
    /// Sections sorted by ascending key.
    public static var ascending: SectionOrder { .sorted(by: { $0 < $1 }) }

    /// Sections sorted by descending key.
    public static var descending: SectionOrder { .sorted(by: { $0 > $1 }) }
}
