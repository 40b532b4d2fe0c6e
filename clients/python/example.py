"""A first session with the Python client: put a note on the map, connect it to a label, and
list what is there.

    pip install ./clients/python/canvas-client
    CANVAS_BASE_URL=http://127.0.0.1:8080 CANVAS_TOKEN=... CANVAS_PROJECT_ID=... python example.py
"""

import os
from uuid import UUID

from canvas_client import AuthenticatedClient
from canvas_client.api.items import create_connector, create_label, create_sticky_note, list_items
from canvas_client.models import (
    CreateConnectorBody,
    CreateConnectorBodyEndPoint,
    CreateConnectorBodyStartPoint,
    CreateLabelBody,
    CreateLabelBodyPosition,
    CreateStickyNoteBody,
    ParentType0,
    Problem,
)
from canvas_client.types import UNSET

client = AuthenticatedClient(
    base_url=os.environ.get("CANVAS_BASE_URL", "http://127.0.0.1:8080"), token=os.environ["CANVAS_TOKEN"]
)
project = UUID(os.environ["CANVAS_PROJECT_ID"])

# Every call returns the parsed answer: the new item's id, or a Problem (RFC 9457) on an error.
note = create_sticky_note.sync(
    project, ParentType0.PANEL, client=client, body=CreateStickyNoteBody(text="Ship the clients")
)
label = create_label.sync(
    project,
    ParentType0.PANEL,
    client=client,
    body=CreateLabelBody(text="Release", position=CreateLabelBodyPosition(x=400, y=0)),
)
if note is None or isinstance(note, Problem) or label is None or isinstance(label, Problem):
    raise SystemExit(f"could not create the items: {note!r} {label!r}")
create_connector.sync(
    project,
    ParentType0.PANEL,
    client=client,
    body=CreateConnectorBody(
        start_point=CreateConnectorBodyStartPoint(item_id=note.item_id),
        end_point=CreateConnectorBodyEndPoint(item_id=label.item_id),
    ),
)

# A listing comes in pages: follow next_cursor until it is None.
cursor = UNSET
while True:
    page = list_items.sync(project, client=client, limit=50, cursor=cursor)
    if page is None or isinstance(page, Problem):
        raise SystemExit(f"listing failed: {page!r}")
    for item in page.items:
        print(item.item_type, item.item_id)
    if not page.next_cursor:
        break
    cursor = page.next_cursor
