#!/usr/bin/env bash
# Checks the running service against its own OpenAPI document (GET /api/openapi.json) with
# schemathesis: it generates requests from the document for every operation and checks each
# answer: no 5xx (not_a_server_error), the status is documented (status_code_conformance), the
# Content-Type is documented (content_type_conformance) and the body matches the documented
# schema (response_schema_conformance). Any failure is a bug, in the service or in the document.
#
# Runs twice, so both backends give the same answers: `canvasctl up` (the binary built by
# `cargo build --workspace --bins`) on free ports with a temporary data directory, once on SQLite
# and once with CANVAS_DATABASE_URL naming a fresh PostgreSQL database (created from
# CANVAS_TEST_POSTGRES_URL, default postgres://postgres@127.0.0.1:5432/postgres, as the e2e tests
# do, and dropped afterwards; skipped when PostgreSQL does not answer, a failure under CI=true).
# Each run reads the demo user's token and project from dev-credentials.json and stops the
# service on exit. Called by tests/run.sh; runs alone too:
#   CARGO_TARGET_DIR=... bash tests/schemathesis/run.sh [extra schemathesis run options]
# Settings (examples per operation, excluded operations and why) are in schemathesis.toml.
# Before the SQLite run, the served document is linted by Redocly CLI (recommended rules as errors,
# redocly.yaml; the exceptions and their reasons in .redocly.lint-ignore.yaml): no problem.
set -euo pipefail
cd "$(dirname "$0")/../.."

target_dir="${CARGO_TARGET_DIR:-target}"
canvasctl="$target_dir/debug/canvasctl"
venv="${CANVAS_MCP_VENV:-$HOME/.cache/canvas-venv}"
schemathesis="$venv/bin/schemathesis"
[ -x "$canvasctl" ] || { echo "schemathesis: $canvasctl is missing; run cargo build --workspace --bins" >&2; exit 1; }
[ -x "$schemathesis" ] || { echo "schemathesis: $schemathesis is missing (tests/run.sh installs it)" >&2; exit 1; }
redocly="${CANVAS_REDOCLY_DIR:-$HOME/.cache/canvas-redocly}/node_modules/.bin/redocly"
[ -x "$redocly" ] || { echo "redocly: $redocly is missing (tests/run.sh installs it)" >&2; exit 1; }

admin_url="${CANVAS_TEST_POSTGRES_URL:-postgres://postgres@127.0.0.1:5432/postgres}"
free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

data_dir=""
canvasctl_pid=""
pg_database=""
stop() {
    if [ -n "$canvasctl_pid" ]; then
        kill "$canvasctl_pid" 2>/dev/null || true
        wait "$canvasctl_pid" 2>/dev/null || true
    fi
    canvasctl_pid=""
    [ -n "$data_dir" ] && rm -rf "$data_dir"
    data_dir=""
    if [ -n "$pg_database" ]; then
        psql "$admin_url" -qc "DROP DATABASE IF EXISTS $pg_database WITH (FORCE)" >/dev/null 2>&1 || true
    fi
    pg_database=""
}
trap stop EXIT

# check BACKEND [extra schemathesis run options]: one service on BACKEND (sqlite or postgres), one
# schemathesis run against it.
check() {
    local backend="$1"
    shift
    data_dir="$(mktemp -d)"
    local http_port grpc_port base_url database_url=""
    http_port="$(free_port)"
    grpc_port="$(free_port)"
    base_url="http://127.0.0.1:$http_port"
    if [ "$backend" = postgres ]; then
        pg_database="canvas_schemathesis_$(python3 -c 'import uuid; print(uuid.uuid4().hex)')"
        psql "$admin_url" -qc "CREATE DATABASE $pg_database" >/dev/null
        database_url="${admin_url%/*}/$pg_database"
    fi

    # Keyword retrieval only: no embedding model to load or download; the REST surface is the same.
    CANVAS_DATABASE_URL="$database_url" CANVAS_EMBEDDING_PROVIDER=off RUST_LOG="${RUST_LOG:-warn}" \
        "$canvasctl" up --data-dir "$data_dir" --http-addr "127.0.0.1:$http_port" \
        --grpc-addr "127.0.0.1:$grpc_port" >"$data_dir/canvasctl.log" 2>&1 &
    canvasctl_pid=$!

    for _ in $(seq 1 120); do
        if [ -s "$data_dir/dev-credentials.json" ] && curl -fsS "$base_url/readyz" >/dev/null 2>&1; then break; fi
        if ! kill -0 "$canvasctl_pid" 2>/dev/null; then
            echo "schemathesis ($backend): canvasctl up exited:" >&2; cat "$data_dir/canvasctl.log" >&2; exit 1
        fi
        sleep 0.5
    done
    curl -fsS "$base_url/readyz" >/dev/null || {
        echo "schemathesis ($backend): canvasctl up is not ready" >&2; cat "$data_dir/canvasctl.log" >&2; exit 1
    }

    credential() { python3 -c "import json, sys; print(json.load(open(sys.argv[1]))[sys.argv[2]])" "$data_dir/dev-credentials.json" "$1"; }
    CANVAS_TOKEN="$(credential token)"
    CANVAS_PROJECT="$(credential projectId)"
    export CANVAS_TOKEN CANVAS_PROJECT

    if [ "$backend" = sqlite ]; then
        # The served document against Redocly's recommended rules, every one an error (pinned
        # @redocly/cli, installed by tests/run.sh; redocly.yaml), except the places
        # .redocly.lint-ignore.yaml names with its reasons: no problem may remain.
        curl -fsS "$base_url/api/openapi.json" -o "$data_dir/openapi.json"
        cp tests/schemathesis/redocly.yaml tests/schemathesis/.redocly.lint-ignore.yaml "$data_dir/"
        echo "redocly: linting $base_url/api/openapi.json"
        (cd "$data_dir" && REDOCLY_TELEMETRY=off REDOCLY_SUPPRESS_UPDATE_NOTICE=true "$redocly" lint openapi.json --format=stylish) || {
            echo "redocly: the OpenAPI document has problems" >&2; stop; return 1; }
    fi

    echo "schemathesis ($backend): checking $base_url against $base_url/api/openapi.json"
    local started=$SECONDS code=0
    "$schemathesis" --config-file tests/schemathesis/schemathesis.toml run "$base_url/api/openapi.json" \
        --url "$base_url" \
        --checks not_a_server_error,status_code_conformance,content_type_conformance,response_schema_conformance \
        "$@" || code=$?
    echo "schemathesis ($backend): exit $code after $((SECONDS - started)) s"
    if [ "$code" -ne 0 ]; then
        echo "schemathesis ($backend): failures (exit $code); the server's log follows" >&2
        tail -n 100 "$data_dir/canvasctl.log" >&2
    fi
    stop
    return "$code"
}

status=0
check sqlite "$@" || status=$?
if psql "$admin_url" -qc "SELECT 1" >/dev/null 2>&1; then
    check postgres "$@" || status=$?
elif [ "${CI:-}" = true ]; then
    echo "schemathesis: PostgreSQL is unreachable at $admin_url and CI=true: the PostgreSQL run must happen" >&2
    status=1
else
    echo "schemathesis: SKIPPED the PostgreSQL run: PostgreSQL is unreachable at $admin_url" >&2
fi
exit "$status"
