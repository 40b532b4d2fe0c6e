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
DURATION=${1:-10}
CONNECTIONS=${2:-16}
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/canvas-target}"
command -v wrk >/dev/null || { apt-get update -qq && apt-get install -y -qq wrk; }
cargo build --release -q -p canvasctl -p canvas-grpc-load
BIN="$CARGO_TARGET_DIR/release"
WORK=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$WORK"' EXIT

run_backend() {
    local backend=$1 url=$2
    local dir="$WORK/$backend"
    CANVAS_DATABASE_URL="$url" "$BIN/canvasctl" up --data-dir "$dir" --http-addr 127.0.0.1:18080 \
        --grpc-addr 127.0.0.1:15051 >"$WORK/$backend.log" 2>&1 &
    local pid=$!
    for _ in $(seq 1 100); do
        curl -fs http://127.0.0.1:18080/healthz >/dev/null 2>&1 && break
        sleep 0.2
    done
    local token project base
    token=$(python3 -c "import json;print(json.load(open('$dir/dev-credentials.json'))['token'])")
    project=$(python3 -c "import json;print(json.load(open('$dir/dev-credentials.json'))['projectId'])")
    base="http://127.0.0.1:18080/api/v2/projects/$project/item"
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
    item=$(curl -fs -X POST -H "Authorization: Bearer $token" -H 'Content-Type: application/json' \
        -d '{"text":"seed"}' "$base/panel/label" | python3 -c "import json,sys;print(json.load(sys.stdin)['ItemId'])")
    summarize() { awk -v name="$1" '/Requests\/sec/ {rps=$2} /^ +50%/ {p50=$2} /^ +99%/ {p99=$2} /Non-2xx/ {bad=$4}
        END {printf "rest %s rps=%.0f p50=%s p99=%s non2xx=%s\n", name, rps, p50, p99, (bad==""?0:bad)}'; }
    echo "== $backend"
    wrk -t2 -c"$CONNECTIONS" -d"${DURATION}s" --latency -s "$WORK/create.lua" "$base/panel/label" | summarize create
    wrk -t2 -c"$CONNECTIONS" -d"${DURATION}s" --latency -s "$WORK/get.lua" "$base/$item" | summarize get
    "$BIN/canvas-grpc-load" --core http://127.0.0.1:15051 --token "$token" --project "$project" --call create \
        --concurrency "$CONNECTIONS" --duration "$DURATION"
    "$BIN/canvas-grpc-load" --core http://127.0.0.1:15051 --token "$token" --project "$project" --call get \
        --concurrency "$CONNECTIONS" --duration "$DURATION"
    # PATCH: every request at one label, then spread over one label per connection.
    local ids=()
    for _ in $(seq 1 "$CONNECTIONS"); do
        ids+=("$(curl -fs -X POST -H "Authorization: Bearer $token" -H 'Content-Type: application/json' \
            -d '{"text":"w"}' "$base/panel/label" | python3 -c "import json,sys;print(json.load(sys.stdin)['ItemId'])")")
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
    wrk -t2 -c"$CONNECTIONS" -d"${DURATION}s" --latency -s "$WORK/patch-one.lua" "http://127.0.0.1:18080" | summarize patch-one-item
    wrk -t2 -c"$CONNECTIONS" -d"${DURATION}s" --latency -s "$WORK/patch-spread.lua" "http://127.0.0.1:18080" | summarize patch-spread
    kill "$pid"
    wait "$pid" 2>/dev/null || true
}

run_backend sqlite ""
PG_DB="canvas_bench_$$"
psql -h 127.0.0.1 -U postgres -qc "CREATE DATABASE $PG_DB" postgres
run_backend postgres "postgres://postgres@127.0.0.1:5432/$PG_DB"
psql -h 127.0.0.1 -U postgres -qc "DROP DATABASE $PG_DB WITH (FORCE)" postgres
