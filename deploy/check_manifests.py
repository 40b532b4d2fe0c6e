#!/usr/bin/env python3
"""Checks what the Kubernetes schemas cannot: that a rendered overlay of
deploy/kubernetes holds the objects the canvas service needs and that they
fit together.

    check_manifests.py [--source-root DIR] OVERLAY RENDERED.yaml
                                                 check one rendered overlay (with
                                                 DIR, also that every CANVAS_* name
                                                 is read by the Rust code there)
    check_manifests.py --self-test RENDERED.yaml break a production render in
                                                 known ways; each must be caught
    check_manifests.py --without-operator-kinds RENDERED.yaml OUT.yaml
                                                 the objects the Kubernetes schemas know
                                                 (operators' kinds, OPERATOR_KINDS, are
                                                 checked here instead)

OVERLAY is `development` or `production`. Exit status 0 when every check
passes, 1 otherwise (each failure printed). Needs Python 3.11 and PyYAML.
"""

from __future__ import annotations

import copy
import os
import re
import sys
import tomllib
from urllib.parse import urlparse

import yaml

COMPONENTS = ("core-service", "rest-gateway", "mcp-gateway", "webhook-dispatcher")
# Components that serve HTTP with /healthz and /readyz on a port of their own.
HTTP_COMPONENTS = {
    "rest-gateway": ("http", "CANVAS_HTTP_ADDR"),
    "mcp-gateway": ("http", "CANVAS_HTTP_ADDR"),
    "webhook-dispatcher": ("health", "CANVAS_HEALTH_ADDR"),
}
# Ingress path → the Service behind it.
INGRESS_ROUTES = {"/api": "rest-gateway", "/map": "rest-gateway", "/mcp": "mcp-gateway"}
# Secrets the production overlay expects to exist in the cluster, created
# outside git (deploy/kubernetes/overlays/production/secrets.example.env).
EXTERNAL_SECRETS = {"canvas-signing-key", "canvas-llm", "canvas-blob-store", "canvas-tls"}
# Objects of operators the cluster must run, which the Kubernetes schemas do not know: checked by
# `check_database` instead. The production database is a CloudNativePG cluster
# (deploy/kubernetes/overlays/production/database.yaml).
OPERATOR_KINDS = {("postgresql.cnpg.io/v1", "Cluster")}
# Secrets an operator creates from a rendered object: CloudNativePG's `<cluster>-app`.
OPERATOR_SECRET_SUFFIX = "-app"
# Environment variables that are not the service's own (CANVAS_*).
FOREIGN_ENV = {"RUST_LOG", "HOME", "POSTGRES_USER", "POSTGRES_DB", "POSTGRES_PASSWORD", "PGDATA", "PGUSER", "PGPASSWORD"}
# CANVAS_* variables the manifests may set before the Rust code reads them
# (none today). Any other CANVAS_* name must occur in the Rust sources, so a
# typo or a renamed flag fails here instead of being ignored by the binary.
PENDING_ENV: dict[str, str] = {}
# Fields of one `[agents.<id>]` table (core-service/src/knowledge/agents.rs,
# which refuses unknown ones).
AGENT_FIELDS = {"endpoint", "model", "api_key_env", "system_prompt", "temperature", "rerank_candidates",
                "timeout_secs", "max_tokens"}
NAMESPACE = {"development": "canvas-dev", "production": "canvas"}
ENVIRONMENT = {"development": "development", "production": "production"}
CLUSTER_SCOPED = {"Namespace", "ClusterRole", "ClusterRoleBinding", "PriorityClass", "IngressClass"}


class Manifests:
    """The rendered objects, looked up by kind and name. Generated
    ConfigMaps and Secrets carry a hash suffix; `base_name` strips it."""

    def __init__(self, docs: list[dict]):
        self.docs = [d for d in docs if d]
        self.by_kind: dict[str, dict[str, dict]] = {}
        for doc in self.docs:
            self.by_kind.setdefault(doc["kind"], {})[doc["metadata"]["name"]] = doc

    def get(self, kind: str, name: str) -> dict | None:
        return self.by_kind.get(kind, {}).get(name)

    def names(self, kind: str) -> set[str]:
        return set(self.by_kind.get(kind, {}))

    def workloads(self) -> list[tuple[str, str, dict]]:
        """(kind, name, pod spec) of every Deployment and Job."""
        out = []
        for kind in ("Deployment", "StatefulSet", "DaemonSet", "Job"):
            for name, doc in self.by_kind.get(kind, {}).items():
                out.append((kind, name, doc["spec"]["template"]["spec"]))
        return out


