// An agent reviews a thread through MCP while a person watches the map, in headless Chromium
// (Debian's /usr/bin/chromium through playwright-core; nothing is downloaded). Run by
// tests/tests/e2e/map_agent_review.rs:
//
//   node agent_review_test.mjs --base URL --project ID --item ID --thread ID --token TOKEN \
//        --python PATH --agent PATH --mcp URL --agent-token TOKEN [--shots DIR --label NAME]
//
// The person (`--token`) has asked on the item for it to be renamed (the thread `--thread`). Their
// map is open, with that thread open in the comments panel. The agent (tests/mcp/agent_review.py,
// the official MCP Python SDK, run here as a child with `--python`) takes one step each time this
// script writes a line to it: it lists the open threads, replies, renames the item, resolves the
// thread. After each step the person's map must show it (the reply in the open thread, the new
// text on the item, the pin gone and the thread marked resolved) within a bound, measured from
// the step's answer to the moment the page showed it (a few ms below zero when the page showed it
// before the agent had read the answer), and must show nothing of a step not yet taken. Prints the latencies, one line per check and "N passed, N failed".
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { join } from "node:path";
import { args, assert, check, inBrowsers } from "./harness.mjs";
import { SETTLE, goneAt, ms, openAs, openThread, pin, shownAt, trail, watch } from "./comments_watch.mjs";

// Each step shows on the person's map within this long of the agent's answer (the change
// stream's live changes show "within about a second"; the bound leaves room for a loaded machine).
const LIVE = 2000;
const timings = {};

// The agent, one step per line written to it; each step's JSON line as it answers.
function startAgent() {
  const child = spawn(args.python, [args.agent, "--url", args.mcp, "--token", args["agent-token"], "--project", args.project], {
    stdio: ["pipe", "pipe", "inherit"],
  });
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  const exited = new Promise((resolve) => child.on("exit", (code) => resolve(code)));
  const next = async () => {
    const timer = new Promise((_, reject) => setTimeout(() => reject(new Error("the agent said nothing within 60 s")), 60000));
    for (;;) {
      const { value, done } = await Promise.race([lines.next(), timer]);
      if (done) throw new Error(`the agent ended (exit ${await exited})`);
      console.log(`agent: ${value}`);
      try {
        return JSON.parse(value);
      } catch {
        // The SDK's own output: not a step.
      }
    }
  };
  return {
    next,
    async step(name) {
      child.stdin.write("go\n");
      const said = await next();
      assert(said.step === name, `the agent's step ${said.step}, not ${name}: ${JSON.stringify(said)}`);
      assert(!said.error, `the agent's ${name} failed: ${said.error}`);
      return said;
    },
    async end() {
      child.stdin.end();
      return exited;
    },
  };
}

await inBrowsers(async (newContext) => {
  const { item, thread } = args;
  const text = `.drawing #item-${item}`;
  const person = await openAs(await newContext(), { name: "person", token: args.token });
  await watch(person, { renamed: [text, "Billing"] });
  const agent = startAgent();
  let reply = null;

  await check("the person's map shows the open thread's pin on the item; the thread opens in the panel", async () => {
    await person.waitForSelector(pin(thread), { timeout: SETTLE });
    await person.click(pin(thread));
    await person.waitForSelector(openThread(thread), { timeout: SETTLE });
    assert((await person.locator(text).textContent()).includes("Invoices"), "the item shows its old text");
    const connected = await agent.next();
    assert(connected.step === "connected" && connected.protocol, `the agent connected: ${JSON.stringify(connected)}`);
  });

  await check("the agent lists the open threads and finds the one on the item, asking for Billing", async () => {
    const listed = await agent.step("list");
    assert(listed.threadId === thread && listed.itemId === item && listed.name === "Billing", `the agent's pick: ${JSON.stringify(listed)}`);
    assert(listed.open.includes(thread), `the thread is among the open ones: ${JSON.stringify(listed.open)}`);
    // Reading changes nothing: one comment in the open thread, the old text, the pin.
    assert((await person.locator("#comment-list li[data-comment-id]").count()) === 1, "no reply yet");
    assert(!(await person.evaluate(() => window.__seen.renamed)), "not renamed yet");
  });

  await check("the agent replies; the reply shows in the thread the person has open", async () => {
    reply = await agent.step("reply");
    const seen = ms((await shownAt(person, `comment:${reply.commentId}`)) - reply.at);
    timings.replySeen = seen;
    console.log(`the person saw the reply ${seen} ms after the agent's answer`);
    if (seen >= LIVE) console.log(`the page's trail:\n  ${await trail(person)}`);
    assert(seen < LIVE, `the reply showed after ${seen} ms`);
    const shown = await person.locator(`#comment-list li[data-comment-id="${reply.commentId}"]`).textContent();
    assert(shown.includes("Renaming it to Billing now."), `the reply as shown: ${shown}`);
    await person.waitForFunction((sel) => /1 reply\b/.test(document.querySelector(sel)?.getAttribute("aria-label") || ""), pin(thread), { timeout: SETTLE });
    assert(!(await person.evaluate(() => window.__seen.renamed)), "not renamed yet");
    assert((await person.locator(pin(thread)).count()) === 1, "the pin is still there");
  });

  await check("the agent renames the item; its new text shows on the person's map", async () => {
    const renamed = await agent.step("rename");
    assert(renamed.before === "Invoices" && renamed.after === "Billing", `the agent read and wrote: ${JSON.stringify(renamed)}`);
    const seen = ms((await shownAt(person, "renamed")) - renamed.at);
    timings.renameSeen = seen;
    console.log(`the person saw the new text ${seen} ms after the agent's answer`);
    if (seen >= LIVE) console.log(`the page's trail:\n  ${await trail(person)}`);
    assert(seen < LIVE, `the new text showed after ${seen} ms`);
    assert(!(await person.locator(text).textContent()).includes("Invoices"), "the old text is gone");
    assert((await person.locator(pin(thread)).count()) === 1, "the thread is still open");
  });

  await check("the agent resolves the thread; its pin leaves the person's map and the thread shows resolved", async () => {
    const resolved = await agent.step("resolve");
    assert(resolved.resolved === true && !resolved.open.includes(thread), `resolved and no longer open: ${JSON.stringify(resolved)}`);
    const gone = ms((await goneAt(person, thread)) - resolved.at);
    timings.pinGone = gone;
    console.log(`the pin went ${gone} ms after the agent's answer`);
    if (gone >= LIVE) console.log(`the page's trail:\n  ${await trail(person)}`);
    assert(gone < LIVE, `the pin went after ${gone} ms`);
    await person.waitForFunction(() => /\(resolved\)/.test(document.getElementById("comment-thread-title")?.textContent || ""), null, { timeout: SETTLE });
    assert((await person.locator("#comment-resolve").textContent()) === "Reopen", "the person is offered to reopen it");
    const code = await agent.end();
    assert(code === 0, `the agent exits 0, not ${code}`);
    if (args.shots) await person.screenshot({ path: join(args.shots, `agent-review-${args.label || "run"}.png`) });
  });

  console.log(`timings: ${JSON.stringify(timings)}`);
});
