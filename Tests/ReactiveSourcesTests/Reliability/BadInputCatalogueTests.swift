import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Signals
import Testing
@testable import ReactiveSources

/// A catalogue of bad inputs. Each case loads good content first, then feeds one bad input
/// (as a refresh, a next page, a second fetch or an API call) and checks that it yields its
/// typed error with a useful message, keeps the prior content, crashes nothing and leaks
/// nothing. Inputs the library documents as tolerated (odd paginator values, duplicates,
/// empty pages, invalid display paths) are checked for their documented outcome instead.
///
/// HTTP cases use the real fixture server (scripted statuses, raw bodies, delays, dropped
/// connections) and a closed local port; file cases read real files in a temporary folder.
@Suite("Reliability: bad-input catalogue")
struct BadInputCatalogueTests {
    @Test(arguments: BadInputCase.all)
    func badInput(_ entry: BadInputCase) async throws {
        var observed = try await entry.run()
        switch entry.expected {
        case .error(let caseNames, let fragments):
            guard let error = observed.error else {
                Issue.record("\(entry.name): expected one of \(caseNames), got no error")
                return
            }
            #expect(caseNames.contains(caseName(of: error)), "\(entry.name): expected \(caseNames), got \(caseName(of: error)): \(error)")
            let message = (error as? DataSourceError)?.message ?? String(describing: error)
            #expect(!message.isEmpty && !message.contains("Error Domain") && !message.contains("(null)"), "\(entry.name): message \(message)")
            for fragment in fragments {
                #expect(message.contains(fragment), "\(entry.name): the message \"\(message)\" should mention \"\(fragment)\"")
            }
            #expect(observed.after == observed.before, "\(entry.name): prior content kept (\(observed.before) -> \(observed.after))")
        case .tolerated:
            #expect(observed.error == nil, "\(entry.name): tolerated input gave \(String(describing: observed.error))")
        }
        #expect(observed.problems.isEmpty, "\(entry.name): \(observed.problems)")
        #expect(!observed.before.isEmpty || entry.allowsEmptyPriorContent, "\(entry.name): the case must load content first")

        // Nothing may outlive the case once it is dropped (fetch tasks end first: the release
        // of the tokens its sources hold says when to look).
        let (weakRefs, releases) = (observed.weakRefs, observed.releases)
        observed = Observed()
        #expect(await stillAlive(weakRefs, after: releases) == [], "\(entry.name): leaked")
    }

    @Test func theCatalogueHasAtLeastThirtyDistinctCases() {
        let names = BadInputCase.all.map(\.name)
        #expect(names.count >= 30)
        #expect(Set(names).count == names.count, "names are distinct")
        #expect(BadInputCase.all.filter(\.isError).count >= 30, "at least 30 cases end in a typed error")
    }
}

/// The case of a `DataSourceError` (and of its nested failure), found by switching over it
/// as a user would: `transport.timeout`, `httpStatus`, `decoding.notJSON`, `file.notFound`...
/// Other errors are named `Type.case` (the enum case label for errors with payloads).
func caseName(of error: any Error) -> String {
    guard let error = error as? DataSourceError else {
        let type = String(describing: Swift.type(of: error))
        if let label = Mirror(reflecting: error).children.first?.label { return "\(type).\(label)" }
        return "\(type).\(error)"
    }
    switch error {
    case .cancelled: return "cancelled"
    case .transport(let failure, _):
        switch failure {
        case .offline: return "transport.offline"
        case .timeout: return "transport.timeout"
        case .refused: return "transport.refused"
        case .unknownHost: return "transport.unknownHost"
        case .connectionLost: return "transport.connectionLost"
        case .other: return "transport.other"
        }
    case .httpStatus: return "httpStatus"
    case .decoding(let failure):
        switch failure.problem {
        case .notJSON: return "decoding.notJSON"
        case .keyPathNotFound: return "decoding.keyPathNotFound"
        case .invalidElement: return "decoding.invalidElement"
        }
    case .invalidRequest: return "invalidRequest"
    case .file(let failure):
        switch failure {
        case .notFound: return "file.notFound"
        case .unreadable: return "file.unreadable"
        case .invalidUTF8: return "file.invalidUTF8"
        }
    case .other: return "other"
    }
}

