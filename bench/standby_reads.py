"""The runs of bench/standby_reads.sh: a primary and a streaming standby of its own, `canvasctl
up` on the primary with and without --read-database-url, wrk on a listing page, and a writer
thread for the runs under writes. Prints one line per run and the ratios against the baseline."""

import argparse
import http.client
import json
import os
import pwd
import re
import shutil
import signal
import subprocess
import tempfile
import threading
import time

PG_BIN = "/usr/lib/postgresql/15/bin"
PRIMARY, STANDBY = 15461, 15462
HTTP = "127.0.0.1:18080"
ITEMS = 1000


def as_postgres(args):
    return ["runuser", "-u", "postgres", "--", *args] if os.geteuid() == 0 else args


def run(args):
    subprocess.run(as_postgres(args), check=True, stdout=subprocess.DEVNULL)


def configure(data, settings, work):
    with open(os.path.join(data, "postgresql.conf"), "a") as conf:
        conf.write(f"\nlisten_addresses = '127.0.0.1'\nunix_socket_directories = '{work}'\n{settings}")


def start_pair(work):
    if os.geteuid() == 0:
        pg = pwd.getpwnam("postgres")
        os.chown(work, pg.pw_uid, pg.pw_gid)
    primary, standby = os.path.join(work, "primary"), os.path.join(work, "standby")
    run([f"{PG_BIN}/initdb", "-D", primary, "-U", "postgres", "--auth=trust", "-E", "UTF8"])
    configure(primary, f"port = {PRIMARY}\nmax_connections = 100\nshared_buffers = 256MB\n", work)
    run([f"{PG_BIN}/pg_ctl", "-D", primary, "-l", f"{primary}.log", "-w", "start"])
    run([f"{PG_BIN}/pg_basebackup", "-h", "127.0.0.1", "-p", str(PRIMARY), "-U", "postgres", "-D", standby,
         "-R", "-X", "stream"])
    configure(standby, f"port = {STANDBY}\n", work)
    run([f"{PG_BIN}/pg_ctl", "-D", standby, "-l", f"{standby}.log", "-w", "start"])
    subprocess.run(["psql", "-h", "127.0.0.1", "-p", str(PRIMARY), "-U", "postgres", "-qc", "CREATE DATABASE canvas"],
                   check=True)
    return primary, standby


def stop_pair(primary, standby):
    for data in (standby, primary):
        subprocess.run(as_postgres([f"{PG_BIN}/pg_ctl", "-D", data, "-m", "fast", "stop"]), check=False,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def start_up(canvasctl, work, read_url):
    # Rate limits off: one token at full speed would be refused (docs/PERFORMANCE.md, "The GET path").
    env = {**os.environ, "CANVAS_DATABASE_URL": f"postgres://postgres@127.0.0.1:{PRIMARY}/canvas",
           "CANVAS_RATE_LIMIT_REQUESTS": "0"}
    if read_url:
        env["CANVAS_READ_DATABASE_URL"] = f"postgres://postgres@127.0.0.1:{STANDBY}/canvas"
    process = subprocess.Popen(
        [canvasctl, "up", "--data-dir", os.path.join(work, "up"), "--http-addr", HTTP, "--grpc-addr", "127.0.0.1:15051"],
        env=env, stdout=open(os.path.join(work, "up.log"), "a"), stderr=subprocess.STDOUT, start_new_session=True)
    for _ in range(600):
        try:
            connection = http.client.HTTPConnection(*HTTP.split(":"), timeout=2)
            connection.request("GET", "/readyz")
            if connection.getresponse().status == 200:
                return process
        except OSError:
            pass
        time.sleep(0.2)
    raise SystemExit("canvasctl up did not become ready")


def stop_up(process):
    os.killpg(process.pid, signal.SIGTERM)
    process.wait(timeout=60)


def call(method, path, token, body=None):
    connection = http.client.HTTPConnection(*HTTP.split(":"), timeout=30)
    headers = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}
    connection.request(method, path, body=json.dumps(body) if body is not None else None, headers=headers)
    response = connection.getresponse()
    return response.status, response.read()


class Writer(threading.Thread):
    """Creates a label every 20 ms (50 writes a second) until stopped."""

    def __init__(self, project, token):
        super().__init__(daemon=True)
        self.project, self.token, self.stop, self.writes = project, token, threading.Event(), 0

    def run(self):
        while not self.stop.wait(0.02):
            status, _ = call("POST", f"/api/v2/projects/{self.project}/item/panel/label", self.token, {"text": "w"})
            self.writes += status == 200


