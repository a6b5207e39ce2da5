import Foundation
import Testing
@testable import ReactiveSources

/// The one-pass reader behind the HTTP fetchers: items and scalars read through one tree of
/// keys, with the typed errors the fetchers report.
@Suite("JSON envelope (one-pass items and scalars)")
struct JSONEnvelopeTests {
    let url = URL(string: "http://example.test/feed")!

    func decode(_ json: String, items: String, scalars: [String] = []) throws -> JSONEnvelope<FixtureItem> {
        try JSONEnvelope<FixtureItem>.decode(
            Data(json.utf8), plan: JSONReadPlan(itemsKeyPath: items, scalarKeyPaths: scalars), keyPath: items, url: url, decoder: JSONDecoder()
        )
    }

    func error(_ json: String, items: String, scalars: [String] = []) -> DecodingFailure? {
        do {
            _ = try decode(json, items: items, scalars: scalars)
            return nil
        } catch {
            guard case .decoding(let failure)? = error as? DataSourceError else { return nil }
            return failure
        }
    }

    @Test func scalarsBesideAndAroundTheItemsAreReadInTheSamePass() throws {
        let json = """
        {"meta": {"total": 35, "page": "two"}, "data": {"next_cursor": "c2", "items": [{"id": 1, "title": "a"}, {"id": 2, "title": "b"}], "ratio": 0.5},
         "flag": true, "gone": null, "object": {"x": 1}, "list": [1]}
        """
        let paths = ["meta.total", "meta.page", "data.next_cursor", "data.ratio", "flag", "gone", "object", "list", "missing", "data.items.x", "meta.total.deeper", "meta..total"]
        let envelope = try decode(json, items: "data.items", scalars: paths)
        #expect(envelope.elements.map(\.id) == [1, 2])
        #expect(envelope.scalars == [
            "meta.total": .integer(35), "meta..total": .integer(35), "meta.page": .string("two"), "data.next_cursor": .string("c2"),
            "data.ratio": .number(0.5), "flag": .bool(true), "gone": .null,
        ])
    }

    @Test func aRootArrayHasNoScalarsAndARootObjectIsOneElementWithItsOwnScalars() throws {
        let array = try decode(#"[{"id": 1, "title": "a"}, {"id": 2, "title": "b"}]"#, items: "", scalars: ["page"])
        #expect(array.elements.map(\.id) == [1, 2])
        #expect(array.scalars.isEmpty)
        let single = try decode(#"{"id": 7, "title": "only"}"#, items: "", scalars: ["id", "title"])
        #expect(single.elements == [FixtureItem(id: 7, title: "only", group: nil)])
        #expect(single.scalars == ["id": .integer(7), "title": .string("only")])
    }

    @Test func aSingleObjectAtTheKeyPathIsOneElementAndScalarsBelowItAreRead() throws {
        let envelope = try decode(#"{"item": {"id": 3, "title": "x"}}"#, items: "item", scalars: ["item.id"])
        #expect(envelope.elements.map(\.id) == [3])
        #expect(envelope.scalars == ["item.id": .integer(3)])
    }

    @Test func aMissingKeyPathNamesTheFirstComponentThatIsAbsentOrUnderANonObject() {
        func missing(_ json: String, _ items: String) -> String? {
            guard let failure = error(json, items: items, scalars: ["page"]), case .keyPathNotFound(let at) = failure.problem else { return nil }
            #expect(failure.keyPath == items)
            return at
        }
        #expect(missing(#"{"data": {"items": []}}"#, "data.things") == "things")
        #expect(missing(#"{"data": {"items": []}}"#, "meta.items") == "meta")
        #expect(missing(#"{"data": {"items": [1]}}"#, "data.items.deeper") == "deeper")
        #expect(missing(#"{"data": null}"#, "data.items") == "items")
        #expect(missing(#"{"data": 5}"#, "data.items") == "items")
        #expect(missing(#"{"items": null}"#, "items") == "items")
        #expect(missing(#"[{"id": 1, "title": "a"}]"#, "items") == "items")
        #expect(missing(#"[{"id": 1, "title": "a"}]"#, "data.items") == "data")
        #expect(missing("null", "") == "<root>")
    }

    @Test func anElementThatDoesNotDecodeNamesItsIndexAndPath() {
        guard let failure = error(
            #"{"data": {"items": [{"id": 1, "title": "a"}, {"id": "two", "title": "b"}]}}"#, items: "data.items", scalars: ["data.page"]
        ), case .invalidElement(let index, let codingPath, let reason) = failure.problem else {
            Issue.record("expected elementDecoding")
            return
        }
        #expect(index == 1)
        #expect(failure.keyPath == "data.items")
        #expect(codingPath == "data.items.1.id" && reason == "expected Int")
        #expect(failure.message.hasSuffix("does not decode: expected Int at 'data.items.1.id'."))
        guard case .invalidElement(0, _, let single)? = error(#"{"items": "nope"}"#, items: "items")?.problem else {
            Issue.record("a string at the key path is element 0 failing")
            return
        }
        #expect(!single.isEmpty)
        guard case .invalidElement(0, let missingAt, let missingKey)? = error(#"{"item": {"id": 1}}"#, items: "item")?.problem else {
            Issue.record("a single object that does not decode is element 0")
            return
        }
        #expect(missingKey == "missing key 'title'" && missingAt == "item")
    }

    @Test(arguments: ["", "nope", #"{"items": [}"#, #"{"items": [{"id": 1, "title": "cut"#])
    func bodiesThatAreNotJSONAreTyped(body: String) {
        guard let failure = error(body, items: "items", scalars: ["page"]), case .notJSON(let excerpt) = failure.problem else {
            Issue.record("expected notJSON for \(body)")
            return
        }
        #expect(failure.url == url)
        #expect(excerpt == DataSourceError.excerpt(of: Data(body.utf8)))
    }
}

@Suite("Timeout watchdog (one timer for every request)", .timeLimit(.minutes(10)))
struct TimeoutWatchdogTests {
    final class Fired: @unchecked Sendable {
        private let lock = NSLock()
        private var entries: [(name: String, at: Duration)] = []
        /// Yields once per handler that ran, after recording it.
        let firings: AsyncStream<Void>
        private let continuation: AsyncStream<Void>.Continuation
        init() { (firings, continuation) = AsyncStream.makeStream() }
        func add(_ name: String, _ at: Duration) {
            lock.withLock { entries.append((name, at)) }
            continuation.yield()
        }
        var values: [(name: String, at: Duration)] { lock.withLock { entries } }
    }

    /// The timer is armed for the 4 s deadline first; the 0.1 s one watched next must re-arm
    /// it (else it would fire only with the 4 s one). Times are taken in the handlers, on the
    /// watchdog's queue, so a test thread that wakes late (a busy machine, a sanitizer run)
    /// delays the check, not the result: the late handler may have run by then, but only at
    /// its own deadline, after the early one.
    @Test func anEarlierDeadlineWatchedLaterStillFiresFirstAndUnwatchedOnesNeverFire() async throws {
        let watchdog = TimeoutWatchdog()
        let fired = Fired()
        let clock = ContinuousClock()
        let start = clock.now
        let late = watchdog.watch(after: 4) { fired.add("late", clock.now - start) }
        let cancelled = watchdog.watch(after: 0.05) { fired.add("cancelled", clock.now - start) }
        _ = watchdog.watch(after: 0.1) { fired.add("early", clock.now - start) }
        watchdog.unwatch(cancelled)
        // The watchdog runs on the wall clock (it takes no Clock): wait for its first firing.
        for await _ in fired.firings { break }
        watchdog.unwatch(late)
        let values = fired.values
        #expect(!values.map(\.name).contains("cancelled"), "an unwatched handler ran")
        #expect(values.first?.name == "early")
        if let early = values.first {
            #expect(early.at >= .milliseconds(100))
            #expect(early.at < .seconds(4), "fired only with the deadline watched first")
        }
        for entry in values.dropFirst() {
            #expect(entry.name == "late" && entry.at >= .seconds(4), "\(entry.name) fired at \(entry.at)")
        }
    }
}
