import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import ReactiveSources

/// An in-process HTTP API serving a paged JSON feed of posts with realistic latency, behind
/// the ``HTTPTransport`` protocol: the demo's Paginated section uses the same
/// `HTTPPageFetcher` and JSON mapping as it would over the network.
///
/// Responses look like `{"data": {"items": [...]}, "page", "page_size", "number_of_pages",
/// "total_count"}`.
final class SimulatedFeedAPI: HTTPTransport, @unchecked Sendable {
    /// The API's address (never resolved: requests stay in-process).
    static let baseURL = URL(string: "https://feed.example")!
    /// How many posts the feed has.
    let totalPosts: Int
    /// How long each request takes.
    let latency: Duration
    /// Guards `requestCount`.
    private let lock = NSLock()
    /// Requests served so far.
    private var requestCount = 0

    /// An API of `totalPosts` posts answering after `latency`.
    init(totalPosts: Int = 23, latency: Duration = .milliseconds(250)) {
        self.totalPosts = totalPosts
        self.latency = latency
    }

    /// How many requests were served.
    var requestsServed: Int { lock.withLock { requestCount } }

    /// Answers `request` after the latency with the page its `page` and `page_size` query
    /// parameters ask for (a page past the end is empty).
    func send(_ request: URLRequest) async throws -> HTTPResponse {
        let url = request.url ?? Self.baseURL
        try await Task.sleep(for: latency)
        lock.withLock { requestCount += 1 }
        let query = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems ?? []
        let page = max(1, query.first { $0.name == "page" }?.value.flatMap(Int.init) ?? 1)
        let pageSize = min(100, max(1, query.first { $0.name == "page_size" }?.value.flatMap(Int.init) ?? 5))
        let pages = (totalPosts + pageSize - 1) / pageSize
        let first = (page - 1) * pageSize + 1
        let posts = first > totalPosts ? [] : (first...min(totalPosts, first + pageSize - 1)).map(Self.post)
        let body = PageBody(data: .init(items: posts), page: page, pageSize: pageSize, numberOfPages: pages, totalCount: totalPosts)
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.outputFormatting = .sortedKeys
        let data = try encoder.encode(body)
        return HTTPResponse(statusCode: 200, headers: ["Content-Type": "application/json"], body: data, url: url)
    }

    /// The JSON body of one page.
    private struct PageBody: Encodable {
        /// The wrapper the posts are nested in (key path `data.items`).
        struct Items: Encodable {
            let items: [FeedPost]
        }

        /// The posts, under `data.items`.
        let data: Items
        /// The page answered, from 1.
        let page: Int
        /// Posts per page.
        let pageSize: Int
        /// How many pages there are.
        let numberOfPages: Int
        /// How many posts there are.
        let totalCount: Int
    }

    /// Authors and subjects the posts are made of.
    static let authors = ["ada", "grace", "linus", "barbara"]
    /// What the posts are about.
    static let subjects = ["Signals", "diffing", "pagination", "placeholders", "selection", "threads", "sections"]

    /// The post with `id`.
    static func post(_ id: Int) -> FeedPost {
        FeedPost(id: id, title: "Notes on \(subjects[id % subjects.count]) #\(id)", author: authors[id % authors.count])
    }
}
