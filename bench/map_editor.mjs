// The live map editor in headless Chromium (Debian's, through playwright-core), against a running
// service (bench/map_editor.sh starts `canvasctl up` from the release build):
//
//   - open time: from navigation to the whole map drawn and following changes (`body[data-renders]`
//     and `body[data-live]` set by the page), for the project as it is, five runs, median; the
//     baseline of the same run is the same page opened on an empty project. The page reads its
//     item listing behind the drawing: `listedMs` is the time until that is in too
//     (`body[data-listed]`; a page without it had the listing in before it was live);
//   - frames per second while dragging one sticky note across the map for 3 s (the page's
//     requestAnimationFrame callbacks, counted in the page; input paced at 60 Hz);
//   - presence latency: A moves the mouse, the time until B's page shows A's cursor at the new
//     place (`.cursor[data-client-id="<A's client id>"]`), twenty moves, median and worst.
//
//   node bench/map_editor.mjs --base URL --token T --project P --empty-project E --label NAME \
//        [--dev-assets rest-gateway/assets/map]
//
// `--dev-assets DIR` serves the page's scripts and style from DIR instead of the binary (to try a
// change to them without rebuilding). Prints one JSON line with the figures. CANVAS_BROWSER_DIR
// holds playwright-core.
import { createRequire } from "node:module";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir, homedir } from "node:os";
import { join } from "node:path";

const args = {};
for (let i = 2; i < process.argv.length; i += 2) args[process.argv[i].replace(/^--/, "")] = process.argv[i + 1];
const browserDir = process.env.CANVAS_BROWSER_DIR || join(homedir(), ".cache/canvas-browser");
const { chromium } = createRequire(join(browserDir, "package.json"))("playwright-core");

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function browser() {
  const profile = mkdtempSync(join(tmpdir(), "canvas-bench-"));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: "/usr/bin/chromium",
    headless: true,
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"],
    viewport: { width: 1280, height: 800 },
  });
  // The token mode of the page: the token in sessionStorage before the page's script runs.
  await context.addInitScript((token) => sessionStorage.setItem("canvas.map.token", token), args.token);
  if (args["dev-assets"]) {
    await context.route("**/map/assets/*", (route) => {
      const file = new URL(route.request().url()).pathname.split("/").pop();
      const type = file.endsWith(".css") ? "text/css" : "text/javascript";
      route.fulfill({ status: 200, contentType: type, body: readFileSync(join(args["dev-assets"], file)) });
    });
  }
  return { context, close: async () => { await context.close(); rmSync(profile, { recursive: true, force: true }); } };
}

async function openTime(context, project) {
  const page = await context.newPage();
  const started = Date.now();
  await page.goto(`${args.base}/map/${project}?auth=token`);
  await page.waitForFunction(() => Number(document.body.dataset.renders || 0) >= 1 && document.body.dataset.live === "true", null, { timeout: 60000 });
  const elapsed = Date.now() - started;
  await page.waitForFunction(() => (document.body.dataset.listed || "true") === "true", null, { timeout: 60000 });
  const listed = Date.now() - started;
  const { nav, marks } = await page.evaluate(() => {
    const [entry] = performance.getEntriesByType("navigation");
    // The page's own phase marks (map.js), in ms since navigation started.
    const marks = Object.fromEntries(performance.getEntriesByType("mark").filter((m) => m.name.startsWith("canvas:"))
      .map((m) => [m.name.slice(7), Math.round(m.startTime)]));
    return { nav: entry ? entry.responseEnd - entry.startTime : null, marks };
  });
  await page.close();
  return { elapsed, listed, nav, marks };
}

