#!/usr/bin/env python3
"""Retrieval quality on the Cranfield 1400 collection, through the public REST API.

Uploads the 1,400 abstracts as `document` items (plain text) into a fresh project of a running
server, waits until the knowledge index holds them all, then sends every judged query to
`POST /api/v1/memory/retrieve` in each mode (keyword only, vector only, hybrid) and reports
nDCG@10, MAP@100 and Recall@100 over the judged queries, plus the mean retrieval time.

Standard library only. Usage (against `canvasctl up`, which writes dev-credentials.json):

    python3 bench/cranfield.py --credentials canvas-data/dev-credentials.json \
        --data ../shared/data/cranfield --qrels cranqrel.dev

Gains follow the collection's README: codes 1-4 are relevant with gain 5 - code; -1 is not relevant.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
import time
import urllib.error
import urllib.request
import uuid
from pathlib import Path


def records(path: Path) -> list[dict[str, str]]:
    """Parses the `.I`/`.T`/`.W` record format of the collection."""
    out: list[dict[str, str]] = []
    field = None
    for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
        if line.startswith(".I"):
            out.append({"id": line[2:].strip()})
            field = None
        elif len(line) == 2 and line.startswith("."):
            field = line[1]
            out[-1].setdefault(field, "")
        elif field and out:
            out[-1][field] += line + "\n"
    return out


class Api:
    def __init__(self, base_url: str, token: str) -> None:
        self.base_url = base_url.rstrip("/")
        self.token = token

    def call(self, method: str, path: str, body: bytes | None = None, content_type: str = "application/json") -> dict:
        request = urllib.request.Request(self.base_url + path, data=body, method=method)
        request.add_header("Authorization", f"Bearer {self.token}")
        if body is not None:
            request.add_header("Content-Type", content_type)
        try:
            with urllib.request.urlopen(request, timeout=120) as response:
                return json.loads(response.read() or b"null")
        except urllib.error.HTTPError as error:
            sys.exit(f"{method} {path}: HTTP {error.code}: {error.read()[:500]!r}")

    def upload_text(self, project: str, name: str, text: str) -> str:
        boundary = uuid.uuid4().hex
        body = (
            f"--{boundary}\r\nContent-Disposition: form-data; name=\"binary\"; filename=\"{name}\"\r\n"
            f"Content-Type: text/plain\r\n\r\n{text}\r\n--{boundary}--\r\n"
        ).encode()
        reply = self.call("POST", f"/api/v2/projects/{project}/item/panel/document/file?jsonCasing=camel", body,
                          f"multipart/form-data; boundary={boundary}")
        return reply["itemId"]

    def index_states(self, project: str) -> dict[str, int]:
        counts: dict[str, int] = {}
        cursor = ""
        while True:
            page = self.call("GET", f"/api/v1/memory/index?projectId={project}&limit=1000&cursor={cursor}&jsonCasing=camel")
            for item in page["items"]:
                counts[item["state"]] = counts.get(item["state"], 0) + 1
            cursor = page.get("nextCursor") or ""
            if not cursor:
                return counts


def judgements(path: Path) -> dict[int, dict[str, int]]:
    """Query → {document: gain} of a qrels file: codes 1-4 gain 5 - code; -1 is not relevant."""
    qrels: dict[int, dict[str, int]] = {}
    for line in path.read_text().splitlines():
        if line.strip():
            q, d, code = line.split()[:3]
            if int(code) >= 1:
                qrels.setdefault(int(q), {})[d] = 5 - int(code)
    return qrels


def ndcg_at(ranked: list[str], gains: dict[str, int], k: int) -> float:
    dcg = sum(gains.get(doc, 0) / math.log2(i + 2) for i, doc in enumerate(ranked[:k]))
    ideal = sorted(gains.values(), reverse=True)[:k]
    idcg = sum(g / math.log2(i + 2) for i, g in enumerate(ideal))
    return dcg / idcg if idcg else 0.0


def average_precision_at(ranked: list[str], relevant: set[str], k: int) -> float:
    hits, total = 0, 0.0
    for i, doc in enumerate(ranked[:k]):
        if doc in relevant:
            hits += 1
            total += hits / (i + 1)
    return total / min(len(relevant), k) if relevant else 0.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--credentials", type=Path, help="dev-credentials.json of canvasctl up")
    parser.add_argument("--base-url")
    parser.add_argument("--token")
    parser.add_argument("--project", help="project to load the collection into (default: the demo project)")
    parser.add_argument("--data", type=Path, default=Path(__file__).resolve().parents[2] / "shared/data/cranfield")
    parser.add_argument("--qrels", default="cranqrel.dev")
    parser.add_argument("--modes", default="keyword,semantic,hybrid")
    args = parser.parse_args()

    base_url, token = args.base_url, args.token
    if args.credentials:
        creds = json.loads(args.credentials.read_text())
        base_url, token = base_url or creds["baseUrl"], token or creds["token"]
    if not base_url or not token:
        sys.exit("give --credentials or --base-url and --token")
    api = Api(base_url, token)

    docs = records(args.data / "cran.all.1400")
    queries = records(args.data / "cran.qry")
    qrels = judgements(args.data / args.qrels)

    # The collection goes into the given project (default: the demo project of canvasctl up); the
    # item ↔ document map is kept next to the run so a second run can skip the upload.
    project = args.project or (json.loads(args.credentials.read_text())["projectId"] if args.credentials else None)
    if project is None:
        sys.exit("give --project or --credentials")
    saved_map = Path(f".cranfield-{project}.json")
    if saved_map.exists():
        doc_of_item = json.loads(saved_map.read_text())
    else:
        doc_of_item = {}
        started = time.monotonic()
        for doc in docs:
            text = (doc.get("T", "").strip() + "\n" + doc.get("W", "").strip()).strip() or "(empty)"
            doc_of_item[api.upload_text(project, f"cran-{doc['id']}.txt", text)] = doc["id"]
        print(f"uploaded {len(docs)} documents in {time.monotonic() - started:.1f} s", file=sys.stderr)
        saved_map.write_text(json.dumps(doc_of_item))

    started = time.monotonic()
    while True:
        states = api.index_states(project)
        if states.get("pending", 0) + states.get("indexing", 0) == 0:
            break
        time.sleep(1)
    print(f"index ready {states} after {time.monotonic() - started:.1f} s more", file=sys.stderr)

    print("| mode | nDCG@10 | MAP@100 | Recall@100 | mean retrieve ms |\n|---|---|---|---|---|")
    for mode in args.modes.split(","):
        ndcgs, maps, recalls, times = [], [], [], []
        for qid, gains in sorted(qrels.items()):
            text = queries[qid - 1]["W"].strip()
            body = json.dumps({"projectId": project, "query": text, "maxResults": 100, "mode": mode}).encode()
            t0 = time.monotonic()
            reply = api.call("POST", "/api/v1/memory/retrieve?jsonCasing=camel", body)
            times.append((time.monotonic() - t0) * 1000)
            ranked = [doc_of_item.get(c["id"], "") for c in reply["citations"]]
            relevant = set(gains)
            ndcgs.append(ndcg_at(ranked, gains, 10))
            maps.append(average_precision_at(ranked, relevant, 100))
            recalls.append(len(relevant & set(ranked[:100])) / len(relevant))
        print(f"| {mode} | {statistics.mean(ndcgs):.4f} | {statistics.mean(maps):.4f} | "
              f"{statistics.mean(recalls):.4f} | {statistics.mean(times):.1f} |")
    print(f"\n{len(qrels)} judged queries, {len(doc_of_item)} documents", file=sys.stderr)


if __name__ == "__main__":
    main()