/// What a case saw.
struct Observed: @unchecked Sendable {
    var error: (any Error)?
    var before: [String] = []
    var after: [String] = []
    var problems: [String] = []
    var weakRefs: [WeakBox] = []
    /// Tokens held by the sources in `weakRefs` (see ``Releases``): none for sources no
    /// task holds.
    var releases = Releases()
}

/// One bad input: how to feed it and what must come out.
struct BadInputCase: Sendable, CustomTestStringConvertible {
    enum Expected: Sendable {
        /// A typed error, one of the `Type.case` names, whose message contains every fragment.
        case error([String], contains: [String])
        /// A documented tolerated input; the case checks the documented outcome itself.
        case tolerated
    }

    let name: String
    let expected: Expected
    var allowsEmptyPriorContent = false
    let run: @Sendable () async throws -> Observed

    var testDescription: String { name }
    var isError: Bool { if case .error = expected { true } else { false } }
}

// MARK: - The catalogue

extension BadInputCase {
    static let all: [BadInputCase] = refreshes + nextPages + tolerated + collections + files + apiMisuse

    /// A refresh of a paginated source (page 1 loaded) gets a bad response.
    static let refreshes: [BadInputCase] = [
        .refresh("malformed JSON body", ["body": "<html>this is not json</html>"],
                 expect: "decoding.notJSON", ["not valid JSON", "/items", "<html>"]),
        .refresh("truncated JSON body", ["body": "{\"items\": [{\"id\": 1, \"title\": \"cut"],
                 expect: "decoding.notJSON", ["not valid JSON", "cut"]),
        .refresh("empty body", ["body": ""], expect: "decoding.notJSON", ["not valid JSON"]),
        .refresh("HTTP 204 with no body", ["status": 204, "body": ""], expect: "decoding.notJSON", ["not valid JSON"]),
        .refresh("wrong key path", ["body": "{\"data\": [{\"id\": 1, \"title\": \"a\"}]}"],
                 expect: "decoding.keyPathNotFound", ["'items'", "not found"]),
        .refresh("null at the key path", ["body": "{\"items\": null}"],
                 expect: "decoding.keyPathNotFound", ["'items'"]),
        .refresh("a root array where an object is expected", ["body": "[{\"id\": 1, \"title\": \"a\"}]"],
                 expect: "decoding.keyPathNotFound", ["'items'"]),
        .refresh("a string where the array is expected", ["body": "{\"items\": \"nope\"}"],
                 expect: "decoding.invalidElement", ["Element 0", "does not decode"]),
        .refresh("an id that is a string", ["body": "{\"items\": [{\"id\": 1, \"title\": \"a\"}, {\"id\": \"two\", \"title\": \"b\"}]}"],
                 expect: "decoding.invalidElement", ["Element 1", "expected Int at 'items.1.id'"]),
        .refresh("a missing required key", ["body": "{\"items\": [{\"id\": 1}]}"],
                 expect: "decoding.invalidElement", ["Element 0", "missing key 'title'"]),
        .refresh("a null element", ["body": "{\"items\": [{\"id\": 1, \"title\": \"a\"}, null]}"],
                 expect: "decoding.invalidElement", ["Element 1"]),
        .refresh("a fractional id", ["body": "{\"items\": [{\"id\": 1.5, \"title\": \"a\"}]}"],
                 expect: "decoding.invalidElement", ["Element 0", "1.5"]),
        .refresh("HTTP 401", ["status": 401, "body": "token expired"], expect: "httpStatus", ["HTTP 401", "token expired"]),
        .refresh("HTTP 404", ["status": 404, "body": "no such feed"], expect: "httpStatus", ["HTTP 404", "/items"]),
        .refresh("HTTP 500", ["status": 500, "body": "database on fire"], expect: "httpStatus", ["HTTP 500", "database on fire"]),
        .refresh("HTTP 503 with an empty body", ["status": 503, "body": ""], expect: "httpStatus", ["HTTP 503"]),
        .refresh("a dropped connection", [["drop": true], ["drop": true]],
                 expect: ["transport.connectionLost", "transport.other"], ["/items"]),
        .refresh("a timeout", [["delay_ms": 3_000]], timeout: 0.4, expect: ["transport.timeout"], ["No response", "0.40 s"]),
    ]

