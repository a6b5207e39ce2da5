import Foundation

/// Runs the demo in a pseudo-terminal of a given size, as a user at a terminal would, and
/// reads the screen back through a small VT100 model.
///
/// A Python driver (standard library only, `python3 -c`) opens the pty and plays a small
/// shell: the demo runs in its own foreground process group, so Ctrl-Z stops it and the
/// driver can continue it as `fg` does. The driver executes ``Step``s in order; waits are for
/// screen content (checked on whole frames: output ending in "erase below") or process
/// events, each with a 30 s deadline that fails the step instead of hanging.
struct PTYSession {
    /// One thing the driver does.
    enum Step: Encodable {
        /// Waits until a whole frame on screen contains every one of the texts.
        case waitFor([String])
        /// Types the text (bytes as UTF-8; "\u{1A}" is Ctrl-Z, "\u{03}" Ctrl-C).
        case keys(String)
        /// Resizes the terminal (the kernel sends SIGWINCH to the demo).
        case resize(columns: Int, rows: Int)
        /// Records the screen under a name.
        case snapshot(String)
        /// Waits until the demo is stopped (job control).
        case waitStopped
        /// Continues the stopped demo in the foreground, as `fg` does.
        case foreground
        /// Sends a signal ("TERM", "INT", ...) to the demo's process group.
        case signal(String)
        /// Waits until the demo exits.
        case waitExit

        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            switch self {
            case .waitFor(let texts): try container.encode(["wait": texts])
            case .keys(let text): try container.encode(["keys": text])
            case .resize(let columns, let rows): try container.encode(["resize": [columns, rows]])
            case .snapshot(let name): try container.encode(["snapshot": name])
            case .waitStopped: try container.encode(["wait_stopped": ""])
            case .foreground: try container.encode(["foreground": ""])
            case .signal(let name): try container.encode(["signal": name])
            case .waitExit: try container.encode(["wait_exit": ""])
            }
        }
    }

    /// The screen and terminal state at one ``Step/snapshot(_:)``.
    struct Screen: Decodable {
        /// The visible lines, trailing spaces removed.
        let lines: [String]
        /// Whether the alternate screen is shown.
        let alternate: Bool
        /// Whether the cursor is shown.
        let cursorVisible: Bool
        /// Whether the terminal echoes input (false in the demo's raw mode).
        let echo: Bool
        /// Whether input is line-buffered (false in the demo's raw mode).
        let canonical: Bool
        /// Whether any output wrapped past the last column since the previous snapshot.
        let wrapped: Bool
        /// Whether any output scrolled the screen since the previous snapshot.
        let scrolled: Bool

        /// The visible lines joined, for `contains` checks.
        var text: String { lines.joined(separator: "\n") }
    }

    /// What the session saw.
    struct Result: Decodable {
        /// Each snapshot, by name.
        let screens: [String: Screen]
        /// How the demo ended: "exit N", "signal N", or "running" (then it was killed).
        let ended: String
        /// Steps that failed (a wait that timed out), with the screen at that moment.
        let errors: [String]
    }

    /// Runs the demo with `arguments` in a `columns` × `rows` terminal through `steps`.
    /// It runs on a thread of its own: the caller suspends meanwhile.
    static func run(_ arguments: [String], columns: Int, rows: Int, steps: [Step]) async throws -> Result {
        try await onOwnThread { try runBlocking(arguments, columns: columns, rows: rows, steps: steps) }
    }

    /// ``run(_:columns:rows:steps:)``, blocking the calling thread until the session ends.
    private static func runBlocking(_ arguments: [String], columns: Int, rows: Int, steps: [Step]) throws -> Result {
        struct Plan: Encodable {
            let argv: [String]
            let columns: Int
            let rows: Int
            let steps: [Step]
        }
        let plan = Plan(argv: [try DemoProcess.executable().path] + arguments, columns: columns, rows: rows, steps: steps)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script, String(decoding: try JSONEncoder().encode(plan), as: UTF8.self)]
        let output = Pipe()
        process.standardOutput = output
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return try decoder.decode(Result.self, from: data)
    }

    /// The driver.
    static let script = #"""
import fcntl, json, os, select, signal, struct, sys, termios, time, unicodedata

plan = json.loads(sys.argv[1])
COLS, ROWS = plan["columns"], plan["rows"]

