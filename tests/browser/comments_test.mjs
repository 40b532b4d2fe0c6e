// Comment threads on the live map, in headless Chromium (Debian's /usr/bin/chromium through
// playwright-core; nothing is downloaded). Run by tests/tests/e2e/map_comments.rs:
//
//   node comments_test.mjs --base URL --project ID --item ID --token-a TOKEN --token-b TOKEN \
//        --token-c TOKEN [--shots DIR --label NAME] [--dev-assets DIR]
//
// Three people open one map, each in their own browser context: A opens a thread on the item
// through the panel, B (a Viewer: any member may comment) replies through it, and C sees each
// within a second of the write's answer (the pin, then the reply in the open thread), through the
// change stream; A comments on a point; C resolves and the pin leaves A's map; A reopens it. The
// keyboard reaches a pin (Tab) and opens it (Enter), and axe-core finds no serious or critical
// violation with the comments panel open. Prints the latencies, one line per check and
// "N passed, N failed".
import { join } from "node:path";
import { args, assert, check, inBrowsers } from "./harness.mjs";
import { SETTLE, goneAt, ms, openAs as openWatched, openThread, pin, shownAt, trail, watch } from "./comments_watch.mjs";

const api = `${args.base}/api/v2/projects/${args.project}`;
// Others' comments show "within about a second".
const LIVE = 1000;
const timings = {};

async function rest(method, path, token, body) {
  const headers = { Authorization: `Bearer ${token}` };
  if (body) headers["Content-Type"] = "application/json";
  const response = await fetch(`${api}${path}${path.includes("?") ? "&" : "?"}jsonCasing=camel`, { method, headers, body: body && JSON.stringify(body) });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null };
}

// The moment a write's answer reached the browser: its first byte (Playwright's timing, since the
// epoch), else when the test heard of it.
async function answeredAt(response) {
  await response.finished();
  const t = response.request().timing();
  return t.startTime > 0 && t.responseStart >= 0 ? t.startTime + t.responseStart : Date.now();
}

// Clicks `button` and answers the write it sends (`method` to a path ending in `suffix`).
async function writeBy(page, button, method, suffix) {
  const answer = page.waitForResponse((r) => r.request().method() === method && new URL(r.url()).pathname.endsWith(suffix), { timeout: SETTLE });
  await page.click(button);
  const response = await answer;
  return { response, at: await answeredAt(response), body: await response.json().catch(() => null) };
}

async function openAs(context, who) {
  const page = await openWatched(context, who);
  await watch(page);
  return page;
}

