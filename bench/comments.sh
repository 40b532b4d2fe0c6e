#!/usr/bin/env bash
# Comment threads and frames at the size of a big reviewed map (docs/COMMENTS.md, docs/ITEMS.md
# "Frames"), over REST against `canvasctl up` (release build), on SQLite and on PostgreSQL, each
# figure beside its baseline in the same run. The project: 10,000 sticky notes; then 200 frames
# tiling them, each note moved into its frame (50 each); then 5,000 threads on the notes (every 5th
# with a reply, every 4th resolved: 3,750 open).
#
#   - opening the map as the live map reads it (render.svg and every item page) with only the
#     10,000 notes (the baseline, measured first), and again with the 200 frames and the 3,750 open
#     threads (and every page of those): hyperfine;
#   - moving a frame that holds 50 notes (all 51 written in one transaction) against moving one
#     note: the write's answer time, p50 of 100 (bench/comments_client.py `moves`);
#   - listing a page of 50 open threads (each with its replies), against a page of 50 items:
#     wrk, 8 connections, rate limits off;
#   - a reply reaching another open map: from the write's answer to its change on another
#     client's change stream and that client's read of the thread, p50 of 50 (the client's own
#     clock, bench/comments_client.py `reach`).
#
#   bash bench/comments.sh [seconds per wrk run, default 8] [hyperfine runs, default 5]
#
# Needs wrk and hyperfine (apt-get install wrk hyperfine) and PostgreSQL at 127.0.0.1:5432;
# everything listens on 127.0.0.1 only. Figures: docs/PERFORMANCE.md "Comments" and "Frames".
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
    echo "== $backend: $($client notes 10000)"
    # The indexer's work on what was just written must not share the machine with a measurement.
    echo "index settled: $($client settle)"
    hyperfine --runs "$RUNS" --export-json "$WORK/$backend-open-plain.json" \
        -n "open the map of 10,000 notes (baseline)" "$client open"
    echo "frames: $($client frames 200)"
    echo "threads: $($client threads 5000)"
    echo "index settled: $($client settle)"
    base="http://$UP_HTTP/api/v2/projects/$project"
    cat >"$WORK/get.lua" <<LUA
wrk.headers["Authorization"] = "Bearer $token"
LUA
    wrk -t2 -c8 -d"${DURATION}s" --latency -s "$WORK/get.lua" "$base/items?limit=50" | summarize "items, page of 50"
    wrk -t2 -c8 -d"${DURATION}s" --latency -s "$WORK/get.lua" "$base/comments?status=open&limit=50" \
        | summarize "open threads, page of 50"
    hyperfine --runs "$RUNS" --export-json "$WORK/$backend-open.json" \
        -n "open the map with 200 frames, without threads" "$client open" \
        -n "open the map with 200 frames and 3,750 open threads" "$client open comments"
    echo "reply reaching another map: $($client reach 50)"
    echo "moving: $($client moves 100)"
    up_stop
}

run_backend sqlite ""
PG_DB="canvas_bench_$$"
pg_create "$PG_DB"
run_backend postgres "$(pg_url "$PG_DB")"
pg_drop "$PG_DB"
