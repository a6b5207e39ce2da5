import Foundation

/// A temporary text file of numbered lines, removed when the value is dropped by `remove()`.
struct PoemFile {
    /// Where the file is.
    let url: URL

    /// Writes `lines` (plus blank lines in between, which the demo skips) to a new file.
    init(lines: [String]) throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("demo-poem-\(UUID().uuidString).txt")
        try lines.joined(separator: "\n\n").write(to: url, atomically: true, encoding: .utf8)
    }

    /// Deletes the file.
    func remove() {
        try? FileManager.default.removeItem(at: url)
    }
}
