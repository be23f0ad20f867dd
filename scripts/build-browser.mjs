// Builds dist/gpuc.browser.js: gpuc as one ES module for browsers (esbuild), with acorn as the
// parser and the Node-only modules replaced by stand-ins (src/platform/).
import { build } from "esbuild";
import { rmSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { buildId } from "./build-id.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));
const shims = `${root}src/platform/node-shims.ts`, url = `${root}src/platform/node-url.ts`;
/** cache/compiler-script.ts (the compiler as a script with V8's code cache) is Node's: the browser's is src/platform/no-compiler-script.ts. */
const noCompilerScript = { name: "no-compiler-script", setup(b) { b.onResolve({ filter: /^\.\/cache\/compiler-script\.js$/ }, () => ({ path: `${root}src/platform/no-compiler-script.ts` })); } };
const result = await build({
  plugins: [noCompilerScript],
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
    "oxc-parser/src-js/bindings": `${root}src/frontend/acorn.ts`, "oxc-parser/src-js/wrap": `${root}src/frontend/acorn.ts`,
    "node:fs": shims, "node:crypto": shims, "node:inspector": shims, "node:module": shims, "node:url": url, "node:os": shims, "node:path": shims, "node:worker_threads": shims, "node:child_process": shims, webgpu: shims, koffi: shims,
  },
  logLevel: "warning",
  define: { __GPUC_BUILD__: JSON.stringify(buildId()) },
});
const bytes = Object.values(result.metafile.outputs).find((o) => o.entryPoint)?.bytes ?? 0;
console.log(`dist/gpuc.browser.js: ${(bytes / 1024).toFixed(0)} KiB`);

// gpuc/runtime for browsers: the runtime-only entry (src/runtime-only.ts), minified, code split
// so that what loads lazily (a device, the check of code read back from an unsigned image, with
// its JS parser) stays out of the start. It must contain none of the compiler: no module of the
// compile path may be among its inputs (the build fails otherwise).
/** cache/disk.ts (Node's disk cache) is src/platform/no-disk-cache.ts in the browser. */
// (Its folder emptied first: chunks of earlier builds, which nothing imports, would ship in the package.)
rmSync(`${root}dist/runtime-browser`, { recursive: true, force: true });
const noDiskCache = { name: "no-disk-cache", setup(b) { b.onResolve({ filter: /^\.\/disk\.js$/ }, (a) => (a.importer.endsWith("cache/persistent.ts") ? { path: `${root}src/platform/no-disk-cache.ts` } : null)); } };
/** devices/cuda.ts and devices/opencl.ts (drivers reached through koffi) are src/platform/no-native-devices.ts in a page. */
const noNativeDevices = { name: "no-native-devices", setup(b) { b.onResolve({ filter: /^\.\/(cuda|opencl)\.js$/ }, (a) => (a.importer.endsWith("devices/index.ts") ? { path: `${root}src/platform/no-native-devices.ts` } : null)); } };
// The checks of unauthenticated records and code (cache/checks.ts) and their stand-in
// (cache/no-checks.ts) are entries, at paths of their own: gpuc/plugin resolves the one to the
// other in an app's bundle (ARCHITECTURE.md, "Shipping").
const runtime = await build({
  plugins: [noDiskCache, noNativeDevices],
  entryPoints: { "gpuc.runtime.browser": `${root}src/runtime-only.ts`, "cache/checks": `${root}src/cache/checks.ts`, "cache/no-checks": `${root}src/cache/no-checks.ts` },
  outdir: `${root}dist/runtime-browser`,
  bundle: true, splitting: true, format: "esm", platform: "browser", target: "es2022", minify: true, metafile: true,
  chunkNames: "chunks/[name]-[hash]",
  alias: {
    "oxc-parser/src-js/bindings": `${root}src/frontend/acorn.ts`, "oxc-parser/src-js/wrap": `${root}src/frontend/acorn.ts`,
    "node:fs": shims, "node:crypto": shims, "node:inspector": shims, "node:module": shims, "node:url": url, "node:os": shims, "node:path": shims, "node:worker_threads": shims, "node:child_process": shims, webgpu: shims, koffi: shims,
  },
  logLevel: "warning",
  define: { __GPUC_BUILD__: JSON.stringify(buildId()) },
});
const COMPILER = /^src\/(compiler\/(compile|pipeline)|frontend\/(parse|lower|annotations|scope)|infer\/|ir\/passes\/|targets\/[^/]+\/(target|emit|legal))/;
const leaked = Object.keys(runtime.metafile.inputs).filter((i) => COMPILER.test(i));
if (leaked.length) { console.error(`gpuc/runtime's browser bundle contains the compiler: ${leaked.join(", ")}`); process.exit(1); }
const outputs = runtime.metafile.outputs;
const entryOut = Object.keys(outputs).find((o) => outputs[o].entryPoint?.endsWith("src/runtime-only.ts"));
// What the entry loads before it runs: itself and its static imports, transitively.
const eager = new Set();
const visit = (o) => { if (eager.has(o)) return; eager.add(o); for (const i of outputs[o].imports) if (i.kind === "import-statement") visit(i.path); };
visit(entryOut);
const sum = (list) => list.reduce((n, o) => n + outputs[o].bytes, 0);
console.log(`dist/runtime-browser/gpuc.runtime.browser.js: ${(sum([...eager]) / 1024).toFixed(1)} KiB minified at start (${(sum(Object.keys(outputs).filter((o) => o.endsWith(".js"))) / 1024).toFixed(0)} KiB with what loads lazily)`);
