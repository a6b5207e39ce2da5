import Foundation

/// Why a file could not be read. Every case names the path.
public enum FileFetchError: Error, Hashable, Sendable, CustomStringConvertible, LocalizedError {
    /// No file exists at the path.
    case notFound(path: String)
    /// The file exists but could not be read (permissions, a directory, an I/O error).
    case unreadable(path: String, reason: String)
    /// The bytes starting at `byteOffset` are not valid UTF-8.
    case invalidUTF8(path: String, byteOffset: Int)

    /// The path the error is about.
    public var path: String {
        switch self {
        case .notFound(let path), .unreadable(let path, _), .invalidUTF8(let path, _): path
        }
    }

    /// A one-line message that says what went wrong and where.
    public var description: String {
        switch self {
        case .notFound(let path): "No file at \(path)."
        case .unreadable(let path, let reason): "Cannot read \(path): \(reason)."
        case .invalidUTF8(let path, let offset): "\(path) is not valid UTF-8 (bad bytes at offset \(offset))."
        }
    }

    /// Same as ``description``.
    public var errorDescription: String? { description }
}
