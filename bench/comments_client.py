#!/usr/bin/env python3
"""The client side of bench/comments.sh, over REST with the standard library only:

  seed N T           N sticky notes by bulk creates of 1,000, then T comment threads on every
                     (N / T)th note by 8 writers, every 5th with a reply and every 4th resolved;
                     prints the counts as JSON
  open [comments]    what the live map reads when it opens: render.svg, every page of the item
                     listing and, with `comments`, every page of the open threads (timed by
                     hyperfine, once with and once without)
  reach K            K times each, alternating: a reply, and (the baseline) a sticky note's text,
                     written while another client follows the change stream; the time from the
                     write's answer to its change on the stream plus the map's read of what
                     changed (the thread; the item); each write after a random pause of up to
                     0.3 s, so that writes do not keep step with the stream's 250 ms poll; prints
                     p50 and p90 of each in milliseconds as JSON

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


def seed(api: Api, notes: int, threads: int) -> dict:
    for start in range(0, notes, 1000):
        batch = [
            {"type": "sticky-note", "properties": {"text": f"note {n}", "position": {"x": (n % 100) * 250, "y": (n // 100) * 150}}}
            for n in range(start, min(start + 1000, notes))
        ]
        api.call("POST", "/items/bulk", {"items": batch})
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
    return {"notes": len(ids), "threads": threads, "open": open_threads}


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


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--base", required=True)
    parser.add_argument("--token", required=True)
    parser.add_argument("--project", required=True)
    parser.add_argument("mode", choices=["seed", "open", "reach"])
    parser.add_argument("args", nargs="*")
    options = parser.parse_args()
    api = Api(options.base, options.token, options.project)
    if options.mode == "seed":
        print(json.dumps(seed(api, int(options.args[0]), int(options.args[1]))))
    elif options.mode == "open":
        open_map(api, options.args[:1] == ["comments"])
    else:
        print(json.dumps(reach(api, int(options.args[0]))))
    return 0


if __name__ == "__main__":
    sys.exit(main())
