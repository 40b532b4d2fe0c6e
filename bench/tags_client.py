#!/usr/bin/env python3
"""The client side of bench/tags.sh, over REST with the standard library only:

  seed N             N sticky notes by bulk creates of 1,000; every 10th is created carrying the
                     tag `hot`, the last 10 the tag `rare`; prints the tag ids as JSON
  tag NAME COUNT     makes the tag NAME and gives it to the first COUNT sticky notes (8 writers);
                     prints its id to stdout (hyperfine's --prepare runs this, untimed)
  delete NAME        deletes the tag NAME (timed by hyperfine): the delete takes it off its items

Every answer must be the documented success (the run fails otherwise)."""

import argparse
import concurrent.futures
import http.client
import json
import sys
import time
import urllib.parse


class Api:
    def __init__(self, base: str, token: str, project: str):
        url = urllib.parse.urlsplit(base)
        self.host, self.port = url.hostname, url.port
        self.token, self.project = token, project

    def call(self, method: str, path: str, body=None, expect=200):
        headers = {"Authorization": f"Bearer {self.token}"}
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
        sep = "&" if "?" in path else "?"
        for _ in range(20):
            conn = http.client.HTTPConnection(self.host, self.port, timeout=120)
            conn.request(method, f"/api/v2/projects/{self.project}{path}{sep}jsonCasing=camel", data, headers)
            response = conn.getresponse()
            text = response.read()
            conn.close()
            # The token's rate limit (the tagging of --prepare is a burst): wait as told, untimed.
            if response.status not in (429, 503):
                break
            time.sleep(float(response.getheader("Retry-After") or 1))
        if response.status != expect:
            sys.exit(f"{method} {path}: {response.status} {text[:300]!r}")
        return json.loads(text) if text else None

    def tag(self, name: str) -> str:
        tags = self.call("GET", "/tags")["tags"]
        found = [t["tagId"] for t in tags if t["name"] == name]
        return found[0] if found else self.call("POST", "/tags", {"name": name}, expect=201)["tagId"]

    def notes(self) -> list:
        ids, cursor = [], ""
        while True:
            page = self.call("GET", f"/items?type=sticky-note&limit=1000{'&cursor=' + cursor if cursor else ''}")
            ids += [item["itemId"] for item in page["items"]]
            cursor = page.get("nextCursor")
            if not cursor:
                return ids


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--base", required=True)
    parser.add_argument("--token", required=True)
    parser.add_argument("--project", required=True)
    parser.add_argument("mode", choices=["seed", "tag", "delete"])
    parser.add_argument("args", nargs="*")
    options = parser.parse_args()
    api = Api(options.base, options.token, options.project)
    if options.mode == "seed":
        total = int(options.args[0])
        hot, rare = api.tag("hot"), api.tag("rare")
        for start in range(0, total, 1000):
            batch = []
            for n in range(start, min(start + 1000, total)):
                tags = [hot] if n % 10 == 0 else []
                if n >= total - 10:
                    tags.append(rare)
                props = {"text": f"note {n}", "position": {"x": (n % 100) * 250, "y": (n // 100) * 150}, "tags": tags}
                batch.append({"type": "sticky-note", "properties": props})
            api.call("POST", "/items/bulk", {"items": batch})
        print(json.dumps({"hot": hot, "rare": rare}))
    elif options.mode == "tag":
        name, count = options.args[0], int(options.args[1])
        tag = api.tag(name)
        notes = api.notes()[:count]
        with concurrent.futures.ThreadPoolExecutor(8) as pool:
            list(pool.map(lambda item: api.call("PATCH", f"/item/sticky-note/{item}", {"tags": [tag]}), notes))
        print(tag)
    else:
        tags = [t["tagId"] for t in api.call("GET", "/tags")["tags"] if t["name"] == options.args[0]]
        done = api.call("DELETE", f"/tags/{tags[0]}")
        print(len(done["untaggedItemIds"]), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
