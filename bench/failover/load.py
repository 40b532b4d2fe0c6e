"""The steady load of the failover run and the checks after it.

Writers create labels (each with its own Idempotency-Key, retried with the same key until
acknowledged) and change the text of labels they created (a PATCH, retried with the same body).
Every attempt is recorded: when it started and ended, its status and reason. A retry honours
`Retry-After`, capped at 1 s, so the figures measure the service rather than the client's patience.

After the run the checks read the state back through the REST API, the webhook receiver's output
and the search index's tables.
"""

import http.client
import json
import threading
import time
import uuid

CLIENT_TIMEOUT = 40  # seconds: past the gateways' 30 s deadline, so a hang shows as a timeout
GIVE_UP_AFTER = 120  # seconds of retrying one write before it counts as not acknowledged


class Attempt:
    __slots__ = ("started", "ended", "kind", "status", "reason", "retry_after")

    def __init__(self, started, ended, kind, status, reason, retry_after):
        self.started, self.ended, self.kind, self.status = started, ended, kind, status
        self.reason, self.retry_after = reason, retry_after

    @property
    def ok(self):
        return 200 <= self.status < 300


class Api:
    """One keep-alive connection to the REST gateway, made again after any transport error."""

    def __init__(self, host, port, token):
        self.host, self.port, self.token = host, port, token
        self.connection = None

    def call(self, method, path, body=None, headers=None):
        """(status, headers, parsed body or text); status 0 for a transport error or a timeout. A
        kept-alive connection the gateway closed while idle (its header-read timeout, 10 s) is
        made again and the request sent once more, as HTTP clients' pools do."""
        for fresh in (self.connection is None, True):
            if self.connection is None:
                self.connection = http.client.HTTPConnection(self.host, self.port, timeout=CLIENT_TIMEOUT)
            sent = {"Authorization": f"Bearer {self.token}", "Content-Type": "application/json", **(headers or {})}
            try:
                self.connection.request(method, path, body=json.dumps(body) if body is not None else None, headers=sent)
                response = self.connection.getresponse()
                raw = response.read()
                break
            except (http.client.RemoteDisconnected, BrokenPipeError, ConnectionResetError) as err:
                self.connection.close()
                self.connection = None
                if fresh:
                    return 0, {}, f"transport: {type(err).__name__}: {err}"
            except (OSError, http.client.HTTPException) as err:
                self.connection.close()
                self.connection = None
                return 0, {}, f"transport: {type(err).__name__}: {err}"
        try:
            parsed = json.loads(raw) if raw else None
        except ValueError:
            parsed = raw.decode(errors="replace")
        return response.status, {k.lower(): v for k, v in response.getheaders()}, parsed


def reason_of(status, headers, body):
    if isinstance(body, dict):
        return body.get("reason") or body.get("Reason") or headers.get("reason", "")
    return headers.get("reason", "") or (body[:80] if isinstance(body, str) else "")


class Writer(threading.Thread):
    def __init__(self, index, api, project, stop, pause):
        super().__init__(daemon=True)
        self.index, self.api, self.project, self.stop, self.pause = index, api, project, stop, pause
        self.attempts = []
        self.created = {}  # item id -> text it was created with (acknowledged)
        self.texts = {}  # item id -> last acknowledged text
        self.updates = []  # (item id, text) of every acknowledged update
        self.unacknowledged = []  # writes given up on (may or may not have happened)
        self.reads = []  # Attempt of every listing read after an acknowledged create
        self.missed = []  # (item id, listing) of a listing that did not hold the write just acknowledged

    def until_acknowledged(self, kind, method, path, body, headers=None):
        first = time.monotonic()
        while time.monotonic() - first < GIVE_UP_AFTER:
            started = time.time()
            status, answer_headers, answer = self.api.call(method, path, body, headers)
            reason = reason_of(status, answer_headers, answer)
            retry_after = answer_headers.get("retry-after")
            self.attempts.append(Attempt(started, time.time(), kind, status, reason, retry_after))
            if 200 <= status < 300:
                return answer
            time.sleep(min(float(retry_after), 1.0) if retry_after else 0.25)
        return None

    def run(self):
        n = 0
        while not self.stop.is_set():
            n += 1
            text = f"failover w{self.index} n{n} {uuid.uuid4().hex[:8]}"
            key = str(uuid.uuid4())
            path = f"/api/v2/projects/{self.project}/item/panel/label?jsonCasing=camel"
            answer = self.until_acknowledged("create", "POST", path, {"text": text}, {"Idempotency-Key": key})
            if answer is None:
                self.unacknowledged.append(("create", text))
            else:
                item = answer["itemId"]
                previous = list(self.created)[-1] if self.created else None
                self.created[item] = text
                self.texts[item] = text
                self.read_own_write(item, previous)
            if n % 2 == 0 and self.created:
                item = list(self.created)[(n * 7919) % len(self.created)]
                new = f"{self.created[item]} changed {n}"
                path = f"/api/v2/projects/{self.project}/item/label/{item}?jsonCasing=camel"
                if self.until_acknowledged("update", "PATCH", path, {"text": new}) is None:
                    self.unacknowledged.append(("update", item, new))
                else:
                    self.texts[item] = new
                    self.updates.append((item, new))
            time.sleep(self.pause)


    def read_own_write(self, item, previous):
        """At once after a create was acknowledged, a listing from this writer's previous item on
        must hold it (with --read-database-url the listing may be served by the standby)."""
        cursor = previous
        while not self.stop.is_set():
            path = f"/api/v2/projects/{self.project}/items?jsonCasing=camel&limit=100" + (
                f"&cursor={cursor}" if cursor else "")
            started = time.time()
            status, headers, answer = self.api.call("GET", path)
            retry_after = headers.get("retry-after")
            self.reads.append(Attempt(started, time.time(), "read", status, reason_of(status, headers, answer), retry_after))
            if status != 200:
                time.sleep(min(float(retry_after), 1.0) if retry_after else 0.25)
                continue
            ids = [i["itemId"] for i in answer["items"]]
            if item in ids:
                return
            cursor = answer.get("nextCursor")
            if not cursor:
                self.missed.append((item, ids))
                return


def list_items(api, project):
    """Every item of the project, through the listing (creation order, all pages)."""
    items, cursor = [], None
    while True:
        path = f"/api/v2/projects/{project}/items?jsonCasing=camel&limit=500" + (f"&cursor={cursor}" if cursor else "")
        status, _, answer = api.call("GET", path)
        if status != 200:
            raise SystemExit(f"listing the items answered {status}: {answer}")
        items.extend(answer["items"])
        cursor = answer.get("nextCursor")
        if not cursor:
            return items


def heard_changes(path):
    """(kind, item id, text) of every change the receiver accepted (duplicates included)."""
    changes = []
    with open(path) as lines:
        for line in lines:
            line = line.strip()
            if not line.startswith("{"):
                continue
            change = json.loads(line)["change"]
            new = change.get("new") or {}
            changes.append((change["kind"], (change.get("subject") or {}).get("id"), new.get("text")))
    return changes
