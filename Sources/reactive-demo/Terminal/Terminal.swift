#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Owns the terminal while the interactive demo runs: raw input, alternate screen, hidden
/// cursor. Everything is restored by ``release()`` and, through ``TerminalRestorer``, on
/// exit, Ctrl-C, SIGTERM and crash signals, and while suspended by Ctrl-Z.
enum Terminal {
    /// Whether stdout and stdin are terminals.
    static var isInteractive: Bool { isatty(STDOUT_FILENO) == 1 && isatty(STDIN_FILENO) == 1 }

    /// The terminal's size in columns and rows (80 x 24 if unknown).
    static var size: (width: Int, height: Int) {
        var size = winsize()
        guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0, size.ws_row > 0 else { return (80, 24) }
        return (Int(size.ws_col), Int(size.ws_row))
    }

    /// Enters raw mode (no echo, no line buffering; Ctrl-C still interrupts) and the
    /// alternate screen, and hides the cursor.
    static func take() {
        var settings = termios()
        tcgetattr(STDIN_FILENO, &settings)
        var raw = settings
        raw.c_lflag &= ~tcflag_t(ECHO | ICANON)
        withUnsafeMutableBytes(of: &raw.c_cc) { controls in
            controls[Int(VMIN)] = 1
            controls[Int(VTIME)] = 0
        }
        TerminalRestorer.arm(restoring: settings, raw: raw)
        tcsetattr(STDIN_FILENO, TCSANOW, &raw)
        write(takeSequence.description)
    }

    /// Restores the terminal (idempotent).
    static func release() {
        TerminalRestorer.restore()
    }

    /// Replaces the screen with `lines`, clearing what is left of each line and below
    /// (`clearing`: the whole screen first, after a resize or a return from suspension).
    /// A line as wide as the terminal gets no "erase to end of line": with the cursor
    /// parked on the last column, terminals erase that column's character.
    static func draw(_ lines: [String], width: Int, clearing: Bool = false) {
        let body = lines.map { DisplayWidth.of($0) < width ? $0 + "\u{1B}[K" : $0 }.joined(separator: "\r\n")
        write((clearing ? "\u{1B}[2J" : "") + "\u{1B}[H" + body + "\u{1B}[J")
    }

    /// Writes `text` to stdout unbuffered.
    static func write(_ text: String) {
        let bytes = Array(text.utf8)
        bytes.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            var offset = 0
            while offset < buffer.count {
                #if canImport(Glibc)
                let written = Glibc.write(STDOUT_FILENO, base + offset, buffer.count - offset)
                #else
                let written = Darwin.write(STDOUT_FILENO, base + offset, buffer.count - offset)
                #endif
                if written <= 0 { return }
                offset += written
            }
        }
    }
}
