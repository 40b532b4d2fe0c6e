// The account site over HTTPS, as a deployment serves it (`--account-url https://…`), in headless
// Chromium. Run by tests/tests/e2e/account_https.rs against the REST gateway served over TLS with
// a certificate of a local CA (Chromium is told to accept it: the profile has no trust store to
// add the CA to). Checks:
//   1. a map link opened signed out goes to sign-in; signing in comes back to it, and the map
//      shows its items read with the session alone (the `__Host-` cookie the reads carry);
//   2. the session and CSRF cookies are `__Host-` cookies: Secure, HttpOnly (the session),
//      SameSite=Lax, Path=/, no Domain, and scripts cannot read the session;
//   3. a token is created on /account/api-tokens over HTTPS;
//   4. sign-out clears the cookie and pages go back to sign-in.
//
//   node account_https_test.mjs --base https://127.0.0.1:PORT --project ID --node ITEM
//        --login LOGIN --password PW --screenshot FILE
import { args, assert, check, inBrowser } from "./harness.mjs";

const base = args.base.replace(/\/$/, "");
const mapPath = `/map/${args.project}?node=${args.node}`;

await inBrowser(async (context) => {
  const page = context.pages()[0] || (await context.newPage());
  const problems = [];
  page.on("pageerror", (err) => problems.push(`page error: ${err}`));
  page.on("console", (msg) => {
    if (msg.type() === "error" && /Content Security Policy|Refused to|Mixed Content/i.test(msg.text())) {
      problems.push(`policy on ${page.url()}: ${msg.text()}`);
    }
  });
  // Every request of these pages succeeds (the browser's own favicon probe aside).
  page.on("response", (response) => {
    if (response.status() >= 400 && !response.url().endsWith("/favicon.ico")) {
      problems.push(`${response.status()} for ${response.url()}`);
    }
  });

  await check("a map link signed out goes to sign-in and comes back after it", async () => {
    await page.goto(`${base}${mapPath}`);
    const url = new URL(page.url());
    assert(url.pathname === "/account/sign-in", `went to ${page.url()}`);
    assert(url.searchParams.get("next") === mapPath, `next is ${url.searchParams.get("next")}`);
    await page.fill("#login", args.login);
    await page.fill("#password", args.password);
    await Promise.all([page.waitForURL(`${base}${mapPath}`), page.click("#sign-in")]);
    await page.waitForSelector(`#items li[data-item-id="${args.node}"]`, { timeout: 15000 });
    assert(await page.locator("#sign-in:not([hidden])").count() === 0, "the map asked for a token");
  });

  await check("the cookies are __Host- cookies: Secure, SameSite=Lax, Path=/, no Domain", async () => {
    const cookies = await context.cookies(base);
    const session = cookies.find((c) => c.name === "__Host-canvas_session");
    assert(session, `no __Host-canvas_session among ${cookies.map((c) => c.name)}`);
    assert(session.secure && session.httpOnly && session.sameSite === "Lax" && session.path === "/", JSON.stringify(session));
    assert(session.value.startsWith("svc_ss_"), "a session secret");
    assert(!cookies.some((c) => c.name === "canvas_session"), "no plain-HTTP name on HTTPS");
    const csrf = cookies.find((c) => c.name === "__Host-canvas_csrf");
    assert(csrf && csrf.secure && csrf.path === "/", `csrf cookie: ${JSON.stringify(csrf)}`);
    const visible = await page.evaluate(() => document.cookie);
    assert(!visible.includes("svc_ss_"), "scripts must not read the session");
  });

  await check("a token is created over HTTPS", async () => {
    await page.goto(`${base}/account/api-tokens`);
    await page.fill("#token-name", "https token");
    await Promise.all([page.waitForLoadState("load"), page.click("#create-token")]);
    const token = await page.inputValue("#new-token");
    assert(token.startsWith("svc_tk_"), `shown: ${token}`);
    await page.screenshot({ path: args.screenshot, fullPage: true });
  });

  await check("sign-out clears the cookie and pages go back to sign-in", async () => {
    await Promise.all([page.waitForURL(/\/account\/sign-in/), page.click("#sign-out")]);
    const cookies = await context.cookies(base);
    assert(!cookies.some((c) => c.name === "__Host-canvas_session"), "the session cookie is gone");
    await page.goto(`${base}/account/api-tokens`);
    assert(new URL(page.url()).pathname === "/account/sign-in", `went to ${page.url()}`);
  });

  await check("no script errors, policy refusals or failed requests", async () => {
    assert(problems.length === 0, problems.join("\n"));
  });
}, { ignoreHTTPSErrors: true });
