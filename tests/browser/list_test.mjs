// The item list beside a big map, in headless Chromium. Run by tests/tests/e2e/map_browser.rs:
//
//   node list_test.mjs --base URL --project ID --token TOKEN --count N
//
// Checks, as a person would see them:
//   1. the list shows its first 200 entries in creation order and says there are more;
//   2. scrolling to its end shows the next 200, and again the rest (N in all), with no duplicate;
//   3. an item created through REST appears at the end, and one deleted leaves the list, without
//      a reload.
// Prints one line per check and "N passed, N failed".
import { args, assert, check, inBrowser } from "./harness.mjs";

const count = Number(args.count);
const api = `${args.base}/api/v2/projects/${args.project}`;
const headers = { Authorization: `Bearer ${args.token}`, "Content-Type": "application/json" };

await inBrowser(async (context) => {
  await context.addInitScript((token) => sessionStorage.setItem("canvas.map.token", token), args.token);
  const page = context.pages()[0] || (await context.newPage());
  page.on("pageerror", (err) => console.log(`page error: ${err}`));
  const entries = () => page.$$eval("#items li", (lis) => lis.map((li) => li.dataset.itemId));
  const moreShown = () => page.$eval(".list-more", (el) => !el.hidden && el.getBoundingClientRect().height > 0);
  const scrollToEnd = () => page.$eval("#panel", (panel) => panel.scrollTo(0, panel.scrollHeight));

  await check("the list shows its first 200 entries in creation order and says there are more", async () => {
    await page.goto(`${args.base}/map/${args.project}?auth=token`);
    // Live, and the item listing (read behind the drawing) in.
    await page.waitForFunction(() => document.body.dataset.live === "true" && document.body.dataset.listed === "true", null, { timeout: 30000 });
    const ids = await entries();
    assert(ids.length === 200, `${ids.length} entries shown`);
    assert(ids.every((id, i) => i === 0 || ids[i - 1] < id), "the entries are not in creation (id) order");
    assert(await moreShown(), "nothing says there are more items");
  });

  await check(`scrolling to the end shows the rest, ${count} in all, each once`, async () => {
    // Each scroll to the end brings the "more" marker into view, and the list grows by a step:
    // wait for it to grow (not for a time) before scrolling again.
    for (let round = 0; round < 10; round += 1) {
      const shown = (await entries()).length;
      if (shown >= count) break;
      await scrollToEnd();
      const grew = await page
        .waitForFunction((n) => document.querySelectorAll("#items li").length > n, shown, { timeout: 15000 })
        .then(() => true, () => false);
      if (!grew) break;
    }
    const ids = await entries();
    assert(ids.length === count, `${ids.length} entries after scrolling, not ${count}`);
    assert(new Set(ids).size === ids.length, "an entry is shown twice");
    assert(!(await moreShown()), "the list still says there are more");
  });

  await check("an item created or deleted through REST enters or leaves the list without a reload", async () => {
    const created = await page.evaluate(async ({ api, headers }) => {
      const r = await fetch(`${api}/item/panel/label?jsonCasing=camel`, { method: "POST", headers, body: JSON.stringify({ text: "Last one" }) });
      return (await r.json()).itemId;
    }, { api, headers });
    await page.waitForSelector(`#items li[data-item-id="${created}"]`, { timeout: 15000 });
    const ids = await entries();
    assert(ids[ids.length - 1] === created && ids.length === count + 1, "the new item is not the last entry");
    const first = ids[0];
    const status = await page.evaluate(async ({ api, headers, first }) => (await fetch(`${api}/item/${first}`, { method: "DELETE", headers })).status,
      { api, headers, first });
    assert(status === 200, `DELETE answered ${status}`);
    await page.waitForSelector(`#items li[data-item-id="${first}"]`, { state: "detached", timeout: 15000 });
    assert((await entries()).length === count, "the deleted item's entry is still counted");
  });
});
