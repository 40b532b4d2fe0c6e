#!/usr/bin/env bash
# Bulk create against single creates, and a diagram from source to committed items, over REST
# against `canvasctl up` (release build), on SQLite and on PostgreSQL, timed by hyperfine:
#
#   - 1,000 sticky notes by 1,000 sequential single creates (one client, one keep-alive
#     connection: the baseline) against the same 1,000 by one bulk call, same run;
#   - a 60-node Mermaid flowchart (bench/bulk_client.py) posted to /diagrams: p50 of 20 runs.
#
#   bash bench/bulk.sh [runs of the 1,000-item commands, default 5]
#
# Needs hyperfine (apt-get install hyperfine) and PostgreSQL at 127.0.0.1:5432; everything
# listens on 127.0.0.1 only. Figures: docs/PERFORMANCE.md, every run in docs/performance/diagrams.md.
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib.sh
RUNS=${1:-5}
need hyperfine
cargo build --release -q -p canvasctl
bench_work

run_backend() {
    local backend=$1 url=$2
    local dir="$WORK/$backend"
    up_start "$BIN/canvasctl" "$dir" "$WORK/$backend.log" "$UP_HTTP" "$UP_GRPC" CANVAS_DATABASE_URL="$url"
    wait_for "http://$UP_HTTP/readyz"
    local token project client
    token=$(credential "$dir" token)
    project=$(credential "$dir" projectId)
    client="python3 bench/bulk_client.py --base http://$UP_HTTP --token $token --project $project"
    echo "== $backend"
    hyperfine --warmup 1 --runs "$RUNS" --export-json "$WORK/$backend-bulk.json" \
        -n "1000 single creates" "$client single 1000" \
        -n "1 bulk create of 1000" "$client bulk 1000"
    hyperfine --warmup 2 --runs 20 --export-json "$WORK/$backend-diagram.json" \
        -n "60-node flowchart" "$client diagram"
    python3 - "$WORK/$backend-bulk.json" "$WORK/$backend-diagram.json" <<'PY'
import json, sys
bulk = {r["command"]: r for r in json.load(open(sys.argv[1]))["results"]}
single, one = bulk["1000 single creates"], bulk["1 bulk create of 1000"]
print(f"single creates median {single['median']*1000:.0f} ms, bulk median {one['median']*1000:.0f} ms, "
      f"ratio {single['median']/one['median']:.1f}x")
diagram = json.load(open(sys.argv[2]))["results"][0]
print(f"60-node flowchart p50 {diagram['median']*1000:.1f} ms (min {diagram['min']*1000:.1f}, max {diagram['max']*1000:.1f})")
PY
    up_stop
}

run_backend sqlite ""
pg_fresh bench_bulk >/dev/null
run_backend postgres "$(pg_url bench_bulk)"
