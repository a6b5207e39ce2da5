import Foundation
import Testing
@testable import ReactiveSources

/// Collects what a fetcher delivers, or the error it throws.
func run<F: Fetcher>(_ fetcher: F) async -> (batches: [[F.Object]], error: (any Error)?) {
    let batches = Recorder<[F.Object]>()
    do {
        try await fetcher.fetch(into: FetchSink { batches.append($0) })
        return (batches.values, nil)
    } catch {
        return (batches.values, error)
    }
}

@Suite("HTTP collection fetcher (real HTTP on 127.0.0.1)")
struct HTTPCollectionFetcherTests {
    let server = FixtureServer.shared

    func fetcher(_ path: String, keyPath: String = "items", query: [URLQueryItem] = [], timeout: TimeInterval = 10) -> HTTPCollectionFetcher<FixtureItem> {
        HTTPCollectionFetcher(configuration: server.configuration(timeout: timeout), apiPath: path, queryItems: query, keyPath: keyPath)
    }

    @Test func decodesTheArrayAtTheKeyPathWithQueryAndHeaders() async throws {
        let tag = uniqueTag()
        let fetcher = HTTPCollectionFetcher<FixtureItem>(
            configuration: RemoteConfiguration(baseURL: server.baseURL, headers: ["X-Client": "tests"]),
            apiPath: "/items",
            queryItems: [URLQueryItem(name: "page_size", value: "3"), URLQueryItem(name: "tag", value: tag)],
            headers: ["X-Extra": "1"],
            keyPath: "items"
        )
        let result = await run(fetcher)
        #expect(result.error == nil)
        #expect(result.batches == [[FixtureItem(id: 1, title: "Item 1", group: "G1"), FixtureItem(id: 2, title: "Item 2", group: "G2"), FixtureItem(id: 3, title: "Item 3", group: "G0")]])
        let requests = try await server.requests(tagged: tag)
        #expect(requests.count == 1)
        #expect(requests.first?.headers["x-client"] == "tests")
        #expect(requests.first?.headers["x-extra"] == "1")
    }

    @Test func dottedKeyPathsReachNestedArrays() async {
        let result = await run(fetcher("nested", keyPath: "data.items"))
        #expect(result.batches.first?.map(\.id) == [1, 2, 3])
    }

    @Test func aSingleObjectAtTheKeyPathBecomesAOneElementArray() async {
        let result = await run(fetcher("single", keyPath: "item"))
        #expect(result.batches == [[FixtureItem(id: 1, title: "only", group: "G1")]])
    }

    @Test func aRootArrayUsesAnEmptyKeyPath() async {
        let result = await run(fetcher("linked", keyPath: "", query: [URLQueryItem(name: "page_size", value: "2")]))
        #expect(result.batches.first?.map(\.id) == [1, 2])
    }

    @Test(arguments: [401, 404, 500, 503])
    func nonSuccessStatusesAreTypedWithCodeAndExcerpt(code: Int) async {
        let result = await run(fetcher("status/\(code)"))
        guard case .httpStatus(let status, let url, let excerpt, _)? = result.error as? DataSourceError else {
            Issue.record("expected a status error, got \(String(describing: result.error))")
            return
        }
        #expect(status == code)
        #expect(url.path == "/status/\(code)")
        #expect(excerpt.contains("the fixture server says no"))
        #expect((result.error as? DataSourceError)?.description.contains("HTTP \(code)") == true)
    }

    @Test(arguments: ["malformed", "truncated"])
    func bodiesThatAreNotJSONAreTyped(path: String) async {
        let result = await run(fetcher(path))
        guard case .decoding(let failure)? = result.error as? DataSourceError, case .notJSON(let excerpt) = failure.problem else {
            Issue.record("expected notJSON, got \(String(describing: result.error))")
            return
        }
        #expect(!excerpt.isEmpty)
    }

    @Test func aMissingKeyPathNamesThePath() async {
        let result = await run(fetcher("nested", keyPath: "data.things"))
        #expect(result.error as? DataSourceError == .decoding(DecodingFailure(
            url: server.baseURL.appendingPathComponent("nested"), keyPath: "data.things", problem: .keyPathNotFound(missingAt: "things")
        )))
        #expect((result.error as? DataSourceError)?.description.contains("'data.things'") == true)
    }

    @Test func anElementThatDoesNotDecodeNamesItsIndex() async {
        let result = await run(fetcher("wrong-types"))
        guard case .decoding(let failure)? = result.error as? DataSourceError,
              case .invalidElement(let index?, let codingPath, let reason) = failure.problem else {
            Issue.record("expected elementDecoding, got \(String(describing: result.error))")
            return
        }
        #expect(index == 1)
        #expect(failure.keyPath == "items")
        #expect(codingPath == "items.1.id")
        #expect(reason == "expected Int")
        #expect(result.batches.isEmpty, "nothing is delivered from a response that does not decode")
    }

    @Test func slowResponsesTimeOut() async {
        let result = await run(fetcher("slow", query: [URLQueryItem(name: "ms", value: "3000")], timeout: 0.3))
        guard case .transport(.timeout(let seconds), _)? = result.error as? DataSourceError else {
            Issue.record("expected timeout, got \(String(describing: result.error))")
            return
        }
        #expect(seconds == 0.3)
    }

    @Test func aClosedPortIsConnectionRefused() async throws {
        let port = try closedPort()
        let fetcher = HTTPCollectionFetcher<FixtureItem>(
            configuration: RemoteConfiguration(baseURL: URL(string: "http://127.0.0.1:\(port)")!, timeout: 5),
            apiPath: "items"
        )
        let result = await run(fetcher)
        guard case .transport(.refused, let url)? = result.error as? DataSourceError else {
            Issue.record("expected connectionFailed, got \(String(describing: result.error))")
            return
        }
        #expect(url.port == port)
    }

    @Test func anInvalidBaseURLIsAnInvalidRequest() async {
        let fetcher = HTTPCollectionFetcher<FixtureItem>(
            configuration: RemoteConfiguration(baseURL: URL(string: "file:///tmp")!),
            apiPath: "items"
        )
        let result = await run(fetcher)
        guard case .invalidRequest? = result.error as? DataSourceError else {
            Issue.record("expected invalidRequest, got \(String(describing: result.error))")
            return
        }
    }

    @Test func cancellingTheTaskCancelsTheRequestAndTheServerSeesTheConnectionClose() async throws {
        let tag = uniqueTag()
        // The server holds the request until the client closes the connection (or 5 min, a
        // hang guard), and the request's timeout is longer still: on a loaded machine the
        // cancel can come many seconds after the request arrived, and a shorter window let
        // the server answer (or the request time out) first, so no abort was ever seen.
        let fetcher = fetcher("slow", query: [URLQueryItem(name: "ms", value: "300000"), URLQueryItem(name: "tag", value: tag)], timeout: 600)
        let task = Task { await run(fetcher) }
        await server.awaitRequests(tagged: tag)
        task.cancel()
        let result = await task.value
        #expect(result.error is CancellationError, "URLError(.cancelled) is mapped to CancellationError")
        await server.awaitRequests(tagged: tag, aborted: true)
    }
}

/// A TCP port on 127.0.0.1 with nothing listening.
func closedPort() throws -> Int {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = 0
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
            bind(fd, pointer, length) == 0 && getsockname(fd, pointer, &length) == 0
        }
    }
    guard bound else { throw POSIXError(.EADDRINUSE) }
    return Int(UInt16(bigEndian: address.sin_port))
}

