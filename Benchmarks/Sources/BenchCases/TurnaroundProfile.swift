import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import ReactiveSources

/// Where a page's time goes on the client, per side: *in flight* (from handing a request to
/// the transport until its response is back) and *turnaround* (from a response being back
/// until the next request is handed over: decoding, the source's work, observers, starting
/// the next fetch), for ours, ours over `Identifiable` objects, the fetcher alone and raw.
/// For the sides with a fetcher, the turnaround is split at the moment the fetcher returns
/// the decoded page, and for ours also at the moment the list's `updates` observer is
/// called (the source's work on the page until then). Per run: the time to the first
/// request and from the last response to the end. `reactive-profile http-turnaround all <runs>`.
public enum TurnaroundProfile {
    /// A transport that timestamps each request's start and its response's return, and
    /// keeps the stamps others make (a page decoded, the list's observer called).
    final class TimingTransport: HTTPTransport, @unchecked Sendable {
        /// The stamps of one run.
        struct Stamps {
            var events: [(sent: ContinuousClock.Instant, returned: ContinuousClock.Instant)] = []
            var decodes: [ContinuousClock.Instant] = []
            var updates: [ContinuousClock.Instant] = []
        }

        private let inner = URLSessionTransport()
        private let lock = NSLock()
        private let clock = ContinuousClock()
        private var stamps = Stamps()

        func send(_ request: URLRequest) async throws -> HTTPResponse {
            let sent = clock.now
            let response = try await inner.send(request)
            let returned = clock.now
            lock.withLock { stamps.events.append((sent, returned)) }
            return response
        }

        /// Records that a page's objects are decoded (called by ``StampedFetcher``).
        func markDecoded() {
            let now = clock.now
            lock.withLock { stamps.decodes.append(now) }
        }

        /// Records that the list's `updates` observer runs.
        func markUpdate() {
            let now = clock.now
            lock.withLock { stamps.updates.append(now) }
        }

        /// The stamps recorded since the last call, cleared.
        func take() -> Stamps {
            lock.withLock { defer { stamps = Stamps() }; return stamps }
        }
    }

    /// A fetcher that stamps the moment its inner fetcher returns a page (decoded), so a
    /// turnaround splits into decoding and what follows it (the source, or the loop).
    struct StampedFetcher<Item: Decodable & Sendable>: PageFetcher {
        let inner: HTTPPageFetcher<Item>
        let transport: TimingTransport

        func fetchPage(_ token: PageToken) async throws -> Page<Item> {
            let page = try await inner.fetchPage(token)
            transport.markDecoded()
            return page
        }
    }

    public static func run(server: FixtureServer, iterations: Int) async throws -> String {
        let pages = 100, pageSize = 50
        let query = [URLQueryItem(name: "total", value: String(pages * pageSize))]
        let session = URLSession(configuration: URLSessionTransport.defaultConfiguration())
        let names = ["list", "list-identified", "fetcher", "raw-transport"]
        var inFlight = Array(repeating: [Double](), count: names.count)
        var turnaround = Array(repeating: [Double](), count: names.count)
        var applied = Array(repeating: [Double](), count: names.count)
        var decode = Array(repeating: [Double](), count: names.count)
        var after = Array(repeating: [Double](), count: names.count)
        var head = Array(repeating: [Double](), count: names.count)
        var tail = Array(repeating: [Double](), count: names.count)
        let clock = ContinuousClock()
        let transports = names.map { _ in TimingTransport() }
        let sides = transports.map { transport in
            HTTPCase.Sides(server: server, pages: pages, pageSize: pageSize,
                  configuration: RemoteConfiguration(baseURL: server.baseURL, timeout: 10, transport: transport),
                  session: session, query: query)
        }
        func runSide(_ index: Int) async throws {
            let side = sides[index], transport = transports[index]
            switch names[index] {
            case "list":
                let fetcher = StampedFetcher<FixtureItem>(inner: side.makeFetcher(), transport: transport)
                try await ListDriver.drive(PaginatedDataSource(name: "items", fetcher: fetcher), expecting: side.total, onUpdate: transport.markUpdate)
            case "list-identified":
                let fetcher = StampedFetcher<IdentifiedFixtureItem>(inner: side.makeFetcher(of: IdentifiedFixtureItem.self), transport: transport)
                try await ListDriver.drive(PaginatedDataSource(name: "items", fetcher: fetcher), expecting: side.total, onUpdate: transport.markUpdate)
            case "fetcher":
                try await side.fetchAll(with: StampedFetcher<FixtureItem>(inner: side.makeFetcher(), transport: transport))
            default: try await side.raw(through: transport, onDecoded: transport.markDecoded)
            }
        }
        for index in names.indices { try await runSide(index) }
        _ = try await measureShuffled(count: names.count, iterations: iterations, seed: UInt64.random(in: 0...UInt64.max), warmup: 0) { index in
            _ = transports[index].take()
            let start = clock.now
            try await runSide(index)
            let end = clock.now
            let stamps = transports[index].take()
            let events = stamps.events, decodes = stamps.decodes
            // The updates before the first page (the loading placeholder) are not a page's.
            let updates = stamps.updates.suffix(events.count)
            if updates.count == events.count && decodes.count == events.count {
                applied[index] += zip(decodes, updates).map { ($1 - $0).seconds * 1e6 }
            }
            if decodes.count == events.count {
                decode[index] += zip(events, decodes).map { ($1 - $0.returned).seconds * 1e6 }
                after[index] += zip(decodes, events.dropFirst()).map { ($1.sent - $0).seconds * 1e6 }
            }
            if let first = events.first, let last = events.last {
                head[index].append((first.sent - start).seconds * 1e6)
                tail[index].append((end - last.returned).seconds * 1e6)
            }
            inFlight[index] += events.map { ($0.returned - $0.sent).seconds * 1e6 }
            turnaround[index] += zip(events, events.dropFirst()).map { ($1.sent - $0.returned).seconds * 1e6 }
        }
        func mean(_ values: [Double]) -> Double { values.reduce(0, +) / Double(values.count) }
        let lines = names.indices.map { index in
            "\(names[index]): in flight median \(format(median(inFlight[index]), 1)) µs mean \(format(mean(inFlight[index]), 1)) µs; "
                + "turnaround median \(format(median(turnaround[index]), 1)) µs mean \(format(mean(turnaround[index]), 1)) µs; "
                + (decode[index].isEmpty ? "" : "decoded after \(format(median(decode[index]), 1)) µs, next sent \(format(median(after[index]), 1)) µs later"
                    + (applied[index].isEmpty ? "" : " (observer called after \(format(median(applied[index]), 1)) µs)") + "; ")
                + "per run: first request after \(format(median(head[index]), 1)) µs, done \(format(median(tail[index]), 1)) µs after the last response"
        }
        return lines.joined(separator: "\n")
    }
}
