#!/usr/bin/env python3
"""End-to-end test of the canvas MCP server with the official Python MCP SDK.

Run by the Rust test `mcp_clients::python_sdk_end_to_end` against a test server
on 127.0.0.1 (see tests/run.sh for the pinned SDK). It connects twice:

- legacy: the `initialize` handshake with protocol revision 2025-03-26;
- default: the SDK's default mode, which negotiates the newest revision
  (2026-07-28: `server/discover`, no `initialize`).

Each time it lists the tools and checks their schemas and annotations, calls
every tool successfully, calls every tool once with a bad argument and checks
the error result (isError with a message naming the argument), and checks
that an unknown tool and malformed arguments are JSON-RPC errors.

It makes a frame and creates into it (`create_frame`, the creating tools' `frame`).

It also plays an agent reviewing the map with comment threads: a person asks (over REST) on an
item for it to be renamed; the agent lists the open threads, replies, renames the item and
resolves the thread, which then leaves the open list.

Then the confirmation of a large destructive change (`delete_diagram` of a
diagram of more than 50 items): on 2026-07-28 the server answers
`input_required` and the SDK asks the person through its elicitation callback
(declined: nothing changes; accepted: the diagram is gone); on the legacy
revision, which cannot carry that, the call fails naming `confirm`, and
`confirm: true` goes ahead.

Exit status 0 when every check passed; the output lists each check.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import uuid
from typing import Any

import httpx2
import mcp.client.session as mcp_session
import mcp_types as types
from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.exceptions import MCPError

TOOLS = {
    "list_projects", "find_item", "create_item", "get_item", "list_items", "update_item_property",
    "style_item", "arrange_item", "delete_item", "connect_items", "upload_image", "retrieve_knowledge",
    "create_items", "create_diagram", "read_map", "render_map", "arrange_items", "read_diagram", "update_diagram",
    "delete_diagram", "export_mermaid", "list_tags", "create_tag", "update_tag", "delete_tag",
    "list_comments", "add_comment", "reply_comment", "resolve_comment", "create_frame",
}
READ_ONLY = {"list_projects", "find_item", "get_item", "list_items", "retrieve_knowledge", "read_map", "render_map",
             "read_diagram", "export_mermaid", "list_tags", "list_comments"}
DESTRUCTIVE = {"update_item_property", "style_item", "arrange_item", "delete_item", "arrange_items", "update_diagram",
               "delete_diagram", "update_tag", "delete_tag", "resolve_comment"}
REQUIRED = {
    "list_projects": set(),
    "find_item": {"itemId"},
    "create_item": {"projectId", "type"},
    "get_item": {"projectId", "itemId"},
    "list_items": {"projectId"},
    "update_item_property": {"projectId", "itemId", "property", "value"},
    "style_item": {"projectId", "itemId"},
    "arrange_item": {"projectId", "itemId"},
    "delete_item": {"projectId", "itemId"},
    "connect_items": {"projectId", "fromItemId", "toItemId"},
    "upload_image": {"projectId", "data", "fileName"},
    "retrieve_knowledge": {"projectId", "query"},
    "create_items": {"projectId", "items"},
    "create_diagram": {"projectId", "source"},
    "read_map": {"projectId"},
    "render_map": {"projectId"},
    "arrange_items": {"projectId", "itemIds", "style"},
    "read_diagram": {"projectId", "diagramId"},
    "update_diagram": {"projectId", "diagramId", "source"},
    "delete_diagram": {"projectId", "diagramId"},
    "export_mermaid": {"projectId"},
    "list_tags": {"projectId"},
    "create_tag": {"projectId", "name"},
    "update_tag": {"projectId", "tagId"},
    "delete_tag": {"projectId", "tagId"},
    "list_comments": {"projectId"},
    "add_comment": {"projectId", "text"},
    "reply_comment": {"projectId", "threadId", "text"},
    "resolve_comment": {"projectId", "threadId"},
    "create_frame": {"projectId"},
}
# A 1x1 PNG.
PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="


class Checks:
    """Collects failed checks instead of stopping at the first one."""

    def __init__(self) -> None:
        self.failed: list[str] = []
        self.passed = 0

    def check(self, condition: bool, what: str) -> bool:
        if condition:
            self.passed += 1
        else:
            self.failed.append(what)
            print(f"  FAIL {what}")
        return condition


def text_of(result: Any) -> str:
    return "".join(getattr(block, "text", "") for block in result.content)


def thread_ids(listing: dict[str, Any]) -> list[str]:
    """The ids of the threads a list_comments result holds, in its order."""
    return [t.get("threadId", "") for t in listing.get("threads", [])]


def opening(thread: dict[str, Any], key: str) -> Any:
    """A field of a thread's first comment: on the thread itself, or its first of `comments`."""
    if thread.get(key) is not None:
        return thread[key]
    comments = thread.get("comments") or [{}]
    return comments[0].get(key)


