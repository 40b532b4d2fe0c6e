"""The failover run (bench/failover.sh): the whole service (`canvasctl up`) on PostgreSQL behind
HAProxy and Patroni, under steady REST writes, webhook deliveries to a local receiver and
knowledge indexing, while the primary's machine is SIGKILLed FAILOVERS times and then switched
over once with `patronictl`. Prints the figures and exits non-zero when a check fails:

- every acknowledged create is in the project exactly once, with its last acknowledged text;
- every acknowledged create and update reached the webhook receiver at least once;
- the search index holds every acknowledged item at its current version, and nothing is queued;
- no answer was a 500 (or any status but 2xx, 503 with Retry-After, 409 for a key in use) and
  none took past the client's deadline.
"""

import argparse
import datetime
import json
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(__file__))
import cluster  # noqa: E402
import load  # noqa: E402

HTTP = ("127.0.0.1", 18080)
GRPC = "127.0.0.1:15051"
RECEIVER_PORT = 18443


def start_up(canvasctl, work, url, log, extra_env=None):
    env = {**os.environ, "CANVAS_DATABASE_URL": url, **(extra_env or {})}
    process = subprocess.Popen(
        [canvasctl, "up", "--data-dir", os.path.join(work, "up"), "--http-addr", f"{HTTP[0]}:{HTTP[1]}",
         "--grpc-addr", GRPC],
        env=env, stdout=open(log, "a"), stderr=subprocess.STDOUT, start_new_session=True,
    )
    cluster.wait_until(lambda: cluster.http_ok(f"http://{HTTP[0]}:{HTTP[1]}/healthz"), 180, "the service answers")
    return process


def stop(process):
    os.killpg(process.pid, signal.SIGTERM)
    process.wait(timeout=60)


class LagSampler(threading.Thread):
    """Once a second, the synchronous standby's lag as the primary reports it
    (`pg_stat_replication`: replay lag and bytes of WAL not yet replayed), through HAProxy."""

    def __init__(self, stop):
        super().__init__(daemon=True)
        self.stop, self.samples = stop, []  # (unix time, replay lag ms or None, bytes behind)

    def run(self):
        sql = ("SELECT COALESCE((EXTRACT(EPOCH FROM replay_lag) * 1000)::text, ''), "
               "pg_wal_lsn_diff(pg_current_wal_lsn(), replay_lsn) FROM pg_stat_replication LIMIT 1")
        while not self.stop.wait(1.0):
            try:
                row = cluster.psql(cluster.HAPROXY_PORT, sql)
            except RuntimeError:
                continue
            if "|" in row:
                lag, behind = row.split("|")
                self.samples.append((time.time(), float(lag) if lag else None, float(behind)))


