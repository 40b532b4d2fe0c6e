#!/usr/bin/env bash
# Webhook delivery benchmark (docs/performance/webhooks.md): sustained deliveries per
# second to a local HTTPS receiver and write-to-arrival latency, on SQLite and
# on a fresh PostgreSQL database, each once alone and once beside a receiver
# that answers in 2 s (the latency printed is the fast receiver's).
# Usage: bash bench/webhooks.sh [WRITES] [CONCURRENCY] [SQLITE_RATE] [POSTGRES_RATE]
# A rate is writes per second over all writers; 0 (the default) writes as fast
# as the writers go. The issue's targets: bash bench/webhooks.sh 6000 16 600 1500
# BENCH_PROFILE=dev measures the (much slower) debug build instead of release.
set -euo pipefail
cd "$(dirname "$0")/.."
writes="${1:-2000}"
concurrency="${2:-8}"
sqlite_rate="${3:-0}"
postgres_rate="${4:-0}"
slow_ms="${SLOW_RECEIVER_MS:-2000}"
profile="${BENCH_PROFILE:-release}"
cargo build --profile "$profile" -q -p canvas-webhooks-bench
dir="$profile"; [ "$profile" = dev ] && dir=debug
bin="${CARGO_TARGET_DIR:-target}/$dir/canvas-webhooks-bench"
run() { "$bin" --writes "$writes" --concurrency "$concurrency" "$@"; }
run --rate "$sqlite_rate"
run --rate "$sqlite_rate" --slow-receiver-ms "$slow_ms"
if pg_isready -h 127.0.0.1 -p 5432 -q 2>/dev/null; then
    drop() { for db in "$@"; do psql -h 127.0.0.1 -U postgres -q -c "DROP DATABASE IF EXISTS $db" >/dev/null; done; }
    dbs=("canvas_webhook_bench_$$" "canvas_webhook_bench_slow_$$")
    trap 'drop "${dbs[@]}"' EXIT
    for i in 0 1; do
        psql -h 127.0.0.1 -U postgres -q -c "CREATE DATABASE ${dbs[$i]}" >/dev/null
        slow=0; [ "$i" = 1 ] && slow="$slow_ms"
        run --rate "$postgres_rate" --slow-receiver-ms "$slow" --database-url "postgres://postgres@127.0.0.1:5432/${dbs[$i]}"
    done
fi