    /// The next page of a paginated source (page 1 loaded) gets a bad response; the failure
    /// is a next-page failure (not a first-load error) and a retry recovers.
    static let nextPages: [BadInputCase] = [
        .nextPage("next page: malformed JSON", ["body": "not json at all"], expect: "decoding.notJSON", ["not valid JSON"]),
        .nextPage("next page: HTTP 500", ["status": 500, "body": "shard down"], expect: "httpStatus", ["HTTP 500", "shard down"]),
        .nextPage("next page: wrong element types", ["body": "{\"items\": [{\"id\": \"eleven\", \"title\": \"x\"}]}"],
                  expect: "decoding.invalidElement", ["Element 0", "items.0.id"]),
        .nextPage("next page: a dropped connection", [["drop": true], ["drop": true]],
                  expect: ["transport.connectionLost", "transport.other"], ["page=2"]),
    ]

    /// Odd paginator values the library documents as tolerated: unknown values stay unknown,
    /// duplicates are dropped, an empty page ends the stream.
    static let tolerated: [BadInputCase] = [
        .oddPage("negative page number", page: "-2", check: { feed in
            feed.pagination.value.info.page == nil ? nil : "a negative page should be unknown: \(feed.pagination.value.info)"
        }),
        .oddPage("page number as a string", page: "\"two\"", check: { feed in
            feed.pagination.value.info.page == nil ? nil : "a string page should be unknown: \(feed.pagination.value.info)"
        }),
        .oddPage("negative number of pages", pages: "-1", check: { feed in
            let paging = feed.pagination.value
            return paging.info.numberOfPages == nil && paging.hasMorePages ? nil : "negative page count should be unknown: \(paging)"
        }),
        .oddPage("fractional page size", pageSize: "2.5", check: { feed in
            feed.pagination.value.info.pageSize == nil ? nil : "a fractional page size should be unknown: \(feed.pagination.value.info)"
        }),
        .oddPage("total_count smaller than the objects seen", total: "3", check: { feed in
            let paging = feed.pagination.value
            return paging.info.totalCount == 3 && feed.allObjects.count == 20 ? nil : "objects are kept as served: \(paging.info), \(feed.allObjects.count)"
        }),
        .oddPage("total_count as a string", total: "\"35\"", check: { feed in
            feed.pagination.value.info.totalCount == nil ? nil : "a string total should be unknown: \(feed.pagination.value.info)"
        }),
        .oddPage("an empty page mid-stream", items: "[]", appended: [], check: { feed in
            let paging = feed.pagination.value
            let placeholder = feed.snapshot.sections[0].placeholder
            return !paging.hasMorePages && placeholder == nil ? nil : "an empty page ends the stream: \(paging), placeholder \(String(describing: placeholder))"
        }),
        .oddPage("duplicate objects across pages", items: itemsJSON(6...15), appended: Array(11...15), check: { feed in
            let ids = feed.allObjects.map(\.id)
            return Set(ids).count == ids.count ? nil : "duplicates shown: \(ids)"
        }),
        BadInputCase(name: "invalid index paths given to willDisplayRow", expected: .tolerated) {
            let releases = Releases()
            let (feed, tag, before) = try await loadedFeed(holding: releases.token("the feed's identity"))
            for path in [RowPath(item: -1, section: 0), RowPath(item: 0, section: 7),
                         RowPath(item: Int.max, section: 0), RowPath(item: 0, section: -1), RowPath(item: Int.min, section: Int.min)] {
                feed.willDisplayRow(at: path)
            }
            for path in [IndexPath(), IndexPath(indexes: [0]), IndexPath(indexes: [0, 9, 1])] {
                feed.willDisplayRow(at: path)
            }
            var problems: [String] = []
            if feed.pagination.value.isLoadingNextPage { problems.append("an invalid path started a page load") }
            let pages = try await FixtureServer.shared.requests(tagged: tag).map { $0.query["page"] ?? "?" }
            if pages != ["1"] { problems.append("requests \(pages)") }
            for path in [RowPath(item: -1, section: 0), RowPath(item: 99, section: 0), RowPath(item: 0, section: 3)] where feed.object(at: path) != nil || feed.row(at: path) != nil {
                problems.append("\(path) resolved to a row")
            }
            return Observed(before: before, after: ids(feed), problems: problems, weakRefs: [WeakBox("PaginatedDataSource", feed)], releases: releases)
        },
    ]

