import Testing
@testable import reactive_demo

/// Raw terminal bytes decode to the demo's keys.
@Suite struct KeyTests {
    @Test func lettersSpaceAndControlKeys() {
        #expect(Key.decode(Array("nrceq".utf8)) == [.nextPage, .refresh, .cancel, .injectFailure, .quit])
        #expect(Key.decode([0x20, 0x0D, 0x0A]) == [.select, .select, .select])
        #expect(Key.decode([0x03]) == [.quit])
        #expect(Key.decode([0x04]) == [.quit])
        #expect(Key.decode(Array("jk".utf8)) == [.down, .up])
    }

    @Test func arrowKeys() {
        #expect(Key.decode([0x1B, 0x5B, 0x41, 0x1B, 0x5B, 0x42]) == [.up, .down])
        // Right/left arrows are ignored; the bytes after them still decode.
        #expect(Key.decode([0x1B, 0x5B, 0x43, 0x6E]) == [.nextPage])
    }

    @Test func otherBytesAreIgnored() {
        #expect(Key.decode(Array("xyz".utf8)).isEmpty)
        #expect(Key.decode([0x1B]).isEmpty)
        #expect(Key.decode([]).isEmpty)
    }
}
