import Foundation
import Testing

/// Runs the built `reactive-demo` non-interactively (stdout piped) and checks what it prints
/// and how it exits.
@Suite(.timeLimit(.minutes(10))) struct DemoProcessTests {
    @Test func pipedRunLogsEventsThenPrintsTheFinalTableAndExits() async throws {
        // The scripted refresh is cancelled right after it starts: the latency must outlast
        // any stall of the demo between the two calls, or the refresh finishes first.
        let run = try await DemoProcess.run(["--latency", "100"])
        #expect(run.status == 0)
        #expect(run.stderr.isEmpty)
        let lines = run.lines

        // The event log, each line stamped with the elapsed time.
        let blank = try #require(lines.firstIndex(of: ""))
        let log = lines[..<blank].map { line -> String in
            #expect(line.range(of: #"^\[ *\d+\.\d{3}s\] "#, options: .regularExpression) != nil, "\(line)")
            return String(line.drop { $0 != "]" }.dropFirst(2))
        }
        for expected in [
            "fetching every section",
            "Poem: will load", "Feed: will load", "Photos: will load",
            "Poem: finished (8 objects)", "Feed: finished (5 objects)", "Photos: finished (6 objects)",
            "all sections settled: loaded",
            "feed: page 2 of 5, 10 objects, next page available",
            "feed: page 3 of 5, 15 objects, next page available",
            "Feed: failed: The fetch was cancelled.",
            "feed: page 3 of 5, 15 objects, next page available, refresh cancelled",
            "fail the next fetch (key e)",
            "select poem line 3 (key space): selected lines 2, 3",
            "deselect poem line 2 (key space): selected lines 3",
            "deselect poem line 3 (key space) refused: Poem must keep at least 1 selected row.",
            "Photos: partially loaded (1 object)",
        ] {
            #expect(log.contains(expected), "missing log line: \(expected)")
        }
        #expect(log.contains { $0.hasPrefix("feed: page 3 of 5, 15 objects, next page failed (HTTP 503 from https://feed.example/posts?page=4&page_size=5: injected failure (key e))") })
        #expect(log.filter { $0.hasSuffix("partially loaded (6 objects)") && $0.hasPrefix("Photos") }.count == 1)

        // The final table: titles in order, rows, placeholders, selection, status lines.
        let table = Array(lines[(blank + 1)...])
        #expect(table.first == "ReactiveSources demo")
        let titles = table.filter { $0.hasPrefix("── ") }.map { $0.dropFirst(3).components(separatedBy: " ─").first ?? "" }
        #expect(titles == ["Poem", "Feed", "Photos", "Photos · landscape", "Photos · people", "Photos · portrait"])
        #expect(table.contains("── Poem ──────────────────────────────────────────────────────────────── 8 items"))
        #expect(table.contains("── Feed ─────────────────────────────────────────────────────────────── 15 items"))
        #expect(table.contains("   [ ]  1  The data arrives in pieces, late,"))
        #expect(table.contains("   [x]  3  a source observes, a view is drawn,"))
        #expect(table.filter { $0.hasPrefix("   [x]") }.count == 1)
        #expect(table.filter { $0.hasPrefix("   [ ] #") }.count == 15)
        #expect(table.contains("   [ ] #15 Notes on diffing #15 — barbara"))
        #expect(table.contains { $0.hasPrefix("       ✖ Error: HTTP 503 from https://feed.example/posts?page=4") })
        #expect(table.contains("   [ ] 📷 Team lunch (people)"))
        #expect(table.allSatisfy { $0.count <= 80 })

        let rule = try #require(table.firstIndex(of: String(repeating: "═", count: 80)))
        let status = table[(rule + 1)...]
        #expect(status.count == 3)
        #expect(status.first == "state: loaded · page 3 of 5 · 15 of 23 results · next page: failed")
        let timings = try #require(status.dropFirst().first)
        #expect(timings.range(of: #"^fetch times: Poem \d+ ms · Feed \d+ ms · Photos \d+ ms$"#, options: .regularExpression) != nil, "\(timings)")
        #expect(status.last?.hasPrefix("next page failed (n retries): HTTP 503") == true)
    }

    @Test func aBadFlagValueIsAOneLineErrorWithStatus2() async throws {
        for arguments in [["--page-size", "abc"], ["--page-size", "0"], ["--nope"], ["--url"]] {
            let run = try await DemoProcess.run(arguments)
            #expect(run.status == 2, "\(arguments)")
            #expect(run.stdout.isEmpty)
            #expect(run.stderr.hasPrefix("reactive-demo: "))
            #expect(run.stderr.filter { $0 == "\n" }.count == 1 && run.stderr.hasSuffix("\n"), "\(run.stderr)")
        }
        let run = try await DemoProcess.run(["--page-size", "abc"])
        #expect(run.stderr == "reactive-demo: option '--page-size' needs a whole number from 1 to 100, not 'abc'\n")
    }

    @Test func anUnreachableURLIsAOneLineErrorAndAFailure() async throws {
        // Port 1 on the loopback interface: nothing listens, the connection is refused.
        let run = try await DemoProcess.run(["--url", "http://127.0.0.1:1/"])
        #expect(run.status == 1)
        #expect(run.stdout.isEmpty)
        #expect(run.stderr.hasPrefix("reactive-demo: cannot use --url http://127.0.0.1:1/: "))
        #expect(run.stderr.filter { $0 == "\n" }.count == 1 && run.stderr.hasSuffix("\n"), "\(run.stderr)")
    }

    @Test func helpListsTheFlagsAndExits() async throws {
        let run = try await DemoProcess.run(["--help"])
        #expect(run.status == 0)
        #expect(run.stderr.isEmpty)
        for flag in ["--url", "--key-path", "--page-key", "--page-size-key", "--pages-key", "--total-key",
                     "--page-param", "--page-size-param", "--page-size", "--latency", "--pages", "--log", "--help"] {
            #expect(run.stdout.contains(flag + " "), "\(flag)")
        }
    }
}
