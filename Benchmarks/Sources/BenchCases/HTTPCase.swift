import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import ReactiveSources
import Signals

/// The fixture server of the root package's tests (python3, loopback, every response in
/// one write with TCP_NODELAY), started once; it exits when our stdin pipe closes.
public final class FixtureServer: @unchecked Sendable {
    public let baseURL: URL
    private let process: Process?
    private let stdin: Pipe?

    /// A server started elsewhere (for valgrind, under which this process cannot spawn one):
    /// `python3 fixture_server.py`, then pass the URL built from the port it prints.
    public init(running baseURL: URL) {
        self.baseURL = baseURL
        process = nil
        stdin = nil
    }

    public init(script: URL) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script.path]
        let stdin = Pipe()
        let stdout = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        try process.run()
        self.process = process
        self.stdin = stdin
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
            let chunk = stdout.fileHandleForReading.availableData
            if chunk.isEmpty { throw BenchFailure("fixture server printed no port: \(String(decoding: line, as: UTF8.self))") }
            line.append(chunk)
        }
        let text = String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard text.hasPrefix("PORT "), let port = Int(text.dropFirst(5)) else { throw BenchFailure("bad fixture server line: \(text)") }
        baseURL = URL(string: "http://127.0.0.1:\(port)")!
    }

    /// The server script, found next to this package (`../Tests/...`).
    public static func locateScript() -> URL? {
        var directory = URL(fileURLWithPath: #filePath)
        for _ in 0..<6 {
            directory.deleteLastPathComponent()
            let candidate = directory.appendingPathComponent("Tests/ReactiveSourcesTests/Support/fixture_server.py")
            if FileManager.default.fileExists(atPath: candidate.path) { return candidate }
        }
        return nil
    }

    public func stop() {
        try? stdin?.fileHandleForWriting.close()
        process?.waitUntilExit()
    }
}

/// The fields of the fixture server's objects, for code that makes or reads either type.
protocol FixtureFields: Decodable, Hashable, Sendable {
    var id: Int { get }
    var title: String { get }
    var group: String { get }
    init(id: Int, title: String, group: String)
}

/// The objects the fixture server serves.
struct FixtureItem: FixtureFields {
    var id: Int
    var title: String
    var group: String
}

/// The same objects as an `Identifiable` type: the Paginated source's duplicate rule then
/// hashes each object's `id` instead of the whole object (diagnostic side).
struct IdentifiedFixtureItem: FixtureFields, Identifiable {
    var id: Int
    var title: String
    var group: String
}

/// The envelope of the fixture server's `/items` pages, for the raw baseline.
struct FixturePage: Decodable {
    var page: Int
    var page_size: Int
    var number_of_pages: Int
    var total_count: Int
    var items: [FixtureItem]
}

/// Case 5: `pages` pages of `pageSize` objects over loopback HTTP.
/// - ours: `PaginatedDataSource` + `HTTPPageFetcher` driven as a list drives it: an
///   `updates` observer calls `willDisplayRow(at:)` for the last row each time rows land,
///   which fetches the next page;
/// - raw: `URLSession.data(for:)` + `JSONDecoder` of the whole page, appended to an array, on a
///   session with the same configuration as ours (`URLSessionTransport.defaultConfiguration()`,
///   no `URLCache`), so the ratio is the cost of the source and not of the cache;
/// - the fetcher alone (diagnostic): `HTTPPageFetcher.fetchPage` in a loop, no source;
/// - raw again (A/A control): the raw side measured a second time, to show how far apart
///   identical sides measure in this run;
/// - ours over `Identifiable` objects (diagnostic): the duplicate rule hashes ids.
/// The sides are scheduled by ``measureShuffled(count:iterations:seed:warmup:pause:_:)``: a
/// new random order each iteration (`BENCH_SEED` replays one), each side after an untimed
/// pause, so no side is timed while another one's clean-up runs and drift on the box
/// affects every side alike. (`reactive-profile http ours` also has
/// the source awaited page by page, from a task.)
public enum HTTPCase {
    static let raw = "URLSession + JSONDecoder"
    static let control = "URLSession + JSONDecoder again (A/A control)"

