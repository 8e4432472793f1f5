#!/usr/bin/env python3
"""A portal for notify-sched's tests: a real HTTP(S) server on 127.0.0.1.

    portal_server.py ROOT [--cert CERT --key KEY]

Prints the port it listens on as the first line of standard output, then serves until killed
(or stdin closes). Every request is appended to ROOT/requests.log as one JSON line with the
path and the request headers, so tests can check what the client sent.

Routes:
  /feeds/NAME              ROOT/NAME with an ETag (a digest of the bytes) and Last-Modified (the
                           file's mtime), answering 304 to a matching If-None-Match or
                           If-Modified-Since. If ROOT/NAME.status exists, it holds a status code
                           (and optionally a Retry-After value on a second line) sent instead.
                           If ROOT/NAME.cache-control exists, its text is sent as Cache-Control
                           with the 200 and the 304.
  /slow?seconds=N          waits N seconds (at most 30) before answering 200
  /endless                 200 without Content-Length, then zeros until the client goes away
                           (bounded: at most 256 MiB)
  /declared-huge           Content-Length of 1 GiB, then a few bytes
  /loop                    302 to /loop (a redirect loop)
  /chain/N                 302 to /chain/N-1 ... /chain/0 serves ROOT/feed.json
  /redirect?to=URL         302 to URL
  POST /collector/NAME     an OTLP collector: appends the body, one line, to ROOT/NAME.received
                           and answers 200 {}; if ROOT/NAME.answers exists, each request first
                           takes its first line ("503" or "429 RETRY-AFTER"), answered instead
                           and nothing kept, until no line is left
"""
import hashlib
import json
import os
import ssl
import sys
import threading
import time
import urllib.parse
from email.utils import formatdate, parsedate_to_datetime
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

ROOT = sys.argv[1]
COLLECTOR_LOCK = threading.Lock()


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def send(self, status, body=b"", headers=()):
        self.send_response(status)
        for name, value in headers:
            self.send_header(name, value)
        if status != 304:
            self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if status != 304:
            self.wfile.write(body)

    def do_GET(self):
        url = urllib.parse.urlsplit(self.path)
        query = urllib.parse.parse_qs(url.query)
        with open(os.path.join(ROOT, "requests.log"), "a") as log:
            log.write(json.dumps({"path": self.path, "headers": dict(self.headers.items())}) + "\n")
        if url.path.startswith("/feeds/"):
            self.serve_feed(url.path[len("/feeds/"):])
        elif url.path == "/slow":
            time.sleep(min(float(query.get("seconds", ["5"])[0]), 30))
            self.send(200, b'{"notifications": []}')
        elif url.path == "/endless":
            self.send_response(200)
            self.send_header("Connection", "close")
            self.end_headers()
            chunk = b"0" * 65536
            try:
                for _ in range(4096):
                    self.wfile.write(chunk)
            except (BrokenPipeError, ConnectionResetError):
                pass
            self.close_connection = True
        elif url.path == "/declared-huge":
            self.send_response(200)
            self.send_header("Content-Length", str(1 << 30))
            self.end_headers()
            try:
                self.wfile.write(b"{}")
            except (BrokenPipeError, ConnectionResetError):
                pass
            self.close_connection = True
        elif url.path == "/loop":
            self.send(302, headers=[("Location", "/loop")])
        elif url.path.startswith("/chain/"):
            left = int(url.path[len("/chain/"):])
            if left == 0:
                self.serve_feed("feed.json")
            else:
                self.send(302, headers=[("Location", "/chain/%d" % (left - 1))])
        elif url.path == "/redirect":
            self.send(302, headers=[("Location", query["to"][0])])
        else:
            self.send(404, b"not found")

    def do_POST(self):
        url = urllib.parse.urlsplit(self.path)
        body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        with open(os.path.join(ROOT, "requests.log"), "a") as log:
            log.write(json.dumps({"path": self.path, "method": "POST", "headers": dict(self.headers.items())}) + "\n")
        if not url.path.startswith("/collector/"):
            self.send(404, b"not found")
            return
        name = os.path.basename(url.path[len("/collector/"):])
        answers_path = os.path.join(ROOT, name + ".answers")
        with COLLECTOR_LOCK:
            if os.path.exists(answers_path):
                lines = [line for line in open(answers_path).read().split("\n") if line.strip()]
                if lines:
                    with open(answers_path, "w") as answers:
                        answers.write("\n".join(lines[1:]))
                    parts = lines[0].split()
                    headers = [("Retry-After", parts[1])] if len(parts) > 1 else []
                    self.send(int(parts[0]), b'{"error": "unavailable"}', headers)
                    return
            with open(os.path.join(ROOT, name + ".received"), "ab") as received:
                received.write(body.replace(b"\n", b" ") + b"\n")
        self.send(200, b"{}", [("Content-Type", "application/json")])

    def serve_feed(self, name):
        path = os.path.join(ROOT, os.path.basename(name))
        status_path = path + ".status"
        if os.path.exists(status_path):
            lines = open(status_path).read().split("\n")
            headers = [("Retry-After", lines[1])] if len(lines) > 1 and lines[1] else []
            self.send(int(lines[0]), b"unavailable", headers)
            return
        if not os.path.exists(path):
            self.send(404, b"not found")
            return
        body = open(path, "rb").read()
        etag = '"%s"' % hashlib.sha256(body).hexdigest()[:16]
        mtime = int(os.stat(path).st_mtime)
        headers = [("ETag", etag), ("Last-Modified", formatdate(mtime, usegmt=True))]
        if os.path.exists(path + ".cache-control"):
            headers.append(("Cache-Control", open(path + ".cache-control").read().strip()))
        if self.headers.get("If-None-Match") == etag:
            self.send(304, headers=headers)
            return
        since = self.headers.get("If-Modified-Since")
        if since and self.headers.get("If-None-Match") is None:
            try:
                if mtime <= parsedate_to_datetime(since).timestamp():
                    self.send(304, headers=headers)
                    return
            except (TypeError, ValueError):
                pass
        self.send(200, body, headers)


def main():
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    if "--cert" in sys.argv:
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(sys.argv[sys.argv.index("--cert") + 1], sys.argv[sys.argv.index("--key") + 1])
        server.socket = context.wrap_socket(server.socket, server_side=True)
    print(server.server_address[1], flush=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    # Ends with the test process: when the test closes (or loses) our stdin.
    sys.stdin.read()
    server.shutdown()


if __name__ == "__main__":
    main()