async function dragFps(context, project) {
  const page = await context.newPage();
  await page.goto(`${args.base}/map/${project}?auth=token`);
  // Drawn (as openTime waits for), live, the role known (the editing tools are on) and the item
  // listing in: the drag is measured on the page at rest.
  await page.waitForFunction(
    () => Number(document.body.dataset.renders || 0) >= 1 && document.body.dataset.live === "true" && document.body.dataset.role &&
      (document.body.dataset.listed || "true") === "true",
    null,
    { timeout: 60000 },
  );
  // The note nearest the middle of the screen, zoomed in on until it is at least 60 px wide (a
  // whole 10,000-item map fits the screen at first, each note a few pixels).
  const nearest = () =>
    page.evaluate(() => {
      let best = null;
      for (const g of document.querySelectorAll('#map svg g.item[data-item-type="sticky-note"]')) {
        const r = g.getBoundingClientRect();
        if (r.width <= 0) continue;
        const d = Math.hypot(r.x + r.width / 2 - innerWidth / 2, r.y + r.height / 2 - innerHeight / 2);
        if (!best || d < best.d) best = { d, x: r.x + r.width / 2, y: r.y + r.height / 2, width: r.width, id: g.dataset.itemId };
      }
      return best;
    });
  let target = await nearest();
  for (let i = 0; target && target.width < 60 && i < 12; i += 1) {
    await page.mouse.move(target.x, target.y);
    await page.mouse.wheel(0, -400);
    await page.waitForTimeout(100);
    target = await nearest();
  }
  if (!target) throw new Error("no sticky note on screen to drag");
  await page.evaluate(() => {
    window.__frames = [];
    const tick = (t) => {
      window.__frames.push(t);
      if (window.__counting) requestAnimationFrame(tick);
    };
    window.__counting = true;
    requestAnimationFrame(tick);
  });
  await page.mouse.move(target.x, target.y);
  await page.mouse.down();
  const steps = 180;
  for (let i = 1; i <= steps; i += 1) {
    await page.mouse.move(target.x + Math.sin(i / 20) * 200, target.y + (i / steps) * 150);
    await page.waitForTimeout(16);
  }
  const frames = await page.evaluate(() => {
    window.__counting = false;
    return window.__frames;
  });
  await page.mouse.up();
  await page.close();
  const span = (frames[frames.length - 1] - frames[0]) / 1000;
  const gaps = frames.slice(1).map((t, i) => t - frames[i]);
  return { fps: (frames.length - 1) / span, worstFrameMs: Math.max(...gaps), frames: frames.length, seconds: span };
}

async function presenceLatency(project) {
  const a = await browser();
  const b = await browser();
  try {
    const pa = await a.context.newPage();
    const pb = await b.context.newPage();
    for (const page of [pa, pb]) {
      await page.goto(`${args.base}/map/${project}?auth=token`);
      // Live, and presence following (the page turns it on once it has read the service's
      // document; on a busy 10,000-item map that can come well after the map is live).
      await page.waitForFunction(() => document.body.dataset.live === "true" && document.body.dataset.presence === "live",
        null, { timeout: 60000 });
    }
    const box = await pa.locator("#map").boundingBox();
    // A's own cursor on B's screen, by A's client id: the project may show other clients too
    // (earlier runs' pages linger up to three heartbeats when their leaving call did not get
    // through), and watching the first cursor drawn watched one of theirs, which never moves.
    const aId = await pa.evaluate(() => window.canvasMap.clientId);
    const samples = [];
    for (let i = 0; i < 20; i += 1) {
      const x = box.x + 100 + ((i * 37) % 500);
      const y = box.y + 100 + ((i * 53) % 300);
      const before = await pb.evaluate((id) => {
        const c = document.querySelector(`.cursor[data-client-id="${id}"]`);
        return c ? c.getAttribute("transform") : null;
      }, aId);
      const started = Date.now();
      await pa.mouse.move(x, y);
      await pb.waitForFunction(
        ([id, old]) => {
          const c = document.querySelector(`.cursor[data-client-id="${id}"]`);
          return c && c.getAttribute("transform") !== old;
        },
        [aId, before],
        { timeout: 10000, polling: 5 },
      );
      samples.push(Date.now() - started);
      await pa.waitForTimeout(150); // past the page's own send throttle
    }
    return { medianMs: median(samples), worstMs: Math.max(...samples), samples: samples.length };
  } finally {
    await a.close();
    await b.close();
  }
}

const result = { label: args.label };
const { context, close } = await browser();
try {
  const baseline = [];
  const open = [];
  const listed = [];
  const phases = [];
  for (let i = 0; i < 5; i += 1) {
    baseline.push((await openTime(context, args["empty-project"])).elapsed);
    const opened = await openTime(context, args.project);
    open.push(opened.elapsed);
    listed.push(opened.listed);
    phases.push(opened.marks);
  }
  // The page's phases of the median open (ms from navigation): where the open time goes.
  result.openPhases = phases[open.indexOf(median(open))];
  result.openEmptyMs = median(baseline);
  result.openMs = median(open);
  result.openRatio = result.openMs / result.openEmptyMs;
  result.openAllMs = open;
  result.listedMs = median(listed);
  result.drag = await dragFps(context, args.project);
} finally {
  await close();
}
if (args.presence === "true") result.presence = await presenceLatency(args.project);
console.log(JSON.stringify(result));
