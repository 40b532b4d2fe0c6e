#!/usr/bin/env bash
# Generates both official clients from the OpenAPI document a running service serves
# (GET /api/openapi.json), with the generators people use and their default options (one
# exception for file uploads, explained at the TypeScript step):
#   clients/typescript/src/schema.ts   openapi-typescript (types for openapi-fetch)
#   clients/python/canvas-client/      openapi-python-client (a whole installable package)
# Default options on purpose: whatever a generator trips over is a defect of the document, to
# be fixed there, not hidden behind a flag here.
#
#   bash clients/generate.sh [--url BASE_URL] [--out DIR]
#
# --url   a running service (for example http://127.0.0.1:8080). Without it the script starts
#         `canvasctl up` (from $CARGO_TARGET_DIR, built by `cargo build -p canvasctl`) on free
#         ports with a temporary data directory and stops it afterwards.
# --out   where to write, laid out like clients/ (default: clients/ itself). The drift check in
#         tests/tests/e2e/generated_clients.rs writes into a temporary directory and compares.
#
# Every generator message goes to the terminal. The Python generator runs with
# --fail-on-warning, so a schema it skips fails the script (exit 1) after it has written what
# it could.
#
# The pinned generators come from caches that tests/run.sh fills:
#   $CANVAS_CLIENTS_NPM_DIR   (default ~/.cache/canvas-clients-npm): clients/typescript/package-lock.json
#   $CANVAS_CLIENTS_VENV      (default ~/.cache/canvas-clients-venv): clients/python/requirements-generate.txt
set -euo pipefail
clients="$(cd "$(dirname "$0")" && pwd)"
cd "$clients/.."

url=""
out="$clients"
while [ $# -gt 0 ]; do
    case "$1" in
        --url) url="$2"; shift 2 ;;
        --out) out="$2"; shift 2 ;;
        *) echo "generate.sh: unknown argument $1" >&2; exit 2 ;;
    esac
done
mkdir -p "$out"
out="$(cd "$out" && pwd)"

npm_dir="${CANVAS_CLIENTS_NPM_DIR:-$HOME/.cache/canvas-clients-npm}"
venv="${CANVAS_CLIENTS_VENV:-$HOME/.cache/canvas-clients-venv}"
openapi_typescript="$npm_dir/node_modules/openapi-typescript/package.json"
openapi_python_client="$venv/bin/openapi-python-client"
[ -f "$openapi_typescript" ] || { echo "generate.sh: $openapi_typescript is missing (tests/run.sh installs it)" >&2; exit 1; }
[ -x "$openapi_python_client" ] || { echo "generate.sh: $openapi_python_client is missing (tests/run.sh installs it)" >&2; exit 1; }

work="$(mktemp -d)"
canvasctl_pid=""
cleanup() {
    if [ -n "$canvasctl_pid" ]; then
        kill "$canvasctl_pid" 2>/dev/null || true
        wait "$canvasctl_pid" 2>/dev/null || true
    fi
    rm -rf "$work"
}
trap cleanup EXIT

if [ -z "$url" ]; then
    canvasctl="${CARGO_TARGET_DIR:-target}/debug/canvasctl"
    [ -x "$canvasctl" ] || { echo "generate.sh: $canvasctl is missing; run cargo build -p canvasctl" >&2; exit 1; }
    free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
    http_port="$(free_port)"
    grpc_port="$(free_port)"
    url="http://127.0.0.1:$http_port"
    # Keyword retrieval only: no model to load; the document is the same either way.
    CANVAS_EMBEDDING_PROVIDER=off RUST_LOG="${RUST_LOG:-warn}" "$canvasctl" up --data-dir "$work/data" \
        --http-addr "127.0.0.1:$http_port" --grpc-addr "127.0.0.1:$grpc_port" >"$work/canvasctl.log" 2>&1 &
    canvasctl_pid=$!
    for _ in $(seq 1 120); do
        curl -fsS "$url/readyz" >/dev/null 2>&1 && break
        kill -0 "$canvasctl_pid" 2>/dev/null || { cat "$work/canvasctl.log" >&2; exit 1; }
        sleep 0.5
    done
fi

curl -fsS "$url/api/openapi.json" -o "$work/openapi.json"



# TypeScript: one file of types; openapi-fetch does the calls. openapi-typescript's default
# options, through its Node API for one setting its CLI lacks: a `format: binary` string (the
# file part of an upload) becomes `Blob`, the remedy its documentation gives for file uploads;
# otherwise a file is typed as a string and only a cast could send bytes.
mkdir -p "$out/typescript/src"
echo "== openapi-typescript $(node -p "require('$npm_dir/node_modules/openapi-typescript/package.json').version")"
node --input-type=module - "$npm_dir/node_modules" "$work/openapi.json" "$out/typescript/src/schema.ts" <<'JS'
import { readFileSync, writeFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
const [modules, input, output] = process.argv.slice(2);
const load = (name, file) => import(pathToFileURL(`${modules}/${name}/${file}`).href);
const { default: openapiTS, astToString, COMMENT_HEADER } = await load("openapi-typescript", "dist/index.mjs");
const { default: ts } = await load("typescript", "lib/typescript.js");
const blob = ts.factory.createTypeReferenceNode(ts.factory.createIdentifier("Blob"));
const ast = await openapiTS(JSON.parse(readFileSync(input, "utf8")), {
    transform: (schema) => (schema.format === "binary" ? blob : undefined),
});
writeFileSync(output, COMMENT_HEADER + astToString(ast));
console.log(`wrote ${output}`);
JS

# Python: the generator replaces the whole package directory (--overwrite); its default post
# hooks format it with the pinned ruff (cache kept out of the tree), so the bytes depend only on
# the document.
mkdir -p "$out/python"
echo "== openapi-python-client $("$venv/bin/python" -c 'import importlib.metadata as m; print(m.version("openapi-python-client"))')"
status=0
(cd "$work" && PATH="$venv/bin:$PATH" RUFF_CACHE_DIR="$work/ruff-cache" "$openapi_python_client" generate --path "$work/openapi.json" \
    --config "$clients/python/generator.yml" --output-path "$out/python/canvas-client" --overwrite \
    --meta pdm --fail-on-warning) 2>&1 || status=$?

# The hand-written receiver (clients/python/webhooks.py) goes into the package as
# canvas_client.webhooks, with the dependency it verifies signatures with.
cp "$clients/python/webhooks.py" "$out/python/canvas-client/canvas_client/webhooks.py"
"$venv/bin/python" - "$out/python/canvas-client/pyproject.toml" <<'PY'
import sys

path = sys.argv[1]
text = open(path).read()
anchor = '    "attrs>=22.2.0",\n'
if anchor not in text:
    raise SystemExit(f"generate.sh: {path} has no attrs dependency to add cryptography after")
open(path, "w").write(text.replace(anchor, anchor + '    "cryptography>=42",\n', 1))
PY
exit "$status"
