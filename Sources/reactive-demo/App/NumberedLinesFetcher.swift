import Foundation
import ReactiveSources

/// The non-empty lines of a text file, numbered from 1, as ``DemoItem/line(number:text:)``
/// (poems repeat lines; numbers keep rows distinct). Reads with ``FileLinesFetcher`` in
/// batches of four lines so the section fills progressively.
struct NumberedLinesFetcher: Fetcher {
    let url: URL

    func fetch(into sink: FetchSink<DemoItem>) async throws {
        let counter = LineCounter()
        try await FileLinesFetcher(url: url, batchSize: 4, skipsEmptyLines: true).fetch(into: FetchSink { batch in
            await sink.deliver(counter.number(batch))
        })
    }
}

private final class LineCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var next = 1

    func number(_ lines: [String]) -> [DemoItem] {
        lock.withLock {
            defer { next += lines.count }
            return lines.enumerated().map { DemoItem.line(number: next + $0.offset, text: $0.element) }
        }
    }
}
