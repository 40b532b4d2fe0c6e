// A person answering an MCP client's OAuth authorization request in headless Chromium
// (Debian's /usr/bin/chromium through playwright-core; nothing is downloaded). Run by
// tests/mcp/oauth_e2e.py (the official MCP SDK's redirect handler) and by
// tests/tests/e2e/account_browser.rs:
//
//   node oauth_consent.mjs --authorize-url URL [--authorize-url URL ...]
//        (--sign-in-url LINK [--new-password PW] | --login LOGIN --password PW)
//        [--deny] [--client-name NAME] [--client-host HOST] [--screenshot FILE]
//
// With --sign-in-url it first opens the one-time sign-in link and presses #continue (setting
// --new-password when given). Then, for each authorization URL in turn: when the account site
// asks to sign in first, it signs in with --login/--password and checks it is sent back to the
// authorization request; on the consent page it checks the page names the client (and, with
// --client-host, the host that publishes its metadata document) and where the answer goes, presses #approve (or #deny with --deny), and waits until the browser arrives at
// the request's loopback redirect_uri (the caller's callback server answers it) with a `code`
// (or `error=access_denied`) and the request's `state`. The code itself is left to the caller.
// Several URLs share one browser, so one sign-in serves them all. Prints one line per check
// and "N passed, N failed"; exits 1 on a failure.
import { args, argValues, assert, check, inBrowser } from "./harness.mjs";

const authorizations = argValues("authorize-url");
const deny = "deny" in args;
if (authorizations.length === 0) {
  console.log("FAIL usage: at least one --authorize-url is needed");
  process.exit(2);
}

/** Waits for the page to be at a URL `accepts`; a timeout names where the browser is instead. */
async function arrive(page, accepts, what, problems) {
  try {
    await page.waitForURL(accepts, { timeout: 15000 });
  } catch (err) {
    const text = (await page.locator("body").innerText().catch(() => "")).slice(0, 400);
    throw new Error(`${what}: the browser is at ${page.url()} showing ${JSON.stringify(text)}; ` +
      `problems: ${JSON.stringify(problems)} (${err.message.split("\n")[0]})`);
  }
}

await inBrowser(async (context) => {
  const page = context.pages()[0] || (await context.newPage());
  // Script errors and Content-Security-Policy refusals: a policy that blocks the redirect to
  // the client (form-action) shows up here first.
  const problems = [];
  page.on("pageerror", (err) => problems.push(`page error: ${err}`));
  page.on("console", (message) => {
    if (message.type() === "error" && /Content Security Policy|Refused to/i.test(message.text())) {
      problems.push(`policy: ${message.text()}`);
    }
  });

  if (args["sign-in-url"]) {
    await check("the one-time sign-in link signs in", async () => {
      const link = new URL(args["sign-in-url"]);
      await page.goto(link.href);
      await page.waitForSelector("#continue");
      if (args["new-password"]) await page.fill("#new-password", args["new-password"]);
      await page.click("#continue");
      await arrive(page, (u) => u.origin === link.origin && u.pathname === "/account/projects", "after #continue", problems);
    });
  }

  for (const [index, address] of authorizations.entries()) {
    const request = new URL(address);
    const redirectUri = request.searchParams.get("redirect_uri");
    const state = request.searchParams.get("state");
    const name = `authorization ${index + 1} of ${authorizations.length} ${deny ? "denied" : "approved"} in the browser`;
    await check(name, async () => {
      problems.length = 0; // each authorization reports its own
      assert(redirectUri && state, `the authorization URL lacks redirect_uri or state: ${address}`);
      await page.goto(request.href);
      const landed = new URL(page.url());
      if (landed.pathname === "/account/sign-in") {
        // Signed out: the account site asks to sign in first and must come back here.
        assert(args.login && args.password, "the account site asks to sign in, and no --login/--password was given");
        const next = landed.searchParams.get("next") || "";
        assert(next.startsWith(request.pathname), `sign-in's next ${JSON.stringify(next)} does not return to ${request.pathname}`);
        await page.fill("#login", args.login);
        await page.fill("#password", args.password);
        await page.click("#sign-in");
        await arrive(page, (u) => u.origin === request.origin && u.pathname === request.pathname,
          "after signing in", problems);
      }
      await page.waitForSelector(deny ? "#deny" : "#approve", { timeout: 15000 }).catch(async () => {
        const text = (await page.locator("body").innerText().catch(() => "")).slice(0, 400);
        throw new Error(`no consent page at ${page.url()}: ${JSON.stringify(text)}`);
      });
      const text = await page.locator("body").innerText();
      const answerGoesTo = new URL(redirectUri).host;
      assert(text.includes(answerGoesTo), `the consent page does not say the answer goes to ${answerGoesTo}: ${text}`);
      if (args["client-name"]) {
        assert(text.includes(args["client-name"]), `the consent page does not name the client ${args["client-name"]}: ${text}`);
      }
      if (args["client-host"]) {
        const host = await page.locator("#client-host").innerText().catch(() => "(none)");
        assert(host === args["client-host"], `the consent page names ${host} as publishing the client, not ${args["client-host"]}`);
      }
      if (args.screenshot && index === 0) {
        await page.screenshot({ path: args.screenshot, fullPage: true });
        console.log(`screenshot: ${args.screenshot}`);
      }
      await page.click(deny ? "#deny" : "#approve");
      await arrive(page, (u) => u.href.startsWith(redirectUri), `after ${deny ? "#deny" : "#approve"}`, problems);
      const answer = new URL(page.url()).searchParams;
      assert(answer.get("state") === state, `the redirect carries state ${answer.get("state")}, the request ${state}`);
      if (deny) {
        assert(answer.get("error") === "access_denied" && !answer.has("code"),
          `a denial must carry error=access_denied and no code: ${answer}`);
      } else {
        assert(answer.get("code") && !answer.has("error"), `an approval must carry a code and no error: ${answer}`);
      }
      assert(problems.length === 0, `script errors or policy refusals: ${JSON.stringify(problems)}`);
    });
  }
});
