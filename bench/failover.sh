#!/usr/bin/env bash
# The database fails over under load (issue 43; docs/SCALING.md#when-the-database-fails-over).
# One etcd, two PostgreSQL 15 servers under Patroni (primary and synchronous standby) and HAProxy,
# all on 127.0.0.1 in a temporary directory; `canvasctl up` on it with webhook deliveries to a
# local receiver and knowledge indexing; the primary's machine SIGKILLed FAILOVERS times, then one
# `patronictl switchover`. Prints the write window per failover and fails when an acknowledged
# write is missing, doubled, undelivered or unindexed, or any answer was a 500.
#
#   bash bench/failover.sh [FAILOVERS, default 5] [debug|release, default debug]
#
# Installs patroni, etcd-server, etcd-client and haproxy with apt-get when missing. About 4
# minutes after the build with the defaults.
set -euo pipefail
cd "$(dirname "$0")/.."
FAILOVERS=${1:-5}
BUILD=${2:-debug}
source bench/lib.sh

missing=()
for tool in patroni:patroni etcd:etcd-server etcdctl:etcd-client haproxy:haproxy pg_isready:postgresql-client; do
    command -v "${tool%%:*}" >/dev/null || missing+=("${tool##*:}")
done
[ -x /usr/lib/postgresql/15/bin/postgres ] || missing+=(postgresql-15)
if [ ${#missing[@]} -gt 0 ]; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}"
fi

profile=$BUILD; [ "$BUILD" = debug ] && profile=dev
cargo build -q --profile "$profile" -p canvasctl
python3 bench/failover/run.py --canvasctl "$CARGO_TARGET_DIR/$BUILD/canvasctl" --failovers "$FAILOVERS" "${@:3}"