def reply_texts(thread: dict[str, Any]) -> list[str]:
    """The texts of a thread's replies, oldest first (`replies`, or `comments` after the first)."""
    replies = thread.get("replies")
    if replies is None:
        replies = (thread.get("comments") or [])[1:]
    return [r.get("text", "") for r in replies]


class Run:
    def __init__(self, client: Client, checks: Checks, args: argparse.Namespace, era: str) -> None:
        self.client, self.checks, self.args, self.era = client, checks, args, era

    def check(self, condition: bool, what: str) -> bool:
        return self.checks.check(condition, f"[{self.era}] {what}")

    async def ok(self, tool: str, arguments: dict[str, Any]) -> dict[str, Any]:
        """Calls a tool that must succeed; returns its structured content."""
        result = await self.client.call_tool(tool, arguments)
        if not self.check(not result.is_error, f"{tool} succeeds: {text_of(result)}"):
            return {}
        structured = result.structured_content
        self.check(isinstance(structured, dict), f"{tool} returns structured content")
        try:
            same = json.loads(text_of(result)) == structured
        except ValueError:
            same = False
        self.check(same, f"{tool}: the text content is the structured result as JSON")
        print(f"  ok   {tool}")
        return structured if isinstance(structured, dict) else {}

    async def rejected(self, tool: str, arguments: dict[str, Any], *needles: str) -> str:
        """Calls a tool with a bad argument: isError, and the text names it."""
        result = await self.client.call_tool(tool, arguments)
        text = text_of(result)
        self.check(result.is_error, f"{tool} with a bad argument is an error result: {text}")
        for needle in needles:
            self.check(needle in text, f"{tool}: error names {needle!r}: {text}")
        print(f"  ok   {tool} rejects a bad argument: {text[:140]}")
        return text

    async def protocol_error(self, tool: str, arguments: dict[str, Any], needle: str) -> None:
        try:
            result = await self.client.call_tool(tool, arguments)
        except MCPError as error:
            self.check(error.code == -32602, f"{tool} {arguments}: JSON-RPC -32602, got {error.code}")
            self.check(needle in error.message, f"{tool}: protocol error names {needle!r}: {error.message}")
            print(f"  ok   {tool} protocol error: {error.message[:140]}")
            return
        self.check(False, f"{tool} {arguments}: expected a JSON-RPC error, got {result}")

    async def tools(self) -> None:
        listed = (await self.client.list_tools()).tools
        by_name = {tool.name: tool for tool in listed}
        self.check(set(by_name) == TOOLS, f"tools/list names the {len(TOOLS)} tools: {sorted(by_name)}")
        for name, tool in by_name.items():
            schema = tool.input_schema
            self.check(schema.get("type") == "object", f"{name}: input schema is an object")
            self.check(set(schema.get("required", [])) == REQUIRED.get(name), f"{name}: required {schema.get('required')}")
            self.check('"null"' not in json.dumps(schema), f"{name}: input schema never allows null")
            self.check(bool(tool.description) and len(tool.description) > 60, f"{name}: a description an agent can use")
            self.check((tool.output_schema or {}).get("type") == "object", f"{name}: output schema is an object")
            self.check('"null"' not in json.dumps(tool.output_schema), f"{name}: output schema never mentions null")
            hints = tool.annotations
            self.check(hints is not None, f"{name}: has annotations")
            if hints is not None:
                self.check(hints.read_only_hint == (name in READ_ONLY), f"{name}: readOnlyHint")
                if name not in READ_ONLY:
                    self.check(hints.destructive_hint == (name in DESTRUCTIVE), f"{name}: destructiveHint")
                self.check(hints.idempotent_hint is not None, f"{name}: idempotentHint")
        amount = by_name["list_projects"].input_schema["properties"]["amount"]
        self.check(amount.get("default") == 50 and amount.get("type") == "integer", f"amount schema: {amount}")
        print(f"  ok   tools/list: {len(listed)} tools with schemas and annotations")

    async def calls(self) -> None:
        a, project, base = self.args, self.args.project, self.args.url.removesuffix("/mcp")
        projects = await self.ok("list_projects", {})
        mine = [p for p in projects.get("projects", []) if p.get("projectId") == project]
        self.check(len(mine) == 1 and mine[0].get("role") == "Admin", f"list_projects shows the project: {projects}")
        self.check(bool(mine) and mine[0].get("link") == f"{base}/map/{project}", f"project link: {mine}")
        await self.rejected("list_projects", {"amount": 0}, "'amount'")

        label = await self.ok("create_item", {"projectId": project, "type": "label", "properties": {"text": "Hello"}})
        label_id = label.get("itemId", "")
        self.check(label.get("link") == f"{base}/map/{project}?node={label_id}", f"item link: {label}")
        note = await self.ok("create_item", {"projectId": project, "type": "sticky-note", "properties": {"text": "Note"}})
        note_id = note.get("itemId", "")
        frame = await self.ok("create_frame", {"projectId": project, "title": "Agent area",
                                               "position": {"x": 4000, "y": 0}})
        framed = await self.ok("create_item", {"projectId": project, "type": "label", "properties": {"text": "In"},
                                               "frame": frame.get("itemId", "")})
        inside = await self.ok("list_items", {"projectId": project, "frame": frame.get("itemId", "")})
        self.check([i.get("itemId") for i in inside.get("items", [])] == [framed.get("itemId")],
                   f"list_items by frame lists what create_item put in it: {inside}")
        await self.rejected("create_frame", {"projectId": project, "title": ""}, "'title'")
        await self.rejected("create_item", {"projectId": project, "type": "label",
                            "properties": {"text": "x", "horizontalTextAlignment": "Middle"}},
                            "'properties.horizontalTextAlignment'", "Left, Center, Right")

        item = await self.ok("get_item", {"projectId": project, "itemId": label_id})
        self.check(item.get("properties", {}).get("text") == "Hello", f"get_item returns the text: {item}")
        await self.rejected("get_item", {"projectId": project, "itemId": str(uuid.uuid4())}, "'itemId'", "not found")
        await self.rejected("get_item", {"projectId": a.foreign_project, "itemId": label_id}, "'projectId'")

        listed = await self.ok("list_items", {"projectId": project, "type": "label"})
        kinds = {i.get("itemType") for i in listed.get("items", [])}
        ids = [i.get("itemId") for i in listed.get("items", [])]
        self.check(label_id in ids and note_id not in ids and kinds == {"label"}, f"list_items filters: {listed}")
        await self.rejected("list_items", {"projectId": project, "type": "circle"}, "'type'")

        found = await self.ok("find_item", {"itemId": note_id})
        self.check(found.get("projectId") == project, f"find_item finds the project: {found}")
        await self.rejected("find_item", {"itemId": "not-a-guid"}, "'itemId'")

        await self.ok("update_item_property", {"projectId": project, "itemId": label_id, "property": "text", "value": "Changed"})
        await self.rejected("update_item_property", {"projectId": project, "itemId": label_id, "property": "colour",
                            "value": "red"}, "'property'", "textColor")

        await self.ok("style_item", {"projectId": project, "itemId": label_id, "textColor": "#FF0000", "fontSize": 20,
                      "horizontalTextAlignment": "Center"})
        await self.rejected("style_item", {"projectId": project, "itemId": label_id,
                            "verticalTextAlignment": "Middle"}, "'verticalTextAlignment'", "Top, Center, Bottom")

        await self.ok("arrange_item", {"projectId": project, "itemId": label_id, "position": {"x": 100, "y": 50},
                      "angle": 45})
        after = await self.ok("get_item", {"projectId": project, "itemId": label_id})
        props = after.get("properties", {})
        self.check(props.get("text") == "Changed" and props.get("textColor") == "#FF0000"
                   and props.get("position") == {"x": 100, "y": 50} and props.get("angle") == 45,
                   f"the changes are stored: {props}")
        await self.rejected("arrange_item", {"projectId": project, "itemId": label_id, "scale": 0}, "'scale'")

        connector = await self.ok("connect_items", {"projectId": project, "fromItemId": label_id, "toItemId": note_id,
                                  "lineType": "Curved", "endDecorator": "Arrow", "color": "#00AA00"})
        if connector:
            drawn = await self.ok("get_item", {"projectId": project, "itemId": connector.get("itemId", "")})
            ends = drawn.get("properties", {})
            self.check(drawn.get("itemType") == "connector" and ends.get("startPoint", {}).get("itemId") == label_id
                       and ends.get("endPoint", {}).get("itemId") == note_id and ends.get("type") == "Curved",
                       f"the connector joins both items: {drawn}")
        await self.rejected("connect_items", {"projectId": project, "fromItemId": label_id, "toItemId": note_id,
                            "lineType": "Zigzag"}, "'lineType'", "Straight, Angled, Curved")

        image = await self.ok("upload_image", {"projectId": project, "data": PNG, "fileName": "dot.png",
                              "position": {"x": 300, "y": 0}, "size": {"width": 40, "height": 40}})
        if image:
            stored = await self.ok("get_item", {"projectId": project, "itemId": image.get("itemId", "")})
            self.check(stored.get("properties", {}).get("mimeType") == "image/png", f"the image is a PNG: {stored}")
        await self.rejected("upload_image", {"projectId": project, "data": "@@not base64@@", "fileName": "x.png"},
                            "'data'")

        # The index catches up in the background: ask until the changed label is cited (bounded).
        cited = []
        for _ in range(50):
            answer = await self.ok("retrieve_knowledge", {"projectId": project, "query": "Changed"})
            cited = [c for c in answer.get("citations", []) if c.get("id") == label_id]
            if cited:
                break
            await asyncio.sleep(0.2)
        # (The connector drawn to it is cited too: its relation sentence quotes the label.)
        self.check(len(cited) == 1 and cited[0].get("chunk") == "Changed",
                   f"retrieve_knowledge cites the changed label: {answer}")
        for citation in cited:
            self.check(citation.get("link") == f"{base}/map/{project}?node={label_id}", f"citation link: {citation}")
        await self.rejected("retrieve_knowledge", {"projectId": project, "query": "   "}, "'query'")

        deleted = await self.ok("delete_item", {"projectId": project, "itemId": note_id})
        self.check(deleted.get("deleted") is True, f"delete_item: {deleted}")
        await self.rejected("delete_item", {"projectId": project, "itemId": note_id}, "'itemId'", "not found")

        await self.diagrams()
        await self.records()
        await self.comments()

        await self.protocol_error("no_such_tool", {}, "no_such_tool")
        await self.protocol_error("get_item", {"itemId": label_id}, "projectId")
        await self.protocol_error("list_projects", {"amount": "lots"}, "amount")


    async def diagrams(self) -> None:
        """A 30-node flowchart from Mermaid, read and looked at, one node changed, read again."""
        project = self.args.project
        lines = ["flowchart TD"]
        for i in range(1, 30):
            lines.append(f"    n{(i - 1) // 2}[Step {(i - 1) // 2}] -->|go {i}| n{i}(Step {i})")
        source = "\n".join(lines)
        x = 5000 if self.era == "legacy" else 30000  # two eras, two diagrams apart
        made = await self.ok("create_diagram", {"projectId": project, "source": source, "x": x, "y": 5000})
        nodes = made.get("nodes", {})
        self.check(sorted(nodes) == sorted(f"n{i}" for i in range(30)), f"create_diagram maps every node: {nodes}")
        await self.rejected("create_diagram", {"projectId": project, "source": "flowchart TD\n  A --> B[open"},
                            "'source'", "line 2")

        # The neighbourhood of the nodes (400 units around their box) holds the whole diagram.
        outline = await self.ok("read_map", {"projectId": project, "itemIds": list(nodes.values()), "limit": 1000})
        shapes = {i.get("id"): i for i in outline.get("items", []) if i.get("type") == "shape"}
        self.check(set(nodes.values()) <= set(shapes), "read_map of the diagram's neighbourhood holds every node")
        root = shapes.get(nodes.get("n0"), {})
        centre = await self.ok("read_map", {"projectId": project, "region": {"x": root.get("x", 0) - 5,
                               "y": root.get("y", 0) - 5, "width": 10, "height": 10}})
        near = [i.get("id") for i in centre.get("items", [])]
        self.check(nodes.get("n0") in near and len(near) == 2, f"a small region holds the root and its label: {near}")
        edges = {(e.get("from"), e.get("to")) for e in outline.get("edges", [])}
        self.check(len(edges) == 29 and (nodes.get("n0"), nodes.get("n1")) in edges, f"read_map edges: {edges}")
        label = next((i for i in outline.get("items", []) if i.get("parent") == nodes.get("n7")
                      and i.get("type") == "label"), {})
        self.check(label.get("text") == "Step 7", f"node n7 has its label: {label}")

        result = await self.client.call_tool("render_map", {"projectId": project, "itemIds": [nodes.get("n0", "")]})
        images = [b for b in result.content if getattr(b, "type", "") == "image"]
        self.check(not result.is_error and len(images) == 1 and images[0].mime_type == "image/png",
                   f"render_map returns one PNG image block: {text_of(result)[:200]}")
        if images:
            import base64
            png = base64.b64decode(images[0].data)
            self.check(png.startswith(b"\x89PNG\r\n\x1a\n") and len(png) > 1000, "the image is a PNG")
            size = result.structured_content or {}
            self.check(0 < size.get("width", 0) <= 1600 and 0 < size.get("height", 0) <= 1600, f"render size {size}")
        print("  ok   render_map")

        await self.ok("update_item_property", {"projectId": project, "itemId": label.get("id", ""), "property": "text",
                      "value": "Step seven, revised"})
        again = await self.ok("read_map", {"projectId": project, "itemIds": [nodes.get("n7", "")], "limit": 1000})
        revised = [i for i in again.get("items", []) if i.get("id") == label.get("id")]
        self.check(bool(revised) and revised[0].get("text") == "Step seven, revised", f"read_map shows it: {revised}")

        batch = await self.ok("create_items", {"projectId": project, "items": [
            {"ref": "a", "type": "sticky-note", "properties": {"text": "A", "position": {"x": -5000, "y": 0}}},
            {"ref": "b", "type": "sticky-note", "properties": {"text": "B", "position": {"x": -4600, "y": 0}}},
            {"type": "connector", "properties": {"startPoint": {"itemId": "ref:a"}, "endPoint": {"itemId": "ref:b"}}},
        ]})
        created = batch.get("items", [])
        self.check([c.get("ref") for c in created] == ["a", "b", None] and all(c.get("itemId") for c in created),
                   f"create_items answers in order: {batch}")
        pair = [c.get("itemId") for c in created[:2]]
        arranged = await self.ok("arrange_items", {"projectId": project, "itemIds": pair, "style": "layered",
                                 "x": -5000, "y": 2000})
        self.check([m.get("itemId") for m in arranged.get("items", [])] == pair, f"arrange_items: {arranged}")
        moved = await self.ok("get_item", {"projectId": project, "itemId": pair[0]})
        self.check(moved.get("properties", {}).get("position", {}).get("y", 0) > 2000, f"arranged: {moved}")
        await self.rejected("arrange_items", {"projectId": project, "itemIds": pair, "style": "spiral"}, "'style'")
        await self.rejected("create_items", {"projectId": project, "items": [
            {"type": "label", "properties": {"text": "ok"}},
            {"type": "label", "properties": {"text": "bad", "fontSize": 0}}]}, "'items[1].properties.fontSize'")


    async def records(self) -> None:
        """A diagram edited in place: a person's REST PATCH of one node shows in read_diagram, and
        update_diagram adds two nodes and removes one, keeping the others' items."""
        project, base = self.args.project, self.args.url.removesuffix("/mcp")
        y = 20000 if self.era == "legacy" else 40000  # two eras, two diagrams apart
        source = "flowchart LR\n  A[Plan] --> B[Build]\n  B --> C[Ship]\n"
        made = await self.ok("create_diagram", {"projectId": project, "source": source, "x": 0, "y": y})
        diagram, nodes = made.get("diagramId", ""), made.get("nodes", {})
        self.check(bool(diagram) and sorted(nodes) == ["A", "B", "C"], f"create_diagram answers its record: {made}")
        record = await self.ok("read_diagram", {"projectId": project, "diagramId": diagram})
        label_b = next((e.get("itemId") for e in record.get("elements", [])
                        if e.get("element") == "node:B" and e.get("part") == "label"), "")
        self.check(bool(label_b) and record.get("source") == source, f"read_diagram names node B's label: {record}")

        # A person rewrites node B on the map, through the REST API.
        async with httpx2.AsyncClient(headers={"Authorization": f"Bearer {self.args.token}"}) as http:
            reply = await http.patch(f"{base}/api/v2/projects/{project}/item/label/{label_b}",
                                     json={"text": "Build it by hand"})
        self.check(reply.status_code == 200, f"REST PATCH of node B: {reply.status_code} {reply.text[:200]}")
        record = await self.ok("read_diagram", {"projectId": project, "diagramId": diagram})
        self.check("Build it by hand" in record.get("mermaid", ""), f"read_diagram shows the edit: {record}")

        edited = "flowchart LR\n  A[Plan] --> B[Build]\n  B --> D[Test]\n  D --> E[Release]\n"
        updated = await self.ok("update_diagram", {"projectId": project, "diagramId": diagram, "source": edited,
                                "expectedVersion": record.get("version", 0)})
        after = updated.get("nodes", {})
        self.check(sorted(after) == ["A", "B", "D", "E"] and after.get("A") == nodes.get("A")
                   and after.get("B") == nodes.get("B"), f"update_diagram keeps A and B, adds D and E: {updated}")
        self.check(nodes.get("C") in updated.get("deleted", []) and len(updated.get("created", [])) == 6,
                   f"C deleted; D, E, their labels and two connectors created: {updated}")
        mermaid = (await self.ok("read_diagram", {"projectId": project, "diagramId": diagram})).get("mermaid", "")
        self.check("Build it by hand" in mermaid and "Release" in mermaid and "Ship" not in mermaid,
                   f"the person's text stays, D and E are in, C is out: {mermaid}")
        await self.rejected("update_diagram", {"projectId": project, "diagramId": diagram,
                            "source": "flowchart TD\n  A --> B[open"}, "'source'", "line 2")
        await self.rejected("update_diagram", {"projectId": project, "diagramId": diagram, "source": edited,
                            "expectedVersion": 1}, "'expectedVersion'", "read_diagram")
        await self.rejected("read_diagram", {"projectId": project, "diagramId": str(uuid.uuid4())}, "'diagramId'")

        region = {"x": -50, "y": y - 50, "width": 4000, "height": 1500}
        exported = await self.ok("export_mermaid", {"projectId": project, "region": region})
        text = exported.get("mermaid", "")
        self.check(text.startswith("flowchart") and "Release" in text and "Step 7" not in text,
                   f"export_mermaid writes the region as a flowchart: {text}")
        await self.rejected("export_mermaid", {"projectId": project, "region": {**region, "width": -1}}, "'region'")
        result = await self.client.call_tool("render_map", {"projectId": project, "region": region})
        images = [b for b in result.content if getattr(b, "type", "") == "image"]
        self.check(not result.is_error and len(images) == 1, f"render_map draws the updated diagram: {text_of(result)[:200]}")
        print("  ok   diagram records")


    async def comments(self) -> None:
        """A person asks on the map (REST) for an item to be renamed; the agent finds the open
        thread, answers it, renames the item, resolves the thread, and it leaves the open list."""
        project, base = self.args.project, self.args.url.removesuffix("/mcp")
        old_name = f"Invoices ({self.era})"
        item = await self.ok("create_item", {"projectId": project, "type": "label", "properties": {"text": old_name}})
        item_id = item.get("itemId", "")
        ask = f"Please rename this to Billing ({self.era})"
        async with httpx2.AsyncClient(headers={"Authorization": f"Bearer {self.args.token}"}) as http:
            reply = await http.post(f"{base}/api/v2/projects/{project}/comments?jsonCasing=camel",
                                    json={"text": ask, "itemId": item_id})
        opened = reply.json() if reply.status_code == 201 else {}
        self.check(reply.status_code == 201 and opened.get("itemId") == item_id,
                   f"a person opens a thread over REST: {reply.status_code} {reply.text[:200]}")
        thread_id = opened.get("threadId", "")

        # The agent's round: what is open, on which item, asking what.
        listed = await self.ok("list_comments", {"projectId": project})
        open_threads = {t.get("threadId"): t for t in listed.get("threads", [])}
        self.check(thread_id in open_threads, f"list_comments lists the open thread: {listed}")
        self.check(all(t.get("resolved") is False for t in open_threads.values()), f"open ones only: {listed}")
        self.check(listed.get("count") in (None, len(open_threads)), f"the count is the threads': {listed}")
        asked = open_threads.get(thread_id, {})
        self.check(asked.get("itemId") == item_id and opening(asked, "text") == ask,
                   f"the thread names its item and what it asks: {asked}")
        on_item = await self.ok("list_comments", {"projectId": project, "itemId": item_id})
        self.check(thread_ids(on_item) == [thread_id], f"list_comments by itemId: {on_item}")
        await self.rejected("list_comments", {"projectId": project, "status": "closed"}, "'status'")

        answer = await self.ok("reply_comment", {"projectId": project, "threadId": thread_id,
                                                  "text": "Renaming it to Billing now."})
        self.check(bool(answer.get("commentId")) and answer.get("text") == "Renaming it to Billing now.",
                   f"reply_comment answers the reply: {answer}")
        await self.rejected("reply_comment", {"projectId": project, "threadId": str(uuid.uuid4()), "text": "x"},
                            "'threadId'")
        await self.rejected("reply_comment", {"projectId": project, "threadId": thread_id, "text": "   "}, "'text'")

        await self.ok("update_item_property", {"projectId": project, "itemId": item_id, "property": "text",
                      "value": f"Billing ({self.era})"})
        renamed = await self.ok("get_item", {"projectId": project, "itemId": item_id})
        self.check(renamed.get("properties", {}).get("text") == f"Billing ({self.era})", f"renamed: {renamed}")

        resolved = await self.ok("resolve_comment", {"projectId": project, "threadId": thread_id})
        self.check(resolved.get("threadId") == thread_id and resolved.get("resolved") is True,
                   f"resolve_comment resolves it: {resolved}")
        self.check(reply_texts(resolved) == ["Renaming it to Billing now."], f"with the agent's reply: {resolved}")
        again = await self.ok("resolve_comment", {"projectId": project, "threadId": thread_id})
        self.check(again.get("version") == resolved.get("version"), f"resolving twice changes nothing: {again}")
        await self.rejected("resolve_comment", {"projectId": project, "threadId": "not-a-guid"}, "'threadId'")

        still_open = await self.ok("list_comments", {"projectId": project, "status": "open"})
        self.check(thread_id not in thread_ids(still_open), f"the resolved thread left the open list: {still_open}")
        done = await self.ok("list_comments", {"projectId": project, "status": "resolved", "itemId": item_id})
        self.check(thread_ids(done) == [thread_id], f"it is among the resolved: {done}")

        # The agent asks before changing what is not its own: a thread on a point, left open.
        question = await self.ok("add_comment", {"projectId": project, "x": -9000, "y": 0 if self.era == "legacy" else 500,
                                                 "text": "Should the Billing group move here?"})
        self.check(question.get("itemId") is None and question.get("position", {}).get("x") == -9000
                   and question.get("resolved") is False, f"add_comment opens a thread on a point: {question}")
        await self.rejected("add_comment", {"projectId": project, "text": "floating"}, "'itemId'")
        await self.rejected("add_comment", {"projectId": project, "text": "<script>alert(1)</script>",
                            "itemId": item_id}, "'text'")
        async with httpx2.AsyncClient(headers={"Authorization": f"Bearer {self.args.token}"}) as http:
            read = await http.get(f"{base}/api/v2/projects/{project}/comments/{thread_id}?jsonCasing=camel")
        body = read.json() if read.status_code == 200 else {}
        self.check(body.get("resolved") is True and [r.get("text") for r in body.get("replies", [])]
                   == ["Renaming it to Billing now."], f"the person reads the answer over REST: {read.text[:300]}")
        print("  ok   comment threads")