def wrk(url, token, seconds, connections):
    out = subprocess.run(
        ["wrk", "-t", "2", "-c", str(connections), "-d", f"{seconds}s", "--latency", "-H",
         f"Authorization: Bearer {token}", url], check=True, capture_output=True, text=True).stdout
    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))
    pick = lambda q: re.search(rf"^\s+{q}%\s+(\S+)", out, re.M).group(1)  # noqa: E731
    bad = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    return rps, pick(50), pick(99), int(bad.group(1)) if bad else 0


def ms(text):
    value = float(re.match(r"[\d.]+", text).group(0))
    return value / 1000 if text.endswith("us") else value * 1000 if text.endswith("s") and not text.endswith("ms") else value


def cpu_seconds(data):
    """CPU seconds (user and system) spent so far by the server of data directory `data`: its
    postmaster and every process it started. Connections are pooled, so backends live through a run."""
    postmaster = int(open(os.path.join(data, "postmaster.pid")).readline())
    ticks = os.sysconf("SC_CLK_TCK")
    total = 0
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(pid) == postmaster or int(fields[1]) == postmaster:
            total += int(fields[11]) + int(fields[12])
    return total / ticks


def served(token):
    _, body = call("GET", "/metrics", token)
    counts = {}
    for line in body.decode().splitlines():
        if line.startswith("database_lagging_reads_total{"):
            counts[line.split('outcome="')[1].split('"')[0]] = int(float(line.rsplit(" ", 1)[1]))
    return counts


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--canvasctl", required=True)
    parser.add_argument("--work", required=True)
    parser.add_argument("--seconds", type=int, default=10)
    parser.add_argument("--connections", type=int, default=8)
    args = parser.parse_args()
    # Its own directory under /tmp: the work directory is root's alone, and PostgreSQL runs as postgres.
    pair_dir = tempfile.mkdtemp(prefix="canvas-standby-")
    primary, standby = start_pair(pair_dir)
    try:
        results = {}
        for read_url in (False, True):
            up = start_up(args.canvasctl, args.work, read_url)
            try:
                creds = json.load(open(os.path.join(args.work, "up", "dev-credentials.json")))
                project, token = creds["projectId"], creds["token"]
                if not read_url:
                    items = [{"type": "label", "properties": {"text": f"item {n}"}} for n in range(ITEMS)]
                    for start in range(0, ITEMS, 200):
                        status, body = call("POST", f"/api/v2/projects/{project}/items/bulk", token,
                                            {"items": items[start:start + 200]})
                        assert status == 200, body
                url = f"http://{HTTP}/api/v2/projects/{project}/items?limit=100"
                for writing in (False, True):
                    writer = Writer(project, token)
                    if writing:
                        writer.start()
                    before = served(token) if read_url else {}
                    cpu = (cpu_seconds(primary), cpu_seconds(standby))
                    rps, p50, p99, bad = wrk(url, token, args.seconds, args.connections)
                    cpu = (cpu_seconds(primary) - cpu[0], cpu_seconds(standby) - cpu[1])
                    writer.stop.set()
                    after = served(token) if read_url else {}
                    where = {k: after.get(k, 0) - before.get(k, 0) for k in after if after.get(k, 0) != before.get(k, 0)}
                    name = f"{'standby' if read_url else 'primary'} {'under writes' if writing else 'idle'}"
                    listings = rps * args.seconds
                    results[name] = (rps, ms(p50), cpu[0] / listings * 1000)
                    print(f"{name}: rps={rps:.0f} p50={p50} p99={p99} non2xx={bad} writes={writer.writes} "
                          f"CPU s per 1,000 listings: primary {cpu[0] / listings * 1000:.3f}, standby "
                          f"{cpu[1] / listings * 1000:.3f}; reads served: {where}", flush=True)
            finally:
                stop_up(up)
        for writing in ("idle", "under writes"):
            base, read = results[f"primary {writing}"], results[f"standby {writing}"]
            print(f"{writing}: with the standby ÷ without: rps {read[0] / base[0]:.2f}, p50 {read[1] / base[1]:.2f}, "
                  f"primary CPU per listing {read[2] / base[2]:.2f}")
    finally:
        stop_pair(primary, standby)
        shutil.rmtree(pair_dir, ignore_errors=True)


if __name__ == "__main__":
    main()