    /// A remote source over HTTP: a good first fetch, then a bad one.
    static let collections: [BadInputCase] = [
        .collection("collection: body is not JSON", path: "malformed", expect: "decoding.notJSON", ["/malformed", "not valid JSON"]),
        .collection("collection: truncated body", path: "truncated", expect: "decoding.notJSON", ["/truncated"]),
        .collection("collection: wrong element types", path: "wrong-types", expect: "decoding.invalidElement", ["Element 1", "/wrong-types"]),
        .collection("collection: HTTP 404 route", path: "status/404", expect: "httpStatus", ["HTTP 404", "/status/404"]),
        .collection("collection: wrong nested key path", path: "nested", keyPath: "data.nope",
                    expect: "decoding.keyPathNotFound", ["data.nope", "'nope'"]),
        .collection("collection: connection refused", port: .closed, expect: "transport.refused", ["Cannot connect", "127.0.0.1"]),
        .collection("collection: a base URL without a host", port: .fileURL, expect: "invalidRequest", ["Cannot build the request"]),
        BadInputCase(name: "page fetcher: a cursor given to page-number paging", expected: .error(["invalidRequest"], contains: ["page-number paging", "cursor"])) {
            let fetcher = HTTPPageFetcher<FixtureItem>(configuration: FixtureServer.shared.configuration(), apiPath: "items", keyPath: "items")
            return await pageFetcherError(fetcher, .cursor("abc"))
        },
        BadInputCase(name: "page fetcher: a page number given to cursor paging", expected: .error(["invalidRequest"], contains: ["cursor paging"])) {
            let fetcher = HTTPPageFetcher<FixtureItem>(
                configuration: FixtureServer.shared.configuration(), apiPath: "cursor", keyPath: "data.items", paging: CursorPaging()
            )
            return await pageFetcherError(fetcher, .number(3))
        },
    ]

    /// A remote source over a file: a good file first, then a bad one.
    static let files: [BadInputCase] = [
        .file("file: missing", expect: "file.notFound", ["No file at", "missing.txt"]) { folder in
            folder.appendingPathComponent("missing.txt")
        },
        .file("file: a directory", expect: "file.unreadable", ["it is a directory"]) { folder in
            let directory = folder.appendingPathComponent("a-directory")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            return directory
        },
        .file("file: invalid UTF-8", expect: "file.invalidUTF8", ["not valid UTF-8", "offset 4", "latin1.txt"]) { folder in
            let file = folder.appendingPathComponent("latin1.txt")
            try Data([0x63, 0x61, 0x66, 0x65, 0xE9, 0x0A, 0x6F, 0x6B, 0x0A]).write(to: file) // "cafe\u{E9}" in Latin-1
            return file
        },
        .file("file: UTF-8 cut in the middle of a character", expect: "file.invalidUTF8", ["offset 2"]) { folder in
            let file = folder.appendingPathComponent("cut.txt")
            try Data([0x6F, 0x6B, 0xE2, 0x82]).write(to: file) // "ok" then the first two bytes of "€"
            return file
        },
        .file("file: a lone continuation byte", expect: "file.invalidUTF8", ["offset 0"]) { folder in
            let file = folder.appendingPathComponent("lone.txt")
            try Data([0x80, 0x0A]).write(to: file)
            return file
        },
    ]