class Screen:
    def __init__(self, cols, rows):
        self.main = None
        self.alternate = False
        self.cursor_visible = True
        self.wrapped = False
        self.scrolled = False
        self.frame_complete = False
        self.pending = b""
        self.resize(cols, rows)

    def resize(self, cols, rows):
        self.cols, self.rows = cols, rows
        self.grid = [[" "] * cols for _ in range(rows)]
        self.r = self.c = 0
        self.wrap_next = False

    def lines(self):
        return ["".join(ch for ch in row if ch is not None).rstrip() for row in self.grid]

    def newline(self):
        if self.r == self.rows - 1:
            self.scrolled = True
            self.grid = self.grid[1:] + [[" "] * self.cols]
        else:
            self.r += 1

    def put(self, ch):
        width = 2 if unicodedata.east_asian_width(ch) in ("W", "F") else (0 if unicodedata.combining(ch) else 1)
        if width == 0:
            return
        if self.wrap_next or self.c + width > self.cols:
            self.wrapped = True
            self.c = 0
            self.newline()
            self.wrap_next = False
        self.grid[self.r][self.c] = ch
        if width == 2 and self.c + 1 < self.cols:
            self.grid[self.r][self.c + 1] = None
        self.c += width
        if self.c >= self.cols:
            self.c = self.cols - 1
            self.wrap_next = True

    def csi(self, private, params, final):
        numbers = [int(p) if p else 0 for p in params.split(";")] if params else []
        self.wrap_next = False
        if final in "Hf":
            row = (numbers[0] if numbers and numbers[0] else 1) - 1
            col = (numbers[1] if len(numbers) > 1 and numbers[1] else 1) - 1
            self.r, self.c = min(row, self.rows - 1), min(col, self.cols - 1)
        elif final == "K":
            for c in range(self.c, self.cols):
                self.grid[self.r][c] = " "
        elif final == "J":
            mode = numbers[0] if numbers else 0
            if mode == 2:
                self.grid = [[" "] * self.cols for _ in range(self.rows)]
            else:
                for c in range(self.c, self.cols):
                    self.grid[self.r][c] = " "
                for r in range(self.r + 1, self.rows):
                    self.grid[r] = [" "] * self.cols
                self.frame_complete = True
        elif final in "hl" and private == "?":
            on = final == "h"
            for n in numbers:
                if n == 25:
                    self.cursor_visible = on
                elif n == 1049 and on != self.alternate:
                    if on:
                        self.main = (self.grid, self.r, self.c)
                        self.grid = [[" "] * self.cols for _ in range(self.rows)]
                    elif self.main is not None:
                        grid, self.r, self.c = self.main
                        self.grid = [(row + [" "] * self.cols)[:self.cols] for row in grid][:self.rows]
                        self.grid += [[" "] * self.cols for _ in range(self.rows - len(self.grid))]
                    self.alternate = on

    def feed(self, data):
        text = (self.pending + data)
        self.pending = b""
        try:
            decoded = text.decode("utf-8")
        except UnicodeDecodeError as error:
            decoded = text[:error.start].decode("utf-8")
            self.pending = text[error.start:]
        i = 0
        self.frame_complete = False
        while i < len(decoded):
            ch = decoded[i]
            if ch == "\x1b":
                if i + 1 >= len(decoded):
                    self.pending = decoded[i:].encode() + self.pending
                    break
                if decoded[i + 1] == "[":
                    j = i + 2
                    private = ""
                    if j < len(decoded) and decoded[j] in "?>=":
                        private = decoded[j]
                        j += 1
                    start = j
                    while j < len(decoded) and (decoded[j].isdigit() or decoded[j] == ";"):
                        j += 1
                    if j >= len(decoded):
                        self.pending = decoded[i:].encode() + self.pending
                        break
                    self.frame_complete = False
                    self.csi(private, decoded[start:j], decoded[j])
                    i = j + 1
                    continue
                i += 2
                continue
            self.frame_complete = False
            if ch == "\r":
                self.c = 0
                self.wrap_next = False
            elif ch == "\n":
                self.newline()
                self.wrap_next = False
            elif ch == "\b":
                self.c = max(0, self.c - 1)
            elif ch >= " ":
                self.put(ch)
            i += 1

