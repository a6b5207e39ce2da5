import Foundation

extension PageRequest {
    /// Sets each query parameter `name` to `value`, in order, replacing previous values.
    ///
    /// Parameters made of unreserved characters (`A-Z a-z 0-9 - . _ ~`, nothing to
    /// percent-encode; page numbers, sizes and most parameter names) whose names are not in
    /// the query yet are appended to the URL's string, which is parsed once. Anything else (a
    /// name to replace, a value to encode, a URL with a fragment) goes through
    /// `URLComponents`, once, with every character but the unreserved ones percent-encoded
    /// (`+` too). Either way the existing parameters are kept exactly as they are encoded. A
    /// URL that `URLComponents` cannot take is left unchanged.
    mutating func setQueryItems(_ pairs: [(name: String, value: String)]) {
        guard !pairs.isEmpty else { return }
        if let appended = Self.appendingPlainQueryItems(pairs, to: url) {
            url = appended
            return
        }
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: true) else { return }
        var items = components.percentEncodedQueryItems ?? []
        for (name, value) in pairs {
            items.removeAll { ($0.name.removingPercentEncoding ?? $0.name) == name }
            items.append(URLQueryItem(name: Self.percentEncoded(name), value: Self.percentEncoded(value)))
        }
        components.percentEncodedQueryItems = items
        if let updated = components.url { url = updated }
    }

    /// The characters a query name or value keeps as they are (RFC 3986's unreserved ones):
    /// everything else, `+` `&` `=` included, is percent-encoded, so servers that read `+`
    /// as a space still get the value sent.
    private static let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

    private static func percentEncoded(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? text
    }

    /// `url` with `pairs` appended to its query as `name=value`, or `nil` when that would not
    /// set them as `URLComponents` does: a name or value with a character to encode, an
    /// empty or repeated name, a name that may already be in the query, or a fragment.
    static func appendingPlainQueryItems(_ pairs: [(name: String, value: String)], to url: URL) -> URL? {
        var added = 0
        for (index, pair) in pairs.enumerated() {
            guard !pair.name.isEmpty, isUnreserved(pair.name), isUnreserved(pair.value) else { return nil }
            if pairs[..<index].contains(where: { $0.name == pair.name }) { return nil }
            added += pair.name.utf8.count + pair.value.utf8.count + 2
        }
        let string = url.absoluteString
        guard let query = string.utf8.withContiguousStorageIfAvailable({ QueryScan($0, excluding: pairs) }), query.isAppendable else {
            return nil
        }
        var result = string
        result.reserveCapacity(string.utf8.count + added)
        var separator = query.hasQuery ? (query.endsWithSeparator ? "" : "&") : "?"
        for pair in pairs {
            result += separator
            result += pair.name
            result += "="
            result += pair.value
            separator = "&"
        }
        return URL(string: result)
    }

    /// Whether every character of `text` is unreserved (RFC 3986): never percent-encoded.
    private static func isUnreserved(_ text: String) -> Bool {
        text.utf8.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                true
            default:
                false
            }
        }
    }
}

/// One pass over a URL string's bytes: where its query is, and whether parameters can be
/// appended to it as text.
private struct QueryScan {
    /// Whether the URL has a `?`.
    var hasQuery = false
    /// Whether the query is empty or ends with `&` (no separator needed before a new parameter).
    var endsWithSeparator = false
    /// False when the URL has a fragment, or its query has a parameter named like one of
    /// the excluded names or a percent-encoded name (which might decode to one).
    var isAppendable = true

    init(_ bytes: UnsafeBufferPointer<UInt8>, excluding pairs: [(name: String, value: String)]) {
        guard var index = bytes.firstIndex(where: { $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") }) else { return }
        guard bytes[index] == UInt8(ascii: "?") else {
            isAppendable = false
            return
        }
        hasQuery = true
        index += 1
        endsWithSeparator = index == bytes.endIndex || bytes[bytes.endIndex - 1] == UInt8(ascii: "&")
        var start = index
        while start <= bytes.endIndex {
            let end = bytes[start...].firstIndex { $0 == UInt8(ascii: "&") || $0 == UInt8(ascii: "#") } ?? bytes.endIndex
            let parameter = bytes[start..<end]
            let name = parameter.prefix { $0 != UInt8(ascii: "=") }
            if name.contains(UInt8(ascii: "%")) || pairs.contains(where: { $0.name.utf8.elementsEqual(name) }) {
                isAppendable = false
                return
            }
            if end < bytes.endIndex && bytes[end] == UInt8(ascii: "#") {
                isAppendable = false
                return
            }
            start = end + 1
        }
    }
}
