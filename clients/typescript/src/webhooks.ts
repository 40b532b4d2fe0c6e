// Receiving the service's webhook calls: the spec's six receiver rules (docs/WEBHOOKS.md), with
// the bodies typed by the OpenAPI document's `webhooks` section. Hand-written, like index.ts;
// only Node's (or a browser's) WebCrypto and fetch are used.
//
//   const receiver = new WebhookReceiver({ baseUrl, projectId, webhookId });
//   const verified = await receiver.verify(request.headers, rawBody); // throws WebhookRejected
//   if (!verified.duplicate) handle(verified.payload);               // payload.changes[0].kind …
import type { components } from "./schema.js";

type Schemas = components["schemas"];

/** A call's body, typed by its change's kind (the event catalog, `GET /api/v2/webhooks/event-types`). */
export type WebhookPayload =
  | Schemas["WebhookPayloadItemCreated"]
  | Schemas["WebhookPayloadItemUpdated"]
  | Schemas["WebhookPayloadItemDeleted"]
  | Schemas["WebhookPayloadUserAdded"]
  | Schemas["WebhookPayloadUserRoleChanged"]
  | Schemas["WebhookPayloadUserRemoved"]
  | Schemas["WebhookPayloadWebhookDisabled"]
  | Schemas["WebhookPayloadWebhookDeliveryExhausted"]
  | Schemas["WebhookPayloadPing"];

/** Why a call was refused; answer it with a 4xx and do not act on it. */
export type RejectionReason =
  | "malformed-signature" // rule 1: not `es256;kid=<kid>;<base64 of 64 bytes>`
  | "unknown-key" // rule 5: no published key has the kid, even after reloading the key set
  | "bad-signature" // rule 1: the signature does not verify over id, timestamp and raw body
  | "stale-timestamp" // rule 2: missing, not a number, or more than the tolerance from now
  | "wrong-identity" // rule 3: `projectId` or `webhookId` are not the registered ones
  | "malformed-body"; // the signed body is not the JSON of a call

export class WebhookRejected extends Error {
  constructor(
    readonly reason: RejectionReason,
    message: string,
  ) {
    super(`${reason}: ${message}`);
    this.name = "WebhookRejected";
  }
}

export interface WebhookReceiverOptions {
  /** The service's origin; the key set is `GET {baseUrl}/api/v2/webhooks/keys`. */
  baseUrl: string;
  /** The project the webhook was registered in (rule 3). */
  projectId: string;
  /** The registered webhook's id (rule 3); a test call (`ping`, `webhookId: null`) is accepted without it. */
  webhookId?: string;
  /** Rule 2: the largest difference from now, in seconds (the spec's 300). */
  toleranceSecs?: number;
  /** Rule 4: how many delivery ids are remembered (the oldest are forgotten first). */
  rememberIds?: number;
  /** The clock, in Unix seconds (tests). */
  now?: () => number;
  /** Another fetch (tests, proxies); defaults to the global one. */
  fetch?: (input: string) => Promise<Response>;
}

export interface Verified {
  /** Rule 4: this `Webhook-Id` was accepted before; the call needs no handling again. */
  duplicate: boolean;
  payload: WebhookPayload;
}

/** Rule 5: a key set is kept at most this long (seconds), less when `Cache-Control` says so. */
export const KEY_CACHE_MAX_AGE_SECS = 300;
/** An unknown kid reloads the key set at most this often (seconds), so forged kids cannot flood the service. */
const UNKNOWN_KID_RELOAD_SECS = 10;

const decoder = new TextDecoder();
const encoder = new TextEncoder();

function header(headers: Headers | Record<string, string | string[] | undefined>, name: string): string {
  if (typeof (headers as Headers).get === "function") {
    return (headers as Headers).get(name) ?? "";
  }
  const record = headers as Record<string, string | string[] | undefined>;
  const found = Object.keys(record).find((key) => key.toLowerCase() === name.toLowerCase());
  const value = found === undefined ? undefined : record[found];
  return Array.isArray(value) ? (value[0] ?? "") : (value ?? "");
}

function base64(text: string): Uint8Array<ArrayBuffer> | undefined {
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(text) || text.length % 4 !== 0) {
    return undefined;
  }
  return Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
}

/** Rule 1 (form): exactly three `;`-separated parts, `es256`, `kid=<kid>`, base64 of r || s. */
export function parseSignature(value: string): { kid: string; signature: Uint8Array<ArrayBuffer> } {
  const parts = value.split(";");
  if (parts.length !== 3) {
    throw new WebhookRejected("malformed-signature", "the header must have exactly three ';'-separated parts");
  }
  const [algorithm, kidPart, encoded] = parts as [string, string, string];
  if (algorithm !== "es256") {
    throw new WebhookRejected("malformed-signature", "the algorithm must be es256");
  }
  if (!kidPart.startsWith("kid=") || kidPart.length === 4) {
    throw new WebhookRejected("malformed-signature", "the second part must be kid=<kid>");
  }
  const signature = base64(encoded);
  if (signature === undefined || signature.length !== 64) {
    throw new WebhookRejected("malformed-signature", "the signature must be base64 of 64 bytes (r || s)");
  }
  return { kid: kidPart.slice(4), signature };
}

