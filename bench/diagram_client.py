#!/usr/bin/env python3
"""One client's view of diagram records (bench/diagram_records.sh): `create` posts a 200-node
Mermaid flowchart to `POST .../diagrams` and prints its diagramId; `update ID` sends the same
flowchart with one node's text changed (a fresh text each run, so every run changes something) to
`PUT .../diagrams/ID`; `classes` posts a 100-class Mermaid class diagram (two attributes and a
method each, an inheritance tree and 10 associations); `bulk N` creates N sticky notes with one `POST .../items/bulk` (the
baseline of the same run). Every answer must be a 200 (the run fails otherwise)."""

import argparse
import http.client
import json
import sys
import urllib.parse
import uuid


def flowchart200(changed: str = "") -> str:
    """200 nodes: a binary tree of 150 and a chain of 50 in a subgraph hanging off its root; node
    n7's text is `Step 7` plus `changed`."""
    lines = ["flowchart TD"]
    text = lambda i: f"Step {i}{changed}" if i == 7 else f"Step {i}"
    lines.append(f"    n0[{text(0)}]")
    for i in range(1, 150):
        lines.append(f"    n{(i - 1) // 2} --> n{i}[{text(i)}]")
    lines.append("    subgraph chain [A chain]")
    for i in range(150, 200):
        lines.append(f"        c{i}[Chain {i}]" + (f" --> c{i + 1}" if i < 199 else ""))
    lines.append("    end")
    lines.append("    n0 --> c150")
    return "\n".join(lines)


def class_diagram100() -> str:
    """100 classes, each with two attributes and one method; C0 is the root of a tree of
    inheritance (three children each), and every tenth class is associated with one five further on."""
    lines = ["classDiagram"]
    for i in range(100):
        lines += [f"    class C{i} {{", f"        +String name{i}", f"        -int count{i}", f"        +run{i}(input) bool", "    }"]
    for i in range(1, 100):
        lines.append(f"    C{(i - 1) // 3} <|-- C{i}")
    for i in range(0, 95, 10):
        lines.append(f"    C{i} --> \"1..*\" C{i + 5} : uses")
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--base", required=True)
    parser.add_argument("--token", required=True)
    parser.add_argument("--project", required=True)
    parser.add_argument("mode", choices=["create", "update", "classes", "bulk", "print"])
    parser.add_argument("arg", nargs="?", default="")
    args = parser.parse_args()
    if args.mode == "print":
        print(flowchart200())
        return 0
    url = urllib.parse.urlsplit(args.base)
    connection = http.client.HTTPConnection(url.hostname, url.port, timeout=120)
    headers = {"Authorization": f"Bearer {args.token}", "Content-Type": "application/json"}
    prefix = f"/api/v2/projects/{args.project}"

    def call(method: str, path: str, body: object) -> dict:
        connection.request(method, prefix + path + "?jsonCasing=camel", json.dumps(body), headers)
        response = connection.getresponse()
        data = response.read()
        if response.status != 200:
            raise SystemExit(f"{method} {path}: {response.status} {data[:300]!r}")
        return json.loads(data)

    if args.mode == "create":
        made = call("POST", "/diagrams", {"source": flowchart200(), "position": {"x": 0, "y": 0}})
        print(made["diagramId"])
    elif args.mode == "classes":
        call("POST", "/diagrams", {"source": class_diagram100(), "position": {"x": 0, "y": 0}})
    elif args.mode == "update":
        done = call("PUT", f"/diagrams/{args.arg}", {"source": flowchart200(f" {uuid.uuid4().hex[:8]}")})
        if len(done["updated"]) < 1 or done["created"] or done["deleted"]:
            raise SystemExit(f"one node's text should change, nothing else: {done}")
    else:
        notes = [{"type": "sticky-note", "properties": {"text": f"Note {i}", "position": {"x": (i % 40) * 250,
                  "y": (i // 40) * 150}}} for i in range(int(args.arg or 600))]
        call("POST", "/items/bulk", {"items": notes})
    return 0


if __name__ == "__main__":
    sys.exit(main())
