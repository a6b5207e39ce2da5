import Foundation
import Testing

/// Piped `--url` runs against a local API (``DemoAPIServer``): they end by themselves, page
/// the API and nothing else, and report a failed page with a non-zero status.
@Suite(.timeLimit(.minutes(10))) struct URLRunTests {
    @Test func aMalformedSecondPageEndsTheRunWithTheErrorAndStatus1() async throws {
        let server = try DemoAPIServer()
        defer { server.stop() }
        let run = try await DemoProcess.run(["--url", server.url("/numbered-bad2"), "--pages", "5"], limit: .seconds(30))
        #expect(run.status == 1, "the run must end by itself and fail (status \(run.status))")
        #expect(run.stderr.hasPrefix("reactive-demo: the feed's page 2 failed: "), "\(run.stderr)")
        #expect(run.stderr.filter { $0 == "\n" }.count == 1, "\(run.stderr)")
        // The probe, page 1 and one attempt at page 2: no retry.
        #expect(try server.requestCount() == 3)
        // The log says what failed; the table still shows page 1.
        #expect(run.lines.contains { $0.contains("feed: page 1 of 3, 5 objects, next page failed") })
        #expect(run.lines.contains("   [ ] #5 Item 5"))
        #expect(!run.lines.contains { $0.contains("key e") || $0.contains("key c") }, "no simulated failure on a real API")
    }

    @Test func aGoodAPIIsPagedAsAskedAndTheRunSucceeds() async throws {
        let server = try DemoAPIServer()
        defer { server.stop() }
        let run = try await DemoProcess.run(["--url", server.url("/numbered"), "--pages", "2"], limit: .seconds(30))
        #expect(run.status == 0)
        #expect(run.stderr.isEmpty, "\(run.stderr)")
        #expect(try server.requestCount() == 3)
        #expect(run.lines.contains { $0.contains("feed: page 2 of 3, 10 objects, next page available") })
        #expect(run.lines.contains("   [ ] #10 Item 10"))
        #expect(!run.lines.contains { $0.contains("✖ Error") })
    }

    /// Cursor, `Link`-header and has-more paging each load the 12 objects in 3 pages, then
    /// stop: one probe and three page requests.
    @Test(arguments: [
        ["--url", "/cursor", "--key-path", "items", "--paging", "cursor"],
        ["--url", "/linked", "--key-path", "", "--paging", "link"],
        ["--url", "/has-more", "--key-path", "items", "--has-more-key", "has_more"],
    ])
    func everyPagingKindLoadsEveryPageThenStops(arguments: [String]) async throws {
        let server = try DemoAPIServer()
        defer { server.stop() }
        let resolved = arguments.map { $0.hasPrefix("/") ? server.url($0) : $0 }
        let run = try await DemoProcess.run(resolved + ["--pages", "10"], limit: .seconds(30))
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.isEmpty, "\(run.stderr)")
        #expect(try server.requestCount() == 4)
        #expect(run.lines.contains { $0.contains("feed: page 3 of ?, 12 objects, next page none") }, "\(run.stdout)")
        #expect(run.lines.contains("   [ ] #12 Item 12"))
        #expect(run.lines.filter { $0.hasPrefix("   [ ] #") }.count == 12)
    }
}
