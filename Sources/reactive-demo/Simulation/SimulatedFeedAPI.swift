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
    static let baseURL = URL(string: "https://feed.example")!
    let totalPosts: Int
    let latency: Duration
    private let lock = NSLock()
    private var requestCount = 0

    init(totalPosts: Int = 23, latency: Duration = .milliseconds(250)) {
        self.totalPosts = totalPosts
        self.latency = latency
    }

    /// How many requests were served.
    var requestsServed: Int { lock.withLock { requestCount } }

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
        let body: [String: Any] = [
            "data": ["items": posts.map { ["id": $0.id, "title": $0.title, "author": $0.author] }],
            "page": page, "page_size": pageSize, "number_of_pages": pages, "total_count": totalPosts,
        ]
        let data = try JSONSerialization.data(withJSONObject: body, options: [.sortedKeys])
        return HTTPResponse(statusCode: 200, headers: ["Content-Type": "application/json"], body: data, url: url)
    }

    static let authors = ["ada", "grace", "linus", "barbara"]
    static let subjects = ["Signals", "diffing", "pagination", "placeholders", "selection", "threads", "sections"]

    static func post(_ id: Int) -> FeedPost {
        FeedPost(id: id, title: "Notes on \(subjects[id % subjects.count]) #\(id)", author: authors[id % authors.count])
    }
}
