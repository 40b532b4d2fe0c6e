#!/usr/bin/env python3
"""Write-to-retrievable latency of the knowledge index, through the public REST API.

Creates labels one at a time in the demo project of a running `canvasctl up`, each with a word
no other item holds, and after each create polls `POST /api/v1/memory/retrieve` (every 10 ms, at
most 10 s) until the new label is cited. Prints p50, p95 and max of the create-to-cited time.
On an idle server this is the promise of issue 5: a new label is retrievable within one second.

    python3 bench/index_latency.py --credentials canvas-data/dev-credentials.json --count 50
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
import urllib.request
import uuid
from pathlib import Path


def call(base: str, token: str, method: str, path: str, body: dict | None = None) -> dict:
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(base + path, data=data, method=method)
    request.add_header("Authorization", f"Bearer {token}")
    request.add_header("Content-Type", "application/json")
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.loads(response.read())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--credentials", type=Path, required=True)
    parser.add_argument("--count", type=int, default=50)
    args = parser.parse_args()
    creds = json.loads(args.credentials.read_text())
    base, token, project = creds["baseUrl"], creds["token"], creds["projectId"]

    latencies: list[float] = []
    for n in range(min(args.count, 1000)):
        word = "zq" + uuid.uuid4().hex[:12]
        started = time.monotonic()
        item = call(base, token, "POST", f"/api/v2/projects/{project}/item/panel/label?jsonCasing=camel",
                    {"text": f"Latency probe {n}: {word}"})["itemId"]
        while True:
            reply = call(base, token, "POST", "/api/v1/memory/retrieve?jsonCasing=camel",
                         {"projectId": project, "query": word, "maxResults": 1})
            if any(c["id"] == item for c in reply["citations"]):
                latencies.append((time.monotonic() - started) * 1000)
                break
            if time.monotonic() - started > 10:
                sys.exit(f"label {item} was not retrievable after 10 s")
            time.sleep(0.01)
    latencies.sort()
    p95 = latencies[max(0, int(len(latencies) * 0.95) - 1)]
    print(f"{len(latencies)} labels: create-to-retrievable p50 {statistics.median(latencies):.0f} ms, "
          f"p95 {p95:.0f} ms, max {latencies[-1]:.0f} ms")


if __name__ == "__main__":
    main()
