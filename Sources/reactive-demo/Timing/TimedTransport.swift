import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import ReactiveSources

/// A transport that records how long each request takes under `name`.
struct TimedTransport: HTTPTransport {
    /// The transport timed.
    let base: any HTTPTransport
    /// The name its timings are recorded under.
    let name: String
    /// Where they are recorded.
    let timings: FetchTimings

    /// Sends `request` through the base transport, timed.
    func send(_ request: URLRequest) async throws -> HTTPResponse {
        try await timings.measure(name) {
            try await base.send(request)
        }
    }
}
