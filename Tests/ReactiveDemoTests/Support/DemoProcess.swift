import Foundation

/// Runs the built `reactive-demo` executable with stdout and stderr piped and stdin empty,
/// as CI would.
struct DemoProcess {
    /// What a run printed and how it ended.
    struct Result {
        /// The exit status.
        let status: Int32
        /// Everything written to stdout.
        let stdout: String
        /// Everything written to stderr.
        let stderr: String

        /// Standard output split into lines (without the final empty one).
        var lines: [String] {
            var lines = stdout.components(separatedBy: "\n")
            if lines.last == "" { lines.removeLast() }
            return lines
        }
    }

    /// The executable, found next to the test bundle (both live in the build's bin directory).
    static func executable() throws -> URL {
        var directories: [URL] = []
        if let executable = Bundle.main.executableURL { directories.append(executable.deletingLastPathComponent()) }
        directories.append(Bundle.main.bundleURL)
        directories.append(Bundle.main.bundleURL.deletingLastPathComponent())
        for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
            directories.append(bundle.bundleURL.deletingLastPathComponent())
        }
        let candidates = directories.map { $0.appendingPathComponent("reactive-demo") }
        guard let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) }) else {
            throw DemoProcessError.executableNotFound(searched: candidates.map(\.path))
        }
        return found
    }

    /// Runs the demo with `arguments` and waits for it to exit. A run still going after
    /// `limit` is killed (SIGKILL), so a demo that never ends fails its test instead of
    /// hanging it; ``Result/status`` then says 9 was the signal.
    /// It runs on a thread of its own: the caller suspends meanwhile.
    static func run(_ arguments: [String], limit: DispatchTimeInterval = .seconds(60)) async throws -> Result {
        try await onOwnThread { try runBlocking(arguments, limit: limit) }
    }

    /// ``run(_:limit:)``, blocking the calling thread until the demo has exited.
    private static func runBlocking(_ arguments: [String], limit: DispatchTimeInterval) throws -> Result {
        let process = Process()
        process.executableURL = try executable()
        process.arguments = arguments
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let pid = process.processIdentifier
        let watchdog = DispatchWorkItem { kill(pid, SIGKILL) }
        DispatchQueue.global().asyncAfter(deadline: .now() + limit, execute: watchdog)
        defer { watchdog.cancel() }
        // Drain stderr on another thread so neither pipe can fill up and block the demo.
        let errorData = DataBox()
        let drained = DispatchSemaphore(value: 0)
        Thread {
            errorData.data = errors.fileHandleForReading.readDataToEndOfFile()
            drained.signal()
        }.start()
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        drained.wait()
        process.waitUntilExit()
        return Result(
            status: process.terminationStatus,
            stdout: String(decoding: outputData, as: UTF8.self),
            stderr: String(decoding: errorData.data, as: UTF8.self)
        )
    }
}

/// Why the demo could not be run.
enum DemoProcessError: Error, CustomStringConvertible {
    /// No executable `reactive-demo` at any of the `searched` paths.
    case executableNotFound(searched: [String])

    /// The problem in one line.
    var description: String {
        switch self {
        case .executableNotFound(let searched):
            return "reactive-demo not found (build it with `swift build`); looked at \(searched.joined(separator: ", "))"
        }
    }
}

/// Carries stderr's bytes from the draining thread; the semaphore orders write and read.
private final class DataBox: @unchecked Sendable {
    /// The bytes read.
    var data = Data()
}
