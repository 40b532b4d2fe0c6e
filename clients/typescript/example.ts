// A first session with the TypeScript client: put a note on the map, connect it to a label,
// and list what is there. Build with `npm run build` (or `npx tsc -p tsconfig.scenario.json`):
//   CANVAS_BASE_URL=http://127.0.0.1:8080 CANVAS_TOKEN=... CANVAS_PROJECT_ID=... node build/example.js
import { createCanvasClient } from "./src/index.js";

const baseUrl = process.env["CANVAS_BASE_URL"] ?? "http://127.0.0.1:8080";
const token = process.env["CANVAS_TOKEN"];
const projectId = process.env["CANVAS_PROJECT_ID"];
if (!token || !projectId) {
  throw new Error("set CANVAS_TOKEN and CANVAS_PROJECT_ID (canvasctl up prints both)");
}
const canvas = createCanvasClient({ baseUrl, token });

// Every create answers the new item's id; errors come back as `error` (an RFC 9457 problem).
const note = await canvas.POST("/api/v2/projects/{projectId}/item/{parent}/sticky-note", {
  params: { path: { projectId, parent: "panel" } },
  body: { text: "Ship the clients", position: { x: 0, y: 0 } },
});
if (!note.data) throw new Error(`could not create the note: ${note.error?.Detail}`);

const label = await canvas.POST("/api/v2/projects/{projectId}/item/{parent}/label", {
  params: { path: { projectId, parent: "panel" } },
  body: { text: "Release", position: { x: 400, y: 0 } },
});
if (!label.data) throw new Error(`could not create the label: ${label.error?.Detail}`);

await canvas.POST("/api/v2/projects/{projectId}/item/{parent}/connector", {
  params: { path: { projectId, parent: "panel" } },
  body: { startPoint: { itemId: note.data.ItemId }, endPoint: { itemId: label.data.ItemId } },
});

// A listing comes in pages: follow NextCursor until it is null.
let cursor: string | undefined;
do {
  const page = await canvas.GET("/api/v2/projects/{projectId}/items", {
    params: { path: { projectId }, query: { limit: 50, ...(cursor ? { cursor } : {}) } },
  });
  if (!page.data) throw new Error(`listing failed: ${page.error?.Detail}`);
  for (const item of page.data.Items) console.log(item.ItemType, item.ItemId);
  cursor = page.data.NextCursor ?? undefined;
} while (cursor);