    /// Calls with bad arguments: thrown typed errors that change nothing.
    static let apiMisuse: [BadInputCase] = [
        .selection("select: a section that does not exist", RowPath(item: 0, section: 5), expect: "SelectionError.invalidPath", ["No row", "section 5, item 0"]),
        .selection("select: an item past the end", RowPath(item: 99, section: 0), expect: "SelectionError.invalidPath", ["section 0, item 99"]),
        .selection("select: a negative item", RowPath(item: -1, section: 0), expect: "SelectionError.invalidPath", ["section 0, item -1"]),
        .selection("select: the placeholder row", RowPath(item: 3, section: 0), withPlaceholder: true,
                   expect: "SelectionError.placeholderRow", ["placeholder", "section 0, item 3"]),
        .selection("select: in an unselectable section", RowPath(item: 0, section: 0), policy: .none,
                   expect: "SelectionError.notSelectable", ["Section 0", "does not allow"]),
        .selection("deselect: below the minimum", RowPath(item: 0, section: 0), policy: SelectionPolicy(minimum: 1, maximum: 1),
                   deselect: true, expect: "SelectionError.belowMinimum", ["at least 1"]),
        .mutation("insert at a negative index", expect: ["Index -1", "0...3"]) { try $0.insert(["x"], at: -1) },
        .mutation("insert past the end", expect: ["Index 5", "0...3"]) { try $0.insert(["x"], at: 5) },
        .mutation("remove past the end", expect: ["Index 3", "0...2"]) { try $0.remove(at: 3) },
        .mutation("move to an invalid index", expect: ["Index 99"]) { try $0.move(from: 0, to: 99) },
        .mutation("move from a negative index", expect: ["Index -4"]) { try $0.move(from: -4, to: 1) },
        BadInputCase(name: "remove from an empty source", expected: .error(["MutationError.indexOutOfRange"], contains: ["the source is empty"]),
                     allowsEmptyPriorContent: true) {
            let source = SimpleDataSource<String>(name: "empty")
            var observed = Observed(before: source.allObjects, weakRefs: [WeakBox("SimpleDataSource", source)])
            do { try source.remove(at: 0) } catch { observed.error = error }
            observed.after = source.allObjects
            return observed
        },
    ]
}

// MARK: - Builders

extension BadInputCase {
    static let pageSize = 10

    /// A paginated source over `/items` of the fixture server, tagged for scripting.
    /// With `laterTimeout`, every request after the first has that timeout. Its `identity`
    /// closure holds `token` for the source's whole life.
    static func feed(tag: String, laterTimeout: TimeInterval? = nil, holding token: ReleaseToken) -> PaginatedDataSource<FixtureItem> {
        let query = [URLQueryItem(name: "tag", value: tag), URLQueryItem(name: "total", value: "35")]
        var configuration = FixtureServer.shared.configuration(timeout: 30)
        if let laterTimeout { configuration.transport = LaterTimeoutTransport(timeout: laterTimeout) }
        let fetcher = HTTPPageFetcher<FixtureItem>(
            configuration: configuration, apiPath: "items", queryItems: query,
            keyPath: "items", paging: PageNumberPaging(pageSize: pageSize)
        )
        return PaginatedDataSource(
            name: "Feed", fetcher: fetcher, placeholders: .all, identity: { item in withExtendedLifetime(token) { AnyHashable(item.id) } },
            retry: .none, nextPageRetry: .none
        )
    }

    static func ids<Source: DataSource>(_ source: Source) -> [String] {
        source.allObjects.map { "\($0)" }
    }

    static func ids(_ feed: PaginatedDataSource<FixtureItem>) -> [String] {
        feed.allObjects.map { "\($0.id)" }
    }

    static func idle(_ feed: PaginatedDataSource<FixtureItem>) async {
        await eventually("idle", until: feed) { !feed.loadState.value.isFetching && !feed.pagination.value.isLoadingNextPage }
    }

    /// A feed showing page 1 (ids 1...10), holding `token` (see ``feed(tag:laterTimeout:holding:)``).
    static func loadedFeed(timeout: TimeInterval? = nil, holding token: ReleaseToken) async throws -> (PaginatedDataSource<FixtureItem>, String, [String]) {
        let tag = uniqueTag("catalogue")
        let feed = feed(tag: tag, laterTimeout: timeout, holding: token)
        feed.fetchData()
        await idle(feed)
        let before = ids(feed)
        if before != (1...10).map(String.init) { Issue.record("page 1 did not load: \(before), \(feed.loadState.value)") }
        return (feed, tag, before)
    }

