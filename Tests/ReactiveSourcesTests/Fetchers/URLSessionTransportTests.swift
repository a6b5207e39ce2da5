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
    /// source's refresh supersedes a fetch. With a `URLCache` on the session, FoundationNetworking
    /// stopped the process about once in every few thousand such cancels ("Trying to access a
    /// behaviour for a task that in not in the registry"); the default transport has none.
    @Test func cancelsRacingTheirResponsesEndEachRequestOnceAndStopNothing() async throws {
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
        // Cancels spread from "at once" to three round trips, so some win and some lose.
        let trip = trips.sorted()[trips.count / 2]
        let window = max(3 * trip.microseconds, 300)
        let rounds = 4_000
        let endings = await withTaskGroup(of: Ending.self) { group in
            var endings: [Ending] = []
            for index in 0..<rounds {
                if index >= 8, let ending = await group.next() { endings.append(ending) }
                group.addTask {
                    let task = Task { try await transport.send(request) }
                    DispatchQueue.global().asyncAfter(deadline: .now() + .microseconds(Int.random(in: 0...window))) {
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

    @Test func theDefaultConfigurationHasNoCache() {
        #expect(URLSessionTransport.defaultConfiguration().urlCache == nil)
        #expect(URLSessionTransport().session.configuration.urlCache == nil)
    }
}

private extension Duration {
    var microseconds: Int {
        let (seconds, attoseconds) = components
        return Int(seconds) * 1_000_000 + Int(attoseconds / 1_000_000_000_000)
    }
}
