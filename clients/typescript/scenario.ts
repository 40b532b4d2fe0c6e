// Every operation a user has, through the generated client, against a running service; each step
// checks what a user would (status, returned fields, state after). Run by
// tests/tests/e2e/generated_clients.rs after `tsc --strict --noEmit`; by hand:
//   CANVAS_BASE_URL=http://127.0.0.1:8080 CANVAS_TOKEN=... CANVAS_PROJECT_ID=... \
//   CANVAS_WEBHOOK_URL=https://... node build/scenario.js
// It prints one line per step and "N passed, M failed"; it exits 1 when a step failed.
import { isDeepStrictEqual } from "node:util";
import { createCanvasClient, type components } from "./src/index.js";

type Item = components["schemas"]["Item"];

const env = (name: string): string => {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set`);
  return value;
};
const baseUrl = env("CANVAS_BASE_URL");
const projectId = env("CANVAS_PROJECT_ID");
const webhookUrl = env("CANVAS_WEBHOOK_URL");
const client = createCanvasClient({ baseUrl, token: env("CANVAS_TOKEN") });
const project = { projectId };

let passed = 0;
let failed = 0;
async function step(name: string, body: () => Promise<void>): Promise<void> {
  try {
    await body();
    passed += 1;
    console.log(`PASS ${name}`);
  } catch (error) {
    failed += 1;
    console.log(`FAIL ${name}: ${error instanceof Error ? error.message : String(error)}`);
  }
}
function check(condition: boolean, what: string): asserts condition {
  if (!condition) throw new Error(what);
}
function equal<T>(actual: T, expected: T, what: string): void {
  check(isDeepStrictEqual(actual, expected), `${what}: ${JSON.stringify(actual)} != ${JSON.stringify(expected)}`);
}
/** The body of a 2xx answer, or an error naming the status and problem. */
function ok<T>(reply: { data?: T; error?: unknown; response: Response }, what: string): T {
  check(reply.response.ok && reply.data !== undefined, `${what}: ${reply.response.status} ${JSON.stringify(reply.error)}`);
  return reply.data;
}
async function getItem(itemId: string): Promise<Item> {
  return ok(await client.GET("/api/v2/projects/{projectId}/item/{itemId}", { params: { path: { projectId, itemId } } }), "get item");
}
async function property(itemId: string, name: string): Promise<unknown> {
  const reply = await client.GET("/api/v2/projects/{projectId}/item/{itemId}/{property}", {
    params: { path: { projectId, itemId, property: name } },
  });
  check(reply.response.status === 200, `GET ${name}: ${reply.response.status}`);
  return reply.data;
}

// An 8x8 PNG, an SVG and a Markdown note: the three uploads.
const png = Uint8Array.from(
  atob(
    "iVBORw0KGgoAAAANSUhEUgAAAAgAAAAICAIAAABLbSncAAAAb0lEQVR4nA2OQREAMAjDKgUpSKkUpCAFKXWS7dvrJRESJVpYjFhxIn9VUUUXLqbY4or8r5pqunEzzTbX5BNkyrSxGbPmTD5XQw09eJhhhxvybVpq6cXLLLvckt+go44+fMyxxx35ZQoVOjhM2HAheVX+d8EkbSstAAAAAElFTkSuQmCC",
  ),
  (c) => c.charCodeAt(0),
);
const svg = '<svg xmlns="http://www.w3.org/2000/svg" width="40" height="20"><rect width="40" height="20" fill="teal"/></svg>';
const markdown = "# Release plan\n\nThe propeller test flight is on Tuesday.\n";
/** openapi-fetch sends JSON by default; an upload is multipart with the file part named `binary`. */
const multipart = (body: { binary: Blob; dataobject?: string }): FormData => {
  const form = new FormData();
  form.append("binary", body.binary);
  if (body.dataobject !== undefined) form.append("dataobject", body.dataobject);
  return form;
};

const ids: Record<string, string> = {};
const id = (name: string): string => {
  const value = ids[name];
  check(value !== undefined, `${name} was not created`);
  return value;
};

await step("create label with only its text (defaults apply)", async () => {
  const created = ok(
    await client.POST("/api/v2/projects/{projectId}/item/{parent}/label", {
      params: { path: { ...project, parent: "panel" } },
      body: { text: "Hello from TypeScript" },
    }),
    "create label",
  );
  ids.label = created.ItemId;
  const item = await getItem(created.ItemId);
  check(item.ItemType === "label", `type ${item.ItemType}`);
  equal(item.Text, "Hello from TypeScript", "text");
  equal(item.Parent, "panel", "parent");
  equal(item.Position, { X: 0, Y: 0 }, "default position");
});

await step("create sticky note, shape, web link and image (every JSON create)", async () => {
  const path = { ...project, parent: "panel" as const };
  const note = ok(
    await client.POST("/api/v2/projects/{projectId}/item/{parent}/sticky-note", {
      params: { path },
      body: { text: "Propeller test flight", position: { x: 300, y: 0 } },
    }),
    "create sticky note",
  );
  ids.note = note.ItemId;
  const shape = ok(
    await client.POST("/api/v2/projects/{projectId}/item/{parent}/shape", {
      params: { path },
      body: { type: "RoundedRectangle", cornerRadius: 12, position: { x: 0, y: 300 }, size: { width: 200, height: 100 } },
    }),
    "create shape",
  );
  ids.shape = shape.ItemId;
  const web = ok(
    await client.POST("/api/v2/projects/{projectId}/item/{parent}/web", {
      params: { path },
      body: { url: "https://example.org/roadmap", position: { x: 600, y: 0 } },
    }),
    "create web",
  );
  ids.web = web.ItemId;
  const image = ok(
    await client.POST("/api/v2/projects/{projectId}/item/{parent}/image", {
      params: { path },
      body: { fileName: "later.png", fileSize: 1024, mimeType: "image/png", size: { width: 64, height: 32 } },
    }),
    "create image without bytes",
  );
  ids.imageJson = image.ItemId;
  const noteItem = await getItem(note.ItemId);
  check(noteItem.ItemType === "sticky-note", `note type ${noteItem.ItemType}`);
  equal(noteItem.Position, { X: 300, Y: 0 }, "note position");
  const shapeItem = await getItem(shape.ItemId);
  check(shapeItem.ItemType === "shape", `shape type ${shapeItem.ItemType}`);
  equal([shapeItem.Type, shapeItem.CornerRadius], ["RoundedRectangle", 12], "shape type and corner radius");
  const webItem = await getItem(web.ItemId);
  check(webItem.ItemType === "web", `web type ${webItem.ItemType}`);
  equal(webItem.Url, "https://example.org/roadmap", "web url");
  const imageItem = await getItem(image.ItemId);
  check(imageItem.ItemType === "image", `image type ${imageItem.ItemType}`);
  equal([imageItem.FileName, imageItem.MimeType, imageItem.Size], ["later.png", "image/png", { Height: 32, Width: 64 }], "image");
});

await step("create connector between two items", async () => {
  const created = ok(
    await client.POST("/api/v2/projects/{projectId}/item/{parent}/connector", {
      params: { path: { ...project, parent: "panel" } },
      body: { startPoint: { itemId: id("label") }, endPoint: { itemId: id("note") } },
    }),
    "create connector",
  );
  ids.connector = created.ItemId;
  const item = await getItem(created.ItemId);
  check(item.ItemType === "connector", `type ${item.ItemType}`);
  equal([item.StartPoint.ItemId, item.EndPoint.ItemId], [id("label"), id("note")], "ends");
  equal(item.EndPoint.Decorator, "ArrowLine", "default end decorator");
});

await step("upload image, document and SVG, then download each file", async () => {
  const uploads = [
    { type: "image" as const, file: new File([png], "pixels.png"), bytes: png },
    { type: "document" as const, file: new File([markdown], "plan.md"), bytes: new TextEncoder().encode(markdown) },
    { type: "svg" as const, file: new File([svg], "box.svg"), bytes: undefined },
  ];
  for (const upload of uploads) {
    const params = { path: { ...project, parent: "panel" } };
    const body = { binary: upload.file, dataobject: JSON.stringify({ position: { x: 900, y: 300 } }) };
    const reply =
      upload.type === "image"
        ? await client.POST("/api/v2/projects/{projectId}/item/{parent}/image/file", { params, body, bodySerializer: multipart })
        : upload.type === "document"
          ? await client.POST("/api/v2/projects/{projectId}/item/{parent}/document/file", { params, body, bodySerializer: multipart })
          : await client.POST("/api/v2/projects/{projectId}/item/{parent}/svg/file", { params, body, bodySerializer: multipart });
    const created = ok(reply, `upload ${upload.type}`);
    ids[upload.type] = created.ItemId;
    const item = await getItem(created.ItemId);
    equal(item.ItemType, upload.type, "item type");
    equal(item.Position, { X: 900, Y: 300 }, `${upload.type} position from dataobject`);
    const content = await client.GET("/api/v2/projects/{projectId}/item/{itemId}/content", {
      params: { path: { projectId, itemId: created.ItemId } },
      parseAs: "arrayBuffer",
    });
    const bytes = new Uint8Array(ok(content, `download ${upload.type}`));
    if (upload.bytes) {
      equal(Array.from(bytes), Array.from(upload.bytes), `${upload.type} bytes round trip`);
    } else {
      // An SVG is stored sanitised: still the drawing, not necessarily the same bytes.
      check(new TextDecoder().decode(bytes).includes("<rect"), "the SVG keeps its rectangle");
    }
  }
  const image = await getItem(id("image"));
  check(image.ItemType === "image", "image type");
  equal([image.FileName, image.MimeType, image.FileSize, image.Size], ["pixels.png", "image/png", png.length, { Height: 8, Width: 8 }], "image file properties");
});

await step("read single properties: a number, a text and an object", async () => {
  equal(await property(id("shape"), "cornerRadius"), 12, "cornerRadius");
  equal(await property(id("label"), "text"), "Hello from TypeScript", "text");
  equal(await property(id("note"), "position"), { X: 300, Y: 0 }, "position");
});

await step("PATCH every item type (connector inside its properties envelope)", async () => {
  const at = (itemId: string) => ({ params: { path: { projectId, itemId } } });
  ok(await client.PATCH("/api/v2/projects/{projectId}/item/label/{itemId}", { ...at(id("label")), body: { text: "Hello again", fontSize: 20 } }), "label");
  ok(await client.PATCH("/api/v2/projects/{projectId}/item/sticky-note/{itemId}", { ...at(id("note")), body: { backgroundColor: "#FFEE58" } }), "sticky note");
  ok(await client.PATCH("/api/v2/projects/{projectId}/item/shape/{itemId}", { ...at(id("shape")), body: { cornerRadius: 4, fillColor: "#00AA00" } }), "shape");
  ok(await client.PATCH("/api/v2/projects/{projectId}/item/web/{itemId}", { ...at(id("web")), body: { url: "https://example.org/plan" } }), "web");
  ok(await client.PATCH("/api/v2/projects/{projectId}/item/image/{itemId}", { ...at(id("image")), body: { angle: 90 } }), "image");
  ok(await client.PATCH("/api/v2/projects/{projectId}/item/document/{itemId}", { ...at(id("document")), body: { fileName: "release-plan.md" } }), "document");
  ok(await client.PATCH("/api/v2/projects/{projectId}/item/svg/{itemId}", { ...at(id("svg")), body: { scale: 2 } }), "svg");
  ok(
    await client.PATCH("/api/v2/projects/{projectId}/item/connector/{itemId}", {
      ...at(id("connector")),
      body: { properties: { strokeThickness: 3, endPoint: { itemId: id("shape") } } },
    }),
    "connector",
  );
  const label = await getItem(id("label"));
  check(label.ItemType === "label", "label");
  equal([label.Text, label.FontSize], ["Hello again", 20], "label after PATCH");
  const note = await getItem(id("note"));
  check(note.ItemType === "sticky-note", "note");
  equal(note.BackgroundColor.toUpperCase(), "#FFEE58", "note colour");
  equal(await property(id("shape"), "cornerRadius"), 4, "shape corner radius");
  equal(await property(id("web"), "url"), "https://example.org/plan", "web url");
  equal(await property(id("image"), "angle"), 90, "image angle");
  equal(await property(id("document"), "fileName"), "release-plan.md", "document name");
  equal(await property(id("svg"), "scale"), 2, "svg scale");
  const connector = await getItem(id("connector"));
  check(connector.ItemType === "connector", "connector");
  equal([connector.StrokeThickness, connector.StartPoint.ItemId, connector.EndPoint.ItemId], [3, id("label"), id("shape")], "connector after PATCH");
});

/** Every item a listing returns, following `NextCursor` page by page. */
async function listAll(query: { type?: string; text?: string; parent?: string; limit: number }): Promise<{ items: Item[]; pages: number }> {
  const items: Item[] = [];
  let cursor: string | undefined;
  let pages = 0;
  do {
    const page = ok(
      await client.GET("/api/v2/projects/{projectId}/items", { params: { path: project, query: { ...query, ...(cursor ? { cursor } : {}) } } }),
      "list items",
    );
    items.push(...page.Items);
    pages += 1;
    cursor = page.NextCursor ?? undefined;
  } while (cursor && pages < 100);
  return { items, pages };
}

await step("bulk create with references between the items", async () => {
  const created = ok(
    await client.POST("/api/v2/projects/{projectId}/items/bulk", {
      params: { path: project },
      body: {
        items: [
          { ref: "a", type: "sticky-note", properties: { text: "Bulk note A", position: { x: 0, y: 900 } } },
          { ref: "b", type: "sticky-note", properties: { text: "Bulk note B", position: { x: 300, y: 900 } } },
          { ref: "c", type: "sticky-note", properties: { text: "Bulk note C", position: { x: 600, y: 900 } } },
          { type: "connector", properties: { startPoint: { itemId: "ref:a" }, endPoint: { itemId: "ref:b" } } },
        ],
      },
    }),
    "bulk create",
  );
  equal(created.Items.length, 4, "created count");
  equal(created.Items.map((i) => i.Ref ?? null), ["a", "b", "c", null], "refs in order");
  const connector = created.Items[3];
  check(connector !== undefined, "the connector");
  const item = await getItem(connector.ItemId);
  check(item.ItemType === "connector", "bulk connector type");
  equal([item.StartPoint.ItemId, item.EndPoint.ItemId], [created.Items[0]?.ItemId, created.Items[1]?.ItemId], "refs resolved");
  ids.bulkA = created.Items[0]?.ItemId ?? "";
});

await step("list with filters and read every page", async () => {
  const notes = await listAll({ type: "sticky-note", limit: 2 });
  check(notes.pages >= 2, `four notes at two per page take several pages, got ${notes.pages}`);
  equal(notes.items.length, 4, "sticky notes");
  check(notes.items.every((i) => i.ItemType === "sticky-note"), "only sticky notes");
  equal(new Set(notes.items.map((i) => i.ItemId)).size, 4, "no item twice across pages");
  const byText = await listAll({ text: "Bulk note", limit: 50 });
  equal(byText.items.map((i) => i.ItemId).sort(), notes.items.filter((i) => i.ItemId !== id("note")).map((i) => i.ItemId).sort(), "text filter");
  const everything = await listAll({ limit: 5 });
  check(everything.items.some((i) => i.ItemId === id("svg")), "the whole listing has the SVG");
});

await step("create a diagram from Mermaid and arrange items", async () => {
  const diagram = ok(
    await client.POST("/api/v2/projects/{projectId}/diagrams", {
      params: { path: project },
      body: { source: "graph TD\n  plan[Plan] --> build[Build]\n  plan --> test[Test]", position: { x: 2000, y: 2000 } },
    }),
    "diagram",
  );
  equal(Object.keys(diagram.Nodes).sort(), ["build", "plan", "test"], "diagram nodes");
  check(Object.values(diagram.Nodes).every((node) => diagram.ItemIds.includes(node)), "every node's shape is among the created items");
  const types = await Promise.all(diagram.ItemIds.map(async (itemId) => (await getItem(itemId)).ItemType));
  equal(types.filter((t) => t === "connector").length, 2, "two edges, two connectors");
  const plan = await getItem(diagram.Nodes["plan"] ?? "");
  check(plan.ItemType !== "connector" && plan.Position.X >= 2000 && plan.Position.Y >= 2000, "placed at the position asked");
  const arranged = ok(
    await client.POST("/api/v2/projects/{projectId}/items/arrange", {
      params: { path: project },
      body: { itemIds: [id("label"), id("note"), id("web")], style: "grid" },
    }),
    "arrange",
  );
  equal(arranged.Items.map((i) => i.ItemId), [id("label"), id("note"), id("web")], "arranged items");
  check(arranged.Items.every((i) => i.Version >= 2), "arranging bumps versions");
});

await step("diagram records: read, update in place, read back as Mermaid, export, list, delete", async () => {
  const made = ok(
    await client.POST("/api/v2/projects/{projectId}/diagrams", {
      params: { path: project },
      body: { source: "graph LR\n  a[Ask] --> b[Answer]", position: { x: 2000, y: 6000 } },
    }),
    "diagram",
  );
  const diagramId = made.DiagramId;
  const path = { projectId, diagramId };
  const record = ok(await client.GET("/api/v2/projects/{projectId}/diagrams/{diagramId}", { params: { path } }), "get diagram");
  equal(record.Version, 1, "first version");
  check(record.Elements.some((e) => e.Element === "node:a" && e.Part === "shape" && e.ItemId === made.Nodes["a"]), "node a in the map");
  const updated = ok(
    await client.PUT("/api/v2/projects/{projectId}/diagrams/{diagramId}", {
      params: { path },
      body: { source: "graph LR\n  a[Ask] --> b[Answer]\n  b --> c[Follow up]" },
    }),
    "update diagram",
  );
  equal(updated.Version, 2, "second version");
  equal(updated.Nodes["a"], made.Nodes["a"], "node a keeps its item");
  equal(updated.Created.length, 3, "c, its label and b → c");
  const drawn = ok(
    await client.GET("/api/v2/projects/{projectId}/diagrams/{diagramId}", { params: { path, query: { format: "mermaid" } } }),
    "read back",
  );
  check((drawn.Mermaid ?? "").includes("Follow up"), `read back: ${drawn.Mermaid}`);
  const exported = ok(
    await client.GET("/api/v2/projects/{projectId}/items/export", {
      params: { path: project, query: { format: "mermaid", region: "1990,5990,2000,1000" } },
    }),
    "export",
  );
  check(exported.Text.includes("Answer"), `export: ${exported.Text}`);
  const listed = ok(await client.GET("/api/v2/projects/{projectId}/diagrams", { params: { path: project } }), "list diagrams");
  check(listed.Diagrams.some((d) => d.DiagramId === diagramId), "listed");
  const deleted = ok(
    await client.DELETE("/api/v2/projects/{projectId}/diagrams/{diagramId}", { params: { path, query: { keepItems: true } } }),
    "delete diagram",
  );
  equal(deleted.Deleted.length, 0, "keepItems keeps the items");
});

await step("knowledge: wait for indexing, then a query cites the document", async () => {
  for (let attempt = 0; ; attempt += 1) {
    const status = ok(await client.GET("/api/v1/memory/index", { params: { query: { projectId } } }), "index status");
    if (status.Counts.Queued === 0 && status.Counts.Indexing === 0) {
      check(status.Counts.Indexed > 0, `nothing indexed: ${JSON.stringify(status.Counts)}`);
      break;
    }
    check(attempt < 120, `indexing did not finish: ${JSON.stringify(status.Counts)}`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  const answer = ok(
    await client.POST("/api/v1/memory/retrieve", { body: { projectId, query: "propeller test flight", mode: "keyword" } }),
    "retrieve",
  );
  check(answer.Citations.length > 0, "at least one citation");
  const cited = answer.Citations.map((c) => c.Id);
  check(cited.includes(id("document")) || cited.includes(id("note")), `cites the plan or the note: ${cited.join(", ")}`);
});

await step("webhooks: test call, create, list, read, replace, enable, deliveries, redeliver, delete", async () => {
  const definition = { url: webhookUrl, events: ["item.created" as const], name: "scenario", customData: { team: "clients", level: 3 } };
  const tested = ok(await client.POST("/api/v2/projects/{projectId}/webhooks/test", { params: { path: project }, body: definition }), "test call");
  equal([tested.StatusCode, tested.Error ?? null], [200, null], "the receiver answered the test call");
  const record = ok(await client.POST("/api/v2/projects/{projectId}/webhooks", { params: { path: project }, body: definition }), "create");
  equal([record.Url, record.Events, record.Enabled, record.CustomData], [webhookUrl, ["item.created"], true, { team: "clients", level: 3 }], "record");
  const listed = ok(await client.GET("/api/v2/projects/{projectId}/webhooks", { params: { path: project } }), "list");
  check(listed.Elements.some((w) => w.Id === record.Id), "listed");
  const path = { ...project, webhookId: record.Id };
  equal(ok(await client.GET("/api/v2/projects/{projectId}/webhooks/{webhookId}", { params: { path } }), "get").Name, "scenario", "name");
  const replaced = ok(
    await client.PUT("/api/v2/projects/{projectId}/webhooks/{webhookId}", {
      params: { path },
      body: { ...definition, name: "scenario v2", events: ["item.created", "item.updated"] },
    }),
    "replace",
  );
  equal([replaced.Name, replaced.Events], ["scenario v2", ["item.created", "item.updated"]], "replaced record");
  equal(ok(await client.POST("/api/v2/projects/{projectId}/webhooks/{webhookId}/enable", { params: { path } }), "enable").Enabled, true, "enabled");
  // A new item is an event: the dispatcher delivers it to the receiver, and the attempt is listed.
  ok(
    await client.POST("/api/v2/projects/{projectId}/item/{parent}/label", {
      params: { path: { ...project, parent: "panel" } },
      body: { text: "Delivered" },
    }),
    "create label for a delivery",
  );
  let delivered: components["schemas"]["DeliveryAttempt"] | undefined;
  for (let attempt = 0; delivered === undefined; attempt += 1) {
    check(attempt < 60, "no successful delivery within 30 s");
    await new Promise((resolve) => setTimeout(resolve, 500));
    const list = ok(await client.GET("/api/v2/projects/{projectId}/webhooks/{webhookId}/deliveries", { params: { path, query: { limit: 10 } } }), "deliveries");
    delivered = list.Elements.find((d) => d.StatusCode === 200 && d.Event === "item.created");
  }
  const again = ok(
    await client.POST("/api/v2/projects/{projectId}/webhooks/{webhookId}/deliveries/{deliveryId}/redeliver", {
      params: { path: { ...path, deliveryId: delivered.DeliveryId } },
    }),
    "redeliver",
  );
  check(again.DeliveryId.length > 0, "a redelivery id");
  const keys = ok(await client.GET("/api/v2/webhooks/keys", {}), "signing keys");
  check(keys.keys.length > 0, "a signing key is published");
  ok(await client.DELETE("/api/v2/projects/{projectId}/webhooks/{webhookId}", { params: { path } }), "delete");
  const gone = await client.GET("/api/v2/projects/{projectId}/webhooks/{webhookId}", { params: { path } });
  equal(gone.response.status, 404, "deleted webhook");
});

await step("render the map as SVG and PNG", async () => {
  const drawing = ok(await client.GET("/api/v2/projects/{projectId}/render.svg", { params: { path: project }, parseAs: "text" }), "render.svg");
  check(drawing.includes("<svg") && drawing.includes("Hello again"), "an SVG with the label's text");
  const picture = ok(await client.GET("/api/v2/projects/{projectId}/render.png", { params: { path: project }, parseAs: "arrayBuffer" }), "render.png");
  equal(Array.from(new Uint8Array(picture).slice(0, 8)), [137, 80, 78, 71, 13, 10, 26, 10], "PNG signature");
});

await step("export the project as one archive; importing one needs a system administrator", async () => {
  const archive = ok(await client.GET("/api/v2/projects/{projectId}/export", { params: { path: project }, parseAs: "arrayBuffer" }), "export");
  equal(Array.from(new Uint8Array(archive).slice(0, 4)), [80, 75, 3, 4], "a zip archive");
  // openapi-fetch sends JSON by default; the archive goes as it is.
  const refused = await client.POST("/api/v2/projects/import", {
    body: new Blob([archive]),
    bodySerializer: (body: Blob) => body,
    headers: { "Content-Type": "application/octet-stream" },
  });
  equal(refused.response.status, 403, "the project's owner may not create projects");
});

await step("announce presence on the map", async () => {
  const announced = await client.POST("/api/v2/projects/{projectId}/presence", {
    params: { path: project },
    body: { clientId: "ts-scenario", cursor: { x: 1.5, y: -2 }, selection: [id("web")] },
  });
  equal(announced.response.status, 204, "announced");
  const left = await client.POST("/api/v2/projects/{projectId}/presence", {
    params: { path: project },
    body: { clientId: "ts-scenario", cursor: null, leaving: true },
  });
  equal(left.response.status, 204, "left");
  const refused = await client.POST("/api/v2/projects/{projectId}/presence", { params: { path: project }, body: { clientId: "not valid!" } });
  equal(refused.response.status, 400, "a client id out of its characters");
});

await step("delete an item; it is gone", async () => {
  const deleted = await client.DELETE("/api/v2/projects/{projectId}/item/{itemId}", { params: { path: { projectId, itemId: id("web") } } });
  equal(ok(deleted, "delete").ItemId, id("web"), "the deleted item's id");
  const gone = await client.GET("/api/v2/projects/{projectId}/item/{itemId}", { params: { path: { projectId, itemId: id("web") } } });
  equal(gone.response.status, 404, "deleted item");
  equal(gone.error?.Reason, "NOT_FOUND", "problem reason");
});

console.log(`${passed} passed, ${failed} failed`);
process.exitCode = failed === 0 ? 0 : 1;
