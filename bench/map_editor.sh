#!/usr/bin/env bash
# The live map editor in headless Chromium against `canvasctl up` (release build), SQLite and
# PostgreSQL (bench/map_editor.mjs does the measuring):
#
#   - open time of a 1,000- and a 10,000-item map (sticky notes on a grid, one connector per ten),
#     median of five, as a ratio to the same page on an empty project in the same run;
#   - frames per second while dragging one note over the 10,000-item map;
#   - presence latency between two browsers (A's cursor on B's screen).
#
#   bash bench/map_editor.sh
#
# SKIP_BUILD=1 uses the release canvasctl as built (on a shared machine, build it first under
# the build lock); DEV_ASSETS=DIR serves the page's scripts and style from DIR instead of the
# binary (bench/map_editor.mjs --dev-assets).
#
# Needs Debian's chromium and playwright-core in ~/.cache/canvas-browser (tests/run.sh installs
# both) and PostgreSQL at 127.0.0.1:5432; listens on 127.0.0.1 only. Figures: docs/PERFORMANCE.md,
# every run in docs/performance/map-editor.md.
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib.sh
[ -n "${SKIP_BUILD:-}" ] || cargo build --release -q -p canvasctl
bench_work
# Ports of its own, so that it can run beside a `canvasctl up` on the usual ones.
HTTP=127.0.0.1:18090
GRPC=127.0.0.1:15061
BASE=http://$HTTP

# Adds sticky notes to PROJECT until it holds COUNT items (bulk calls of 1,000: 900 notes on a
# 60-column grid and 100 connectors between neighbours).
fill() {
    python3 - "$BASE" "$1" "$2" "$3" <<'PY'
import http.client, json, sys, urllib.parse
base, token, project, count = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
url = urllib.parse.urlparse(base)
conn = http.client.HTTPConnection(url.hostname, url.port, timeout=120)
headers = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}
def have():
    n, cursor = 0, ""
    while True:
        conn.request("GET", f"/api/v2/projects/{project}/items?limit=1000&jsonCasing=camel{cursor}", headers=headers)
        page = json.loads(conn.getresponse().read())
        n += len(page["items"])
        if not page.get("nextCursor"):
            return n
        cursor = "&cursor=" + urllib.parse.quote(page["nextCursor"])
n = have()
while n < count:
    items = []
    for i in range(900):
        k = n + i
        items.append({"ref": f"n{i}", "type": "sticky-note",
                      "properties": {"text": f"Note {k}", "position": {"x": (k % 60) * 260, "y": (k // 60) * 260}}})
    for i in range(0, 900, 9):
        items.append({"type": "connector", "properties": {"startPoint": {"itemId": f"ref:n{i}"}, "endPoint": {"itemId": f"ref:n{i + 1}"}}})
    body = json.dumps({"items": items})
    conn.request("POST", f"/api/v2/projects/{project}/items/bulk", body=body, headers=headers)
    reply = conn.getresponse()
    text = reply.read()
    if reply.status != 200:
        sys.exit(f"bulk create answered {reply.status}: {text[:300]!r}")
    n += len(items)
print(n)
PY
}

run_backend() {
    local backend=$1 url=$2
    local dir="$WORK/$backend"
    # One token fills, opens (ten listing pages each), drags and moves the cursor, near the
    # per-token limit (3,000 calls a minute): the limit is bench/abuse.sh's to measure, not this
    # bench's, so it is off here as in the other benches.
    up_start "$BIN/canvasctl" "$dir" "$WORK/$backend.log" "$HTTP" "$GRPC" CANVAS_RATE_LIMIT_REQUESTS=0 \
        CANVAS_DATABASE_URL="$url"
    wait_for "$BASE/readyz"
    local token project empty
    token=$(credential "$dir" token)
    project=$(credential "$dir" projectId)
    empty=$(python3 - "$dir/dev-credentials.json" "$BIN/canvasctl" <<'PY'
import json, subprocess, sys
c = json.load(open(sys.argv[1]))
out = subprocess.run([sys.argv[2], "project", "create", "--name", "empty", "--owner", c["userId"], "--json",
                      "--core", c["coreUrl"], "--admin-token", c["adminToken"]], check=True, capture_output=True, text=True)
print(json.loads(out.stdout)["projectId"])
PY
)
    for size in 1000 10000; do
        fill "$token" "$project" "$size" >/dev/null
        local presence=false
        [ "$size" = 10000 ] && presence=true
        node bench/map_editor.mjs --base "$BASE" --token "$token" --project "$project" --empty-project "$empty" \
            --label "$backend $size items" --presence "$presence" ${DEV_ASSETS:+--dev-assets "$DEV_ASSETS"}
    done
    up_stop
}

run_backend sqlite ""
pg_fresh bench_editor >/dev/null
run_backend postgres "$(pg_url bench_editor)"