def containers(pod: dict) -> list[dict]:
    return list(pod.get("initContainers", [])) + list(pod.get("containers", []))


def env_value(container: dict, name: str) -> dict | None:
    for item in container.get("env", []):
        if item["name"] == name:
            return item
    return None


def addr_port(addr: str) -> int:
    return int(addr.rsplit(":", 1)[1])


def configmap_data(m: Manifests, prefix: str) -> dict:
    """The data of the one ConfigMap named `prefix` (with or without its hash suffix)."""
    for name, doc in m.by_kind.get("ConfigMap", {}).items():
        if name == prefix or name.rsplit("-", 1)[0] == prefix:
            return doc.get("data", {})
    return {}


def rust_sources_text(root: str) -> str:
    """Every Rust source file under `root` (build output excluded), concatenated."""
    parts = []
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = [d for d in dirnames if d not in ("target", ".git", "node_modules", "deploy")]
        for filename in filenames:
            if filename.endswith(".rs"):
                with open(os.path.join(dirpath, filename), encoding="utf-8", errors="replace") as f:
                    parts.append(f.read())
    return "\n".join(parts)


def env_names(m: "Manifests") -> set[str]:
    """Every environment variable name the pods get: env entries, the keys of
    ConfigMaps and Secrets they read whole, and the agents' api_key_env."""
    names = set()
    for _, _, pod in m.workloads():
        for c in containers(pod):
            names |= {item["name"] for item in c.get("env", [])}
            for item in c.get("envFrom", []):
                ref = item.get("configMapRef") or item.get("secretRef")
                kind = "ConfigMap" if "configMapRef" in item else "Secret"
                doc = m.get(kind, ref["name"])
                if doc is not None:
                    names |= set(doc.get("data", {})) | set(doc.get("stringData", {}))
    return names


