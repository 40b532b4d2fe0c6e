// The map view of the MCP Apps extension (mcp-gateway/src/app.rs) under the extension's official
// host implementation: `AppBridge` of `@modelcontextprotocol/ext-apps` runs here in Node, as a
// chat client's host would, connected to the real MCP server with the official MCP client; the
// view runs in headless Chromium in a sandboxed iframe (srcdoc, as hosts load it); postMessage
// between them is relayed through the page. Run by tests/tests/e2e/mcp_app.rs:
//
//   node app_host.mjs --url MCP_URL --token TOKEN --project ID --screenshot PNG
//
// CANVAS_MCP_SDK_DIR holds the pinned packages (tests/mcp/package.json), CANVAS_BROWSER_DIR
// playwright-core (tests/browser/package.json). Checks: the SDK finds the view through the tools'
// `_meta.ui.resourceUri`; `resources/read` gives the view with the MCP App media type; the view
// initialises with the host; given a real `create_item` result it calls `render_map` through the
// host and shows the PNG around the created item; "Open the live map" asks the host to open the
// item's link; nothing the view does reaches the network by itself.
import { createRequire } from "node:module";
import { join } from "node:path";
import { homedir } from "node:os";
import { args, assert, check, inBrowser } from "../browser/harness.mjs";

const sdkDir = process.env.CANVAS_MCP_SDK_DIR || join(homedir(), ".cache/canvas-mcp-sdk");
const fromSdk = (name) => import(createRequire(join(sdkDir, "package.json")).resolve(name));
const { Client, StreamableHTTPClientTransport } = await fromSdk("@modelcontextprotocol/client");
const { AppBridge, getToolUiResourceUri, RESOURCE_MIME_TYPE } = await fromSdk("@modelcontextprotocol/ext-apps/app-bridge");

const client = new Client({ name: "canvas-app-host-test", version: "1.0.0" });
await client.connect(
  new StreamableHTTPClientTransport(new URL(args.url), { requestInit: { headers: { Authorization: `Bearer ${args.token}` } } }),
);

let viewUri = null;
let html = null;
await check("the SDK finds the map view through the tools' _meta.ui.resourceUri", async () => {
  const { tools } = await client.listTools();
  const withView = tools.filter((tool) => getToolUiResourceUri(tool));
  const names = withView.map((tool) => tool.name);
  for (const name of ["create_item", "create_diagram", "get_item", "connect_items"]) {
    assert(names.includes(name), `${name} names no view (${names})`);
  }
  assert(!names.includes("list_projects") && !names.includes("retrieve_knowledge"), `tools without a place name one: ${names}`);
  viewUri = getToolUiResourceUri(withView[0]);
  assert(viewUri === "ui://canvas/map.html", viewUri);
});

await check("resources/list and resources/read give the view as an MCP App", async () => {
  const { resources } = await client.listResources();
  const view = resources.find((r) => r.uri === viewUri);
  assert(view && view.mimeType === RESOURCE_MIME_TYPE, JSON.stringify(resources));
  assert(JSON.stringify(view._meta.ui.csp.connectDomains) === "[]", "the view asks for no network");
  const read = await client.readResource({ uri: viewUri });
  const content = read.contents[0];
  assert(content.mimeType === RESOURCE_MIME_TYPE && content.text.startsWith("<!doctype html>"), JSON.stringify(content).slice(0, 200));
  html = content.text;
  let refused = null;
  try {
    await client.readResource({ uri: "ui://canvas/nothing.html" });
  } catch (err) {
    refused = err;
  }
  // "Resource not found": -32002 before protocol revision 2026-07-28, -32602 from it on (which
  // this client negotiates); either way the message names the URI.
  assert(refused && [-32002, -32602].includes(Number(refused.code)), `an unknown view is "resource not found": code ${refused && refused.code}, ${refused}`);
  assert(String(refused.message).includes("ui://canvas/nothing.html"), String(refused.message));
});

// The item the agent just made: a real tool result, as the host would have it.
const created = await client.callTool({
  name: "create_item",
  arguments: { projectId: args.project, type: "sticky-note", properties: { text: "Shown inline", position: { x: 40, y: 30 } } },
});
const item = created.structuredContent;

const requests = [];
await inBrowser(async (context) => {
  const page = context.pages()[0] || (await context.newPage());
  page.on("request", (request) => requests.push(request.url()));
  // The host page: the view in a sandboxed iframe (scripts only, an opaque origin), and a relay of
  // its messages to the bridge here.
  const toBridge = [];
  let deliver = null;
  await page.exposeFunction("hostReceive", (message) => (deliver ? deliver(message) : toBridge.push(message)));
  await page.setContent(`<!doctype html><html><body><iframe id="view" sandbox="allow-scripts" style="width:860px;height:640px"></iframe>
    <script>
      const frame = document.getElementById("view");
      window.addEventListener("message", (event) => { if (event.source === frame.contentWindow) window.hostReceive(event.data); });
      window.toView = (message) => frame.contentWindow.postMessage(message, "*");
    </script></body></html>`);
  const transport = {
    async start() {
      deliver = (message) => this.onmessage && this.onmessage(message);
      for (const message of toBridge.splice(0)) deliver(message);
    },
    async send(message) {
      await page.evaluate((m) => window.toView(m), message);
    },
    async close() {
      this.onclose && this.onclose();
    },
  };
  const opened = [];
  const bridge = new AppBridge(client, { name: "canvas-test-host", version: "1.0.0" }, { openLinks: {}, serverTools: {} });
  let initialised;
  const ready = new Promise((resolve) => (initialised = resolve));
  bridge.oninitialized = () => initialised();
  bridge.onopenlink = async ({ url }) => {
    opened.push(url);
    return {};
  };
  await bridge.connect(transport);
  await page.evaluate((source) => (document.getElementById("view").srcdoc = source), html);

  await check("the view initialises with the official host bridge", async () => {
    await Promise.race([ready, new Promise((_, reject) => setTimeout(() => reject(new Error("no ui/notifications/initialized within 10 s")), 10000))]);
  });

  await check("given create_item's result, the view shows the map around the item (render_map through the host)", async () => {
    await bridge.sendToolResult(created);
    const view = page.frameLocator("#view");
    await view.locator("#picture:not([hidden])").waitFor({ timeout: 15000 });
    const picture = await view.locator("#picture").evaluate((img) => ({
      src: img.src.slice(0, 22),
      width: img.naturalWidth,
      project: img.dataset.projectId,
      items: img.dataset.itemIds,
    }));
    assert(picture.src === "data:image/png;base64,", JSON.stringify(picture));
    assert(picture.width > 50, `the PNG is drawn: ${JSON.stringify(picture)}`);
    assert(picture.project === args.project && picture.items === item.itemId, JSON.stringify(picture));
    const status = await view.locator("#status").textContent();
    assert(/1 item\(s\) drawn/.test(status), status);
    if (args.screenshot) await page.screenshot({ path: args.screenshot });
  });

  await check("'Open the live map' asks the host to open the item's link", async () => {
    await page.frameLocator("#view").locator("#open").click();
    const deadline = Date.now() + 5000;
    while (!opened.length && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    assert(opened[0] === item.link, `${opened[0]} vs ${item.link}`);
  });

  await check("the view reached no network by itself", async () => {
    const outside = requests.filter((url) => !url.startsWith("about:") && !url.startsWith("data:"));
    assert(outside.length === 0, outside.join(", "));
  });
  await bridge.close().catch(() => {});
  await client.close();
}, { viewport: { width: 900, height: 700 } });
