// The map's open, in headless Chromium: the page draws and goes live from the drawing alone and
// reads the item listing behind it. Run by tests/tests/e2e/map_browser.rs:
//
//   node open_test.mjs --base URL --project ID --token TOKEN --sticky ID --shape1 ID --shape2 ID \
//        --far ID [--dev-assets DIR]
//
// (`--dev-assets`: harness.mjs.)
// The listing (`GET .../items`) is held back by the test: it is read from the service at once (a
// snapshot from before the changes below) and handed to the page only when the test says so.
// Checks, as a person would see them:
//   1. the map is drawn and live while the listing is still out; the list says it is loading; a
//      connector names its ends (`data-start-id`/`data-end-id`) from the drawing;
//   2. before the listing, a change made through REST is drawn, and a drawn item can be dragged
//      (the move is stored) and its text edited in place;
//   3. once the (older) listing arrives, the list is built and the page keeps the newer data: the
//      changed item's name and data are the ones after the change, not the listing's;
//   4. text too small to read at the fitted view is not drawn, and is once zoomed in (`far` is a
//      note far enough away that the fitted view is under 1/8 of a pixel per map unit);
//   5. zoomed in, items well outside the view are not drawn (culled), Tab still reaches them in
//      order (each drawn again and brought into view), and the whole map is drawn again at "Fit"
//      (the map's last item is created after `far`, so `far` is not the last one, which is never
//      culled).
// Prints one line per check and "N passed, N failed".
import { args, assert, check, inBrowser } from "./harness.mjs";

const api = `${args.base}/api/v2/projects/${args.project}`;
const headers = { Authorization: `Bearer ${args.token}`, "Content-Type": "application/json" };
const rest = async (method, path, body) => {
  const r = await fetch(`${api}${path}${path.includes("?") ? "&" : "?"}jsonCasing=camel`, { method, headers, body: body && JSON.stringify(body) });
  const text = await r.text();
  return { status: r.status, body: text ? JSON.parse(text) : null };
};