def check(overlay: str, docs: list[dict], source_root: str | None = None) -> tuple[list[str], int]:
    """Returns (failures, number of checks made)."""
    m = Manifests(docs)
    failures: list[str] = []
    count = 0

    def expect(condition: bool, message: str) -> None:
        nonlocal count
        count += 1
        if not condition:
            failures.append(message)

    # Namespaces: one Namespace object, and every namespaced object in it.
    ns = NAMESPACE[overlay]
    expect(m.names("Namespace") == {ns}, f"expected exactly Namespace {ns}, found {sorted(m.names('Namespace'))}")
    for doc in m.docs:
        if doc["kind"] not in CLUSTER_SCOPED:
            expect(doc["metadata"].get("namespace") == ns,
                   f"{doc['kind']}/{doc['metadata']['name']} is not in namespace {ns}")

    # Objects per component.
    for comp in COMPONENTS:
        expect(m.get("Deployment", comp) is not None, f"no Deployment {comp}")
        expect(m.get("Service", comp) is not None, f"no Service {comp}")
        expect(m.get("PodDisruptionBudget", comp) is not None, f"no PodDisruptionBudget {comp}")
        if overlay == "production":
            expect(m.get("HorizontalPodAutoscaler", comp) is not None, f"no HorizontalPodAutoscaler {comp}")

    # Every pod: non-root, hardened, with requests and limits, no API token.
    for kind, name, pod in m.workloads():
        where = f"{kind}/{name}"
        psc = pod.get("securityContext", {})
        expect(psc.get("runAsNonRoot") is True, f"{where}: pod securityContext.runAsNonRoot is not true")
        expect(psc.get("runAsUser", 1) != 0, f"{where}: pod runs as uid 0")
        expect(psc.get("seccompProfile", {}).get("type") == "RuntimeDefault",
               f"{where}: pod seccompProfile is not RuntimeDefault")
        expect(pod.get("automountServiceAccountToken") is False, f"{where}: service account token is mounted")
        for c in containers(pod):
            cw = f"{where} container {c['name']}"
            sc = c.get("securityContext", {})
            expect(sc.get("runAsNonRoot", psc.get("runAsNonRoot")) is True, f"{cw}: runAsNonRoot is not true")
            expect(sc.get("runAsUser", psc.get("runAsUser", 1)) != 0, f"{cw}: runs as uid 0")
            expect(sc.get("readOnlyRootFilesystem") is True, f"{cw}: root filesystem is writable")
            expect(sc.get("allowPrivilegeEscalation") is False, f"{cw}: allowPrivilegeEscalation is not false")
            expect(sc.get("privileged", False) is False, f"{cw}: privileged")
            expect("ALL" in sc.get("capabilities", {}).get("drop", []), f"{cw}: capabilities do not drop ALL")
            expect(not sc.get("capabilities", {}).get("add"), f"{cw}: adds capabilities")
            res = c.get("resources", {})
            for section in ("requests", "limits"):
                for resource in ("cpu", "memory"):
                    expect(resource in res.get(section, {}), f"{cw}: no {resource} {section[:-1]}")
            image = c.get("image", "")
            tag = image.rsplit(":", 1)[1] if ":" in image.rsplit("/", 1)[-1] else ""
            expect(tag not in ("", "latest"), f"{cw}: image {image!r} has no fixed tag")
            for item in c.get("env", []):
                expect(item["name"].startswith(("CANVAS_", "AWS_")) or item["name"] in FOREIGN_ENV,
                       f"{cw}: unexpected environment variable {item['name']}")
            # Every referenced ConfigMap and Secret exists (or is an external Secret in production).
            refs = []
            for item in c.get("env", []):
                source = item.get("valueFrom", {})
                if "secretKeyRef" in source:
                    refs.append(("Secret", source["secretKeyRef"]))
                if "configMapKeyRef" in source:
                    refs.append(("ConfigMap", source["configMapKeyRef"]))
            for item in c.get("envFrom", []):
                if "secretRef" in item:
                    refs.append(("Secret", item["secretRef"]))
                if "configMapRef" in item:
                    refs.append(("ConfigMap", item["configMapRef"]))
            for ref_kind, ref in refs:
                present = m.get(ref_kind, ref["name"]) is not None
                external = ref_kind == "Secret" and overlay == "production" and (
                    ref["name"] in EXTERNAL_SECRETS
                    or ref["name"] in {f"{c}{OPERATOR_SECRET_SUFFIX}" for c in m.names("Cluster")}
                )
                expect(present or external or ref.get("optional") is True,
                       f"{cw}: {ref_kind} {ref['name']} is neither rendered nor an expected external Secret")
        for volume in pod.get("volumes", []):
            if "configMap" in volume:
                expect(m.get("ConfigMap", volume["configMap"]["name"]) is not None,
                       f"{where}: volume {volume['name']} names a missing ConfigMap")

    # Environment: the overlay's name reaches every component.
    common = configmap_data(m, "canvas-common")
    expect(common.get("CANVAS_ENVIRONMENT") == ENVIRONMENT[overlay],
           f"canvas-common CANVAS_ENVIRONMENT is {common.get('CANVAS_ENVIRONMENT')!r}")
    for comp in COMPONENTS:
        dep = m.get("Deployment", comp)
        if dep is None:
            continue
        c = dep["spec"]["template"]["spec"]["containers"][0]
        froms = [e.get("configMapRef", {}).get("name", "") for e in c.get("envFrom", [])]
        expect(any(n.startswith("canvas-common") for n in froms), f"Deployment {comp} does not read canvas-common")

    # core-service: gRPC port, gRPC probes, database URL from a Secret.
    core = m.get("Deployment", "core-service")
    if core is not None:
        c = core["spec"]["template"]["spec"]["containers"][0]
        ports = {p["name"]: p["containerPort"] for p in c.get("ports", [])}
        grpc_addr = env_value(c, "CANVAS_GRPC_ADDR")
        expect(grpc_addr is not None and addr_port(grpc_addr["value"]) == ports.get("grpc"),
               "core-service: CANVAS_GRPC_ADDR does not match the grpc container port")
        for probe in ("startupProbe", "readinessProbe", "livenessProbe"):
            expect(c.get(probe, {}).get("grpc", {}).get("port") == ports.get("grpc"),
                   f"core-service: {probe} is not a gRPC probe on the grpc port")
        db = env_value(c, "CANVAS_DATABASE_URL")
        expect(db is not None and "secretKeyRef" in db.get("valueFrom", {}),
               "core-service: CANVAS_DATABASE_URL does not come from a Secret")
        key = env_value(c, "CANVAS_SIGNING_KEY_SECRET")
        expect(key is not None and "secretKeyRef" in key.get("valueFrom", {}),
               "core-service: CANVAS_SIGNING_KEY_SECRET does not come from a Secret")

    # HTTP components: address, port and probes agree.
    for comp, (port_name, addr_var) in HTTP_COMPONENTS.items():
        dep = m.get("Deployment", comp)
        if dep is None:
            continue
        c = dep["spec"]["template"]["spec"]["containers"][0]
        ports = {p["name"]: p["containerPort"] for p in c.get("ports", [])}
        addr = env_value(c, addr_var)
        expect(addr is not None and port_name in ports and addr_port(addr["value"]) == ports[port_name],
               f"{comp}: {addr_var} does not match container port {port_name}")
        live = c.get("livenessProbe", {}).get("httpGet", {})
        ready = c.get("readinessProbe", {}).get("httpGet", {})
        expect(live.get("path") == "/healthz" and live.get("port") == port_name,
               f"{comp}: liveness probe is not GET /healthz on port {port_name}")
        expect(ready.get("path") == "/readyz" and ready.get("port") == port_name,
               f"{comp}: readiness probe is not GET /readyz on port {port_name}")

    # Services select pods that exist and target ports those pods declare.
    pod_sources = {}
    for kind, name, pod in m.workloads():
        doc = m.get(kind, name)
        pod_sources[name] = (doc["spec"]["template"]["metadata"].get("labels", {}), pod)
    for name, svc in m.by_kind.get("Service", {}).items():
        selector = svc["spec"].get("selector", {})
        matched = [(labels, pod) for labels, pod in pod_sources.values()
                   if selector and all(labels.get(k) == v for k, v in selector.items())]
        expect(bool(matched), f"Service {name} selects no pod template")
        for port in svc["spec"].get("ports", []):
            target = port.get("targetPort", port["port"])
            declared = {p.get("name") for labels, pod in matched for c in pod["containers"] for p in c.get("ports", [])}
            declared |= {p["containerPort"] for labels, pod in matched for c in pod["containers"] for p in c.get("ports", [])}
            expect(target in declared, f"Service {name}: targetPort {target} is not a container port")

    # Disruption budgets and autoscalers point at Deployments that exist.
    for name, pdb in m.by_kind.get("PodDisruptionBudget", {}).items():
        selector = pdb["spec"]["selector"]["matchLabels"]
        expect(any(all(labels.get(k) == v for k, v in selector.items()) for labels, _ in pod_sources.values()),
               f"PodDisruptionBudget {name} selects no pod template")
    for name, hpa in m.by_kind.get("HorizontalPodAutoscaler", {}).items():
        target = hpa["spec"]["scaleTargetRef"]
        expect(m.get(target["kind"], target["name"]) is not None, f"HorizontalPodAutoscaler {name} targets nothing")

    # Ingress: the three paths on one host, to the right Services and ports.
    ingresses = list(m.by_kind.get("Ingress", {}).values())
    expect(len(ingresses) == 1, f"expected one Ingress, found {len(ingresses)}")
    for ing in ingresses:
        rules = ing["spec"].get("rules", [])
        expect(len(rules) == 1 and rules[0].get("host"), "Ingress: expected one rule with a host")
        routes = {}
        for rule in rules:
            for path in rule.get("http", {}).get("paths", []):
                backend = path["backend"]["service"]
                routes[path["path"]] = backend
                svc = m.get("Service", backend["name"])
                expect(svc is not None, f"Ingress {path['path']}: no Service {backend['name']}")
                if svc is not None:
                    port = backend["port"]
                    known = {p.get("name") for p in svc["spec"]["ports"]} | {p["port"] for p in svc["spec"]["ports"]}
                    expect(port.get("name", port.get("number")) in known,
                           f"Ingress {path['path']}: Service {backend['name']} has no port {port}")
        for path, service in INGRESS_ROUTES.items():
            expect(routes.get(path, {}).get("name") == service, f"Ingress: {path} does not go to {service}")
        if rules and rules[0].get("host"):
            host = rules[0]["host"]
            mcp = configmap_data(m, "mcp-gateway-config")
            allowed = [h.strip() for h in mcp.get("CANVAS_MCP_ALLOWED_HOSTS", "").split(",")]
            expect(host in allowed or "*" in allowed, f"CANVAS_MCP_ALLOWED_HOSTS does not accept the Ingress host {host}")
            expect(urlparse(mcp.get("CANVAS_WEB_URL", "")).hostname == host,
                   f"CANVAS_WEB_URL does not name the Ingress host {host}")
            if overlay == "production":
                tls_hosts = {h for t in ing["spec"].get("tls", []) for h in t.get("hosts", [])}
                expect(host in tls_hosts, f"Ingress: no TLS for {host} in production")

    # Migration Job: `core-service migrate` with the database Secret.
    job = m.get("Job", "core-service-migrate")
    expect(job is not None, "no migration Job core-service-migrate")
    if job is not None:
        c = job["spec"]["template"]["spec"]["containers"][0]
        expect(c.get("command", [""])[0].endswith("/core-service") and c.get("args") == ["migrate"],
               "migration Job does not run `core-service migrate`")
        db = env_value(c, "CANVAS_DATABASE_URL")
        expect(db is not None and "secretKeyRef" in db.get("valueFrom", {}),
               "migration Job: CANVAS_DATABASE_URL does not come from a Secret")
        expect(job["spec"]["template"]["spec"].get("restartPolicy") in ("Never", "OnFailure"),
               "migration Job: bad restartPolicy")

    # The knowledge agents file: valid TOML of the shape core-service reads,
    # mounted where CANVAS_AGENTS_FILE says, its API key variables provided.
    core_cfg = configmap_data(m, "core-service-config")
    agents_text = configmap_data(m, "knowledge-agents").get("agents.toml")
    expect(agents_text is not None, "no knowledge-agents ConfigMap with agents.toml")
    if agents_text is not None:
        try:
            agents_doc = tomllib.loads(agents_text)
        except tomllib.TOMLDecodeError as e:
            agents_doc = None
            expect(False, f"agents.toml is not valid TOML: {e}")
        if agents_doc is not None:
            expect(set(agents_doc) <= {"agents"}, f"agents.toml: unknown top-level keys {sorted(set(agents_doc) - {'agents'})}")
            core_env = set()
            if core is not None:
                c = core["spec"]["template"]["spec"]["containers"][0]
                core_env = {item["name"] for item in c.get("env", [])}
            for agent_id, agent in agents_doc.get("agents", {}).items():
                unknown = set(agent) - AGENT_FIELDS
                expect(not unknown, f"agents.toml [agents.{agent_id}]: unknown fields {sorted(unknown)}")
                if "api_key_env" in agent:
                    expect(agent["api_key_env"] in core_env,
                           f"agents.toml [agents.{agent_id}]: {agent['api_key_env']} is not set on core-service")
    if core is not None:
        mounts = {v["mountPath"]: v["name"] for v in core["spec"]["template"]["spec"]["containers"][0].get("volumeMounts", [])}
        agents_file = core_cfg.get("CANVAS_AGENTS_FILE", "")
        expect(os.path.dirname(agents_file) in mounts and os.path.basename(agents_file) == "agents.toml",
               f"CANVAS_AGENTS_FILE {agents_file!r} is not the mounted agents.toml")

    # Variable names: every CANVAS_* name is read by the Rust code, or is one
    # the code still has to add (PENDING_ENV).
    if source_root is not None:
        source = rust_sources_text(source_root)
        for name in sorted(n for n in env_names(m) if n.startswith("CANVAS_")):
            expect(f'"{name}"' in source or name in PENDING_ENV,
                   f"{name} is set by the manifests but read nowhere in the Rust code (typo or renamed flag?)")

    # Per overlay.
    if overlay == "production":
        expect(not m.names("Secret"), f"production renders Secrets (values in git): {sorted(m.names('Secret'))}")
        for comp in COMPONENTS:
            dep = m.get("Deployment", comp)
            hpa = m.get("HorizontalPodAutoscaler", comp)
            if dep is not None:
                replicas = dep["spec"].get("replicas")
                expect(replicas is None or replicas >= 2, f"Deployment {comp}: replicas {replicas} < 2")
            if hpa is not None:
                expect(hpa["spec"].get("minReplicas", 1) >= 2, f"HorizontalPodAutoscaler {comp}: minReplicas < 2")
                expect(hpa["spec"]["maxReplicas"] >= hpa["spec"].get("minReplicas", 1),
                       f"HorizontalPodAutoscaler {comp}: maxReplicas < minReplicas")
        expect(core_cfg.get("CANVAS_BLOB_STORE", "").startswith("s3://"),
               "production: CANVAS_BLOB_STORE is not shared (s3://…) across replicas")
    else:
        expect(not m.names("HorizontalPodAutoscaler"), "development: autoscalers present")
        for comp in COMPONENTS:
            dep = m.get("Deployment", comp)
            if dep is not None:
                expect(dep["spec"].get("replicas") == 1, f"development: Deployment {comp} does not have 1 replica")

    if overlay == "production":
        check_database(m, expect)
    return failures, count


