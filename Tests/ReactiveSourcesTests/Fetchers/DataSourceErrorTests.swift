import Foundation
import Testing
@testable import ReactiveSources

/// Every case of the one error type, decoded from a real response of the fixture server (or
/// a real closed port), read from a source's load state and switched over as a user would.
@Suite("DataSourceError from real responses")
struct DataSourceErrorTests {
    let server = FixtureServer.shared

    /// The error a remote source over `path` ends with.
    func loadError(_ path: String, keyPath: String = "items", timeout: TimeInterval = 10, script: [[String: any Sendable]] = [], baseURL: URL? = nil) async throws -> DataSourceError? {
        let tag = uniqueTag()
        if !script.isEmpty { try await server.script(tag: tag, script) }
        let configuration = RemoteConfiguration(baseURL: baseURL ?? server.baseURL, timeout: timeout)
        let source = RemoteDataSource(
            fetcher: HTTPCollectionFetcher<FixtureItem>(
                configuration: configuration, apiPath: path, queryItems: [URLQueryItem(name: "tag", value: tag)], keyPath: keyPath
            ),
            retry: .none
        )
        source.fetchData()
        await source.settled()
        return source.loadState.value.error
    }

    @Test func httpStatusCarriesCodeExcerptAndRetryAfter() async throws {
        let error = try await loadError("items", script: [["status": 429, "body": "slow down please", "headers": ["Retry-After": "7"]]])
        guard case .httpStatus(let code, let url, let excerpt, let retryAfter)? = error else {
            Issue.record("expected httpStatus, got \(String(describing: error))")
            return
        }
        #expect(code == 429 && url.path == "/items" && excerpt == "slow down please" && retryAfter == "7")
        #expect(error?.isRetryable == true)
    }

    @Test func notFoundIsAStatusThatIsNotRetryable() async throws {
        let error = try await loadError("status/404")
        guard case .httpStatus(404, _, let excerpt, nil)? = error else {
            Issue.record("expected a 404, got \(String(describing: error))")
            return
        }
        #expect(excerpt.contains("says no"))
        #expect(error?.isRetryable == false)
    }

    @Test func decodingFailuresSayWhereAndWhat() async throws {
        let notJSON = try await loadError("malformed")
        guard case .decoding(let failure)? = notJSON, case .notJSON(let excerpt) = failure.problem else {
            Issue.record("expected notJSON, got \(String(describing: notJSON))")
            return
        }
        #expect(excerpt.contains("<html>") && failure.url?.path == "/malformed")

        let missing = try await loadError("nested", keyPath: "data.nope")
        guard case .decoding(let failure)? = missing, case .keyPathNotFound("nope") = failure.problem else {
            Issue.record("expected keyPathNotFound, got \(String(describing: missing))")
            return
        }
        #expect(failure.keyPath == "data.nope")

        let wrong = try await loadError("wrong-types")
        guard case .decoding(let failure)? = wrong, case .invalidElement(1, "items.1.id", let reason) = failure.problem else {
            Issue.record("expected invalidElement, got \(String(describing: wrong))")
            return
        }
        #expect(reason == "expected Int")
        #expect(wrong?.isRetryable == false)
    }

    @Test func transportFailuresAreTyped() async throws {
        let timeout = try await loadError("slow", timeout: 0.3, script: [])
        guard case .transport(.timeout(0.3), _)? = timeout else {
            Issue.record("expected a timeout, got \(String(describing: timeout))")
            return
        }
        #expect(timeout?.isRetryable == true)

        let lost = try await loadError("items", script: [["drop": true], ["drop": true]])
        // FoundationNetworking reports a dropped connection as lost or as another failure.
        guard case .transport(let reason, _)? = lost, reason != .refused, reason != .timeout(seconds: 10) else {
            Issue.record("expected a lost connection, got \(String(describing: lost))")
            return
        }

        let port = try closedPort()
        let refused = try await loadError("items", baseURL: URL(string: "http://127.0.0.1:\(port)")!)
        guard case .transport(.refused, let url)? = refused else {
            Issue.record("expected refused, got \(String(describing: refused))")
            return
        }
        #expect(url.port == port)
    }

    @Test func anInvalidRequestAndACustomErrorAreTheirOwnCases() async throws {
        let invalid = try await loadError("items", baseURL: URL(string: "file:///tmp")!)
        guard case .invalidRequest? = invalid else {
            Issue.record("expected invalidRequest, got \(String(describing: invalid))")
            return
        }
        struct Custom: Error {}
        let source = RemoteDataSource(fetcher: ClosureFetcher<Int> { _ in throw Custom() })
        source.fetchData()
        await source.settled()
        guard case .other(let error)? = source.loadState.value.error else {
            Issue.record("expected .other")
            return
        }
        #expect(error is Custom)
        #expect(DataSourceError(DataSourceError.other(Custom())) == .other(Custom()), "never wrapped twice")
        #expect(DataSourceError(CancellationError()) == .cancelled)
        #expect(DataSourceError(URLError(.notConnectedToInternet)).isRetryable)
    }
}
