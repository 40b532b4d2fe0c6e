#!/usr/bin/env bash
# Diagram records over REST against `canvasctl up` (release build), on SQLite and on PostgreSQL,
# timed by hyperfine (p50 of 20 runs each):
#
#   - a 200-node Mermaid flowchart (bench/diagram_client.py: 599 items) from source to committed
#     items and record (`POST .../diagrams`);
#   - update in place of one node's text in that 200-node diagram (`PUT .../diagrams/{id}`);
#   - a 100-class class diagram from source to committed items (`POST .../diagrams`);
#   - the baseline of the same run: one bulk create of 600 sticky notes (`POST .../items/bulk`).
#
#   bash bench/diagram_records.sh
#
# Needs hyperfine (apt-get install hyperfine) and PostgreSQL at 127.0.0.1:5432; everything
# listens on 127.0.0.1 only. Figures: docs/PERFORMANCE.md, every run in docs/performance/diagrams.md.
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib.sh
need hyperfine
cargo build --release -q -p canvasctl
bench_work

run_backend() {
    local backend=$1 url=$2
    local dir="$WORK/$backend"
    up_start "$BIN/canvasctl" "$dir" "$WORK/$backend.log" "$UP_HTTP" "$UP_GRPC" CANVAS_DATABASE_URL="$url"
    wait_for "http://$UP_HTTP/readyz"
    local token project client diagram
    token=$(credential "$dir" token)
    project=$(credential "$dir" projectId)
    client="python3 bench/diagram_client.py --base http://$UP_HTTP --token $token --project $project"
    diagram=$($client create)
    echo "== $backend"
    hyperfine --warmup 2 --runs 20 --export-json "$WORK/$backend.json" \
        -n "bulk create of 600 (baseline)" "$client bulk 600" \
        -n "200-node flowchart, source to items" "$client create" \
        -n "update one node of a 200-node diagram" "$client update $diagram" \
        -n "100-class class diagram, source to items" "$client classes"
    python3 - "$WORK/$backend.json" <<'PY'
import json, sys
runs = {r["command"]: r for r in json.load(open(sys.argv[1]))["results"]}
base = runs["bulk create of 600 (baseline)"]["median"]
for name, r in runs.items():
    print(f"{name}: p50 {r['median']*1000:.1f} ms (min {r['min']*1000:.1f}, max {r['max']*1000:.1f}), "
          f"{r['median']/base:.2f}x the baseline")
PY
    up_stop
}

run_backend sqlite ""
pg_fresh bench_diagrams >/dev/null
run_backend postgres "$(pg_url bench_diagrams)"
