#!/usr/bin/env bash
# How closely a webhook's `maxDeliveriesPerSecond` is kept (docs/performance/webhooks.md): the
# writes run ahead of the pace, and the run prints the calls per second after the first second's
# burst as a ratio to the pace, with one dispatcher and with two sharing the bucket, on SQLite and
# on a fresh PostgreSQL database. The issue's bar: within 10 % of the pace.
# Usage: bash bench/webhooks_pace.sh [PACE] [WRITES]
# BENCH_PROFILE=dev measures the debug build (the pace is a matter of time, not of CPU).
set -euo pipefail
cd "$(dirname "$0")/.."
pace="${1:-50}"
writes="${2:-600}"
profile="${BENCH_PROFILE:-release}"
cargo build --profile "$profile" -q -p canvas-webhooks-bench
dir="$profile"; [ "$profile" = dev ] && dir=debug
bin="${CARGO_TARGET_DIR:-target}/$dir/canvas-webhooks-bench"
for dispatchers in 1 2; do
    "$bin" --writes "$writes" --concurrency 8 --pace "$pace" --dispatchers "$dispatchers"
done
if pg_isready -h 127.0.0.1 -p 5432 -q 2>/dev/null; then
    db="canvas_webhook_pace_$$"
    trap 'psql -h 127.0.0.1 -U postgres -q -c "DROP DATABASE IF EXISTS $db" >/dev/null' EXIT
    for dispatchers in 1 2; do
        psql -h 127.0.0.1 -U postgres -q -c "DROP DATABASE IF EXISTS $db" -c "CREATE DATABASE $db" >/dev/null
        "$bin" --writes "$writes" --concurrency 8 --pace "$pace" --dispatchers "$dispatchers" \
            --database-url "postgres://postgres@127.0.0.1:5432/$db"
    done
fi
