import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@testable import ReactiveSources

/// The Python fixture server (fixture_server.py), started once per test process on
/// 127.0.0.1 with an ephemeral port. It exits when this process closes its stdin.
///
/// Tests that share the server must not reset it or rely on request logs of other tests;
/// each test uses its own `tag` query parameter to find its requests.
final class FixtureServer: @unchecked Sendable {
    static let shared: FixtureServer = {
        do { return try FixtureServer() } catch { fatalError("cannot start the fixture server: \(error)") }
    }()

    let port: Int
    let baseURL: URL
    private let process: Process
    private let stdin: Pipe

    private init() throws {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("fixture_server.py")
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
            if chunk.isEmpty { throw FixtureError.noPort(String(decoding: line, as: UTF8.self)) }
            line.append(chunk)
        }
        let text = String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard text.hasPrefix("PORT "), let port = Int(text.dropFirst(5)) else { throw FixtureError.noPort(text) }
        self.port = port
        baseURL = URL(string: "http://127.0.0.1:\(port)")!
    }

    enum FixtureError: Error { case noPort(String) }

    /// A configuration pointing at the server.
    func configuration(timeout: TimeInterval = 10) -> RemoteConfiguration {
        RemoteConfiguration(baseURL: baseURL, timeout: timeout)
    }

    /// Requests seen by the server whose query has `tag=<tag>`.
    func requests(tagged tag: String) async throws -> [RecordedRequest] {
        let (data, _) = try await URLSession.shared.data(from: baseURL.appendingPathComponent("_requests"))
        return try JSONDecoder().decode([RecordedRequest].self, from: data).filter { $0.query["tag"] == tag }
    }

    /// Returns once a data request tagged `tag` with `q=<query>` has reached the server
    /// (`ended`: and was answered or aborted); false if none did within `limit` seconds of pool
    /// time (a hang guard: a loaded machine or a sanitizer can keep the request's task off the
    /// cooperative pool for longer than one 30 s poll). Long polls, no polling.
    func awaitRequest(tagged tag: String, query: String, ended: Bool = false, limit: TimeInterval = 120) async throws -> Bool {
        let guardian = HangGuard(limit)
        let parameters = ["tag": tag, "q": query, "ended": ended ? "1" : "0"]
        while !Task.isCancelled && !guardian.hasExpired {
            if try await awaitOnce(parameters) { return true }
        }
        return false
    }

    /// Returns once `count` data requests tagged `tag` have reached the server (`aborted`:
    /// and the client closed their connection); records an issue and returns false if they
    /// have not after `limit` seconds of pool time (a hang guard). Long polls, no polling.
    @discardableResult
    func awaitRequests(
        tagged tag: String, count: Int = 1, aborted: Bool = false, limit: TimeInterval = 120,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async -> Bool {
        let guardian = HangGuard(limit)
        let parameters = ["tag": tag, "count": "\(count)", "aborted": aborted ? "1" : "0"]
        // Each poll waits up to 30 s on the server's side; the next one starts at once.
        while !Task.isCancelled && !guardian.hasExpired {
            if (try? await awaitOnce(parameters)) == true { return true }
        }
        Issue.record("timed out waiting for \(count) request(s) tagged \(tag)\(aborted ? ", aborted" : "")", sourceLocation: sourceLocation)
        return false
    }

    private func awaitOnce(_ parameters: [String: String]) async throws -> Bool {
        var components = URLComponents(url: baseURL.appendingPathComponent("_await"), resolvingAgainstBaseURL: false)!
        components.queryItems = parameters.map { URLQueryItem(name: $0.key, value: $0.value) }
        var request = URLRequest(url: components.url!)
        request.timeoutInterval = 60
        let (data, _) = try await URLSession.shared.data(for: request)
        return try JSONDecoder().decode([String: Bool].self, from: data)["ok"] == true
    }

    /// Releases the requests held at `gate` (those with `gate=<gate>` in their query).
    func open(gate: String) async throws {
        var components = URLComponents(url: baseURL.appendingPathComponent("_open"), resolvingAgainstBaseURL: false)!
        components.queryItems = [URLQueryItem(name: "gate", value: gate)]
        var request = URLRequest(url: components.url!)
        request.httpMethod = "POST"
        _ = try await URLSession.shared.data(for: request)
    }

    /// Queues scripted actions for the next data requests tagged `tag` (delays, statuses,
    /// raw bodies, dropped connections), one action per request.
    func script(tag: String, _ actions: [[String: any Sendable]]) async throws {
        var components = URLComponents(url: baseURL.appendingPathComponent("_script"), resolvingAgainstBaseURL: false)!
        components.queryItems = [URLQueryItem(name: "tag", value: tag)]
        var request = URLRequest(url: components.url!)
        request.httpMethod = "POST"
        request.httpBody = try JSONSerialization.data(withJSONObject: actions)
        _ = try await URLSession.shared.data(for: request)
    }
}

/// One request as the fixture server saw it.
struct RecordedRequest: Decodable, Sendable {
    var path: String
    var query: [String: String]
    var completed: Bool
    var aborted: Bool
    var headers: [String: String]
}

/// The objects the fixture server serves.
struct FixtureItem: Decodable, Hashable, Sendable, Identifiable {
    var id: Int
    var title: String
    var group: String?
}

/// A unique tag for a test's requests.
func uniqueTag(_ function: String = #function) -> String {
    "\(function.prefix(while: { $0 != "(" }))-\(UUID().uuidString.prefix(8))"
}