def lag_report(samples, events):
    """Lag figures from the samples taken at least 20 s after every event (steady load)."""
    steady = [s for s in samples if all(not (at - 1 <= s[0] <= at + 20) for _, at, _, _ in events)]
    lags = sorted(s[1] for s in steady if s[1] is not None)
    behind = sorted(s[2] for s in steady)
    if not lags:
        print("replica lag: no steady sample")
        return
    pick = lambda values, q: values[min(len(values) - 1, int(q * len(values)))]  # noqa: E731
    print(f"replica replay lag under load ({len(lags)} steady samples): p50 {pick(lags, 0.5):.1f} ms, "
          f"p99 {pick(lags, 0.99):.1f} ms, max {lags[-1]:.1f} ms; WAL not yet replayed: p50 "
          f"{pick(behind, 0.5):.0f} bytes, max {behind[-1]:.0f} bytes")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--canvasctl", required=True)
    parser.add_argument("--failovers", type=int, default=5)
    parser.add_argument("--writers", type=int, default=6)
    parser.add_argument("--pause", type=float, default=0.02, help="seconds each writer rests between writes")
    parser.add_argument("--steady", type=float, default=10, help="seconds of load before and between failovers")
    parser.add_argument("--keep", action="store_true", help="keep the work directory")
    parser.add_argument("--no-standby-reads", action="store_true",
                        help="no --read-database-url: every read goes to the primary")
    parser.add_argument("--host-list", action="store_true",
                        help="the service names both servers in its URL instead of HAProxy's address")
    args = parser.parse_args()

    work = tempfile.mkdtemp(prefix="canvas-failover-")
    db = cluster.Cluster(work)
    processes = []
    try:
        db.start()
        # HAProxy may route before the primary takes connections ("the database system is starting up").
        cluster.wait_until(lambda: cluster.pg_ok(cluster.HAPROXY_PORT) and db.leader() is not None, 60, "the primary")
        for attempt in range(20):
            try:
                cluster.psql(cluster.HAPROXY_PORT, "CREATE DATABASE canvas")
                break
            except RuntimeError as err:
                if attempt == 19:
                    raise
                print(f"creating the database: {err}; trying again", flush=True)
                time.sleep(0.5)
        url = f"postgres://postgres@127.0.0.1:{cluster.HAPROXY_PORT}/canvas"
        if args.host_list:
            servers = ",".join(f"127.0.0.1:{node.pg_port}" for node in db.nodes)
            url = f"postgres://postgres@{servers}/canvas?target_session_attrs=read-write"
        print(f"the service's database URL: {url}", flush=True)
        # First start: schema and the development credentials; then the receiver (which needs the
        # project) and the service again with the receiver's CA.
        stop(start_up(args.canvasctl, work, url, os.path.join(work, "up.log")))
        creds = json.load(open(os.path.join(work, "up", "dev-credentials.json")))
        project, token = creds["projectId"], creds["token"]
        heard = os.path.join(work, "heard.jsonl")
        ca = os.path.join(work, "receiver-ca.pem")
        receiver = subprocess.Popen(
            [args.canvasctl, "webhooks", "listen", "--port", str(RECEIVER_PORT), "--project", project,
             "--keys-url", f"http://{HTTP[0]}:{HTTP[1]}/api/v2/webhooks/keys", "--ca-out", ca],
            stdout=open(heard, "w"), stderr=open(os.path.join(work, "receiver.log"), "w"), start_new_session=True,
        )
        processes.append(receiver)
        cluster.wait_until(lambda: os.path.exists(ca), 30, "the receiver wrote its CA")
        read_url = {} if args.no_standby_reads else {
            "CANVAS_READ_DATABASE_URL": f"postgres://postgres@127.0.0.1:{cluster.REPLICA_PORT}/canvas"}
        service = start_up(args.canvasctl, work, url, os.path.join(work, "up.log"), {
            "CANVAS_WEBHOOK_ALLOW_DESTINATIONS": "127.0.0.1/32", "CANVAS_WEBHOOK_CA_CERTS": ca, **read_url,
        })
        processes.append(service)
        api = load.Api(*HTTP, token)
        status, _, hook = api.call("POST", f"/api/v2/projects/{project}/webhooks?jsonCasing=camel", {
            "url": f"https://127.0.0.1:{RECEIVER_PORT}/", "events": ["item.created", "item.updated"],
        })
        if status != 201 and status != 200:
            raise SystemExit(f"defining the webhook answered {status}: {hook}")

        stop_load = threading.Event()
        writers = [load.Writer(i, load.Api(*HTTP, token), project, stop_load, args.pause) for i in range(args.writers)]
        for writer in writers:
            writer.start()
        sampler = LagSampler(stop_load)
        sampler.start()
        events = []  # (kind, at, old primary, new primary)
        time.sleep(args.steady)
        for _ in range(args.failovers):
            at = time.time()
            old = db.crash_primary()
            cluster.wait_until(lambda: db.leader() not in (None, old), 120, "a new primary")
            events.append(("SIGKILL", at, old, db.leader()))
            print(f"SIGKILL of {old}: {db.leader()} is the primary after {time.time() - at:.1f} s", flush=True)
            db.rejoin(old)
            cluster.wait_until(db.healthy, 180, "the old primary rejoins as the synchronous standby")
            time.sleep(args.steady)
        at = time.time()
        old, new = db.switchover()
        cluster.wait_until(db.healthy, 180, "the switchover completes")
        events.append(("switchover", at, old, new))
        print(f"switchover {old} -> {new} took {time.time() - at:.1f} s", flush=True)
        time.sleep(args.steady)
        stop_load.set()
        for writer in writers:
            writer.join(timeout=load.GIVE_UP_AFTER + 10)

        failures = check(api, project, writers, heard, work)
        report(writers, events, work)
        failures += read_report(api, writers)
        lag_report(sampler.samples, events)
        if failures:
            print("FAILED:\n  " + "\n  ".join(failures[:40]), flush=True)
            sys.exit(1)
        print("every check passed", flush=True)
    finally:
        for process in reversed(processes):
            try:
                stop(process)
            except Exception:  # noqa: BLE001 - cleanup goes on
                process.kill()
        db.stop()
        if args.keep:
            print(f"work directory kept: {work}")
        else:
            subprocess.run(["rm", "-rf", work], check=False)


