#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

// State read by signal handlers, which may only touch plain globals and call
// async-signal-safe functions (tcsetattr, write, sigaction, signal, raise).

// The two settings live in allocations of `termios`'s full stride: a global `termios`
// variable is laid out shorter than the copies the compiler makes into it (AddressSanitizer
// reports a global buffer overflow on `savedSettings = settings`).
/// The terminal settings to restore.
nonisolated(unsafe) private let savedSettings = UnsafeMutablePointer<termios>.allocate(capacity: 1)
/// The settings the demo runs with (raw input), put back after a suspension.
nonisolated(unsafe) private let rawSettings = UnsafeMutablePointer<termios>.allocate(capacity: 1)
/// Set by SIGWINCH and SIGCONT, taken by the drawing loop.
private let redrawRequested = Atomic<Bool>(false)
/// Whether the terminal is currently taken (raw mode, alternate screen, hidden cursor).
nonisolated(unsafe) private var terminalIsTaken = false
/// Each signal's action before ours, indexed by signal number.
nonisolated(unsafe) private let previousActions = UnsafeMutablePointer<sigaction>.allocate(capacity: 128)

/// Leaves the alternate screen, shows the cursor and resets colours.
private let restoreSequence: StaticString = "\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l"
/// Enters the alternate screen and hides the cursor.
let takeSequence: StaticString = "\u{1B}[?1049h\u{1B}[?25l"

/// Puts raw input, the alternate screen and the hidden cursor back. Async-signal-safe.
private func retakeTerminalNow() {
    terminalIsTaken = true
    tcsetattr(STDIN_FILENO, TCSANOW, rawSettings)
    _ = write(STDOUT_FILENO, takeSequence.utf8Start, takeSequence.utf8CodeUnitCount)
}

/// SIGTSTP (Ctrl-Z): restores the terminal, stops the process as the default action would,
/// and, once continued (`fg`), takes the terminal again and asks for a redraw.
private func suspend(_ number: Int32) {
    let wasTaken = terminalIsTaken
    restoreTerminalNow()
    signal(SIGTSTP, SIG_DFL)
    var pending = sigset_t()
    sigemptyset(&pending)
    sigaddset(&pending, SIGTSTP)
    sigprocmask(SIG_UNBLOCK, &pending, nil)
    raise(SIGTSTP)
    // Continued.
    installSuspendHandler()
    if wasTaken { retakeTerminalNow() }
    redrawRequested.store(true, ordering: .releasing)
}

/// SIGCONT: takes the terminal again if it was taken (after a SIGSTOP the shell may have
/// reset it) and asks for a redraw. SIGWINCH: asks for a redraw.
private func requestRedraw(_ number: Int32) {
    if number == SIGCONT && terminalIsTaken { retakeTerminalNow() }
    redrawRequested.store(true, ordering: .releasing)
}

/// Installs `handler` for `number` (no `SA_SIGINFO`, system calls restarted).
private func install(_ number: Int32, _ handler: @convention(c) (Int32) -> Void) {
    var action = sigaction()
    #if canImport(Glibc)
    action.__sigaction_handler.sa_handler = handler
    #else
    action.__sigaction_u.__sa_handler = handler
    #endif
    sigemptyset(&action.sa_mask)
    action.sa_flags = SA_RESTART
    sigaction(number, &action, nil)
}

/// Installs ``suspend(_:)`` for SIGTSTP.
private func installSuspendHandler() {
    install(SIGTSTP) { suspend($0) }
}

/// Restores the terminal if it is taken. Async-signal-safe.
private func restoreTerminalNow() {
    guard terminalIsTaken else { return }
    terminalIsTaken = false
    tcsetattr(STDIN_FILENO, TCSANOW, savedSettings)
    _ = write(STDOUT_FILENO, restoreSequence.utf8Start, restoreSequence.utf8CodeUnitCount)
}

/// A signal handler that takes `siginfo_t` and the machine context.
private typealias InfoHandler = @convention(c) (Int32, UnsafeMutablePointer<siginfo_t>?, UnsafeMutableRawPointer?) -> Void