def check_database(m: "Manifests", expect) -> None:
    """Production: PostgreSQL with failover that loses no acknowledged write, and the service and
    the migration Job pointed at its primary."""
    clusters = [d for d in m.docs if (d.get("apiVersion"), d["kind"]) in OPERATOR_KINDS]
    expect(len(clusters) == 1, f"production: expected one CloudNativePG Cluster, found {len(clusters)}")
    if not clusters:
        return
    cluster = clusters[0]
    name, spec = cluster["metadata"]["name"], cluster.get("spec", {})
    expect(spec.get("instances", 1) >= 3, f"Cluster {name}: {spec.get('instances', 1)} instances; a failover needs a primary and two standbys")
    sync = spec.get("postgresql", {}).get("synchronous", {})
    expect(sync.get("number", 0) >= 1 and sync.get("dataDurability", "required") == "required",
           f"Cluster {name}: replication is not synchronous with required durability; a failover could lose acknowledged writes")
    affinity = spec.get("affinity", {})
    expect(affinity.get("enablePodAntiAffinity", True) is not False
           and affinity.get("topologyKey", "kubernetes.io/hostname") in ("topology.kubernetes.io/zone", "kubernetes.io/hostname"),
           f"Cluster {name}: instances may share a node or zone")
    expect(spec.get("enablePDB", True) is not False, f"Cluster {name}: no PodDisruptionBudget")
    for kind, workload in (("Deployment", "core-service"), ("Job", "core-service-migrate")):
        obj = m.get(kind, workload)
        if obj is None:
            continue
        url = env_value(containers(obj["spec"]["template"]["spec"])[0], "CANVAS_DATABASE_URL") or {}
        ref = url.get("valueFrom", {}).get("secretKeyRef", {})
        expect(ref.get("name") == f"{name}{OPERATOR_SECRET_SUFFIX}" and ref.get("key") == "uri",
               f"{kind}/{workload}: CANVAS_DATABASE_URL is not the Cluster's primary ({name}-app, key uri): {ref}")
    # Heavy reads from the Cluster's standbys, with the Cluster's own credentials.
    core = m.get("Deployment", "core-service")
    if core is not None:
        c = containers(core["spec"]["template"]["spec"])[0]
        read = (env_value(c, "CANVAS_READ_DATABASE_URL") or {}).get("value", "")
        expect(read.split("://", 1)[-1].split("/", 1)[0].split(":")[0] in (f"{name}-ro", f"{name}-r"),
               f"Deployment/core-service: CANVAS_READ_DATABASE_URL {read!r} is not the Cluster's standbys ({name}-ro)")
        for variable, key in (("PGUSER", "username"), ("PGPASSWORD", "password")):
            ref = (env_value(c, variable) or {}).get("valueFrom", {}).get("secretKeyRef", {})
            expect(ref == {"name": f"{name}{OPERATOR_SECRET_SUFFIX}", "key": key},
                   f"Deployment/core-service: {variable} is not the Cluster's {key} ({name}-app): {ref}")


