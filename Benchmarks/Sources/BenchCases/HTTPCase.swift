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
    private let process: Process
    private let stdin: Pipe

    public init(script: URL) throws {
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script.path]
        stdin = Pipe()
        let stdout = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        try process.run()
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
        try? stdin.fileHandleForWriting.close()
        process.waitUntilExit()
    }
}

/// The objects the fixture server serves.
struct FixtureItem: Decodable, Hashable, Sendable {
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
/// - ours: `PaginatedDataSource` + `HTTPPageFetcher` (`fetchData()`, then `fetchNextPage()`
///   each time the previous page has landed, awaited through the `pagination` property);
/// - raw: `URLSession.data(for:)` + `JSONDecoder` of the whole page, appended to an array.
/// The two sides alternate sample by sample so drift on the box affects both alike.
public enum HTTPCase {
    public static func run(config: BenchConfig, server: FixtureServer) async throws -> CaseResult {
        let pages = config.smoke ? 10 : 100
        let pageSize = 50
        let total = pages * pageSize
        let query = [URLQueryItem(name: "total", value: String(total))]
        let session = URLSession(configuration: .ephemeral)
        let transport = URLSessionTransport(session: session)
        let configuration = RemoteConfiguration(baseURL: server.baseURL, timeout: 10, transport: transport)

        func ours() async throws {
            let fetcher = HTTPPageFetcher<FixtureItem>(
                configuration: configuration, apiPath: "items", queryItems: query, keyPath: "items",
                paging: PageNumberPaging(pageSize: pageSize)
            )
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

        /// The fetcher alone, pages awaited one after another (no source, no observers):
        /// separates the fetcher's cost from the data source's.
        func fetcherOnly() async throws {
            let fetcher = HTTPPageFetcher<FixtureItem>(
                configuration: configuration, apiPath: "items", queryItems: query, keyPath: "items",
                paging: PageNumberPaging(pageSize: pageSize)
            )
            var objects: [FixtureItem] = []
            var token: PageToken? = .first
            while let current = token {
                let page = try await fetcher.fetchPage(current)
                objects.append(contentsOf: page.objects)
                token = page.objects.isEmpty || objects.count >= total ? nil : page.next
            }
            check(objects.count == total, "fetcher: \(objects.count) objects")
        }

        func raw() async throws {
            var objects: [FixtureItem] = []
            let decoder = JSONDecoder()
            for page in 1...pages {
                var components = URLComponents(url: server.baseURL.appendingPathComponent("items"), resolvingAgainstBaseURL: false)!
                components.queryItems = query + [URLQueryItem(name: "page", value: String(page)), URLQueryItem(name: "page_size", value: String(pageSize))]
                var request = URLRequest(url: components.url!, timeoutInterval: 10)
                request.setValue("application/json", forHTTPHeaderField: "Accept")
                let (data, response) = try await session.data(for: request)
                check((response as? HTTPURLResponse)?.statusCode == 200, "raw: status 200")
                objects.append(contentsOf: try decoder.decode(FixturePage.self, from: data).items)
            }
            check(objects.count == total, "raw: \(objects.count) objects")
        }

        let iterations = config.iterations(15)
        try await ours()
        try await raw()
        try await fetcherOnly()
        let clock = ContinuousClock()
        var oursSamples: [Duration] = []
        var rawSamples: [Duration] = []
        var fetcherSamples: [Duration] = []
        for _ in 0..<iterations {
            var start = clock.now
            try await ours()
            oursSamples.append(clock.now - start)
            start = clock.now
            try await raw()
            rawSamples.append(clock.now - start)
            start = clock.now
            try await fetcherOnly()
            fetcherSamples.append(clock.now - start)
        }
        return CaseResult(
            group: "http", name: "\(pages) pages x \(pageSize) over loopback HTTP",
            measurements: [
                Measurement(side: "ours", samples: oursSamples),
                Measurement(side: "URLSession + JSONDecoder", samples: rawSamples),
                Measurement(side: "HTTPPageFetcher alone (diagnostic)", samples: fetcherSamples),
            ],
            baseline: "URLSession + JSONDecoder"
        )
    }
}
