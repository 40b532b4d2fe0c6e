#!/usr/bin/env python3
"""One MCP client creating N sticky notes with `create_items` over stateless 2026-07-28 JSON-RPC:
`direct N` calls without the tasks extension and gets the result in the answer; `task N` declares
`io.modelcontextprotocol/tasks`, gets a task handle and polls `tasks/get` at the `pollIntervalMs`
the handle suggests until the task completes, as a well-behaved client does; `handle N` only takes
the handle (what an agent waits for before it can go on). Every answer must be a result without
`isError` (the run fails otherwise). Timed from outside by hyperfine (bench/tasks.sh)."""

import argparse
import http.client
import json
import sys
import time
import urllib.parse

TASKS = "io.modelcontextprotocol/tasks"


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--url", required=True, help="the /mcp endpoint")
    parser.add_argument("--token", required=True)
    parser.add_argument("--project", required=True)
    parser.add_argument("mode", choices=["direct", "task", "handle"])
    parser.add_argument("count", type=int)
    args = parser.parse_args()
    url = urllib.parse.urlsplit(args.url)
    connection = http.client.HTTPConnection(url.hostname, url.port, timeout=120)
    declared = {"extensions": {TASKS: {}}} if args.mode != "direct" else {}

    def rpc(method: str, name: str, params: dict) -> dict:
        params["_meta"] = {
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientInfo": {"name": "tasks-bench", "version": "1"},
            "io.modelcontextprotocol/clientCapabilities": declared,
        }
        body = json.dumps({"jsonrpc": "2.0", "id": 1, "method": method, "params": params})
        headers = {
            "Authorization": f"Bearer {args.token}",
            "Content-Type": "application/json",
            "Accept": "application/json, text/event-stream",
            "Mcp-Protocol-Version": "2026-07-28",
            "Mcp-Method": method,
            "Mcp-Name": name,
        }
        connection.request("POST", url.path, body, headers)
        response = connection.getresponse()
        data = response.read()
        message = json.loads(data) if response.status == 200 else None
        if message is None or "result" not in message:
            raise SystemExit(f"{method}: {response.status} {data[:300]!r}")
        return message["result"]

    notes = [
        {"type": "sticky-note", "properties": {"text": f"Note {i}", "position": {"x": (i % 40) * 250, "y": (i // 40) * 150}}}
        for i in range(args.count)
    ]
    result = rpc("tools/call", "create_items", {"name": "create_items", "arguments": {"projectId": args.project, "items": notes}})
    if args.mode == "direct":
        if result.get("isError") or len(result["structuredContent"]["items"]) != args.count:
            raise SystemExit(f"not created: {json.dumps(result)[:300]}")
        return 0
    if result.get("resultType") != "task":
        raise SystemExit(f"no task handle: {json.dumps(result)[:300]}")
    if args.mode == "handle":
        return 0
    task, interval = result["taskId"], result["pollIntervalMs"] / 1000
    while result["status"] == "working":
        time.sleep(interval)
        result = rpc("tasks/get", task, {"taskId": task})
    done = result.get("result", {})
    if result["status"] != "completed" or done.get("isError") or len(done["structuredContent"]["items"]) != args.count:
        raise SystemExit(f"task ended {result['status']}: {json.dumps(result)[:300]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
