"""A stand-in OTLP/HTTP collector for bench/telemetry.sh: answers every POST with 200 and an empty
protobuf body, counts requests and bytes, and writes the counts to a JSON file on SIGTERM."""

import json
import signal
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

port, out = int(sys.argv[1]), sys.argv[2]
counts = {"requests": 0, "bytes": 0}


class Sink(BaseHTTPRequestHandler):
    def do_POST(self):
        length = int(self.headers.get("Content-Length", 0))
        self.rfile.read(length)
        counts["requests"] += 1
        counts["bytes"] += length
        self.send_response(200)
        self.send_header("Content-Type", "application/x-protobuf")
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, *args):
        pass


def stop(*_):
    with open(out, "w") as f:
        json.dump(counts, f)
    sys.exit(0)


signal.signal(signal.SIGTERM, stop)
ThreadingHTTPServer(("127.0.0.1", port), Sink).serve_forever()
