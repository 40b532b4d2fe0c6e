#!/usr/bin/env bash
# Comment threads at the size of a big reviewed map (docs/COMMENTS.md), over REST against
# `canvasctl up` (release build), on SQLite and on PostgreSQL, each figure beside its baseline in
# the same run. The project: 10,000 sticky notes and 5,000 threads on them (every 5th with a reply,
# every 4th resolved: 3,750 open).
#
#   - listing a page of 50 open threads (each with its replies), against a page of 50 items:
#     wrk, 8 connections, rate limits off;
#   - opening the map as the live map reads it (render.svg, every item page, and every page of
#     the open threads), against the same reads without the threads: hyperfine;
#   - a reply reaching another open map: from the write's answer to its change on another
#     client's change stream and that client's read of the thread, p50 of 50 (the client's own
#     clock, bench/comments_client.py `reach`).
#
#   bash bench/comments.sh [seconds per wrk run, default 8] [hyperfine runs, default 5]
#
# Needs wrk and hyperfine (apt-get install wrk hyperfine) and PostgreSQL at 127.0.0.1:5432;
# everything listens on 127.0.0.1 only. Figures: docs/PERFORMANCE.md "Comments".
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib.sh
DURATION=${1:-8}
RUNS=${2:-5}
need wrk
need hyperfine
cargo build --release -q -p canvasctl
bench_work

run_backend() {
    local backend=$1 url=$2
    local dir="$WORK/$backend"
    # Rate limits off: one token at full speed is refused after 3,000 calls a minute (LIMITS.md).
    up_start "$BIN/canvasctl" "$dir" "$WORK/$backend.log" "$UP_HTTP" "$UP_GRPC" CANVAS_DATABASE_URL="$url" \
        CANVAS_RATE_LIMIT_REQUESTS=0
    wait_for "http://$UP_HTTP/readyz"
    local token project client base
    token=$(credential "$dir" token)
    project=$(credential "$dir" projectId)
    client="python3 bench/comments_client.py --base http://$UP_HTTP --token $token --project $project"
    echo "== $backend: $($client seed 10000 5000)"
    base="http://$UP_HTTP/api/v2/projects/$project"
    cat >"$WORK/get.lua" <<LUA
wrk.headers["Authorization"] = "Bearer $token"
LUA
    wrk -t2 -c8 -d"${DURATION}s" --latency -s "$WORK/get.lua" "$base/items?limit=50" | summarize "items, page of 50"
    wrk -t2 -c8 -d"${DURATION}s" --latency -s "$WORK/get.lua" "$base/comments?status=open&limit=50" \
        | summarize "open threads, page of 50"
    hyperfine --runs "$RUNS" --export-json "$WORK/$backend-open.json" \
        -n "open the map without threads" "$client open" \
        -n "open the map with 3,750 open threads" "$client open comments"
    echo "reply reaching another map: $($client reach 50)"
    up_stop
}

run_backend sqlite ""
PG_DB="canvas_bench_$$"
pg_create "$PG_DB"
run_backend postgres "$(pg_url "$PG_DB")"
pg_drop "$PG_DB"
