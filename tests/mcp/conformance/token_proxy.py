#!/usr/bin/env python3
"""A loopback reverse proxy that adds `Authorization: Bearer $CANVAS_TOKEN` to every request.

The MCP conformance suite's server runner sends no credentials and the canvas MCP endpoint needs
them, so canvasctl/tests/mcp_conformance.rs puts this in between. Everything else passes through
as it came (method, path, headers, body, status, answer headers and body).

    CANVAS_TOKEN=svc_tk_... python3 token_proxy.py --upstream http://127.0.0.1:PORT

Prints `listening on http://127.0.0.1:PORT` once it accepts connections.
"""

from __future__ import annotations

import argparse
import http.server
import os
import urllib.error
import urllib.request

HOP_BY_HOP = {"connection", "keep-alive", "transfer-encoding", "te", "trailer", "upgrade", "host", "content-length"}


def handler(upstream: str, token: str) -> type[http.server.BaseHTTPRequestHandler]:
    class Proxy(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def relay(self) -> None:
            length = int(self.headers.get("content-length") or 0)
            body = self.rfile.read(length) if length else None
            headers = {k: v for k, v in self.headers.items() if k.lower() not in HOP_BY_HOP}
            headers["Authorization"] = f"Bearer {token}"
            request = urllib.request.Request(upstream + self.path, data=body, headers=headers, method=self.command)
            try:
                response = urllib.request.urlopen(request, timeout=60)
            except urllib.error.HTTPError as error:
                response = error
            data = response.read()
            self.send_response(response.status)
            for name, value in response.headers.items():
                if name.lower() not in HOP_BY_HOP:
                    self.send_header(name, value)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        do_GET = do_POST = do_DELETE = do_OPTIONS = relay

        def log_message(self, *args: object) -> None:
            pass

    return Proxy


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--upstream", required=True, help="the service's base URL, http://127.0.0.1:PORT")
    args = parser.parse_args()
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler(args.upstream.rstrip("/"), os.environ["CANVAS_TOKEN"]))
    print(f"listening on http://127.0.0.1:{server.server_address[1]}", flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
