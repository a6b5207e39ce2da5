import Foundation
import Testing

/// The demo on a terminal (a pseudo-terminal read through a VT100 model): laid out for the
/// terminal's size, redrawn on resize, and the terminal restored on Ctrl-Z, SIGTERM and
/// Ctrl-C, and taken back on `fg`.
@Suite(.timeLimit(.minutes(10))) struct TerminalRunTests {
    static let sectionHeaders = ["── Poem ", "── Feed ", "── Photos ", "── Photos · landscape ", "── Photos · people ", "── Photos · portrait "]

    @Test func at80x24EverySectionHelpAndCursorAreOnScreenAndAResizeRedrawsFor120x40() async throws {
        let result = try await PTYSession.run(["--latency", "20"], columns: 80, rows: 24, steps: [
            .waitFor(["state: loaded", "── Photos · portrait "]),
            .snapshot("loaded"),
            // Twelve rows down: past the poem's 8 lines, onto the feed's fourth post.
            .keys(String(repeating: "j", count: 12)),
            .waitFor(["▸ [ ] #4 "]),
            .snapshot("cursor"),
            .resize(columns: 120, rows: 40),
            .waitFor(["n next page · r refresh · c cancel · e fail next fetch · ↑/↓ move · space select · q quit"]),
            .snapshot("wide"),
            .keys("q"),
            .waitExit,
            .snapshot("after"),
        ])
        #expect(result.errors.isEmpty, "\(result.errors)")
        #expect(result.ended == "exit 0")

        let loaded = try #require(result.screens["loaded"])
        #expect(loaded.alternate && !loaded.echo && !loaded.canonical && !loaded.cursorVisible)
        #expect(!loaded.wrapped && !loaded.scrolled, "every line fits 80 columns and the frame 24 lines:\n\(loaded.text)")
        for header in Self.sectionHeaders {
            #expect(loaded.lines.contains { $0.hasPrefix(header) }, "\(header) in\n\(loaded.text)")
        }
        // Without a cursor the poem (first) has the room: all 8 lines.
        #expect(loaded.lines.filter { $0.hasPrefix("   [ ]  ") }.count == 8, "\(loaded.text)")
        // The whole key reminder, abbreviated and wrapped.
        for key in ["n page", "r refresh", "c cancel", "e fail", "↑↓ move", "space sel", "q quit"] {
            #expect(loaded.text.contains(key), "\(key) in\n\(loaded.text)")
        }

        let cursor = try #require(result.screens["cursor"])
        #expect(!cursor.wrapped && !cursor.scrolled)
        #expect(cursor.lines.contains { $0.hasPrefix(" ▸ [ ] #4 ") })
        // The feed has the room now; the poem is folded to its header.
        #expect(!cursor.lines.contains { $0.hasPrefix("   [ ]  1 ") }, "\(cursor.text)")
        #expect(cursor.lines.filter { $0.hasPrefix("   [ ] #") }.count >= 4, "\(cursor.text)")
        for header in Self.sectionHeaders {
            #expect(cursor.lines.contains { $0.hasPrefix(header) }, "\(header) in\n\(cursor.text)")
        }

        let wide = try #require(result.screens["wide"])
        #expect(wide.lines.count == 40 && wide.lines.allSatisfy { $0.count <= 120 })
        #expect(!wide.wrapped && !wide.scrolled, "\(wide.text)")
        #expect(wide.lines.contains { $0.hasPrefix(" ▸ [ ] #4 ") })
        #expect(wide.lines.contains { $0.hasPrefix("── Feed ") && $0.hasSuffix(" 5 items") && $0.count == 120 })
        // At 40 lines the feed and the poem both fit whole.
        #expect(wide.lines.filter { $0.hasPrefix("   [ ]  ") }.count == 8, "\(wide.text)")

        let after = try #require(result.screens["after"])
        #expect(!after.alternate && after.echo && after.canonical && after.cursorVisible)
    }

    @Test func ctrlZRestoresTheTerminalFgTakesItBackAndRedrawsAndSIGTERMRestoresIt() async throws {
        let result = try await PTYSession.run(["--latency", "20"], columns: 80, rows: 24, steps: [
            .waitFor(["state: loaded"]),
            .keys("\u{1A}"),
            .waitStopped,
            .snapshot("stopped"),
            .foreground,
            .waitFor(["state: loaded", "── Poem "]),
            .snapshot("resumed"),
            .signal("TERM"),
            .waitExit,
            .snapshot("terminated"),
        ])
        #expect(result.errors.isEmpty, "\(result.errors)")
        #expect(result.ended == "signal 15")

        let stopped = try #require(result.screens["stopped"])
        #expect(!stopped.alternate && stopped.echo && stopped.canonical && stopped.cursorVisible)
        let resumed = try #require(result.screens["resumed"])
        #expect(resumed.alternate && !resumed.echo && !resumed.canonical && !resumed.cursorVisible)
        for header in Self.sectionHeaders {
            #expect(resumed.lines.contains { $0.hasPrefix(header) }, "\(header) in\n\(resumed.text)")
        }
        let terminated = try #require(result.screens["terminated"])
        #expect(!terminated.alternate && terminated.echo && terminated.canonical && terminated.cursorVisible)
    }

    @Test func ctrlCRestoresTheTerminalAndEndsByTheSignal() async throws {
        let result = try await PTYSession.run(["--latency", "20"], columns: 80, rows: 24, steps: [
            .waitFor(["state: loaded"]),
            .keys("\u{03}"),
            .waitExit,
            .snapshot("interrupted"),
        ])
        #expect(result.errors.isEmpty, "\(result.errors)")
        #expect(result.ended == "signal 2")
        let interrupted = try #require(result.screens["interrupted"])
        #expect(!interrupted.alternate && interrupted.echo && interrupted.canonical && interrupted.cursorVisible)
    }
}
