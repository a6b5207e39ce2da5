import Foundation

/// Why a response does not hold the objects expected (see ``DataSourceError/decoding(_:)``):
/// where (`url`, the items `keyPath`) and what was wrong (``problem``).
public struct DecodingFailure: Hashable, Sendable {
    /// What was wrong with the response.
    public enum Problem: Hashable, Sendable {
        /// The body is not JSON (or is truncated JSON); the start of the body.
        case notJSON(bodyExcerpt: String)
        /// The key path leads nowhere: `missingAt` is the first component absent (or not an object).
        case keyPathNotFound(missingAt: String)
        /// An element does not decode: its index in the array (`nil` when unknown), the
        /// coding path of the bad value (dotted, `""` for the element itself) and the reason.
        case invalidElement(index: Int?, codingPath: String, reason: String)
    }

    /// The URL that answered, when the failure came from an HTTP response.
    public var url: URL?
    /// The dotted key path of the objects in the response (`""` for the root).
    public var keyPath: String
    /// What was wrong.
    public var problem: Problem

    /// Creates a failure.
    public init(url: URL?, keyPath: String, problem: Problem) {
        self.url = url
        self.keyPath = keyPath
        self.problem = problem
    }

    /// A one-line message that says what was wrong and where.
    public var message: String {
        let source = url.map { " from \($0.absoluteString)" } ?? ""
        switch problem {
        case .notJSON(let excerpt):
            return "The response\(source) is not valid JSON" + (excerpt.isEmpty ? "." : ": \(excerpt)")
        case .keyPathNotFound(let missing):
            return "Key path '\(keyPath)' not found in the response\(source) ('\(missing)' is missing)."
        case .invalidElement(let index, let codingPath, let reason):
            let at = codingPath.isEmpty ? "" : " at '\(codingPath)'"
            let element = index.map { "Element \($0) at '\(keyPath.isEmpty ? "<root>" : keyPath)'" } ?? "A value"
            return "\(element)\(source) does not decode: \(reason)\(at)."
        }
    }
}

extension DecodingFailure.Problem {
    /// The problem `error` describes, for the element at `index`.
    static func invalidElement(index: Int?, _ error: any Error) -> Self {
        guard let error = error as? DecodingError else {
            return .invalidElement(index: index, codingPath: "", reason: String(describing: error))
        }
        func path(_ context: DecodingError.Context) -> String {
            context.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue }.joined(separator: ".")
        }
        switch error {
        case .typeMismatch(let type, let context):
            return .invalidElement(index: index, codingPath: path(context), reason: "expected \(type)")
        case .valueNotFound(let type, let context):
            return .invalidElement(index: index, codingPath: path(context), reason: "missing \(type) value")
        case .keyNotFound(let key, let context):
            return .invalidElement(index: index, codingPath: path(context), reason: "missing key '\(key.stringValue)'")
        case .dataCorrupted(let context):
            return .invalidElement(index: index, codingPath: path(context), reason: context.debugDescription)
        @unknown default:
            return .invalidElement(index: index, codingPath: "", reason: String(describing: error))
        }
    }
}
