import Foundation

/// Why a fetch did not finish: it was cancelled, or its fetcher failed.
///
/// The underlying fetcher error keeps its type (`underlying`); `message` is written for a
/// person. Equality compares the kind and the message.
public enum DataSourceError: Error, Equatable, CustomStringConvertible, LocalizedError {
    /// The fetch was cancelled by `cancelFetch()` or superseded by a newer `fetchData()`.
    case cancelled
    /// The fetcher threw `underlying`.
    case failed(any Error)

    /// Wraps any error thrown by a fetcher; cancellations become ``cancelled``.
    public init(_ error: any Error) {
        if let error = error as? DataSourceError {
            self = error
        } else if error is CancellationError {
            self = .cancelled
        } else if let urlError = error as? URLError, urlError.code == .cancelled {
            self = .cancelled
        } else {
            self = .failed(error)
        }
    }

    /// Whether this is a cancellation.
    public var isCancellation: Bool {
        if case .cancelled = self { return true }
        return false
    }

    /// The fetcher's error, or `nil` for a cancellation.
    public var underlying: (any Error)? {
        if case .failed(let error) = self { return error }
        return nil
    }

    /// A one-line message for display.
    public var message: String {
        switch self {
        case .cancelled:
            return "The fetch was cancelled."
        case .failed(let error):
            if let localized = error as? any LocalizedError, let description = localized.errorDescription {
                return description
            }
            return String(describing: error)
        }
    }

    /// The error's message.
    public var description: String { message }

    /// The error's message, for `LocalizedError`.
    public var errorDescription: String? { message }

    /// Two cancellations are equal; two failures are equal when their messages are.
    public static func == (lhs: DataSourceError, rhs: DataSourceError) -> Bool {
        switch (lhs, rhs) {
        case (.cancelled, .cancelled): return true
        case (.failed, .failed): return lhs.message == rhs.message
        default: return false
        }
    }
}