    static func itemsJSON(_ ids: ClosedRange<Int>) -> String {
        "[" + ids.map { "{\"id\": \($0), \"title\": \"Item \($0)\"}" }.joined(separator: ", ") + "]"
    }

    static func refresh(
        _ name: String, _ action: [String: any Sendable], timeout: TimeInterval = 10, expect caseName: String, _ fragments: [String]
    ) -> BadInputCase {
        refresh(name, [action], timeout: timeout, expect: [caseName], fragments)
    }

    /// `actions` script the server's answers to the refresh (more than one when the HTTP
    /// client itself retries, as URLSession does once for a connection dropped before any
    /// reply). With a `timeout`, only the refresh has it (page 1 gets 30 s to load).
    static func refresh(
        _ name: String, _ actions: [[String: any Sendable]], timeout: TimeInterval? = nil, expect caseNames: [String], _ fragments: [String]
    ) -> BadInputCase {
        BadInputCase(name: name, expected: .error(caseNames, contains: fragments)) {
            let releases = Releases()
            let (feed, tag, before) = try await loadedFeed(timeout: timeout, holding: releases.token("the feed's identity"))
            let log = EventLog(feed)
            try await FixtureServer.shared.script(tag: tag, actions)
            feed.fetchData()
            await log.waitForFinishers(1)
            var problems: [String] = []
            let state = feed.loadState.value
            if case .error = state.content.phase {} else { problems.append("content state \(state.content), expected error") }
            if log.values.map(EventKind.init) != [.willLoad, .failed] { problems.append("events \(log.values)") }
            if feed.snapshot.sections[0].placeholder != .error(message: state.error?.message ?? "") {
                problems.append("the error row should show the message: \(String(describing: feed.snapshot.sections[0].placeholder))")
            }
            if !feed.hasMorePages { problems.append("a failed refresh should keep the paging of the content shown") }
            return Observed(
                error: state.error, before: before, after: ids(feed), problems: problems, weakRefs: [WeakBox("PaginatedDataSource", feed)],
                releases: releases
            )
        }
    }

    static func nextPage(_ name: String, _ action: [String: any Sendable], expect caseName: String, _ fragments: [String]) -> BadInputCase {
        nextPage(name, [action], expect: [caseName], fragments)
    }

    static func nextPage(_ name: String, _ actions: [[String: any Sendable]], expect caseNames: [String], _ fragments: [String]) -> BadInputCase {
        BadInputCase(name: name, expected: .error(caseNames, contains: fragments)) {
            let releases = Releases()
            let (feed, tag, before) = try await loadedFeed(holding: releases.token("the feed's identity"))
            try await FixtureServer.shared.script(tag: tag, actions)
            feed.fetchNextPage()
            await idle(feed)
            var observed = Observed(error: feed.pagination.value.nextPageError, before: before, after: ids(feed))
            if feed.loadState.value.error != nil { observed.problems.append("a next-page failure is not a first-load error: \(feed.loadState.value)") }
            if feed.contentState.value.phase != .loaded { observed.problems.append("content state \(feed.contentState.value)") }
            // A retry of the same page recovers.
            feed.fetchNextPage()
            await idle(feed)
            if ids(feed) != (1...20).map(String.init) { observed.problems.append("the retry should load page 2: \(ids(feed))") }
            let pages = try await FixtureServer.shared.requests(tagged: tag).map { $0.query["page"] ?? "?" }
            // Page 2 once for the failure (plus the HTTP client's own retries, one per extra
            // scripted action), once for the retry; page 1 never again.
            if pages != ["1"] + Array(repeating: "2", count: actions.count + 1) {
                observed.problems.append("requests \(pages), expected page 2 retried once")
            }
            observed.weakRefs = [WeakBox("PaginatedDataSource", feed)]
            observed.releases = releases
            return observed
        }
    }

