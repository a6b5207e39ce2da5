// A paginated source over real HTTP: pages, scrolling, a failed page and its retry, refresh.
//
// The script starts the package's fixture server (Python standard library only) on
// 127.0.0.1, lists its items 10 at a time with `PaginatedDataSource` + `HTTPPageFetcher`,
// and prints the paging state after each step. Nothing printed depends on the port or on
// timing: the script waits for each step to finish before printing.
//
// Run: Playground-scripts/run.sh 04-paginated-http
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking   // URLRequest and URLSession live here on Linux
#endif
import ReactiveSources
import Signals

// MARK: - The fixture server

/// The test fixture server, started as a child process. It prints "PORT n" and serves until
/// its standard input closes.
@MainActor
final class FixtureServer {
    private let process = Process()
    private let input = Pipe()
    let baseURL: URL

    init() throws {
        let script = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Tests/ReactiveSourcesTests/Support/fixture_server.py")
        let output = Pipe()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script.path]
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            line.append(chunk)
        }
        let text = String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard text.hasPrefix("PORT "), let port = Int(text.dropFirst(5)) else {
            throw CocoaError(.fileReadCorruptFile, userInfo: [NSLocalizedDescriptionKey: "fixture server said \(text)"])
        }
        baseURL = URL(string: "http://127.0.0.1:\(port)")!
    }

    /// Queues canned answers for the next requests tagged `tag` (see fixture_server.py).
    func script(tag: String, _ actionsJSON: String) async throws {
        var request = URLRequest(url: URL(string: "\(baseURL.absoluteString)/_script?tag=\(tag)")!)
        request.httpMethod = "POST"
        request.httpBody = Data(actionsJSON.utf8)
        _ = try await URLSessionTransport().send(request)
    }

    /// The requests the server has seen, as "path?query" strings.
    func requests() async throws -> [String] {
        let response = try await URLSessionTransport().send(URLRequest(url: baseURL.appendingPathComponent("_requests")))
        struct Seen: Decodable { let path: String; let query: [String: String] }
        return try JSONDecoder().decode([Seen].self, from: response.body).map { seen in
            let query = seen.query.filter { $0.key != "tag" }.sorted { $0.key < $1.key }
            return seen.path + "?" + query.map { "\($0.key)=\($0.value)" }.joined(separator: "&")
        }
    }

    func stop() {
        try? input.fileHandleForWriting.close()   // the server exits when stdin closes
        process.waitUntilExit()
    }
}

// MARK: - Waiting and printing

/// Waits until no next page is loading.
func pageSettled(_ source: PaginatedDataSource<Item>) async {
    for await state in source.pagination.values where !state.isLoadingNextPage { return }
}

func report(_ source: PaginatedDataSource<Item>) {
    let state = source.pagination.value
    let info = state.info
    let section = source.snapshot.sections[0]
    let ids = section.objects.map(\.id)
    let range = ids.isEmpty ? "none" : "\(ids.first!)...\(ids.last!)"
    let trailing: String
    switch section.placeholder {
    case nil: trailing = "no placeholder row"
    case .loading?: trailing = "a loading row"
    case .loadingMore?: trailing = "a loading-more row"
    case .noResults?: trailing = "a no-results row"
    case .error?: trailing = "an error row"
    }
    var nextPage = "idle"
    if state.isLoadingNextPage { nextPage = "loading" }
    if let error = state.nextPageError {
        // HTTP errors are typed: read the status code rather than the message (which
        // names the URL, and so the server's random port).
        if case .httpStatus(let code, _, _, _) = error {
            nextPage = "failed with HTTP \(code)"
        } else {
            nextPage = "failed"
        }
    }
    print("""
          items \(range) (\(ids.count) objects, then \(trailing))
          pages loaded: \(state.loadedPages), server says page \(info.page.map(String.init) ?? "?") of \
        \(info.numberOfPages.map(String.init) ?? "?"), \(info.totalCount.map(String.init) ?? "?") items in all
          has more pages: \(state.hasMorePages), next page: \(nextPage), content: \(source.contentState.value)
        """)
}

// MARK: - The source

struct Item: Decodable, Hashable, Sendable {
    let id: Int
    let title: String
}

let server = try FixtureServer()

// README: paginated-http
// Where the API lives; the transport defaults to URLSession.
let api = RemoteConfiguration(baseURL: server.baseURL, timeout: 10)

// GET /items?page=N&page_size=10 returns {"page", "number_of_pages", "total_count",
// "items": [...]}: Instant Cocoa's paginator keys, the default page-number strategy.
let fetcher = HTTPPageFetcher<Item>(
    configuration: api,
    apiPath: "items",
    queryItems: [URLQueryItem(name: "total", value: "23"), URLQueryItem(name: "tag", value: "tour")],
    keyPath: "items",
    paging: PageNumberPaging(pageSize: 10)
)

// Rows are items (an item already shown is never repeated, by id), then a trailing
// placeholder row: "loading more" while pages remain, an error row if a page failed.
// A next page that fails with a 5xx, a 429 or a transport error is tried once more after
// up to 0.1 s (the default policy tries 4 times, waiting up to 0.5 s, 1 s, 2 s).
let items = PaginatedDataSource(
    name: "Items", fetcher: fetcher, placeholders: .all, identity: { $0.id },
    nextPageRetry: RetryPolicy(maxAttempts: 2, initialDelay: .milliseconds(100))
)
items.fetchData()                    // a refresh: loads page 1
// END README

print("== fetchData(): the first page")
await items.settled()
report(items)

print("== the view displays the last item: willDisplayRow loads the next page")
items.willDisplayRow(at: RowPath(row: 9, section: 0))
await pageSettled(items)
report(items)

print("== the server fails the next two requests with 503: one retry, then the page fails")
try await server.script(tag: "tour", #"[{"status": 503, "body": "maintenance"}, {"status": 503, "body": "maintenance"}]"#)
items.fetchNextPage()
await pageSettled(items)
report(items)

print("== willDisplayRow does not retry a failed page; fetchNextPage() does")
items.willDisplayRow(at: RowPath(row: 20, section: 0))
print("  after willDisplayRow: next page failed still? \(items.pagination.value.nextPageError != nil)")
items.fetchNextPage()
await pageSettled(items)
report(items)

print("== no more pages: fetchNextPage() does nothing")
items.fetchNextPage()
print("  loading? \(items.pagination.value.isLoadingNextPage)")

print("== fetchData() again: a refresh starts over from page 1, replacing the content at once")
items.fetchData()
await items.settled()
report(items)

print("== what the server saw")
for request in try await server.requests() {
    print("  GET \(request)")
}
server.stop()
