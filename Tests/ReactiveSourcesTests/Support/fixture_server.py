#!/usr/bin/env python3
"""Fixture HTTP server for the ReactiveSources tests and playground scripts.

Standard library only. Listens on 127.0.0.1 with an ephemeral port, prints "PORT <n>" on
its first stdout line, and exits when its stdin closes (so it never outlives the test
process that started it). Every response is sent in one write with TCP_NODELAY.

Routes (all GET unless noted; every data route honours the /_script queue):
  /items?page=N&page_size=S&total=T    page-number pages:
      {"page", "page_size", "number_of_pages", "total_count", "items": [{"id", "title", "group"}]}
  /items-header                        same, but page and page size come in the
                                        X-Page / X-Page-Size request headers
  /cursor?cursor=C&page_size=S&total=T  {"data": {"items": [...]}, "next_cursor": "C"|null}
  /linked?page=N&page_size=S&total=T   a bare JSON array; `Link: <url>; rel="next"` header
  /se?page=N&pagesize=S&total=T        StackExchange-shaped: {"items": [...], "has_more": bool,
                                        "page", "page_size", "total", "quota_max", "quota_remaining"}
  /same?page=N                         the same 5 items for every page, claiming 1000 pages
  /nested                              {"data": {"items": [...]}}
  /single                              {"item": {"id": 1, "title": "only"}}
  /wrong-types                         items whose ids are strings
  /malformed                           a body that is not JSON
  /truncated                           a JSON body cut in the middle
  /empty                               {"items": []}
  /status/CODE                         that status with a short text body
  /slow?ms=M                           the /items page after M ms; records an abort if the
                                        client closes the connection while waiting
  Any data route also takes delay_ms=M (wait before answering), and gate=G (hold the answer
  until POST /_open?gate=G; records an abort if the client closes the connection meanwhile).
  /odd-pages                           {"page": "two", "page_size": -5, "number_of_pages": null,
                                        "total_count": 1, "items": [3 items]}
  /_requests                           JSON list of the requests seen since the last reset
  /_page                               a 5-item /items page, not recorded and not scripted (for
                                        tests that send thousands of requests)
  /_await?tag=T&q=Q&ended=0|1&aborted=0|1&count=N
                                       answers {"ok": true} once N (default 1) data requests
                                        tagged T (with q=Q if given) have arrived (ended=1: and
                                        completed or aborted; aborted=1: and aborted);
                                        {"ok": false} after 30 s. One long poll, no polling.
  POST /_open?gate=G                   releases the requests held at gate G (and later ones)
  POST /_reset                         forget requests and the script
  POST /_script?tag=T                  JSON list of actions applied to the next data requests
                                        whose query has tag=T, one per request, in order:
                                        {"delay_ms": 200} | {"status": 500, "body": "boom"} |
                                        {"body": "raw text"} | {"drop": true} (close, no reply);
                                        a status or body action may add "headers": {"Name": "value"}
"""
import json
import math
import select
import socket
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlencode, urlsplit

LOCK = threading.Lock()
CHANGED = threading.Condition(LOCK)  # notified whenever REQUESTS or GATES change
GATES = set()  # opened gates
REQUESTS = []
SCRIPT = {}  # tag -> list of actions


def make_items(start, count):
    return [{"id": i, "title": "Item %d" % i, "group": "G%d" % (i % 3)} for i in range(start, start + count)]


