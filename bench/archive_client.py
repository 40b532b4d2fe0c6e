#!/usr/bin/env python3
"""A project as a file, timed from one client (bench/archive.sh). Each run makes a fresh project of
10,000 items (9,900 labels, sticky notes, shapes and connectors by ten bulk creates, and 100
distinct PNG uploads), then times, one after the other on one keep-alive connection:

- seed: the ten bulk creates and the 100 uploads (the baseline of the import: the same items
  written through the ordinary creating calls);
- list: the whole project read back, `GET .../items?limit=1000`, page after page (the baseline
  of the export: every item, read once);
- export: `GET .../export`, the whole archive;
- import: `POST /api/v2/projects/import` of that archive (as the system administrator).

Prints one JSON object per run, then the medians and the ratios export ÷ list and import ÷ seed.
Every answer must be a 2xx (the run fails otherwise)."""

import argparse
import http.client
import io
import json
import statistics
import struct
import subprocess
import time
import urllib.parse
import zipfile
import zlib

ITEMS, FILES, BATCH = 10_000, 100, 990


def png(seed: int) -> bytes:
    """A distinct 32 x 32 RGB PNG: a gradient coloured by `seed`."""
    raw = b"".join(
        b"\x00" + b"".join(bytes(((x * 8 + seed) % 256, (y * 8) % 256, (seed * 7) % 256)) for x in range(32))
        for y in range(32)
    )

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", 32, 32, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b"")


def batch(first: int) -> list:
    """990 items from `first`: notes, labels and shapes, and a connector after every third."""
    items = []
    for i in range(first, first + BATCH):
        at = {"x": (i % 100) * 250, "y": (i // 100) * 200}
        kind = (i - first) % 4
        if kind == 0:
            items.append({"ref": f"n{i}", "type": "sticky-note", "properties": {"text": f"Note {i} about the launch", "position": at}})
        elif kind == 1:
            items.append({"ref": f"n{i}", "type": "label", "properties": {"text": f"Label {i}", "position": at}})
        elif kind == 2:
            items.append({"ref": f"n{i}", "type": "shape", "properties": {"size": {"width": 120, "height": 60}, "position": at}})
        else:
            items.append({"type": "connector", "properties": {
                "startPoint": {"itemId": f"ref:n{i - 3}"}, "endPoint": {"itemId": f"ref:n{i - 1}"}}})
    return items


class Client:
    def __init__(self, base: str):
        url = urllib.parse.urlsplit(base)
        self.connection = http.client.HTTPConnection(url.hostname, url.port, timeout=600)

    def call(self, method: str, path: str, token: str, body: bytes = b"", content_type: str = "") -> bytes:
        headers = {"Authorization": f"Bearer {token}"}
        if content_type:
            headers["Content-Type"] = content_type
        self.connection.request(method, path, body or None, headers)
        response = self.connection.getresponse()
        data = response.read()
        if response.status // 100 != 2:
            raise SystemExit(f"{method} {path}: {response.status} {data[:300]!r}")
        return data


def seed(client: Client, token: str, project: str) -> None:
    prefix = f"/api/v2/projects/{project}"
    for first in range(0, ITEMS - FILES, BATCH):
        client.call("POST", f"{prefix}/items/bulk", token, json.dumps({"items": batch(first)}).encode(), "application/json")
    for i in range(FILES):
        boundary = "benchboundary"
        body = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"binary\"; filename=\"f{i}.png\"\r\n"
                f"Content-Type: image/png\r\n\r\n").encode() + png(i) + f"\r\n--{boundary}--\r\n".encode()
        client.call("POST", f"{prefix}/item/panel/image/file", token, body, f"multipart/form-data; boundary={boundary}")


def listing(client: Client, token: str, project: str) -> int:
    count, cursor = 0, ""
    while True:
        page = json.loads(client.call("GET", f"/api/v2/projects/{project}/items?limit=1000{cursor}", token))
        count += len(page["Items"])
        if not page.get("NextCursor"):
            return count
        cursor = f"&cursor={page['NextCursor']}"


def timed(work, *arguments):
    start = time.perf_counter()
    result = work(*arguments)
    return time.perf_counter() - start, result


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--base", required=True)
    parser.add_argument("--grpc", required=True)
    parser.add_argument("--canvasctl", required=True)
    parser.add_argument("--token", required=True)
    parser.add_argument("--admin-token", required=True)
    parser.add_argument("--user", required=True)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    client = Client(args.base)
    runs = []
    for run in range(args.runs):
        made = subprocess.run([args.canvasctl, "project", "create", "--name", f"bench {run}", "--owner", args.user,
                               "--json", "--core", f"http://{args.grpc}", "--admin-token", args.admin_token],
                              check=True, capture_output=True, text=True)
        project = json.loads(made.stdout)["projectId"]
        seed_s, _ = timed(seed, client, args.token, project)
        list_s, count = timed(listing, client, args.token, project)
        assert count == ITEMS, f"the project holds {count} items"
        export_s, archive = timed(client.call, "GET", f"/api/v2/projects/{project}/export", args.token)
        import_s, answer = timed(client.call, "POST", "/api/v2/projects/import", args.admin_token, archive, "application/zip")
        imported = json.loads(answer)
        assert (imported["Items"], imported["Files"]) == (ITEMS, FILES), imported
        entries = zipfile.ZipFile(io.BytesIO(archive)).infolist()
        items = next(e for e in entries if e.filename == "items.jsonl")
        row = {"run": run + 1, "seed_s": round(seed_s, 3), "list_s": round(list_s, 3), "export_s": round(export_s, 3),
               "import_s": round(import_s, 3), "archive_bytes": len(archive),
               "items_jsonl_ratio": round(items.file_size / items.compress_size, 1)}
        print(json.dumps(row), flush=True)
        runs.append(row)
    median = {key: statistics.median(r[key] for r in runs) for key in ("seed_s", "list_s", "export_s", "import_s")}
    print(json.dumps({"median": median, "export_over_list": round(median["export_s"] / median["list_s"], 2),
                      "import_over_seed": round(median["import_s"] / median["seed_s"], 2)}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
