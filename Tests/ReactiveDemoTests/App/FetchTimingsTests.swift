import Testing
@testable import reactive_demo

/// Fetch times: a fetch that ends is recorded; a cancelled one is not.
@Suite struct FetchTimingsTests {
    @Test func aCancelledFetchIsNotRecordedAsTheLastTime() async throws {
        let timings = FetchTimings(names: ["Feed"])
        _ = await timings.measure("Feed") { 1 }
        let first = try #require(timings.entries.first?.lastMilliseconds)
        await #expect(throws: CancellationError.self) {
            try await timings.measure("Feed") { throw CancellationError() }
        }
        // A task cancelled while it measures.
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return await timings.measure("Feed") { 2 }
        }
        #expect(await task.value == 2)
        #expect(timings.entries == [FetchTimings.Entry(name: "Feed", lastMilliseconds: first, running: 0)])
    }
}