    /// Page 2 comes back with odd paginator values or objects; `appended` are the ids it
    /// should add (page 2's 11...20 by default).
    static func oddPage(
        _ name: String, page: String = "2", pageSize: String = "10", pages: String = "4", total: String = "35",
        items: String = itemsJSON(11...20), appended: [Int] = Array(11...20),
        check: @escaping @Sendable (PaginatedDataSource<FixtureItem>) -> String?
    ) -> BadInputCase {
        BadInputCase(name: name, expected: .tolerated) {
            let releases = Releases()
            let (feed, tag, before) = try await loadedFeed(holding: releases.token("the feed's identity"))
            let body = "{\"page\": \(page), \"page_size\": \(pageSize), \"number_of_pages\": \(pages), \"total_count\": \(total), \"items\": \(items)}"
            try await FixtureServer.shared.script(tag: tag, [["body": body]])
            feed.fetchNextPage()
            await idle(feed)
            var observed = Observed(error: feed.pagination.value.nextPageError ?? feed.loadState.value.error, before: before, after: ids(feed))
            let expected = before + appended.map(String.init)
            if observed.after != expected { observed.problems.append("content \(observed.after), expected \(expected)") }
            if let problem = check(feed) { observed.problems.append(problem) }
            observed.weakRefs = [WeakBox("PaginatedDataSource", feed)]
            observed.releases = releases
            return observed
        }
    }

    enum Endpoint { case fixture, closed, fileURL }

    /// A remote source whose first fetch reads `/items` and whose second reads the bad input.
    static func collection(
        _ name: String, path: String = "items", keyPath: String = "items", port: Endpoint = .fixture,
        expect caseName: String, _ fragments: [String]
    ) -> BadInputCase {
        BadInputCase(name: name, expected: .error([caseName], contains: fragments)) {
            let server = FixtureServer.shared
            let good = HTTPCollectionFetcher<FixtureItem>(
                configuration: server.configuration(), apiPath: "items",
                queryItems: [URLQueryItem(name: "page_size", value: "4")], keyPath: "items"
            )
            let base: URL
            switch port {
            case .fixture: base = server.baseURL
            case .closed: base = URL(string: "http://127.0.0.1:\(try closedPort())")!
            case .fileURL: base = URL(string: "file:///tmp")!
            }
            let bad = HTTPCollectionFetcher<FixtureItem>(configuration: RemoteConfiguration(baseURL: base, timeout: 10), apiPath: path, keyPath: keyPath)
            return await secondFetchFails(good: good, bad: bad)
        }
    }

