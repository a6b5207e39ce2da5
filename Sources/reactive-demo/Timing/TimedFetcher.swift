import ReactiveSources

/// A fetcher that records how long each of its fetches takes under `name`.
struct TimedFetcher<Base: Fetcher>: Fetcher {
    let base: Base
    let name: String
    let timings: FetchTimings

    func fetch(into sink: FetchSink<Base.Object>) async throws {
        try await timings.measure(name) {
            try await base.fetch(into: sink)
        }
    }
}
