#!/usr/bin/env bash
# How fast a recovery sends a window of failed deliveries again (docs/performance/webhooks.md): the
# receiver is down while WRITES labels are written one after another, then one recovery of the
# window sends each event again, once, in order, one call at a time. The baseline in the same run:
# the same writes, one writer, delivered as they happen (calls in parallel). On SQLite and on a
# fresh PostgreSQL database.
# Usage: bash bench/webhooks_recover.sh [WRITES]
# BENCH_PROFILE=dev measures the debug build.
set -euo pipefail
cd "$(dirname "$0")/.."
writes="${1:-2000}"
profile="${BENCH_PROFILE:-release}"
cargo build --profile "$profile" -q -p canvas-webhooks-bench
dir="$profile"; [ "$profile" = dev ] && dir=debug
bin="${CARGO_TARGET_DIR:-target}/$dir/canvas-webhooks-bench"
"$bin" --writes "$writes" --concurrency 1
"$bin" --writes "$writes" --recover
if pg_isready -h 127.0.0.1 -p 5432 -q 2>/dev/null; then
    db="canvas_webhook_recover_$$"
    trap 'psql -h 127.0.0.1 -U postgres -q -c "DROP DATABASE IF EXISTS $db" >/dev/null' EXIT
    for mode in "--concurrency 1" "--recover"; do
        psql -h 127.0.0.1 -U postgres -q -c "DROP DATABASE IF EXISTS $db" -c "CREATE DATABASE $db" >/dev/null
        # shellcheck disable=SC2086
        "$bin" --writes "$writes" $mode --database-url "postgres://postgres@127.0.0.1:5432/$db"
    done
fi
