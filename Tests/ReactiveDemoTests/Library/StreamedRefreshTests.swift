import ReactiveSources
import Testing

/// A library behaviour the demo's Photos section ran into (issue 24, item 3), shown through
/// the public API: a refresh of a `RemoteDataSource` whose fetcher delivers several batches
/// used to replace the whole content with the first batch, so a refresh cancelled after its
/// first batches left a partial list, and a Sectioned grouping over it lost sections while
/// the refresh ran. A refresh now keeps the content until it finishes.
@Suite(.timeLimit(.minutes(10))) struct StreamedRefreshTests {
    @Test
    func aCancelledStreamedRefreshKeepsEveryRowAndTheSectionsStay() async throws {
        let fetcher = SteppedFetcher()
        let source = RemoteDataSource(name: "Photos", fetcher: fetcher, placeholders: .all)
        let byKind = SectionedDataSource(name: "By kind", child: source, key: { $0 % 3 }, sectionOrder: .ascending)
        var delivered = fetcher.delivered.makeAsyncIterator()

        // The first load, one object a batch.
        source.fetchData()
        for object in 1...6 {
            fetcher.send([object])
            _ = await delivered.next()
        }
        fetcher.finish()
        try await waitUntil(source.loadState) { !$0.isFetching }
        #expect(Array(source.snapshot.sections[0].objects) == Array(1...6))
        #expect(byKind.snapshot.numberOfSections == 3)

        // A refresh: two batches arrive, then it is cancelled.
        source.fetchData()
        fetcher.send([1])
        _ = await delivered.next()
        #expect(source.snapshot.sections[0].objects.count == 6, "rows lost while the refresh runs")
        #expect(byKind.snapshot.numberOfSections == 3, "sections collapse while the refresh runs")
        fetcher.send([2])
        _ = await delivered.next()
        source.cancelFetch()
        try await waitUntil(source.loadState) { !$0.isFetching }
        #expect(Array(source.snapshot.sections[0].objects) == Array(1...6), "a cancelled refresh must not lose rows")
        #expect(byKind.snapshot.numberOfSections == 3)
    }
}

/// A fetcher the test steps through: each ``send(_:)`` is one batch of the fetch running,
/// ``finish()`` ends it; ``delivered`` yields after each batch has been handed to the source.
final class SteppedFetcher: Fetcher, Sendable {
    private let batches: AsyncStream<[Int]?>
    private let batchInput: AsyncStream<[Int]?>.Continuation
    /// One element per batch delivered (its size), after the source took it.
    let delivered: AsyncStream<Int>
    private let deliveredInput: AsyncStream<Int>.Continuation

    init() {
        (batches, batchInput) = AsyncStream.makeStream()
        (delivered, deliveredInput) = AsyncStream.makeStream()
    }

    /// Delivers `batch` to the fetch running (or the next one).
    func send(_ batch: [Int]) { batchInput.yield(batch) }
    /// Ends the fetch running (or the next one).
    func finish() { batchInput.yield(nil) }

    func fetch(into sink: FetchSink<Int>) async throws {
        for await batch in batches {
            guard let batch else { return }
            try Task.checkCancellation()
            await sink.deliver(batch)
            deliveredInput.yield(batch.count)
        }
        throw CancellationError()
    }
}
