#!/usr/bin/env python3
"""Bulk-import indexing throughput of the knowledge index, end to end, against the model's own speed.

One run:
  1. makes COUNT short sticky-note texts from Cranfield abstracts (clauses of 3-12 words, each
     note numbered, so every note is a distinct text and no vector can be reused);
  2. measures the embedding model's own batch throughput on the first MODEL_SAMPLE of those very
     texts with `canvas-embed-load` (same model, same cache, calls of 256 texts: the indexer's
     batch), before the service starts and again after it stops, so nothing else of ours runs
     meanwhile; the ratio uses the better of the two (a lower bound), and the share of the
     machine other processes used during the import is printed (the machine is shared);
  3. starts `canvasctl up` (release build) on a fresh SQLite data directory or a fresh PostgreSQL
     database, creates the notes over REST (`POST /api/v2/projects/{p}/item/panel/sticky-note`,
     WORKERS connections), and polls `GET /api/v1/memory/index?projectId=…&limit=1` until its
     `counts` say every note is indexed; meanwhile it compares `knowledge_index_queue_items` on
     `/metrics` with the counts;
  4. checks that retrieval finds a sample of the notes (keyword mode, each by its own text).

End to end is from the first create request to the poll that saw every note indexed.

    python3 bench/index_throughput.py --backend sqlite --count 20000
    python3 bench/index_throughput.py --backend postgres --count 20000

Needs `cargo build --release -p canvasctl -p canvas-embed-load` (binaries taken from
$CARGO_TARGET_DIR/release, default target/release) and, for PostgreSQL, a server at
postgres://postgres@127.0.0.1:5432 (trust auth).
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def note_texts(cranfield: Path, count: int) -> list[str]:
    text = (cranfield / "cran.all.1400").read_text()
    clauses: list[str] = []
    seen: set[str] = set()
    for doc in re.split(r"^\.I ", text, flags=re.M)[1:]:
        body = re.search(r"^\.W\n(.*)", doc, flags=re.M | re.S)
        if not body:
            continue
        for clause in re.split(r"(?<=[.?!;:])\s+", " ".join(body.group(1).split())):
            if 3 <= len(clause.split()) <= 12 and clause not in seen:
                seen.add(clause)
                clauses.append(clause)
    return [f"{n + 1}. {clauses[n % len(clauses)]}" for n in range(count)]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Client:
    """One keep-alive HTTP connection to the base URL."""

    def __init__(self, base: str, token: str):
        url = urllib.parse.urlparse(base)
        self.conn = http.client.HTTPConnection(url.hostname, url.port, timeout=60)
        self.token = token

    def call(self, method: str, path: str, body: dict | None = None) -> tuple[int, bytes]:
        headers = {"Authorization": f"Bearer {self.token}", "Content-Type": "application/json"}
        self.conn.request(method, path, body=json.dumps(body) if body is not None else None, headers=headers)
        response = self.conn.getresponse()
        return response.status, response.read()

    def json(self, method: str, path: str, body: dict | None = None) -> dict:
        status, data = self.call(method, path, body)
        if status != 200:
            raise RuntimeError(f"{method} {path}: {status} {data[:300]!r}")
        return json.loads(data)


def start_service(binary: Path, backend: str, workdir: Path) -> tuple[subprocess.Popen, dict, str | None]:
    data = workdir / "data"
    http_port, grpc_port = free_port(), free_port()
    env = dict(os.environ, RUST_LOG=os.environ.get("RUST_LOG", "warn"))
    database = None
    if backend == "postgres":
        database = f"canvas_bench_{uuid.uuid4().hex[:12]}"
        subprocess.run(["psql", "-h", "127.0.0.1", "-U", "postgres", "-qc", f"CREATE DATABASE {database}"], check=True)
        env["CANVAS_DATABASE_URL"] = f"postgres://postgres@127.0.0.1:5432/{database}"
    log = open(workdir / "canvasctl.log", "w")
    process = subprocess.Popen(
        [str(binary), "up", "--data-dir", str(data), "--http-addr", f"127.0.0.1:{http_port}",
         "--grpc-addr", f"127.0.0.1:{grpc_port}"],
        stdout=log, stderr=subprocess.STDOUT, env=env)
    deadline = time.monotonic() + 300
    creds_path = data / "dev-credentials.json"
    while time.monotonic() < deadline:
        if process.poll() is not None:
            sys.exit(f"canvasctl up exited: see {workdir / 'canvasctl.log'}")
        if creds_path.exists():
            creds = json.loads(creds_path.read_text())
            try:
                conn = http.client.HTTPConnection("127.0.0.1", http_port, timeout=5)
                conn.request("GET", "/readyz")
                if conn.getresponse().status == 200:
                    return process, creds, database
            except OSError:
                pass
        time.sleep(0.2)
    process.kill()
    sys.exit("canvasctl up did not become ready")


def stop_service(process: subprocess.Popen, database: str | None) -> None:
    process.send_signal(signal.SIGTERM)
    try:
        process.wait(timeout=60)
    except subprocess.TimeoutExpired:
        process.kill()
    if database:
        subprocess.run(["psql", "-h", "127.0.0.1", "-U", "postgres", "-qc", f"DROP DATABASE {database}"], check=False)


def queue_gauge(client: Client) -> float | None:
    status, data = client.call("GET", "/metrics")
    for line in data.decode().splitlines():
        if line.startswith("knowledge_index_queue_items "):
            return float(line.split()[1])
    return None


def machine_busy_seconds() -> float:
    """CPU seconds all processes spent busy since boot (/proc/stat)."""
    fields = [int(v) for v in Path("/proc/stat").read_text().splitlines()[0].split()[1:]]
    idle = fields[3] + fields[4]
    return (sum(fields[:8]) - idle) / os.sysconf("SC_CLK_TCK")


def own_cpu_seconds(pid: int) -> float:
    """CPU seconds of canvasctl and of this script (with its threads)."""
    total = 0
    for path in (f"/proc/{pid}/stat", "/proc/self/stat"):
        fields = Path(path).read_text().rsplit(")", 1)[1].split()
        total += int(fields[11]) + int(fields[12])
    return total / os.sysconf("SC_CLK_TCK")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--backend", choices=["sqlite", "postgres"], default="sqlite")
    parser.add_argument("--count", type=int, default=20000)
    parser.add_argument("--workers", type=int, default=8, help="concurrent create connections")
    parser.add_argument("--model-sample", type=int, default=5120, help="notes embedded for the model baseline")
    parser.add_argument("--cranfield", type=Path, default=ROOT.parent.parent / "shared/data/cranfield")
    parser.add_argument("--target-dir", type=Path,
                        default=Path(os.environ.get("CARGO_TARGET_DIR", ROOT / "target")))
    parser.add_argument("--keep", action="store_true", help="keep the working directory")
    args = parser.parse_args()
    if not args.cranfield.exists():
        args.cranfield = Path("/work/shared/data/cranfield")
    release = args.target_dir / "release"
    texts = note_texts(args.cranfield, args.count)
    workdir = Path(tempfile.mkdtemp(prefix="index-throughput-"))
    notes_file = workdir / "notes.txt"
    notes_file.write_text("\n".join(texts) + "\n")

    def model_alone() -> dict:
        """The model alone, on the same texts, in the indexer's batch size."""
        baseline = subprocess.run(
            [str(release / "canvas-embed-load"), "--sentences", str(notes_file), "--count", str(args.model_sample),
             "--batch", "256"], check=True, capture_output=True, text=True)
        model = json.loads(baseline.stdout.strip().splitlines()[-1])
        print(f"model alone: {model['texts']} notes in {model['seconds']:.1f} s = "
              f"{model['textsPerSecond']:.1f} notes/s ({model['model']}, calls of {model['batch']})", flush=True)
        return model

    models = [model_alone()]

    process, creds, database = start_service(release / "canvasctl", args.backend, workdir)
    base, token, project = creds["baseUrl"], creds["token"], creds["projectId"]
    try:
        ids: list[str | None] = [None] * len(texts)
        next_note = iter(range(len(texts)))
        lock = threading.Lock()
        errors: list[str] = []

        def create() -> None:
            client = Client(base, token)
            path = f"/api/v2/projects/{project}/item/panel/sticky-note?jsonCasing=camel"
            while True:
                with lock:
                    n = next(next_note, None)
                if n is None:
                    return
                try:
                    ids[n] = client.json("POST", path, {"text": texts[n]})["itemId"]
                except Exception as error:  # noqa: BLE001 - reported below
                    errors.append(str(error))
                    return

        busy_before, ours_before = machine_busy_seconds(), own_cpu_seconds(process.pid)
        started = time.monotonic()
        workers = [threading.Thread(target=create) for _ in range(args.workers)]
        for worker in workers:
            worker.start()
        poller = Client(base, token)
        status_path = f"/api/v1/memory/index?projectId={project}&limit=1&jsonCasing=camel"
        created_at = None
        gauge_checks: list[tuple[float, int]] = []
        last_report = 0.0
        while True:
            counts = poller.json("GET", status_path)["counts"]
            if created_at is None and not any(w.is_alive() for w in workers):
                created_at = time.monotonic() - started
                indexed_when_created = counts["indexed"]
                if errors:
                    sys.exit(f"creates failed: {errors[:3]}")
            gauge = queue_gauge(poller)
            after = poller.json("GET", status_path)["counts"]
            if gauge is not None:
                # The metric is read between two reads of the counts.
                low, high = sorted((counts["queued"], after["queued"]))
                gauge_checks.append((gauge, int(low - 100 <= gauge <= high + 100)))
            elapsed = time.monotonic() - started
            if elapsed - last_report >= 10:
                last_report = elapsed
                print(f"  {elapsed:6.1f} s: {after} metric {gauge}", flush=True)
            if created_at is not None and after["indexed"] + after["failed"] >= args.count and after["queued"] == 0:
                break
            if elapsed > 3600:
                sys.exit(f"not indexed after an hour: {after}")
            time.sleep(0.25)
        finished = time.monotonic() - started
        # CPU used by other processes meanwhile (the machine is shared): busy time of the machine
        # minus that of canvasctl and this script.
        foreign = (machine_busy_seconds() - busy_before) - (own_cpu_seconds(process.pid) - ours_before)
        if after["failed"]:
            sys.exit(f"{after['failed']} notes failed to index")

        # Retrievable: each sampled note is found by its own text.
        sample = random.Random(14).sample(range(args.count), 20)
        found = 0
        for n in sample:
            reply = poller.json("POST", "/api/v1/memory/retrieve?jsonCasing=camel",
                                {"projectId": project, "query": texts[n], "maxResults": 10, "mode": "keyword"})
            found += any(c["id"] == ids[n] for c in reply["citations"])
        models.append(model_alone())
        # The better of the two baselines (before and after the import): the ratio is a lower bound.
        model = max(models, key=lambda m: m["textsPerSecond"])
        rate = args.count / finished
        # After the last create the model has the machine to itself: the indexer's own efficiency.
        drain = (args.count - indexed_when_created) / max(finished - created_at, 1e-9)
        agreeing = sum(ok for _, ok in gauge_checks)
        print(json.dumps({
            "backend": args.backend, "notes": args.count, "workers": args.workers,
            "createSeconds": round(created_at, 1), "createsPerSecond": round(args.count / created_at, 1),
            "endToEndSeconds": round(finished, 1), "endToEndNotesPerSecond": round(rate, 1),
            "modelNotesPerSecond": [round(m["textsPerSecond"], 1) for m in models],
            "ratioToModel": round(rate / model["textsPerSecond"], 3),
            "indexedWhenCreatesEnded": indexed_when_created,
            "drainNotesPerSecond": round(drain, 1), "drainRatioToModel": round(drain / model["textsPerSecond"], 3),
            "sampleRetrieved": f"{found}/{len(sample)}",
            "queueMetricAgreed": f"{agreeing}/{len(gauge_checks)}",
            "maxQueueMetric": max((g for g, _ in gauge_checks), default=None),
            "otherProcessesCpuShare": round(foreign / (finished * os.cpu_count()), 3),
        }))
        if found != len(sample):
            sys.exit("some sampled notes were not retrievable")
    finally:
        stop_service(process, database)
        if not args.keep:
            shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    main()
