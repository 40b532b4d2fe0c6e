#!/usr/bin/env bash
# A project as a file (docs/ARCHIVE.md): export and import of a 10,000-item project with 100 files
# over REST against `canvasctl up` (release build, keyword-only retrieval), on SQLite and on
# PostgreSQL, each against a baseline measured in the same run (bench/archive_client.py):
#
#   - export (GET .../export, the whole archive) ÷ a full listing of the same project
#     (GET .../items, ten pages of 1,000);
#   - import (POST /api/v2/projects/import) ÷ creating the same items through the ordinary calls
#     (ten bulk creates of 990 and 100 uploads).
#
#   bash bench/archive.sh [runs per backend, default 5]
#
# Needs PostgreSQL at 127.0.0.1:5432; everything listens on 127.0.0.1 only. Figures:
# docs/PERFORMANCE.md, every run in docs/performance/archives.md.
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib.sh
RUNS=${1:-5}
cargo build --release -q -p canvasctl
bench_work

run_backend() {
    local backend=$1 url=$2
    local dir="$WORK/$backend"
    # The export and import of 10,000 items are one core-service call each: give them room.
    up_start "$BIN/canvasctl" "$dir" "$WORK/$backend.log" "$UP_HTTP" "$UP_GRPC" CANVAS_DATABASE_URL="$url" \
        CANVAS_EMBEDDING_PROVIDER=off CANVAS_CORE_TIMEOUT_SECS=300
    wait_for "http://$UP_HTTP/readyz"
    echo "== $backend"
    python3 bench/archive_client.py --base "http://$UP_HTTP" --grpc "$UP_GRPC" --canvasctl "$BIN/canvasctl" \
        --token "$(credential "$dir" token)" --admin-token "$(credential "$dir" adminToken)" \
        --user "$(credential "$dir" userId)" --runs "$RUNS"
    up_stop
}

run_backend sqlite ""
pg_fresh bench_archive >/dev/null
run_backend postgres "$(pg_url bench_archive)"
pg_drop bench_archive >/dev/null
