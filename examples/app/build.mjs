// Builds the example app with esbuild and gpuc's plugin: the page (main.ts → <out>/web/main.js,
// with index.html) and the Node script (node.ts → <out>/node/node.js), each with its kernel
// image (kernels.gpuc) beside it. `node examples/app/build.mjs [out] [--minify]` (out: examples/app/dist).
import { build } from "esbuild";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import gpuc from "gpuc/plugin";

const here = fileURLToPath(new URL(".", import.meta.url));
const args = process.argv.slice(2);
const out = resolve(args.find((a) => !a.startsWith("--")) ?? join(here, "dist"));
const minify = args.includes("--minify");

/** Both builds; returns their metafiles (what went into each bundle). */
export async function buildApp(outDir = out, opts = { minify }) {
  return { web: await buildWeb(outDir, opts), node: await buildNode(outDir, opts) };
}

const common = (opts) => ({ bundle: true, format: "esm", target: "es2022", minify: opts.minify, metafile: true, logLevel: "warning" });

/** The page: WebGPU, and the CPU device (?device=cpu). */
export async function buildWeb(outDir = out, opts = { minify }) {
  mkdirSync(join(outDir, "web"), { recursive: true });
  // (The page names its source, main.ts, as vite wants it; esbuild's page loads the bundle.)
  writeFileSync(join(outDir, "web/index.html"), readFileSync(join(here, "index.html"), "utf8").replace("./main.ts", "./main.js"));
  const r = await build({
    // One file: in a browser each lazily loaded chunk is a round trip before the device opens
    // (BENCHMARKS §n: the first result came 100-230 ms later with code splitting).
    ...common(opts), splitting: false, entryPoints: [join(here, "main.ts")], outdir: join(outDir, "web"), platform: "browser",
    plugins: [gpuc.esbuild({ targets: opts.targets ?? ["wgsl", "js"] })],
  });
  return r.metafile;
}

/** The Node script: the CPU device (or the device named on its command line). */
export async function buildNode(outDir = out, opts = { minify }) {
  const r = await build({
    // Code split: what gpuc loads lazily (a device) stays out of the start.
    ...common(opts), splitting: true, entryPoints: [join(here, "node.ts")], outdir: join(outDir, "node"), platform: "node",
    // Packages with native parts stay packages of their own (installed with gpuc): the devices'
    // bindings. (Nothing else: the bundle pins its image, so neither gpuc's compiler nor its
    // checks of unpinned images, with their parser, are in it.)
    external: ["webgpu", "koffi"],
    plugins: [gpuc.esbuild({ targets: opts.targets ?? ["js", "wgsl"] })],
  });
  return r.metafile;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await buildApp();
  console.log(`built ${out}/web and ${out}/node${minify ? " (minified)" : ""}`);
}
