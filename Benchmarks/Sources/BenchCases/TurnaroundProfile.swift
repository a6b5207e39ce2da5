import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import ReactiveSources

/// Where a page's time goes on the client, per side: *in flight* (from handing a request to
/// the transport until its response is back) and *turnaround* (from a response being back
/// until the next request is handed over: decoding, the source's work, observers, starting
/// the next fetch), for ours, ours over `Identifiable` objects, the fetcher alone and raw.
/// `reactive-profile http-turnaround all <runs>`.
public enum TurnaroundProfile {
    /// A transport that timestamps each request's start and its response's return.
    final class TimingTransport: HTTPTransport, @unchecked Sendable {
        private let inner = URLSessionTransport()
        private let lock = NSLock()
        private let clock = ContinuousClock()
        private var events: [(sent: ContinuousClock.Instant, returned: ContinuousClock.Instant)] = []

        func send(_ request: URLRequest) async throws -> HTTPResponse {
            let sent = clock.now
            let response = try await inner.send(request)
            let returned = clock.now
            lock.withLock { events.append((sent, returned)) }
            return response
        }

        /// The events recorded since the last call, cleared.
        func take() -> [(sent: ContinuousClock.Instant, returned: ContinuousClock.Instant)] {
            lock.withLock { defer { events = [] }; return events }
        }
    }

    public static func run(server: FixtureServer, iterations: Int) async throws -> String {
        let pages = 100, pageSize = 50
        let query = [URLQueryItem(name: "total", value: String(pages * pageSize))]
        let session = URLSession(configuration: URLSessionTransport.defaultConfiguration())
        let names = ["list", "list-identified", "fetcher", "raw-transport"]
        var inFlight = Array(repeating: [Double](), count: names.count)
        var turnaround = Array(repeating: [Double](), count: names.count)
        let transports = names.map { _ in TimingTransport() }
        let sides = transports.map { transport in
            HTTPCase.Sides(server: server, pages: pages, pageSize: pageSize,
                  configuration: RemoteConfiguration(baseURL: server.baseURL, timeout: 10, transport: transport),
                  session: session, query: query)
        }
        func runSide(_ index: Int) async throws {
            switch names[index] {
            case "list": try await sides[index].oursList()
            case "list-identified": try await sides[index].oursListIdentified()
            case "fetcher": try await sides[index].fetcherOnly()
            default: try await sides[index].raw(through: transports[index])
            }
        }
        for index in names.indices { try await runSide(index) }
        _ = try await measureShuffled(count: names.count, iterations: iterations, seed: UInt64.random(in: 0...UInt64.max), warmup: 0) { index in
            _ = transports[index].take()
            try await runSide(index)
            let events = transports[index].take()
            inFlight[index] += events.map { ($0.returned - $0.sent).seconds * 1e6 }
            turnaround[index] += zip(events, events.dropFirst()).map { ($1.sent - $0.returned).seconds * 1e6 }
        }
        func mean(_ values: [Double]) -> Double { values.reduce(0, +) / Double(values.count) }
        let lines = names.indices.map { index in
            "\(names[index]): in flight median \(format(median(inFlight[index]), 1)) µs mean \(format(mean(inFlight[index]), 1)) µs; "
                + "turnaround median \(format(median(turnaround[index]), 1)) µs mean \(format(mean(turnaround[index]), 1)) µs"
        }
        return lines.joined(separator: "\n")
    }
}
