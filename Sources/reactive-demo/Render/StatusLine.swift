import Foundation
import ReactiveSources

/// What the status line shows.
struct StatusLine: Equatable, Sendable {
    var contentState: String
    var page: Int?
    var numberOfPages: Int?
    var totalResults: Int?
    var shownResults: Int
    var nextPage: String
    var lastFetchMilliseconds: Int?
    var message: String?

    func render() -> String {
        var parts = ["state: \(contentState)"]
        let pages = "page \(page.map(String.init) ?? "?") of \(numberOfPages.map(String.init) ?? "?")"
        parts.append(pages)
        parts.append("\(shownResults) of \(totalResults.map(String.init) ?? "?") results")
        parts.append("next page: \(nextPage)")
        if let lastFetchMilliseconds { parts.append("last fetch \(lastFetchMilliseconds) ms") }
        var line = parts.joined(separator: " · ")
        if let message { line += " · \(message)" }
        return line
    }
}