def check(api, project, writers, heard, work):
    failures = []
    created = {item: text for w in writers for item, text in w.created.items()}
    texts = {item: text for w in writers for item, text in w.texts.items()}
    updates = [u for w in writers for u in w.updates]
    attempts = [a for w in writers for a in w.attempts]

    # Allowed besides success: 503 (the database is unavailable) and 429 (rate limited), both with
    # Retry-After, and 409 IDEMPOTENCY_KEY_IN_USE (a retry met its first attempt still running).
    bad = [a for a in attempts if not (a.ok or a.status in (503, 429) or (a.status == 409 and a.reason == "IDEMPOTENCY_KEY_IN_USE"))]
    for a in bad[:20]:
        failures.append(f"a {a.kind} answered {a.status} {a.reason!r} after {a.ended - a.started:.1f} s")
    for a in [a for a in attempts if a.status in (503, 429) and not a.retry_after][:10]:
        failures.append(f"a {a.kind} answered {a.status} {a.reason!r} without Retry-After")

    items = load.list_items(api, project)
    listed = {item["itemId"]: item for item in items}
    for item, text in texts.items():
        if item not in listed:
            failures.append(f"acknowledged item {item} ({created[item]!r}) is missing")
        elif listed[item].get("text") != text:
            failures.append(f"item {item} reads {listed[item].get('text')!r}, last acknowledged {text!r}")
    # Exactly once: each create's text is unique, so two items from one create share a base text.
    original = set(created.values())
    created_once = {}
    for item in items:
        base = (item.get("text") or "").split(" changed ")[0]
        created_once.setdefault(base, []).append(item["itemId"])
    for base, ids in created_once.items():
        if base in original and len(ids) > 1:
            failures.append(f"{base!r} exists {len(ids)} times: {ids}")

    # Webhooks: wait (bounded) until the receiver has heard every acknowledged write.
    want_created = set(created)
    want_updated = set(updates)
    deadline = time.monotonic() + 300
    while True:
        changes = load.heard_changes(heard)
        got_created = {item for kind, item, _ in changes if kind == "item.created"}
        got_updated = {(item, text) for kind, item, text in changes if kind == "item.updated"}
        missing_created, missing_updated = want_created - got_created, want_updated - got_updated
        if not (missing_created or missing_updated) or time.monotonic() > deadline:
            break
        time.sleep(2)
    for item in list(missing_created)[:10]:
        failures.append(f"no item.created delivery for acknowledged {item}")
    for item, text in list(missing_updated)[:10]:
        failures.append(f"no item.updated delivery for acknowledged update of {item} to {text!r}")
    print(f"webhooks: {len(changes)} changes heard for {len(want_created)} creates and {len(want_updated)} updates")

    # The search index: nothing queued, every acknowledged item indexed at its current version.
    deadline = time.monotonic() + 300
    while True:
        queued = int(cluster.psql(cluster.HAPROXY_PORT,
                                  f"SELECT count(*) FROM knowledge_queue WHERE project_id = '{project}'", "canvas"))
        if queued == 0 or time.monotonic() > deadline:
            break
        time.sleep(2)
    rows = cluster.psql(cluster.HAPROXY_PORT, (
        "SELECT k.item_id, k.status FROM knowledge_items k JOIN items i ON i.id = k.item_id "
        f"AND i.version = k.item_version WHERE k.project_id = '{project}'"), "canvas")
    indexed = {line.split("|")[0]: line.split("|")[1] for line in rows.splitlines() if line}
    if queued:
        failures.append(f"{queued} items are still queued for indexing")
    not_indexed = [item for item in texts if indexed.get(item) != "indexed"]
    for item in not_indexed[:10]:
        failures.append(f"acknowledged item {item} is not indexed at its current version")
    print(f"index: {len(texts) - len(not_indexed)} of {len(texts)} acknowledged items indexed, {queued} queued")
    unacknowledged = sum(len(w.unacknowledged) for w in writers)
    print(f"writes: {len(created)} creates and {len(updates)} updates acknowledged, {unacknowledged} given up, "
          f"{len(attempts)} attempts, {len(items)} items listed")
    return failures