/** Verifies calls of one registered webhook (or test calls of its project). */
export class WebhookReceiver {
  private keys = new Map<string, CryptoKey>();
  private loadedAt = Number.NEGATIVE_INFINITY;
  private maxAge = KEY_CACHE_MAX_AGE_SECS;
  private seen = new Set<string>();
  private readonly options: Required<Omit<WebhookReceiverOptions, "webhookId">> & { webhookId?: string };

  constructor(options: WebhookReceiverOptions) {
    this.options = {
      toleranceSecs: 300,
      rememberIds: 10_000,
      now: () => Date.now() / 1000,
      fetch: (input: string) => fetch(input),
      ...options,
      baseUrl: options.baseUrl.replace(/\/+$/, ""),
    };
  }

  /** Rule 5: the key set, loaded again when older than its age or when `reload` (an unknown kid). */
  private async key(kid: string): Promise<CryptoKey | undefined> {
    const now = this.options.now();
    const stale = now - this.loadedAt > this.maxAge;
    const unknown = !this.keys.has(kid) && now - this.loadedAt > UNKNOWN_KID_RELOAD_SECS;
    if (stale || unknown) {
      const response = await this.options.fetch(`${this.options.baseUrl}/api/v2/webhooks/keys`);
      if (!response.ok) {
        throw new Error(`the key set could not be loaded: HTTP ${response.status}`);
      }
      const set = (await response.json()) as { keys: JsonWebKey[] };
      const keys = new Map<string, CryptoKey>();
      for (const jwk of set.keys) {
        const { kid: id, ...material } = jwk as JsonWebKey & { kid: string };
        keys.set(id, await crypto.subtle.importKey("jwk", material, { name: "ECDSA", namedCurve: "P-256" }, false, ["verify"]));
      }
      const age = /max-age=(\d+)/.exec(response.headers.get("cache-control") ?? "");
      this.maxAge = Math.min(KEY_CACHE_MAX_AGE_SECS, age ? Number(age[1]) : KEY_CACHE_MAX_AGE_SECS);
      this.keys = keys;
      this.loadedAt = now;
    }
    return this.keys.get(kid);
  }

  /**
   * Applies the six rules to one call, in the spec's order: the signature over the raw body before
   * anything is parsed (rules 1, 5, 6), the timestamp (2), the identity (3), repeats (4).
   * Throws {@link WebhookRejected}; answer the call with a 2xx only when this returns.
   */
  async verify(headers: Headers | Record<string, string | string[] | undefined>, body: string | Uint8Array): Promise<Verified> {
    const raw = typeof body === "string" ? encoder.encode(body) : body;
    const id = header(headers, "webhook-id");
    const timestamp = header(headers, "webhook-timestamp");
    const { kid, signature } = parseSignature(header(headers, "webhook-signature"));
    const key = await this.key(kid);
    if (key === undefined) {
      throw new WebhookRejected("unknown-key", `no published key has kid ${kid}`);
    }
    const signed = new Uint8Array([...encoder.encode(`${id}.${timestamp}.`), ...raw]);
    if (!(await crypto.subtle.verify({ name: "ECDSA", hash: "SHA-256" }, key, signature, signed))) {
      throw new WebhookRejected("bad-signature", "the signature does not verify");
    }
    const sent = /^\d+$/.test(timestamp.trim()) ? Number(timestamp.trim()) : Number.NaN;
    if (!(Math.abs(this.options.now() - sent) <= this.options.toleranceSecs)) {
      throw new WebhookRejected("stale-timestamp", `Webhook-Timestamp ${JSON.stringify(timestamp)} is too far from now`);
    }
    let payload: WebhookPayload;
    try {
      payload = JSON.parse(decoder.decode(raw)) as WebhookPayload;
    } catch {
      throw new WebhookRejected("malformed-body", "the body is not JSON");
    }
    if (typeof payload !== "object" || payload === null || !Array.isArray(payload.changes)) {
      throw new WebhookRejected("malformed-body", "the body has no changes");
    }
    const ping = payload.webhookId === null && payload.changes.length === 1 && payload.changes[0]?.kind === "ping";
    if (payload.projectId !== this.options.projectId) {
      throw new WebhookRejected("wrong-identity", `projectId ${payload.projectId} is not the registered project`);
    }
    if (!ping && (this.options.webhookId === undefined || payload.webhookId !== this.options.webhookId)) {
      throw new WebhookRejected("wrong-identity", `webhookId ${String(payload.webhookId)} is not the registered webhook`);
    }
    const duplicate = this.seen.has(id);
    if (!duplicate) {
      this.seen.add(id);
      if (this.seen.size > this.options.rememberIds) {
        const oldest = this.seen.values().next().value;
        if (oldest !== undefined) this.seen.delete(oldest);
      }
    }
    return { duplicate, payload };
  }
}
