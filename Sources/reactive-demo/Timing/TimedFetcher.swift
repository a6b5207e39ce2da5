import ReactiveSources

/// A fetcher that records how long each of its fetches takes under `name`.
struct TimedFetcher<Base: Fetcher>: Fetcher {
    /// The fetcher timed.
    let base: Base
    /// The name its timings are recorded under.
    let name: String
    /// Where they are recorded.
    let timings: FetchTimings

    /// Runs the base fetcher's fetch, timed.
    func fetch(into sink: FetchSink<Base.Object>) async throws {
        try await timings.measure(name) {
            try await base.fetch(into: sink)
        }
    }
}