    public static func run(config: BenchConfig, server: FixtureServer) async throws -> CaseResult {
        let pages = config.smoke ? 10 : 100
        let pageSize = 50
        let total = pages * pageSize
        let query = [URLQueryItem(name: "total", value: String(total))]
        let session = URLSession(configuration: URLSessionTransport.defaultConfiguration())
        let configuration = RemoteConfiguration(baseURL: server.baseURL, timeout: 10, transport: URLSessionTransport())
        let sides = Sides(server: server, pages: pages, pageSize: pageSize, configuration: configuration, session: session, query: query)
        let runs: [(side: String, run: () async throws -> Void)] = [
            ("ours", sides.oursList),
            (raw, sides.raw),
            ("HTTPPageFetcher alone (diagnostic)", sides.fetcherOnly),
            (control, sides.raw),
            ("ours, Identifiable objects (diagnostic)", sides.oursListIdentified),
        ]
        let seed = ProcessInfo.processInfo.environment["BENCH_SEED"].flatMap { UInt64($0) } ?? UInt64.random(in: 0...UInt64.max)
        let samples = try await measureShuffled(count: runs.count, iterations: config.iterations(151), seed: seed) { index in
            try await runs[index].run()
        }
        let measurements = zip(runs, samples).map { Measurement(side: $0.side, samples: $1) }
        return CaseResult(
            group: "http", name: "\(pages) pages x \(pageSize) over loopback HTTP",
            measurements: measurements, baseline: raw,
            notes: [pairedNote(measurements) + "; side order seed \(seed) (BENCH_SEED replays it)"]
        )
    }

    /// The paired view of the case: for each side, the median over iterations of that
    /// iteration's side ÷ raw (drift between iterations cancels out), next to the ratio of
    /// medians the table shows. The A/A control's figures show how far apart two identical
    /// sides measure on this machine in this run.
    static func pairedNote(_ measurements: [Measurement]) -> String {
        guard let base = measurements.first(where: { $0.side == raw }) else { return "no raw side" }
        let baseMedian = median(base.samples.map(\.seconds))
        let parts = measurements.filter { $0.side != raw }.map { side in
            let paired = median(zip(side.samples, base.samples).map { $0.seconds / $1.seconds })
            let ofMedians = median(side.samples.map(\.seconds)) / baseMedian
            return "\(side.side) ÷ raw: \(format(ofMedians, 3)) (ratio of medians), \(format(paired, 3)) (median of per-iteration ratios)"
        }
        return parts.joined(separator: "; ") + "; \(base.samples.count) iterations"
    }

    /// Sides of the case (comma-separated: list, list-identified, ours, raw, fetcher,
    /// raw-transport, observe; a `-datafor` suffix swaps in `URLSession.data(for:)` as the
    /// transport, a `-shared` suffix `URLSessionTransport` over the raw side's session),
    /// scheduled as the case's are (``measureShuffled(count:iterations:seed:warmup:pause:_:)``),
    /// for `reactive-profile http <sides>`: prints each side's median and its ratio to the
    /// first side's.
    public static func profile(server: FixtureServer, side sideList: String, iterations: Int) async throws -> String {
        let pages = 100, pageSize = 50
        let query = [URLQueryItem(name: "total", value: String(pages * pageSize))]
        let session = URLSession(configuration: URLSessionTransport.defaultConfiguration())
        let names = sideList.split(separator: ",").map(String.init)
        var runs: [() async throws -> Void] = []
        for name in names {
            let transport: any HTTPTransport = name.hasSuffix("-datafor") ? DataForTransport(session: session)
                : name.hasSuffix("-shared") ? URLSessionTransport(session: session) : URLSessionTransport()
            let configuration = RemoteConfiguration(baseURL: server.baseURL, timeout: 10, transport: transport)
            let sides = Sides(server: server, pages: pages, pageSize: pageSize, configuration: configuration, session: session, query: query)
            switch name.replacingOccurrences(of: "-datafor", with: "").replacingOccurrences(of: "-shared", with: "") {
            case "list": runs.append(sides.oursList)
            case "list-identified": runs.append(sides.oursListIdentified)
            case "ours": runs.append(sides.ours)
            case "raw": runs.append(sides.raw)
            case "fetcher": runs.append(sides.fetcherOnly)
            case "raw-transport": runs.append { try await sides.raw(through: transport) }
            case "observe": runs.append(sides.oursObserving)
            default: throw BenchFailure("unknown side \(name): list, list-identified, ours, raw, fetcher, raw-transport or observe")
            }
        }
        let samples = try await measureShuffled(count: runs.count, iterations: iterations, seed: UInt64.random(in: 0...UInt64.max)) { index in
            try await runs[index]()
        }
        let medians = zip(names, samples).map { Measurement(side: $0, samples: $1).median }
        return zip(names, medians).map { name, median in
            "http \(name): median \(median) of \(iterations) x \(pages) pages, \(format(median / medians[0], 3))x the first side"
        }.joined(separator: "\n")
    }