def without_operator_kinds(source: str, out: str) -> int:
    docs = load(source)
    kept = [d for d in docs if (d.get("apiVersion"), d["kind"]) not in OPERATOR_KINDS]
    with open(out, "w", encoding="utf-8") as f:
        yaml.safe_dump_all(kept, f, sort_keys=False)
    print(f"{len(docs) - len(kept)} operator object(s) left to check_manifests.py: "
          + ", ".join(sorted(f"{d['kind']}/{d['metadata']['name']}" for d in docs if d not in kept)))
    return 0


def load(path: str) -> list[dict]:
    with open(path, encoding="utf-8") as f:
        return [d for d in yaml.safe_load_all(f) if d]


def self_test(path: str, source_root: str) -> int:
    """Each mutation of a valid production render must make `check` fail."""
    docs = load(path)
    failures, _ = check("production", docs, source_root)
    if failures:
        print("self-test: the production render itself fails:", *failures, sep="\n  ")
        return 1

    def find(ds, kind, name):
        return next(d for d in ds if d["kind"] == kind and d["metadata"]["name"] == name)

    def container(ds, name):
        return find(ds, "Deployment", name)["spec"]["template"]["spec"]["containers"][0]

    def drop_hpa(ds):
        ds.remove(find(ds, "HorizontalPodAutoscaler", "webhook-dispatcher"))

    def root_user(ds):
        container(ds, "rest-gateway")["securityContext"]["runAsUser"] = 0

    def writable_root(ds):
        container(ds, "mcp-gateway")["securityContext"]["readOnlyRootFilesystem"] = False

    def no_limits(ds):
        del container(ds, "core-service")["resources"]["limits"]

    def keep_caps(ds):
        container(ds, "webhook-dispatcher")["securityContext"]["capabilities"]["drop"] = []

    def wrong_mcp_route(ds):
        paths = find(ds, "Ingress", "canvas")["spec"]["rules"][0]["http"]["paths"]
        next(p for p in paths if p["path"] == "/mcp")["backend"]["service"]["name"] = "rest-gateway"

    def missing_map(ds):
        rule = find(ds, "Ingress", "canvas")["spec"]["rules"][0]
        rule["http"]["paths"] = [p for p in rule["http"]["paths"] if p["path"] != "/map"]

    def one_replica(ds):
        find(ds, "HorizontalPodAutoscaler", "core-service")["spec"]["minReplicas"] = 1

    def http_probe_on_core(ds):
        container(ds, "core-service")["livenessProbe"] = {"httpGet": {"path": "/healthz", "port": 50051}}

    def secret_in_git(ds):
        ds.append({"apiVersion": "v1", "kind": "Secret",
                   "metadata": {"name": "canvas-database", "namespace": "canvas"},
                   "stringData": {"CANVAS_DATABASE_URL": "postgres://x"}})

    def port_mismatch(ds):
        env_value(container(ds, "rest-gateway"), "CANVAS_HTTP_ADDR")["value"] = "0.0.0.0:9999"

    def no_migrate(ds):
        ds.remove(find(ds, "Job", "core-service-migrate"))

    def plain_db_url(ds):
        env_value(container(ds, "core-service"), "CANVAS_DATABASE_URL").pop("valueFrom")

    def single_database(ds):
        find(ds, "Cluster", "canvas-db")["spec"]["instances"] = 1

    def asynchronous_standbys(ds):
        find(ds, "Cluster", "canvas-db")["spec"]["postgresql"].pop("synchronous")

    def url_beside_the_cluster(ds):
        env_value(container(ds, "core-service"), "CANVAS_DATABASE_URL")["valueFrom"]["secretKeyRef"] = {
            "name": "canvas-database", "key": "CANVAS_DATABASE_URL"}

    def reads_beside_the_cluster(ds):
        env_value(container(ds, "core-service"), "CANVAS_READ_DATABASE_URL")["value"] = "postgres://db.example.com/canvas"

    def read_password_elsewhere(ds):
        env_value(container(ds, "core-service"), "PGPASSWORD")["valueFrom"]["secretKeyRef"]["name"] = "canvas-database"

    def unknown_configmap(ds):
        container(ds, "mcp-gateway")["envFrom"].append({"configMapRef": {"name": "nowhere"}})

    def latest_image(ds):
        container(ds, "rest-gateway")["image"] = "registry.example.com/canvas/rest-gateway:latest"

    def wrong_env(ds):
        cm = next(d for d in ds if d["kind"] == "ConfigMap" and d["metadata"]["name"].startswith("canvas-common"))
        cm["data"]["CANVAS_ENVIRONMENT"] = "development"

    def agents_typo(ds):
        cm = next(d for d in ds if d["kind"] == "ConfigMap" and d["metadata"]["name"].startswith("knowledge-agents"))
        cm["data"]["agents.toml"] = cm["data"]["agents.toml"].replace("rerank_candidates", "rerank_candidate")

    def agents_path(ds):
        cm = next(d for d in ds if d["kind"] == "ConfigMap" and d["metadata"]["name"].startswith("core-service-config"))
        cm["data"]["CANVAS_AGENTS_FILE"] = "/etc/canvas/agents.toml"

    def unknown_variable(ds):
        container(ds, "core-service")["env"].append({"name": "CANVAS_DATABSE_URL", "value": "x"})

    mutations = [drop_hpa, root_user, writable_root, no_limits, keep_caps, wrong_mcp_route, missing_map,
                 one_replica, http_probe_on_core, secret_in_git, port_mismatch, no_migrate, plain_db_url,
                 unknown_configmap, latest_image, wrong_env, agents_typo, agents_path, unknown_variable,
                 single_database, asynchronous_standbys, url_beside_the_cluster, reads_beside_the_cluster,
                 read_password_elsewhere]
    missed = []
    for mutate in mutations:
        broken = copy.deepcopy(docs)
        mutate(broken)
        failures, _ = check("production", broken, source_root)
        if not failures:
            missed.append(mutate.__name__)
    if missed:
        print(f"self-test: {len(missed)} broken render(s) passed the checks: {', '.join(missed)}")
        return 1
    print(f"self-test: all {len(mutations)} broken renders were caught")
    return 0


def main(argv: list[str]) -> int:
    source_root = None
    if len(argv) >= 3 and argv[1] == "--source-root":
        source_root, argv = argv[2], [argv[0]] + argv[3:]
    if len(argv) == 4 and argv[1] == "--without-operator-kinds":
        return without_operator_kinds(argv[2], argv[3])
    if len(argv) == 3 and argv[1] == "--self-test":
        return self_test(argv[2], source_root or os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    if len(argv) != 3 or argv[1] not in NAMESPACE:
        print(__doc__, file=sys.stderr)
        return 2
    overlay, path = argv[1], argv[2]
    docs = load(path)
    failures, count = check(overlay, docs, source_root)
    for failure in failures:
        print(f"FAIL {overlay}: {failure}")
    print(f"{overlay}: {count - len(failures)} of {count} manifest checks passed")
    if source_root is not None and overlay == "production":
        source = rust_sources_text(source_root)
        for name in sorted(n for n in env_names(Manifests(docs)) if n in PENDING_ENV and f'"{n}"' not in source):
            print(f"note: {name} is not read by the code yet ({PENDING_ENV[name]})")
        if not re.search(r"\bMigrate\b", source):
            print("note: `core-service migrate` (the migration Job's command) is not in the code yet")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
