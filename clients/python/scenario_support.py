"""What clients/python/scenario.py stands on: the service it talks to (from the environment),
the files it uploads, and small checks that report a step's outcome."""

import base64
import os
import traceback
import typing
from collections.abc import Callable
from typing import Any
from uuid import UUID

from canvas_client import AuthenticatedClient
from canvas_client.api.items import get_item, get_item_property, list_items
from canvas_client.models import Problem
from canvas_client.types import UNSET, File

BASE_URL = os.environ["CANVAS_BASE_URL"]
PROJECT = UUID(os.environ["CANVAS_PROJECT_ID"])
WEBHOOK_URL = os.environ["CANVAS_WEBHOOK_URL"]
client = AuthenticatedClient(base_url=BASE_URL, token=os.environ["CANVAS_TOKEN"])

# An 8x8 PNG, an SVG and a Markdown note: the three uploads.
PNG = base64.b64decode(
    "iVBORw0KGgoAAAANSUhEUgAAAAgAAAAICAIAAABLbSncAAAAb0lEQVR4nA2OQREAMAjDKgUpSKkUpCAFKXWS7dvrJRESJVpYjFh"
    "xIn9VUUUXLqbY4or8r5pqunEzzTbX5BNkyrSxGbPmTD5XQw09eJhhhxvybVpq6cXLLLvckt+go44+fMyxxx35ZQoVOjhM2HAheVX+d8EkbSstAAAAAElFTkSuQmCC"
)
SVG = b'<svg xmlns="http://www.w3.org/2000/svg" width="40" height="20"><rect width="40" height="20" fill="teal"/></svg>'
MARKDOWN = b"# Release plan\n\nThe propeller test flight is on Tuesday.\n"

results = {"passed": 0, "failed": 0}
ids: dict[str, UUID] = {}


def step(name: str) -> Callable[[Callable[[], None]], None]:
    """Runs the decorated function as one step and records its outcome."""

    def run(body: Callable[[], None]) -> None:
        try:
            body()
            results["passed"] += 1
            print(f"PASS {name}", flush=True)
        except Exception as error:  # a failed step is reported, and the next one still runs
            results["failed"] += 1
            line = [f.lineno for f in traceback.extract_tb(error.__traceback__) if f.name == "_"][-1:]
            print(
                f"FAIL {name}: {type(error).__name__}: {error} (scenario.py line {line[0] if line else '?'})",
                flush=True,
            )

    return run


def ok(response: Any, what: str) -> Any:
    """The parsed body of a 2xx answer; otherwise an error naming the status and problem."""
    if not 200 <= int(response.status_code) < 300 or isinstance(response.parsed, Problem):
        raise AssertionError(f"{what}: {int(response.status_code)} {response.content[:300]!r}")
    return response.parsed


def equal(actual: Any, expected: Any, what: str) -> None:
    if actual != expected:
        raise AssertionError(f"{what}: {actual!r} != {expected!r}")


def declares_bytes(operation: Any) -> None:
    """The operation's declared answer type holds the bytes it really returns (a `str` or a
    `list[int]` there would be a wrong type a type checker trusts)."""
    declared = typing.get_type_hints(operation.sync)["return"]
    kinds = set(typing.get_args(declared)) or {declared}
    assert kinds & {File, bytes}, f"{operation.__name__.rsplit('.', 1)[-1]} is declared to return {declared}"


def item(item_id: UUID) -> Any:
    return ok(get_item.sync_detailed(PROJECT, item_id, client=client), "get item")


def prop(item_id: UUID, name: str) -> Any:
    return ok(get_item_property.sync_detailed(PROJECT, item_id, name, client=client), f"GET {name}")


def list_all(limit: int, **filters: Any) -> tuple[list[Any], int]:
    """Every item a listing returns, following `next_cursor` page by page."""
    items: list[Any] = []
    cursor: Any = UNSET
    pages = 0
    while True:
        page = ok(list_items.sync_detailed(PROJECT, client=client, limit=limit, cursor=cursor, **filters), "list")
        items.extend(page.items)
        pages += 1
        if not page.next_cursor or pages >= 100:
            return items, pages
        cursor = page.next_cursor
