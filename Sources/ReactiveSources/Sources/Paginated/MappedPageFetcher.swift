/// A page fetcher whose pages are another page fetcher's pages with their objects
/// transformed (``PageFetcher/map(_:)``) or transformed and filtered
/// (``PageFetcher/compactMap(_:)``); the page info and next token are kept as they are.
public struct MappedPageFetcher<Base: PageFetcher, Object: Sendable>: PageFetcher {
    private let base: Base
    private let transform: @Sendable ([Base.Object]) throws -> [Object]

    /// Creates a fetcher applying `transform` to every object of `base`'s pages. An error
    /// thrown by `transform` fails the page load with it.
    public init(_ base: Base, transform: @escaping @Sendable (Base.Object) throws -> Object) {
        self.base = base
        self.transform = { try $0.map(transform) }
    }

    init(_ base: Base, objects transform: @escaping @Sendable ([Base.Object]) throws -> [Object]) {
        self.base = base
        self.transform = transform
    }

    /// Fetches the page `token` names from the base fetcher and transforms its objects.
    /// Throws what the base fetcher or the transform throws.
    public func fetchPage(_ token: PageToken) async throws -> Page<Object> {
        let page = try await base.fetchPage(token)
        return Page(objects: try transform(page.objects), info: page.info, next: page.next)
    }
}

extension PageFetcher {
    /// Maps every object of every page with `transform` (decode one type, show another).
    /// O(page) per page.
    public func map<Mapped: Sendable>(_ transform: @escaping @Sendable (Object) throws -> Mapped) -> MappedPageFetcher<Self, Mapped> {
        MappedPageFetcher(self, transform: transform)
    }

    /// Maps every object of every page with `transform` and drops those it maps to `nil`.
    /// A page whose objects are all dropped reaches the source empty, and an empty page ends
    /// paging (``PagingEnd/emptyPage``). O(page) per page.
    public func compactMap<Mapped: Sendable>(_ transform: @escaping @Sendable (Object) throws -> Mapped?) -> MappedPageFetcher<Self, Mapped> {
        MappedPageFetcher(self, objects: { try $0.compactMap(transform) })
    }
}
