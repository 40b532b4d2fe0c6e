"""Every operation a user has, through the generated Python client, against a running service.

Each step checks what a user would (status, returned fields, state after). Run by
tests/tests/e2e/generated_clients.rs with the generated package on PYTHONPATH; by hand:

    CANVAS_BASE_URL=http://127.0.0.1:8080 CANVAS_TOKEN=... CANVAS_PROJECT_ID=... \\
    CANVAS_WEBHOOK_URL=https://... PYTHONPATH=clients/python/canvas-client python clients/python/scenario.py

It prints one line per step and "N passed, M failed"; it exits 1 when a step failed.
"""

import io
import json
import sys
import time
from http import HTTPStatus
from typing import Any
from uuid import UUID

from canvas_client import models as m
from canvas_client.api.items import (
    arrange_items,
    create_connector,
    create_diagram,
    create_image,
    create_items,
    create_label,
    create_shape,
    create_sticky_note,
    create_web,
    delete_diagram,
    delete_item,
    export_items,
    get_diagram,
    get_item,
    get_item_content,
    list_diagrams,
    update_connector,
    update_diagram,
    update_document,
    update_image,
    update_label,
    update_shape,
    update_sticky_note,
    update_svg,
    update_web,
    upload_document,
    upload_image,
    upload_svg,
)
from canvas_client.api.knowledge import get_index_status, retrieve_knowledge
from canvas_client.api.map_ import announce_presence, render_png, render_svg
from canvas_client.api.projects import export_project, import_project
from canvas_client.api.webhooks import (
    create_webhook,
    delete_webhook,
    enable_webhook,
    get_signing_keys,
    get_webhook,
    list_deliveries,
    list_webhooks,
    redeliver,
    replace_webhook,
    test_webhook,
)
from canvas_client.types import UNSET, File

from scenario_support import (
    MARKDOWN,
    PNG,
    PROJECT,
    SVG,
    WEBHOOK_URL,
    client,
    declares_bytes,
    equal,
    ids,
    item,
    list_all,
    ok,
    prop,
    results,
    step,
)


@step("create label with only its text (defaults apply)")
def _() -> None:
    created = ok(
        create_label.sync_detailed(
            PROJECT, m.ParentType0.PANEL, client=client, body=m.CreateLabelBody(text="Hello from Python")
        ),
        "create label",
    )
    ids["label"] = created.item_id
    label = item(created.item_id)
    assert isinstance(label, m.LabelItem), f"a label: {label!r}"
    equal((label.text, label.parent, label.position.x, label.position.y), ("Hello from Python", "panel", 0, 0), "label")


@step("create sticky note, shape, web link and image (every JSON create)")
def _() -> None:
    note = ok(
        create_sticky_note.sync_detailed(
            PROJECT,
            m.ParentType0.PANEL,
            client=client,
            body=m.CreateStickyNoteBody(
                text="Propeller test flight", position=m.CreateStickyNoteBodyPosition(x=300, y=0)
            ),
        ),
        "create sticky note",
    )
    ids["note"] = note.item_id
    shape = ok(
        create_shape.sync_detailed(
            PROJECT,
            m.ParentType0.PANEL,
            client=client,
            body=m.CreateShapeBody(
                type_=m.ShapeType.ROUNDEDRECTANGLE,
                corner_radius=12,
                position=m.CreateShapeBodyPosition(x=0, y=300),
                size=m.CreateShapeBodySize(width=200, height=100),
            ),
        ),
        "create shape",
    )
    ids["shape"] = shape.item_id
    web = ok(
        create_web.sync_detailed(
            PROJECT, m.ParentType0.PANEL, client=client, body=m.CreateWebBody(url="https://example.org/roadmap")
        ),
        "create web",
    )
    ids["web"] = web.item_id
    image = ok(
        create_image.sync_detailed(
            PROJECT,
            m.ParentType0.PANEL,
            client=client,
            body=m.CreateImageBody(
                file_name="later.png",
                file_size=1024,
                mime_type=m.ImageMimeType.IMAGEPNG,
                size=m.CreateImageBodySize(width=64, height=32),
            ),
        ),
        "create image without bytes",
    )
    note_item, shape_item, web_item, image_item = (item(i.item_id) for i in (note, shape, web, image))
    assert isinstance(note_item, m.StickyNoteItem), f"a sticky note: {note_item!r}"
    equal((note_item.position.x, note_item.position.y), (300, 0), "note position")
    assert isinstance(shape_item, m.ShapeItem), f"a shape: {shape_item!r}"
    equal((shape_item.type_, shape_item.corner_radius), (m.ShapeType.ROUNDEDRECTANGLE, 12), "shape")
    assert isinstance(web_item, m.WebItem), f"a web item: {web_item!r}"
    equal(web_item.url, "https://example.org/roadmap", "web url")
    assert isinstance(image_item, m.ImageItem), f"an image: {image_item!r}"
    equal((image_item.file_name, image_item.mime_type), ("later.png", m.ImageMimeType.IMAGEPNG), "image")


