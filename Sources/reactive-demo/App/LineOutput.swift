import Foundation

/// Writes whole lines to stdout, one at a time, from any thread.
final class LineOutput: @unchecked Sendable {
    /// Keeps lines from different threads whole.
    private let lock = NSLock()
    /// When the output was created: time zero of ``log(_:)``.
    private let started = ContinuousClock.now

    /// Writes `line`.
    func print(_ line: String) {
        lock.withLock {
            FileHandle.standardOutput.write(Data((line + "\n").utf8))
        }
    }

    /// Writes `text` after the seconds elapsed since this output was created, as `[ 0.123s]`.
    func log(_ text: String) {
        let elapsed = (ContinuousClock.now - started) / .seconds(1)
        print(String(format: "[%6.3fs] ", elapsed) + text)
    }
}