    struct Sides {
        let server: FixtureServer
        let pages: Int
        let pageSize: Int
        let configuration: RemoteConfiguration
        let session: URLSession
        let query: [URLQueryItem]
        var total: Int { pages * pageSize }

        /// The fetcher every side of ours uses (a new one per sample, as a new screen would).
        func makeFetcher<Item: Decodable & Sendable>(of type: Item.Type = FixtureItem.self) -> HTTPPageFetcher<Item> {
            HTTPPageFetcher<Item>(
                configuration: configuration, apiPath: "items", queryItems: query, keyPath: "items",
                paging: PageNumberPaging(pageSize: pageSize)
            )
        }

        /// The raw sides' request for page `page` (what `HTTPPageFetcher` sends).
        func request(page: Int) -> URLRequest {
            var components = URLComponents(url: server.baseURL.appendingPathComponent("items"), resolvingAgainstBaseURL: false)!
            components.queryItems = query + [URLQueryItem(name: "page", value: String(page)), URLQueryItem(name: "page_size", value: String(pageSize))]
            var request = URLRequest(url: components.url!, timeoutInterval: 10)
            request.setValue("application/json", forHTTPHeaderField: "Accept")
            return request
        }

        func ours() async throws {
            let fetcher = makeFetcher()
            let source = PaginatedDataSource(name: "items", fetcher: fetcher)
            source.fetchData()
            for await state in source.loadState.values where state.status == .finished { break }
            var loaded = 1
            while loaded < pages {
                source.fetchNextPage()
                loaded += 1
                for await state in source.pagination.values where state.loadedPages == loaded && state.nextPage == .idle { break }
            }
            let count = source.snapshot.numberOfObjects(inSection: 0)
            check(count == total && !source.hasMorePages, "paginated: \(count) objects, expected \(total)")
        }

        /// The source driven as a list drives it (``ListDriver``).
        func oursList() async throws {
            try await drive(PaginatedDataSource(name: "items", fetcher: makeFetcher()))
        }

        /// `oursList` over ``IdentifiedFixtureItem``: the duplicate rule hashes ids.
        func oursListIdentified() async throws {
            try await drive(PaginatedDataSource(name: "items", fetcher: makeFetcher(of: IdentifiedFixtureItem.self)))
        }

        /// Drives `source` as a list does until every page is shown (see ``ListDriver``).
        func drive<Item: Hashable & Sendable>(_ source: PaginatedDataSource<Item>) async throws {
            try await ListDriver.drive(source, expecting: total)
        }

        /// Like `ours`, but the next page is requested from the pagination observer (as a
        /// list's `willDisplayRow` would), not by a task awaiting `pagination.values`.
        func oursObserving() async throws {
            let fetcher = makeFetcher()
            let source = PaginatedDataSource(name: "items", fetcher: fetcher)
            let pages = self.pages
            let subscription = source.pagination.observe { [weak source] state in
                if state.loadedPages >= 1 && state.loadedPages < pages && state.nextPage == .idle { source?.fetchNextPage() }
            }
            source.fetchData()
            for await state in source.pagination.values where state.loadedPages == pages && state.nextPage == .idle { break }
            subscription.cancel()
            let count = source.snapshot.numberOfObjects(inSection: 0)
            check(count == total && !source.hasMorePages, "paginated: \(count) objects, expected \(total)")
        }

        /// The fetcher alone, pages awaited one after another (no source, no observers):
        /// separates the fetcher's cost from the data source's.
        func fetcherOnly() async throws {
            try await fetchAll(with: makeFetcher())
        }

        /// Awaits every page of `fetcher` one after another, keeping the objects.
        func fetchAll(with fetcher: some PageFetcher<FixtureItem>) async throws {
            var objects: [FixtureItem] = []
            var token: PageToken? = .first
            while let current = token {
                let page = try await fetcher.fetchPage(current)
                objects.append(contentsOf: page.objects)
                token = page.objects.isEmpty || objects.count >= total ? nil : page.next
            }
            check(objects.count == total, "fetcher: \(objects.count) objects")
        }

