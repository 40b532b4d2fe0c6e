// The official TypeScript MCP SDK's OAuth client (@modelcontextprotocol/client, pinned in
// tests/mcp/package.json) connects by a Client ID Metadata Document (MCP 2026-07-28): its provider
// names the document's URL as `clientMetadataUrl`, so `auth()` uses that URL as the client id
// instead of registering; the person approves in headless Chromium (tests/browser/oauth_consent.mjs,
// which also checks the consent page names the host publishing the document); the callback's
// `iss` is handed to `auth()`, which checks it (RFC 9207) before redeeming the code. Then the SDK's
// client lists the tools with the token, and a code handed over with another server's `iss` is
// refused by the SDK. Run by tests/tests/e2e/oauth_documents.rs:
//
//   node oauth_cimd.mjs --url MCP_URL --document DOCUMENT_URL --client-host HOST
//        --login LOGIN --password PASSWORD
//
// The document lists http://127.0.0.1/callback; this script listens on a loopback port of its own
// (any port matches, RFC 8252 §7.3). Prints one line per check and "N passed, N failed".
import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { createServer } from "node:http";
import { createRequire } from "node:module";
import { homedir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { args, assert, check, finish } from "../browser/harness.mjs";

const sdkDir = process.env.CANVAS_MCP_SDK_DIR || join(homedir(), ".cache/canvas-mcp-sdk");
const fromSdk = (name) => import(createRequire(join(sdkDir, "package.json")).resolve(name));
const { auth, Client, StreamableHTTPClientTransport } = await fromSdk("@modelcontextprotocol/client");
const consentScript = join(dirname(fileURLToPath(import.meta.url)), "../browser/oauth_consent.mjs");

/** A loopback listener for the authorization answer; resolves with its query. */
function callbackServer() {
  let deliver;
  const answered = new Promise((resolve) => (deliver = resolve));
  const server = createServer((request, response) => {
    const url = new URL(request.url, "http://127.0.0.1");
    response.writeHead(200, { "content-type": "text/html" }).end("<!doctype html><title>Done</title><p>Done.");
    if (url.pathname === "/callback") deliver(url.searchParams);
  });
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () => resolve({ server, port: server.address().port, answered })),
  );
}

/** The person approves `url` in the browser. */
function approve(url) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [consentScript, "--authorize-url", url, "--login", args.login,
      "--password", args.password, "--client-host", args["client-host"]], { stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (chunk) => (output += chunk));
    child.stderr.on("data", (chunk) => (output += chunk));
    child.on("exit", (code) => (code === 0 ? resolve(output) : reject(new Error(`the consent run failed (${code}): ${output}`))));
  });
}

/** The SDK's OAuthClientProvider, in memory, named by the metadata document's URL. */
function provider(redirectUrl, authorizations) {
  const saved = {};
  return {
    saved,
    clientMetadataUrl: args.document,
    get redirectUrl() {
      return redirectUrl;
    },
    get clientMetadata() {
      return { client_name: "Canvas OAuth e2e (TypeScript SDK)", redirect_uris: [redirectUrl],
        grant_types: ["authorization_code", "refresh_token"], response_types: ["code"], token_endpoint_auth_method: "none" };
    },
    state: () => randomUUID(),
    clientInformation: () => saved.client,
    saveClientInformation: (client) => (saved.client = client),
    tokens: () => saved.tokens,
    saveTokens: (tokens) => (saved.tokens = tokens),
    redirectToAuthorization: (url) => authorizations.push(url.toString()),
    saveCodeVerifier: (verifier) => (saved.verifier = verifier),
    codeVerifier: () => saved.verifier,
  };
}

/** One authorization through the SDK up to the answer at the callback: [provider, answer, request]. */
async function authorize() {
  const { server, port, answered } = await callbackServer();
  try {
    const authorizations = [];
    const oauth = provider(`http://127.0.0.1:${port}/callback`, authorizations);
    const started = await auth(oauth, { serverUrl: args.url });
    assert(started === "REDIRECT" && authorizations.length === 1, `auth() should redirect once: ${started}, ${authorizations}`);
    await approve(authorizations[0]);
    return [oauth, await answered, new URL(authorizations[0]).searchParams];
  } finally {
    server.close();
  }
}

await check("the SDK connects by its metadata document's URL, without registering", async () => {
  const [oauth, answer, request] = await authorize();
  assert(request.get("client_id") === args.document, `the authorization request's client_id: ${request.get("client_id")}`);
  assert(answer.get("iss"), `the answer carries iss: ${answer}`);
  const done = await auth(oauth, { serverUrl: args.url, authorizationCode: answer.get("code"), iss: answer.get("iss") });
  assert(done === "AUTHORIZED", `auth() with the code: ${done}`);
  assert(oauth.saved.tokens?.access_token?.startsWith("svc_at_"), `tokens: ${JSON.stringify(oauth.saved.tokens)}`);
  const client = new Client({ name: "canvas-oauth-cimd", version: "1" });
  await client.connect(new StreamableHTTPClientTransport(new URL(args.url), { authProvider: oauth }));
  const { tools } = await client.listTools();
  assert(tools.some((tool) => tool.name === "list_projects"), `tools: ${tools.map((t) => t.name)}`);
  await client.close();
});

await check("the SDK refuses a code whose iss is another server's (RFC 9207)", async () => {
  const [oauth, answer] = await authorize();
  let refused = "";
  try {
    await auth(oauth, { serverUrl: args.url, authorizationCode: answer.get("code"), iss: "https://evil.example" });
  } catch (error) {
    refused = String(error?.message ?? error);
  }
  assert(refused !== "", "the SDK redeemed a code whose iss is another server's");
  assert(!oauth.saved.tokens, `no tokens were saved: ${JSON.stringify(oauth.saved.tokens)}`);
});

finish();
