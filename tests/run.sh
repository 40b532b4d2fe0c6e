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
command -v python3 >/dev/null && python3 -c 'import venv, ensurepip' 2>/dev/null || missing+=(python3 python3-venv)
command -v npm >/dev/null || missing+=(nodejs npm)
if [ ${#missing[@]} -gt 0 ]; then
    echo "installing ${missing[*]}"
    apt-get update -qq && apt-get install -y -qq "${missing[@]}"
fi
if ! cargo nextest --version >/dev/null 2>&1; then
    cargo install --locked cargo-nextest
fi

# MCP clients the end-to-end tests drive (tests/tests/e2e/mcp_clients.rs): the
# official Python MCP SDK, pinned, in a virtualenv, and the MCP Inspector CLI in
# an npm prefix. Both live in caches and are installed only when missing.
mcp_sdk_version=2.3.0
mcp_inspector_version=2.12.0
mcp_venv="${CANVAS_MCP_VENV:-$HOME/.cache/canvas-venv}"
if ! "$mcp_venv/bin/python" -c "import importlib.metadata as m, sys; sys.exit(m.version('mcp') != '$mcp_sdk_version')" 2>/dev/null; then
    echo "installing the MCP Python SDK $mcp_sdk_version into $mcp_venv"
    python3 -m venv "$mcp_venv"
    "$mcp_venv/bin/pip" install --quiet --disable-pip-version-check "mcp==$mcp_sdk_version"
fi
# Webhook signatures are also checked by an independent implementation,
# Python's `cryptography` (tests/src/webhook_verify.py), in the same venv.
cryptography_version=48.0.0
if ! "$mcp_venv/bin/python" -c "import importlib.metadata as m, sys; sys.exit(m.version('cryptography') != '$cryptography_version')" 2>/dev/null; then
    echo "installing cryptography $cryptography_version into $mcp_venv"
    "$mcp_venv/bin/pip" install --quiet --disable-pip-version-check "cryptography==$cryptography_version"
fi
# Every webhook body the end-to-end tests receive is validated against the event catalog by Python's
# `jsonschema` (draft 2020-12, formats checked; `date-time` needs `rfc3339-validator`), pinned, same venv
# (tests/src/webhook_checks.rs).
jsonschema_version=4.26.0
rfc3339_validator_version=0.1.4
if ! "$mcp_venv/bin/python" -c "import importlib.metadata as m, sys; sys.exit(m.version('jsonschema') != '$jsonschema_version' or m.version('rfc3339-validator') != '$rfc3339_validator_version')" 2>/dev/null; then
    echo "installing jsonschema $jsonschema_version and rfc3339-validator $rfc3339_validator_version into $mcp_venv"
    "$mcp_venv/bin/pip" install --quiet --disable-pip-version-check "jsonschema==$jsonschema_version" "rfc3339-validator==$rfc3339_validator_version"
fi
# schemathesis (pinned, same venv) checks the running service against its OpenAPI document
# (tests/schemathesis/run.sh, at the end of this script).
schemathesis_version=4.32.5
if ! "$mcp_venv/bin/python" -c "import importlib.metadata as m, sys; sys.exit(m.version('schemathesis') != '$schemathesis_version')" 2>/dev/null; then
    echo "installing schemathesis $schemathesis_version into $mcp_venv"
    "$mcp_venv/bin/pip" install --quiet --disable-pip-version-check "schemathesis==$schemathesis_version"
fi
# Redocly CLI (pinned) lints the served OpenAPI document (tests/schemathesis/run.sh); in its own npm
# prefix, installed only when missing.
redocly_version=2.77.0
redocly_dir="${CANVAS_REDOCLY_DIR:-$HOME/.cache/canvas-redocly}"
if [ "$(node -p "require('$redocly_dir/node_modules/@redocly/cli/package.json').version" 2>/dev/null)" != "$redocly_version" ]; then
    echo "installing @redocly/cli $redocly_version into $redocly_dir"
    mkdir -p "$redocly_dir"
    npm install --prefix "$redocly_dir" --no-audit --no-fund --silent "@redocly/cli@$redocly_version"
fi
mcp_npm_dir="${CANVAS_MCP_NPM_DIR:-$HOME/.cache/canvas-npm}"
mcp_inspector_json="$mcp_npm_dir/node_modules/@modelcontextprotocol/inspector/package.json"
if [ "$(node -p "require('$mcp_inspector_json').version" 2>/dev/null)" != "$mcp_inspector_version" ]; then
    echo "installing the MCP Inspector $mcp_inspector_version into $mcp_npm_dir"
    mkdir -p "$mcp_npm_dir"
    npm install --prefix "$mcp_npm_dir" --no-audit --no-fund --silent "@modelcontextprotocol/inspector@$mcp_inspector_version"
fi

# The official TypeScript MCP SDK (pinned in tests/mcp/package.json) checks the tool schemas with
# its own validator, strict (tests/tests/e2e/mcp_schemas.rs); in its own npm prefix, installed only
# when missing.
mcp_sdk_dir="${CANVAS_MCP_SDK_DIR:-$HOME/.cache/canvas-mcp-sdk}"
# The same prefix holds the MCP Apps extension's official host bridge (tests/tests/e2e/mcp_app.rs)
# and the Tasks extension's official package (tests/tests/e2e/mcp_tasks.rs); reinstalled whenever
# tests/mcp/package.json changes.
if ! cmp -s tests/mcp/package.json "$mcp_sdk_dir/package.json" || [ ! -d "$mcp_sdk_dir/node_modules/@modelcontextprotocol/ext-tasks" ]; then
    echo "installing tests/mcp/package.json (the MCP SDK, the MCP Apps host bridge, the Tasks package) into $mcp_sdk_dir"
    mkdir -p "$mcp_sdk_dir"
    cp tests/mcp/package.json "$mcp_sdk_dir/package.json"
    npm install --prefix "$mcp_sdk_dir" --no-audit --no-fund --silent
fi

# The official MCP conformance suite (pinned in tests/mcp/conformance/package.json) with the Node.js
# it needs (22 or newer; the machine has 20), both from the npm registry, in their own prefix,
# reinstalled whenever that package.json changes (canvasctl/tests/mcp_conformance.rs runs it).
conformance_dir="${CANVAS_CONFORMANCE_DIR:-$HOME/.cache/canvas-conformance}"
if ! cmp -s tests/mcp/conformance/package.json "$conformance_dir/package.json" || [ ! -x "$conformance_dir/node_modules/.bin/node" ]; then
    echo "installing the MCP conformance suite and Node.js 22 (tests/mcp/conformance) into $conformance_dir"
    mkdir -p "$conformance_dir"
    cp tests/mcp/conformance/package.json "$conformance_dir/package.json"
    npm install --prefix "$conformance_dir" --no-audit --no-fund --silent
fi

# Mermaid itself says which diagrams of the real-world corpus are valid
# (tests/mermaid-corpus/validate.mjs, run by diagram/tests/corpus.rs): mermaid and jsdom as locked in
# tests/mermaid-corpus/package-lock.json, in their own npm prefix, reinstalled when the lock changes.
mermaid_dir="${CANVAS_MERMAID_DIR:-$HOME/.cache/canvas-mermaid}"
if ! cmp -s tests/mermaid-corpus/package-lock.json "$mermaid_dir/package-lock.json" || [ ! -d "$mermaid_dir/node_modules/mermaid" ]; then
    echo "installing mermaid and jsdom (tests/mermaid-corpus) into $mermaid_dir"
    mkdir -p "$mermaid_dir"
    cp tests/mermaid-corpus/package.json tests/mermaid-corpus/package-lock.json "$mermaid_dir/"
    npm ci --prefix "$mermaid_dir" --no-audit --no-fund --silent --ignore-scripts
fi

# The official clients (clients/generate.sh, tests/tests/e2e/generated_clients.rs): openapi-typescript,
# openapi-fetch and TypeScript as locked in clients/typescript/package-lock.json, in an npm prefix; the
# Python generator, its ruff and the generated package's dependencies as pinned in
# clients/python/requirements-generate.txt, in a virtualenv. Reinstalled when a pin changes.
clients_npm_dir="${CANVAS_CLIENTS_NPM_DIR:-$HOME/.cache/canvas-clients-npm}"
if ! cmp -s clients/typescript/package-lock.json "$clients_npm_dir/package-lock.json" || [ ! -d "$clients_npm_dir/node_modules/openapi-fetch" ]; then
    echo "installing the TypeScript client tools into $clients_npm_dir"
    mkdir -p "$clients_npm_dir"
    cp clients/typescript/package.json clients/typescript/package-lock.json "$clients_npm_dir/"
    npm ci --prefix "$clients_npm_dir" --no-audit --no-fund --silent --ignore-scripts
fi
clients_venv="${CANVAS_CLIENTS_VENV:-$HOME/.cache/canvas-clients-venv}"
if ! cmp -s clients/python/requirements-generate.txt "$clients_venv/requirements-generate.txt"; then
    echo "installing the Python client tools into $clients_venv"
    python3 -m venv "$clients_venv"
    "$clients_venv/bin/pip" install --quiet --disable-pip-version-check -r clients/python/requirements-generate.txt
    cp clients/python/requirements-generate.txt "$clients_venv/requirements-generate.txt"
fi

# The multi-process deployment test (tests/tests/deployment.rs) puts Debian's
# nginx in front of the components; installed only when missing.
if ! command -v nginx >/dev/null && [ ! -x /usr/sbin/nginx ]; then
    echo "installing nginx"
    apt-get update -qq && apt-get install -y -qq nginx
fi

# The README's first session (canvasctl/tests/readme_tour.rs runs it as written) reads answers
# with jq; Debian's, installed only when missing.
if ! command -v jq >/dev/null; then
    echo "installing jq"
    apt-get update -qq && apt-get install -y -qq jq
fi

# The SQLite backup recipe of docs/OPERATIONS.md (canvasctl/tests/docs_examples.rs runs it as
# written) uses the sqlite3 shell; Debian's, installed only when missing.
if ! command -v sqlite3 >/dev/null; then
    echo "installing sqlite3"
    apt-get update -qq && apt-get install -y -qq sqlite3
fi

# The diagram layout is compared with Graphviz on the same graphs
# (diagram/tests/crossings.rs, which fails under CI=true without `dot`);
# Debian's graphviz, installed only when missing.
if ! command -v dot >/dev/null; then
    echo "installing graphviz"
    apt-get update -qq && apt-get install -y -qq graphviz
fi

# Kubernetes manifests: both overlays rendered and checked against the
# Kubernetes schemas, offline (installs its tools into $HOME/.cache).
bash deploy/validate.sh

# The web-map browser tests (tests/tests/e2e/map_browser.rs, map_editor.rs): Debian's Chromium,
# and playwright-core and axe-core, pinned in tests/browser/package.json, in an npm prefix.
# Nothing downloads a browser build; each is installed only when missing or at another version.
if [ ! -x /usr/bin/chromium ]; then
    echo "installing chromium"
    apt-get update -qq && apt-get install -y -qq chromium
fi
browser_dir="${CANVAS_BROWSER_DIR:-$HOME/.cache/canvas-browser}"
browser_wanted="$(node -p "const d = require('./tests/browser/package.json').dependencies; Object.keys(d).sort().map((n) => n + '@' + d[n]).join(' ')")"
# On a fresh machine the prefix does not exist yet: the look-up fails, and `|| true` keeps `set -e`
# from ending the run there.
browser_have="$(cd "$browser_dir" 2>/dev/null && node -p "const d = require('./package.json').dependencies; Object.keys(d).sort().map((n) => { try { return n + '@' + require('./node_modules/' + n + '/package.json').version; } catch { return n + '@none'; } }).join(' ')" 2>/dev/null || true)"
if [ "$browser_have" != "$browser_wanted" ]; then
    echo "installing $browser_wanted into $browser_dir"
    mkdir -p "$browser_dir"
    cp tests/browser/package.json "$browser_dir/package.json"
    npm install --prefix "$browser_dir" --no-audit --no-fund --silent
fi

# Lints: every warning of the workspace's lint set ([workspace.lints]) fails the run.
cargo clippy --version >/dev/null 2>&1 || rustup component add clippy
cargo clippy --workspace --all-targets -- -D warnings

profile=default
[ "${CI:-}" = "true" ] && profile=ci
# The deployment test runs the workspace's own binaries (core-service,
# rest-gateway, mcp-gateway, webhook-dispatcher) as separate processes; cargo
# builds another package's binaries for tests only when asked.
cargo build --workspace --bins
cargo nextest run --workspace --profile "$profile" "$@"
# The same end-to-end checks of the API's rules again with the gateways calling core-service in
# process, as `canvasctl up` does (CANVAS_TEST_CORE_LINK, tests/src/app.rs): answers, errors,
# conditional writes, change streams, presence and MCP (its tasks too) must not depend on the link. Skipped when
# the run was given its own filter.
if [ $# -eq 0 ]; then
    CANVAS_TEST_CORE_LINK=in-process cargo nextest run -p canvas-tests --test e2e --profile "$profile" -E \
        'test(/^(labels|conditional|error_table|events|edges|casing|idempotency|mcp_calls|account_site|csrf_writes|auth|limits|concurrency|presence|diagram_records|access_changes|mcp_tasks|tags|comments|comments_rules|comments_listing|frames|frames_views)::/)'
fi

# ---- OpenAPI conformance ---------------------------------------------------------------------
# schemathesis against `canvasctl up` (the binary built above) and its own /api/openapi.json: no
# 5xx, and every status, content type and body as documented. A few minutes; see
# tests/schemathesis/run.sh and schemathesis.toml (what is left out and why).
CANVAS_MCP_VENV="$mcp_venv" CANVAS_REDOCLY_DIR="$redocly_dir" bash tests/schemathesis/run.sh