        /// Like `raw`, but each request goes through `transport` (isolates the transport's cost).
        func raw(through transport: some HTTPTransport, onDecoded: () -> Void = {}) async throws {
            var objects: [FixtureItem] = []
            let decoder = JSONDecoder()
            for page in 1...pages {
                let request = request(page: page)
                let response = try await transport.send(request)
                check(response.statusCode == 200, "raw-transport: status 200")
                objects.append(contentsOf: try decoder.decode(FixturePage.self, from: response.body).items)
                onDecoded()
            }
            check(objects.count == total, "raw-transport: \(objects.count) objects")
        }

        func raw() async throws {
            var objects: [FixtureItem] = []
            let decoder = JSONDecoder()
            for page in 1...pages {
                let request = request(page: page)
                let (data, response) = try await session.data(for: request)
                check((response as? HTTPURLResponse)?.statusCode == 200, "raw: status 200")
                objects.append(contentsOf: try decoder.decode(FixturePage.self, from: data).items)
            }
            check(objects.count == total, "raw: \(objects.count) objects")
        }

    }
}

/// Holds a subscription made inside the closure that may end it.
final class SubscriptionBox: @unchecked Sendable {
    private let lock = NSLock()
    private var subscription: SignalSubscription?
    private var cancelled = false

    func set(_ subscription: SignalSubscription) {
        let cancelNow = lock.withLock {
            if !cancelled { self.subscription = subscription }
            return cancelled
        }
        if cancelNow { subscription.cancel() }
    }

    /// Cancels the subscription; returns true the first time only.
    func cancel() -> Bool {
        let (first, subscription) = lock.withLock {
            defer { cancelled = true; self.subscription = nil }
            return (!cancelled, self.subscription)
        }
        subscription?.cancel()
        return first
    }
}

/// The first failure a run saw.
final class FailureBox: @unchecked Sendable {
    private let lock = NSLock()
    private var first: String?

    func record(_ message: String) {
        lock.withLock { if first == nil { first = message } }
    }

    var message: String? { lock.withLock { first } }
}

/// A transport that answers every request with the same page, so that the fetcher's own
/// CPU cost (request building, envelope decoding, paging) can be compared without a socket.
struct CannedTransport: HTTPTransport {
    let body: Data
    let url: URL

    func send(_ request: URLRequest) async throws -> HTTPResponse {
        HTTPResponse(statusCode: 200, headers: ["Content-Type": "application/json"], body: body, url: request.url ?? url)
    }
}

extension HTTPCase {
    /// `pages` decodes of one 50-object page: the fetcher over ``CannedTransport`` (side
    /// `ours`) or `JSONDecoder` of the page type (side `raw`), for `reactive-profile http-cpu`.
    public static func profileCPU(side: String, pages: Int) async throws -> String {
        let items = (1...50).map { #"{"id": \#($0), "title": "Item \#($0)", "group": "G\#($0 % 7)"}"# }
        let body = Data(#"{"page": 1, "page_size": 50, "number_of_pages": 100, "total_count": 5000, "items": [\#(items.joined(separator: ", "))]}"#.utf8)
        let url = URL(string: "http://127.0.0.1:1/items")!
        let clock = ContinuousClock()
        let start = clock.now
        var count = 0
        switch side {
        case "ours":
            let configuration = RemoteConfiguration(baseURL: URL(string: "http://127.0.0.1:1")!, timeout: 10, transport: CannedTransport(body: body, url: url))
            let fetcher = HTTPPageFetcher<FixtureItem>(configuration: configuration, apiPath: "items", keyPath: "items", paging: PageNumberPaging(pageSize: 50))
            for page in 1...pages {
                count += try await fetcher.fetchPage(page == 1 ? .first : .number(page)).objects.count
            }
        case "raw":
            let decoder = JSONDecoder()
            for _ in 1...pages {
                count += try decoder.decode(FixturePage.self, from: body).items.count
            }
        default:
            throw BenchFailure("unknown side \(side): ours or raw")
        }
        return "http-cpu \(side): \(pages) pages, \(count) objects in \(clock.now - start)"
    }
}

/// Experiment: `URLSession.data(for:)` as the transport (no timeout watchdog).
struct DataForTransport: HTTPTransport, @unchecked Sendable {
    let session: URLSession

    func send(_ request: URLRequest) async throws -> HTTPResponse {
        let (data, response) = try await session.data(for: request)
        guard let http = response as? HTTPURLResponse else { throw BenchFailure("not HTTP") }
        return HTTPResponse(statusCode: http.statusCode, headers: [:], body: data, url: http.url ?? request.url!)
    }
}
