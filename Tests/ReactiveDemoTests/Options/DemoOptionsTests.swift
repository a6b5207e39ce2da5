import Foundation
import Testing
@testable import reactive_demo

/// Flag parsing: defaults, every flag, and a typed one-line error for each mistake.
@Suite struct DemoOptionsTests {
    @Test func noFlagsGiveTheDefaults() throws {
        let options = try DemoOptions.parse([])
        #expect(options == DemoOptions())
        #expect(options.url == nil)
        #expect(options.pageSize == 5)
        #expect(options.keyPath == "data.items")
    }

    @Test func everyFlagSetsItsField() throws {
        let options = try DemoOptions.parse([
            "--url", "http://127.0.0.1:8080/api", "--key-path", "results", "--page-key", "meta.page",
            "--page-size-key", "meta.size", "--pages-key", "meta.pages", "--total-key", "meta.count",
            "--page-param", "pg", "--page-size-param", "per", "--page-size", "7", "--latency", "0",
            "--pages", "4", "--log", "--paging", "cursor", "--cursor-key", "meta.next", "--cursor-param", "after",
            "--has-more-key", "meta.more",
        ])
        var expected = DemoOptions()
        expected.url = URL(string: "http://127.0.0.1:8080/api")
        expected.keyPath = "results"
        expected.pageKey = "meta.page"
        expected.pageSizeKey = "meta.size"
        expected.numberOfPagesKey = "meta.pages"
        expected.totalCountKey = "meta.count"
        expected.pageParameter = "pg"
        expected.pageSizeParameter = "per"
        expected.pageSize = 7
        expected.latencyMilliseconds = 0
        expected.pages = 4
        expected.forceLog = true
        expected.paging = .cursor
        expected.cursorKey = "meta.next"
        expected.cursorParameter = "after"
        expected.hasMoreKey = "meta.more"
        #expect(options == expected)
        #expect(try DemoOptions.parse(["-h"]).showHelp)
        #expect(try DemoOptions.parse(["--help"]).showHelp)
    }

    static let mistakes: [([String], DemoOptionsError, String)] = [
        (["--page-size", "abc"], .invalidNumber(flag: "--page-size", value: "abc", range: 1...100),
         "option '--page-size' needs a whole number from 1 to 100, not 'abc'"),
        (["--page-size", "0"], .invalidNumber(flag: "--page-size", value: "0", range: 1...100),
         "option '--page-size' needs a whole number from 1 to 100, not '0'"),
        (["--latency", "10001"], .invalidNumber(flag: "--latency", value: "10001", range: 0...10_000),
         "option '--latency' needs a whole number from 0 to 10000, not '10001'"),
        (["--pages", "-1"], .invalidNumber(flag: "--pages", value: "-1", range: 1...100),
         "option '--pages' needs a whole number from 1 to 100, not '-1'"),
        (["--pages", "2.5"], .invalidNumber(flag: "--pages", value: "2.5", range: 1...100),
         "option '--pages' needs a whole number from 1 to 100, not '2.5'"),
        (["--url"], .missingValue("--url"), "option '--url' needs a value (see --help)"),
        (["--url", "--log"], .missingValue("--url"), "option '--url' needs a value (see --help)"),
        (["--log", "--key-path"], .missingValue("--key-path"), "option '--key-path' needs a value (see --help)"),
        (["--url", "ftp://example.com/x"], .invalidURL("ftp://example.com/x"), "'ftp://example.com/x' is not an http(s) URL with a host"),
        (["--url", "http://"], .invalidURL("http://"), "'http://' is not an http(s) URL with a host"),
        (["--url", "not a url"], .invalidURL("not a url"), "'not a url' is not an http(s) URL with a host"),
        (["--frobnicate"], .unknownFlag("--frobnicate"), "unknown option '--frobnicate' (see --help)"),
        (["extra"], .unknownFlag("extra"), "unknown option 'extra' (see --help)"),
        (["--url", "http://x.test/", "--paging", "offset"], .invalidChoice(flag: "--paging", value: "offset", choices: ["page", "cursor", "link"]),
         "option '--paging' needs one of page, cursor, link, not 'offset'"),
        (["--paging", "link"], .needsURL("--paging"), "option '--paging' needs --url (the simulated API pages by number)"),
    ]

    @Test(arguments: mistakes)
    func aMistakeGivesItsTypedError(arguments: [String], error: DemoOptionsError, message: String) {
        #expect(throws: error) { try DemoOptions.parse(arguments) }
        #expect(error.description == message)
        #expect(!message.contains("\n"))
    }

    /// Every flag listed in `--help` is accepted, and every accepted flag is listed.
    @Test func helpListsEveryFlagAndOnlyRealOnes() throws {
        let listed = Set(DemoOptions.help.split(whereSeparator: { $0 == " " || $0 == "," || $0 == "\n" })
            .map(String.init).filter { $0.hasPrefix("-") && $0.count > 1 })
        let accepted: [String: [String]] = [
            "--url": ["http://localhost/"], "--key-path": ["a.b"], "--page-key": ["p"], "--page-size-key": ["s"],
            "--pages-key": ["n"], "--total-key": ["t"], "--page-param": ["p"], "--page-size-param": ["s"],
            "--page-size": ["3"], "--latency": ["1"], "--pages": ["2"], "--log": [], "-h": [], "--help": [],
            "--paging": ["page"], "--cursor-key": ["c"], "--cursor-param": ["c"], "--has-more-key": ["m"],
        ]
        #expect(listed == Set(accepted.keys))
        for (flag, value) in accepted {
            #expect(throws: Never.self, "\(flag)") { try DemoOptions.parse([flag] + value) }
        }
    }
}
