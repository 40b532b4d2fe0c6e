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
# listens on 127.0.0.1 only. Figures and the command: docs/PERFORMANCE.md.
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/canvas-target}"
command -v hyperfine >/dev/null || { apt-get update -qq && apt-get install -y -qq hyperfine; }
cargo build --release -q -p canvasctl
BIN="$CARGO_TARGET_DIR/release"
WORK=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$WORK"' EXIT

run_backend() {
    local backend=$1 url=$2
    local dir="$WORK/$backend"
    CANVAS_DATABASE_URL="$url" "$BIN/canvasctl" up --data-dir "$dir" --http-addr 127.0.0.1:18080 \
        --grpc-addr 127.0.0.1:15051 >"$WORK/$backend.log" 2>&1 &
    local pid=$!
    for _ in $(seq 1 150); do
        curl -fs http://127.0.0.1:18080/readyz >/dev/null 2>&1 && break
        sleep 0.2
    done
    local token project client diagram
    token=$(python3 -c "import json;print(json.load(open('$dir/dev-credentials.json'))['token'])")
    project=$(python3 -c "import json;print(json.load(open('$dir/dev-credentials.json'))['projectId'])")
    client="python3 bench/diagram_client.py --base http://127.0.0.1:18080 --token $token --project $project"
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
    kill "$pid"
    wait "$pid" 2>/dev/null || true
}

run_backend sqlite ""
psql -h 127.0.0.1 -U postgres -qc "DROP DATABASE IF EXISTS bench_diagrams" -c "CREATE DATABASE bench_diagrams" >/dev/null
run_backend postgres postgres://postgres@127.0.0.1:5432/bench_diagrams