master, slave = os.openpty()
fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", ROWS, COLS, 0, 0))
control_r, control_w = os.pipe()
events_r, events_w = os.pipe()
shell = os.fork()
if shell == 0:
    # The "shell": a session leader owning the terminal, running the demo as a job.
    os.close(master); os.close(control_w); os.close(events_r)
    os.setsid()
    fcntl.ioctl(slave, termios.TIOCSCTTY, 0)
    signal.signal(signal.SIGTTOU, signal.SIG_IGN)
    child = os.fork()
    if child == 0:
        os.setpgid(0, 0)
        os.tcsetpgrp(slave, os.getpgrp())
        # As a shell starts a job: default dispositions, nothing blocked (whatever the test
        # process that started the driver blocks or ignores).
        for number in (signal.SIGTTOU, signal.SIGINT, signal.SIGTERM, signal.SIGTSTP, signal.SIGQUIT,
                       signal.SIGHUP, signal.SIGPIPE, signal.SIGCONT, signal.SIGWINCH):
            signal.signal(number, signal.SIG_DFL)
        signal.pthread_sigmask(signal.SIG_SETMASK, [])
        for fd in (0, 1, 2):
            os.dup2(slave, fd)
        os.environ["TERM"] = "xterm-256color"
        os.execv(plan["argv"][0], plan["argv"])
    try:
        os.setpgid(child, child)
    except OSError:
        pass
    os.write(events_w, b"pid %d\n" % child)
    while True:
        _, status = os.waitpid(child, os.WUNTRACED)
        if os.WIFSTOPPED(status):
            os.tcsetpgrp(slave, os.getpgrp())
            os.write(events_w, b"stopped\n")
            os.read(control_r, 100)
            os.tcsetpgrp(slave, child)
            os.killpg(child, signal.SIGCONT)
            continue
        ended = "signal %d" % os.WTERMSIG(status) if os.WIFSIGNALED(status) else "exit %d" % os.WEXITSTATUS(status)
        os.write(events_w, ended.encode() + b"\n")
        os._exit(0)

os.close(slave); os.close(control_r); os.close(events_w)
screen = Screen(COLS, ROWS)
events = []
event_buffer = b""
demo = None
ended = "running"
errors = []
screens = {}

def pump(timeout):
    global event_buffer, demo, ended
    readable, _, _ = select.select([master, events_r], [], [], timeout)
    if master in readable:
        try:
            data = os.read(master, 65536)
        except OSError:
            data = b""
        if data:
            screen.feed(data)
    if events_r in readable:
        data = os.read(events_r, 1000)
        event_buffer += data
        while b"\n" in event_buffer:
            line, event_buffer = event_buffer.split(b"\n", 1)
            line = line.decode()
            if line.startswith("pid "):
                demo = int(line[4:])
            else:
                if line.startswith("exit") or line.startswith("signal"):
                    ended = line
                events.append(line)

def wait_until(condition, what):
    deadline = time.monotonic() + 30
    while not condition():
        left = deadline - time.monotonic()
        if left <= 0:
            errors.append("timed out waiting for %s; screen:\n%s" % (what, "\n".join(screen.lines())))
            return False
        pump(min(left, 0.5))
    return True

def attributes():
    try:
        lflag = termios.tcgetattr(master)[3]
        return bool(lflag & termios.ECHO), bool(lflag & termios.ICANON)
    except termios.error:
        return False, False

wait_until(lambda: demo is not None, "the demo's pid")
for step in plan["steps"]:
    if errors:
        break
    key, value = next(iter(step.items()))
    if key == "wait":
        wait_until(lambda: screen.frame_complete and all(t in "\n".join(screen.lines()) for t in value), "%r" % value)
    elif key == "keys":
        os.write(master, value.encode())
    elif key == "resize":
        fcntl.ioctl(master, termios.TIOCSWINSZ, struct.pack("HHHH", value[1], value[0], 0, 0))
        screen.resize(value[0], value[1])
    elif key == "snapshot":
        echo, canonical = attributes()
        screens[value] = {"lines": screen.lines(), "alternate": screen.alternate, "cursor_visible": screen.cursor_visible,
                          "echo": echo, "canonical": canonical, "wrapped": screen.wrapped, "scrolled": screen.scrolled}
        screen.wrapped = screen.scrolled = False
    elif key == "wait_stopped":
        wait_until(lambda: "stopped" in events, "the demo to stop")
        events.clear()
        # Drain what the demo wrote before it stopped.
        while select.select([master], [], [], 0)[0]:
            pump(0)
    elif key == "foreground":
        os.write(control_w, b"cont\n")
    elif key == "signal":
        os.killpg(demo, getattr(signal, "SIG" + value))
    elif key == "wait_exit":
        wait_until(lambda: ended != "running", "the demo to exit")
        while select.select([master], [], [], 0)[0]:
            before = screen.lines()
            pump(0)
            if screen.lines() == before:
                break

if ended == "running":
    try:
        os.killpg(demo, signal.SIGKILL)
    except OSError:
        pass
print(json.dumps({"screens": screens, "ended": ended, "errors": errors}))
"""#
}