    /// A remote source reading a good file first, then the file `makeBad` returns.
    static func file(
        _ name: String, expect caseName: String, _ fragments: [String], makeBad: @escaping @Sendable (URL) throws -> URL
    ) -> BadInputCase {
        BadInputCase(name: name, expected: .error([caseName], contains: fragments)) {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("catalogue-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            let goodFile = folder.appendingPathComponent("good.txt")
            try Data("alpha\nbeta\ngamma\n".utf8).write(to: goodFile)
            let bad = try makeBad(folder)
            return await secondFetchFails(good: FileLinesFetcher(url: goodFile), bad: FileLinesFetcher(url: bad))
        }
    }

    /// Runs a remote source over `good` then `bad`; checks the failed fetch's bookkeeping.
    static func secondFetchFails<Object: Hashable & Sendable>(good: some Fetcher<Object>, bad: some Fetcher<Object>) async -> Observed {
        let releases = Releases()
        let fetcher = SwitchingFetcher(first: good, then: bad, holding: releases.token("the fetcher"))
        let source = RemoteDataSource(name: "remote", fetcher: fetcher, placeholders: .all, retry: .none)
        let log = EventLog(source)
        source.fetchData()
        await log.waitForFinishers(1)
        let before = ids(source)
        source.fetchData()
        await log.waitForFinishers(2)
        var observed = Observed(error: source.loadState.value.error, before: before, after: ids(source))
        if log.values.map(EventKind.init) != [.willLoad, .partial, .finished, .willLoad, .failed] {
            observed.problems.append("events \(log.values)")
        }
        if source.loadState.value.isFetching { observed.problems.append("still fetching") }
        observed.weakRefs = [WeakBox("RemoteDataSource", source)]
        observed.releases = releases
        return observed
    }

    static func pageFetcherError(_ fetcher: HTTPPageFetcher<FixtureItem>, _ token: PageToken) async -> Observed {
        // No source involved: the "content" is the page the same fetcher loads fine.
        var observed = Observed()
        do {
            observed.before = try await fetcher.fetchPage(.first).objects.map { "\($0.id)" }
            observed.after = observed.before
        } catch {
            observed.problems.append("the first page should load: \(error)")
        }
        do {
            let page = try await fetcher.fetchPage(token)
            observed.problems.append("got \(page.objects.count) objects")
        } catch {
            observed.error = error
        }
        return observed
    }

    static func selection(
        _ name: String, _ path: RowPath, withPlaceholder: Bool = false, policy: SelectionPolicy = .multiple, deselect: Bool = false,
        expect caseName: String, _ fragments: [String]
    ) -> BadInputCase {
        BadInputCase(name: name, expected: .error([caseName], contains: fragments)) {
            let source: any DataSource<String>
            let releases = Releases()
            if withPlaceholder {
                let token = releases.token("the page fetcher's closure")
                let fetcher = ClosurePageFetcher<String> { _ in
                    withExtendedLifetime(token) { Page(objects: ["a", "b", "c"], next: .number(2)) }
                }
                let paginated = PaginatedDataSource(name: "feed", fetcher: fetcher)
                paginated.fetchData()
                await eventually("loaded", until: paginated) { paginated.allObjects.count == 3 }
                source = paginated
            } else {
                source = SimpleDataSource(name: "letters", objects: ["a", "b", "c"])
            }
            let selection = Selection(source: source, policy: policy)
            if deselect { try selection.select(at: path) }
            let selectedBefore = selection.selectedObjects
            var observed = Observed(
                before: source.allObjects, weakRefs: [WeakBox("source", source), WeakBox("Selection", selection)], releases: releases
            )
            do {
                if deselect { try selection.deselect(at: path) } else { try selection.select(at: path) }
            } catch {
                observed.error = error
            }
            observed.after = source.allObjects
            if selection.selectedObjects != selectedBefore { observed.problems.append("the selection changed: \(selection.selectedObjects)") }
            return observed
        }
    }

    static func mutation(_ name: String, expect fragments: [String], _ body: @escaping @Sendable (SimpleDataSource<String>) throws -> Void) -> BadInputCase {
        BadInputCase(name: name, expected: .error(["MutationError.indexOutOfRange"], contains: fragments)) {
            let source = SimpleDataSource(name: "letters", objects: ["a", "b", "c"])
            let versions = Recorder<UInt64>()
            let subscription = source.updates.observe(emitsCurrentValue: false) { versions.append($0.version) }
            var observed = Observed(before: source.allObjects, weakRefs: [WeakBox("SimpleDataSource", source), WeakBox("SignalSubscription", subscription)])
            do { try body(source) } catch { observed.error = error }
            observed.after = source.allObjects
            if versions.count != 0 { observed.problems.append("a refused mutation published \(versions.count) snapshots") }
            subscription.cancel()
            return observed
        }
    }
}

/// A fetcher whose first call uses `first` and every later call `then`.
struct SwitchingFetcher<Object: Sendable, First: Fetcher<Object>, Then: Fetcher<Object>>: Fetcher {
    let first: First
    let then: Then
    private let calls = Recorder<Int>()
    /// Held for the fetcher's whole life (see ``Releases``).
    private let token: ReleaseToken?

    init(first: First, then: Then, holding token: ReleaseToken? = nil) {
        self.first = first
        self.then = then
        self.token = token
    }

    func fetch(into sink: FetchSink<Object>) async throws {
        calls.append(calls.count)
        if calls.count == 1 {
            try await first.fetch(into: sink)
        } else {
            try await then.fetch(into: sink)
        }
    }
}

/// The real URLSession transport, except that every request after the first gets `timeout`
/// (so page 1 loads under any load, and the bad refresh times out quickly).
struct LaterTimeoutTransport: HTTPTransport {
    let timeout: TimeInterval
    private let base = URLSessionTransport()
    private let sent = Recorder<Int>()

    init(timeout: TimeInterval) { self.timeout = timeout }

    func send(_ request: URLRequest) async throws -> HTTPResponse {
        sent.append(sent.count)
        var request = request
        if sent.count > 1 { request.timeoutInterval = timeout }
        return try await base.send(request)
    }
}
