// Builds dist/gpuc.browser.js: gpuc as one ES module for browsers (esbuild), with acorn as the
// parser and the Node-only modules replaced by stand-ins (src/platform/).
import { build } from "esbuild";
import { fileURLToPath } from "node:url";
import { buildId } from "./build-id.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));
const shims = `${root}src/platform/node-shims.ts`;
const result = await build({
  entryPoints: [`${root}src/index.ts`],
  outfile: `${root}dist/gpuc.browser.js`,
  bundle: true,
  format: "esm",
  platform: "browser",
  target: "es2022",
  sourcemap: true,
  minify: false,
  metafile: true,
  alias: {
    "oxc-parser/src-js/bindings": `${root}src/platform/acorn-parser.ts`, "oxc-parser/src-js/wrap": `${root}src/platform/acorn-parser.ts`,
    "node:fs": shims, "node:crypto": shims, "node:inspector": shims, "node:module": shims, "node:url": shims, "node:os": shims, "node:path": shims, webgpu: shims, koffi: shims,
  },
  logLevel: "warning",
  define: { __GPUC_BUILD__: JSON.stringify(buildId()) },
});
const bytes = Object.values(result.metafile.outputs).find((o) => o.entryPoint)?.bytes ?? 0;
console.log(`dist/gpuc.browser.js: ${(bytes / 1024).toFixed(0)} KiB`);
