// Builds dist/gpuc.browser.js: gpuc as one ES module for browsers (esbuild), with acorn as the
// parser and the Node-only modules replaced by stand-ins (src/platform/).
import { build } from "esbuild";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { buildId } from "./build-id.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));
const shims = `${root}src/platform/node-shims.ts`, url = `${root}src/platform/node-url.ts`, dynamicShims = `${root}src/platform/node-dynamic.ts`;
/** cache/compiler-script.ts (the compiler as a script with V8's code cache) is Node's: the browser's is src/platform/no-compiler-script.ts. */
const noCompilerScript = { name: "no-compiler-script", setup(b) { b.onResolve({ filter: /^\.\/cache\/compiler-script\.js$/ }, () => ({ path: `${root}src/platform/no-compiler-script.ts` })); } };
/**
 * Modules of Node's that a page has no use for, each with its stand-in in src/platform/ (which says
 * why): the disk cache, the CUDA, AMD GPU and OpenCL devices (drivers through koffi), the CPU device's
 * worker pool (node:worker_threads) and options from the environment, Dawn and its stderr filter,
 * and the reader of source maps.
 */
const STAND_INS = new Map([
  ["cache/disk.ts", "no-disk-cache.ts"], ["devices/cuda.ts", "no-native-devices.ts"], ["devices/amdgpu.ts", "no-native-devices.ts"],
  ["devices/opencl.ts", "no-native-devices.ts"],
  ["devices/cpu-workers.ts", "no-cpu-workers.ts"], ["devices/native-stderr.ts", "no-native-stderr.ts"], ["frontend/source-map.ts", "no-source-maps.ts"],
  ["devices/dawn.ts", "no-dawn.ts"], ["devices/cpu-environment.ts", "no-cpu-environment.ts"],
].map(([from, to]) => [`${root}src/${from}`, `${root}src/platform/${to}`]));
export const standIns = { name: "stand-ins", setup(b) { b.onResolve({ filter: /^\.\.?\/.*\.js$/ }, (a) => { const to = STAND_INS.get(join(a.resolveDir, a.path).replace(/\.js$/, ".ts")); return to ? { path: to } : null; }); } };
/** The runtime-only browser build's options (bench/ship.mjs builds with them again, in memory, for the metafile that attributes an app's page to gpuc's sources). */
export function runtimeBuildOptions() {
  return {
    plugins: [standIns],
    entryPoints: { "gpuc.runtime.browser": `${root}src/runtime-only.ts`, "cache/checks": `${root}src/cache/checks.ts`, "cache/no-checks": `${root}src/cache/no-checks.ts`,
      ...Object.fromEntries(["cpu", "webgpu", "cpu-sanitizer"].map((d) => [`devices/${d}`, `${root}src/devices/${d}.ts`])) },
    outdir: `${root}dist/runtime-browser`,
    bundle: true, splitting: true, format: "esm", platform: "browser", target: "es2022", minify: true, metafile: true,
    chunkNames: "chunks/[name]-[hash]",
    // (What the runtime imports of node:fs, node:crypto, node:os and webgpu it imports lazily, which
    // keeps a whole module: those have one of their own, with just that, src/platform/node-dynamic.ts.)
    alias: {
      "oxc-parser/src-js/bindings": `${root}src/frontend/acorn.ts`, "oxc-parser/src-js/wrap": `${root}src/frontend/acorn.ts`,
      "node:fs": dynamicShims, "node:crypto": dynamicShims, "node:inspector": shims, "node:module": shims, "node:url": url, "node:os": dynamicShims, "node:path": shims, "node:worker_threads": shims, "node:child_process": shims, webgpu: dynamicShims, koffi: shims,
    },
    logLevel: "warning",
    define: { __GPUC_BUILD__: JSON.stringify(buildId()) },
  };
}

// Run as a script (npm run build): both builds. Imported (bench/ship.mjs), nothing runs.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const result = await build({
    plugins: [noCompilerScript, standIns],
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
  // (Its folder emptied first: chunks of earlier builds, which nothing imports, would ship in the package.)
  rmSync(`${root}dist/runtime-browser`, { recursive: true, force: true });
  // The checks of unauthenticated records and code (cache/checks.ts) and their stand-in
  // (cache/no-checks.ts) are entries, at paths of their own: gpuc/plugin resolves the one to the
  // other in an app's bundle (ARCHITECTURE.md, "An app's bundle has no checks"), and a device
  // module whose target the app's image lacks to a stand-in of its own.
  const runtime = await build(runtimeBuildOptions());
  const COMPILER = /^src\/(compiling\.ts|compiler\/(compile|pipeline)|frontend\/(parse|lower|annotations|scope)|infer\/|ir\/passes\/|targets\/[^/]+\/(target|emit|legal))/;
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
}
