#!/usr/bin/env bash
# The account site's costs (wrk) against `canvasctl up`, on SQLite and on PostgreSQL:
#   - a REST read (GET .../items) with an API token: the baseline;
#   - the same read with a session cookie instead (what the web map of a signed-in person does);
#   - an account page (GET /account/api-tokens: the session, then the token list);
#   - successful sign-ins (POST /account/sign-in): Argon2id by design, bounded per replica.
# Each figure is reported next to the baseline of the same run, so the ratio is what to read.
#
#   bash bench/accounts.sh [seconds per run, default 10] [connections, default 8]
#
# Needs wrk (apt-get install wrk) and PostgreSQL at 127.0.0.1:5432. Every run is bounded in time;
# everything listens on 127.0.0.1 only.
set -euo pipefail
cd "$(dirname "$0")/.."
DURATION=${1:-10}
CONNECTIONS=${2:-8}
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/canvas-target}"
command -v wrk >/dev/null || { apt-get update -qq && apt-get install -y -qq wrk; }
cargo build --release -q -p canvasctl
BIN="$CARGO_TARGET_DIR/release"
WORK=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$WORK"' EXIT
PASSWORD="bench password 1"
HTTP=127.0.0.1:18080

summarize() {
    awk -v name="$1" '/Requests\/sec/ {rps=$2} /^ +50%/ {p50=$2} /^ +99%/ {p99=$2} /Non-2xx/ {bad=$4}
        END {printf "%s rps=%.0f p50=%s p99=%s non2xx=%s\n", name, rps, p50, p99, (bad==""?0:bad)}'
}

run_backend() {
    local backend=$1 url=$2
    local dir="$WORK/$backend"
    CANVAS_DATABASE_URL="$url" "$BIN/canvasctl" up --data-dir "$dir" --http-addr "$HTTP" \
        --grpc-addr 127.0.0.1:15051 >"$WORK/$backend.log" 2>&1 &
    local pid=$!
    for _ in $(seq 1 100); do
        curl -fs "http://$HTTP/healthz" >/dev/null 2>&1 && break
        sleep 0.2
    done
    local creds="$dir/dev-credentials.json"
    local token project user admin
    token=$(python3 -c "import json;print(json.load(open('$creds'))['token'])")
    project=$(python3 -c "import json;print(json.load(open('$creds'))['projectId'])")
    user=$(python3 -c "import json;print(json.load(open('$creds'))['userId'])")
    admin=$(python3 -c "import json;print(json.load(open('$creds'))['adminToken'])")
    echo "$PASSWORD" | CANVAS_ADMIN_TOKEN="$admin" "$BIN/canvasctl" user login --core http://127.0.0.1:15051 \
        --user "$user" --login demo --password-stdin >/dev/null
    # One session for the cookie reads; the sign-in form's double-submit value is any value the
    # cookie and the field share.
    local session
    session=$(curl -s -o /dev/null -D - -X POST -H 'Cookie: canvas_csrf=bench' -H "Origin: http://$HTTP" \
        --data-urlencode login=demo --data-urlencode "password=$PASSWORD" --data-urlencode csrf=bench \
        "http://$HTTP/account/sign-in" | sed -n 's/^set-cookie: canvas_session=\([^;]*\).*/\1/ip' | tr -d '\r')
    [ -n "$session" ] || { echo "sign-in failed" >&2; exit 1; }
    local items="http://$HTTP/api/v2/projects/$project/items?limit=10"
    for i in $(seq 1 20); do
        curl -fs -o /dev/null -X POST -H "Authorization: Bearer $token" -H 'Content-Type: application/json' \
            -d "{\"text\":\"note $i\"}" "http://$HTTP/api/v2/projects/$project/item/panel/label"
    done
    printf 'wrk.headers["Authorization"] = "Bearer %s"\n' "$token" >"$WORK/token.lua"
    printf 'wrk.headers["Cookie"] = "canvas_session=%s"\n' "$session" >"$WORK/session.lua"
    cat >"$WORK/sign-in.lua" <<LUA
wrk.method = "POST"
wrk.body = "login=demo&password=$(python3 -c "import urllib.parse;print(urllib.parse.quote_plus('$PASSWORD'))")&csrf=bench"
wrk.headers["Content-Type"] = "application/x-www-form-urlencoded"
wrk.headers["Cookie"] = "canvas_csrf=bench"
wrk.headers["Origin"] = "http://$HTTP"
LUA
    echo "== $backend"
    wrk -t2 -c"$CONNECTIONS" -d"${DURATION}s" --latency -s "$WORK/token.lua" "$items" | summarize "items-with-token"
    wrk -t2 -c"$CONNECTIONS" -d"${DURATION}s" --latency -s "$WORK/session.lua" "$items" | summarize "items-with-session"
    wrk -t2 -c"$CONNECTIONS" -d"${DURATION}s" --latency -s "$WORK/session.lua" "http://$HTTP/account/api-tokens" \
        | summarize "tokens-page"
    # A sign-in answers 303: wrk counts it as non-2xx, which is the success here.
    wrk -t2 -c"$CONNECTIONS" -d"${DURATION}s" --latency -s "$WORK/sign-in.lua" "http://$HTTP/account/sign-in" \
        | summarize "sign-in(303)"
    kill "$pid"
    wait "$pid" 2>/dev/null || true
}

run_backend sqlite ""
PG_DB="canvas_bench_$$"
psql -h 127.0.0.1 -U postgres -qc "CREATE DATABASE $PG_DB" postgres
run_backend postgres "postgres://postgres@127.0.0.1:5432/$PG_DB"
psql -h 127.0.0.1 -U postgres -qc "DROP DATABASE $PG_DB WITH (FORCE)" postgres
