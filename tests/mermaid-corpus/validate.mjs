// Asks Mermaid itself which corpus diagrams are valid: `mermaid.parse()` of the pinned mermaid
// package (package.json beside this file) on every tests/mermaid-corpus/<kind>/*.mmd, under
// jsdom, since Mermaid and its DOMPurify expect a browser window even to parse.
//
//   node validate.mjs            prints the verdicts as JSON on stdout
//   node validate.mjs --write    also writes them to valid.json (committed beside this file)
//   node validate.mjs --dir DIR  judges DIR/<kind>/*.mmd instead of the corpus (the Mermaid the
//                                service writes back: diagram/tests/corpus_export.rs)
//
// CANVAS_MERMAID_DIR names the npm prefix holding the pinned packages (tests/run.sh installs them
// into ~/.cache/canvas-mermaid). Output:
//   {"mermaid": "<version>", "files": {"<kind>/<name>.mmd": {"valid": true} |
//    {"valid": false, "error": "<Mermaid's message>"}}, "counts": {"<kind>": {"valid": n, "invalid": n}}}
// Exits non-zero only when the check itself cannot run (a missing package, an unreadable file).
import { createRequire } from "node:module";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { homedir } from "node:os";
import { fileURLToPath, pathToFileURL } from "node:url";

const dirFlag = process.argv.indexOf("--dir");
const corpusDir = dirFlag > 0 ? process.argv[dirFlag + 1] : dirname(fileURLToPath(import.meta.url));
const packageDir = process.env.CANVAS_MERMAID_DIR || join(homedir(), ".cache/canvas-mermaid");
const require = createRequire(join(packageDir, "package.json"));

// Mermaid's parsers are pure, but the module reads `window`, `document` and friends when it is
// loaded, and DOMPurify only works when it finds a window at import time: one jsdom window,
// published as the browser globals, before mermaid is imported.
const { JSDOM } = require("jsdom");
const { window } = new JSDOM("<!doctype html><html><body></body></html>", { pretendToBeVisual: true });
for (const name of ["window", "document", "navigator", "DOMParser", "Option", "Element", "HTMLElement", "SVGElement", "Node"]) {
  if (!(name in globalThis) || name === "window" || name === "document") {
    Object.defineProperty(globalThis, name, { value: name === "window" ? window : window[name], configurable: true, writable: true });
  }
}

const mermaidDir = dirname(require.resolve("mermaid/package.json"));
const { version } = JSON.parse(readFileSync(join(mermaidDir, "package.json"), "utf8"));
const { default: mermaid } = await import(pathToFileURL(join(mermaidDir, "dist/mermaid.core.mjs")).href);
mermaid.initialize({ startOnLoad: false });

// Mermaid logs parse failures itself as well as throwing them; the thrown error is the verdict.
console.error = () => {};
console.warn = () => {};

const kinds = readdirSync(corpusDir, { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && entry.name !== "node_modules")
  .map((entry) => entry.name)
  .sort();
const files = {};
const counts = {};
for (const kind of kinds) {
  counts[kind] = { valid: 0, invalid: 0 };
  for (const name of readdirSync(join(corpusDir, kind)).filter((n) => n.endsWith(".mmd")).sort()) {
    const source = readFileSync(join(corpusDir, kind, name), "utf8");
    let verdict;
    try {
      await mermaid.parse(source);
      verdict = { valid: true };
    } catch (error) {
      const message = String(error?.message ?? error).split("\n").slice(0, 6).join("\n");
      verdict = { valid: false, error: message };
    }
    counts[kind][verdict.valid ? "valid" : "invalid"] += 1;
    files[`${kind}/${name}`] = verdict;
  }
}

const report = { mermaid: version, files, counts };
const text = `${JSON.stringify(report, null, 1)}\n`;
if (process.argv.includes("--write") && dirFlag < 0) {
  writeFileSync(join(corpusDir, "valid.json"), text);
}
process.stdout.write(text);
