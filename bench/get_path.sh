#!/usr/bin/env bash
# The cost of one authenticated read (docs/performance/get-path.md): REST `GET .../item/{id}`
# next to the gateway's own `/healthz` (the HTTP stack's ceiling) and to the same read made
# directly over gRPC (bench/grpc-load), with the access memory on (the default) and off
# (`CANVAS_ACCESS_MEMORY_MS=0`: token and role read from the database on every request, as
# before it existed), on SQLite and PostgreSQL, all in one run so the ratios compare. Rate limits
# are off (`CANVAS_RATE_LIMIT_REQUESTS=0`: one token at full speed would be refused after 3,000
# calls a minute; bench/abuse.sh measures their cost); any non-2xx answer fails the run.
#
# On PostgreSQL it also runs with every pooled connection checked before use
# (`CANVAS_DB_CHECK_IDLE_AFTER_MS=0`, sqlx's default) beside the default (only connections idle
# for a second). With the access memory on it also reads the item through a separate `rest-gateway` process
# (`rest-sep`: the gRPC hop over loopback, as in a deployment of separate pods) next to
# `canvasctl up`'s gateways, which call core-service in process; and it runs a `canvasctl` built
# without mimalloc (`alloc=system`) beside the default one (`alloc=mimalloc`).
#
# gRPC reads are made twice: as `GetItem` answers by default (properties as a protobuf Struct,
# `grpc-get`) and as the REST gateway asks for them (properties as JSON text, `grpc-json`).
#
#   bash bench/get_path.sh [seconds per run, default 10] [connections, default 16]
#
# BEFORE=<a canvasctl binary> also runs that build (an earlier commit's, `alloc=before`) in the
# same run, for before-and-after ratios; VARIANTS="<memory> <alloc> <check>;…" picks the runs
# (default: all four below, then `1000 before 1000` when BEFORE is set).
#
# Needs wrk (installed when missing) and PostgreSQL at 127.0.0.1:5432. Loopback only.
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib.sh
DURATION=${1:-10}
CONNECTIONS=${2:-16}
need wrk
bench_work
# The system allocator's canvasctl first (the same path is then rebuilt with the default features).
cargo build --release -q -p canvasctl --no-default-features
cp "$BIN/canvasctl" "$WORK/canvasctl-system"
cargo build --release -q -p canvasctl -p canvas-grpc-load -p rest-gateway
cp "$BIN/canvasctl" "$WORK/canvasctl-mimalloc"

run() {
    local backend=$1 url=$2 memory=$3 alloc=$4 check=$5
    # A new data directory for every run: a variant listed twice (before and after alternating)
    # must not find the first run's dev-credentials.json, whose token and project belong to a
    # PostgreSQL database dropped since.
    RUNS=$((${RUNS:-0} + 1))
    local dir="$WORK/$backend-$memory-$alloc-$check-$RUNS"
    up_start "$WORK/canvasctl-$alloc" "$dir" "$dir.log" "$UP_HTTP" "$UP_GRPC" CANVAS_RATE_LIMIT_REQUESTS=0 \
        CANVAS_ACCESS_MEMORY_MS="$memory" CANVAS_DB_CHECK_IDLE_AFTER_MS="$check" CANVAS_DATABASE_URL="$url"
    wait_for "http://$UP_HTTP/healthz"
    local token project base item
    token=$(credential "$dir" token)
    project=$(credential "$dir" projectId)
    base="http://$UP_HTTP/api/v2/projects/$project/item"
    item=$(seed_label "$base" "$token")
    printf 'wrk.headers["Authorization"] = "Bearer %s"\n' "$token" >"$WORK/get.lua"
    local healthz get grpc grpc_json separate=0
    healthz=$(wrk -t2 -c"$CONNECTIONS" -d"${DURATION}s" "http://$UP_HTTP/healthz" | wrk_rps)
    get=$(wrk -t2 -c"$CONNECTIONS" -d"${DURATION}s" -s "$WORK/get.lua" "$base/$item" | wrk_rps)
    grpc=$("$BIN/canvas-grpc-load" --core "http://$UP_GRPC" --token "$token" --project "$project" --call get \
        --concurrency "$CONNECTIONS" --duration "$DURATION" | awk '{for (i = 1; i <= NF; i++) if ($i ~ /^rps=/) {sub("rps=", "", $i); printf "%.0f", $i}}')
    grpc_json=$("$BIN/canvas-grpc-load" --core "http://$UP_GRPC" --token "$token" --project "$project" --call get \
        --properties-json --concurrency "$CONNECTIONS" --duration "$DURATION" | awk '{for (i = 1; i <= NF; i++) if ($i ~ /^rps=/) {sub("rps=", "", $i); printf "%.0f", $i}}')
    if [ "$memory" != 0 ] && [ "$alloc" = mimalloc ] && [ "$check" != 0 ]; then
        CANVAS_RATE_LIMIT_REQUESTS=0 "$BIN/rest-gateway" --core "http://$UP_GRPC" --http-addr 127.0.0.1:18081 \
            >"$dir-gateway.log" 2>&1 &
        local gateway=$!
        wait_for http://127.0.0.1:18081/healthz 100 0.1
        separate=$(wrk -t2 -c"$CONNECTIONS" -d"${DURATION}s" -s "$WORK/get.lua" \
            "http://127.0.0.1:18081/api/v2/projects/$project/item/$item" | wrk_rps)
        kill "$gateway"
        wait "$gateway" 2>/dev/null || true
    fi
    awk -v b="$backend" -v m="$memory" -v a="$alloc" -v c="$check" -v h="$healthz" -v g="$get" -v r="$grpc" -v j="$grpc_json" -v s="$separate" 'BEGIN {
        printf "%-8s access-memory-ms=%-4s alloc=%-8s check-idle-after-ms=%-4s healthz=%s rest-get=%s grpc-get=%s grpc-json=%s rest/healthz=%.3f rest/grpc=%.2f rest/grpc-json=%.2f",
            b, m, a, c, h, g, r, j, g / h, (r > 0 ? g / r : 0), (j > 0 ? g / j : 0)
        if (s > 0) printf " rest-sep=%s rest/rest-sep=%.2f", s, g / s
        printf "\n" }'
    up_stop
}

PG_DB="canvas_get_bench_$$"
pg_create "$PG_DB"
# Variants: access memory (ms), allocator, PostgreSQL's idle check (`0`: every pooled connection
# checked with a round trip before use, sqlx's default and this service's before 2026-11-29;
# SQLite has no such check, so it runs that variant once).
DEFAULT_VARIANTS="0 mimalloc 1000;1000 system 1000;1000 mimalloc 0;1000 mimalloc 1000"
if [ -n "${BEFORE:-}" ]; then
    cp "$BEFORE" "$WORK/canvasctl-before"
    DEFAULT_VARIANTS="$DEFAULT_VARIANTS;1000 before 1000"
fi
IFS=';' read -r -a variants <<<"${VARIANTS:-$DEFAULT_VARIANTS}"
for variant in "${variants[@]}"; do
    set -- $variant
    [ "$3" = 0 ] || run sqlite "" "$1" "$2" "$3"
    pg_fresh "$PG_DB"
    run postgres "$(pg_url "$PG_DB")" "$1" "$2" "$3"
done
pg_drop "$PG_DB"
