import Foundation

/// A small JSON API on 127.0.0.1 (an ephemeral port) for `--url` runs of the demo: a Python
/// script (standard library only) started with `python3 -c`, which exits when this process
/// closes its stdin. Each test starts its own server, so request counts are its own.
///
/// Routes (every object is `{"id": n, "title": "Item n"}`; 12 objects, 5 a page unless
/// `page_size` says otherwise):
/// - `/numbered?page=N`: `{"data": {"items": [...]}, "page", "page_size", "number_of_pages",
///   "total_count"}` (the demo's default keys).
/// - `/numbered-bad2?page=N`: the same, but page 2 is not JSON.
/// - `/cursor?cursor=C`: `{"items": [...], "next_cursor": "cN" | null}`.
/// - `/linked?page=N`: a bare array, and `Link: <...?page=N+1>; rel="next"` while more remain.
/// - `/has-more?page=N`: `{"items": [...], "has_more": true | false}`.
/// - `/_count`: how many data requests were answered, as a bare number.
final class DemoAPIServer: @unchecked Sendable {
    /// The server's root URL, `http://127.0.0.1:<port>`.
    let baseURL: URL
    private let process: Process
    private let stdin: Pipe

    /// Starts the server and waits for its port.
    init() throws {
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", Self.script]
        stdin = Pipe()
        let stdout = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        try process.run()
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
            let chunk = stdout.fileHandleForReading.availableData
            if chunk.isEmpty { throw DemoAPIServerError.noPort(String(decoding: line, as: UTF8.self)) }
            line.append(chunk)
        }
        let text = String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard text.hasPrefix("PORT "), let port = Int(text.dropFirst(5)) else { throw DemoAPIServerError.noPort(text) }
        baseURL = URL(string: "http://127.0.0.1:\(port)")!
    }

    /// Stops the server (it exits when its stdin closes) and waits for it.
    func stop() {
        try? stdin.fileHandleForWriting.close()
        process.waitUntilExit()
    }

    /// The URL of `route` (such as `"/numbered"`).
    func url(_ route: String) -> String {
        baseURL.absoluteString + route
    }

    /// How many data requests the server answered.
    func requestCount() throws -> Int {
        let data = try Data(contentsOf: baseURL.appendingPathComponent("_count"))
        return Int(String(decoding: data, as: UTF8.self)) ?? -1
    }

    /// The server.
    static let script = #"""
import json, socket, sys, threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

LOCK = threading.Lock()
COUNT = [0]
TOTAL = 12

def items(page, size):
    start = (page - 1) * size + 1
    return [{"id": i, "title": "Item %d" % i} for i in range(start, min(TOTAL, start + size - 1) + 1)] if page >= 1 else []

class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    def log_message(self, *args): pass

    def send(self, status, body, headers=None):
        data = body if isinstance(body, bytes) else json.dumps(body).encode()
        head = "HTTP/1.1 %d X\r\nContent-Type: application/json\r\nContent-Length: %d\r\n" % (status, len(data))
        for name, value in (headers or {}).items():
            head += "%s: %s\r\n" % (name, value)
        self.wfile.write((head + "\r\n").encode() + data)

    def do_GET(self):
        url = urlsplit(self.path)
        query = {k: v[0] for k, v in parse_qs(url.query).items()}
        if url.path == "/_count":
            with LOCK: return self.send(200, str(COUNT[0]).encode())
        with LOCK: COUNT[0] += 1
        page = int(query.get("page", "1"))
        size = int(query.get("page_size", "5"))
        pages = (TOTAL + size - 1) // size
        if url.path in ("/numbered", "/numbered-bad2"):
            if url.path == "/numbered-bad2" and page == 2:
                return self.send(200, b'{"data": {"items": [{"id": 6, "title": ')
            return self.send(200, {"data": {"items": items(page, size)}, "page": page, "page_size": size,
                                   "number_of_pages": pages, "total_count": TOTAL})
        if url.path == "/cursor":
            start = int(query.get("cursor", "c0")[1:])
            chunk = [{"id": i, "title": "Item %d" % i} for i in range(start + 1, min(TOTAL, start + size) + 1)]
            nxt = "c%d" % (start + size) if start + size < TOTAL else None
            return self.send(200, {"items": chunk, "next_cursor": nxt})
        if url.path == "/linked":
            headers = {}
            if page < pages:
                headers["Link"] = '<%s?page=%d&page_size=%d>; rel="next"' % (url.path, page + 1, size)
            return self.send(200, items(page, size), headers)
        if url.path == "/has-more":
            return self.send(200, {"items": items(page, size), "has_more": page < pages})
        self.send(404, b"no such route")

server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
server.daemon_threads = True
print("PORT %d" % server.server_address[1], flush=True)
threading.Thread(target=server.serve_forever, daemon=True).start()
while sys.stdin.read(1):
    pass
"""#
}

/// Why the server could not start.
enum DemoAPIServerError: Error {
    /// The script did not print `PORT <n>`; what it printed instead.
    case noPort(String)
}
