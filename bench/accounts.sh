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
source bench/lib.sh
DURATION=${1:-10}
CONNECTIONS=${2:-8}
need wrk
cargo build --release -q -p canvasctl
bench_work
PASSWORD="bench password 1"
HTTP=$UP_HTTP

run_backend() {
    local backend=$1 url=$2
    local dir="$WORK/$backend"
    up_start "$BIN/canvasctl" "$dir" "$WORK/$backend.log" "$HTTP" "$UP_GRPC" CANVAS_DATABASE_URL="$url"
    wait_for "http://$HTTP/healthz" 100
    local token project user admin
    token=$(credential "$dir" token)
    project=$(credential "$dir" projectId)
    user=$(credential "$dir" userId)
    admin=$(credential "$dir" adminToken)
    echo "$PASSWORD" | CANVAS_ADMIN_TOKEN="$admin" "$BIN/canvasctl" user login --core "http://$UP_GRPC" \
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
    up_stop
}

run_backend sqlite ""
PG_DB="canvas_bench_$$"
pg_create "$PG_DB"
run_backend postgres "$(pg_url "$PG_DB")"
pg_drop "$PG_DB"
