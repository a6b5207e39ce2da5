import Foundation
import ReactiveSources

/// The non-empty lines of a text file, numbered from 1, as ``DemoItem/line(number:text:)``
/// (poems repeat lines; numbers keep rows distinct). Reads with ``FileLinesFetcher`` in
/// batches of four lines so the section fills progressively.
struct NumberedLinesFetcher: Fetcher {
    /// The text file.
    let url: URL

    /// Delivers the file's non-empty lines, numbered, four at a time.
    func fetch(into sink: FetchSink<DemoItem>) async throws {
        let counter = LineCounter()
        try await FileLinesFetcher(url: url, batchSize: 4, skipsEmptyLines: true).fetch(into: FetchSink { batch in
            await sink.deliver(counter.number(batch))
        })
    }
}

/// Numbers lines across batches.
private final class LineCounter: @unchecked Sendable {
    /// Guards `next`.
    private let lock = NSLock()
    /// The number of the next line.
    private var next = 1

    /// Numbers `lines`, continuing from the previous batch.
    func number(_ lines: [String]) -> [DemoItem] {
        lock.withLock {
            defer { next += lines.count }
            return lines.enumerated().map { DemoItem.line(number: next + $0.offset, text: $0.element) }
        }
    }
}
