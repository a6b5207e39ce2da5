#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Owns the terminal while the interactive demo runs: raw input, alternate screen, hidden
/// cursor. Everything is restored by ``release()`` and, through ``TerminalRestorer``, on
/// exit, Ctrl-C, SIGTERM and crash signals.
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
        TerminalRestorer.arm(restoring: settings)
        var raw = settings
        raw.c_lflag &= ~tcflag_t(ECHO | ICANON)
        withUnsafeMutableBytes(of: &raw.c_cc) { controls in
            controls[Int(VMIN)] = 1
            controls[Int(VTIME)] = 0
        }
        tcsetattr(STDIN_FILENO, TCSANOW, &raw)
        write("\u{1B}[?1049h\u{1B}[?25l")
    }

    /// Restores the terminal (idempotent).
    static func release() {
        TerminalRestorer.restore()
    }

    /// Replaces the screen with `lines`, clearing what is left of each line and below.
    static func draw(_ lines: [String]) {
        let body = lines.map { $0 + "\u{1B}[K" }.joined(separator: "\r\n")
        write("\u{1B}[H" + body + "\u{1B}[J")
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
