"""The database the failover run breaks: one etcd member, two PostgreSQL 15 servers managed by
Patroni (a primary and a synchronous standby, `synchronous_mode: true`) and HAProxy in front,
routing to whichever server Patroni's REST API calls the primary. Everything listens on 127.0.0.1
and lives under one work directory; nothing here touches the machine's own PostgreSQL cluster.

One etcd member, not three: etcd is not what fails in this run, and on two cores three members
only add elections' CPU to the measured window. A production DCS has three (docs/SCALING.md).

Timings are Patroni's: the leader key lives `ttl` seconds, members loop every `loop_wait`; a
primary that dies unannounced is replaced once its key expires, so the write window of a crash is
about `ttl` plus HAProxy's check interval (`inter` times `fall`).
"""

import json
import os
import pwd
import shutil
import signal
import subprocess
import time
import urllib.request

PG_BIN = "/usr/lib/postgresql/15/bin"
ETCD_CLIENT = 23790
ETCD_PEER = 23800
HAPROXY_PORT = 15440
# HAProxy's port for the standbys (Patroni's `/replica`), the service's --read-database-url.
REPLICA_PORT = 15439
TTL, LOOP_WAIT, RETRY_TIMEOUT = 8, 1, 3  # Patroni requires loop_wait + 2 * retry_timeout <= ttl


class Node:
    """One Patroni member: its PostgreSQL port, REST port and directory."""

    def __init__(self, work, index):
        self.name = f"node{index}"
        self.pg_port = 15440 + index
        self.rest_port = 18007 + index
        self.dir = os.path.join(work, self.name)
        self.config = os.path.join(self.dir, "patroni.yml")
        self.process = None

    def write_config(self):
        os.makedirs(self.dir, exist_ok=True)
        config = f"""
scope: canvas-failover
name: {self.name}
restapi:
  listen: 127.0.0.1:{self.rest_port}
  connect_address: 127.0.0.1:{self.rest_port}
etcd3:
  hosts: 127.0.0.1:{ETCD_CLIENT}
bootstrap:
  dcs:
    ttl: {TTL}
    loop_wait: {LOOP_WAIT}
    retry_timeout: {RETRY_TIMEOUT}
    maximum_lag_on_failover: 1048576
    synchronous_mode: true
    postgresql:
      use_pg_rewind: true
      remove_data_directory_on_rewind_failure: true
      remove_data_directory_on_diverged_timelines: true
      parameters:
        wal_log_hints: "on"
        max_connections: 200
        synchronous_commit: "on"
        fsync: "on"
  initdb:
    - encoding: UTF8
    - locale: C.UTF-8
  pg_hba:
    - local all all trust
    - host all all 127.0.0.1/32 trust
    - host replication all 127.0.0.1/32 trust
postgresql:
  listen: 127.0.0.1:{self.pg_port}
  connect_address: 127.0.0.1:{self.pg_port}
  data_dir: {self.dir}/data
  bin_dir: {PG_BIN}
  pgpass: {self.dir}/pgpass
  authentication:
    superuser: {{username: postgres, password: postgres}}
    replication: {{username: replicator, password: replicator}}
    rewind: {{username: postgres, password: postgres}}
  parameters:
    unix_socket_directories: {self.dir}
"""
        with open(self.config, "w") as out:
            out.write(config)

    def start(self, log):
        """Starts this member's Patroni (as the postgres user: PostgreSQL refuses root)."""
        out = open(log, "a")
        self.process = subprocess.Popen(
            ["runuser", "-u", "postgres", "--", "patroni", self.config],
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )

    def postmaster(self):
        """The running postmaster's pid, or None."""
        try:
            with open(os.path.join(self.dir, "data", "postmaster.pid")) as pid_file:
                pid = int(pid_file.readline())
            os.kill(pid, 0)
            return pid
        except (OSError, ValueError):
            return None

    def crash(self):
        """The machine dies: Patroni and PostgreSQL (postmaster and every backend) get SIGKILL at
        once, so nobody gives the leader key back and no backend finishes what it was doing."""
        postmaster = self.postmaster()
        if postmaster:
            os.kill(postmaster, signal.SIGSTOP)  # no new backends while the others are killed
            subprocess.run(["pkill", "-KILL", "-P", str(postmaster)], check=False)
            os.kill(postmaster, signal.SIGKILL)
        if self.process:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()
            self.process = None

    def stop(self):
        if self.process:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.crash()
            self.process = None


