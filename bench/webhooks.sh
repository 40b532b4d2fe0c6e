#!/usr/bin/env bash
# Webhook delivery benchmark (docs/PERFORMANCE.md): sustained deliveries per
# second to a local HTTPS receiver and write-to-arrival latency, on SQLite and
# on a fresh PostgreSQL database. Usage: bash bench/webhooks.sh [WRITES] [CONCURRENCY]
# BENCH_PROFILE=dev measures the (much slower) debug build instead of release.
set -euo pipefail
cd "$(dirname "$0")/.."
writes="${1:-2000}"
concurrency="${2:-8}"
profile="${BENCH_PROFILE:-release}"
cargo build --profile "$profile" -q -p canvas-webhooks-bench
dir="$profile"; [ "$profile" = dev ] && dir=debug
bin="${CARGO_TARGET_DIR:-target}/$dir/canvas-webhooks-bench"
"$bin" --writes "$writes" --concurrency "$concurrency"
if pg_isready -h 127.0.0.1 -p 5432 -q 2>/dev/null; then
    db="canvas_webhook_bench_$$"
    psql -h 127.0.0.1 -U postgres -q -c "CREATE DATABASE $db" >/dev/null
    trap 'psql -h 127.0.0.1 -U postgres -q -c "DROP DATABASE IF EXISTS $db" >/dev/null' EXIT
    "$bin" --writes "$writes" --concurrency "$concurrency" --database-url "postgres://postgres@127.0.0.1:5432/$db"
fi
