import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The header fields of an ``HTTPResponse``: a dictionary given by whoever made the
/// response, or the fields of a `URLSession` response, turned into a dictionary only when
/// someone asks for all of them. Most fetchers never read a header, so no field is bridged
/// to `String` before the fetch resumes. A single field is read from the `URLSession`
/// response directly (case-insensitively).
///
/// Made on the thread that delivers the response and read on the fetch's: every stored
/// property is written and read under `lock` (a pthread mutex, which ThreadSanitizer sees),
/// so the hand-over is ordered whatever carries the object across.
final class HeaderFields: @unchecked Sendable {
    private let lock = NSLock()
    /// The `URLSession` response the fields come from, if any.
    private var response: HTTPURLResponse?
    /// The fields as a dictionary: given, or converted from `response` on first use.
    private var dictionary: [String: String]?

    init(_ fields: [String: String]) {
        lock.withLock { dictionary = fields }
    }

    init(_ response: HTTPURLResponse) {
        lock.withLock { self.response = response }
    }

    /// Every field, names as sent.
    var all: [String: String] {
        lock.withLock {
            if let dictionary { return dictionary }
            var converted: [String: String] = [:]
            let fields = response?.allHeaderFields ?? [:]
            converted.reserveCapacity(fields.count)
            for (key, value) in fields {
                converted[key.base as? String ?? String(describing: key)] = value as? String ?? String(describing: value)
            }
            dictionary = converted
            return converted
        }
    }

    /// The value of the field `name`, compared case-insensitively; `nil` if absent.
    func value(_ name: String) -> String? {
        if let response = lock.withLock({ response }) { return response.value(forHTTPHeaderField: name) }
        let fields = all
        if let exact = fields[name] { return exact }
        let lowered = name.lowercased()
        return fields.first { $0.key.lowercased() == lowered }?.value
    }
}
