// The API reference page (/api/docs) in headless Chromium (Debian's /usr/bin/chromium through
// playwright-core; nothing is downloaded). Run by tests/tests/e2e/openapi.rs:
//
//   node docs_test.mjs --base URL --operations N
//
// Checks that the vendored Swagger UI renders every operation of /api/openapi.json, under the
// page's Content-Security-Policy (no violation reported), with no script error and no request
// leaving the origin. Prints one line per check and "N passed, N failed".
import { args, assert, check, inBrowser } from "./harness.mjs";

await inBrowser(async (context) => {
  const page = context.pages()[0] || (await context.newPage());
  const problems = [];
  const elsewhere = [];
  page.on("pageerror", (err) => problems.push(`page error: ${err}`));
  page.on("console", (message) => {
    if (message.type() === "error" && /Content Security Policy|Refused to/i.test(message.text())) {
      problems.push(`policy: ${message.text()}`);
    }
  });
  await page.route("**/*", (route) => {
    const url = route.request().url();
    if (url.startsWith(args.base) || url.startsWith("data:")) return route.continue();
    elsewhere.push(url);
    return route.abort();
  });

  await check("the reference renders every operation of the document", async () => {
    await page.goto(`${args.base}/api/docs`);
    await page.waitForSelector(".opblock", { timeout: 20000 });
    const title = await page.locator(".info .title").textContent();
    assert(title.includes("Canvas service REST API"), `title: ${title}`);
    // The first operation is drawn before the last: wait for them all (a deadline, not a pause).
    await page
      .waitForFunction((n) => document.querySelectorAll(".opblock").length >= n, Number(args.operations), { timeout: 20000 })
      .catch(() => {});
    const count = await page.locator(".opblock").count();
    assert(count === Number(args.operations), `${count} operations shown, the document has ${args.operations}`);
  });

  await check("an operation opens and shows its schema", async () => {
    await page.locator(".opblock-summary").first().click();
    await page.waitForSelector(".opblock-body", { timeout: 10000 });
    const radius = await page.evaluate(() => getComputedStyle(document.querySelector(".opblock")).borderRadius);
    assert(radius !== "0px", "the vendored stylesheet did not apply");
  });

  await check("no policy violation, script error or request to another origin", async () => {
    assert(problems.length === 0, problems.join("\n"));
    assert(elsewhere.length === 0, `requests elsewhere: ${elsewhere.join(", ")}`);
  });
});
