#!/usr/bin/env bash
# REST item writes per second through nginx in front of the multi-process
# deployment of tests/tests/deployment.rs (two rest-gateways, two
# mcp-gateways, two webhook-dispatchers, nginx; one fresh PostgreSQL database
# per run), first with one core-service replica, then with two; then reads of
# one item the same way; prints each pair of figures and its ratio.
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
source bench/deploy_lib.sh

echo "build: $BUILD; $DURATION s per run; $CONNECTIONS connections; wrk through nginx" >&2
one=$(measure cores=1 1)
two=$(measure cores=2 2)
python3 -c "print(f'REST item writes/s through nginx: 1 core-service = $one, 2 core-services = $two, ratio 2/1 = {$two / $one:.2f}')"
get_one=$(cat "$WORK/get-cores=1")
get_two=$(cat "$WORK/get-cores=2")
python3 -c "print(f'REST item reads/s through nginx: 1 core-service = $get_one, 2 core-services = $get_two, ratio 2/1 = {$get_two / $get_one:.2f}')"
