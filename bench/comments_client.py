#!/usr/bin/env python3
"""The client side of bench/comments.sh (comments and frames on a big map), over REST with the standard library only:

  notes N            N sticky notes by bulk creates of 1,000 (100 columns, 250 apart, rows 150
                     apart); prints the count as JSON
  frames F           F frames tiling the notes (blocks of 10 columns by N / F / 10 rows), each
                     note moved into its frame by an update naming its `parent` (8 writers);
                     prints the counts as JSON
  threads T          T comment threads on every (N / T)th note by 8 writers, every 5th with a
                     reply and every 4th resolved; prints the counts as JSON
  open [comments]    what the live map reads when it opens: render.svg, every page of the item
                     listing and, with `comments`, every page of the open threads (timed by
                     hyperfine, once with and once without)
  reach K            K times each, alternating: a reply, and (the baseline) a sticky note's text,
                     written while another client follows the change stream; the time from the
                     write's answer to its change on the stream plus the map's read of what
                     changed (the thread; the item); each write after a random pause of up to
                     0.3 s, so that writes do not keep step with the stream's 250 ms poll; prints
                     p50 and p90 of each in milliseconds as JSON
  settle             waits until the knowledge index has nothing queued; prints how long
  moves K            K times each, alternating: a frame moved (everything it holds moving with it
                     in the same write), and (the baseline) one sticky note moved; the write's
                     answer time, p50 and p90 of each in milliseconds as JSON

Every answer must be the documented success (the run fails otherwise)."""

import argparse
import concurrent.futures
import http.client
import json
import random
import statistics
import sys
import threading
import time
import urllib.parse


class Api:
    def __init__(self, base: str, token: str, project: str):
        url = urllib.parse.urlsplit(base)
        self.host, self.port = url.hostname, url.port
        self.token, self.project = token, project

    def connection(self):
        return http.client.HTTPConnection(self.host, self.port, timeout=120)

    def raw(self, method: str, path: str, body=None, expect=200) -> bytes:
        headers = {"Authorization": f"Bearer {self.token}"}
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
        conn = self.connection()
        conn.request(method, path, data, headers)
        response = conn.getresponse()
        text = response.read()
        conn.close()
        if response.status != expect:
            sys.exit(f"{method} {path}: {response.status} {text[:300]!r}")
        return text

    def call(self, method: str, path: str, body=None, expect=200):
        sep = "&" if "?" in path else "?"
        text = self.raw(method, f"/api/v2/projects/{self.project}{path}{sep}jsonCasing=camel", body, expect)
        return json.loads(text) if text else None

    def pages(self, path: str, key: str) -> list:
        found, cursor = [], ""
        while True:
            page = self.call("GET", f"{path}{'&cursor=' + cursor if cursor else ''}")
            found += page[key]
            cursor = page.get("nextCursor")
            if not cursor:
                return found


COLUMNS, DX, DY = 100, 250, 150