class Cluster:
    def __init__(self, work):
        self.work = work
        self.nodes = [Node(work, 1), Node(work, 2)]
        self.etcd = None
        self.haproxy = None

    def log(self, name):
        return os.path.join(self.work, f"{name}.log")

    def start(self):
        postgres = pwd.getpwnam("postgres")
        os.chown(self.work, postgres.pw_uid, postgres.pw_gid)
        self.etcd = subprocess.Popen(
            [
                "etcd", "--name", "etcd1", "--data-dir", os.path.join(self.work, "etcd"),
                "--listen-client-urls", f"http://127.0.0.1:{ETCD_CLIENT}",
                "--advertise-client-urls", f"http://127.0.0.1:{ETCD_CLIENT}",
                "--listen-peer-urls", f"http://127.0.0.1:{ETCD_PEER}",
                "--initial-advertise-peer-urls", f"http://127.0.0.1:{ETCD_PEER}",
                "--initial-cluster", f"etcd1=http://127.0.0.1:{ETCD_PEER}",
            ],
            stdout=open(self.log("etcd"), "w"), stderr=subprocess.STDOUT, start_new_session=True,
        )
        wait_until(lambda: http_ok(f"http://127.0.0.1:{ETCD_CLIENT}/health"), 30, "etcd answers")
        for node in self.nodes:
            node.write_config()
            shutil.chown(node.dir, postgres.pw_uid, postgres.pw_gid)
        self.nodes[0].start(self.log(self.nodes[0].name))
        wait_until(lambda: self.leader() == self.nodes[0].name, 90, "node1 bootstraps as the primary")
        self.nodes[1].start(self.log(self.nodes[1].name))
        wait_until(self.healthy, 120, "node2 streams as the synchronous standby")
        self.start_haproxy()
        wait_until(lambda: pg_ok(HAPROXY_PORT), 30, "HAProxy reaches the primary")

    def start_haproxy(self):
        servers = "\n".join(
            f"  server {n.name} 127.0.0.1:{n.pg_port} maxconn 200 check port {n.rest_port}" for n in self.nodes
        )
        config = f"""
global
  maxconn 1000
defaults
  mode tcp
  timeout connect 2s
  timeout client 30m
  timeout server 30m
  timeout check 1s
listen primary
  bind 127.0.0.1:{HAPROXY_PORT}
  option httpchk OPTIONS /primary
  http-check expect status 200
  default-server inter 500ms fall 2 rise 2 on-marked-down shutdown-sessions
{servers}
listen replica
  bind 127.0.0.1:{REPLICA_PORT}
  option httpchk OPTIONS /replica
  http-check expect status 200
  default-server inter 500ms fall 2 rise 2 on-marked-down shutdown-sessions
{servers}
"""
        path = os.path.join(self.work, "haproxy.cfg")
        with open(path, "w") as out:
            out.write(config)
        self.haproxy = subprocess.Popen(
            ["haproxy", "-f", path], stdout=open(self.log("haproxy"), "w"), stderr=subprocess.STDOUT,
            start_new_session=True,
        )

    def members(self):
        """Patroni's view of the cluster (`GET /cluster` of any member that answers)."""
        for node in self.nodes:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{node.rest_port}/cluster", timeout=1) as answer:
                    return json.load(answer)["members"]
            except OSError:
                continue
        return []

    def leader(self):
        for member in self.members():
            if member["role"] == "leader" and member["state"] == "running":
                return member["name"]
        return None

    def healthy(self):
        """A running primary and a streaming synchronous standby."""
        roles = {(m["role"], m["state"]) for m in self.members()}
        return ("leader", "running") in roles and any(
            role == "sync_standby" and state in ("streaming", "running") for role, state in roles
        )

    def node(self, name):
        return next(n for n in self.nodes if n.name == name)

    def crash_primary(self):
        """SIGKILLs the primary's machine (Patroni and PostgreSQL); answers its name."""
        name = self.leader()
        self.node(name).crash()
        return name

    def rejoin(self, name):
        """The crashed machine comes back: its Patroni starts again and rejoins as a standby
        (pg_rewind when its timeline diverged)."""
        node = self.node(name)
        node.start(self.log(node.name))

    def switchover(self):
        """A planned switchover with `patronictl`; answers (old, new) primary."""
        old = self.leader()
        new = next(n.name for n in self.nodes if n.name != old)
        subprocess.run(
            ["patronictl", "-c", self.node(old).config, "switchover", "--leader", old, "--candidate", new, "--force"],
            check=True, stdout=subprocess.DEVNULL,
        )
        return old, new

    def stop(self):
        for node in self.nodes:
            node.stop()
        for process in (self.haproxy, self.etcd):
            if process:
                os.killpg(process.pid, signal.SIGTERM)
                process.wait()


def http_ok(url):
    try:
        with urllib.request.urlopen(url, timeout=1):
            return True
    except OSError:
        return False


def pg_ok(port):
    done = subprocess.run(["pg_isready", "-h", "127.0.0.1", "-p", str(port), "-q"], check=False)
    return done.returncode == 0


def psql(port, sql, database="postgres"):
    done = subprocess.run(
        ["psql", "-h", "127.0.0.1", "-p", str(port), "-U", "postgres", "-d", database, "-Atqc", sql],
        capture_output=True, text=True,
    )
    if done.returncode != 0:
        raise RuntimeError(f"psql -c {sql!r} failed: {done.stderr.strip()}")
    return done.stdout.strip()


def wait_until(condition, seconds, what):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.2)
    raise SystemExit(f"timed out after {seconds} s waiting until {what}")
