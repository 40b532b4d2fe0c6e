// The account site in headless Chromium (Debian's /usr/bin/chromium through playwright-core;
// nothing is downloaded), as docs/ACCOUNTS.md describes it. Run by
// tests/tests/e2e/account_browser.rs:
//
//   node account_test.mjs --base URL --project ID --node ITEM --login LOGIN --password PW
//        --link URL --link-name NAME --link-login LOGIN --link-password PW --new-password PW
//        --artifacts DIR --suffix BACKEND
//
// `--login`/`--password` are a user who owns `--project` (with the item `--node`); `--link` is a
// one-time sign-in link of a second user (`--link-*`, whose current password is
// `--link-password`). Checks, as a person would see them:
//   1. a map link opened signed out goes to sign-in, with `next` naming the map;
//   2. a wrong password and an unknown login get the same 401 page;
//   3. signing in from there lands on the same map URL, which shows the item with no token prompt;
//   4. the session cookie is HttpOnly and SameSite=Lax, and works for REST reads but not writes;
//   5. a token created on /account/api-tokens works on the REST API until its row's revoke button;
//   6. /account/projects links the project's map;
//   7. forms posted with a wrong or missing csrf, or from another origin, are refused (403) and
//      create nothing;
//   8. /account/activity lists what happened;
//   9. sign-out ends the session (the old cookie no longer works) and pages go back to sign-in;
//  10. the sign-in link signs the second user in and sets a new password, which then works and
//      the old one no longer does; the used link does not sign in again;
// and that no page reports a script error or a Content-Security-Policy refusal. Full-page
// screenshots go to DIR/account-<page>-<BACKEND>.png. Prints one line per check and
// "N passed, N failed".
import { createServer } from "node:http";
import { join } from "node:path";
import { args, assert, check, inBrowser } from "./harness.mjs";

const base = args.base.replace(/\/$/, "");
const mapPath = `/map/${args.project}?node=${args.node}`;
const itemsUrl = `${base}/api/v2/projects/${args.project}/items`;
const wrongCredentials = "The login or password is not correct.";
const expiredForm = "This form has expired or came from another site.";

const shot = (page, name) => page.screenshot({ path: join(args.artifacts, `account-${name}-${args.suffix}.png`), fullPage: true });
const here = (page) => new URL(page.url());
const bodyText = (page) => page.locator("body").innerText();

/** Fills and submits the sign-in form; returns the answer to the POST. */
async function submitSignIn(page, login, password) {
  await page.fill("#login", login);
  await page.fill("#password", password);
  const [response] = await Promise.all([
    page.waitForResponse((r) => r.request().method() === "POST" && new URL(r.url()).pathname === "/account/sign-in"),
    page.click("#sign-in"),
  ]);
  await page.waitForLoadState();
  return response;
}

/** Presses the sign-out button of the current page (a form posting to /account/sign-out). */
async function signOut(page) {
  const button = page.locator('form[action$="/account/sign-out"] button, form[action$="/account/sign-out"] [type=submit]').first();
  await button.click();
  await page.waitForURL((u) => u.pathname === "/account/sign-in", { timeout: 10000 });
}

/** The session cookie as the browser holds it. */
async function sessionCookie(context) {
  const cookies = await context.cookies(base);
  return cookies.find((c) => c.name === "canvas_session" || c.name === "__Host-canvas_session");
}

/** A REST call from outside the browser, as a script with the token would make it. */
async function rest(url, headers = {}, init = {}) {
  const response = await fetch(url, { redirect: "manual", ...init, headers });
  return { status: response.status, text: await response.text(), location: response.headers.get("location") };
}

/** An origin the browser treats as another site's: 127.0.0.1 and localhost are different sites. */
function otherHost() {
  return new URL(base).hostname === "localhost" ? "127.0.0.1" : "localhost";
}

/** A page on another origin that posts a token-creation form to the account site on load. */
function forgeryServer() {
  const server = createServer((request, response) => {
    const url = new URL(request.url, "http://forger");
    const csrf = url.searchParams.get("csrf");
    const field = csrf ? `<input type="hidden" name="csrf" value="${csrf}">` : "";
    response.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    response.end(`<!doctype html><title>Win a prize</title>
      <form method="POST" action="${base}/account/api-tokens"><input name="name" value="evil">${field}</form>
      <script>document.forms[0].submit()</script>`);
  });
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(server)));
}