@step("create connector between two items")
def _() -> None:
    created = ok(
        create_connector.sync_detailed(
            PROJECT,
            m.ParentType0.PANEL,
            client=client,
            body=m.CreateConnectorBody(
                start_point=m.CreateConnectorBodyStartPoint(item_id=ids["label"]),
                end_point=m.CreateConnectorBodyEndPoint(item_id=ids["note"]),
            ),
        ),
        "create connector",
    )
    ids["connector"] = created.item_id
    connector = item(created.item_id)
    assert isinstance(connector, m.ConnectorItem), f"a connector: {connector!r}"
    equal((connector.start_point.item_id, connector.end_point.item_id), (ids["label"], ids["note"]), "ends")
    equal(str(connector.end_point.decorator), "ArrowLine", "default end decorator")


@step("upload image, document and SVG, then download each file")
def _() -> None:
    uploads = [
        ("image", upload_image, m.ParentType0.PANEL, PNG, "pixels.png"),
        ("document", upload_document, m.ParentType0.PANEL, MARKDOWN, "plan.md"),
        ("svg", upload_svg, m.ParentType0.PANEL, SVG, "box.svg"),
    ]
    for kind, operation, panel, data, name in uploads:
        body = m.FileUpload(
            binary=File(payload=io.BytesIO(data), file_name=name),
            dataobject=json.dumps({"position": {"x": 900, "y": 300}}),
        )
        created = ok(operation.sync_detailed(PROJECT, panel, client=client, body=body), f"upload {kind}")
        ids[kind] = created.item_id
        uploaded = item(created.item_id)
        equal((str(uploaded.item_type), uploaded.position.x, uploaded.position.y), (kind, 900, 300), kind)
        content = ok(get_item_content.sync_detailed(PROJECT, created.item_id, client=client), f"download {kind}")
        assert isinstance(content, File), f"the {kind} download is a File, not {type(content).__name__}"
        raw = content.payload.read()
        if kind == "svg":
            assert b"<rect" in raw, "the sanitised SVG keeps its rectangle"
        else:
            equal(raw, data, f"{kind} bytes round trip")
    image = item(ids["image"])
    assert isinstance(image, m.ImageItem), "an image"
    equal((image.file_name, image.file_size, image.size.width), ("pixels.png", len(PNG), 8), "image file properties")
    declares_bytes(get_item_content)


@step("read single properties: a number, a text and an object")
def _() -> None:
    equal(prop(ids["shape"], "cornerRadius"), 12, "cornerRadius")
    equal(prop(ids["label"], "text"), "Hello from Python", "text")
    equal(prop(ids["note"], "position"), {"X": 300, "Y": 0}, "position")