def read_report(api, writers):
    """The reads of own writes: every one must have held its write; and where reads were served."""
    failures = []
    reads = [a for w in writers for a in w.reads]
    statuses = {}
    for a in reads:
        statuses[a.status] = statuses.get(a.status, 0) + 1
    bad = [a for a in reads if not (a.ok or (a.status in (503, 429) and a.retry_after))]
    for a in bad[:10]:
        failures.append(f"a read of own write answered {a.status} {a.reason!r} after {a.ended - a.started:.1f} s")
    missed = [m for w in writers for m in w.missed]
    for item, ids in missed[:10]:
        failures.append(f"a listing just after the create of {item} did not hold it ({len(ids)} items listed)")
    print(f"reads of own writes: {len(reads)} listings, by status {dict(sorted(statuses.items()))}, "
          f"{len(missed)} missed their write")
    status, _, metrics = api.call("GET", "/metrics")
    served = {}
    for line in (metrics if isinstance(metrics, str) else "").splitlines():
        if line.startswith("database_lagging_reads_total{"):
            outcome = line.split('outcome="')[1].split('"')[0]
            served[outcome] = int(float(line.rsplit(" ", 1)[1]))
    total = sum(served.values())
    on_standby = served.get("standby", 0) + served.get("standby_after_wait", 0)
    if total:
        print(f"heavy reads by where they were served: {dict(sorted(served.items()))}; "
              f"{on_standby / total:.1%} by the standby")
    return failures


SLOW = 10.0  # seconds: an answer slower than this has the service's warnings of its time printed


def slow_answer_log(attempts, log):
    """For each answer slower than SLOW seconds (at most three), the service's warnings and errors
    logged while it ran: what it was waiting for (a 21-22 s answer came back in some runs, rarely)."""
    slow = sorted((a for a in attempts if a.ended - a.started > SLOW), key=lambda a: a.started - a.ended)[:3]
    if not slow or not os.path.exists(log):
        return
    lines = []
    with open(log, errors="replace") as text:
        for line in text:
            if " WARN " not in line[:40] and " ERROR " not in line[:40]:
                continue
            try:
                at = datetime.datetime.fromisoformat(line.split()[0].replace("Z", "+00:00")).timestamp()
            except ValueError:
                continue
            lines.append((at, line.rstrip()[:240]))
    for a in slow:
        during = [line for at, line in lines if a.started <= at <= a.ended]
        print(f"  the service's warnings during the {a.ended - a.started:.1f} s {a.kind} ({len(during)}; the first 15):")
        for line in during[:15]:
            print(f"    {line}")


def report(writers, events, work):
    attempts = sorted((a for w in writers for a in w.attempts), key=lambda a: a.started)
    with open(os.path.join(work, "attempts.jsonl"), "w") as out:
        for a in attempts:
            out.write(json.dumps({s: getattr(a, s) for s in a.__slots__}) + "\n")
    with open(os.path.join(work, "events.json"), "w") as out:
        json.dump(events, out)
    statuses = {}
    for a in attempts:
        statuses[a.status] = statuses.get(a.status, 0) + 1
    print(f"answers by status: {dict(sorted(statuses.items()))}")
    print(f"slowest answer: {max(a.ended - a.started for a in attempts):.2f} s")
    for a in sorted(attempts, key=lambda a: a.started - a.ended)[:3]:
        before = [(kind, at) for kind, at, _, _ in events if at <= a.started]
        after = f"{a.started - before[-1][1]:.1f} s after {before[-1][0]} {len(before)}" if before else "before any event"
        print(f"  {a.ended - a.started:.2f} s: a {a.kind} answered {a.status} {a.reason!r}, started {after}")
    slow_answer_log(attempts, os.path.join(work, "up.log"))
    reasons = {}
    for a in attempts:
        if not a.ok:
            reasons[(a.status, a.reason)] = reasons.get((a.status, a.reason), 0) + 1
    print(f"refusals by status and reason: {reasons}")
    windows = {"SIGKILL": [], "switchover": []}
    bounds = [e[1] for e in events] + [float("inf")]
    print("| event | writes failed for (s) | failed attempts | first write acknowledged after (s) |")
    print("|---|---|---|---|")
    for (kind, at, old, new), until in zip(events, bounds[1:]):
        # An attempt belongs to the event before its answer: one in flight at a kill fails then.
        span = [a for a in attempts if at <= a.ended < until]
        failed = [a for a in span if not a.ok and a.status != 429]
        last_failure = max((a.ended for a in failed), default=at)
        first_ok = min((a.ended for a in span if a.ok and a.started >= last_failure), default=float("nan"))
        window = last_failure - at if failed else 0.0
        windows[kind].append(window)
        print(f"| {kind} {old} -> {new} | {window:.2f} | {len(failed)} | {first_ok - at:.2f} |")
    kills = windows["SIGKILL"]
    if kills:
        print(f"SIGKILL write window: p50 {statistics.median(kills):.2f} s, max {max(kills):.2f} s over {len(kills)}")


if __name__ == "__main__":
    main()
