import Foundation

/// The demo's command-line flags.
struct DemoOptions: Equatable {
    /// How `--url`'s API pages.
    enum Paging: String, Equatable, CaseIterable {
        /// Page numbers in the query, paginator keys in the body (``PageNumberPaging``).
        case page
        /// A cursor at a key path, sent back as a query parameter (``CursorPaging``).
        case cursor
        /// The `Link` header's `rel="next"` URL (``LinkHeaderPaging``).
        case link
    }

    /// A real HTTP API for the paginated section; `nil` uses the embedded simulated API.
    var url: URL?
    /// Dotted key path of the array in each page's JSON.
    var keyPath = "data.items"
    /// Response key of the page number.
    var pageKey = "page"
    /// Response key of the page size.
    var pageSizeKey = "page_size"
    /// Response key of the number of pages.
    var numberOfPagesKey = "number_of_pages"
    /// Response key of the total number of objects.
    var totalCountKey = "total_count"
    /// Query parameter the page number is sent in.
    var pageParameter = "page"
    /// Query parameter the page size is sent in.
    var pageSizeParameter = "page_size"
    /// How the API pages.
    var paging = Paging.page
    /// Cursor paging: dotted key path of the next cursor in each response.
    var cursorKey = "next_cursor"
    /// Cursor paging: query parameter the cursor is sent in.
    var cursorParameter = "cursor"
    /// Dotted key path of a boolean that says whether more pages follow (`false` ends the
    /// paging), or `nil` when the API has none.
    var hasMoreKey: String?
    /// Objects per page requested.
    var pageSize = 5
    /// Simulated API latency per request, in milliseconds.
    var latencyMilliseconds = 250
    /// In log mode, how many feed pages to load before printing the final table.
    var pages = 3
    /// Print a log instead of drawing, even on a terminal.
    var forceLog = false
    /// Print the help and exit.
    var showHelp = false

    /// The `--help` text: every flag, one a line.
    static let help = """
    reactive-demo: watch a Multi data source update live.

    USAGE: swift run reactive-demo [options]

    On a terminal it draws a table that redraws in place (and fits the terminal's size); keys:
      n next page · r refresh · c cancel · e fail the next fetch (simulated API only)
      ↑/↓ move · space select · q quit
    When stdout is not a terminal it prints a log of events and the final table, and exits
    (status 1 if a feed page failed; pages are requested once, never retried).

    OPTIONS:
      --url URL               Page a real HTTP API instead of the embedded simulated one.
      --key-path PATH         Dotted key path of the array in each page (default: data.items;
                              "" when the body itself is the array).
      --paging KIND           page, cursor or link (default: page):
                                page    page numbers in the query, paginator keys in the body;
                                cursor  the next cursor at --cursor-key sent back in --cursor-param,
                                link    the Link header's rel="next" URL, fetched as is.
      --page-key KEY          Response key of the current page (default: page).
      --page-size-key KEY     Response key of the page size (default: page_size).
      --pages-key KEY         Response key of the number of pages (default: number_of_pages).
      --total-key KEY         Response key of the total count (default: total_count).
      --page-param NAME       Query parameter for the page number (default: page).
      --page-size-param NAME  Query parameter for the page size (default: page_size).
      --cursor-key PATH       Cursor paging: key path of the next cursor (default: next_cursor).
      --cursor-param NAME     Cursor paging: query parameter for the cursor (default: cursor).
      --has-more-key PATH     Key path of a boolean saying whether more pages follow (any paging).
      --page-size N           Objects per page, 1...100 (default: 5).
      --latency MS            Simulated API latency in milliseconds, 0...10000 (default: 250).
      --pages N               Log mode: feed pages to load before exiting, 1...100 (default: 3).
      --log                   Print the event log even when stdout is a terminal.
      -h, --help              Show this help.

    OBJECTS (--url): each element of the array must be a JSON object with a whole-number
    "id" (rows are told apart by it; repeated ids are dropped) and a string "title"; an
    optional string "author" is shown; other keys are ignored. Anything else fails the page
    with a message naming the URL and the problem.
    """

