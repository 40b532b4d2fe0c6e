#!/usr/bin/env bash
# What reading heavy reads from a standby costs (--read-database-url, docs/SCALING.md "Reads from
# a standby"): listing pages (GET …/items?limit=100 of a 1,000-item project) with wrk against
# `canvasctl up` on a PostgreSQL primary, once with every read on the primary (the baseline) and
# once with a streaming standby as the read URL, both idle and under a steady writer (every write
# moves the primary's WAL position, so the standby must catch up before each read). The primary
# and the standby are this script's own (initdb, pg_basebackup) on loopback ports 15461 and 15462.
#
#   bash bench/standby_reads.sh [seconds per run, default 10] [connections, default 8]
#
# Needs wrk (installed when missing) and PostgreSQL 15's binaries (Debian's postgresql-15).
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib.sh
DURATION=${1:-10}
CONNECTIONS=${2:-8}
need wrk
cargo build --release -q -p canvasctl
bench_work
python3 bench/standby_reads.py --canvasctl "$BIN/canvasctl" --work "$WORK" --seconds "$DURATION" \
    --connections "$CONNECTIONS"
