#!/usr/bin/env bash
# REST item create and GET throughput and latency (wrk) against `canvasctl up`,
# on SQLite and on PostgreSQL, next to the same calls made directly over gRPC
# (bench/grpc-load), so the gateway's cost shows as a ratio. Then PATCHes from
# every connection at one label (writers take turns: all must succeed) next to
# the same PATCHes spread over as many labels as connections, so the cost of
# contention shows as a ratio too.
#
#   bash bench/items.sh [seconds per run, default 10] [connections, default 16]
#
# Needs wrk (apt-get install wrk) and PostgreSQL at 127.0.0.1:5432. Every run
# is bounded in time; everything listens on 127.0.0.1 only.
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib.sh
DURATION=${1:-10}
CONNECTIONS=${2:-16}
need wrk
cargo build --release -q -p canvasctl -p canvas-grpc-load
bench_work

run_backend() {
    local backend=$1 url=$2
    local dir="$WORK/$backend"
    up_start "$BIN/canvasctl" "$dir" "$WORK/$backend.log" "$UP_HTTP" "$UP_GRPC" CANVAS_DATABASE_URL="$url"
    wait_for "http://$UP_HTTP/healthz" 100
    local token project base
    token=$(credential "$dir" token)
    project=$(credential "$dir" projectId)
    base="http://$UP_HTTP/api/v2/projects/$project/item"
    cat >"$WORK/create.lua" <<LUA
wrk.method = "POST"
wrk.body = '{"text": "bench", "position": {"x": 1, "y": 2}}'
wrk.headers["Content-Type"] = "application/json"
wrk.headers["Authorization"] = "Bearer $token"
LUA
    cat >"$WORK/get.lua" <<LUA
wrk.headers["Authorization"] = "Bearer $token"
LUA
    local item
    item=$(seed_label "$base" "$token")
    echo "== $backend"
    wrk -t2 -c"$CONNECTIONS" -d"${DURATION}s" --latency -s "$WORK/create.lua" "$base/panel/label" | summarize "rest create"
    wrk -t2 -c"$CONNECTIONS" -d"${DURATION}s" --latency -s "$WORK/get.lua" "$base/$item" | summarize "rest get"
    "$BIN/canvas-grpc-load" --core "http://$UP_GRPC" --token "$token" --project "$project" --call create \
        --concurrency "$CONNECTIONS" --duration "$DURATION"
    "$BIN/canvas-grpc-load" --core "http://$UP_GRPC" --token "$token" --project "$project" --call get \
        --concurrency "$CONNECTIONS" --duration "$DURATION"
    # PATCH: every request at one label, then spread over one label per connection.
    local ids=()
    for _ in $(seq 1 "$CONNECTIONS"); do
        ids+=("$(seed_label "$base" "$token" '{"text":"w"}')")
    done
    patch_script() {
        local list
        list=$(printf '"%s",' "$@")
        cat <<LUA
local ids = {${list%,}}
local n = 0
request = function()
    n = n + 1
    local body = '{"text": "write ' .. n .. '"}'
    return wrk.format("PATCH", "$base/label/" .. ids[(n % #ids) + 1], {["Content-Type"] = "application/json",
        ["Authorization"] = "Bearer $token"}, body)
end
LUA
    }
    patch_script "${ids[0]}" >"$WORK/patch-one.lua"
    patch_script "${ids[@]}" >"$WORK/patch-spread.lua"
    wrk -t2 -c"$CONNECTIONS" -d"${DURATION}s" --latency -s "$WORK/patch-one.lua" "http://$UP_HTTP" | summarize "rest patch-one-item"
    wrk -t2 -c"$CONNECTIONS" -d"${DURATION}s" --latency -s "$WORK/patch-spread.lua" "http://$UP_HTTP" | summarize "rest patch-spread"
    up_stop
}

run_backend sqlite ""
PG_DB="canvas_bench_$$"
pg_create "$PG_DB"
run_backend postgres "$(pg_url "$PG_DB")"
pg_drop "$PG_DB"
