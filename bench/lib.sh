# shellcheck shell=bash
# The start-up the bench scripts share (sourced, not run): the build directory, tools installed
# when missing, a work directory removed on exit, `canvasctl up` started and waited for, the dev
# credentials it writes, a seeded label, wrk's summary lines and a fresh PostgreSQL database.
#
#   set -euo pipefail
#   cd "$(dirname "$0")/.."
#   source bench/lib.sh
#
# Sourcing sets CARGO_TARGET_DIR (when unset: ~/.cache/canvas-target, the target directory every
# bench and test shares) and BIN (its release directory). `bench_work` makes WORK.
# bench/deploy_lib.sh does the same for the multi-process deployment.

export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/canvas-target}"
# shellcheck disable=SC2034 # BIN, UP_HTTP and UP_GRPC are for the sourcing scripts.
BIN="$CARGO_TARGET_DIR/release"

# Where `canvasctl up` listens unless a script picks other ports (loopback only).
# shellcheck disable=SC2034
UP_HTTP=127.0.0.1:18080
# shellcheck disable=SC2034
UP_GRPC=127.0.0.1:15051

# The PostgreSQL server every bench uses, on loopback.
PG_HOST=127.0.0.1
PG_PORT=5432
PG_USER=postgres

# need COMMAND [PACKAGE]: installs PACKAGE (default: COMMAND) with apt-get when COMMAND is missing.
need() {
    command -v "$1" >/dev/null || { apt-get update -qq && apt-get install -y -qq "${2:-$1}"; }
}

# bench_work: makes the work directory WORK; on exit every background job is stopped and WORK
# removed. A script that defines `bench_keep` has it called first (to copy something out of WORK).
bench_work() {
    WORK=$(mktemp -d)
    trap bench_cleanup EXIT
}

bench_cleanup() {
    # Word splitting of the job list is wanted: one argument per job.
    # shellcheck disable=SC2046
    kill $(jobs -p) 2>/dev/null || true
    if declare -F bench_keep >/dev/null; then bench_keep; fi
    rm -rf "$WORK"
}

# up_start BINARY DIR LOG HTTP_ADDR GRPC_ADDR [NAME=VALUE...]: starts `BINARY up` (a canvasctl)
# in the background with its data in DIR, its output in LOG and the given environment; its pid is
# UP_PID. Wait for it with wait_for.
up_start() {
    local binary=$1 dir=$2 log=$3 http=$4 grpc=$5
    shift 5
    env "$@" "$binary" up --data-dir "$dir" --http-addr "$http" --grpc-addr "$grpc" >"$log" 2>&1 &
    UP_PID=$!
}

# up_stop: stops the `canvasctl up` of up_start and waits for it.
up_stop() {
    kill "$UP_PID"
    wait "$UP_PID" 2>/dev/null || true
}

# wait_for URL [TRIES, default 150] [PAUSE, default 0.2]: asks URL until it answers with a 2xx, at
# most TRIES times PAUSE seconds apart. Never fails: a service that did not come up fails the
# script at its first request instead.
wait_for() {
    local url=$1 tries=${2:-150} pause=${3:-0.2}
    for _ in $(seq 1 "$tries"); do
        curl -fs "$url" >/dev/null 2>&1 && break
        sleep "$pause"
    done
}

# credential DIR KEY: KEY of DIR/dev-credentials.json (token, projectId, userId, adminToken, …),
# written by `canvasctl up`.
credential() {
    python3 -c "import json;print(json.load(open('$1/dev-credentials.json'))['$2'])"
}

# seed_label ITEM_BASE TOKEN [BODY, default {"text":"seed"}]: creates a label through REST
# (POST ITEM_BASE/panel/label, ITEM_BASE being …/api/v2/projects/{p}/item) and prints its id.
seed_label() {
    local body='{"text":"seed"}'
    [ $# -lt 3 ] || body=$3
    curl -fs -X POST -H "Authorization: Bearer $2" -H 'Content-Type: application/json' \
        -d "$body" "$1/panel/label" | python3 -c "import json,sys;print(json.load(sys.stdin)['ItemId'])"
}

# summarize NAME: reads wrk --latency output and prints one line,
# "NAME rps=… p50=… p99=… non2xx=…".
summarize() {
    awk -v name="$1" '/Requests\/sec/ {rps=$2} /^ +50%/ {p50=$2} /^ +99%/ {p99=$2} /Non-2xx/ {bad=$4}
        END {printf "%s rps=%.0f p50=%s p99=%s non2xx=%s\n", name, rps, p50, p99, (bad==""?0:bad)}'
}

# wrk_rps: reads wrk output and prints its requests per second, rounded; fails the script when
# wrk counted a non-2xx answer.
wrk_rps() {
    awk '/Non-2xx/ {bad = $4} /Requests\/sec/ {r = $2} END {if (bad) {print "non-2xx answers: " bad > "/dev/stderr"; exit 1} printf "%.0f", r}'
}

# pg_url DB: the URL of database DB on the bench's PostgreSQL server.
pg_url() {
    echo "postgres://$PG_USER@$PG_HOST:$PG_PORT/$1"
}

# pg_create DB: creates database DB. pg_drop DB: drops it if it exists, whatever is connected.
# pg_fresh DB: both, so DB is empty.
pg_create() {
    psql -h "$PG_HOST" -U "$PG_USER" -qc "CREATE DATABASE $1" postgres
}

pg_drop() {
    psql -h "$PG_HOST" -U "$PG_USER" -qc "DROP DATABASE IF EXISTS $1 WITH (FORCE)" postgres
}

pg_fresh() {
    pg_drop "$1"
    pg_create "$1"
}
