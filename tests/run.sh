#!/usr/bin/env bash
# Runs the whole test suite: unit tests, the end-to-end tests on SQLite and
# PostgreSQL, and the canvasctl tests. This is the README's test command and
# what CI runs. It installs what a fresh machine lacks first.
set -euo pipefail
cd "$(dirname "$0")/.."

# PostgreSQL must be up: with CI=true its tests fail rather than skip.
if command -v pg_isready >/dev/null && ! pg_isready -h 127.0.0.1 -p 5432 -q; then
    if command -v pg_ctlcluster >/dev/null; then
        echo "starting PostgreSQL"
        pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | head -n 1)" main start || true
        for _ in $(seq 1 30); do pg_isready -h 127.0.0.1 -p 5432 -q && break; sleep 1; done
    fi
fi

# Tools the tests call.
missing=()
command -v curl >/dev/null || missing+=(curl)
if [ ${#missing[@]} -gt 0 ]; then
    echo "installing ${missing[*]}"
    apt-get update -qq && apt-get install -y -qq "${missing[@]}"
fi
if ! cargo nextest --version >/dev/null 2>&1; then
    cargo install --locked cargo-nextest
fi

profile=default
[ "${CI:-}" = "true" ] && profile=ci
cargo nextest run --workspace --profile "$profile" "$@"
