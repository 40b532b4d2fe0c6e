// Checks the client's webhook receiver (src/webhooks.ts) against calls the service really sent
// (tests/tests/e2e/generated_clients.rs writes them to CANVAS_CALLS_FILE): every one is accepted
// and typed by its kind, and each rule refuses what it should. Prints one JSON line for the test.
import { readFileSync } from "node:fs";
import { WebhookReceiver, WebhookRejected, type WebhookPayload } from "./src/index.js";

const env = (name: string): string => {
  const value = process.env[name];
  if (value === undefined) throw new Error(`${name} is not set`);
  return value;
};
const baseUrl = env("CANVAS_BASE_URL");
const projectId = env("CANVAS_PROJECT_ID");
const webhookId = env("CANVAS_WEBHOOK_ID");
interface Call {
  headers: Record<string, string>;
  body_b64: string;
}
const calls = JSON.parse(readFileSync(env("CANVAS_CALLS_FILE"), "utf8")) as Call[];
const body = (call: Call): Uint8Array => Uint8Array.from(Buffer.from(call.body_b64, "base64"));

let keyFetches = 0;
const counting = (input: string): Promise<Response> => {
  keyFetches += 1;
  return fetch(input);
};

/** What a change says, read through its type: each kind's own members. */
function describe(payload: WebhookPayload): string {
  const change = payload.changes[0];
  switch (change?.kind) {
    case "item.created":
      return `item.created ${change.subject.type} ${Object.keys(change.new).length > 0 ? "with properties" : "empty"}`;
    case "item.updated":
      return `item.updated ${change.subject.type} ${Object.keys(change.new).sort().join(",")}`;
    case "item.deleted":
      return `item.deleted ${change.subject.type}`;
    case "user.added":
    case "user.roleChanged":
      return `${change.kind} ${change.new.role}`;
    case "user.removed":
      return "user.removed";
    case "webhook.disabled":
      return `webhook.disabled ${change.subject.id} ${change.new.reason ?? "without a reason"}`;
    case "webhook.deliveryExhausted":
      return `webhook.deliveryExhausted ${change.new.eventKind} after ${change.new.attempts}`;
    case "ping":
      return `ping ${change.occurredAt.length > 0}`;
    default:
      return "unknown";
  }
}

async function reason(attempt: () => Promise<unknown>): Promise<string> {
  try {
    await attempt();
    return "accepted";
  } catch (error) {
    return error instanceof WebhookRejected ? error.reason : `error: ${String(error)}`;
  }
}

const receiver = new WebhookReceiver({ baseUrl, projectId, webhookId, fetch: counting });
const described: string[] = [];
for (const call of calls) {
  const verified = await receiver.verify(call.headers, body(call));
  if (verified.duplicate) throw new Error("a first delivery was taken for a repeat");
  described.push(describe(verified.payload));
}
const first = calls[0]!;
const event = calls.find((c) => !Buffer.from(c.body_b64, "base64").toString().includes('"kind":"ping"'))!;
const ping = calls.find((c) => Buffer.from(c.body_b64, "base64").toString().includes('"kind":"ping"'))!;
const tampered = Uint8Array.from([...body(first), 0x20]);
const checks = {
  repeat: (await receiver.verify(first.headers, body(first))).duplicate ? "duplicate" : "not duplicate",
  tampered: await reason(() => receiver.verify(first.headers, tampered)),
  later: await reason(() => new WebhookReceiver({ baseUrl, projectId, webhookId, now: () => Date.now() / 1000 + 400 }).verify(first.headers, body(first))),
  otherProject: await reason(() => new WebhookReceiver({ baseUrl, projectId: crypto.randomUUID(), webhookId }).verify(event.headers, body(event))),
  otherWebhook: await reason(() => new WebhookReceiver({ baseUrl, projectId, webhookId: crypto.randomUUID() }).verify(event.headers, body(event))),
  pingWithoutWebhook: await reason(() => new WebhookReceiver({ baseUrl, projectId }).verify(ping.headers, body(ping))),
  unknownKid: await reason(() =>
    receiver.verify({ ...first.headers, "webhook-signature": `es256;kid=nobody;${Buffer.alloc(64, 1).toString("base64")}` }, body(first)),
  ),
  twoParts: await reason(() => receiver.verify({ ...first.headers, "webhook-signature": "es256;kid=x" }, body(first))),
  rs256: await reason(() =>
    receiver.verify({ ...first.headers, "webhook-signature": first.headers["webhook-signature"]!.replace("es256", "rs256") }, body(first)),
  ),
};
console.log(JSON.stringify({ accepted: described.length, described, checks, keyFetches }));
