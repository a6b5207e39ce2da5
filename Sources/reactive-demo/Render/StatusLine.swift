import Foundation

/// What the status lines under the table show: the content state, the feed's paging, the
/// fetch timings, and a message.
struct StatusLine: Equatable, Sendable {
    /// The Multi's content state ("loading", "loaded", "no content", "error", ...).
    var contentState: String
    /// The feed's last loaded page, if known.
    var page: Int?
    /// How many pages the API reported, if it did.
    var numberOfPages: Int?
    /// The feed's total result count as the API reported it, if it did.
    var totalResults: Int?
    /// How many of the feed's results are shown.
    var shownResults: Int
    /// The next-page state: "available", "none", "loading" or "failed".
    var nextPage: String
    /// How long each section's last fetch took.
    var timings: [FetchTimings.Entry] = []
    /// A note for the user (a key's effect, a failure), if any.
    var message: String?

    /// The status as lines of text: state and paging, timings, then the message if any.
    func render() -> [String] {
        let paging = [
            "state: \(contentState)",
            "page \(Self.number(page)) of \(Self.number(numberOfPages))",
            "\(shownResults) of \(Self.number(totalResults)) results",
            "next page: \(nextPage)",
        ]
        var lines = [paging.joined(separator: " · ")]
        if !timings.isEmpty {
            lines.append("fetch times: " + timings.map(Self.describe).joined(separator: " · "))
        }
        if let message { lines.append(message) }
        return lines
    }

    private static func number(_ value: Int?) -> String {
        value.map(String.init) ?? "?"
    }

    private static func describe(_ timing: FetchTimings.Entry) -> String {
        let last = timing.lastMilliseconds.map { "\($0) ms" }
        switch (timing.running > 0, last) {
        case (true, let last?): return "\(timing.name) loading (last \(last))"
        case (true, nil): return "\(timing.name) loading"
        case (false, let last?): return "\(timing.name) \(last)"
        case (false, nil): return "\(timing.name) –"
        }
    }
}
