#!/usr/bin/env bash
# The cost of OpenTelemetry trace export: REST item writes per second through
# nginx in front of the multi-process deployment (bench/deploy.sh's topology,
# one core-service replica), first with no collector configured, then with
# every component exporting every span (sample ratio 1.0) over OTLP/HTTP to a
# local sink that accepts and counts them; prints both figures and the ratio.
#
#   bash bench/telemetry.sh [seconds per run, default 10] [connections, default 16] [debug|release, default debug]
#
# The sink (bench/otlp_sink.py) stands in for a collector: it answers every
# POST /v1/traces with 200 and counts requests and bytes, so the figure is
# the cost inside the components (span creation, batching, protobuf encoding,
# HTTP export), not a collector's. Bounded in time; loopback only.
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

SINK_PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
python3 bench/otlp_sink.py "$SINK_PORT" "$WORK/sink.json" &
SINK_PID=$!

# Prints the create rate (requests/s); `label` names the run, the rest is its environment.
measure() {
    local label=$1
    shift
    env "$@" CANVAS_BIN_DIR="$BIN" "$BIN/canvas-deploy" --cores 1 >"$WORK/deploy-$label.json" 2>"$WORK/deploy-$label.log" &
    local pid=$!
    for _ in $(seq 1 600); do
        [ -s "$WORK/deploy-$label.json" ] && break
        kill -0 "$pid" 2>/dev/null || { cat "$WORK/deploy-$label.log" >&2; exit 1; }
        sleep 0.1
    done
    local base token project
    base=$(python3 -c "import json;print(json.load(open('$WORK/deploy-$label.json'))['baseUrl'])")
    token=$(python3 -c "import json;print(json.load(open('$WORK/deploy-$label.json'))['token'])")
    project=$(python3 -c "import json;print(json.load(open('$WORK/deploy-$label.json'))['projectId'])")
    cat >"$WORK/create.lua" <<LUA
wrk.method = "POST"
wrk.body = '{"text": "bench", "position": {"x": 1, "y": 2}}'
wrk.headers["Content-Type"] = "application/json"
wrk.headers["Authorization"] = "Bearer $token"
LUA
    wrk -t2 -c"$CONNECTIONS" -d2s -s "$WORK/create.lua" "$base/api/v2/projects/$project/item/panel/label" >/dev/null
    wrk -t2 -c"$CONNECTIONS" -d"${DURATION}s" --latency -s "$WORK/create.lua" \
        "$base/api/v2/projects/$project/item/panel/label" >"$WORK/wrk-$label.txt"
    awk -v label="$label" '/Requests\/sec/ {rps=$2} /^ +50%/ {p50=$2} /^ +99%/ {p99=$2} /Non-2xx/ {bad=$4}
        END {printf "%s: create rps=%.0f p50=%s p99=%s non2xx=%s\n", label, rps, p50, p99, (bad==""?0:bad)}' \
        "$WORK/wrk-$label.txt" >&2
    awk '/Requests\/sec/ {printf "%.0f", $2}' "$WORK/wrk-$label.txt"
    kill "$pid"
    wait "$pid" 2>/dev/null || true
}

echo "build: $BUILD; $DURATION s per run; $CONNECTIONS connections; wrk through nginx; 1 core-service" >&2
off=$(measure off OTEL_EXPORTER_OTLP_ENDPOINT=)
on=$(measure on OTEL_EXPORTER_OTLP_ENDPOINT="http://127.0.0.1:$SINK_PORT" OTEL_TRACES_SAMPLER_ARG=1.0)
kill "$SINK_PID"
wait "$SINK_PID" 2>/dev/null || true
python3 - "$WORK/sink.json" "$off" "$on" <<'PY'
import json, sys
sink = json.load(open(sys.argv[1]))
off, on = int(sys.argv[2]), int(sys.argv[3])
print(f"REST item writes/s through nginx: no export = {off}, every span exported = {on}, ratio on/off = {on / off:.2f}; "
      f"the sink got {sink['requests']} export requests, {sink['bytes']} bytes")
PY
