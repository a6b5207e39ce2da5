extension PaginatedDataSource where Object: Identifiable, Object.ID: Sendable {
    /// Creates a paginated source whose duplicate rule uses `id`: an object whose `id` is
    /// already shown is dropped from later pages even if its other fields changed.
    /// Arguments are treated as in the designated initialiser.
    @inlinable
    public convenience init(
        name: String = "",
        fetcher: some PageFetcher<Object>,
        placeholders: PlaceholderOptions = .default,
        prefetchDistance: Int = 0,
        maxPages: Int? = nil,
        retry: RetryPolicy = .default,
        nextPageRetry: RetryPolicy = .default
    ) {
        self.init(
            name: name, fetcher: fetcher, placeholders: placeholders, prefetchDistance: prefetchDistance,
            maxPages: maxPages, seen: .keys { $0.id }, rows: .compiled(), retry: retry, nextPageRetry: nextPageRetry
        )
    }
}
