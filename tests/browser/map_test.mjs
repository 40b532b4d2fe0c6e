// Drives the web map in headless Chromium (Debian's /usr/bin/chromium through
// playwright-core; nothing is downloaded). Run by tests/tests/e2e/map_browser.rs:
//
//   node map_test.mjs --base URL --project ID --node ITEM --tag-id TAG --token TOKEN \
//        --stranger-token TOKEN --screenshot FILE
//
// Checks, as a person would see them:
//   1. the sign-in form appears, and after signing in the `node` item is in
//      view, near the centre, and highlighted;
//   2. an item created through REST appears without a reload;
//   3. a token without access to the project gets the 403 page;
//   4. the node item's tag shows as a chip on the drawing and in the list and is in its
//      accessible name; a tag made and given to an item while the map is open shows too (axe-core
//      checks tagged items in editor_test.mjs, whose checker context may inject it past the CSP);
// and saves a screenshot. Prints one line per check and "N passed, N failed".
import { args, assert, check, inBrowser } from "./harness.mjs";

await inBrowser(async (context) => {
  const page = context.pages()[0] || (await context.newPage());
  page.on("pageerror", (err) => console.log(`page error: ${err}`));
  // `auth=token`: the page for people who paste an API token instead of signing in (signed out,
  // the plain link goes to the account site's sign-in: tests/browser/account_test.mjs).
  const link = `${args.base}/map/${args.project}?node=${args.node}&auth=token`;
  const node = `#item-${args.node}`;

  await check("the map asks for a token, then shows the node item centred and highlighted", async () => {
    await page.goto(link);
    await page.waitForSelector("#sign-in:not([hidden])");
    await page.fill("#token", args.token);
    await page.click("#sign-in button[type=submit]");
    await page.waitForSelector(`${node}.highlighted`, { timeout: 15000 });
    await page.waitForSelector(".highlight-ring");
    const box = await page.locator(node).boundingBox();
    const map = await page.locator("#map").boundingBox();
    assert(box && box.width > 0 && box.height > 0, `the item has no size on screen: ${JSON.stringify(box)}`);
    assert(box.x >= map.x && box.y >= map.y && box.x + box.width <= map.x + map.width && box.y + box.height <= map.y + map.height,
      `the item ${JSON.stringify(box)} is not inside the map ${JSON.stringify(map)}`);
    const dx = Math.abs(box.x + box.width / 2 - (map.x + map.width / 2));
    const dy = Math.abs(box.y + box.height / 2 - (map.y + map.height / 2));
    assert(dx < 20 && dy < 20, `the item is ${dx}, ${dy} px from the centre of the map`);
    const stored = await page.evaluate(() => Object.keys(sessionStorage));
    const local = await page.evaluate(() => Object.keys(localStorage));
    assert(stored.length === 1 && local.length === 0, `the token must live in sessionStorage only: ${stored} / ${local}`);
    // The list is built from the item listing, which the page reads behind the drawing.
    await page.waitForSelector("body[data-listed=true]", { timeout: 15000 });
    const selected = await page.locator(`#items li.selected[data-item-id="${args.node}"] .copy-link`).count();
    assert(selected === 1, "the item list marks the node item and offers its map link");
  });

  await check("an item created through REST appears without a reload", async () => {
    await page.waitForSelector("body[data-live=true]", { timeout: 15000 });
    await page.evaluate(() => (window.__sameDocument = true));
    const response = await fetch(`${args.base}/api/v2/projects/${args.project}/item/panel/sticky-note?jsonCasing=camel`, {
      method: "POST",
      headers: { Authorization: `Bearer ${args.token}`, "Content-Type": "application/json" },
      body: JSON.stringify({ text: "Appeared live", position: { x: 150, y: 0 } }),
    });
    if (!response.ok) throw new Error(`create failed: ${response.status} ${await response.text()}`);
    const { itemId } = await response.json();
    await page.waitForSelector(`#item-${itemId}`, { timeout: 10000 });
    assert(await page.evaluate(() => window.__sameDocument === true), "the page was reloaded");
    const text = await page.locator(`#item-${itemId} text`).textContent();
    assert(text.includes("Appeared live"), `the new item shows ${text}`);
    assert(await page.locator(`${node}.highlighted`).count() === 1, "the node item stays highlighted");
  });

  await check("tags show on the drawing, in the list and in the accessible name", async () => {
    // The drawing's pills name their tags in hover titles and are filled with the tag's colour.
    const chip = `${node} .tag-chips title`;
    await page.waitForFunction((sel) => document.querySelector(sel)?.textContent === "Ready", chip, { timeout: 15000 });
    const fill = await page.locator(`${node} .tag-chips rect`).first().getAttribute("fill");
    assert(fill === "#22C55E", `the pill is filled with ${fill}`);
    const label = await page.locator(node).getAttribute("aria-label");
    assert(label.endsWith(", tagged Ready"), `the accessible name is ${label}`);
    const listed = await page.locator(`#items li[data-item-id="${args.node}"] .tag`).allTextContents();
    assert(listed.join("|") === "Ready", `the list entry shows ${listed}`);
    // A tag made after the map opened: the page reads the tags again when an item names it.
    const headers = { Authorization: `Bearer ${args.token}`, "Content-Type": "application/json" };
    const api = `${args.base}/api/v2/projects/${args.project}`;
    const made = await fetch(`${api}/tags?jsonCasing=camel`, { method: "POST", headers, body: JSON.stringify({ name: "Live tag", color: "#1D4ED8" }) });
    if (made.status !== 201) throw new Error(`tag create failed: ${made.status} ${await made.text()}`);
    const { tagId } = await made.json();
    const tagged = await fetch(`${api}/item/shape/${args.node}`, { method: "PATCH", headers, body: JSON.stringify({ tags: [args["tag-id"], tagId] }) });
    if (!tagged.ok) throw new Error(`tagging failed: ${tagged.status} ${await tagged.text()}`);
    await page.waitForFunction(
      (sel) => [...document.querySelectorAll(sel)].map((t) => t.textContent).join("|") === "Ready|Live tag",
      chip,
      { timeout: 15000 },
    );
    await page.waitForFunction(
      (id) => [...document.querySelectorAll(`#items li[data-item-id="${id}"] .tag`)].map((t) => t.textContent).join("|") === "Ready|Live tag",
      args.node,
      { timeout: 15000 },
    );
  });

  await check("pan and zoom move the view", async () => {
    const before = await page.locator("#map > svg").getAttribute("viewBox");
    await page.mouse.move(640, 400);
    await page.mouse.wheel(0, -300);
    await page.mouse.down();
    await page.mouse.move(540, 350, { steps: 5 });
    await page.mouse.up();
    // The wheel event is not waited for by the mouse call: wait for the view to change.
    await page
      .waitForFunction((was) => document.querySelector("#map > svg")?.getAttribute("viewBox") !== was, before, { timeout: 15000 })
      .catch(() => {});
    const after = await page.locator("#map > svg").getAttribute("viewBox");
    assert(before !== after, `the view did not change: ${before}`);
  });

  await check("a screenshot of the map is saved", async () => {
    await page.evaluate(() => document.querySelector("#fit").click());
    await page.screenshot({ path: args.screenshot });
    console.log(`screenshot: ${args.screenshot}`);
  });

  await check("a token without access to the project gets the 403 page", async () => {
    // A new tab has its own sessionStorage: signed out.
    const stranger = await context.newPage();
    await stranger.goto(link);
    await stranger.fill("#token", args["stranger-token"]);
    await stranger.click("#sign-in button[type=submit]");
    await stranger.waitForSelector("#problem:not([hidden])", { timeout: 10000 });
    const title = await stranger.locator("#problem-title").textContent();
    assert(title.includes("no access"), `the problem page says: ${title}`);
    await stranger.close();
  });
});