def page_slice(page, size, total):
    start = (page - 1) * size
    count = max(0, min(size, total - start))
    return make_items(start + 1, count) if page >= 1 else []


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def setup(self):
        super().setup()
        self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

    def log_message(self, *args):
        pass

    # -- plumbing -------------------------------------------------------------------------
    def reply(self, status, body, content_type="application/json", headers=None):
        if isinstance(body, (dict, list)) or body is None:
            body = json.dumps(body)
        data = body.encode("utf-8") if isinstance(body, str) else body
        lines = ["HTTP/1.1 %d %s" % (status, self.responses.get(status, ("Status",))[0]),
                 "Content-Type: %s" % content_type,
                 "Content-Length: %d" % len(data),
                 "Connection: keep-alive"]
        for name, value in (headers or {}).items():
            lines.append("%s: %s" % (name, value))
        head = ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1")
        self.wfile.write(head + data)

    def client_closed_during(self, seconds):
        """Sleeps up to `seconds`; returns True if the client closed the connection."""
        deadline = time.monotonic() + seconds
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return False
            readable, _, _ = select.select([self.connection], [], [], min(remaining, 0.02))
            if readable:
                try:
                    if self.connection.recv(1, socket.MSG_PEEK) == b"":
                        return True
                except OSError:
                    return True

    def held_until_closed(self, gate):
        """Waits until `gate` is opened; returns True if the client closed the connection first."""
        while True:
            with LOCK:
                if gate in GATES:
                    return False
                CHANGED.wait(0.02)
                if gate in GATES:
                    return False
            if self.client_closed_during(0.001):
                return True

    def record(self, entry):
        with LOCK:
            REQUESTS.append(entry)
            CHANGED.notify_all()
            return len(REQUESTS) - 1

    def update(self, index, **changes):
        with LOCK:
            REQUESTS[index].update(changes)
            CHANGED.notify_all()

    # -- routes -------------------------------------------------------------------------
    def do_POST(self):
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else b""
        path = urlsplit(self.path).path
        if path == "/_reset":
            with LOCK:
                REQUESTS.clear()
                SCRIPT.clear()
            return self.reply(200, {"ok": True})
        if path == "/_script":
            tag = parse_qs(urlsplit(self.path).query).get("tag", [""])[-1]
            with LOCK:
                SCRIPT.setdefault(tag, []).extend(json.loads(body or b"[]"))
            return self.reply(200, {"ok": True})
        if path == "/_open":
            gate = parse_qs(urlsplit(self.path).query).get("gate", [""])[-1]
            with LOCK:
                GATES.add(gate)
                CHANGED.notify_all()
            return self.reply(200, {"ok": True})
        return self.reply(404, "no such route", "text/plain")

    def do_GET(self):
        parts = urlsplit(self.path)
        path = parts.path
        query = {k: v[-1] for k, v in parse_qs(parts.query).items()}
        if path == "/_requests":
            with LOCK:
                return self.reply(200, list(REQUESTS))
        if path == "/_page":
            return self.route("/items", {"page": "1", "page_size": "5", "total": "100"})
        if path == "/_await":
            def seen():
                return sum(1 for r in REQUESTS if r["query"].get("tag") == query.get("tag")
                           and ("q" not in query or r["query"].get("q") == query["q"])
                           and (query.get("ended") != "1" or r["completed"] or r["aborted"])
                           and (query.get("aborted") != "1" or r["aborted"])) >= int(query.get("count", "1"))
            with LOCK:
                ok = CHANGED.wait_for(seen, timeout=30)
            return self.reply(200, {"ok": bool(ok)})

        index = self.record({"path": path, "query": query, "completed": False, "aborted": False,
                             "headers": {k.lower(): v for k, v in self.headers.items()
                                         if k.lower().startswith("x-")}})
        with LOCK:
            queue = SCRIPT.get(query.get("tag", ""), [])
            action = queue.pop(0) if queue else {}
        delay = float(action.get("delay_ms", 0)) / 1000.0
        if path == "/slow":
            delay += float(query.get("ms", "1000")) / 1000.0
        delay += float(query.get("delay_ms", "0")) / 1000.0
        if delay > 0 and self.client_closed_during(delay):
            self.update(index, aborted=True)
            self.close_connection = True
            return
        if "gate" in query and self.held_until_closed(query["gate"]):
            self.update(index, aborted=True)
            self.close_connection = True
            return
        if action.get("drop"):
            self.update(index, aborted=True)
            self.close_connection = True
            try:
                self.connection.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            return
        if "status" in action or "body" in action:
            self.reply(int(action.get("status", 200)), action.get("body", ""), "application/json",
                       headers=action.get("headers"))
            return self.update(index, completed=True)
        try:
            self.route(path, query)
            self.update(index, completed=True)
        except (BrokenPipeError, ConnectionResetError):
            self.update(index, aborted=True)

    def route(self, path, query):
        size = int(query.get("page_size", "10"))
        total = int(query.get("total", "35"))
        page = int(query.get("page", "1"))
        if path in ("/items", "/slow", "/items-header"):
            if path == "/items-header":
                page = int(self.headers.get("X-Page", "1"))
                size = int(self.headers.get("X-Page-Size", "10"))
            pages = math.ceil(total / size) if size > 0 else 0
            return self.reply(200, {"page": page, "page_size": size, "number_of_pages": pages,
                                    "total_count": total, "items": page_slice(page, size, total)})
        if path == "/cursor":
            page = int(query.get("cursor", "c1")[1:])
            pages = math.ceil(total / size)
            next_cursor = "c%d" % (page + 1) if page < pages else None
            return self.reply(200, {"data": {"items": page_slice(page, size, total)}, "next_cursor": next_cursor})
        if path == "/linked":
            pages = math.ceil(total / size)
            headers = {}
            if page < pages:
                host = self.headers.get("Host")
                def link(number):
                    params = dict(query, page=str(number))
                    return "http://%s/linked?%s" % (host, urlencode(params))
                headers["Link"] = '<%s>; rel="next", <%s>; rel="first"' % (link(page + 1), link(1))
            return self.reply(200, page_slice(page, size, total), headers=headers)
        if path == "/se":
            size = int(query.get("pagesize", "30"))
            items = page_slice(page, size, total)
            return self.reply(200, {"items": items, "has_more": page * size < total, "page": page,
                                    "page_size": size, "total": total, "quota_max": 300, "quota_remaining": 299})
        if path == "/same":
            return self.reply(200, {"page": page, "page_size": 5, "number_of_pages": 1000,
                                    "total_count": 5000, "items": make_items(1, 5)})
        if path == "/nested":
            return self.reply(200, {"data": {"items": make_items(1, 3)}})
        if path == "/single":
            return self.reply(200, {"item": {"id": 1, "title": "only", "group": "G1"}})
        if path == "/wrong-types":
            return self.reply(200, {"items": [{"id": 1, "title": "ok", "group": "G1"},
                                              {"id": "two", "title": "bad", "group": "G2"}]})
        if path == "/malformed":
            return self.reply(200, "<html>this is not json</html>", "text/html")
        if path == "/truncated":
            return self.reply(200, '{"items": [{"id": 1, "title": "cut')
        if path == "/empty":
            return self.reply(200, {"items": []})
        if path == "/odd-pages":
            return self.reply(200, {"page": "two", "page_size": -5, "number_of_pages": None,
                                    "total_count": 1, "items": make_items(1, 3)})
        if path.startswith("/status/"):
            code = int(path.split("/")[-1])
            return self.reply(code, "status %d: the fixture server says no" % code, "text/plain")
        return self.reply(404, "no such route", "text/plain")


class Server(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True

    def handle_error(self, request, client_address):
        """Stays quiet when a client closes its connection (tests cancel requests on purpose)."""
        if isinstance(sys.exc_info()[1], (ConnectionResetError, BrokenPipeError)):
            return
        super().handle_error(request, client_address)


def main():
    server = Server(("127.0.0.1", 0), Handler)
    print("PORT %d" % server.server_address[1], flush=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        while sys.stdin.read(1):
            pass
    except (KeyboardInterrupt, OSError):
        pass


if __name__ == "__main__":
    main()
