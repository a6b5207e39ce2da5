import Foundation
import ReactiveSources
import Signals

/// The demo's sources: a Multi of the poem's lines, a paginated feed, photos arriving one by
/// one, and the photos grouped by kind, all mapped to ``DemoItem``.
final class DemoModel: Sendable {
    /// The bundled poem, read line by line (section 1).
    let lines: RemoteDataSource<DemoItem>
    /// The paginated feed from the simulated or `--url` API (section 2).
    let feed: PaginatedDataSource<FeedPost>
    /// Photos arriving one at a time (section 3; regrouped by kind after it).
    let photos: RemoteDataSource<Photo>
    /// Every section above, spliced into one source: what the table shows.
    let multi: MultiDataSource<DemoItem>
    /// The selected rows of the Multi (the poem's under ``poemPolicy``, the others unlimited).
    let selection: Selection<DemoItem>
    /// The simulated API, or `nil` when `--url` points at a real one.
    let simulatedAPI: SimulatedFeedAPI?
    /// Makes the feed's next request fail (key `e`).
    let failureInjector: FailureInjector
    /// The feed's page fetcher (also used to probe `--url` before starting).
    let feedFetcher: HTTPPageFetcher<FeedPost>
    /// How long the poem's, the feed's and the photos' fetches take.
    let timings = FetchTimings(names: ["Poem", "Feed", "Photos"])
    /// The poem section's selection policy: at least 1 line, at most 2.
    static let poemPolicy = SelectionPolicy(minimum: 1, maximum: 2)

    /// Builds the sources for `options`, reading the poem from `poemURL`. Nothing is fetched
    /// until ``start()``.
    init(options: DemoOptions, poemURL: URL) {
        let latency = Duration.milliseconds(options.latencyMilliseconds)
        lines = RemoteDataSource(name: "Poem", fetcher: TimedFetcher(base: NumberedLinesFetcher(url: poemURL), name: "Poem", timings: timings), placeholders: .all)

        let transport: any HTTPTransport
        let baseURL: URL
        let apiPath: String
        if let url = options.url {
            simulatedAPI = nil
            transport = URLSessionTransport()
            baseURL = url
            apiPath = ""
        } else {
            let api = SimulatedFeedAPI(latency: latency)
            simulatedAPI = api
            transport = api
            baseURL = SimulatedFeedAPI.baseURL
            apiPath = "posts"
        }
        failureInjector = FailureInjector(wrapping: transport)
        let timedTransport = TimedTransport(base: failureInjector, name: "Feed", timings: timings)
        let fetcher = HTTPPageFetcher<FeedPost>(
            configuration: RemoteConfiguration(baseURL: baseURL, timeout: 10, transport: timedTransport),
            apiPath: apiPath,
            queryItems: options.paging == .page ? [] : [URLQueryItem(name: options.pageSizeParameter, value: String(options.pageSize))],
            keyPath: options.keyPath,
            paging: Self.paging(for: options)
        )
        feedFetcher = fetcher
        // The simulated API: no automatic retry, the demo shows each injected failure and
        // retries by hand (n). A real API (--url): the library's default back-off (only
        // transport errors, timeouts, 5xx and 429 are retried; a malformed page is not).
        let retry: RetryPolicy = simulatedAPI == nil ? .default : .none
        feed = PaginatedDataSource(
            name: "Feed", fetcher: fetcher, placeholders: .all, identity: { AnyHashable($0.id) }, retry: retry, nextPageRetry: retry
        )

        let photoInterval = Duration.milliseconds(max(1, options.latencyMilliseconds / 2))
        let photoFetcher = AsyncSequenceFetcher { PhotoStream.stream(interval: photoInterval) }
        photos = RemoteDataSource(name: "Photos", fetcher: TimedFetcher(base: photoFetcher, name: "Photos", timings: timings), placeholders: .all)
        let byKind = SectionedDataSource(
            name: "Photos by kind",
            child: FetchlessView(photos),
            key: { $0.kind },
            title: { "Photos · \($0)" },
            sectionOrder: .ascending
        )

        multi = MultiDataSource(
            name: "Demo",
            children: [
                lines,
                feed.map { DemoItem.post($0) },
                photos.map { DemoItem.photo($0) },
                byKind.map { DemoItem.photo($0) },
            ],
            splicesChildSections: true
        )
        // The Multi renames spliced sections, so the poem's id is read from the Multi's own
        // snapshot: the poem (one section) is always its first section.
        let multi = self.multi
        selection = Selection(source: multi) { sectionID in
            sectionID == multi.snapshot.sections.first?.id ? Self.poemPolicy : .multiple
        }
    }

    /// The paging strategy `options` ask for (page numbers, cursor or `Link` header, with or
    /// without a has-more key). Cursor and `Link` paging send the page size as a fixed query
    /// parameter of the first request.
    static func paging(for options: DemoOptions) -> any PagingStrategy {
        let base: any PagingStrategy = switch options.paging {
        case .page:
            PageNumberPaging(
                keys: PaginatorKeys(
                    page: options.pageKey, pageSize: options.pageSizeKey, numberOfPages: options.numberOfPagesKey,
                    totalCount: options.totalCountKey, pageParameter: options.pageParameter, pageSizeParameter: options.pageSizeParameter
                ),
                pageSize: options.pageSize
            )
        case .cursor:
            CursorPaging(cursorKeyPath: options.cursorKey, parameter: options.cursorParameter, totalCountKeyPath: options.totalCountKey)
        case .link:
            LinkHeaderPaging()
        }
        return options.hasMoreKey.map { HasMorePaging(base: base, hasMoreKey: $0) } ?? base
    }

    /// Starts every child's first fetch.
    func start() { multi.fetchData() }
}

