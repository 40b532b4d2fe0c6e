#!/usr/bin/env bash
# Tags at the size of a big map (docs/ITEMS.md "Tags"), over REST against `canvasctl up` (release
# build), on SQLite and on PostgreSQL, each figure beside its baseline in the same run:
#
#   - listing a page of 100 items carrying a tag (`?tag=`), a tag on every 10th of 10,000 items
#     and a tag on the last 10, against the unfiltered page and the `text=` filter that matches
#     nothing (the existing filter that scans the whole project): wrk, 8 connections, rate limits
#     off;
#   - deleting a tag carried by 0, 100 and 1,000 items (each untagged with its own item.updated
#     event in the delete's transaction): hyperfine, the tagging in --prepare (untimed).
#
#   bash bench/tags.sh [seconds per wrk run, default 8] [hyperfine runs, default 5]
#
# Needs wrk and hyperfine (apt-get install wrk hyperfine) and PostgreSQL at 127.0.0.1:5432;
# everything listens on 127.0.0.1 only. Figures: docs/PERFORMANCE.md "Tags".
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
    local token project client items
    token=$(credential "$dir" token)
    project=$(credential "$dir" projectId)
    client="python3 bench/tags_client.py --base http://$UP_HTTP --token $token --project $project"
    $client seed 10000 >/dev/null
    items="http://$UP_HTTP/api/v2/projects/$project/items?limit=100"
    cat >"$WORK/get.lua" <<LUA
wrk.headers["Authorization"] = "Bearer $token"
LUA
    echo "== $backend (10,000 sticky notes)"
    for query in "" "&tag=hot" "&tag=rare" "&text=matches-nothing"; do
        wrk -t2 -c8 -d"${DURATION}s" --latency -s "$WORK/get.lua" "$items$query" | summarize "list 100${query:-, no filter}"
    done
    hyperfine --runs "$RUNS" --export-json "$WORK/$backend-delete.json" \
        -n "delete a tag on 0 items" --prepare "$client tag none0 0" "$client delete none0" \
        -n "delete a tag on 100 items" --prepare "$client tag t100 100" "$client delete t100" \
        -n "delete a tag on 1000 items" --prepare "$client tag t1000 1000" "$client delete t1000"
    up_stop
}

run_backend sqlite ""
PG_DB="canvas_bench_$$"
pg_create "$PG_DB"
run_backend postgres "$(pg_url "$PG_DB")"
pg_drop "$PG_DB"