class Person:
    """The SDK's elicitation callback: records each question and gives the set answer."""

    def __init__(self) -> None:
        self.questions: list[str] = []
        self.agrees = False

    async def __call__(self, context: Any, params: Any) -> types.ElicitResult:
        self.questions.append(getattr(params, "message", ""))
        if self.agrees:
            return types.ElicitResult(action="accept", content={"confirm": True})
        return types.ElicitResult(action="decline")


async def confirmation(run: Run, person: Person) -> None:
    """A diagram of 30 nodes (30 shapes, their 30 labels and 29 connectors: more than 50 items)
    deleted through delete_diagram: asked first, declined, then agreed (2026-07-28), or refused
    naming confirm and then confirmed by argument (legacy)."""
    project = run.args.project
    y = 60000 if run.era == "legacy" else 70000
    source = "flowchart LR\n" + "".join(f"  n{i}[Step {i}] --> n{i + 1}[Step {i + 1}]\n" for i in range(29))
    made = await run.ok("create_diagram", {"projectId": project, "source": source, "x": 0, "y": y})
    diagram, items = made.get("diagramId", ""), made.get("itemIds", [])
    run.check(len(items) > 50, f"the diagram has more than 50 items: {len(items)}")
    delete = {"projectId": project, "diagramId": diagram}
    if run.era == "legacy":
        text = await run.rejected("delete_diagram", delete, "'confirm'", "would delete")
        run.check(not person.questions, f"a legacy client is never asked: {person.questions}")
        still = await run.ok("read_diagram", {"projectId": project, "diagramId": diagram})
        run.check(still.get("diagramId") == diagram, f"nothing was deleted after: {text}")
        done = await run.ok("delete_diagram", {**delete, "confirm": True})
        run.check(len(done.get("deleted", [])) == len(items), f"confirm: true deletes every item: {done}")
        return
    person.agrees = False
    result = await run.client.call_tool("delete_diagram", delete)
    run.check(result.is_error and "did not agree" in text_of(result), f"declined: an error result: {text_of(result)}")
    run.check(len(person.questions) == 1 and "would delete" in person.questions[0]
              and str(len(items)) in person.questions[0], f"the person was asked once, with the count: {person.questions}")
    still = await run.ok("read_diagram", {"projectId": project, "diagramId": diagram})
    run.check(still.get("diagramId") == diagram, "declined: the diagram is still there")
    person.agrees = True
    done = await run.ok("delete_diagram", delete)
    run.check(len(person.questions) == 2, f"asked again: {person.questions}")
    run.check(len(done.get("deleted", [])) == len(items), f"agreed: every item deleted: {done}")
    await run.rejected("read_diagram", {"projectId": project, "diagramId": diagram}, "'diagramId'")
    print("  ok   confirmation of a large delete")


