#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// The saved terminal settings, restored from signal handlers (which may only touch globals).
nonisolated(unsafe) private var savedSettings = termios()
nonisolated(unsafe) private var terminalIsTaken = false

/// Escape sequence that leaves the alternate screen, shows the cursor and resets colours.
private let restoreSequence: [UInt8] = Array("\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l".utf8)

/// Restores the terminal. Async-signal-safe: only tcsetattr and write.
private func restoreTerminalNow() {
    guard terminalIsTaken else { return }
    terminalIsTaken = false
    tcsetattr(STDIN_FILENO, TCSANOW, &savedSettings)
    restoreSequence.withUnsafeBufferPointer { _ = write(STDOUT_FILENO, $0.baseAddress, $0.count) }
}

/// Owns the terminal while the interactive demo runs: raw input, alternate screen, hidden
/// cursor. Restores everything on ``release()``, on Ctrl-C / SIGTERM, and on crash signals.
enum Terminal {
    /// Whether stdout and stdin are terminals.
    static var isInteractive: Bool { isatty(STDOUT_FILENO) == 1 && isatty(STDIN_FILENO) == 1 }

    /// The terminal's width in columns (80 if unknown).
    static var width: Int {
        var size = winsize()
        guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return 80 }
        return Int(size.ws_col)
    }

    /// The terminal's height in rows (24 if unknown).
    static var height: Int {
        var size = winsize()
        guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_row > 0 else { return 24 }
        return Int(size.ws_row)
    }

    /// Enters raw mode and the alternate screen, and installs the restoring handlers.
    static func take() {
        tcgetattr(STDIN_FILENO, &savedSettings)
        var raw = savedSettings
        raw.c_lflag &= ~tcflag_t(ECHO | ICANON)
        tcsetattr(STDIN_FILENO, TCSANOW, &raw)
        terminalIsTaken = true
        atexit { restoreTerminalNow() }
        for signalNumber in [SIGINT, SIGTERM, SIGHUP] {
            signal(signalNumber) { number in
                restoreTerminalNow()
                _exit(128 + number)
            }
        }
        for signalNumber in [SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGABRT, SIGFPE] {
            signal(signalNumber) { number in
                restoreTerminalNow()
                signal(number, SIG_DFL)
                raise(number)
            }
        }
        write("\u{1B}[?1049h\u{1B}[?25l")
    }

    /// Restores the terminal (idempotent).
    static func release() {
        restoreTerminalNow()
    }

    /// Replaces the screen with `lines`.
    static func draw(_ lines: [String]) {
        let body = lines.map { $0 + "\u{1B}[K" }.joined(separator: "\r\n")
        write("\u{1B}[H" + body + "\u{1B}[J")
    }

    static func write(_ text: String) {
        let bytes = Array(text.utf8)
        bytes.withUnsafeBufferPointer { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = Glibc.write(STDOUT_FILENO, buffer.baseAddress! + offset, buffer.count - offset)
                if written <= 0 { return }
                offset += written
            }
        }
    }
}
