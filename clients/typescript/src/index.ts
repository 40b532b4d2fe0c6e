// The hand-written part of the client: a configured openapi-fetch instance. Everything about
// paths, bodies and answers comes from ./schema.ts, which clients/generate.sh writes from the
// service's own OpenAPI document.
import createClient, { type Client } from "openapi-fetch";
import type { paths } from "./schema.js";

export type { components, operations, paths } from "./schema.js";
export * from "./webhooks.js";

export interface CanvasClientOptions {
  /** The service's origin, for example `http://127.0.0.1:8080` (the document's server is `/`). */
  baseUrl: string;
  /** A personal access token or OAuth access token, sent as `Authorization: Bearer <token>`. */
  token?: string;
  /** Another fetch (tests, proxies); defaults to the global one. */
  fetch?: (input: Request) => Promise<Response>;
}

/** A typed client: `client.GET("/api/v2/projects/{projectId}/item/{itemId}", { params })`. */
export function createCanvasClient(options: CanvasClientOptions): Client<paths> {
  const headers: Record<string, string> = {};
  if (options.token !== undefined) {
    headers["Authorization"] = `Bearer ${options.token}`;
  }
  return createClient<paths>({
    baseUrl: options.baseUrl.replace(/\/+$/, ""),
    headers,
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
}
