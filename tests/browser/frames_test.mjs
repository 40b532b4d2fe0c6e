// Frames on the live map, in headless Chromium (Debian's /usr/bin/chromium through playwright-core;
// nothing is downloaded). Run by tests/tests/e2e/map_frames.rs:
//
//   node frames_test.mjs --base URL --project ID --note-a ID --note-b ID --token TOKEN \
//        [--shots DIR --label NAME] [--dev-assets DIR]
//
// An Editor opens a map holding two sticky notes on the panel, makes a frame with the toolbar's
// "Add frame" (drawn under the notes), drags each note into it with the mouse (each note's
// `parent` is then the frame, read back over REST), drags the frame (the notes ride along in the
// drag's overlay, only the frame is written, and the service moves the frame and both notes by
// the same displacement, which the map then shows), drags one note out (its parent is the panel
// again; undo puts it back in, redo out), resizes the frame over REST so that the note it holds
// reaches past its new edge (the note is drawn again, now clipped to the new box), and a second page checks the first paint's layering, the
// frame's name and focus, and axe-core (no serious or critical violation). Prints every measured
// fact, one line per check and "N passed, N failed".
import { join } from "node:path";
import { args, assert, check, inBrowsers } from "./harness.mjs";

const api = `${args.base}/api/v2/projects/${args.project}`;
// A deadline for what may take long on a loaded machine, never a pause.
const SETTLE = 15000;
const noteA = args["note-a"];
const noteB = args["note-b"];

