import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import ReactiveSources

/// A transport that records how long each request takes under `name`.
struct TimedTransport: HTTPTransport {
    let base: any HTTPTransport
    let name: String
    let timings: FetchTimings

    func send(_ request: URLRequest) async throws -> HTTPResponse {
        try await timings.measure(name) {
            try await base.send(request)
        }
    }
}
