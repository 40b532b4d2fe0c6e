#!/usr/bin/env bash
# The cost of the abuse protections (issue 22) on the hot paths, as ratios within one run:
#   - GET item with the per-credential rate limiter in place (a budget too large to refuse
#     anything, so every call pays the limiter's look-up) against the same build with the limits
#     off (CANVAS_RATE_LIMIT_REQUESTS=0);
#   - label creates each with a fresh Idempotency-Key against the same creates without one.
# The edge limits (header, URI, header count, connection limits) are always on; they cost a scan of
# each request's header names and lengths, inside both figures.
# The two configurations alternate (off, on, off, on) so drift of the machine falls on both alike.
#
#   bash bench/abuse.sh [seconds per run, default 8] [connections, default 16]
#
# Needs wrk (apt-get install wrk) and PostgreSQL at 127.0.0.1:5432. Every run is bounded in time;
# everything listens on 127.0.0.1 only.
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib.sh
DURATION=${1:-8}
CONNECTIONS=${2:-16}
need wrk
cargo build --release -q -p canvasctl
bench_work

# run_once BACKEND DATABASE_URL LIMITS(on|off) ROUND
run_once() {
    local backend=$1 url=$2 limits=$3 round=$4
    local dir="$WORK/$backend-$limits-$round" requests
    requests=$([ "$limits" = on ] && echo 1000000000 || echo 0)
    up_start "$BIN/canvasctl" "$dir" "$dir.log" "$UP_HTTP" "$UP_GRPC" CANVAS_DATABASE_URL="$url" \
        CANVAS_RATE_LIMIT_REQUESTS="$requests" CANVAS_RATE_LIMIT_ANONYMOUS_REQUESTS="$requests"
    wait_for "http://$UP_HTTP/healthz"
    local token project base item
    token=$(credential "$dir" token)
    project=$(credential "$dir" projectId)
    base="http://$UP_HTTP/api/v2/projects/$project/item"
    item=$(seed_label "$base" "$token")
    cat >"$WORK/get.lua" <<LUA
wrk.headers["Authorization"] = "Bearer $token"
LUA
    # A fresh key per request: every create is a first attempt, so it claims the key, runs, and
    # stores its answer (the whole cost a retry-safe client adds).
    cat >"$WORK/create-key.lua" <<LUA
local n = 0
local thread_id = 0
setup = function(thread) thread:set("thread_id", thread_id); thread_id = thread_id + 1 end
request = function()
    n = n + 1
    return wrk.format("POST", nil, {["Content-Type"] = "application/json", ["Authorization"] = "Bearer $token",
        ["Idempotency-Key"] = "bench-$round-" .. thread_id .. "-" .. n}, '{"text": "bench"}')
end
LUA
    cat >"$WORK/create.lua" <<LUA
wrk.method = "POST"
wrk.body = '{"text": "bench"}'
wrk.headers["Content-Type"] = "application/json"
wrk.headers["Authorization"] = "Bearer $token"
LUA
    wrk -t2 -c"$CONNECTIONS" -d"${DURATION}s" --latency -s "$WORK/get.lua" "$base/$item" \
        | summarize "$backend get-item limits=$limits round=$round"
    if [ "$limits" = on ]; then
        wrk -t2 -c"$CONNECTIONS" -d"${DURATION}s" --latency -s "$WORK/create.lua" "$base/panel/label" \
            | summarize "$backend create round=$round"
        wrk -t2 -c"$CONNECTIONS" -d"${DURATION}s" --latency -s "$WORK/create-key.lua" "$base/panel/label" \
            | summarize "$backend create-idempotency-key round=$round"
    fi
    up_stop
}

run_backend() {
    local backend=$1 url=$2
    echo "== $backend"
    for round in 1 2; do
        run_once "$backend" "$url" off "$round"
        run_once "$backend" "$url" on "$round"
    done
}

run_backend sqlite ""
PG_DB="canvas_bench_$$"
# Each round starts on a fresh PostgreSQL schema: the database is emptied between runs.
run_backend_pg() {
    echo "== postgres"
    for round in 1 2; do
        for limits in off on; do
            pg_fresh "$PG_DB"
            run_once postgres "$(pg_url "$PG_DB")" "$limits" "$round"
        done
    done
}
run_backend_pg
pg_drop "$PG_DB"