async function rest(method, path, body) {
  const headers = { Authorization: `Bearer ${args.token}` };
  if (body) headers["Content-Type"] = "application/json";
  const response = await fetch(`${api}${path}${path.includes("?") ? "&" : "?"}jsonCasing=camel`, { method, headers, body: body && JSON.stringify(body) });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null };
}
const read = async (id) => {
  const r = await rest("GET", `/item/${id}`);
  assert(r.status === 200, `GET item ${id} answered ${r.status}: ${JSON.stringify(r.body)}`);
  return r.body;
};
// Reads the item until `ok(item)` holds (at most SETTLE); the last read.
async function readUntil(id, ok, what) {
  const deadline = Date.now() + SETTLE;
  for (;;) {
    const item = await read(id);
    if (ok(item)) return item;
    if (Date.now() > deadline) throw new Error(`${what}: item ${id} is ${JSON.stringify({ parent: item.parent, position: item.position, size: item.size })}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
const at = (p) => `(${p.x}, ${p.y})`;
const near = (a, b, tolerance = 1) => Math.abs(a.x - b.x) <= tolerance && Math.abs(a.y - b.y) <= tolerance;

async function openMap(context) {
  const page = await context.newPage();
  page.on("pageerror", (err) => console.log(`page error: ${err}`));
  await page.goto(`${args.base}/map/${args.project}?auth=token`);
  await page.fill("#token", args.token);
  await page.click("#sign-in button[type=submit]");
  await page.waitForSelector("body[data-live=true]", { timeout: 20000 });
  // The tools are wired once the shape picker is filled; the parents are known once listed.
  await page.waitForSelector("#shape-type option", { state: "attached", timeout: SETTLE });
  await page.waitForSelector("body[data-listed=true]", { timeout: SETTLE });
  return page;
}

const g = (id) => `.drawing #item-${id}`;
// A map point on screen (client pixels).
const screenOf = (page, p) => page.evaluate(({ x, y }) => window.canvasMap.toScreen(x, y), p);
// The translation of the item's drawn `<g>` (its centre), or null.
const drawnAt = (page, id) =>
  page.evaluate((sel) => {
    const el = document.querySelector(sel);
    return el ? window.canvasMap.parseTransform(el.getAttribute("transform")) : null;
  }, g(id));
// The item whose drawn `<g>` is under a client point.
const itemUnder = (page, p) => page.evaluate(({ x, y }) => document.elementFromPoint(x, y)?.closest(".item")?.dataset.itemId || null, p);
// Waits until the map draws the item's `<g>` centred at `p` (±1).
async function drawnNear(page, id, p, what) {
  await page
    .waitForFunction(
      ([sel, want]) => {
        const el = document.querySelector(sel);
        const t = el && window.canvasMap.parseTransform(el.getAttribute("transform"));
        return t && Math.abs(t.x - want.x) <= 1 && Math.abs(t.y - want.y) <= 1;
      },
      [g(id), p],
      { timeout: SETTLE, polling: 20 },
    )
    .catch(async () => {
      throw new Error(`${what}: the map draws ${id} at ${JSON.stringify(await drawnAt(page, id))}, not ${at(p)}`);
    });
}

// A PATCH of `id` (any type) answered: its response.
const patchOf = (page, id) =>
  page.waitForResponse((r) => r.request().method() === "PATCH" && new URL(r.url()).pathname.endsWith(`/${id}`), { timeout: SETTLE });

// Drags with real mouse events from one client point to another (pressed, moved in steps, released).
async function drag(page, from, to, { whileHeld } = {}) {
  await page.mouse.move(from.x, from.y);
  await page.mouse.down();
  await page.mouse.move((from.x + to.x) / 2, (from.y + to.y) / 2, { steps: 5 });
  if (whileHeld) await whileHeld();
  await page.mouse.move(to.x, to.y, { steps: 5 });
  await page.mouse.up();
}

// Drags the item by its centre so that its centre lands on map point `target`; the PATCH it sent.
async function dragItemTo(page, id, target) {
  const item = await read(id);
  const from = await screenOf(page, item.position);
  const under = await itemUnder(page, from);
  assert(under === id, `the pointer at ${id}'s centre is on ${under}`);
  const to = await screenOf(page, target);
  const answered = patchOf(page, id);
  await drag(page, from, to);
  const response = await answered;
  const sent = response.request().postDataJSON();
  assert(response.status() === 200, `the move answered ${response.status()}: ${await response.text()}`);
  return sent;
}

await inBrowsers(async (newContext) => {
  const a = await openMap(await newContext());
  let frame = null; // the frame item as REST reads it
  let outPlace = null; // where note B was before it was dragged out (in the frame)

  await check("the toolbar's Add frame makes a 640×400 frame titled Frame at the view's centre, drawn under the notes", async () => {
    const view = await a.evaluate(() => ({ x: Math.round(window.canvasMap.view.cx), y: Math.round(window.canvasMap.view.cy) }));
    const created = a.waitForResponse((r) => r.request().method() === "POST" && new URL(r.url()).pathname.endsWith("/item/panel/frame"), { timeout: SETTLE });
    await a.click("#add-frame");
    const response = await created;
    // Item creates answer 200 with the new id, every type alike.
    assert(response.ok(), `the create answered ${response.status()}: ${await response.text()}`);
    const id = (await response.json()).itemId;
    console.log(`the create answered ${response.status()}`);
    frame = await read(id);
    console.log(`frame ${id}: ${JSON.stringify({ itemType: frame.itemType, parent: frame.parent, position: frame.position, size: frame.size, title: frame.title })}`);
    assert(frame.itemType === "frame" && frame.parent === "panel", `a frame on the panel: ${JSON.stringify(frame)}`);
    assert(frame.size.width === 640 && frame.size.height === 400 && frame.title === "Frame", `640×400, titled Frame: ${JSON.stringify(frame)}`);
    assert(near(frame.position, view), `at the view's centre ${at(view)}: ${at(frame.position)}`);
    await a.waitForSelector(g(frame.itemId), { timeout: SETTLE });
    const order = await a.evaluate(() => [...document.querySelectorAll(".drawing > .item")].map((el) => el.dataset.itemType));
    console.log(`drawing order after the create: ${order.join(", ")}`);
    const lastFrame = order.lastIndexOf("frame");
    const firstOther = order.findIndex((t) => t !== "frame");
    assert(lastFrame >= 0 && (firstOther < 0 || lastFrame < firstOther), `the frame is drawn before every other item: ${order}`);
    const label = await a.getAttribute(g(frame.itemId), "aria-label");
    console.log(`the frame's name: ${label}`);
    assert(label === "frame: Frame", `the frame's accessible name: ${label}`);
  });

  await check("each sticky note dragged into the frame with the mouse has the frame as its parent", async () => {
    for (const [id, dx] of [[noteA, -150], [noteB, 150]]) {
      const target = { x: frame.position.x + dx, y: frame.position.y };
      const sent = await dragItemTo(a, id, target);
      console.log(`dropped ${id} at ${at(target)}: the PATCH sent ${JSON.stringify(sent)}`);
      assert(sent.parent === frame.itemId, `the PATCH names the frame as parent: ${JSON.stringify(sent)}`);
      const stored = await readUntil(id, (item) => item.parent === frame.itemId, "into the frame");
      console.log(`${id}: parent ${stored.parent}, position ${at(stored.position)}`);
      assert(near(stored.position, target, 3), `dropped at ${at(stored.position)}, aimed at ${at(target)}`);
      // Drawn where it was dropped, wholly inside the frame: no clip (only what reaches past a
      // frame's edge carries one).
      await drawnNear(a, id, stored.position, "after the drop");
      assert((await a.locator(`${g(id)} clipPath`).count()) === 0, "a note wholly inside its frame is not clipped");
    }
  });

  await check("dragging the frame carries both notes; only the frame is written, and the service moves all three alike", async () => {
    const before = { frame: await read(frame.itemId), a: await read(noteA), b: await read(noteB) };
    const grip = { x: before.frame.position.x + 270, y: before.frame.position.y - 170 };
    const from = await screenOf(a, grip);
    const under = await itemUnder(a, from);
    assert(under === frame.itemId, `the pointer at ${at(grip)} is on ${under}, not the frame`);
    const [dx, dy] = [120, 80];
    const to = { x: from.x + dx, y: from.y + dy };
    const zoom = await a.evaluate(() => window.canvasMap.view.zoom);
    const patches = [];
    const onRequest = (r) => r.method() === "PATCH" && patches.push(new URL(r.url()).pathname.split("/").pop());
    a.on("request", onRequest);
    let carried = null;
    const answered = patchOf(a, frame.itemId);
    await drag(a, from, to, {
      whileHeld: async () => {
        carried = await a.evaluate((ids) => ids.map((id) => Boolean(document.querySelector(`.drag-box #item-${id}`))), [frame.itemId, noteA, noteB]);
      },
    });
    const response = await answered;
    const sent = response.request().postDataJSON();
    assert(response.status() === 200, `the frame's move answered ${response.status()}: ${await response.text()}`);
    console.log(`in the drag's overlay while held: frame ${carried[0]}, note A ${carried[1]}, note B ${carried[2]}`);
    assert(carried[0] && carried[1] && carried[2], "the frame and both notes move together in the drag's overlay");
    console.log(`the frame's PATCH sent ${JSON.stringify(sent)}`);
    assert(sent.position && sent.parent === undefined, `only the frame's position is written: ${JSON.stringify(sent)}`);
    const after = { frame: await read(frame.itemId), a: await read(noteA), b: await read(noteB) };
    a.off("request", onRequest);
    console.log(`PATCHes sent by the drag: ${patches.join(", ")}`);
    assert(patches.length === 1 && patches[0] === frame.itemId, `one PATCH, of the frame: ${patches}`);
    const moved = (k) => ({ x: after[k].position.x - before[k].position.x, y: after[k].position.y - before[k].position.y });
    const d = { frame: moved("frame"), a: moved("a"), b: moved("b") };
    console.log(`moved by: frame ${at(d.frame)}, note A ${at(d.a)}, note B ${at(d.b)} (the pointer: ${dx}, ${dy} px at zoom ${zoom.toFixed(4)} = ${at({ x: (dx / zoom).toFixed(1), y: (dy / zoom).toFixed(1) })} units)`);
    assert(near(d.frame, { x: dx / zoom, y: dy / zoom }, 2), `the frame moved by ${at(d.frame)}, the pointer by ${dx / zoom}, ${dy / zoom}`);
    assert(near(d.a, d.frame) && near(d.b, d.frame), `the notes moved as the frame: ${JSON.stringify(d)}`);
    assert(after.a.parent === frame.itemId && after.b.parent === frame.itemId, "the notes are still in the frame");
    for (const [k, id] of [["frame", frame.itemId], ["a", noteA], ["b", noteB]]) {
      await drawnNear(a, id, after[k].position, `after the frame's move`);
      console.log(`the map draws ${k === "frame" ? "the frame" : `note ${k.toUpperCase()}`} at ${at(await drawnAt(a, id))} (stored ${at(after[k].position)})`);
    }
    frame = after.frame;
  });

  await check("note B dragged out of the frame has the panel as its parent again", async () => {
    const f = frame;
    const b = await read(noteB);
    outPlace = b.position;
    const map = await a.evaluate(() => {
      const r = document.getElementById("map").getBoundingClientRect();
      return { left: r.left, top: r.top, right: r.right, bottom: r.bottom };
    });
    const w = f.size.width / 2;
    const h = f.size.height / 2;
    const candidates = [
      { x: f.position.x + w + 160, y: f.position.y },
      { x: f.position.x, y: f.position.y + h + 120 },
      { x: f.position.x - w - 160, y: f.position.y },
      { x: f.position.x, y: f.position.y - h - 120 },
    ];
    let target = null;
    for (const c of candidates) {
      const s = await screenOf(a, c);
      if (s.x > map.left + 60 && s.x < map.right - 60 && s.y > map.top + 40 && s.y < map.bottom - 40) {
        target = c;
        break;
      }
    }
    assert(target, `no place outside the frame is on screen: ${JSON.stringify({ frame: f.position, map })}`);
    const sent = await dragItemTo(a, noteB, target);
    console.log(`dropped note B at ${at(target)}: the PATCH sent ${JSON.stringify(sent)}`);
    assert(sent.parent === "panel", `the PATCH takes it out: ${JSON.stringify(sent)}`);
    const stored = await readUntil(noteB, (item) => item.parent === "panel", "out of the frame");
    console.log(`note B: parent ${stored.parent}, position ${at(stored.position)}; note A: parent ${(await read(noteA)).parent}`);
    await a.waitForFunction((sel) => document.querySelector(sel) && !document.querySelector(`${sel} clipPath`), g(noteB), { timeout: SETTLE });
  });

  await check("undo puts note B back into the frame where it was, redo takes it out again", async () => {
    await a.keyboard.press("Escape");
    await a.keyboard.press("Control+z");
    const back = await readUntil(noteB, (item) => item.parent === frame.itemId, "undone");
    console.log(`undone: note B parent ${back.parent}, position ${at(back.position)} (was ${at(outPlace)})`);
    assert(near(back.position, outPlace), `back at ${at(outPlace)}: ${at(back.position)}`);
    await a.keyboard.press("Control+Shift+z");
    const out = await readUntil(noteB, (item) => item.parent === "panel", "redone");
    console.log(`redone: note B parent ${out.parent}, position ${at(out.position)}`);
    await drawnNear(a, noteB, out.position, "after the redo");
  });

  await check("a frame resized (over REST) past the note it holds has the note drawn again, clipped to its new box", async () => {
    const clipOf = () => a.evaluate((sel) => document.querySelector(`${sel} clipPath path`)?.getAttribute("d") || null, g(noteA));
    const clip = await clipOf();
    await a.evaluate((sel) => (document.querySelector(sel).__before = true), g(noteA));
    const redraws = Number(await a.evaluate(() => document.body.dataset.redraws || 0));
    const r = await rest("PATCH", `/item/frame/${frame.itemId}`, { size: { width: 420, height: 300 } });
    assert(r.status === 200, `the resize answered ${r.status}: ${JSON.stringify(r.body)}`);
    const t0 = Date.now();
    await a.waitForFunction((sel) => document.querySelector(sel) && !document.querySelector(sel).__before, g(noteA), { timeout: SETTLE, polling: 20 });
    const now = await clipOf();
    console.log(`note A drawn again ${Date.now() - t0} ms after the resize's answer (${Number(await a.evaluate(() => document.body.dataset.redraws)) - redraws} redraws); its clip ${clip} → ${now}`);
    // Wholly inside the 640-unit frame, the note had no clip; it reaches past the 420-unit one.
    assert(clip === null && now, `the clip: ${clip} → ${now}`);
    frame = await read(frame.itemId);
    if (args.shots) await a.screenshot({ path: join(args.shots, `frames-${args.label || "run"}-a.png`) });
  });

  // A second page, its first paint from the whole drawing, in a context whose checker may inject
  // axe-core past the page's CSP.
  const k = await openMap(await newContext({ bypassCSP: true }));

  await check("first paint: the frame is drawn first, named by its title, focusable and selected by focus", async () => {
    const order = await k.evaluate(() => [...document.querySelectorAll(".drawing > .item")].map((el) => `${el.dataset.itemType}:${el.dataset.itemId}`));
    console.log(`first paint's order: ${order.join(", ")}`);
    assert(order[0] === `frame:${frame.itemId}`, `the frame first: ${order}`);
    const el = k.locator(g(frame.itemId));
    const attrs = { role: await el.getAttribute("role"), tabindex: await el.getAttribute("tabindex"), label: await el.getAttribute("aria-label") };
    console.log(`the frame's <g>: ${JSON.stringify(attrs)}`);
    assert(attrs.role === "button" && attrs.tabindex === "0" && attrs.label === "frame: Frame", JSON.stringify(attrs));
    await el.focus();
    await k.waitForFunction((id) => window.canvasMap.selection.has(id), frame.itemId, { timeout: SETTLE });
    await k.keyboard.press("Tab");
    const next = await k.evaluate(() => document.activeElement?.dataset?.itemId || document.activeElement?.id);
    console.log(`Tab from the frame goes to ${next}`);
    assert(next === order[1].split(":")[1], `Tab goes on to the next item in the drawing: ${next}`);
    await el.focus();
  });

  await check("axe-core finds no serious or critical violation on a map with a frame (the frame selected)", async () => {
    const axe = join(process.env.CANVAS_BROWSER_DIR || join(process.env.HOME || "/root", ".cache/canvas-browser"), "node_modules/axe-core/axe.min.js");
    await k.addScriptTag({ path: axe });
    const found = await k.evaluate(async () => (await window.axe.run(document)).violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.length, target: String(v.nodes[0].target) })));
    for (const v of found) console.log(`axe: ${v.impact} ${v.id} (${v.nodes}): ${v.target}`);
    console.log(`axe: ${found.length} violation(s) in all`);
    const bad = found.filter((v) => v.impact === "serious" || v.impact === "critical");
    assert(bad.length === 0, `violations: ${bad.map((v) => `${v.id}: ${v.target}`).join("; ")}`);
    if (args.shots) await k.screenshot({ path: join(args.shots, `frames-${args.label || "run"}-k.png`) });
  });
});
