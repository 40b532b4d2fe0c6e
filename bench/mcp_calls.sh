#!/usr/bin/env bash
# The cost of one MCP tool call (docs/performance/get-path.md): wrk posts a stateless
# JSON-RPC `tools/call` of `get_item` to `/mcp` with a bearer token, next to the REST read of the
# same item and the gateway's own `/healthz` in the same run, on SQLite and PostgreSQL, so the
# ratios compare. Every answer must be a 200 whose body is a tool result that is not an error
# (wrk's Lua script counts the others and the run fails when there is one).
#
#   bash bench/mcp_calls.sh [seconds per run, default 10] [connections, default 16]
#
# BEFORE=<a canvasctl binary> also runs that build after this one, alternating RUNS times
# (default 1), for before-and-after ratios. Rate limits are off (`CANVAS_RATE_LIMIT_REQUESTS=0`).
# Needs wrk (installed when missing) and PostgreSQL at 127.0.0.1:5432. Loopback only.
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib.sh
DURATION=${1:-10}
CONNECTIONS=${2:-16}
need wrk
bench_work
cargo build --release -q -p canvasctl
cp "$BIN/canvasctl" "$WORK/canvasctl-after"
[ -z "${BEFORE:-}" ] || cp "$BEFORE" "$WORK/canvasctl-before"

# wrk counts an answer as bad unless it is a 200 and, for MCP (`mcp = true` in the script), holds a
# tool result without `isError: true`.
cat >"$WORK/check.lua" <<'LUA'
bad = 0
response = function(status, headers, body)
    local failed = status ~= 200
    if mcp and not failed then
        failed = not body:find('"result"', 1, true) or body:find('"isError":true', 1, true) ~= nil
    end
    if failed then
        bad = bad + 1
        if bad == 1 then io.stderr:write("first bad answer: " .. status .. " " .. body:sub(1, 300) .. "\n") end
    end
end
done = function(summary, latency, requests)
    io.write(string.format("bad=%d\n", bad))
end
LUA

rps() { awk '/Non-2xx/ {bad = $4} /^bad=/ {split($0, b, "="); if (b[2] > 0) bad = b[2]} /Requests\/sec/ {r = $2}
    END {if (bad) {print "bad answers: " bad > "/dev/stderr"; exit 1} printf "%.0f", r}'; }

run() {
    local backend=$1 url=$2 build=$3
    RUNS_DONE=$((${RUNS_DONE:-0} + 1))
    local dir="$WORK/$backend-$build-$RUNS_DONE"
    up_start "$WORK/canvasctl-$build" "$dir" "$dir.log" "$UP_HTTP" "$UP_GRPC" CANVAS_RATE_LIMIT_REQUESTS=0 \
        CANVAS_DATABASE_URL="$url"
    wait_for "http://$UP_HTTP/healthz"
    local token project base item
    token=$(credential "$dir" token)
    project=$(credential "$dir" projectId)
    base="http://$UP_HTTP/api/v2/projects/$project/item"
    item=$(seed_label "$base" "$token")
    {
        printf 'mcp = false\n'
        cat "$WORK/check.lua"
        printf 'wrk.headers["Authorization"] = "Bearer %s"\n' "$token"
    } >"$WORK/get.lua"
    {
        printf 'mcp = true\n'
        cat "$WORK/check.lua"
        printf 'wrk.headers["Authorization"] = "Bearer %s"\n' "$token"
        printf 'wrk.method = "POST"\n'
        printf 'wrk.headers["Content-Type"] = "application/json"\n'
        printf 'wrk.headers["Accept"] = "application/json, text/event-stream"\n'
        printf 'wrk.body = [[{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_item","arguments":{"projectId":"%s","itemId":"%s"}}}]]\n' \
            "$project" "$item"
    } >"$WORK/mcp.lua"
    local healthz get mcp
    healthz=$(wrk -t2 -c"$CONNECTIONS" -d"${DURATION}s" "http://$UP_HTTP/healthz" | rps)
    get=$(wrk -t2 -c"$CONNECTIONS" -d"${DURATION}s" -s "$WORK/get.lua" "$base/$item" | rps)
    mcp=$(wrk -t2 -c"$CONNECTIONS" -d"${DURATION}s" -s "$WORK/mcp.lua" "http://$UP_HTTP/mcp" | rps)
    awk -v b="$backend" -v v="$build" -v h="$healthz" -v g="$get" -v m="$mcp" 'BEGIN {
        printf "%-10s build=%-6s healthz=%s rest-get=%s mcp-get-item=%s mcp/healthz=%.3f mcp/rest=%.2f\n", b, v, h, g, m, m / h, m / g }'
    up_stop
}

PG_DB="canvas_mcp_bench_$$"
builds="after"
[ -z "${BEFORE:-}" ] || builds="after before"
for _ in $(seq 1 "${RUNS:-1}"); do
    for build in $builds; do
        run sqlite "" "$build"
        pg_fresh "$PG_DB"
        run postgres "$(pg_url "$PG_DB")" "$build"
    done
done
pg_drop "$PG_DB"