await inBrowser(async (context) => {
  const page = context.pages()[0] || (await context.newPage());
  const problems = [];
  page.on("pageerror", (err) => problems.push(`page error on ${page.url()}: ${err}`));
  page.on("console", (message) => {
    if (message.type() === "error" && /Content Security Policy|Refused to/i.test(message.text())) {
      problems.push(`policy on ${page.url()}: ${message.text()}`);
    }
  });
  let token = "";
  let tokenId = "";

  await check("a map link opened signed out goes to sign-in with next naming the map", async () => {
    await page.goto(`${base}${mapPath}`);
    await page.waitForURL((u) => u.pathname === "/account/sign-in", { timeout: 10000 });
    const next = here(page).searchParams.get("next");
    assert(next === mapPath, `next is ${JSON.stringify(next)}, the map link ${mapPath}`);
    await page.waitForSelector("#login");
    await page.waitForSelector("#password");
    await page.waitForSelector("#sign-in");
    await shot(page, "sign-in");
  });

  await check("a wrong password and an unknown login get the same 401 page", async () => {
    await page.goto(`${base}/account/sign-in`);
    const wrong = await submitSignIn(page, args.login, `${args.password}-not`);
    assert(wrong.status() === 401, `a wrong password answers ${wrong.status()}`);
    const wrongText = await bodyText(page);
    assert(wrongText.includes(wrongCredentials), `the 401 page says: ${wrongText}`);
    await shot(page, "sign-in-refused");
    await page.goto(`${base}/account/sign-in`);
    const unknown = await submitSignIn(page, `nobody-${Date.now()}`, args.password);
    assert(unknown.status() === 401, `an unknown login answers ${unknown.status()}`);
    const unknownText = await bodyText(page);
    assert(unknownText === wrongText, `the pages differ:\n${wrongText}\n---\n${unknownText}`);
    assert(!(await sessionCookie(context)), "a refused sign-in set a session cookie");
  });

  await check("signing in from the map link lands on the same map, shown without a token prompt", async () => {
    await page.goto(`${base}${mapPath}`);
    await page.waitForURL((u) => u.pathname === "/account/sign-in", { timeout: 10000 });
    const answer = await submitSignIn(page, args.login, args.password);
    assert(answer.status() === 303, `sign-in answers ${answer.status()}`);
    await page.waitForURL((u) => u.pathname.startsWith("/map/"), { timeout: 10000 });
    const landed = here(page);
    assert(landed.origin === base && landed.pathname + landed.search === mapPath,
      `landed on ${landed.href}, expected ${base}${mapPath}`);
    await page.waitForSelector(`#item-${args.node}`, { timeout: 15000 });
    assert(await page.locator("#sign-in").isHidden(), "the map shows its token prompt");
    assert(await page.locator("#problem").isHidden(), `the map shows a problem: ${await page.locator("#problem").innerText()}`);
  });

  await check("the session cookie is HttpOnly, SameSite=Lax, and serves REST reads but never writes", async () => {
    const cookie = await sessionCookie(context);
    assert(cookie, `no session cookie: ${JSON.stringify(await context.cookies(base))}`);
    assert(cookie.httpOnly && cookie.sameSite === "Lax" && cookie.path === "/", `cookie attributes: ${JSON.stringify(cookie)}`);
    assert(cookie.value.startsWith("svc_ss_"), "the cookie holds a session secret");
    const visible = await page.evaluate(() => document.cookie);
    assert(!visible.includes(cookie.value), "scripts can read the session");
    const headers = { cookie: `${cookie.name}=${cookie.value}` };
    const read = await rest(itemsUrl, headers);
    assert(read.status === 200, `a REST read with the cookie answers ${read.status}: ${read.text}`);
    const write = await rest(`${base}/api/v2/projects/${args.project}/item/panel/label`,
      { ...headers, "content-type": "application/json", origin: base },
      { method: "POST", body: JSON.stringify({ text: "ridden" }) });
    assert(write.status === 401, `a REST write with only the cookie answers ${write.status}: ${write.text}`);
  });

  await check("a token created on the tokens page works on the REST API", async () => {
    await page.goto(`${base}/account/api-tokens`);
    await page.fill("#token-name", "browser token");
    await page.click("#create-token");
    await page.waitForSelector("#new-token", { timeout: 10000 });
    await page.waitForSelector("#copy-token");
    token = (await page.locator("#new-token").evaluate((el) => ("value" in el ? el.value : el.textContent))).trim();
    assert(/^svc_tk_\S{20,}$/.test(token), `#new-token shows ${JSON.stringify(token)}`);
    await shot(page, "tokens");
    const used = await rest(itemsUrl, { authorization: `Bearer ${token}` });
    assert(used.status === 200, `GET items with the new token answers ${used.status}: ${used.text}`);
    // The list shows the token by name and prefix, never the secret.
    await page.goto(`${base}/account/api-tokens`);
    const row = page.locator("tr[data-token-id]", { hasText: "browser token" });
    assert((await row.count()) === 1, `${await row.count()} rows name "browser token"`);
    tokenId = await row.getAttribute("data-token-id");
    const rowText = await row.innerText();
    assert(rowText.includes(token.slice(0, 11)), `the row does not show the prefix ${token.slice(0, 11)}: ${rowText}`);
    assert(!(await page.content()).includes(token), "the list shows the whole secret");
  });

  await check("the row's revoke button revokes the token: the REST call then answers 401", async () => {
    assert(tokenId, "no token row from the previous check");
    const row = page.locator(`tr[data-token-id="${tokenId}"]`);
    const [answer] = await Promise.all([
      page.waitForResponse((r) => r.request().method() === "POST" && r.url().includes(`/account/api-tokens/${tokenId}/revoke`)),
      row.locator("button.revoke").click(),
    ]);
    assert(answer.status() === 303, `revoke answers ${answer.status()}`);
    await page.waitForURL((u) => u.pathname === "/account/api-tokens", { timeout: 10000 });
    const refused = await rest(itemsUrl, { authorization: `Bearer ${token}` });
    assert(refused.status === 401, `GET items with the revoked token answers ${refused.status}`);
    const still = page.locator(`tr[data-token-id="${tokenId}"] button.revoke`);
    assert((await still.count()) === 0, "the revoked token still offers a revoke button");
  });

  await check("the projects page links the project's map", async () => {
    await page.goto(`${base}/account/projects`);
    const links = page.locator("a.map-link");
    const hrefs = await links.evaluateAll((all) => all.map((a) => a.href));
    const wanted = `${base}/map/${args.project}`;
    assert(hrefs.includes(wanted), `map links ${JSON.stringify(hrefs)} lack ${wanted}`);
    await shot(page, "projects");
    await page.locator(`a.map-link[href$="/map/${args.project}"]`).first().click();
    await page.waitForSelector(`#item-${args.node}`, { timeout: 15000 });
    assert(await page.locator("#sign-in").isHidden(), "the map asks for a token");
  });

  await check("a form with a wrong or missing csrf is refused with the expired-form page", async () => {
    for (const tamper of ["wrong", "missing"]) {
      await page.goto(`${base}/account/api-tokens`);
      await page.fill("#token-name", "evil");
      await page.locator("#token-name").evaluate((input, how) => {
        const field = input.form.querySelector('input[name="csrf"]');
        if (!field) throw new Error("the create form has no csrf field");
        if (how === "missing") field.remove();
        else field.value = "a-forged-value";
      }, tamper);
      const [answer] = await Promise.all([
        page.waitForResponse((r) => r.request().method() === "POST" && new URL(r.url()).pathname === "/account/api-tokens"),
        page.click("#create-token"),
      ]);
      assert(answer.status() === 403, `a ${tamper} csrf answers ${answer.status()}`);
      const text = await bodyText(page);
      assert(text.includes(expiredForm), `the ${tamper}-csrf page says: ${text}`);
      assert((await page.locator("#new-token").count()) === 0, `a ${tamper} csrf still showed a new token`);
    }
  });

  await check("forms posted from another origin are refused with 403 and create nothing", async () => {
    const server = await forgeryServer();
    const port = server.address().port;
    try {
      // Same site but another origin (the Lax cookie rides along), then another site.
      for (const host of [new URL(base).hostname, otherHost()]) {
        for (const csrf of ["", "a-forged-value"]) {
          const forger = `http://${host}:${port}/?csrf=${csrf}`;
          // "commit": the forger's page navigates away on load, which would interrupt a full goto.
          const [answer] = await Promise.all([
            page.waitForResponse((r) => r.request().method() === "POST" && r.url() === `${base}/account/api-tokens`),
            page.goto(forger, { waitUntil: "commit" }),
          ]);
          await page.waitForLoadState();
          assert(answer.status() === 403, `a post from ${forger} answers ${answer.status()}`);
        }
      }
    } finally {
      server.close();
    }
    await page.goto(`${base}/account/api-tokens`);
    assert(here(page).pathname === "/account/api-tokens", `the forged posts signed the person out: at ${page.url()}`);
    const evil = await page.locator("tr[data-token-id]", { hasText: "evil" }).count();
    assert(evil === 0, `${evil} tokens named "evil" exist`);
    assert((await page.locator("tr[data-token-id]", { hasText: "browser token" }).count()) === 1, "the list lost the real token");
  });

  await check("the activity page lists the sign-in and the token's creation and revocation", async () => {
    await page.goto(`${base}/account/activity`);
    const text = await bodyText(page);
    assert(text.includes("browser token"), `the activity page does not mention the token: ${text}`);
    assert(!text.includes("evil"), `the refused forgeries left a record naming their token: ${text}`);
    await shot(page, "activity");
  });

  await check("sign-out ends the session: pages go to sign-in and the old cookie stops working", async () => {
    const cookie = await sessionCookie(context);
    assert(cookie, "not signed in before signing out");
    await page.goto(`${base}/account/projects`);
    await signOut(page);
    await page.goto(`${base}/account/api-tokens`);
    assert(here(page).pathname === "/account/sign-in", `/account/api-tokens after sign-out shows ${page.url()}`);
    // The server forgot the session, not only the browser: replaying the old cookie fails.
    const headers = { cookie: `${cookie.name}=${cookie.value}` };
    const account = await rest(`${base}/account/api-tokens`, headers);
    assert(account.status >= 300 && account.status < 400 && (account.location || "").includes("/account/sign-in"),
      `the old cookie on /account/api-tokens answers ${account.status} ${account.location}`);
    const read = await rest(itemsUrl, headers);
    assert(read.status === 401, `the old cookie on a REST read answers ${read.status}`);
  });

  await check("the sign-in link signs the second user in and sets a new password", async () => {
    // Signed out, the browser may still hold the dead cookie: a new session is a new value.
    const before = (await sessionCookie(context))?.value;
    await page.goto(args.link);
    await page.waitForSelector("#continue");
    const text = await bodyText(page);
    assert(text.includes(args["link-name"]) || text.includes(args["link-login"]),
      `the link page does not say whose link it is: ${text}`);
    assert((await sessionCookie(context))?.value === before, "opening the link page signed in (prefetches must not use it)");
    await shot(page, "link");
    await page.fill("#new-password", args["new-password"]);
    await page.click("#continue");
    await page.waitForURL((u) => u.pathname === "/account/projects", { timeout: 10000 });
    const after = (await sessionCookie(context))?.value;
    assert(after && after !== before, "the link did not sign in");
    const mine = await page.locator("a.map-link").count();
    assert(mine === 0, `the second user, who has no project, sees ${mine} map links`);
  });

  await check("after sign-out the new password signs in, the old one does not, and the link is used up", async () => {
    await signOut(page);
    const old = await submitSignIn(page, args["link-login"], args["link-password"]);
    assert(old.status() === 401, `the old password answers ${old.status()}`);
    const before = (await sessionCookie(context))?.value;
    await page.goto(args.link);
    const reused = await page.locator("#continue").count().then(async (n) => {
      if (n === 0) return null; // the page already says the link is used up
      const [answer] = await Promise.all([
        page.waitForResponse((r) => r.request().method() === "POST" && new URL(r.url()).pathname === "/account/link"),
        page.click("#continue"),
      ]);
      return answer.status();
    });
    assert(reused === null || reused >= 400, `a used link answers ${reused}`);
    assert((await sessionCookie(context))?.value === before, "a used link signed in again");
    await page.goto(`${base}/account/sign-in`);
    const fresh = await submitSignIn(page, args["link-login"], args["new-password"]);
    assert(fresh.status() === 303, `the new password answers ${fresh.status()}`);
    await page.waitForURL((u) => u.pathname === "/account/projects", { timeout: 10000 });
  });

  await check("no page reported a script error or a Content-Security-Policy refusal", async () => {
    assert(problems.length === 0, problems.join("\n"));
  });
});
