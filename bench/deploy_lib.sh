# Shared by bench/deploy.sh and bench/telemetry.sh (sourced, not run): installs wrk and nginx when
# missing, builds the workspace binaries, and measures REST label creates, then reads of one item,
# through nginx in front of the multi-process deployment started by the `canvas-deploy` binary
# (tests/src/bin).
#
# The sourcing script sets DURATION, CONNECTIONS and BUILD first. The build directory comes from
# bench/lib.sh, the other benches' start-up.

source bench/lib.sh
missing=()
command -v wrk >/dev/null || missing+=(wrk)
command -v nginx >/dev/null || [ -x /usr/sbin/nginx ] || missing+=(nginx)
if [ ${#missing[@]} -gt 0 ]; then
    apt-get update -qq && apt-get install -y -qq "${missing[@]}"
fi
if [ "$BUILD" = release ]; then
    cargo build --release -q --workspace --bins
else
    cargo build -q --workspace --bins
fi
BIN="$CARGO_TARGET_DIR/$BUILD"
WORK=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; wait 2>/dev/null || true; rm -rf "$WORK"' EXIT

# measure LABEL CORES [NAME=VALUE...]: starts the deployment with CORES core-service replicas and
# the given environment, creates labels with wrk through nginx (2 s warm-up, then DURATION s),
# prints a summary line on stderr and the create rate (requests/s) on stdout, and stops it.
measure() {
    local label=$1 cores=$2
    shift 2
    env "$@" CANVAS_BIN_DIR="$BIN" "$BIN/canvas-deploy" --cores "$cores" \
        >"$WORK/deploy-$label.json" 2>"$WORK/deploy-$label.log" &
    local pid=$!
    for _ in $(seq 1 600); do
        [ -s "$WORK/deploy-$label.json" ] && break
        kill -0 "$pid" 2>/dev/null || { cat "$WORK/deploy-$label.log" >&2; exit 1; }
        sleep 0.1
    done
    local base token project
    base=$(python3 -c "import json;print(json.load(open('$WORK/deploy-$label.json'))['baseUrl'])")
    token=$(python3 -c "import json;print(json.load(open('$WORK/deploy-$label.json'))['token'])")
    project=$(python3 -c "import json;print(json.load(open('$WORK/deploy-$label.json'))['projectId'])")
    cat >"$WORK/create.lua" <<LUA
wrk.method = "POST"
wrk.body = '{"text": "bench", "position": {"x": 1, "y": 2}}'
wrk.headers["Content-Type"] = "application/json"
wrk.headers["Authorization"] = "Bearer $token"
LUA
    # A short warm-up (connections, caches), then the measured run.
    wrk -t2 -c"$CONNECTIONS" -d2s -s "$WORK/create.lua" "$base/api/v2/projects/$project/item/panel/label" >/dev/null
    wrk -t2 -c"$CONNECTIONS" -d"${DURATION}s" --latency -s "$WORK/create.lua" \
        "$base/api/v2/projects/$project/item/panel/label" >"$WORK/wrk-$label.txt"
    awk -v label="$label" '/Requests\/sec/ {rps=$2} /^ +50%/ {p50=$2} /^ +99%/ {p99=$2} /Non-2xx/ {bad=$4}
        END {printf "%s: create rps=%.0f p50=%s p99=%s non2xx=%s\n", label, rps, p50, p99, (bad==""?0:bad)}' \
        "$WORK/wrk-$label.txt" >&2
    # Reads of one item through nginx, the gateways and core-service in separate processes; the
    # rate goes to $WORK/get-$label (bench/deploy.sh prints it).
    local item
    item=$(curl -fs -X POST -H "Authorization: Bearer $token" -H 'Content-Type: application/json' \
        -d '{"text":"read me"}' "$base/api/v2/projects/$project/item/panel/label" |
        python3 -c "import json,sys;print(json.load(sys.stdin)['ItemId'])")
    printf 'wrk.headers["Authorization"] = "Bearer %s"\n' "$token" >"$WORK/get.lua"
    wrk -t2 -c"$CONNECTIONS" -d"${DURATION}s" --latency -s "$WORK/get.lua" \
        "$base/api/v2/projects/$project/item/$item" >"$WORK/wrk-get-$label.txt"
    awk -v label="$label" '/Requests\/sec/ {rps=$2} /^ +50%/ {p50=$2} /^ +99%/ {p99=$2} /Non-2xx/ {bad=$4}
        END {printf "%s: get rps=%.0f p50=%s p99=%s non2xx=%s\n", label, rps, p50, p99, (bad==""?0:bad)}' \
        "$WORK/wrk-get-$label.txt" >&2
    awk '/Requests\/sec/ {printf "%.0f", $2}' "$WORK/wrk-get-$label.txt" >"$WORK/get-$label"
    awk '/Requests\/sec/ {printf "%.0f", $2}' "$WORK/wrk-$label.txt"
    kill "$pid"
    wait "$pid" 2>/dev/null || true
}
