import Foundation

/// Why an HTTP fetch failed. Every case says what went wrong in words a person understands
/// (``description``) and names the URL involved.
public enum HTTPFetchError: Error, Hashable, Sendable, CustomStringConvertible, LocalizedError {
    /// The request could not be built (for example an `apiPath` that is not a valid path).
    case invalidRequest(reason: String)
    /// The server answered with a status outside 200...299.
    case status(code: Int, url: URL, bodyExcerpt: String)
    /// No answer within the timeout.
    case timeout(url: URL, seconds: Double)
    /// The server could not be reached (connection refused, unknown host, connection lost).
    case connectionFailed(url: URL, reason: String)
    /// The body is not JSON (or is truncated JSON).
    case notJSON(url: URL, bodyExcerpt: String)
    /// The key path does not lead to a value in the response; `missingAt` is the first
    /// component that is absent (or not an object).
    case keyPathNotFound(keyPath: String, missingAt: String, url: URL)
    /// The element at `index` of the array at the key path does not decode.
    case elementDecoding(index: Int, keyPath: String, reason: String, url: URL)
    /// The paging strategy cannot express the requested page (for example a cursor token
    /// given to a page-number strategy).
    case unsupportedPage(reason: String)
    /// Any other transport error.
    case transport(url: URL, reason: String)

    /// A one-line message that says what went wrong and where.
    public var description: String {
        switch self {
        case .invalidRequest(let reason):
            "Cannot build the request: \(reason)."
        case .status(let code, let url, let excerpt):
            "HTTP \(code) from \(url.absoluteString)" + (excerpt.isEmpty ? "." : ": \(excerpt)")
        case .timeout(let url, let seconds):
            "No response from \(url.absoluteString) within \(Self.format(seconds)) s."
        case .connectionFailed(let url, let reason):
            "Cannot connect to \(url.absoluteString): \(reason)."
        case .notJSON(let url, let excerpt):
            "The response from \(url.absoluteString) is not valid JSON" + (excerpt.isEmpty ? "." : ": \(excerpt)")
        case .keyPathNotFound(let keyPath, let missing, let url):
            "Key path '\(keyPath)' not found in the response from \(url.absoluteString) ('\(missing)' is missing)."
        case .elementDecoding(let index, let keyPath, let reason, let url):
            "Element \(index) at '\(keyPath.isEmpty ? "<root>" : keyPath)' from \(url.absoluteString) does not decode: \(reason)."
        case .unsupportedPage(let reason):
            "Unsupported page request: \(reason)."
        case .transport(let url, let reason):
            "Request to \(url.absoluteString) failed: \(reason)."
        }
    }

    /// Same as ``description``.
    public var errorDescription: String? { description }

    /// The first `limit` characters of `body` as text, for error messages.
    static func excerpt(of body: Data, limit: Int = 120) -> String {
        let text = String(decoding: body.prefix(limit * 4), as: UTF8.self)
            .replacingOccurrences(of: "\n", with: " ")
            .trimmingCharacters(in: .whitespaces)
        return text.count > limit ? String(text.prefix(limit)) + "…" : text
    }

    private static func format(_ seconds: Double) -> String {
        seconds == seconds.rounded() ? String(Int(seconds)) : String(format: "%.2f", seconds)
    }
}
