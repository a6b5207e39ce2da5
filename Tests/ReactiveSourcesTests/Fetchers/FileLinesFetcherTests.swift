import Foundation
import Testing
@testable import ReactiveSources

/// A temporary directory removed when the value is dropped.
final class TemporaryDirectory: @unchecked Sendable {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("reactive-sources-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    func file(_ name: String, _ contents: Data) throws -> URL {
        let file = url.appendingPathComponent(name)
        try contents.write(to: file)
        return file
    }

    deinit { try? FileManager.default.removeItem(at: url) }
}

@Suite("File lines fetcher (real files)")
struct FileLinesFetcherTests {
    @Test func readsLinesAndStripsCarriageReturns() async throws {
        let directory = try TemporaryDirectory()
        let file = try directory.file("poem.txt", Data("one\r\ntwo\n\nthree".utf8))
        let result = await run(FileLinesFetcher(url: file))
        #expect(result.error == nil)
        #expect(result.batches == [["one", "two", "", "three"]])
        let skipping = await run(FileLinesFetcher(url: file, skipsEmptyLines: true))
        #expect(skipping.batches == [["one", "two", "three"]])
    }

    @Test func largeFilesArriveInBatchesAcrossSmallChunks() async throws {
        let directory = try TemporaryDirectory()
        let lines = (1...2_500).map { "line \($0) ✓" }
        let file = try directory.file("big.txt", Data((lines.joined(separator: "\n") + "\n").utf8))
        let result = await run(FileLinesFetcher(url: file, batchSize: 1_000, chunkSize: 7))
        #expect(result.batches.map(\.count) == [1_000, 1_000, 500])
        #expect(result.batches.flatMap { $0 } == lines, "multi-byte characters split across chunks survive")
    }

    @Test func eachBatchAfterTheFirstIsAPartialLoadOfARemoteSource() async throws {
        let directory = try TemporaryDirectory()
        let file = try directory.file("six.txt", Data("a\nb\nc\nd\ne\nf\n".utf8))
        let source = RemoteDataSource(name: "Lines", fetcher: FileLinesFetcher(url: file, batchSize: 2))
        let log = EventLog(source)
        source.fetchData()
        await log.waitForFinishers(1)
        #expect(log.values == [.willLoad, .didPartiallyLoad, .didPartiallyLoad, .didPartiallyLoad, .didFinishLoading])
        #expect(source.allObjects == ["a", "b", "c", "d", "e", "f"])
    }

    @Test func anEmptyFileDeliversOneEmptyBatch() async throws {
        let directory = try TemporaryDirectory()
        let file = try directory.file("empty.txt", Data())
        let result = await run(FileLinesFetcher(url: file))
        #expect(result.batches == [[]])
        #expect(result.error == nil)
    }

    @Test func aMissingFileIsATypedErrorNamingThePath() async {
        let path = "/nonexistent/\(UUID().uuidString).txt"
        let result = await run(FileLinesFetcher(path: path))
        #expect(result.error as? DataSourceError == .file(.notFound(path: path)))
        #expect((result.error as? DataSourceError)?.description.contains(path) == true)
    }

    @Test func aDirectoryIsUnreadable() async throws {
        let directory = try TemporaryDirectory()
        let result = await run(FileLinesFetcher(url: directory.url))
        guard case .file(.unreadable(let path, _))? = result.error as? DataSourceError else {
            Issue.record("expected unreadable, got \(String(describing: result.error))")
            return
        }
        #expect(path == directory.url.path)
    }

    @Test func invalidUTF8NamesThePathAndOffsetAfterDeliveringEarlierLines() async throws {
        let directory = try TemporaryDirectory()
        var bytes = Data("good\nbad ".utf8)
        bytes.append(contentsOf: [0xFF, 0xFE])
        bytes.append(contentsOf: Data(" tail\n".utf8))
        let file = try directory.file("bad.txt", bytes)
        let result = await run(FileLinesFetcher(url: file, batchSize: 1))
        #expect(result.error as? DataSourceError == .file(.invalidUTF8(path: file.path, byteOffset: 9)))
        #expect(result.batches == [["good"]])

        let source = RemoteDataSource(name: "Bad", fetcher: FileLinesFetcher(url: file, batchSize: 1), placeholders: [.loading, .errors])
        let log = EventLog(source)
        source.fetchData()
        await log.waitForFinishers(1)
        #expect(source.snapshot.sections[0].objects == ["good"], "lines delivered before the error stay")
        #expect(source.loadState.value.error?.message.contains("not valid UTF-8") == true)
    }
}

@Suite("Closure and async-sequence fetchers")
struct CustomFetcherTests {
    @Test func asyncSequenceElementsArriveOneByOneAsPartialLoads() async {
        let fetcher = AsyncSequenceFetcher<String> {
            AsyncStream { continuation in
                for name in ["photo-1", "photo-2", "photo-3"] { continuation.yield(name) }
                continuation.finish()
            }
        }
        let source = RemoteDataSource(name: "Photos", fetcher: fetcher)
        let counts = Recorder<Int>()
        let subscription = source.updates.observe { counts.append($0.snapshot.numberOfObjects(inSection: 0)) }
        defer { subscription.cancel() }
        let log = EventLog(source)
        source.fetchData()
        await log.waitForFinishers(1)
        #expect(log.values == [.willLoad, .didPartiallyLoad, .didPartiallyLoad, .didPartiallyLoad, .didFinishLoading])
        #expect(Array(counts.values.drop { $0 == 0 }) == [1, 2, 3])
    }

    @Test func batchSizeGroupsElements() async {
        let fetcher = AsyncSequenceFetcher<Int>(batchSize: 4) {
            AsyncStream { continuation in
                for value in 1...10 { continuation.yield(value) }
                continuation.finish()
            }
        }
        let result = await run(fetcher)
        #expect(result.batches.map(\.count) == [4, 4, 2])
    }

    @Test func aThrowingSequenceFailsTheFetchButKeepsWhatArrived() async {
        let fetcher = AsyncSequenceFetcher<Int> {
            AsyncThrowingStream<Int, any Error> { continuation in
                continuation.yield(1)
                continuation.finish(throwing: TestFailure("camera unplugged"))
            }
        }
        let source = RemoteDataSource(name: "Photos", fetcher: fetcher)
        let log = EventLog(source)
        source.fetchData()
        await log.waitForFinishers(1)
        #expect(source.allObjects == [1])
        #expect(log.values.last == .didFail(.other(TestFailure("camera unplugged"))))
    }

    @Test func closureFetcherAndJust() async {
        let result = await run(ClosureFetcher<Int> { sink in
            await sink.deliver([1])
            await sink.deliver([2, 3])
        })
        #expect(result.batches == [[1], [2, 3]])
        #expect(await run(ClosureFetcher.just(["x"])).batches == [["x"]])
    }

    @Test func lifecycleContractOverAnAsyncSequence() async {
        let source = RemoteDataSource(name: "n", fetcher: AsyncSequenceFetcher<Int> {
            AsyncStream { continuation in
                continuation.yield(1)
                continuation.finish()
            }
        })
        await checkLifecycleContract(of: source)
    }
}
