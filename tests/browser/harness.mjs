// What the browser tests share: their command-line arguments, `check`/`assert` with a
// "N passed, N failed" summary, and headless Chromium (Debian's /usr/bin/chromium through
// playwright-core from $CANVAS_BROWSER_DIR; nothing is downloaded) with a fresh profile and the
// flags it needs on this closed network.
import { createRequire } from "node:module";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** `--name value` pairs of the command line. */
export const args = Object.fromEntries(
  process.argv.slice(2).reduce((pairs, arg, i, all) => (arg.startsWith("--") ? [...pairs, [arg.slice(2), all[i + 1]]] : pairs), []),
);
/** Every value of a flag given more than once (`--url A --url B`); `args` keeps only the last. */
export function argValues(name) {
  const all = process.argv.slice(2);
  return all.flatMap((arg, i) => (arg === `--${name}` && i + 1 < all.length ? [all[i + 1]] : []));
}

const packages = process.env.CANVAS_BROWSER_DIR || join(process.env.HOME || "/root", ".cache/canvas-browser");
const { chromium } = createRequire(join(packages, "package.json"))("playwright-core");

let passed = 0;
let failed = 0;

/**
 * With `--dev-assets DIR`, the map page's scripts and style come from DIR instead of the binary
 * (to try a change to them without rebuilding), in every context of the run.
 */
async function devAssets(context) {
  if (!args["dev-assets"]) return context;
  await context.route("**/map/assets/*", (route) => {
    const file = new URL(route.request().url()).pathname.split("/").pop();
    const type = file.endsWith(".css") ? "text/css" : "text/javascript";
    route.fulfill({ status: 200, contentType: type, body: readFileSync(join(args["dev-assets"], file)) });
  });
  return context;
}

/** Runs one named check; a failure is printed and counted, and the next check still runs. */
export async function check(name, body) {
  try {
    await body();
    passed += 1;
    console.log(`ok   ${name}`);
  } catch (err) {
    failed += 1;
    console.log(`FAIL ${name}: ${err.stack || err}`);
  }
}

export function assert(condition, message) {
  if (!condition) throw new Error(message);
}

/**
 * Runs `body(context)` in a fresh browser, then prints the summary and exits (1 on a failure).
 * `options` are added to the browser context's (`ignoreHTTPSErrors` for a local CA's certificate).
 */
export async function inBrowser(body, options = {}) {
  const profile = mkdtempSync(join(tmpdir(), "canvas-chromium-"));
  // The fresh profile goes in as Chromium's --user-data-dir (Playwright passes it).
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CANVAS_CHROMIUM || "/usr/bin/chromium",
    headless: true,
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
           "--disable-component-update", "--disable-sync"],
    viewport: { width: 1280, height: 800 },
    ...options,
  });
  try {
    await body(await devAssets(context));
  } finally {
    await context.close();
    rmSync(profile, { recursive: true, force: true });
  }
  console.log(`${passed} passed, ${failed} failed`);
  process.exit(failed === 0 ? 0 : 1);
}

/**
 * Runs `body(newContext)` with one browser in which each `newContext(options)` is a separate
 * person (own cookies, storage and tabs), then prints the summary and exits (1 on a failure).
 */
export async function inBrowsers(body) {
  const browser = await chromium.launch({
    executablePath: process.env.CANVAS_CHROMIUM || "/usr/bin/chromium",
    headless: true,
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
           "--disable-component-update", "--disable-sync"],
  });
  const newContext = async (options = {}) => devAssets(await browser.newContext({ viewport: { width: 1280, height: 800 }, ...options }));
  try {
    await body(newContext);
  } finally {
    await browser.close();
  }
  console.log(`${passed} passed, ${failed} failed`);
  process.exit(failed === 0 ? 0 : 1);
}

/** Prints the summary and exits (1 on a failure), for a run without a browser of its own. */
export function finish() {
  console.log(`${passed} passed, ${failed} failed`);
  process.exit(failed === 0 ? 0 : 1);
}

/** A check that cannot run here: printed, counted neither as passed nor failed. */
export function skip(name, why) {
  console.log(`skip ${name}: ${why}`);
}
