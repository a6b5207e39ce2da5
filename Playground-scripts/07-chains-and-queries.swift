// Chains and queries: a searchable, filtered, sorted, sectioned list over a paginated HTTP
// source, and a segmented source.
//
// `QueryDataSource` makes one paginated source per search text (after a debounce) and
// switches to it; the chain `filter → sorted → sectioned` follows whichever source is
// current, each link updating from its parent's change sets. The fixture server ignores the
// search text, so the factory asks for 4 items per typed character, 2 a page, to tell the
// answers apart.
// Nothing printed depends on the port or on timing: the script waits for each step.
//
// Run: Playground-scripts/run.sh 07-chains-and-queries
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

struct Item: Decodable, Hashable, Sendable {
    let id: Int
    let title: String
    let group: String
}

/// Waits until the results are those of `query`, with no fetch in flight.
func settled(_ results: QueryDataSource<String, Item>, query: String) async {
    for await (state, current) in combineLatest(results.loadState, results.query).values
    where current == query && !state.isFetching {
        return
    }
}

func show<Source: DataSource>(_ source: Source) where Source.Object == Item {
    let sections = source.snapshot.sections
    if sections.allSatisfy({ $0.objects.isEmpty }) { print("  (no rows)") }
    for section in sections where !section.objects.isEmpty {
        print("  \(section.title ?? "-"): \(section.objects.map(\.id).map(String.init).joined(separator: " "))")
    }
}

let server = try FixtureServer()
let api = RemoteConfiguration(baseURL: server.baseURL, timeout: 10)

// README: chains-and-queries
let search = MutableProperty("")
let evenOnly = MutableProperty(false)
// One paginated source per search text, 300 ms after the last keystroke; an empty text
// shows nothing and sends nothing.
let results = QueryDataSource(query: search.readOnly, debounce: .milliseconds(300), isEmpty: \.isEmpty) { text in
    PaginatedDataSource(name: "Results", fetcher: HTTPPageFetcher<Item>(
        configuration: api, apiPath: "items",
        queryItems: [URLQueryItem(name: "q", value: text), URLQueryItem(name: "total", value: "\(4 * text.count)")],
        keyPath: "items", paging: PageNumberPaging(pageSize: 2 * text.count)))
}
// Filtered by a switch (read in the predicate: filtered again when it changes), newest
// first, in sections by group: each link O(change).
let screen = results
    .filter { item in !evenOnly.value || item.id.isMultiple(of: 2) }
    .sorted(by: { $0.id > $1.id })
    .sectioned(by: \.group, sectionOrder: .ascending)
results.fetchData()
search.value = "s"
search.value = "sw"
search.value = "swi"                 // one request, for "swi"
// END README

print("== typing \"s\", \"sw\", \"swi\" quickly: one request, its first page (6 of 12 items) in sections")
await settled(results, query: "swi")
show(screen)

print("== the even-only switch re-filters the same rows (no request)")
evenOnly.value = true
show(screen)

print("== a new search keeps the old rows until its first page arrives")
search.value = "swift"
print("  right after typing: \(screen.snapshot.allObjects.count) rows still shown")
await settled(results, query: "swift")
print("  after the first page of \"swift\" (10 of 20 items, even only):")
show(screen)

print("== clearing the search: no rows, not fetching")
search.value = ""
await settled(results, query: "")
show(screen)
print("  fetching: \(results.loadState.value.isFetching)")

print("== what the server saw")
for request in try await server.requests() {
    print("  GET \(request)")
}
server.stop()

// MARK: - Segmented

print("== a segmented source: one child shown, switching is one change set")
// README: segmented
let recent = SimpleDataSource(name: "Recent", objects: ["today", "yesterday"])
let starred = SimpleDataSource(name: "Starred", objects: ["launch plan"])
let tabs = SegmentedDataSource(name: "Tabs", children: [recent, starred])
let tabWatch = tabs.observeChanges { snapshot, changes in
    print("  sections out \(changes.deletedSections), in \(changes.insertedSections): \(snapshot.allObjects)")
}
tabs.fetchData()                     // fetches "Recent"; "Starred" when first selected
tabs.selectedIndex.value = 1
// END README
print("  starred fetched on selection: \(starred.loadState.value.status)")
tabWatch.cancel()
