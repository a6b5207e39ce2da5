import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Synchronization

/// The header fields of an ``HTTPResponse``: a dictionary given by whoever made the
/// response, or the fields of a `URLSession` response, turned into a dictionary only when
/// someone asks for all of them. Most fetchers never read a header, and bridging every
/// field to `String` cost a few thousand instructions a response on the thread that
/// delivers it, before the fetch could resume. A single field is read from the `URLSession`
/// response directly (case-insensitively).
final class HeaderFields: @unchecked Sendable {
    /// The `URLSession` response the fields come from, if any (immutable once received).
    private let response: HTTPURLResponse?
    /// The fields as a dictionary: given, or converted from `response` on first use.
    private let dictionary: Mutex<[String: String]?>

    init(_ fields: [String: String]) {
        response = nil
        dictionary = Mutex(fields)
    }

    init(_ response: HTTPURLResponse) {
        self.response = response
        dictionary = Mutex(nil)
    }

    /// Every field, names as sent.
    var all: [String: String] {
        dictionary.withLock { stored in
            if let stored { return stored }
            var converted: [String: String] = [:]
            let fields = response?.allHeaderFields ?? [:]
            converted.reserveCapacity(fields.count)
            for (key, value) in fields {
                converted[key.base as? String ?? String(describing: key)] = value as? String ?? String(describing: value)
            }
            stored = converted
            return converted
        }
    }

    /// The value of the field `name`, compared case-insensitively; `nil` if absent.
    func value(_ name: String) -> String? {
        if let response { return response.value(forHTTPHeaderField: name) }
        let fields = all
        if let exact = fields[name] { return exact }
        let lowered = name.lowercased()
        return fields.first { $0.key.lowercased() == lowered }?.value
    }
}