async def connect_and_run(args: argparse.Namespace, checks: Checks, era: str) -> None:
    print(f"== {era}")
    headers = {"Authorization": f"Bearer {args.token}"}
    async with httpx2.AsyncClient(headers=headers, timeout=httpx2.Timeout(60.0)) as http:
        transport = streamable_http_client(args.url, http_client=http)
        mode = "legacy" if era == "legacy" else "auto"
        person = Person()
        async with Client(transport, mode=mode, elicitation_callback=person) as client:
            expected = "2025-03-26" if era == "legacy" else "2026-07-28"
            checks.check(client.protocol_version == expected, f"[{era}] negotiated {client.protocol_version}")
            print(f"  ok   connected, protocol {client.protocol_version}")
            run = Run(client, checks, args, era)
            await run.tools()
            await run.calls()
            await confirmation(run, person)


async def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url", required=True, help="the MCP endpoint, http://127.0.0.1:PORT/mcp")
    parser.add_argument("--token", required=True, help="an API token of the project's owner")
    parser.add_argument("--project", required=True, help="a project the token's user owns")
    parser.add_argument("--foreign-project", required=True, help="a project the user cannot access")
    args = parser.parse_args()
    checks = Checks()

    # Legacy mode offers the SDK's newest handshake revision; the spec's
    # reference request uses 2025-03-26, so the handshake offers that one.
    newest_handshake = mcp_session.LATEST_HANDSHAKE_VERSION
    mcp_session.LATEST_HANDSHAKE_VERSION = "2025-03-26"
    try:
        await connect_and_run(args, checks, "legacy")
    finally:
        mcp_session.LATEST_HANDSHAKE_VERSION = newest_handshake
    await connect_and_run(args, checks, "default")

    print(f"{checks.passed} checks passed, {len(checks.failed)} failed")
    for failure in checks.failed:
        print(f"FAILED: {failure}")
    return 1 if checks.failed else 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
