#!/usr/bin/env python3
"""One client's view of creating many items: `single N` makes N sticky notes with N sequential
`POST .../item/panel/sticky-note` calls over one keep-alive connection; `bulk N` makes the same N
notes with one `POST .../items/bulk`; `diagram` posts a 60-node Mermaid flowchart to
`POST .../diagrams`. Every answer must be a 200 (the run fails otherwise). Timed from outside by
hyperfine (bench/bulk.sh)."""

import argparse
import http.client
import json
import sys
import urllib.parse


def flowchart60() -> str:
    """60 nodes: a binary tree of 40, a chain of 10 in a subgraph, 10 checks in a second subgraph
    between them, with labelled, dotted, thick and long edges."""
    lines = ["flowchart TD"]
    for i in range(1, 40):
        lines.append(f"    n{(i - 1) // 2}[Step {(i - 1) // 2}] --> n{i}(Step {i})")
    lines.append("    subgraph chain [A chain]")
    for i in range(40, 50):
        lines.append(f"        c{i}[Chain {i}] -->|next| c{i + 1}[Chain {i + 1}]" if i < 49 else f"        c{i}[Chain {i}]")
    lines.append("    end")
    lines.append("    subgraph side [Checks]")
    for i in range(50, 60):
        lines.append(f"        s{i}{{{{Check {i}}}}}")
    lines.append("    end")
    for i in range(50, 60):
        lines.append(f"    n{i - 30} -.-> s{i} ==> c{40 + (i - 50)}")
    lines.append("    n0 --> c40")
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--base", required=True)
    parser.add_argument("--token", required=True)
    parser.add_argument("--project", required=True)
    parser.add_argument("mode", choices=["single", "bulk", "diagram", "print-flowchart"])
    parser.add_argument("count", type=int, nargs="?", default=1000)
    args = parser.parse_args()
    if args.mode == "print-flowchart":
        print(flowchart60())
        return 0
    url = urllib.parse.urlsplit(args.base)
    connection = http.client.HTTPConnection(url.hostname, url.port, timeout=120)
    headers = {"Authorization": f"Bearer {args.token}", "Content-Type": "application/json"}
    prefix = f"/api/v2/projects/{args.project}"

    def post(path: str, body: object) -> None:
        connection.request("POST", prefix + path, json.dumps(body), headers)
        response = connection.getresponse()
        data = response.read()
        if response.status != 200:
            raise SystemExit(f"POST {path}: {response.status} {data[:300]!r}")

    note = lambda i: {"text": f"Note {i}", "position": {"x": (i % 40) * 250, "y": (i // 40) * 150}}
    if args.mode == "single":
        for i in range(args.count):
            post("/item/panel/sticky-note", note(i))
    elif args.mode == "bulk":
        post("/items/bulk", {"items": [{"type": "sticky-note", "properties": note(i)} for i in range(args.count)]})
    else:
        post("/diagrams", {"format": "mermaid", "source": flowchart60()})
    return 0


if __name__ == "__main__":
    sys.exit(main())
