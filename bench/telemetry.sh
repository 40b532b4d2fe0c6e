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
source bench/deploy_lib.sh

SINK_PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
python3 bench/otlp_sink.py "$SINK_PORT" "$WORK/sink.json" &
SINK_PID=$!

echo "build: $BUILD; $DURATION s per run; $CONNECTIONS connections; wrk through nginx; 1 core-service" >&2
off=$(measure off 1 OTEL_EXPORTER_OTLP_ENDPOINT=)
on=$(measure on 1 OTEL_EXPORTER_OTLP_ENDPOINT="http://127.0.0.1:$SINK_PORT" OTEL_TRACES_SAMPLER_ARG=1.0)
kill "$SINK_PID"
wait "$SINK_PID" 2>/dev/null || true
python3 - "$WORK/sink.json" "$off" "$on" <<'PY'
import json, sys
sink = json.load(open(sys.argv[1]))
off, on = int(sys.argv[2]), int(sys.argv[3])
print(f"REST item writes/s through nginx: no export = {off}, every span exported = {on}, ratio on/off = {on / off:.2f}; "
      f"the sink got {sink['requests']} export requests, {sink['bytes']} bytes")
PY
