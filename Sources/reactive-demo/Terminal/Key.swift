#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A key press the demo understands.
enum Key: Equatable, Sendable {
    /// `n`: load the feed's next page.
    case nextPage
    /// `r`: refresh every section.
    case refresh
    /// `c`: cancel every fetch.
    case cancel
    /// `e`: make the next feed request fail.
    case injectFailure
    /// Up arrow or `k`: move the cursor up.
    case up
    /// Down arrow or `j`: move the cursor down.
    case down
    /// Space or Return: select or deselect the row under the cursor.
    case select
    /// `q`, Ctrl-C or Ctrl-D: quit.
    case quit

    /// Decodes keys from raw terminal bytes (arrow keys are `ESC [ A` / `ESC [ B`).
    static func decode(_ bytes: [UInt8]) -> [Key] {
        var keys: [Key] = []
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == 0x1B, index + 2 < bytes.count, bytes[index + 1] == UInt8(ascii: "[") {
                switch bytes[index + 2] {
                case UInt8(ascii: "A"): keys.append(.up)
                case UInt8(ascii: "B"): keys.append(.down)
                default: break
                }
                index += 3
                continue
            }
            switch byte {
            case UInt8(ascii: "n"): keys.append(.nextPage)
            case UInt8(ascii: "r"): keys.append(.refresh)
            case UInt8(ascii: "c"): keys.append(.cancel)
            case UInt8(ascii: "e"): keys.append(.injectFailure)
            case UInt8(ascii: "k"): keys.append(.up)
            case UInt8(ascii: "j"): keys.append(.down)
            case UInt8(ascii: " "), 0x0D, 0x0A: keys.append(.select)
            case UInt8(ascii: "q"), 0x03, 0x04: keys.append(.quit)
            default: break
            }
            index += 1
        }
        return keys
    }

    /// Reads keys from stdin forever, calling `handle` for each (on a background thread).
    static func readForever(_ handle: @escaping @Sendable (Key) -> Void) {
        var buffer = [UInt8](repeating: 0, count: 64)
        while true {
            let count = read(STDIN_FILENO, &buffer, buffer.count)
            if count <= 0 { handle(.quit); return }
            for key in decode(Array(buffer[0..<count])) { handle(key) }
        }
    }
}
