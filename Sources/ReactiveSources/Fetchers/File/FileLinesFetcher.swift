import Foundation

/// Reads a UTF-8 text file and delivers its lines, in batches of up to `batchSize` lines
/// (so a large file shows up progressively as partial loads).
///
/// Lines are split on `\n` (a trailing `\r` is removed); a final empty line after the last
/// newline is not a line. The file is read in chunks of `chunkSize` bytes, so memory stays
/// bounded by the chunk and the batch, not the file.
///
/// Errors are ``DataSourceError/file(_:)`` naming the path: ``FileFetchError/notFound(path:)`` for a missing file,
/// ``FileFetchError/unreadable(path:reason:)`` for a directory or unreadable file,
/// ``FileFetchError/invalidUTF8(path:byteOffset:)`` for bytes that are not UTF-8; lines
/// before the bad bytes have already been delivered. Cancellation is checked between chunks.
public struct FileLinesFetcher: Fetcher {
    /// The file to read.
    public let url: URL
    /// The most lines per delivered batch (at least 1).
    public let batchSize: Int
    /// How many bytes are read at a time (at least 1).
    public let chunkSize: Int
    /// Whether empty lines are skipped.
    public let skipsEmptyLines: Bool

    /// Creates a fetcher for the file at `url`.
    public init(url: URL, batchSize: Int = 1_000, chunkSize: Int = 64 * 1024, skipsEmptyLines: Bool = false) {
        self.url = url
        self.batchSize = max(1, batchSize)
        self.chunkSize = max(1, chunkSize)
        self.skipsEmptyLines = skipsEmptyLines
    }

    /// Creates a fetcher for the file at `path`.
    public init(path: String, batchSize: Int = 1_000, chunkSize: Int = 64 * 1024, skipsEmptyLines: Bool = false) {
        self.init(url: URL(fileURLWithPath: path), batchSize: batchSize, chunkSize: chunkSize, skipsEmptyLines: skipsEmptyLines)
    }

    /// Delivers the results to `sink` in one or more batches (see ``Fetcher``). Throws a typed error that says what went wrong; stops when the task is cancelled.
    public func fetch(into sink: FetchSink<String>) async throws {
        let path = url.path
        let handle = try open(path)
        defer { try? handle.close() }

        var pending: [UInt8] = []
        var consumed = 0 // bytes of the file before `pending`
        var batch: [String] = []
        var delivered = false
        func emit(_ lineBytes: ArraySlice<UInt8>, at offset: Int) throws {
            var bytes = lineBytes
            if bytes.last == UInt8(ascii: "\r") { bytes.removeLast() }
            guard let line = String(validating: bytes, as: UTF8.self) else {
                throw DataSourceError.file(.invalidUTF8(path: path, byteOffset: offset + Self.firstInvalidOffset(in: bytes)))
            }
            if skipsEmptyLines && line.isEmpty { return }
            batch.append(line)
        }
        while true {
            try Task.checkCancellation()
            let chunk: Data
            do {
                chunk = try handle.read(upToCount: chunkSize) ?? Data()
            } catch {
                throw DataSourceError.file(.unreadable(path: path, reason: error.localizedDescription))
            }
            if chunk.isEmpty { break }
            pending.append(contentsOf: chunk)
            var lineStart = 0
            while let newline = pending[lineStart...].firstIndex(of: UInt8(ascii: "\n")) {
                try emit(pending[lineStart..<newline], at: consumed + lineStart)
                lineStart = newline + 1
                if batch.count >= batchSize {
                    await sink.deliver(batch)
                    delivered = true
                    batch.removeAll(keepingCapacity: true)
                }
            }
            consumed += lineStart
            pending.removeFirst(lineStart)
        }
        if !pending.isEmpty { try emit(pending[...], at: consumed) }
        if !batch.isEmpty || !delivered { await sink.deliver(batch) }
    }

    private func open(_ path: String) throws -> FileHandle {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw DataSourceError.file(.notFound(path: path))
        }
        if isDirectory.boolValue { throw DataSourceError.file(.unreadable(path: path, reason: "it is a directory")) }
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw DataSourceError.file(.unreadable(path: path, reason: "permission denied or I/O error"))
        }
        return handle
    }

    /// The offset of the first byte that breaks UTF-8 decoding in `bytes`.
    private static func firstInvalidOffset(in bytes: ArraySlice<UInt8>) -> Int {
        var decoder = UTF8()
        var iterator = bytes.makeIterator()
        var offset = 0
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar): offset += UTF8.width(scalar)
            case .emptyInput: return offset
            case .error: return offset
            }
        }
    }
}
