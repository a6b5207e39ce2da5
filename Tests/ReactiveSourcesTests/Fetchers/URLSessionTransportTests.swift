import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@testable import ReactiveSources

@Suite("URLSession transport (real HTTP on 127.0.0.1)")
struct URLSessionTransportTests {
    let server = FixtureServer.shared

    /// How one request ended.
    enum Ending: Equatable, Sendable {
        case response
        case cancelled
        case other(String)
    }

    /// Cancels land at random moments around the arrival of their responses, as when a
    /// source's refresh supersedes a fetch: each request ends exactly once, as its response or
    /// as `CancellationError`, nothing deadlocks (the completion runs inline on the session's
    /// work queue while cancels wait for it), and nothing stops the process. With a `URLCache`
    /// on the session, FoundationNetworking stopped it about once in every few thousand such
    /// cancels ("Trying to access a behaviour for a task that in not in the registry"): this
    /// test did so in 3 of 5 runs over a cached session. The default transport has no cache
    /// (``theDefaultConfigurationHasNoCache()``).
    @Test(.timeLimit(.minutes(10)))
    func cancelsRacingTheirResponsesEndEachRequestOnceAndStopNothing() async throws {
        let transport = URLSessionTransport()
        let request = URLRequest(url: server.baseURL.appendingPathComponent("_page"), timeoutInterval: 10)
        let clock = ContinuousClock()
        var trips: [Duration] = []
        for _ in 0..<20 {
            let start = clock.now
            let response = try await transport.send(request)
            #expect(response.statusCode == 200)
            trips.append(clock.now - start)
        }
        // Cancel delays spread evenly on a log scale from a tenth of a round trip to 30 round
        // trips (as measured one at a time; under load they take longer), so some cancels win
        // and some lose however loaded the machine is.
        let trip = Double(max(medianMicroseconds(trips), 100))
        let rounds = 4_000
        let endings = await withTaskGroup(of: Ending.self) { group in
            var endings: [Ending] = []
            for index in 0..<rounds {
                if index >= 8, let ending = await group.next() { endings.append(ending) }
                group.addTask {
                    let task = Task { try await transport.send(request) }
                    let delay = trip / 10 * pow(300, Double.random(in: 0...1))
                    DispatchQueue.global().asyncAfter(deadline: .now() + .microseconds(Int(delay))) {
                        task.cancel()
                    }
                    do {
                        let response = try await task.value
                        return response.statusCode == 200 ? .response : .other("status \(response.statusCode)")
                    } catch is CancellationError {
                        return .cancelled
                    } catch {
                        return .other(String(describing: error))
                    }
                }
            }
            for await ending in group { endings.append(ending) }
            return endings
        }
        #expect(endings.count == rounds)
        let others = endings.filter { if case .other = $0 { true } else { false } }
        #expect(others.isEmpty, "every request ends as its response or as CancellationError: \(others.prefix(5))")
        let responses = endings.filter { $0 == .response }.count
        let cancelled = endings.filter { $0 == .cancelled }.count
        #expect(responses > 0 && cancelled > 0, "the cancels straddle the responses (\(responses) responses, \(cancelled) cancelled)")
    }

    @Test func headersAreReadFromTheResponseByNameInAnyCaseOrAllAtOnce() async throws {
        var components = URLComponents(url: server.baseURL.appendingPathComponent("linked"), resolvingAgainstBaseURL: false)!
        components.queryItems = [URLQueryItem(name: "page", value: "1"), URLQueryItem(name: "page_size", value: "2"), URLQueryItem(name: "total", value: "5")]
        var response = try await URLSessionTransport().send(URLRequest(url: components.url!, timeoutInterval: 10))
        #expect(response.header("content-type") == "application/json")
        #expect(response.header("LINK")?.contains(#"rel="next""#) == true)
        #expect(response.header("x-absent") == nil)
        let all = response.headers
        #expect(all["Content-Type"] == "application/json" && all["Content-Length"] == String(response.body.count))
        #expect(response.headers == all, "converted once, the same each time")
        response.headers = ["X-Only": "1"]
        #expect(response.header("x-only") == "1" && response.header("Content-Type") == nil)
    }

    @Test func theDefaultConfigurationHasNoCache() {
        #expect(URLSessionTransport.defaultConfiguration().urlCache == nil)
        #expect(URLSessionTransport().session.configuration.urlCache == nil)
    }
}

/// The median of `trips`, in microseconds.
private func medianMicroseconds(_ trips: [Duration]) -> Int {
    trips.sorted()[trips.count / 2].microseconds
}

private extension Duration {
    var microseconds: Int {
        let (seconds, attoseconds) = components
        return Int(seconds) * 1_000_000 + Int(attoseconds / 1_000_000_000_000)
    }
}
