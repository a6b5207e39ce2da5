import Foundation

/// Why a fetch did not finish: the one error type of every fetcher and source in the
/// package, to `switch` over.
///
/// The shipped fetchers throw it directly (the HTTP fetchers and transport, the file
/// fetcher); a source wraps any other error a custom fetcher throws in ``other(_:)``, once
/// (a `DataSourceError` is never wrapped again). ``message`` is written for a person.
/// Equality compares the case and the message.
public enum DataSourceError: Error, Equatable, CustomStringConvertible, LocalizedError {
    /// The fetch was cancelled: by `cancelFetch()`, by a newer `fetchData()`, or because its
    /// task was cancelled (a cancelled request included).
    case cancelled
    /// No HTTP response came back from `url`: offline, timeout, refused, ... (see
    /// ``TransportFailure``).
    case transport(TransportFailure, url: URL)
    /// The server answered with a status outside 200...299. `bodyExcerpt` is the start of the
    /// body as text (at most 120 characters); `retryAfter` is the `Retry-After` header, if sent.
    case httpStatus(code: Int, url: URL, bodyExcerpt: String, retryAfter: String?)
    /// A response came back but does not hold the objects expected (see ``DecodingFailure``).
    case decoding(DecodingFailure)
    /// The request could not be made: an `apiPath` or base URL that is not a valid URL, or a
    /// page the paging strategy cannot express.
    case invalidRequest(reason: String)
    /// A ``FileLinesFetcher`` could not read its file.
    case file(FileFetchError)
    /// A custom fetcher threw an error of its own type.
    case other(any Error)

    /// The error a fetcher threw, as a `DataSourceError`: itself if it is one; cancellations
    /// (`CancellationError`, `URLError(.cancelled)`) become ``cancelled``; other `URLError`s
    /// ``transport(_:url:)``; `FileFetchError` ``file(_:)``; `DecodingError`
    /// ``decoding(_:)``; anything else ``other(_:)``.
    public init(_ error: any Error) {
        switch error {
        case let error as DataSourceError:
            self = error
        case is CancellationError:
            self = .cancelled
        case let error as URLError:
            self = Self(error, url: error.failingURL ?? URL(fileURLWithPath: "/"), timeout: 0)
        case let error as FileFetchError:
            self = .file(error)
        case let error as DecodingError:
            self = .decoding(DecodingFailure(url: nil, keyPath: "", problem: .invalidElement(index: nil, error)))
        default:
            self = .other(error)
        }
    }

    /// A `URLError` from a request to `url` with a timeout of `timeout` seconds.
    init(_ error: URLError, url: URL, timeout: Double) {
        switch error.code {
        case .cancelled: self = .cancelled
        case .timedOut: self = .transport(.timeout(seconds: timeout), url: url)
        case .cannotConnectToHost: self = .transport(.refused, url: url)
        case .cannotFindHost, .dnsLookupFailed: self = .transport(.unknownHost, url: url)
        case .networkConnectionLost: self = .transport(.connectionLost, url: url)
        case .notConnectedToInternet: self = .transport(.offline, url: url)
        default: self = .transport(.other(error.localizedDescription), url: url)
        }
    }

    /// Whether this is a cancellation.
    public var isCancellation: Bool {
        if case .cancelled = self { return true }
        return false
    }

    /// Whether trying again may succeed: transport failures (timeouts included), 5xx and 429
    /// statuses. Never other statuses, decoding, invalid requests, files, custom errors or
    /// cancellation.
    public var isRetryable: Bool {
        switch self {
        case .transport: true
        case .httpStatus(let code, _, _, _): code == 429 || (500...599).contains(code)
        case .cancelled, .decoding, .invalidRequest, .file, .other: false
        }
    }

    /// A one-line message for display that says what went wrong and where.
    public var message: String {
        switch self {
        case .cancelled:
            "The fetch was cancelled."
        case .transport(let failure, let url):
            failure.message(for: url)
        case .httpStatus(let code, let url, let excerpt, _):
            "HTTP \(code) from \(url.absoluteString)" + (excerpt.isEmpty ? "." : ": \(excerpt)")
        case .decoding(let failure):
            failure.message
        case .invalidRequest(let reason):
            "Cannot build the request: \(reason)."
        case .file(let error):
            error.description
        case .other(let error):
            (error as? any LocalizedError)?.errorDescription ?? String(describing: error)
        }
    }

    /// The error's message.
    public var description: String { message }

    /// The error's message, for `LocalizedError`.
    public var errorDescription: String? { message }

    /// Equal when the cases are the same and so are the messages.
    public static func == (lhs: DataSourceError, rhs: DataSourceError) -> Bool {
        switch (lhs, rhs) {
        case (.cancelled, .cancelled): true
        case (.transport(let a, let x), .transport(let b, let y)): a == b && x == y
        case (.httpStatus(let a, let x, let e, let r), .httpStatus(let b, let y, let f, let s)): a == b && x == y && e == f && r == s
        case (.decoding(let a), .decoding(let b)): a == b
        case (.invalidRequest(let a), .invalidRequest(let b)): a == b
        case (.file(let a), .file(let b)): a == b
        case (.other, .other): lhs.message == rhs.message
        default: false
        }
    }

    /// The first `limit` characters of `body` as text, on one line, for error messages.
    static func excerpt(of body: Data, limit: Int = 120) -> String {
        let text = String(decoding: body.prefix(limit * 4), as: UTF8.self)
            .replacingOccurrences(of: "\n", with: " ")
            .trimmingCharacters(in: .whitespaces)
        return text.count > limit ? String(text.prefix(limit)) + "…" : text
    }
}