def notes(api: Api, count: int) -> dict:
    for start in range(0, count, 1000):
        batch = [
            {"type": "sticky-note", "properties": {"text": f"note {n}", "position": {"x": (n % COLUMNS) * DX, "y": (n // COLUMNS) * DY}}}
            for n in range(start, min(start + 1000, count))
        ]
        api.call("POST", "/items/bulk", {"items": batch})
    return {"notes": len(api.pages("/items?type=sticky-note&limit=1000", "items"))}


def frames(api: Api, count: int) -> dict:
    ids = [item["itemId"] for item in api.pages("/items?type=sticky-note&limit=1000", "items")]
    wide = 10  # columns of notes per frame
    tall = max(1, len(ids) // count // wide)  # rows of notes per frame
    frame_ids = []
    for f in range(count):
        left, top = (f % (COLUMNS // wide)) * wide, (f // (COLUMNS // wide)) * tall
        body = {"title": f"Area {f}",
                "position": {"x": (left + (wide - 1) / 2) * DX, "y": (top + (tall - 1) / 2) * DY},
                "size": {"width": wide * DX, "height": tall * DY}}
        frame_ids.append(api.call("POST", "/item/panel/frame", body)["itemId"])

    def move(n: int) -> None:
        column, row = n % COLUMNS, n // COLUMNS
        frame = frame_ids[(row // tall) * (COLUMNS // wide) + column // wide]
        api.call("PATCH", f"/item/sticky-note/{ids[n]}", {"parent": frame})

    with concurrent.futures.ThreadPoolExecutor(8) as pool:
        list(pool.map(move, range(len(ids))))
    held = len(api.pages(f"/items?frame={frame_ids[0]}&limit=1000", "items"))
    return {"frames": len(frame_ids), "held by the first": held}


def seed(api: Api, threads: int) -> dict:
    ids = [item["itemId"] for item in api.pages("/items?type=sticky-note&limit=1000", "items")]
    step = max(1, len(ids) // threads)

    def one(n: int) -> None:
        thread = api.call("POST", "/comments", {"text": f"please check note {n}", "itemId": ids[n * step]}, expect=201)
        if n % 5 == 0:
            api.call("POST", f"/comments/{thread['threadId']}/replies", {"text": "on it"}, expect=201)
        if n % 4 == 0:
            api.call("PATCH", f"/comments/{thread['threadId']}", {"resolved": True})

    with concurrent.futures.ThreadPoolExecutor(8) as pool:
        list(pool.map(one, range(threads)))
    open_threads = len(api.pages("/comments?status=open&limit=200", "threads"))
    return {"threads": threads, "open": open_threads}


def settle(api: Api, most: float = 900.0) -> dict:
    """Waits until the project's knowledge index has nothing queued (the indexer's work after a seed
    would otherwise share the machine with the next measurement)."""
    start = time.perf_counter()
    while True:
        path = f"/api/v1/memory/index?projectId={api.project}&limit=1&jsonCasing=camel"
        counts = json.loads(api.raw("GET", path))["counts"]
        if counts["queued"] == 0:
            return {"indexed": counts["indexed"], "waited_s": round(time.perf_counter() - start, 1)}
        if time.perf_counter() - start > most:
            sys.exit(f"the index still had {counts['queued']} queued after {most} s")
        time.sleep(1)


def open_map(api: Api, with_comments: bool) -> None:
    api.raw("GET", f"/api/v2/projects/{api.project}/render.svg")
    api.pages("/items?limit=1000", "items")
    if with_comments:
        api.pages("/comments?status=open&limit=200", "threads")


def reach(api: Api, rounds: int) -> dict:
    thread = api.call("POST", "/comments", {"text": "latency probe", "position": {"x": 0, "y": 0}}, expect=201)
    thread_id = thread["threadId"]
    note = api.call("GET", "/items?type=sticky-note&limit=1")["items"][0]["itemId"]
    arrived = {}
    ready = threading.Event()
    stop = threading.Event()

    def follow() -> None:
        conn = api.connection()
        conn.request("GET", f"/api/v2/projects/{api.project}/changes", headers={"Authorization": f"Bearer {api.token}"})
        response = conn.getresponse()
        event = None
        while not stop.is_set():
            line = response.readline().decode().rstrip("\n")
            if line.startswith("event:"):
                event = line[6:].strip()
            elif line.startswith("data:"):
                data = json.loads(line[5:])
                if event == "ready":
                    ready.set()
                elif event == "change" and data.get("kind") == "comment.created":
                    # What the map does next: read the thread again.
                    api.call("GET", f"/comments/{data['threadId']}")
                    arrived[data["itemId"]] = time.perf_counter()
                elif event == "change" and data.get("kind") == "item.updated":
                    # And for an item: read it again.
                    api.call("GET", f"/item/{data['itemId']}")
                    arrived[data["eventId"]] = time.perf_counter()
        conn.close()

    follower = threading.Thread(target=follow, daemon=True)
    follower.start()
    if not ready.wait(10):
        sys.exit("the change stream did not answer ready")

    def wait_for(key: str, answered: float) -> float:
        deadline = answered + 10
        while key not in arrived:
            if time.perf_counter() > deadline:
                sys.exit(f"{key} never reached the stream")
            time.sleep(0.001)
        return (arrived[key] - answered) * 1000

    comments, items = [], []
    for n in range(rounds):
        time.sleep(random.uniform(0, 0.3))
        reply = api.call("POST", f"/comments/{thread_id}/replies", {"text": f"probe {n}"}, expect=201)
        comments.append(wait_for(reply["commentId"], time.perf_counter()))
        time.sleep(random.uniform(0, 0.3))
        before = set(arrived)
        api.call("PATCH", f"/item/sticky-note/{note}", {"text": f"probe {n}"})
        answered = time.perf_counter()
        deadline = answered + 10
        while not set(arrived) - before - {reply["commentId"]}:
            if time.perf_counter() > deadline:
                sys.exit(f"item write {n} never reached the stream")
            time.sleep(0.001)
        key = next(iter(set(arrived) - before - {reply["commentId"]}))
        items.append((arrived[key] - answered) * 1000)
    stop.set()

    def figures(values: list) -> dict:
        return {"p50_ms": round(statistics.median(values), 1), "p90_ms": round(statistics.quantiles(values, n=10)[8], 1)}

    return {"rounds": rounds, "reply": figures(comments), "item (baseline)": figures(items)}


def moves(api: Api, rounds: int) -> dict:
    frame = api.call("GET", "/items?type=frame&limit=1")["items"][0]
    held = len(api.pages(f"/items?frame={frame['itemId']}&limit=1000", "items"))
    note = api.call("GET", "/items?type=sticky-note&limit=1")["items"][0]
    timed = {"frame": [], "note": []}
    for n in range(rounds):
        for name, item, kind in (("frame", frame, "frame"), ("note", note, "sticky-note")):
            at = item["position"]
            start = time.perf_counter()
            api.call("PATCH", f"/item/{kind}/{item['itemId']}", {"position": {"x": at["x"] + (n % 2) * 10, "y": at["y"]}})
            timed[name].append((time.perf_counter() - start) * 1000)

    def figures(values: list) -> dict:
        return {"p50_ms": round(statistics.median(values), 1), "p90_ms": round(statistics.quantiles(values, n=10)[8], 1)}

    return {"rounds": rounds, f"frame holding {held}": figures(timed["frame"]), "one note (baseline)": figures(timed["note"])}


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--base", required=True)
    parser.add_argument("--token", required=True)
    parser.add_argument("--project", required=True)
    parser.add_argument("mode", choices=["notes", "frames", "threads", "settle", "open", "reach", "moves"])
    parser.add_argument("args", nargs="*")
    options = parser.parse_args()
    api = Api(options.base, options.token, options.project)
    if options.mode == "notes":
        print(json.dumps(notes(api, int(options.args[0]))))
    elif options.mode == "frames":
        print(json.dumps(frames(api, int(options.args[0]))))
    elif options.mode == "threads":
        print(json.dumps(seed(api, int(options.args[0]))))
    elif options.mode == "open":
        open_map(api, options.args[:1] == ["comments"])
    elif options.mode == "settle":
        print(json.dumps(settle(api)))
    elif options.mode == "moves":
        print(json.dumps(moves(api, int(options.args[0]))))
    else:
        print(json.dumps(reach(api, int(options.args[0]))))
    return 0


if __name__ == "__main__":
    sys.exit(main())