@step("PATCH every item type (connector inside its properties envelope)")
def _() -> None:
    patches = [
        (update_label, ids["label"], m.LabelPatch(text="Hello again", font_size=20)),
        (update_sticky_note, ids["note"], m.StickyNotePatch(background_color="#FFEE58")),
        (update_shape, ids["shape"], m.ShapePatch(corner_radius=4, fill_color="#00AA00")),
        (update_web, ids["web"], m.WebPatch(url="https://example.org/plan")),
        (update_image, ids["image"], m.ImagePatch(angle=90)),
        (update_document, ids["document"], m.DocumentPatch(file_name="release-plan.md")),
        (update_svg, ids["svg"], m.SvgPatch(scale=2)),
        (
            update_connector,
            ids["connector"],
            m.UpdateConnectorBody(
                properties=m.UpdateConnectorBodyProperties(
                    stroke_thickness=3, end_point=m.UpdateConnectorBodyPropertiesEndPoint(item_id=ids["shape"])
                )
            ),
        ),
    ]
    for operation, item_id, body in patches:
        ok(operation.sync_detailed(PROJECT, item_id, client=client, body=body), operation.__name__)
    equal((prop(ids["label"], "text"), prop(ids["label"], "fontSize")), ("Hello again", 20), "label")
    equal(str(prop(ids["note"], "backgroundColor")).upper(), "#FFEE58", "note colour")
    equal(prop(ids["shape"], "cornerRadius"), 4, "shape corner radius")
    equal(prop(ids["web"], "url"), "https://example.org/plan", "web url")
    equal(prop(ids["image"], "angle"), 90, "image angle")
    equal(prop(ids["document"], "fileName"), "release-plan.md", "document name")
    equal(prop(ids["svg"], "scale"), 2, "svg scale")
    connector = item(ids["connector"])
    assert isinstance(connector, m.ConnectorItem), "a connector"
    got = (connector.stroke_thickness, connector.start_point.item_id, connector.end_point.item_id)
    equal(got, (3, ids["label"], ids["shape"]), "connector after PATCH")


@step("bulk create with references between the items")
def _() -> None:
    def props(value: dict[str, Any]) -> m.CreateItemsBodyItemsItemPropertiesType0:
        return m.CreateItemsBodyItemsItemPropertiesType0.from_dict(value)

    body = m.CreateItemsBody(
        items=[
            m.CreateItemsBodyItemsItem(
                ref=r,
                type_=m.CreateItemsBodyItemsItemType.STICKY_NOTE,
                properties=props({"text": f"Bulk note {r.upper()}"}),
            )
            for r in ("a", "b", "c")
        ]
        + [
            m.CreateItemsBodyItemsItem(
                type_=m.CreateItemsBodyItemsItemType.CONNECTOR,
                properties=props({"startPoint": {"itemId": "ref:a"}, "endPoint": {"itemId": "ref:b"}}),
            )
        ]
    )
    created = ok(create_items.sync_detailed(PROJECT, client=client, body=body), "bulk create")
    equal([c.ref if c.ref is not UNSET else None for c in created.items], ["a", "b", "c", None], "refs in order")
    connector = item(created.items[3].item_id)
    assert isinstance(connector, m.ConnectorItem), "a connector"
    ends = (connector.start_point.item_id, connector.end_point.item_id)
    equal(ends, (created.items[0].item_id, created.items[1].item_id), "refs resolved")


@step("list with filters and read every page")
def _() -> None:
    notes, pages = list_all(2, type_=m.CreateItemsBodyItemsItemType.STICKY_NOTE)
    assert pages >= 2, f"four notes at two per page take several pages, got {pages}"
    equal(len(notes), 4, "sticky notes")
    assert all(isinstance(n, m.StickyNoteItem) for n in notes), "only sticky notes"
    equal(len({n.item_id for n in notes}), 4, "no item twice across pages")
    by_text, _pages = list_all(50, text="Bulk note")
    equal(
        sorted(str(n.item_id) for n in by_text),
        sorted(str(n.item_id) for n in notes if n.item_id != ids["note"]),
        "text",
    )
    everything, _pages = list_all(5)
    assert any(i.item_id == ids["svg"] for i in everything), "the whole listing has the SVG"


@step("create a diagram from Mermaid and arrange items")
def _() -> None:
    source = "graph TD\n  plan[Plan] --> build[Build]\n  plan --> test[Test]"
    body = m.CreateDiagramBody(source=source, position=m.DiagramPosition(x=2000, y=2000))
    diagram = ok(create_diagram.sync_detailed(PROJECT, client=client, body=body), "diagram")
    nodes = diagram.nodes.to_dict()
    equal(sorted(nodes), ["build", "plan", "test"], "diagram nodes")
    assert all(UUID(n) in diagram.item_ids for n in nodes.values()), "every node's shape is among the created items"
    kinds = [str(item(i).item_type) for i in diagram.item_ids]
    equal(kinds.count("connector"), 2, "two edges, two connectors")
    arrange = m.ArrangeRequest(item_ids=[ids["label"], ids["note"], ids["web"]], style=m.ArrangeRequestStyle.GRID)
    arranged = ok(arrange_items.sync_detailed(PROJECT, client=client, body=arrange), "arrange")
    equal([a.item_id for a in arranged.items], [ids["label"], ids["note"], ids["web"]], "arranged items")
    assert all(a.version >= 2 for a in arranged.items), "arranging bumps versions"


