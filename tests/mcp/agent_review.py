#!/usr/bin/env python3
"""An agent working through a map's open comment threads with the official Python MCP SDK, one
step at a time, so that a person's open map can be checked after each step.

Run by `tests/browser/agent_review_test.mjs` (itself run by the Rust test
`map_agent_review`), which watches the person's map in headless Chromium:

    python agent_review.py --url http://127.0.0.1:PORT/mcp --token TOKEN --project ID

Before each step it reads one line from stdin (the watcher's "go"); after the step's tool calls
are answered it prints one JSON line: {"step": ..., "at": <ms since the epoch>, ...}, `at` being
when the call that changed the map was answered. A step that fails prints
{"step": ..., "error": ...} and the script exits 1.

The steps, as an agent asked to act on comments would take them (the one thing an LLM would
decide, which request a thread makes, is read from its text with a pattern: the stand-in for
the model this test cannot run):

1. `list`: `list_comments` (open ones) and picks the thread that asks for a rename, on an item;
2. `reply`: `reply_comment` on it, saying what it will do;
3. `rename`: `get_item` on the item the thread names, then `update_item_property` of its text;
4. `resolve`: `resolve_comment`, then `list_comments` again: the thread is no longer open.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import re
import sys
import time
from typing import Any

import httpx2
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

# What a person writes to ask for a rename: "rename this to X" (any case, X up to the line's end).
RENAME = re.compile(r"rename (?:this|it) to\s+(.+?)\s*[.!]?\s*$", re.IGNORECASE)


class StepFailed(Exception):
    pass


def now() -> int:
    """The machine's clock in ms since the epoch (the watching page's clock too)."""
    return int(time.time() * 1000)


def say(step: str, at: int | None = None, **fields: Any) -> None:
    """One step's line; `at` is when its change was answered (now, when not given)."""
    print(json.dumps({"step": step, "at": at if at is not None else now(), **fields}), flush=True)


async def call(client: Client, tool: str, arguments: dict[str, Any]) -> dict[str, Any]:
    """A tool call that must succeed; its structured result."""
    result = await client.call_tool(tool, arguments)
    text = " ".join(getattr(block, "text", "") for block in result.content)
    if result.is_error or not isinstance(result.structured_content, dict):
        raise StepFailed(f"{tool} failed: {text[:300]}")
    return result.structured_content


async def go() -> bool:
    """Waits for the watcher's next line; False at the end of its input."""
    line = await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)
    return bool(line)


def opening_text(thread: dict[str, Any]) -> str:
    """The text of a thread's first comment (on the thread itself, or its first of `comments`)."""
    if "text" in thread:
        return str(thread["text"])
    comments = thread.get("comments") or [{}]
    return str(comments[0].get("text", ""))


async def review(client: Client, project: str) -> None:
    step = "list"
    try:
        if not await go():
            return
        listed = await call(client, "list_comments", {"projectId": project, "status": "open"})
        asks = [(t, RENAME.search(opening_text(t))) for t in listed.get("threads", []) if t.get("itemId")]
        asks = [(t, m.group(1)) for t, m in asks if m]
        if len(asks) != 1:
            raise StepFailed(f"expected one open thread asking for a rename, found {len(asks)}: {listed}")
        thread, new_name = asks[0]
        thread_id, item_id = thread["threadId"], thread["itemId"]
        say(step, threadId=thread_id, itemId=item_id, name=new_name,
            open=[t.get("threadId") for t in listed.get("threads", [])])

        step = "reply"
        if not await go():
            return
        reply = await call(client, "reply_comment",
                           {"projectId": project, "threadId": thread_id, "text": f"Renaming it to {new_name} now."})
        say(step, now(), commentId=reply.get("commentId"), text=reply.get("text"))

        step = "rename"
        if not await go():
            return
        before = await call(client, "get_item", {"projectId": project, "itemId": item_id})
        await call(client, "update_item_property",
                   {"projectId": project, "itemId": item_id, "property": "text", "value": new_name})
        at = now()
        after = await call(client, "get_item", {"projectId": project, "itemId": item_id})
        say(step, at, before=before.get("properties", {}).get("text"), after=after.get("properties", {}).get("text"))

        step = "resolve"
        if not await go():
            return
        resolved = await call(client, "resolve_comment", {"projectId": project, "threadId": thread_id})
        at = now()
        still = await call(client, "list_comments", {"projectId": project, "status": "open"})
        say(step, at, resolved=resolved.get("resolved"), open=[t.get("threadId") for t in still.get("threads", [])])
    except StepFailed as failure:
        say(step, error=str(failure))
        raise


async def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url", required=True, help="the MCP endpoint, http://127.0.0.1:PORT/mcp")
    parser.add_argument("--token", required=True, help="the agent's API token (a member of the project)")
    parser.add_argument("--project", required=True, help="the project whose threads it reviews")
    args = parser.parse_args()
    headers = {"Authorization": f"Bearer {args.token}"}
    async with httpx2.AsyncClient(headers=headers, timeout=httpx2.Timeout(60.0)) as http:
        async with Client(streamable_http_client(args.url, http_client=http), mode="auto") as client:
            say("connected", protocol=client.protocol_version)
            try:
                await review(client, args.project)
            except StepFailed:
                return 1
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
