// Checks every MCP tool schema with the official TypeScript MCP SDK's own JSON Schema validator
// (its Ajv provider), in strict mode, the way an SDK client meets them. Run by
// tests/tests/e2e/mcp_schemas.rs against a running service:
//
//   node schema_check.mjs --url URL --token TOKEN --project ID
//
// CANVAS_MCP_SDK_DIR names the npm prefix holding the pinned SDK (tests/mcp/package.json,
// installed by tests/run.sh). Checks:
//   1. tools/list through the SDK client (Streamable HTTP, bearer token);
//   2. every tool's inputSchema and outputSchema compiles in strict mode (no unknown keyword,
//      format or type ambiguity) under JSON Schema 2020-12, the dialect the schemas declare;
//   3. a few tool calls, with arguments that the input schema accepts, whose structured results
//      the SDK client itself validates against the output schema with the same validator;
//   4. the SDK's default validator (what a plain SDK client uses) compiles every schema silently;
//   5. nothing was printed on console.warn or console.error (Ajv reports there what strict mode
//      only logs), since a warning is what a user of the SDK sees on every tools/list.
// Prints one line per check and "N passed, N failed"; exits non-zero on any failure.
import { createRequire } from "node:module";
import { join } from "node:path";
import { homedir } from "node:os";

const sdkDir = process.env.CANVAS_MCP_SDK_DIR || join(homedir(), ".cache/canvas-mcp-sdk");
const require = createRequire(join(sdkDir, "package.json"));
const { Client } = require("@modelcontextprotocol/sdk/client/index.js");
const { StreamableHTTPClientTransport } = require("@modelcontextprotocol/sdk/client/streamableHttp.js");
const { AjvJsonSchemaValidator } = require("@modelcontextprotocol/sdk/validation/ajv");
// The SDK's own Ajv, in its 2020-12 flavour: MCP's default dialect, and what `$schema` says.
const Ajv2020 = require("ajv/dist/2020").default;
const addFormats = require("ajv-formats").default;

const args = {};
for (let i = 2; i < process.argv.length; i += 2) {
  args[process.argv[i].replace(/^--/, "")] = process.argv[i + 1];
}

// Everything the validator (or the SDK) prints is a finding.
const printed = [];
for (const level of ["warn", "error"]) {
  const original = console[level].bind(console);
  console[level] = (...parts) => {
    printed.push(`${level}: ${parts.map(String).join(" ")}`);
    original(...parts);
  };
}

let passed = 0;
let failed = 0;
function check(ok, what) {
  if (ok) {
    passed += 1;
    console.log(`  ok   ${what}`);
  } else {
    failed += 1;
    console.log(`  FAIL ${what}`);
  }
}

// strict: true turns every strict-mode rule (strictSchema, strictTypes, strictTuples,
// strictRequired, strictNumbers) into an error at compile time instead of a log line.
const ajv = new Ajv2020({ strict: true, allErrors: true, validateFormats: true });
addFormats(ajv);
const validator = new AjvJsonSchemaValidator(ajv);
// What a plain SDK client compiles output schemas with (draft-07 Ajv, not strict): it warns on
// console about what it does not know (the non-standard formats of the issue), and must not.
const plain = new AjvJsonSchemaValidator();

const client = new Client({ name: "canvas-schema-check", version: "1.0.0" }, { jsonSchemaValidator: validator });
const transport = new StreamableHTTPClientTransport(new URL(args.url), {
  requestInit: { headers: { Authorization: `Bearer ${args.token}` } },
});

/** Compiles `schema` with the SDK's validator; the error, if strict mode refuses it. */
function compile(schema) {
  try {
    return { validate: validator.getValidator(schema) };
  } catch (error) {
    return { error: String(error && error.message ? error.message : error) };
  }
}

// The check can fail: strict mode refuses what the gateway once sent.
check(Boolean(compile({ type: "integer", format: "uint32", minimum: 0 }).error), "strict mode refuses format uint32");
check(Boolean(compile({ type: "object", example: {} }).error), "strict mode refuses unknown keywords (OpenAPI's example)");

try {
  await client.connect(transport);
  const { tools } = await client.listTools();
  check(tools.length > 0, `tools/list through the SDK client: ${tools.length} tools`);
  const inputs = {};
  for (const tool of tools) {
    const input = compile(tool.inputSchema);
    check(!input.error, `${tool.name}: inputSchema compiles in strict mode${input.error ? `: ${input.error}` : ""}`);
    inputs[tool.name] = input.validate;
    check(Boolean(tool.outputSchema), `${tool.name}: has an outputSchema`);
    if (tool.outputSchema) {
      const output = compile(tool.outputSchema);
      check(!output.error, `${tool.name}: outputSchema compiles in strict mode${output.error ? `: ${output.error}` : ""}`);
    }
    for (const [which, schema] of [["inputSchema", tool.inputSchema], ["outputSchema", tool.outputSchema]]) {
      const before = printed.length;
      try {
        plain.getValidator(schema || { type: "object" });
      } catch (error) {
        printed.push(`error: ${tool.name} ${which}: ${error}`);
      }
      check(printed.length === before, `${tool.name}: the SDK's default validator compiles its ${which} silently`);
    }
  }

  /** Calls a tool whose arguments its input schema accepts; the SDK validates the output. */
  async function call(name, toolArgs) {
    const accepted = inputs[name] ? inputs[name](toolArgs) : { valid: false, errorMessage: "no such tool" };
    check(accepted.valid, `${name}: the arguments fit its inputSchema${accepted.valid ? "" : `: ${accepted.errorMessage}`}`);
    try {
      const result = await client.callTool({ name, arguments: toolArgs });
      check(!result.isError && result.structuredContent, `${name}: a structured result the outputSchema accepts`);
      return result.structuredContent || {};
    } catch (error) {
      check(false, `${name}: ${error}`);
      return {};
    }
  }

  const project = args.project;
  await call("list_projects", {});
  const label = await call("create_item", { projectId: project, type: "label", properties: { text: "Hello" } });
  const note = await call("create_item", { projectId: project, type: "sticky-note", properties: { text: "Note" } });
  await call("get_item", { projectId: project, itemId: label.itemId });
  await call("list_items", { projectId: project });
  await call("update_item_property", { projectId: project, itemId: label.itemId, property: "text", value: "Changed" });
  await call("style_item", { projectId: project, itemId: label.itemId, fontSize: 20 });
  await call("arrange_item", { projectId: project, itemId: label.itemId, position: { x: 100, y: 50 } });
  await call("connect_items", { projectId: project, fromItemId: label.itemId, toItemId: note.itemId });
  await call("find_item", { itemId: note.itemId });
  await call("read_map", { projectId: project });
  await call("delete_item", { projectId: project, itemId: note.itemId });
} catch (error) {
  check(false, `the session failed: ${error && error.stack ? error.stack : error}`);
} finally {
  await client.close().catch(() => {});
}

check(printed.length === 0, `nothing printed on console.warn or console.error${printed.length ? `: ${printed.join(" | ")}` : ""}`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