@step("diagram records: read, update in place, read back as Mermaid, export, list, delete")
def _() -> None:
    body = m.CreateDiagramBody(source="graph LR\n  a[Ask] --> b[Answer]", position=m.DiagramPosition(x=2000, y=6000))
    made = ok(create_diagram.sync_detailed(PROJECT, client=client, body=body), "diagram")
    diagram_id = made.diagram_id
    record = ok(get_diagram.sync_detailed(PROJECT, diagram_id, client=client), "get diagram")
    equal(record.version, 1, "first version")
    shape = made.nodes.to_dict()["a"]
    assert any(e.element == "node:a" and e.part == "shape" and str(e.item_id) == shape for e in record.elements)
    edited = m.UpdateDiagramBody(source="graph LR\n  a[Ask] --> b[Answer]\n  b --> c[Follow up]")
    updated = ok(update_diagram.sync_detailed(PROJECT, diagram_id, client=client, body=edited), "update diagram")
    equal(updated.version, 2, "second version")
    equal(updated.nodes.to_dict()["a"], shape, "node a keeps its item")
    equal(len(updated.created), 3, "c, its label and b -> c")
    drawn = ok(get_diagram.sync_detailed(PROJECT, diagram_id, client=client, format_="mermaid"), "read back")
    assert "Follow up" in (drawn.mermaid or ""), f"read back: {drawn.mermaid}"
    exported = ok(
        export_items.sync_detailed(PROJECT, client=client, format_="mermaid", region="1990,5990,2000,1000"), "export"
    )
    assert "Answer" in exported.text, f"export: {exported.text}"
    listed = ok(list_diagrams.sync_detailed(PROJECT, client=client), "list diagrams")
    assert any(d.diagram_id == diagram_id for d in listed.diagrams), "listed"
    deleted = ok(delete_diagram.sync_detailed(PROJECT, diagram_id, client=client, keep_items=True), "delete diagram")
    equal(len(deleted.deleted), 0, "keepItems keeps the items")


@step("knowledge: wait for indexing, then a query cites the document")
def _() -> None:
    for attempt in range(121):
        counts = ok(get_index_status.sync_detailed(client=client, project_id=PROJECT), "index status").counts
        if counts.queued == 0 and counts.indexing == 0:
            assert counts.indexed > 0, f"nothing indexed: {counts!r}"
            break
        assert attempt < 120, f"indexing did not finish: {counts!r}"
        time.sleep(0.5)
    body = m.RetrieveKnowledgeBody(project_id=PROJECT, query="propeller test flight", mode=m.SearchMode.KEYWORD)
    answer = ok(retrieve_knowledge.sync_detailed(client=client, body=body), "retrieve")
    cited = [c.id for c in answer.citations]
    assert str(ids["document"]) in cited or str(ids["note"]) in cited, f"cites the plan or the note: {cited}"


