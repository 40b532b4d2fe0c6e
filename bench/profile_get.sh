#!/usr/bin/env bash
# Where the CPU time of `GET .../item/{id}` goes (docs/performance/get-path.md): wrk reads
# one label through `canvasctl up` (release, SQLite unless CANVAS_DATABASE_URL is set) while
# `perf record` samples the process; prints the hottest functions (self time) and the share of
# each group of them (HTTP stack, gRPC and protobuf, JSON, SQL, allocator, kernel).
#
#   bash bench/profile_get.sh [seconds, default 10] [connections, default 16] [canvasctl binary]
#
# The third argument profiles another build (an earlier commit's) with the same load. Needs
# perf (installed when missing) and wrk. Loopback only.
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib.sh
DURATION=${1:-10}
CONNECTIONS=${2:-16}
need wrk
need perf linux-perf
BINARY=${3:-}
if [ -z "$BINARY" ]; then
    cargo build --release -q -p canvasctl
    BINARY="$BIN/canvasctl"
fi
bench_work
# KEEP_PERF=FILE keeps the samples.
bench_keep() { [ -z "${KEEP_PERF:-}" ] || cp "$WORK/perf.data" "$KEEP_PERF"; }

# Ports of its own, so that it can run beside a `canvasctl up` on the usual ones.
HTTP=127.0.0.1:18090
up_start "$BINARY" "$WORK/data" "$WORK/up.log" "$HTTP" 127.0.0.1:15090 CANVAS_RATE_LIMIT_REQUESTS=0
pid=$UP_PID
wait_for "http://$HTTP/healthz"
token=$(credential "$WORK/data" token)
project=$(credential "$WORK/data" projectId)
base="http://$HTTP/api/v2/projects/$project/item"
item=$(seed_label "$base" "$token" '{"text":"seed","position":{"x":1,"y":2}}')
printf 'wrk.headers["Authorization"] = "Bearer %s"\n' "$token" >"$WORK/get.lua"
# Warm up (access memory, pooled connections), then sample during a second run.
wrk -t2 -c"$CONNECTIONS" -d2s -s "$WORK/get.lua" "$base/$item" >/dev/null
wrk -t2 -c"$CONNECTIONS" -d"$((DURATION + 2))s" -s "$WORK/get.lua" "$base/$item" >"$WORK/wrk.txt" &
sleep 1
perf record -F 997 -g -p "$pid" -o "$WORK/perf.data" -- sleep "$DURATION" 2>/dev/null
wait %2 2>/dev/null || true
grep -E "Requests/sec" "$WORK/wrk.txt"
perf report -i "$WORK/perf.data" --no-children --sort symbol --stdio --percent-limit 0.7 2>/dev/null |
    grep -E '^ +[0-9.]+%' | head -40
# Self time by group: each sample's own function, matched by name.
perf report -i "$WORK/perf.data" --no-children --sort symbol --stdio -g none 2>/dev/null |
    awk '/^ +[0-9.]+%/ {
        share = $1; sub("%", "", share); name = $0
        group = "other"
        if (name ~ /\[k\]/) group = "kernel (syscalls, loopback TCP)"
        else if (name ~ /mi_|malloc|free|realloc|memcpy|memmove/) group = "allocator and copies"
        else if (name ~ /hyper|h2::|http::|axum|tower|httparse/) group = "HTTP stack (hyper, h2, axum, tower)"
        else if (name ~ /prost|tonic|Struct|proto_struct/) group = "gRPC and protobuf"
        else if (name ~ /serde|json|casing|Recased/) group = "JSON"
        else if (name ~ /sqlx|sqlite|libsqlite|postgres/) group = "SQL"
        else if (name ~ /tokio|parking|futures/) group = "async runtime"
        total[group] += share
    } END { for (g in total) printf "%6.1f%%  %s\n", total[g], g }' | sort -rn
up_stop
