#!/usr/bin/env bash
# REST item writes per second through nginx in front of the multi-process
# deployment of tests/tests/deployment.rs (two rest-gateways, two
# mcp-gateways, two webhook-dispatchers, nginx; one fresh PostgreSQL database
# per run), first with one core-service replica, then with two; prints both
# figures and their ratio.
#
#   bash bench/deploy.sh [seconds per run, default 10] [connections, default 16] [debug|release, default debug]
#
# Needs wrk and nginx (installed with apt-get when missing) and PostgreSQL at
# 127.0.0.1:5432. Every run is bounded in time; everything listens on
# 127.0.0.1 only. The topology is started by the `canvas-deploy` binary of the
# tests package (tests/src/bin/canvas-deploy.rs), which uses the workspace's
# core-service, rest-gateway, mcp-gateway and webhook-dispatcher binaries.
set -euo pipefail
cd "$(dirname "$0")/.."
DURATION=${1:-10}
CONNECTIONS=${2:-16}
BUILD=${3:-debug}
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/canvas-target}"
missing=()
command -v wrk >/dev/null || missing+=(wrk)
command -v nginx >/dev/null || [ -x /usr/sbin/nginx ] || missing+=(nginx)
if [ ${#missing[@]} -gt 0 ]; then
    apt-get update -qq && apt-get install -y -qq "${missing[@]}"
fi
if [ "$BUILD" = release ]; then
    cargo build --release -q --workspace --bins
else
    cargo build -q --workspace --bins
fi
BIN="$CARGO_TARGET_DIR/$BUILD"
WORK=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; wait 2>/dev/null || true; rm -rf "$WORK"' EXIT

# Prints the create rate (requests/s) with `cores` core-service replicas.
measure() {
    local cores=$1
    CANVAS_BIN_DIR="$BIN" "$BIN/canvas-deploy" --cores "$cores" >"$WORK/deploy-$cores.json" 2>"$WORK/deploy-$cores.log" &
    local pid=$!
    for _ in $(seq 1 600); do
        [ -s "$WORK/deploy-$cores.json" ] && break
        kill -0 "$pid" 2>/dev/null || { cat "$WORK/deploy-$cores.log" >&2; exit 1; }
        sleep 0.1
    done
    local base token project
    base=$(python3 -c "import json;print(json.load(open('$WORK/deploy-$cores.json'))['baseUrl'])")
    token=$(python3 -c "import json;print(json.load(open('$WORK/deploy-$cores.json'))['token'])")
    project=$(python3 -c "import json;print(json.load(open('$WORK/deploy-$cores.json'))['projectId'])")
    cat >"$WORK/create.lua" <<LUA
wrk.method = "POST"
wrk.body = '{"text": "bench", "position": {"x": 1, "y": 2}}'
wrk.headers["Content-Type"] = "application/json"
wrk.headers["Authorization"] = "Bearer $token"
LUA
    # A short warm-up (connections, caches), then the measured run.
    wrk -t2 -c"$CONNECTIONS" -d2s -s "$WORK/create.lua" "$base/api/v2/projects/$project/item/panel/label" >/dev/null
    wrk -t2 -c"$CONNECTIONS" -d"${DURATION}s" --latency -s "$WORK/create.lua" \
        "$base/api/v2/projects/$project/item/panel/label" >"$WORK/wrk-$cores.txt"
    awk -v cores="$cores" '/Requests\/sec/ {rps=$2} /^ +50%/ {p50=$2} /^ +99%/ {p99=$2} /Non-2xx/ {bad=$4}
        END {printf "cores=%s create rps=%.0f p50=%s p99=%s non2xx=%s\n", cores, rps, p50, p99, (bad==""?0:bad)}' \
        "$WORK/wrk-$cores.txt" >&2
    awk '/Requests\/sec/ {printf "%.0f", $2}' "$WORK/wrk-$cores.txt"
    kill "$pid"
    wait "$pid" 2>/dev/null || true
}

echo "build: $BUILD; $DURATION s per run; $CONNECTIONS connections; wrk through nginx" >&2
one=$(measure 1)
two=$(measure 2)
python3 -c "print(f'REST item writes/s through nginx: 1 core-service = $one, 2 core-services = $two, ratio 2/1 = {$two / $one:.2f}')"