/// Restores the terminal, runs the signal's previous handler (such as the Swift runtime's
/// crash reporter) if there was one, then ends the process by the signal's default action,
/// so it ends as it would have without us, even when that handler returns.
private func restoreAndForward(_ number: Int32, _ info: UnsafeMutablePointer<siginfo_t>?, _ context: UnsafeMutableRawPointer?) {
    restoreTerminalNow()
    let previous = previousActions[Int(number)]
    #if canImport(Glibc)
    let infoHandler = previous.__sigaction_handler.sa_sigaction
    let plainHandler = previous.__sigaction_handler.sa_handler
    #else
    let infoHandler = previous.__sigaction_u.__sa_sigaction
    let plainHandler = previous.__sigaction_u.__sa_handler
    #endif
    if previous.sa_flags & SA_SIGINFO != 0, let infoHandler {
        infoHandler(number, info, context)
    } else if let plainHandler, !isDefaultOrIgnore(previous) {
        plainHandler(number)
    }
    signal(number, SIG_DFL)
    raise(number)
}

/// Whether `action` is `SIG_DFL` or `SIG_IGN` (the handler values 0 and 1).
private func isDefaultOrIgnore(_ action: sigaction) -> Bool {
    guard action.sa_flags & SA_SIGINFO == 0 else { return false }
    #if canImport(Glibc)
    let handler = action.__sigaction_handler.sa_handler
    #else
    let handler = action.__sigaction_u.__sa_handler
    #endif
    guard let handler else { return true }
    return unsafeBitCast(handler, to: Int.self) <= 1
}

/// Whether `action` is `SIG_IGN`.
private func isIgnore(_ action: sigaction) -> Bool {
    guard isDefaultOrIgnore(action) else { return false }
    #if canImport(Glibc)
    let handler = action.__sigaction_handler.sa_handler
    #else
    let handler = action.__sigaction_u.__sa_handler
    #endif
    return handler.map { unsafeBitCast($0, to: Int.self) == 1 } ?? false
}

/// Puts the terminal back however the process ends: normal exit (`atexit`), Ctrl-C, SIGTERM,
/// SIGHUP, and the crash signals; and while it is suspended: Ctrl-Z (SIGTSTP) restores the
/// terminal before stopping, `fg` (SIGCONT) takes it again and asks for a redraw, as a
/// resize (SIGWINCH) does.
enum TerminalRestorer {
    /// Signals after which the terminal is restored before the process ends.
    static let signals: [Int32] = [SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGABRT, SIGFPE]

    /// Remembers `settings` as the ones to restore and `raw` as the ones to run with, and
    /// installs the handlers (once).
    static func arm(restoring settings: termios, raw: termios) {
        savedSettings.pointee = settings
        rawSettings.pointee = raw
        terminalIsTaken = true
        installOnce
    }

    /// Whether a redraw was asked for (by SIGWINCH or SIGCONT) since the last call.
    static func takeRedrawRequest() -> Bool {
        redrawRequested.exchange(false, ordering: .acquiringAndReleasing)
    }

    /// Restores the terminal now (idempotent).
    static func restore() {
        restoreTerminalNow()
    }

    /// Installs `atexit` and the signal handlers the first time it is read.
    private static let installOnce: Void = {
        // Initialised here, before any handler can read it.
        redrawRequested.store(false, ordering: .relaxed)
        atexit { restoreTerminalNow() }
        for number in signals {
            var action = sigaction()
            let handler: InfoHandler = { restoreAndForward($0, $1, $2) }
            #if canImport(Glibc)
            action.__sigaction_handler.sa_sigaction = handler
            #else
            action.__sigaction_u.__sa_sigaction = handler
            #endif
            sigemptyset(&action.sa_mask)
            action.sa_flags = SA_SIGINFO
            sigaction(number, &action, previousActions + Int(number))
            // A signal the process was told to ignore (nohup) stays ignored.
            if isIgnore(previousActions[Int(number)]) {
                sigaction(number, previousActions + Int(number), nil)
            }
        }
        installSuspendHandler()
        install(SIGCONT) { requestRedraw($0) }
        install(SIGWINCH) { requestRedraw($0) }
    }()
}
