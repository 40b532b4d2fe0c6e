// What the browser tests of comment threads share (comments_test.mjs, agent_review_test.mjs):
// opening a map as a person, and recording in the page when each pin, comment and text is first
// shown or gone, by the page's clock (`Date.now()`: the machine's, as the test's), so a latency is
// measured to the moment the page shows it, not to when the test next looks.
import { args } from "./harness.mjs";

// A deadline for what may take long on a loaded machine, never a pause.
export const SETTLE = 15000;

export const pin = (id) => `.comment-pins .comment-pin[data-thread-id="${id}"]`;
export const openThread = (id) => `#comment-thread[data-thread-id="${id}"]:not([hidden])`;
export const ms = (t) => Math.round(t);

// Starts recording on `page`: `pin:{threadId}` and `comment:{commentId}` when first shown, a
// pin when gone, and for each `texts` entry `key → [selector, words]` when the element's text
// first includes the words.
export function watch(page, texts = {}) {
  return page.evaluate((texts) => {
    const seen = (window.__seen = {});
    const gone = (window.__gone = {});
    const look = () => {
      const now = Date.now();
      const shown = new Set();
      for (const el of document.querySelectorAll(".comment-pins .comment-pin")) {
        if (el.getAttribute("display") === "none") continue;
        shown.add(el.dataset.threadId);
        seen[`pin:${el.dataset.threadId}`] ??= now;
        delete gone[el.dataset.threadId];
      }
      for (const key of Object.keys(seen)) if (key.startsWith("pin:") && !shown.has(key.slice(4))) gone[key.slice(4)] ??= now;
      for (const el of document.querySelectorAll("#comment-list li[data-comment-id]")) seen[`comment:${el.dataset.commentId}`] ??= now;
      for (const [key, [selector, words]] of Object.entries(texts)) {
        if ((document.querySelector(selector)?.textContent || "").includes(words)) seen[key] ??= now;
      }
    };
    new MutationObserver(look).observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true, attributeFilter: ["display"] });
    look();
    // What happened on the way, for a failure's message: each comment change the stream brought
    // and each read of a thread, with the page's clock.
    const trail = (window.__trail = []);
    const note = (what) => trail.length < 200 && trail.push(`${Date.now()} ${what}`);
    window.canvasMap.on("comment-change", (change) => note(`stream ${change && change.kind} ${change && change.threadId}`));
    const fetched = window.fetch;
    window.fetch = async (url, init) => {
      const path = new URL(String(url), location.href).pathname;
      const read = /\/comments\//.test(path);
      try {
        const response = await fetched(url, init);
        if (read) note(`${(init && init.method) || "GET"} ${path} ${response.status}`);
        return response;
      } catch (err) {
        if (read) note(`${(init && init.method) || "GET"} ${path} failed: ${err.message}`);
        throw err;
      }
    };
  }, texts);
}

// The trail `watch` keeps on `page`, one line per entry.
export async function trail(page) {
  return (await page.evaluate(() => window.__trail || [])).join("\n  ");
}

// When `page` first showed `key` (waiting for it), in ms since the epoch.
export async function shownAt(page, key) {
  await page.waitForFunction((k) => window.__seen && window.__seen[k], key, { timeout: SETTLE, polling: 20 });
  return page.evaluate((k) => window.__seen[k], key);
}

// When the pin of thread `id` left `page` (waiting for it), in ms since the epoch.
export async function goneAt(page, id) {
  await page.waitForFunction((k) => window.__gone && window.__gone[k], id, { timeout: SETTLE, polling: 20 });
  return page.evaluate((k) => window.__gone[k], id);
}

// Opens the map of `--project` as `who` ({name, token}), signed in with the token, once it is live
// and its comments are read.
export async function openAs(context, who) {
  const page = await context.newPage();
  page.on("pageerror", (err) => console.log(`page error (${who.name}): ${err}`));
  await page.goto(`${args.base}/map/${args.project}?auth=token`);
  await page.fill("#token", who.token);
  await page.click("#sign-in button[type=submit]");
  await page.waitForSelector("body[data-live=true]", { timeout: 20000 });
  await page.waitForSelector("body[data-comments=ready]", { timeout: SETTLE });
  return page;
}
