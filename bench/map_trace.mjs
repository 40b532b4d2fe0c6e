// Where a big map's drag time goes, in headless Chromium through the Chrome DevTools protocol
// (docs/PERFORMANCE.md, "After the drag box…"): opens the map, zooms in on the sticky note
// nearest the centre as bench/map_editor.mjs does, then during 60 paced drag moves records the
// page's Performance metrics, a trace (categories devtools.timeline, blink, cc; summed by event
// name) and a JavaScript CPU profile (self time by function). With EXP set, that JavaScript runs
// in the page after the drag starts (for experiments such as hiding the drawing). With OPEN=1 the
// trace covers the open instead (navigation until drawn and live; summed by event name, nested
// events counted in each), and the drag is not measured. DEV_ASSETS=DIR serves the page's scripts
// and style from DIR instead of the binary.
//
//   node bench/map_trace.mjs BASE_URL TOKEN PROJECT_ID
//
// Against a running service (bench/map_editor.sh shows how to fill a project). Loopback only.
import { createRequire } from "node:module";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir, homedir } from "node:os";
import { join } from "node:path";
const [base, token, project] = process.argv.slice(2);
const { chromium } = createRequire(join(process.env.CANVAS_BROWSER_DIR || join(homedir(), ".cache/canvas-browser"), "package.json"))("playwright-core");
const context = await chromium.launchPersistentContext(mkdtempSync(join(tmpdir(), "prof-")), {
  executablePath: "/usr/bin/chromium", headless: true,
  args: ["--headless", "--no-sandbox", "--disable-gpu"], viewport: { width: 1280, height: 800 } });
await context.addInitScript((t) => sessionStorage.setItem("canvas.map.token", t), token);
if (process.env.DEV_ASSETS) {
  await context.route("**/map/assets/*", (route) => {
    const file = new URL(route.request().url()).pathname.split("/").pop();
    route.fulfill({ status: 200, contentType: file.endsWith(".css") ? "text/css" : "text/javascript", body: readFileSync(join(process.env.DEV_ASSETS, file)) });
  });
}
const page = await context.newPage();
const cdp = await context.newCDPSession(page);
await cdp.send("Performance.enable");
const metrics = async () => Object.fromEntries((await cdp.send("Performance.getMetrics")).metrics.map((m) => [m.name, m.value]));
const traceEvents = [];
cdp.on("Tracing.dataCollected", (e) => traceEvents.push(...e.value));
const summary = () => {
  const byName = new Map();
  for (const e of traceEvents) if (e.ph === "X" && e.dur) byName.set(e.name, (byName.get(e.name) || 0) + e.dur);
  return [...byName].sort((a, b) => b[1] - a[1]).slice(0, 30).map(([k, us]) => `${k}=${(us / 1000).toFixed(0)}`).join(" ");
};
const tracing = async (categories) => {
  const done = new Promise((resolve) => cdp.once("Tracing.tracingComplete", resolve));
  await cdp.send("Tracing.start", { categories, transferMode: "ReportEvents" });
  return async () => { await cdp.send("Tracing.end"); await done; };
};
const stopOpenTrace = process.env.OPEN ? await tracing("devtools.timeline,blink,loading,v8") : null;
const t0 = Date.now();
await page.goto(`${base}/map/${project}?auth=token`);
await page.waitForFunction(() => Number(document.body.dataset.renders || 0) >= 1 && document.body.dataset.live === "true" && document.body.dataset.role, null, { timeout: 60000 });
console.log("open", Date.now() - t0, JSON.stringify(await page.evaluate(() => Object.fromEntries(performance.getEntriesByType("mark").map((m) => [m.name, Math.round(m.startTime)])))));
const m0 = await metrics();
console.log("open metrics", ["TaskDuration", "ScriptDuration", "LayoutDuration", "RecalcStyleDuration", "Nodes"].map((k) => `${k}=${m0[k]}`).join(" "));
if (stopOpenTrace) {
  await stopOpenTrace();
  console.log("open trace:", summary());
  // The page's requests as the browser saw them: start and end, ms from navigation.
  console.log("requests:", JSON.stringify(await page.evaluate(() => performance.getEntriesByType("resource").filter((r) => r.name.includes("/api/"))
    .map((r) => `${r.name.replace(/^.*\/projects\/[^/]+/, "").slice(0, 40)} ${Math.round(r.startTime)}-${Math.round(r.responseEnd)} (first byte ${Math.round(r.responseStart)}) ${r.encodedBodySize}B`))));
  await context.close();
  process.exit(0);
}
const nearest = () => page.evaluate(() => { let best = null;
  for (const g of document.querySelectorAll('#map svg g.item[data-item-type="sticky-note"]')) { const r = g.getBoundingClientRect(); if (r.width <= 0) continue;
    const d = Math.hypot(r.x + r.width / 2 - innerWidth / 2, r.y + r.height / 2 - innerHeight / 2);
    if (!best || d < best.d) best = { d, x: r.x + r.width / 2, y: r.y + r.height / 2, width: r.width }; } return best; });
let target = await nearest();
for (let i = 0; target.width < 60 && i < 12; i += 1) { await page.mouse.move(target.x, target.y); await page.mouse.wheel(0, -400); await page.waitForTimeout(100); target = await nearest(); }
await page.mouse.move(target.x, target.y);
await page.mouse.down();
await page.mouse.move(target.x + 5, target.y + 5);
if (process.env.EXP) await page.evaluate(process.env.EXP);
await page.waitForTimeout(300);
const m1 = await metrics();
const stopDragTrace = await tracing("devtools.timeline,blink,cc,disabled-by-default-devtools.timeline");
await cdp.send("Profiler.enable"); await cdp.send("Profiler.start");
const t1 = Date.now();
for (let i = 1; i <= 60; i += 1) { await page.mouse.move(target.x + Math.sin(i / 20) * 200, target.y + (i / 60) * 150); await page.waitForTimeout(16); }
const dt = Date.now() - t1;
const { profile } = await cdp.send("Profiler.stop");
const m2 = await metrics();
await stopDragTrace();
console.log("trace:", summary());
await page.mouse.up();
console.log("drag 60 moves ms", dt, ["TaskDuration", "ScriptDuration", "LayoutDuration", "RecalcStyleDuration", "LayoutCount", "RecalcStyleCount"].map((k) => `${k}=${(m2[k] - m1[k]).toFixed(3)}`).join(" "));
const self = new Map(); const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const counts = new Map(); profile.samples.forEach((id, i) => counts.set(id, (counts.get(id) || 0) + (profile.timeDeltas[i] || 0)));
for (const [id, us] of counts) { const n = byId.get(id); const k = `${n.callFrame.functionName || "(anon)"} ${n.callFrame.url.split("/").pop()}:${n.callFrame.lineNumber}`; self.set(k, (self.get(k) || 0) + us); }
console.log([...self].sort((a, b) => b[1] - a[1]).slice(0, 15).map(([k, us]) => `${(us / 1000).toFixed(0)}ms ${k}`).join("\n"));
await context.close();
