import Foundation

/// Why no HTTP response came back (see ``DataSourceError/transport(_:url:)``).
public enum TransportFailure: Hashable, Sendable {
    /// The device has no network.
    case offline
    /// No response within the timeout.
    case timeout(seconds: Double)
    /// The host refused the connection (nothing listens on the port).
    case refused
    /// The host name could not be resolved.
    case unknownHost
    /// The connection closed before the response was complete.
    case connectionLost
    /// Any other transport failure, described.
    case other(String)

    /// A one-line message naming `url`.
    func message(for url: URL) -> String {
        let target = url.absoluteString
        switch self {
        case .offline: return "Cannot connect to \(target): no network."
        case .timeout(let seconds):
            let text = seconds == seconds.rounded() ? String(Int(seconds)) : String(format: "%.2f", seconds)
            return "No response from \(target) within \(text) s."
        case .refused: return "Cannot connect to \(target): connection refused."
        case .unknownHost: return "Cannot connect to \(target): unknown host."
        case .connectionLost: return "Cannot connect to \(target): the connection was lost."
        case .other(let reason): return "Request to \(target) failed: \(reason)."
        }
    }
}