await inBrowsers(async (newContext) => {
  const people = { a: { name: "A", token: args["token-a"] }, b: { name: "B", token: args["token-b"] }, c: { name: "C", token: args["token-c"] } };
  const a = await openAs(await newContext(), people.a);
  const b = await openAs(await newContext(), people.b);
  const c = await openAs(await newContext(), people.c);
  const item = args.item;
  let first = null; // the thread on the item
  let onPoint = null; // the thread on a point

  await check("A comments on an item through the panel; B and C see its pin within 1 s", async () => {
    await a.locator(`.drawing #item-${item}`).click();
    await a.waitForSelector("#comment-on-item:not([disabled])", { timeout: SETTLE });
    await a.click("#comment-on-item");
    await a.fill("#comment-new-text", "Can we move this under Billing? <not html> & more");
    const posted = await writeBy(a, "#comment-new-send", "POST", "/comments");
    assert(posted.response.status() === 201, `the thread create answered ${posted.response.status()}`);
    first = posted.body;
    assert(first.itemId === item && !first.resolved, `the thread is open on the item: ${JSON.stringify(first)}`);
    await a.waitForSelector(openThread(first.threadId), { timeout: SETTLE });
    const seenB = ms((await shownAt(b, `pin:${first.threadId}`)) - posted.at);
    const seenC = ms((await shownAt(c, `pin:${first.threadId}`)) - posted.at);
    timings.pinSeenByB = seenB;
    timings.pinSeenByC = seenC;
    console.log(`C saw A's pin ${seenC} ms after the write's answer (B: ${seenB} ms)`);
    if (seenC >= LIVE || seenB >= LIVE) console.log(`the write answered at ${ms(posted.at)}; B's trail:\n  ${await trail(b)}\nC's trail:\n  ${await trail(c)}`);
    assert(seenC < LIVE && seenB < LIVE, `the pin showed after ${seenC} ms (C) and ${seenB} ms (B)`);
    // The pin's tail touches the item's top-right corner; the list names the thread as written.
    const [box, at] = [await c.locator(`.drawing #item-${item}`).boundingBox(), await c.locator(pin(first.threadId)).boundingBox()];
    assert(Math.abs(at.x - (box.x + box.width)) < 8 && Math.abs(at.y + at.height - box.y) < 8, `pin ${JSON.stringify(at)}, item ${JSON.stringify(box)}`);
    const words = await c.locator(`#comment-threads li[data-thread-id="${first.threadId}"]`).textContent();
    assert(words.includes("<not html> & more"), `C's list shows the text as text: ${words}`);
  });

  await check("B (a Viewer) replies through the panel; C, reading the thread, sees the reply within 1 s", async () => {
    await c.click(`#comment-threads li[data-thread-id="${first.threadId}"] button`);
    await c.waitForSelector(openThread(first.threadId), { timeout: SETTLE });
    await b.click(pin(first.threadId));
    await b.waitForSelector(openThread(first.threadId), { timeout: SETTLE });
    await b.fill("#comment-reply-text", "Done, it is under Billing now.");
    const posted = await writeBy(b, "#comment-reply-send", "POST", "/replies");
    assert(posted.response.status() === 201, `the reply answered ${posted.response.status()}`);
    const reply = posted.body;
    const seen = ms((await shownAt(c, `comment:${reply.commentId}`)) - posted.at);
    timings.replySeenByC = seen;
    console.log(`C saw B's reply ${seen} ms after the write's answer`);
    assert(seen < LIVE, `the reply showed after ${seen} ms`);
    const text = await c.locator(`#comment-list li[data-comment-id="${reply.commentId}"]`).textContent();
    assert(text.includes("Done, it is under Billing now."), `C shows the reply: ${text}`);
    await c.waitForFunction((sel) => /1 reply\b/.test(document.querySelector(sel)?.getAttribute("aria-label") || ""), pin(first.threadId), { timeout: SETTLE });
  });

  await check("A comments on a point (keyboard send); C sees the pin at that point within 1 s", async () => {
    await a.click("#comment-on-point");
    await a.fill("#comment-new-text", "Room for a new team here?");
    const answer = a.waitForResponse((r) => r.request().method() === "POST" && new URL(r.url()).pathname.endsWith("/comments"), { timeout: SETTLE });
    await a.press("#comment-new-text", "Control+Enter");
    const response = await answer;
    const at = await answeredAt(response);
    onPoint = await response.json();
    assert(response.status() === 201 && onPoint.position && !onPoint.itemId, `a thread on a point: ${JSON.stringify(onPoint)}`);
    const seen = ms((await shownAt(c, `pin:${onPoint.threadId}`)) - at);
    timings.pointPinSeenByC = seen;
    assert(seen < LIVE, `the pin showed after ${seen} ms`);
    const want = await c.evaluate((p) => window.canvasMap.toScreen(p.x, p.y), onPoint.position);
    const box = await c.locator(pin(onPoint.threadId)).boundingBox();
    assert(Math.abs(box.x - want.x) < 6 && Math.abs(box.y + box.height - want.y) < 6, `pin ${JSON.stringify(box)}, point ${JSON.stringify(want)}`);
  });

  // C again, in a context of its own whose checker may inject axe-core past the page's CSP.
  const k = await openAs(await newContext({ bypassCSP: true }), people.c);

  await check("keyboard: Tab reaches a pin, Enter opens its thread, and a reply can be typed", async () => {
    let on = null;
    for (let i = 0; i < 100 && !on; i++) {
      await k.keyboard.press("Tab");
      on = await k.evaluate(() => (document.activeElement?.matches(".comment-pin") ? document.activeElement.dataset.threadId : null));
    }
    assert(on, "Tab never reached a comment pin");
    const label = await k.evaluate(() => document.activeElement.getAttribute("aria-label"));
    assert(/^Comment thread by .+: .+, \d+ repl(y|ies)/.test(label), `the pin's name: ${label}`);
    await k.keyboard.press("Enter");
    await k.waitForSelector(openThread(on), { timeout: SETTLE });
    assert((await k.evaluate(() => document.activeElement?.id)) === "comment-thread-title", "the focus moves to the thread");
    await k.keyboard.press("Tab");
    assert((await k.evaluate(() => document.activeElement?.id)) === "comment-reply-text", "Tab goes on to the reply box");
    await k.keyboard.type("Typed reply");
    await k.keyboard.press("Control+Enter");
    await k.waitForFunction(() => [...document.querySelectorAll("#comment-list .comment-text")].some((p) => p.textContent === "Typed reply"), null, { timeout: SETTLE });
  });

  await check("axe-core finds no serious or critical violation with the comments panel open", async () => {
    const axe = join(process.env.CANVAS_BROWSER_DIR || join(process.env.HOME || "/root", ".cache/canvas-browser"), "node_modules/axe-core/axe.min.js");
    await k.addScriptTag({ path: axe });
    const run = () => k.evaluate(async () => (await window.axe.run(document)).violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.length, target: String(v.nodes[0].target) })));
    const found = [];
    found.push(...(await run())); // a thread open
    await k.click("#comment-close");
    await k.check("#comments-resolved");
    await k.waitForSelector("#comment-threads li[data-thread-id]", { timeout: SETTLE });
    found.push(...(await run())); // the list, resolved threads too
    for (const v of found) console.log(`axe: ${v.impact} ${v.id} (${v.nodes}): ${v.target}`);
    const bad = found.filter((v) => v.impact === "serious" || v.impact === "critical");
    assert(bad.length === 0, `violations: ${bad.map((v) => `${v.id}: ${v.target}`).join("; ")}`);
  });

  await check("C resolves the thread; its pin leaves A's map within 1 s", async () => {
    if (!(await c.locator(openThread(first.threadId)).count())) await c.click(pin(first.threadId));
    await c.waitForSelector(openThread(first.threadId), { timeout: SETTLE });
    const done = await writeBy(c, "#comment-resolve", "PATCH", `/comments/${first.threadId}`);
    assert(done.response.status() === 200 && done.body.resolved === true, `the resolve answered ${done.response.status()}: ${JSON.stringify(done.body)}`);
    const gone = ms((await goneAt(a, first.threadId)) - done.at);
    timings.pinGoneOnA = gone;
    console.log(`A's pin went ${gone} ms after C's resolve was answered`);
    assert(gone < LIVE, `the pin went after ${gone} ms`);
    assert((await c.locator("#comment-resolve").textContent()) === "Reopen", "C is offered to reopen it");
    assert((await c.locator(pin(first.threadId)).count()) === 0, "C's pin is gone too");
    const stored = await rest("GET", `/comments/${first.threadId}`, args["token-a"]);
    assert(stored.body.resolved === true && stored.body.replyCount >= 1, `the stored thread: ${JSON.stringify(stored.body)}`);
  });

  await check("A shows resolved threads and reopens it; the pin is back on C's map", async () => {
    await a.check("#comments-resolved");
    if (await a.locator("#comment-close").isVisible()) await a.click("#comment-close");
    const entry = a.locator(`#comment-threads li.resolved[data-thread-id="${first.threadId}"] button`);
    await entry.waitFor({ timeout: SETTLE });
    await entry.click();
    await a.waitForSelector(openThread(first.threadId), { timeout: SETTLE });
    const done = await writeBy(a, "#comment-resolve", "PATCH", `/comments/${first.threadId}`);
    assert(done.response.status() === 200 && done.body.resolved === false, `the reopen answered ${JSON.stringify(done.body)}`);
    await c.waitForSelector(pin(first.threadId), { timeout: SETTLE });
    await a.click("#comment-show");
    await a.waitForFunction((id) => window.canvasMap.selection.has(id), item, { timeout: SETTLE });
    if (args.shots) {
      await a.screenshot({ path: join(args.shots, `comments-${args.label || "run"}-a.png`) });
      await c.screenshot({ path: join(args.shots, `comments-${args.label || "run"}-c.png`) });
    }
  });

  console.log(`timings: ${JSON.stringify(timings)}`);
});