@step("webhooks: test call, create, list, read, replace, enable, deliveries, redeliver, delete")
def _() -> None:
    custom = {"team": "clients", "level": 3}
    definition = m.WebhookDefinition(
        url=WEBHOOK_URL, events=[m.EventKind.ITEM_CREATED], name="scenario", custom_data=custom
    )
    tested = ok(test_webhook.sync_detailed(PROJECT, client=client, body=definition), "test call")
    equal((tested.status_code, tested.error or None), (200, None), "the receiver answered the test call")
    record = ok(create_webhook.sync_detailed(PROJECT, client=client, body=definition), "create")
    equal(
        (record.url, record.events, record.enabled, record.custom_data),
        (WEBHOOK_URL, [m.EventKind.ITEM_CREATED], True, custom),
        "record",
    )
    listed = ok(list_webhooks.sync_detailed(PROJECT, client=client), "list")
    assert any(w.id == record.id for w in listed.elements), "listed"
    equal(ok(get_webhook.sync_detailed(PROJECT, record.id, client=client), "get").name, "scenario", "name")
    replacement = m.WebhookDefinition(
        url=WEBHOOK_URL,
        events=[m.EventKind.ITEM_CREATED, m.EventKind.ITEM_UPDATED],
        name="scenario v2",
        custom_data=custom,
    )
    replaced = ok(replace_webhook.sync_detailed(PROJECT, record.id, client=client, body=replacement), "replace")
    equal(
        (replaced.name, replaced.events),
        ("scenario v2", [m.EventKind.ITEM_CREATED, m.EventKind.ITEM_UPDATED]),
        "replaced",
    )
    equal(ok(enable_webhook.sync_detailed(PROJECT, record.id, client=client), "enable").enabled, True, "enabled")
    # A new item is an event: the dispatcher delivers it to the receiver, and the attempt is listed.
    body = m.CreateLabelBody(text="Delivered")
    ok(
        create_label.sync_detailed(PROJECT, m.ParentType0.PANEL, client=client, body=body),
        "create label for a delivery",
    )
    delivered = None
    for _attempt in range(60):
        time.sleep(0.5)
        attempts = ok(list_deliveries.sync_detailed(PROJECT, record.id, client=client, limit=10), "deliveries").elements
        delivered = next((d for d in attempts if d.status_code == 200 and d.event == "item.created"), None)
        if delivered is not None:
            break
    assert delivered is not None, "no successful delivery within 30 s"
    again = ok(redeliver.sync_detailed(PROJECT, record.id, delivered.delivery_id, client=client), "redeliver")
    assert isinstance(again.delivery_id, UUID), "a redelivery id"
    assert ok(get_signing_keys.sync_detailed(client=client), "signing keys").keys, "a signing key is published"
    ok(delete_webhook.sync_detailed(PROJECT, record.id, client=client), "delete")
    equal(int(get_webhook.sync_detailed(PROJECT, record.id, client=client).status_code), 404, "deleted webhook")


@step("render the map as SVG and PNG")
def _() -> None:
    drawing = ok(render_svg.sync_detailed(PROJECT, client=client), "render.svg")
    declares_bytes(render_svg)
    assert isinstance(drawing, File), f"render.svg gives a File, not {type(drawing).__name__}"
    text = drawing.payload.read().decode()
    assert "<svg" in text and "Hello again" in text, "an SVG with the label's text"
    picture = ok(render_png.sync_detailed(PROJECT, client=client), "render.png")
    declares_bytes(render_png)
    assert isinstance(picture, File), f"render.png gives a File, not {type(picture).__name__}"
    raw = picture.payload.read()
    equal(raw[:8], b"\x89PNG\r\n\x1a\n", "PNG signature")


@step("export the project as one archive; importing one needs a system administrator")
def _() -> None:
    archive = ok(export_project.sync_detailed(PROJECT, client=client), "export")
    declares_bytes(export_project)
    assert isinstance(archive, File), f"export gives a File, not {type(archive).__name__}"
    raw = archive.payload.read()
    equal(raw[:4], b"PK\x03\x04", "a zip archive")
    body = File(payload=io.BytesIO(raw), file_name="project.zip")
    refused = import_project.sync_detailed(client=client, body=body)
    equal(int(refused.status_code), HTTPStatus.FORBIDDEN, "the project's owner may not create projects")


@step("announce presence on the map")
def _() -> None:
    cursor = m.PresenceCursor(x=1.5, y=-2)
    body = m.PresenceAnnouncement(client_id="py-scenario", cursor=cursor, selection=[str(ids["web"])])
    equal(int(announce_presence.sync_detailed(PROJECT, client=client, body=body).status_code), 204, "announced")
    body = m.PresenceAnnouncement(client_id="py-scenario", cursor=None, leaving=True)
    equal(int(announce_presence.sync_detailed(PROJECT, client=client, body=body).status_code), 204, "left")
    body = m.PresenceAnnouncement(client_id="not valid!")
    equal(int(announce_presence.sync_detailed(PROJECT, client=client, body=body).status_code), 400, "a bad client id")


@step("delete an item; it is gone")
def _() -> None:
    deleted = ok(delete_item.sync_detailed(PROJECT, ids["web"], client=client), "delete")
    equal(deleted.item_id, ids["web"], "the deleted item's id")
    gone = get_item.sync_detailed(PROJECT, ids["web"], client=client)
    equal(int(gone.status_code), HTTPStatus.NOT_FOUND, "deleted item")
    assert isinstance(gone.parsed, m.Problem) and str(gone.parsed.reason) == "NOT_FOUND", f"a problem: {gone.parsed!r}"


print(f"{results['passed']} passed, {results['failed']} failed")
sys.exit(0 if results["failed"] == 0 else 1)
