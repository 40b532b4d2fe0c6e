// The official MCP Tasks extension package (@modelcontextprotocol/ext-tasks, pinned in
// package.json) calls our long tools as a 2026-07-28 client declaring
// `io.modelcontextprotocol/tasks`, over the official TypeScript client
// (@modelcontextprotocol/client). Run by tests/tests/e2e/mcp_tasks_sdk.rs:
//
//   node tasks_ext.mjs --url MCP_URL --token TOKEN --project ID
//
// The package asks its host for a raw request path on 2026-07-28 servers (its README: the SDK
// client's codecs do not carry task results yet); `rawDispatch` below is that path: one HTTP POST
// per request, with the routing headers the transport requires (`Mcp-Method`, `Mcp-Name`), and
// nothing else: the framing (`_meta` capabilities), polling, result checks and cancellation are
// the package's. Checks:
//   1. the session sees our tasks extension (generation v2);
//   2. create_items of 101 items runs as a task: its events carry our statusMessage, the outcome
//      is completed and the result is the tool's (101 ids);
//   3. create_items of 3 items is immediate (below the documented bound);
//   4. a task is cancelled through the package: the outcome is cancelled with nothing written,
//      or completed with everything written if the work committed first (never a part);
//   5. a bad call is a completed task carrying the tool error, which names the item.
// Prints one line per check and "N passed, N failed".
import { homedir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { args, assert, check, finish } from "../browser/harness.mjs";

const sdkDir = process.env.CANVAS_MCP_SDK_DIR || join(homedir(), ".cache/canvas-mcp-sdk");
// Both as ES modules, the tasks package's only form: it then shares the client's module instance
// (its classes and `instanceof` checks), as in an application importing both.
const esm = (path) => import(pathToFileURL(join(sdkDir, "node_modules/@modelcontextprotocol", path)).href);
const { Client, StreamableHTTPClientTransport } = await esm("client/dist/index.mjs");
const { createTaskSessionFromClient, resultFromTaskOutcome } = await esm("ext-tasks/dist/client/index.js");

const VERSION = "2026-07-28";
const auth = { authorization: `Bearer ${args.token}` };

let nextId = 1000;
/** Why an outcome is not what was expected: its status, and its error's message and data. */
const shown = (outcome) => JSON.stringify({ ...outcome, message: outcome.error?.message, data: outcome.error?.data });

/** One JSON-RPC request as one POST; the answer as the package's `JsonRpcResponse`. */
async function rawDispatch(request, options = {}) {
  const params = request.params ?? {};
  const name = params.name ?? params.taskId ?? params.uri;
  // `Headers` folds names' case: the package's own routing headers replace ours, never doubling them.
  const headers = new Headers(options.context?.headers ?? {});
  for (const [key, value] of Object.entries({
    ...auth,
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
    "mcp-protocol-version": VERSION,
    "mcp-method": request.method,
    ...(name === undefined ? {} : { "mcp-name": String(name) }),
  })) {
    if (!headers.has(key)) headers.set(key, value);
  }
  const body = JSON.stringify({ jsonrpc: "2.0", id: nextId++, ...request });
  const response = await fetch(args.url, { method: "POST", headers, body, signal: options.signal });
  let text = await response.text();
  if ((response.headers.get("content-type") ?? "").startsWith("text/event-stream")) {
    text = text.split("\n").filter((l) => l.startsWith("data:")).map((l) => l.slice(5).trim()).find((d) => d) ?? "null";
  }
  const message = JSON.parse(text);
  return message.error ? { kind: "error", error: message.error } : { kind: "result", result: message.result };
}

function notes(count, prefix) {
  return Array.from({ length: count }, (_, i) => ({
    type: "sticky-note",
    properties: { text: `${prefix} ${i}`, position: { x: i * 10, y: 100 } },
  }));
}

async function countItems(session) {
  let count = 0;
  let cursor;
  do {
    const execution = await session.callTool("list_items", { projectId: args.project, limit: 1000, ...(cursor ? { cursor } : {}) });
    const page = resultFromTaskOutcome((await execution.settle()).outcome).structuredContent;
    count += page.items.length;
    cursor = page.nextCursor;
  } while (cursor);
  return count;
}

// `pin` 2026-07-28: the modern era (`server/discover`, per-request metadata), where the tasks
// extension lives; the SDK's default negotiation is the legacy `initialize`.
const client = new Client({ name: "canvas-tasks-ext", version: "1" }, { versionNegotiation: { mode: { pin: VERSION } } });
await client.connect(new StreamableHTTPClientTransport(new URL(args.url), { requestInit: { headers: auth } }));
const session = createTaskSessionFromClient(client, {
  endpointId: "canvas-tasks-test",
  rawDispatch,
  v2RequestFraming: { protocolVersion: VERSION, clientInfo: { name: "canvas-tasks-ext", version: "1" }, clientCapabilities: {} },
});

await check("the session sees the server's tasks extension", async () => {
  assert(client.getProtocolEra() === "modern", `era ${client.getProtocolEra()}`);
  assert(session.capabilities.execution === true, JSON.stringify(session.capabilities));
  assert(session.capabilities.cancellation === true, JSON.stringify(session.capabilities));
});

await check("101 items run as a task with progress, completed with the tool's result", async () => {
  const execution = await session.callTool("create_items", { projectId: args.project, items: notes(101, "task") });
  assert(execution.kind === "task", `kind ${execution.kind}`);
  const messages = [];
  const { outcome } = await execution.settle({
    onEvent: (event) => {
      if (event.type === "task" && event.task.statusMessage) messages.push(event.task.statusMessage);
    },
  });
  assert(outcome.status === "completed", shown(outcome));
  const result = resultFromTaskOutcome(outcome);
  assert(result.isError === false, JSON.stringify(result));
  assert(result.structuredContent.items.length === 101, `${result.structuredContent.items.length} ids`);
  assert(messages.length > 0 && messages.every((m) => typeof m === "string"), JSON.stringify(messages));
  console.log(`     status messages seen: ${JSON.stringify([...new Set(messages)])}`);
});

await check("3 items are answered at once", async () => {
  const execution = await session.callTool("create_items", { projectId: args.project, items: notes(3, "small") });
  assert(execution.kind === "immediate", `kind ${execution.kind}`);
  const result = resultFromTaskOutcome((await execution.settle()).outcome);
  assert(result.structuredContent.items.length === 3, JSON.stringify(result));
});

await check("a cancelled task leaves all of its items or none", async () => {
  const before = await countItems(session);
  const execution = await session.callTool("create_items", { projectId: args.project, items: notes(1000, "cancel") });
  assert(execution.kind === "task", `kind ${execution.kind}`);
  await execution.cancel();
  const task = await session.task(execution.handle.taskId).snapshot();
  assert(["cancelled", "completed", "working"].includes(task.status), JSON.stringify(task.raw));
  // Wait for it to end, then count: +0 (cancelled) or +1000 (committed first), never between.
  let view = task;
  for (let i = 0; i < 120 && view.status === "working"; i += 1) {
    await new Promise((r) => setTimeout(r, 500));
    view = await session.task(execution.handle.taskId).snapshot();
  }
  const added = (await countItems(session)) - before;
  console.log(`     the task ended ${view.status}; ${added} items were added`);
  if (view.status === "cancelled") assert(added === 0, `cancelled, yet ${added} items were written`);
  else assert(view.status === "completed" && added === 1000, `${view.status} with ${added} items`);
});

await check("a broken rule is a completed task carrying the tool error", async () => {
  const items = notes(101, "bad");
  items[7].properties.text = 42;
  const execution = await session.callTool("create_items", { projectId: args.project, items });
  assert(execution.kind === "task", `kind ${execution.kind}`);
  const { outcome } = await execution.settle();
  assert(outcome.status === "completed", shown(outcome));
  const result = resultFromTaskOutcome(outcome);
  assert(result.isError === true && JSON.stringify(result.content).includes("items[7]"), JSON.stringify(result));
});

await session.close();
await client.close();
finish();
