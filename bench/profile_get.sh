#!/usr/bin/env bash
# Where the CPU time of `GET .../item/{id}` goes (docs/PERFORMANCE.md, "The GET path"): wrk reads
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
DURATION=${1:-10}
CONNECTIONS=${2:-16}
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/canvas-target}"
command -v wrk >/dev/null || { apt-get update -qq && apt-get install -y -qq wrk; }
command -v perf >/dev/null || { apt-get update -qq && apt-get install -y -qq linux-perf; }
BINARY=${3:-}
if [ -z "$BINARY" ]; then
    cargo build --release -q -p canvasctl
    BINARY="$CARGO_TARGET_DIR/release/canvasctl"
fi
WORK=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; [ -n "${KEEP_PERF:-}" ] && cp "$WORK/perf.data" "$KEEP_PERF"; rm -rf "$WORK"' EXIT

CANVAS_RATE_LIMIT_REQUESTS=0 "$BINARY" up --data-dir "$WORK/data" --http-addr 127.0.0.1:18090 \
    --grpc-addr 127.0.0.1:15090 >"$WORK/up.log" 2>&1 &
pid=$!
for _ in $(seq 1 150); do
    curl -fs http://127.0.0.1:18090/healthz >/dev/null 2>&1 && break
    sleep 0.2
done
token=$(python3 -c "import json;print(json.load(open('$WORK/data/dev-credentials.json'))['token'])")
project=$(python3 -c "import json;print(json.load(open('$WORK/data/dev-credentials.json'))['projectId'])")
base="http://127.0.0.1:18090/api/v2/projects/$project/item"
item=$(curl -fs -X POST -H "Authorization: Bearer $token" -H 'Content-Type: application/json' \
    -d '{"text":"seed","position":{"x":1,"y":2}}' "$base/panel/label" | python3 -c "import json,sys;print(json.load(sys.stdin)['ItemId'])")
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
kill "$pid"
wait "$pid" 2>/dev/null || true
