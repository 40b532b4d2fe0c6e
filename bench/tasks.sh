#!/usr/bin/env bash
# What an MCP task costs a client (docs/MCP.md "Tasks"): `create_items` of 101 and 1,000 sticky
# notes called directly (the baseline: the result in the answer) against the same call as a task
# (the handle at once, then `tasks/get` at the suggested `pollIntervalMs` until it completes), and the time
# to the handle alone, over stateless JSON-RPC to `canvasctl up` (release build), on SQLite and on
# PostgreSQL, timed by hyperfine in one run so the ratios compare:
#
#   bash bench/tasks.sh [runs per command, default 10]
#
# Needs hyperfine (installed when missing) and PostgreSQL at 127.0.0.1:5432; loopback only.
# Figures: docs/PERFORMANCE.md ("MCP tasks").
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib.sh
RUNS=${1:-10}
need hyperfine
cargo build --release -q -p canvasctl
bench_work

run_backend() {
    local backend=$1 url=$2
    local dir="$WORK/$backend"
    up_start "$BIN/canvasctl" "$dir" "$WORK/$backend.log" "$UP_HTTP" "$UP_GRPC" CANVAS_RATE_LIMIT_REQUESTS=0 \
        CANVAS_DATABASE_URL="$url"
    wait_for "http://$UP_HTTP/readyz"
    local client
    client="python3 bench/tasks_client.py --url http://$UP_HTTP/mcp --token $(credential "$dir" token) --project $(credential "$dir" projectId)"
    echo "== $backend"
    hyperfine --warmup 1 --runs "$RUNS" --export-json "$WORK/$backend.json" \
        -n "direct 101" "$client direct 101" -n "task 101" "$client task 101" -n "handle 101" "$client handle 101" \
        -n "direct 1000" "$client direct 1000" -n "task 1000" "$client task 1000" -n "handle 1000" "$client handle 1000"
    python3 - "$WORK/$backend.json" <<'PY'
import json, sys
runs = {r["command"]: r["median"] * 1000 for r in json.load(open(sys.argv[1]))["results"]}
for n in (101, 1000):
    direct, task, handle = runs[f"direct {n}"], runs[f"task {n}"], runs[f"handle {n}"]
    print(f"{n} items: direct {direct:.0f} ms, as a task to its result {task:.0f} ms ({task / direct:.2f}x), "
          f"to the handle {handle:.0f} ms ({handle / direct:.2f}x)")
PY
    up_stop
}

run_backend sqlite ""
pg_fresh bench_tasks >/dev/null
run_backend postgres "$(pg_url bench_tasks)"