await inBrowser(async (context) => {
  await context.addInitScript((token) => sessionStorage.setItem("canvas.map.token", token), args.token);
  let release;
  const gate = new Promise((resolve) => (release = resolve));
  let asked;
  const listingAsked = new Promise((resolve) => (asked = resolve));
  // The listing: read now, handed over once the gate opens.
  await context.route(/\/items\?limit=/, async (route) => {
    asked();
    const response = await route.fetch();
    await gate;
    await route.fulfill({ response });
  });
  const page = context.pages()[0] || (await context.newPage());
  page.on("pageerror", (err) => console.log(`page error: ${err}`));
  const g = (id) => `.drawing #item-${id}`;

  await check("the map is drawn and live before the item listing arrives", async () => {
    await page.goto(`${args.base}/map/${args.project}?auth=token`);
    await page.waitForFunction(() => document.body.dataset.live === "true" && Number(document.body.dataset.renders) >= 1, null, { timeout: 20000 });
    // The page asks for the listing after the drawing's first frame.
    const timeout = new Promise((resolve) => setTimeout(() => resolve(false), 15000));
    assert(await Promise.race([listingAsked.then(() => true), timeout]), "the page did not ask for the listing");
    assert((await page.getAttribute("body", "data-listed")) === "false", "the page says the listing is in");
    assert((await page.locator("#items li").count()) === 0, "the list has entries without the listing");
    const marker = await page.locator(".list-more").textContent();
    assert(/loading/i.test(marker), `the list says: ${marker}`);
    for (const id of [args.sticky, args.shape1, args.shape2]) assert((await page.locator(g(id)).count()) === 1, `item ${id} is not drawn`);
    const joined = await page.locator(`.drawing g[data-item-type=connector][data-start-id="${args.shape1}"][data-end-id="${args.shape2}"]`).count();
    assert(joined === 1, "the connector does not name its ends in the drawing");
    const label = await page.getAttribute(g(args.sticky), "aria-label");
    assert(label && label.includes("Before"), `the sticky note's label is ${label}`);
  });

  await check("before the listing, a change through REST is drawn and drawn items can be moved and edited", async () => {
    const changed = await rest("PATCH", `/item/sticky-note/${args.sticky}`, { text: "Changed while listing" });
    assert(changed.status === 200, `PATCH answered ${changed.status}`);
    await page.waitForFunction((sel) => (document.querySelector(sel)?.textContent || "").includes("Changed while listing"), g(args.sticky), { timeout: 15000 });

    const start = (await rest("GET", `/item/${args.shape1}`)).body.position;
    const box = await page.locator(g(args.shape1)).boundingBox();
    const from = { x: box.x + box.width / 2, y: box.y + box.height / 2 };
    await page.mouse.move(from.x, from.y);
    await page.mouse.down();
    await page.mouse.move(from.x + 40, from.y + 30, { steps: 4 });
    await page.mouse.move(from.x + 80, from.y + 60, { steps: 4 });
    await page.mouse.up();
    const deadline = Date.now() + 15000;
    let now = start;
    while (Date.now() < deadline && now.x === start.x && now.y === start.y) {
      await page.waitForTimeout(50);
      now = (await rest("GET", `/item/${args.shape1}`)).body.position;
    }
    assert(now.x > start.x && now.y > start.y, `the dragged shape is stored at ${JSON.stringify(now)}, from ${JSON.stringify(start)}`);

    await page.locator(g(args.far)).dblclick();
    await page.waitForSelector("textarea.text-editor", { timeout: 15000 });
    await page.fill("textarea.text-editor", "Edited before the listing");
    await page.press("textarea.text-editor", "Enter");
    await page.waitForFunction((sel) => (document.querySelector(sel)?.textContent || "").includes("Edited before the listing"), g(args.far), { timeout: 15000 });
    assert((await rest("GET", `/item/${args.far}`)).body.text === "Edited before the listing", "the edit is not stored");
    assert((await page.getAttribute("body", "data-listed")) === "false", "the listing came in early: the checks above proved nothing");
  });

  await check("the older listing arrives: the list is built and the newer data is kept", async () => {
    release();
    await page.waitForSelector("body[data-listed=true]", { timeout: 10000 });
    const ids = await page.$$eval("#items li", (lis) => lis.map((li) => li.dataset.itemId));
    for (const id of [args.sticky, args.shape1, args.shape2, args.far]) assert(ids.includes(id), `the list has no entry for ${id}`);
    const text = await page.evaluate((id) => window.canvasMap.items.get(id).text, args.sticky);
    assert(text && text.includes("Changed while listing"), `the page holds the listing's older text: ${text}`);
    const entry = await page.locator(`#items li[data-item-id="${args.sticky}"] .name`).textContent();
    assert(entry.includes("Changed while listing"), `the list entry says ${entry}`);
    await page.waitForFunction((sel) => (document.querySelector(sel)?.getAttribute("aria-label") || "").includes("Changed while listing"), g(args.sticky), { timeout: 15000 });
    const position = await page.evaluate((id) => window.canvasMap.items.get(id).position, args.shape1);
    const stored = (await rest("GET", `/item/${args.shape1}`)).body.position;
    assert(position.x === stored.x && position.y === stored.y, `the page holds ${JSON.stringify(position)}, stored ${JSON.stringify(stored)}`);
  });

  await check("text too small to read is not drawn at the fitted view, and is once zoomed in", async () => {
    await page.evaluate(() => document.querySelector("#fit").click());
    const shown = () => page.evaluate((sel) => getComputedStyle(document.querySelector(`${sel} text`)).display !== "none", g(args.sticky));
    assert(!(await shown()), "a note's text is drawn at about 1 px");
    await page.locator(`#items li[data-item-id="${args.sticky}"] .name`).click();
    await page.waitForFunction(() => Number(document.querySelector("#map").dataset.hide) === 0, null, { timeout: 15000 });
    assert(await shown(), "the note's text is not drawn when zoomed in on");
  });

  await check("zoomed in, items outside the view are culled, Tab reaches them, and Fit draws them again", async () => {
    const culled = (id) => page.evaluate((sel) => document.querySelector(sel).classList.contains("culled"), g(id));
    await page.waitForFunction((sel) => document.querySelector(sel).classList.contains("culled"), g(args.far), { timeout: 15000 });
    assert(!(await culled(args.sticky)), "the note zoomed in on is culled");
    const order = await page.$$eval(".drawing > .item", (all) => all.map((el) => el.dataset.itemId));
    const from = order.indexOf(args.sticky);
    const to = order.indexOf(args.far);
    assert(from >= 0 && to > from, `drawing order ${order}`);
    await page.focus(g(args.sticky));
    for (let i = from; i < to; i += 1) await page.keyboard.press("Tab");
    const focused = await page.evaluate(() => document.activeElement?.dataset.itemId);
    assert(focused === args.far, `Tab reached ${focused}, not the culled note ${args.far}`);
    assert(!(await culled(args.far)), "the note reached by Tab is still culled");
    const box = await page.locator(g(args.far)).boundingBox();
    const map = await page.locator("#map").boundingBox();
    assert(box && box.x >= map.x && box.x + box.width <= map.x + map.width, `the note reached by Tab is not in view: ${JSON.stringify(box)}`);
    await page.evaluate(() => document.querySelector("#fit").click());
    await page.waitForFunction(() => document.querySelectorAll(".drawing > .item.culled").length === 0, null, { timeout: 15000 });
  });
});