    /// Parses `arguments` (without the program name). Throws ``DemoOptionsError``.
    static func parse(_ arguments: [String]) throws(DemoOptionsError) -> DemoOptions {
        var options = DemoOptions()
        var remaining = arguments[...]
        func value(for flag: String) throws(DemoOptionsError) -> String {
            guard let value = remaining.popFirst(), !value.hasPrefix("--") else { throw .missingValue(flag) }
            return value
        }
        func number(for flag: String, in range: ClosedRange<Int>) throws(DemoOptionsError) -> Int {
            let text = try value(for: flag)
            guard let number = Int(text), range.contains(number) else { throw .invalidNumber(flag: flag, value: text, range: range) }
            return number
        }
        while let flag = remaining.popFirst() {
            switch flag {
            case "-h", "--help": options.showHelp = true
            case "--log": options.forceLog = true
            case "--url":
                let text = try value(for: flag)
                guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme), url.host != nil else {
                    throw .invalidURL(text)
                }
                options.url = url
            case "--key-path": options.keyPath = try value(for: flag)
            case "--page-key": options.pageKey = try value(for: flag)
            case "--page-size-key": options.pageSizeKey = try value(for: flag)
            case "--pages-key": options.numberOfPagesKey = try value(for: flag)
            case "--total-key": options.totalCountKey = try value(for: flag)
            case "--page-param": options.pageParameter = try value(for: flag)
            case "--page-size-param": options.pageSizeParameter = try value(for: flag)
            case "--paging":
                let text = try value(for: flag)
                guard let paging = Paging(rawValue: text) else { throw .invalidChoice(flag: flag, value: text, choices: Paging.allCases.map(\.rawValue)) }
                options.paging = paging
            case "--cursor-key": options.cursorKey = try value(for: flag)
            case "--cursor-param": options.cursorParameter = try value(for: flag)
            case "--has-more-key": options.hasMoreKey = try value(for: flag)
            case "--page-size": options.pageSize = try number(for: flag, in: 1...100)
            case "--latency": options.latencyMilliseconds = try number(for: flag, in: 0...10_000)
            case "--pages": options.pages = try number(for: flag, in: 1...100)
            default: throw .unknownFlag(flag)
            }
        }
        if options.paging != .page && options.url == nil { throw .needsURL("--paging") }
        return options
    }
}

/// A command-line mistake, described in one line.
enum DemoOptionsError: Error, Equatable, CustomStringConvertible {
    /// A flag (or argument) the demo does not know.
    case unknownFlag(String)
    /// A flag that needs a value came last or before another flag.
    case missingValue(String)
    /// A numeric flag's value is not a whole number in `range`.
    case invalidNumber(flag: String, value: String, range: ClosedRange<Int>)
    /// `--url`'s value is not an http(s) URL with a host.
    case invalidURL(String)
    /// A flag that only applies to a real API was given without `--url`.
    case needsURL(String)
    /// A flag's value is not one of `choices`.
    case invalidChoice(flag: String, value: String, choices: [String])

    /// The mistake in one line, for stderr.
    var description: String {
        switch self {
        case .unknownFlag(let flag): return "unknown option '\(flag)' (see --help)"
        case .missingValue(let flag): return "option '\(flag)' needs a value (see --help)"
        case .invalidNumber(let flag, let value, let range):
            return "option '\(flag)' needs a whole number from \(range.lowerBound) to \(range.upperBound), not '\(value)'"
        case .invalidURL(let text): return "'\(text)' is not an http(s) URL with a host"
        case .needsURL(let flag): return "option '\(flag)' needs --url (the simulated API pages by number)"
        case .invalidChoice(let flag, let value, let choices):
            return "option '\(flag)' needs one of \(choices.joined(separator: ", ")), not '\(value)'"
        }
    }
}
