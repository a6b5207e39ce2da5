import Foundation

/// Paging by the `Link` response header (RFC 8288): the next page is the URL with
/// `rel="next"`, fetched as is; no such link means no more pages. Usually the body is a
/// bare JSON array (key path `""`). Relative links resolve against the response URL.
public struct LinkHeaderPaging: PagingStrategy {
    /// The relation that names the next page. Default `next`.
    public var relation: String

    /// Creates the strategy.
    public init(relation: String = "next") {
        self.relation = relation
    }

    /// The dotted key paths of the response scalars this strategy reads (see ``PagingStrategy``).
    public var scalarKeyPaths: [String] { [] }

    /// Puts `token` into `request` (see ``PagingStrategy``). Throws ``DataSourceError/invalidRequest(reason:)`` for a token kind this strategy does not use.
    public func prepare(_ request: inout PageRequest, for token: PageToken) throws {
        switch token {
        case .first: break
        case .url(let url): request.url = url
        case .number, .cursor: throw DataSourceError.invalidRequest(reason: "Link-header paging cannot fetch \(token)")
        }
    }

    /// Reads the page info and the next token from `response` (see ``PagingStrategy``). Missing or ill-typed values leave the fields unknown.
    public func interpret(_ response: PageResponse, objectCount: Int, requested token: PageToken) -> (info: PageInfo, next: PageToken?) {
        guard objectCount > 0, let header = response.http.header("Link"),
              let next = LinkHeader.target(of: relation, in: header, relativeTo: response.http.url) else {
            return (PageInfo(), nil)
        }
        return (PageInfo(), .url(next))
    }
}

/// Parses RFC 8288 `Link` header values.
enum LinkHeader {
    /// The URL of the first link whose `rel` includes `relation`, or `nil`.
    /// Malformed entries are skipped; commas inside `<...>` are handled.
    static func target(of relation: String, in header: String, relativeTo base: URL) -> URL? {
        var remaining = Substring(header)
        while let open = remaining.firstIndex(of: "<") {
            guard let close = remaining[open...].firstIndex(of: ">") else { return nil }
            let target = remaining[remaining.index(after: open)..<close]
            let afterTarget = remaining[remaining.index(after: close)...]
            let nextEntry = afterTarget.firstIndex(of: "<") ?? afterTarget.endIndex
            let parameters = afterTarget[..<nextEntry]
            remaining = afterTarget[nextEntry...]
            for parameter in parameters.split(whereSeparator: { $0 == ";" || $0 == "," }) {
                let pair = parameter.split(separator: "=", maxSplits: 1)
                guard pair.count == 2, pair[0].trimmingCharacters(in: .whitespaces).lowercased() == "rel" else { continue }
                let values = pair[1].trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
                if values.split(separator: " ").contains(where: { $0.lowercased() == relation.lowercased() }),
                   let url = URL(string: String(target), relativeTo: base)?.absoluteURL {
                    return url
                }
            }
        }
        return nil
    }
}
