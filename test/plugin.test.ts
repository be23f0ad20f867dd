// Shipping kernels with the bundler plugin (gpuc/plugin): build-time kernel identity (the id a
// minifier cannot change), build-time compile errors at their source location, and the example
// app (examples/app) built with esbuild — minified, without the compiler — run on the CPU device
// in Node and on WebGPU in headless Chromium from the image the build emitted.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { createServer, type Server } from "node:http";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { extname, join, normalize } from "node:path";
import { tmpdir } from "node:os";
import { fileURLToPath } from "node:url";
import { chromium, type Browser, type Page } from "playwright-core";
import { fileKernels } from "../src/cli/file-kernels.ts";
import { buildModuleKernels } from "../src/plugin/build-kernels.ts";
import { startGenerating, stopGenerating } from "../src/cache/image.ts";
import { CompileError, KernelError, device, kernel, loadImage, threadIdx } from "../src/index.ts";
import { onCompile } from "../src/index.ts";
import { imageSha256, parseImage, serializeImage } from "../src/cache/image-file.ts";
import { sha256 } from "../src/sha256.ts";
import { idFingerprint } from "../src/cache/fingerprint.ts";
import { pluginIdFinder } from "../src/cli/build-ids.ts";
import { GPUC_BUILD } from "../dist/build-id.js";
import type { Metafile } from "../examples/app/build.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));
const idOf = (text: string) => fileKernels("k.ts", text)[0].call!.id;

const SAXPY = `import { kernel, blockIdx, blockDim, threadIdx, type f32 } from "gpuc";
export const saxpy = kernel(function saxpy(a: f32, x: Float32Array, y: Float32Array) {
  const i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < y.length) y[i] = a * x[i] + y[i];
});`;

test("a kernel's build-time id: the same under whitespace, comments, parentheses and another function name; another for another body, helper or annotation", () => {
  const id = idOf(SAXPY);
  assert.match(id, /^[0-9a-f]{32}$/);
  assert.equal(idOf(`// saxpy\nimport { kernel } from "gpuc";\n\n\nexport const s = kernel(function other(a: f32, x: Float32Array, y: Float32Array) { /* y = a x + y */ const i = (blockIdx.x * blockDim.x) + threadIdx.x;\n if (i < y.length) { y[i] = a * x[i] + y[i]; } });`.replace("{ y[i] = a * x[i] + y[i]; }", "y[i] = a * x[i] + y[i];")), id);
  assert.notEqual(idOf(SAXPY.replace("a * x[i] + y[i]", "a * x[i] - y[i]")), id);
  assert.notEqual(idOf(SAXPY.replace("a: f32", "a: f64")), id);
  const withHelper = (body: string) => idOf(`function h(v: number) { return ${body}; }\nconst K = 3;\nkernel(function k(x: Float32Array) { x[0] = h(x[0]) * K; }, { scope: { h, K } });`);
  assert.equal(withHelper("v * 2"), withHelper("v  *  2"));
  assert.notEqual(withHelper("v * 2"), withHelper("v * 3"));
  // A scope constant's value is not in the id: the image entry records it (its fingerprint), as for any kernel.
  assert.equal(idOf(`const K = 3;\nkernel(function k(x: Float32Array) { x[0] = K; }, { scope: { K } });`), idOf(`const K = 4;\nkernel(function k(x: Float32Array) { x[0] = K; }, { scope: { K } });`));
});

test("the plugin's compile: each compiled call gets its id and name; a kernel the file cannot define is left to run time with the reason", async () => {
  const text = `${SAXPY}
export const untyped = kernel(function untyped(a, x) { x[0] = a; });
import { table } from "./elsewhere.ts";
export const imported = kernel(function imported(x: Float32Array) { x[0] = table[0]; }, { scope: { table } });
export const named = kernel((x: Float32Array) => { x[0] = 1; }, { name: "one", boundsCheck: false });
const LUT = new Float32Array([1, 2]);
export const table = kernel(function lookup(x: Float32Array) { x[0] = LUT[x.length & 1]; }, { scope: { LUT } });`;
  startGenerating();
  let built, entries;
  try { built = await buildModuleKernels("/app/k.ts", text, [{ target: "js" }, { target: "wgsl" }]); }
  finally { entries = stopGenerating(); }
  assert.deepEqual(built.compiled, ["saxpy", "one", "lookup"]);
  assert.match(built.code!, /kernel\(function saxpy\(a: f32, x: Float32Array, y: Float32Array\) \{[^]*?\}, \{ id: "[0-9a-f]{32}", name: "saxpy" \}\);/);
  assert.match(built.code!, /kernel\(\(x: Float32Array\) => \{ x\[0\] = 1; \}, \{ id: "[0-9a-f]{32}", name: "one", boundsCheck: false \}\);/);
  assert.deepEqual(built.notes.map((n) => `${n.line}:${n.column} ${n.message}`), [
    "6:24 kernel 'untyped' is compiled at run time, not at build time: 'a', 'x' have no declared type (annotate it, a: f32, or name it in types: { a: \"f32\" })",
    "8:25 kernel 'imported' is compiled at run time, not at build time: its scope's 'table' is not a value the file gives without running it",
    "11:22 kernel 'lookup' is compiled at run time for js: its code there binds its tables when loaded (relocation 'bake': nothing an image can keep); give it relocation: \"table\"",
  ]);
  assert.deepEqual(entries.map((e) => `${e.kernel} ${e.owner.target} ${e.owner.boundsCheck}`).sort(), ["lookup wgsl true", "one js false", "one wgsl false", "saxpy js true", "saxpy wgsl true"]);
});

test("identity end to end: a minified copy of a kernel, given the build's id and name, runs from the build's image without compiling", async () => {
  const text = `import { kernel, threadIdx } from "gpuc";
const FACTOR = 3;
function scale(v: number) { return v * FACTOR; }
export const k = kernel(function triple(x: Float32Array) {
  const i = threadIdx.x;
  if (i < x.length) x[i] = scale(x[i]);
}, { scope: { scale, FACTOR }, types: {} });`;
  startGenerating();
  let built;
  try { built = await buildModuleKernels("/app/triple.ts", text, [{ target: "js" }]); }
  finally { await loadImage(serializeImage(stopGenerating())); }
  const id = /id: "([0-9a-f]{32})"/.exec(built.code!)![1];
  // What a minifier makes of it: other names for the function, its parameter, its local and its helper.
  const helper = (v: number) => v * 3;
  const minified = new Function("threadIdx", "s", "return function(a){const b=threadIdx.x;b<a.length&&(a[b]=s(a[b]))}")(threadIdx, helper);
  const compiled: string[] = [], origins: string[] = [];
  const stop = onCompile((e) => { origins.push(`${e.kernel.name} ${e.target} ${e.origin}`); if (e.origin === "compiled") compiled.push(e.kernel.name); });
  try {
    const dev = await device("cpu");
    const x = new Float32Array([1, 2, 3]);
    await kernel(minified, { id, name: "triple", scope: { scale: helper, FACTOR: 3 }, types: {} }).launch(dev, { blocks: 1, threads: 4 }, x);
    assert.deepEqual([...x], [3, 6, 9]);
    assert.deepEqual(compiled, [], "revived from the image");
    assert.deepEqual(origins, ["triple js image"], "a compile event says so");
    // Another value of a scope constant is another kernel: not revived, so compiled (from the
    // minified text, whose names its scope does not bind: a run-time compile cannot do it).
    await assert.rejects(kernel(minified, { id, name: "triple", scope: { scale: helper, FACTOR: 4 }, types: {} }).launch(dev, { blocks: 1, threads: 4 }, x),
      (e: unknown) => e instanceof CompileError && e.kind === "undefined-name" && /'s'/.test(e.message));
    assert.deepEqual(compiled, []);
  } finally { stop(); }
});

test("device code stays out of the app's JavaScript: under gpuc/runtime a kernel written in its call loses its body (its lines kept) and runs from images only, even where a compiler is loaded", async () => {
  const body = `{\n  const i = threadIdx.x;\n  if (i < x.length) x[i] = quarter(x[i]) * 8;\n}`;
  const source = (from: string) => `import { kernel, threadIdx } from "${from}";
import { imported } from "./elsewhere.ts";
function quarter(v: number) { return v / 4; }
function shown(v: number) { return v; }
function eighth(v: number) { return v / 8; }
export const twice = kernel(function twice(x: Float32Array) ${body}, { scope: { quarter, shown, eighth } });
export const seen = shown(1);
export const other = kernel(imported, { scope: { eighth } });
function named(x: Float32Array) { x[0] = 1; }
export const byName = kernel(named);
function hostToo(x: Float32Array) { x[0] = 2; }
export const again = kernel(hostToo), alsoOnTheHost = hostToo;
export const later = 1;`;
  startGenerating();
  let runtime, full;
  try {
    runtime = await buildModuleKernels("/app/t.ts", source("gpuc/runtime"), [{ target: "js" }], true);
    full = await buildModuleKernels("/app/t.ts", source("gpuc"), [{ target: "js" }], false);
  } finally { await loadImage(serializeImage(stopGenerating())); }
  // The body goes, its lines stay (what follows is where it was); a top-level function the module
  // names only for kernel() goes too, one it names elsewhere as well keeps its body; so does a
  // helper only kernels that lost their bodies name, and one the host uses keeps its own.
  // (A helper that a kernel() call the file cannot make out also names keeps its body: eighth.)
  assert.match(runtime.code!, /function quarter\(v: number\) \{\}\nfunction shown\(v: number\) \{ return v; \}\nfunction eighth\(v: number\) \{ return v \/ 8; \}\nexport const twice = kernel\(function twice\(x: Float32Array\) \{\n\n\n\}, \{ id: "[0-9a-f]{32}", name: "twice", imageOnly: true, scope: \{ quarter, shown, eighth \} \}\);\nexport const seen = shown\(1\);\nexport const other = kernel\(imported, \{ scope: \{ eighth \} \}\);\nfunction named\(x: Float32Array\) \{\}\nexport const byName = kernel\(named, \{ id: "[0-9a-f]{32}", name: "named", imageOnly: true \}\);\nfunction hostToo\(x: Float32Array\) \{ x\[0\] = 2; \}\nexport const again = kernel\(hostToo, \{ id: "[0-9a-f]{32}", name: "hostToo" \}\), alsoOnTheHost = hostToo;\nexport const later = 1;/);
  assert.equal(runtime.code!.split("\n").length, source("gpuc/runtime").split("\n").length);
  assert.ok(full.code!.includes(body) && !full.code!.includes("imageOnly"), "under gpuc the body stays (other types compile at run time)");
  // The stand-in, as the bundle has it, in this process (which has the compiler): it runs from the image ...
  const id = /id: "([0-9a-f]{32})", name: "twice"/.exec(runtime.code!)![1];
  const compiled: string[] = [];
  const stop = onCompile((e) => { if (e.origin === "compiled") compiled.push(e.kernel.name); });
  try {
    const dev = await device("cpu");
    const standIn = kernel(function twice(_x: Float32Array) {}, { id, name: "twice", imageOnly: true, scope: { quarter(_v: number) {}, shown: (v: number) => v, eighth: (v: number) => v / 8 } });
    const x = new Float32Array([1, 2, 3]);
    await standIn.launch(dev, { blocks: 1, threads: 4 }, x);
    assert.deepEqual([...x], [2, 4, 6]);
    // ... and is never compiled: a target its image lacks is a not-precompiled error that says why.
    await assert.rejects(standIn.compile({ target: "wgsl", types: ["f32[]"] }),
      (e: unknown) => e instanceof KernelError && e.kind === "not-precompiled" && /'twice' \(f32\[\]\) for wgsl is not in the loaded images; gpuc\/plugin left its body out of this bundle/.test(e.message));
    assert.deepEqual(compiled, []);
    // (Given by hand, the flag is checked as the other options are.)
    assert.throws(() => kernel(function k(_x: Float32Array) {}, { id, imageOnly: "yes" as never }), /imageOnly must be true or false/);
  } finally { stop(); }
});

test("a kernel's compile error is the build's, at its source location", async () => {
  const text = `import { kernel } from "gpuc";\n\nexport const bad = kernel(function bad(x: Float32Array) {\n  x[0] = nothingHere;\n});`;
  startGenerating();
  try {
    await assert.rejects(buildModuleKernels("/app/bad.ts", text, [{ target: "wgsl" }]), (e: unknown) => {
      assert.ok(e instanceof CompileError);
      assert.equal(e.kind, "undefined-name");
      assert.deepEqual(e.location, { file: "/app/bad.ts", line: 4, column: 10 });
      return true;
    });
  } finally { stopGenerating(); }
});

// ---- the example app ---------------------------------------------------------------------------

const out = join(root, "examples/app/dist-test");
/**
 * Strings of the compiler's own code (the parser's wrapper, inference, the WGSL and PTX back ends)
 * and of what a kernel does only with it (compiling.ts: a fresh compile's checks): in the full
 * bundle, in no app bundle.
 */
const COMPILER_MARKERS = ["is a class; kernels and helpers must be functions", "unsupported dynamic function invocation", "fn gpuc_raise(code: i32, loc: i32", "back end needs every helper inlined", ".address_size 64", "which is not a target"];
/**
 * Strings of gpuc's checks of unauthenticated records and code and what they bring: the parser
 * (acorn's reserved words), the schema library (valibot's message), the schemas, the JS code check.
 * In the full bundle; in no app bundle, whose loader pins its image (the plugin resolves the checks
 * to their stand-in, whose refusal is there instead).
 */
const CHECK_MARKERS = ["abstract boolean byte char class double enum export", "eceived ${", "a folded table has one value per index", "is not a plain name"];
const NO_CHECKS = "which leaves out gpuc's checks";
/**
 * Strings of the devices an app built for wgsl and js has no code for (CUDA, OpenCL: their driver
 * calls) and of the CPU device's sanitizer (its reports), which such an app's bundle leaves out.
 */
/**
 * Left out of an app's bundle: devices it has no code for, the sanitizer and its launch, the disk
 * cache (its key's messages), the image writer (signing: the runtime only reads images).
 */
const LEFT_OUT_MARKERS = ["cuDevicePrimaryCtxRetain", "hipModuleLaunchKernel", "clGetPlatformIDs", "data race on ", "the second run raised an error", "its key file", "an Ed25519 private key in PEM is needed"];
/** The bundle in `code` (all its files) holds neither the compiler nor the checks, and refuses what would need them. */
function checkShipped(code: string, what: string): void {
  for (const m of COMPILER_MARKERS) assert.ok(!code.includes(m), `${what}: the compiler's ${JSON.stringify(m)} is in the app's bundle`);
  for (const m of CHECK_MARKERS) assert.ok(!code.includes(m), `${what}: the checks' ${JSON.stringify(m)} is in the app's bundle (a parser or the schema library ships)`);
  assert.ok(code.includes(NO_CHECKS), `${what}: the checks' stand-in is not in the app's bundle`);
  for (const m of LEFT_OUT_MARKERS) assert.ok(!code.includes(m), `${what}: ${JSON.stringify(m)} is in the app's bundle (a device its image has no code for, or the sanitizer)`);
}
let metafiles: { web: Metafile; node: Metafile };

before(async () => {
  rmSync(out, { recursive: true, force: true });
  const { buildApp } = await import("../examples/app/build.mjs");
  metafiles = await buildApp(out, { minify: true });
  // The page again, by vite (its own config: examples/app/vite.config.mjs), into out/vite.
  const { build } = await import("vite");
  await build({ configFile: join(root, "examples/app/vite.config.mjs"), logLevel: "error", build: { outDir: join(out, "vite"), emptyOutDir: true } });
});
after(() => rmSync(out, { recursive: true, force: true }));

const jsFiles = (dir: string) => readdirSync(dir).filter((f) => f.endsWith(".js")).map((f) => readFileSync(join(dir, f), "utf8"));

test("the example app's bundles hold none of the compiler, and minifying renamed its kernels", () => {
  // (All of gpuc: its browser build, and the Node build's devices, which no page has.)
  const full = [...["dist/gpuc.browser.js", "dist/devices/cuda.js", "dist/devices/amdgpu.js", "dist/devices/opencl.js", "dist/devices/cpu-sanitizer.js"].map((f) => readFileSync(join(root, f), "utf8")), ...jsFiles(join(root, "dist/chunks"))].join("\n");
  for (const m of [...COMPILER_MARKERS, ...CHECK_MARKERS, ...LEFT_OUT_MARKERS]) assert.ok(full.includes(m), `the marker ${JSON.stringify(m)} is in the compiler's code`);
  for (const side of ["web", "node", "vite"] as const) {
    const dir = side === "vite" ? join(out, "vite/assets") : join(out, side);
    const code = jsFiles(dir).join("\n");
    checkShipped(code, side);
    assert.ok(code.includes("kernels.gpuc"), `${side}: the bundle loads its image`);
    // The kernels' own text changed: a key made from it would miss.
    assert.ok(!code.includes("function saxpy("), `${side}: the minifier left the kernel as written`);
    // Their bodies are not there at all (kernels.ts imports gpuc/runtime): each of the four is an empty function with the plugin's options.
    assert.equal(code.match(/\{\},\{id:["`][0-9a-f]{32}["`],name:["`]\w+["`],imageOnly:!0/g)?.length, 4, `${side}: a kernel's body is in the app's bundle`);
    assert.ok(existsSync(join(dir, "kernels.gpuc")), `${side}: the image is beside the bundle`);
    if (side !== "vite") assert.deepEqual(Object.keys(metafiles[side].inputs).filter((i) => /src\/(frontend|infer|compiler)\//.test(i)), []);
  }
});

const runNode = (dir: string) => spawnSync(process.execPath, [join(dir, "node/node.js")], { cwd: root, encoding: "utf8", env: { ...process.env, GPUC_CACHE: "0" } });

test("the minified app runs every kernel from its image on the CPU device in Node (no compiler: no compile; its first launch waits for the image, loaded unawaited)", () => {
  const r = runNode(out);
  assert.equal(r.status, 0, r.stderr);
  const { results } = JSON.parse(r.stdout) as { results: { kernel: string; ok: boolean }[] };
  assert.deepEqual(results.map((x) => [x.kernel, x.ok]), [["saxpy", true], ["shade", true], ["blur", true], ["hash", true]]);
});

/** Whether WebGPU (Dawn) opens here: where it does not, the shipped app runs on the CPU device alone, and says so. */
const webgpuHere = await device("webgpu").then((d) => { d.close(); return true; }, () => false);
if (!webgpuHere && (process.env.GPUC_REQUIRE_DEVICES ?? "").split(",").includes("webgpu")) throw new Error("GPUC_REQUIRE_DEVICES names webgpu, which does not open here");

/**
 * Runs a Node bundle (its folder `dir`, its entry `main`) as shipped: copied to a folder outside
 * the repository whose node_modules holds the two native packages only (a module the app imports
 * that is not there fails the run), on each device its image runs; and the devices it has no code
 * for say so.
 */
function runShipped(dir: string, main: string): void {
  const shipped = mkdtempSync(join(tmpdir(), "gpuc-shipped-"));
  try {
    cpSync(dir, join(shipped, "app"), { recursive: true });
    mkdirSync(join(shipped, "node_modules"));
    for (const pkg of ["webgpu", "koffi"]) symlinkSync(join(root, "node_modules", pkg), join(shipped, "node_modules", pkg), "dir");
    const run = (dev: string) => spawnSync(process.execPath, [join(shipped, "app", main), dev], { cwd: shipped, encoding: "utf8", env: { ...process.env, GPUC_CACHE: "0" } });
    for (const dev of webgpuHere ? ["cpu", "webgpu"] : ["cpu"]) {
      const r = run(dev);
      assert.equal(r.status, 0, `${dir} on ${dev}: ${r.stderr}`);
      const { results } = JSON.parse(r.stdout) as { results: { kernel: string; ok: boolean }[] };
      assert.deepEqual(results.map((x) => [x.kernel, x.ok]), [["saxpy", true], ["shade", true], ["blur", true], ["hash", true]], `${dir} on ${dev}`);
    }
    // The devices its image has no code for are not in it, and say so.
    for (const [dev, name, runs] of [["cuda", "CUDA", "its target: ptx"], ["amdgpu", "the AMD GPU device", "its target: llvm"], ["opencl", "OpenCL", "its targets: opencl, spirv, llvm"]]) {
      const r = run(dev);
      assert.notEqual(r.status, 0, dev);
      assert.match(r.stderr, new RegExp(`KernelError\\]?: ${name} could not be opened: gpuc/plugin built this app's image for (js, wgsl|wgsl, js), with no code for ${name} \\(${runs}\\), so its bundle leaves the device out; add (it|one of those) to the plugin's targets to run kernels there`), `${dir}: ${dev}`);
    }
  } finally { rmSync(shipped, { recursive: true, force: true }); }
}

test("the minified app ships with only its bundle, its image, webgpu and koffi: it runs every kernel on the CPU device and WebGPU in Node with no parser installed (its image is pinned)", (t) => {
  if (!webgpuHere) t.diagnostic("SKIPPED on WebGPU: no WebGPU device here; the CPU device only");
  runShipped(join(out, "node"), "node.js");
});

test("what the app's image lacks says why: a device it has no code for does not open; a kernel of a missing or stale image is a not-precompiled KernelError", async () => {
  // Built for WebGPU only: the CPU device, which could run none of its kernels, is left out.
  const { buildNode } = await import("../examples/app/build.mjs");
  const dir = join(out, "wgsl-only");
  await buildNode(dir, { minify: true, targets: ["wgsl"] });
  // The bundle pins its image: the SHA-256 its loadImage call holds is the image's.
  assert.deepEqual(bundlePins(join(dir, "node")), [imageSha256(readFileSync(join(dir, "node/kernels.gpuc")))]);
  const r = runNode(dir);
  assert.notEqual(r.status, 0);
  assert.match(r.stderr, /KernelError\]: the CPU device cannot be opened: gpuc\/plugin built this app's image for wgsl, with no code for the CPU device \(its target: js\), so its bundle leaves it out; add it to the plugin's targets to run kernels there/);
  // The app built for both, without its image: the missing kernel says why the image did not load.
  const both = join(out, "no-image");
  cpSync(join(out, "node"), join(both, "node"), { recursive: true });
  rmSync(join(both, "node/kernels.gpuc"));
  const gone = runNode(both);
  assert.notEqual(gone.status, 0);
  assert.match(gone.stderr, /kernel 'saxpy' is not in the loaded images; compile it at build time \(gpuc\/plugin, gpuc precompile\) or import 'gpuc' instead of 'gpuc\/runtime' \(a kernel image failed to load: cannot read the kernel image file:\/\/.*\/no-image\/node\/kernels\.gpuc: ENOENT/);
  // Another image beside the bundle (one of another build of gpuc: a stale one beside a new
  // bundle): the bundle pins its own, so this one is refused whole, both hashes named.
  const image = readFileSync(join(out, "node/kernels.gpuc"), "utf8");
  const body = image.slice(image.indexOf("\n") + 1).replaceAll(`+${GPUC_BUILD}"`, `+0123456789abcdef"`);
  writeFileSync(join(both, "node/kernels.gpuc"), `gpuc-image 2 ${sha256(body)}\n${body}`);
  const stale = runNode(both);
  assert.notEqual(stale.status, 0);
  assert.match(stale.stderr, new RegExp(`kernel 'saxpy' is not in the loaded images; .* \\(a kernel image failed to load: file://.*/kernels\\.gpuc is not the kernel image this program pins: its SHA-256 is ${sha256(body)}, the program's loadImage expects ${bundlePins(join(both, "node"))[0]}`));
});

/** The SHA-256s the JavaScript files of a bundle's folder pin (loadImage's sha256), each once. */
function bundlePins(dir: string): string[] {
  const pins = new Set<string>();
  for (const f of readdirSync(dir, { recursive: true }).map(String)) {
    if (!/\.[cm]?js$/.test(f)) continue;
    const code = readFileSync(join(dir, f), "utf8");
    assert.doesNotMatch(code, /gpuc:the-kernel-image-sha256/, `${f} still holds the pin's placeholder`);
    for (const m of code.matchAll(/sha256:\s*"([0-9a-f]{64})"/g)) pins.add(m[1]);
  }
  return [...pins];
}

test("a library's kernels (a package in node_modules) go into the app's image", async () => {
  const app = join(out, "lib-app");
  const lib = join(app, "node_modules/triple-lib");
  mkdirSync(lib, { recursive: true });
  symlinkSync(root, join(app, "node_modules/gpuc"));
  writeFileSync(join(lib, "package.json"), JSON.stringify({ name: "triple-lib", type: "module", main: "index.js" }));
  writeFileSync(join(lib, "index.js"), `import { kernel, threadIdx } from "gpuc/runtime";
export const triple = kernel(function triple(x) {
  const i = threadIdx.x;
  if (i < x.length) x[i] = 3 * x[i];
}, { types: { x: "f32[]" } });\n`);
  writeFileSync(join(app, "main.mjs"), `import { device } from "gpuc/runtime";
import { triple } from "triple-lib";
const x = new Float32Array([1, 2]);
await triple.launch(await device("cpu"), { blocks: 1, threads: 2 }, x);
console.log(JSON.stringify([...x]));\n`);
  const { build } = await import("esbuild");
  const { default: gpuc } = await import("gpuc/plugin");
  await build({ entryPoints: [join(app, "main.mjs")], outdir: join(app, "out"), absWorkingDir: app, bundle: true, format: "esm", platform: "node", minify: true,
    splitting: true, logLevel: "error", external: ["webgpu", "koffi"], plugins: [gpuc.esbuild({ targets: ["js"] })] });
  const r = spawnSync(process.execPath, [join(app, "out/main.js")], { cwd: root, encoding: "utf8", env: { ...process.env, GPUC_CACHE: "0" } });
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stdout.trim(), "[3,6]");
});

test("an app bundled with the plugin refuses an image neither pinned nor signed, saying why (its bundle has no checks for one); with checks: true it loads it", async () => {
  const app = join(out, "checks-app");
  mkdirSync(join(app, "node_modules"), { recursive: true });
  symlinkSync(root, join(app, "node_modules/gpuc"));
  // It loads the image given on its command line, pinned when a hash follows.
  // (Or, given "sanitize", opens a sanitizing CPU device, whose sanitizer the bundle leaves out.)
  writeFileSync(join(app, "main.mjs"), `import { device, loadImage } from "gpuc/runtime";
const [image, sha256] = process.argv.slice(2);
try {
  if (image === "sanitize") { (await device("cpu", { sanitize: true })).close(); console.log("{}"); }
  else { const r = await loadImage(image, sha256 ? { sha256 } : {}); console.log(JSON.stringify({ loaded: r.loaded.length, skipped: r.skipped })); }
} catch (e) { console.log(JSON.stringify({ error: e.kind, message: e.message })); }\n`);
  const { build } = await import("esbuild");
  const { default: gpuc } = await import("gpuc/plugin");
  const bundle = async (name: string, checks?: boolean) => {
    await build({ entryPoints: [join(app, "main.mjs")], outdir: join(app, name), absWorkingDir: app, bundle: true, format: "esm", platform: "node", minify: true,
            // (Kept, the check of JS code loads the parser package, native: external as the devices' packages.)
      splitting: true, logLevel: "error", external: ["webgpu", "koffi", ...(checks ? ["oxc-parser"] : [])], plugins: [gpuc.esbuild({ targets: ["js"], ...(checks === undefined ? {} : { checks }) })] });
    return jsFiles(join(app, name)).join("\n");
  };
  const image = join(out, "node/kernels.gpuc");
  const run = (name: string, ...args: string[]) => {
    const r = spawnSync(process.execPath, [join(app, name, "main.js"), ...args], { cwd: tmpdir(), encoding: "utf8", env: { ...process.env, GPUC_CACHE: "0" } });
    assert.equal(r.status, 0, r.stderr);
    return JSON.parse(r.stdout) as { loaded?: number; skipped?: unknown[]; error?: string; message?: string };
  };
  checkShipped(await bundle("plain"), "an app's bundle");
  const refused = run("plain", image);
  assert.equal(refused.error, "invalid-image");
  assert.match(refused.message!, /kernels\.gpuc is neither pinned nor signed, so its records and code must be checked, and this app was bundled by gpuc\/plugin, which leaves out gpuc's checks .* give the plugin the option checks: true/);
  assert.deepEqual(run("plain", "sanitize"), { error: "device-unavailable", message: `device("cpu", { sanitize: true }) runs kernels compiled to be sanitized, which this app's image does not hold (gpuc/plugin built this app's image for js): the sanitizer is left out of its bundle; sanitize in development, with gpuc` });
  // Pinned, the same image loads without them.
  assert.deepEqual(run("plain", image, imageSha256(readFileSync(image))), { loaded: 8, skipped: [] });
  // Kept, the checks come with their parser and schemas, and the image loads unpinned.
  const kept = await bundle("kept", true);
  for (const m of CHECK_MARKERS.slice(1)) assert.ok(kept.includes(m), `checks: true keeps ${JSON.stringify(m)}`);
  assert.ok(kept.includes("its key file"), "checks: true keeps the disk cache (where the entries it checked are kept)");
  assert.deepEqual(run("kept", image), { loaded: 8, skipped: [] });
  // A mistaken option is the build's error.
  assert.throws(() => gpuc.esbuild({ checks: "yes" as never }), /gpuc plugin: checks must be true or false, got string/);
});

// ---- rollup and webpack -----------------------------------------------------------------------

/** What a bundle built with the plugin must show: none of the compiler, every kernel's id in its call, the image beside it, and every kernel run from it in Node (gpuc/runtime: a compile would be a not-precompiled error). */
function checkNodeBundle(dir: string, main: string): void {
  const code = jsFiles(dir).join("\n");
  checkShipped(code, dir);
  assert.equal(code.match(/\bid: ?"[0-9a-f]{32}"/g)?.length, 4, "the four kernels' ids are written into their calls");
  assert.ok(existsSync(join(dir, "kernels.gpuc")), "the image is beside the bundle");
  assert.deepEqual(bundlePins(dir), [imageSha256(readFileSync(join(dir, "kernels.gpuc")))], "the bundle pins its image");
  // (Run from elsewhere, as shipped: the bundle finds its image where it is, not in the working directory.)
  runShipped(dir, main);
}

/** The example app's modules are TypeScript: the bundler's own TypeScript step (here esbuild's transform) comes after gpuc's plugin, which reads the annotations. */
const stripTypes = async (code: string, id: string) => (await (await import("esbuild")).transform(code, { loader: "ts", format: "esm", target: "es2022", sourcefile: id })).code;

/** The example app's Node script (node.ts) or page (main.ts, with its index.html) bundled by rollup into `dir`. */
async function rollupApp(dir: string, side: "node" | "web"): Promise<void> {
  const { rollup } = await import("rollup");
  const { nodeResolve } = await import("@rollup/plugin-node-resolve");
  const { default: gpuc } = await import("gpuc/plugin");
  const bundle = await rollup({
    input: join(root, `examples/app/${side === "node" ? "node" : "main"}.ts`), external: side === "node" ? [/^(webgpu|koffi)(\/|$)/] : [],
    // (The page: gpuc/runtime's browser build.)
    plugins: [gpuc.rollup({ targets: ["wgsl", "js"] }), { name: "types", transform: (code: string, id: string) => (/\.ts$/.test(id) ? stripTypes(code, id) : null) }, nodeResolve({ preferBuiltins: true, browser: side === "web" })],
    onwarn: (w) => assert.fail(`rollup: ${w.message}`),
  });
  await bundle.write({ dir, format: "es" });
  await bundle.close();
  if (side === "web") writeAppPage(dir);
}

/** The same by webpack (ES module output: a bundle finds its image by its public path). */
async function webpackApp(dir: string, side: "node" | "web"): Promise<void> {
  const { default: webpack } = await import("webpack");
  const { default: gpuc } = await import("gpuc/plugin");
  mkdirSync(dir, { recursive: true });
  const loader = join(out, "strip-types.cjs");
  writeFileSync(loader, `const { transformSync } = require("esbuild");\nmodule.exports = function (code) { return transformSync(code, { loader: "ts", format: "esm", target: "es2022", sourcefile: this.resourcePath }).code; };\n`);
  const compiler = webpack({
    mode: "production", target: side, context: join(root, "examples/app"), entry: join(root, `examples/app/${side === "node" ? "node" : "main"}.ts`),
    output: { path: dir, filename: `${side === "node" ? "node" : "main"}.js`, module: true, ...(side === "node" ? { chunkFormat: "module" as const } : {}) },
    experiments: { outputModule: true },
    ...(side === "node" ? { externals: [/^(webgpu|koffi)(\/|$)/], externalsType: "module" as const } : {}),
    resolve: { extensions: [".ts", ".js"] }, module: { rules: [{ test: /\.ts$/, loader }] },
    plugins: [gpuc.webpack({ targets: ["wgsl", "js"] })],
  });
  const stats = await new Promise<import("webpack").Stats>((done, fail) => compiler.run((e, st) => (e ? fail(e) : done(st!))));
  await new Promise((done) => compiler.close(done));
  const info = stats.toJson({ all: false, errors: true, warnings: true });
  assert.deepEqual([...(info.errors ?? []), ...(info.warnings ?? [])].map((e) => e.message), []);
  if (side === "web") writeAppPage(dir);
}

/** The page's index.html beside a bundle of main.ts (as build.mjs writes esbuild's). */
function writeAppPage(dir: string): void {
  writeFileSync(join(dir, "index.html"), readFileSync(join(root, "examples/app/index.html"), "utf8").replace("./main.ts", "./main.js"));
}

test("rollup: the example app's Node script bundled with the plugin holds none of the compiler or its checks and, shipped with only webgpu and koffi, runs every kernel from the image emitted beside it", async () => {
  await rollupApp(join(out, "rollup"), "node");
  checkNodeBundle(join(out, "rollup"), "node.js");
});

test("webpack: the example app's Node script bundled with the plugin holds none of the compiler or its checks and, shipped with only webgpu and koffi, runs every kernel from the image emitted beside it", async () => {
  await webpackApp(join(out, "webpack"), "node");
  checkNodeBundle(join(out, "webpack"), "node.js");
});

// ---- gpuc precompile and the plugin: one key --------------------------------------------------

const precompile = (workload: string, image: string) =>
  spawnSync(process.execPath, [join(root, "dist/cli/main.js"), "precompile", workload, "-o", image], { cwd: root, encoding: "utf8", env: { ...process.env, GPUC_CACHE: "0" } });

test("gpuc precompile's image serves the app bundled with the plugin: the kernels it runs unbundled are filed under the plugin's ids too", async () => {
  const { buildNode } = await import("../examples/app/build.mjs");
  const dir = join(out, "precompiled");
  await buildNode(dir, { minify: true, targets: ["js"] });
  const image = join(dir, "node/kernels.gpuc");
  const { entries: built } = await parseImage(readFileSync(image), image);
  assert.equal(built.length, 4);
  rmSync(image);
  // The workload imports the app's kernels module as it is (no bundler: no ids in the calls).
  const workload = join(out, "workload.ts");
  writeFileSync(workload, `import { device } from "gpuc/runtime";\nimport { runAll } from "../run.ts";\nexport default async function () { await runAll(await device("cpu")); }\n`);
  const p = precompile(workload, image);
  assert.equal(p.status, 0, p.stderr);
  // Each kernel twice: under its source-text key (a package imported as it is) and its id's.
  assert.match(p.stdout, /: 8 specialization\(s\) of 4 kernel\(s\), \d+ bytes/);
  const { entries } = await parseImage(readFileSync(image), image);
  const keys = new Set(entries.map((e) => e.key));
  assert.deepEqual(built.filter((e) => !keys.has(e.key)).map((e) => e.kernel), [], "every key of the plugin's image is in precompile's");
  // `gpuc image inspect` lists each kernel's code once, with the keys it is filed under.
  const inspect = spawnSync(process.execPath, [join(root, "dist/cli/main.js"), "image", "inspect", image], { cwd: root, encoding: "utf8" });
  assert.equal(inspect.status, 0, inspect.stderr);
  const listed = inspect.stdout.split("\n").filter((l) => /^ {2}js /.test(l));
  assert.equal(listed.length, 4, inspect.stdout);
  for (const l of listed) assert.match(l, /, under 2 keys \(its source text's and the bundler plugin's id\)$/);
  // The bundle pins the image it was built with: made to pin precompile's instead (as a build of
  // it would), it runs from that image. The bundle has no compiler: a kernel missing from the
  // image would be a not-precompiled error (zero compiles).
  const [was] = bundlePins(join(dir, "node"));
  const now = imageSha256(readFileSync(image));
  for (const f of readdirSync(join(dir, "node"), { recursive: true }).map(String).filter((x) => /\.[cm]?js$/.test(x))) {
    const path = join(dir, "node", f);
    writeFileSync(path, readFileSync(path, "utf8").replaceAll(was, now));
  }
  const r = runNode(dir);
  assert.equal(r.status, 0, r.stderr);
  const { results } = JSON.parse(r.stdout) as { results: { kernel: string; ok: boolean }[] };
  assert.deepEqual(results.map((x) => [x.kernel, x.ok]), [["saxpy", true], ["shade", true], ["blur", true], ["hash", true]]);
});

test("gpuc precompile: a kernel the plugin gives no id (its scope imports a value) keeps the source-text key alone, and runs from it unbundled", () => {
  const dir = join(out, "no-id");
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "scale.ts"), "export const SCALE = 2;\n");
  writeFileSync(join(dir, "kernels.ts"), `import { kernel, threadIdx, type f32 } from "gpuc/runtime";
import { SCALE } from "./scale.ts";
export const scaled = kernel(function scaled(x: Float32Array) {
  const i = threadIdx.x;
  if (i < x.length) x[i] = x[i] * SCALE;
}, { scope: { SCALE } });
export const shifted = kernel(function shifted(a: f32, x: Float32Array) {
  const i = threadIdx.x;
  if (i < x.length) x[i] = x[i] + a;
});
export async function run(dev: import("gpuc/runtime").Device): Promise<number[]> {
  const x = new Float32Array([1, 2, 3]);
  await scaled.launch(dev, { blocks: 1, threads: 4 }, x);
  await shifted.launch(dev, { blocks: 1, threads: 4 }, 0.5, x);
  return [...x];
}\n`);
  writeFileSync(join(dir, "workload.ts"), `import { device } from "gpuc/runtime";\nimport { run } from "./kernels.ts";\nexport default async function () { await run(await device("cpu")); }\n`);
  writeFileSync(join(dir, "app.ts"), `import { device, loadImage } from "gpuc/runtime";\nimport { run } from "./kernels.ts";\nawait loadImage(process.argv[2]);\nconsole.log(JSON.stringify(await run(await device("cpu"))));\n`);
  const image = join(dir, "kernels.gpuc");
  const p = precompile(join(dir, "workload.ts"), image);
  assert.equal(p.status, 0, p.stderr);
  // shifted twice (its text key and its id's), scaled once (its text key).
  assert.match(p.stdout, /: 3 specialization\(s\) of 2 kernel\(s\), \d+ bytes/);
  // gpuc/runtime, unbundled: no compiler, so a kernel not found by its text key would be a not-precompiled error.
  const r = spawnSync(process.execPath, ["--import", "tsx", join(dir, "app.ts"), image], { cwd: root, encoding: "utf8", env: { ...process.env, GPUC_CACHE: "0" } });
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stdout.trim(), "[2.5,4.5,6.5]");
});

test("gpuc precompile: a kernel in JavaScript generated from TypeScript gets the id the plugin gives the .ts (through the source map)", async () => {
  const dir = join(out, "mapped");
  mkdirSync(dir, { recursive: true });
  const ts = `import { kernel, threadIdx, type f32 } from "gpuc/runtime";
export const shifted = kernel(function shifted(a: f32, x: Float32Array) {
  const i = threadIdx.x;
  if (i < x.length) x[i] = x[i] + a;
});\n`;
  writeFileSync(join(dir, "kernels.ts"), ts);
  // As tsc or a build step leaves it: JavaScript beside its source, with an inline source map (no tsx, no source maps on in the process).
  const { transform } = await import("esbuild");
  writeFileSync(join(dir, "kernels.js"), (await transform(ts, { loader: "ts", format: "esm", sourcemap: "inline", sourcefile: "kernels.ts" })).code);
  writeFileSync(join(dir, "workload.mjs"), `import { device } from "gpuc/runtime";\nimport { shifted } from "./kernels.js";\nexport default async function () { await shifted.launch(await device("cpu"), { blocks: 1, threads: 2 }, 1, new Float32Array(2)); }\n`);
  const image = join(dir, "kernels.gpuc");
  const p = precompile(join(dir, "workload.mjs"), image);
  assert.equal(p.status, 0, p.stderr);
  const { entries } = await parseImage(readFileSync(image), image);
  const id = fileKernels(join(dir, "kernels.ts"), ts)[0].call!.id;
  assert.deepEqual(entries.map((e) => e.fingerprint === idFingerprint(id, "shifted", undefined)).sort(), [false, true], "under the text key and the .ts's id");
  // The finder itself: the call around the position, only for a kernel of the same signature (a
  // position mapped wrong never files one kernel's code under another's id).
  const find = pluginIdFinder();
  const at = { file: join(dir, "kernels.ts"), line: 2, column: 24 };
  assert.deepEqual(find(at, { paramNames: ["a", "x"], declared: ["f32", "f32[]"] }), { id, name: "shifted" });
  assert.equal(find(at, { paramNames: ["a", "x"], declared: ["f64", "f32[]"] }), null);
  assert.equal(find({ ...at, line: 1 }, { paramNames: ["a", "x"], declared: ["f32", "f32[]"] }), null, "no kernel() call there");
  assert.equal(find({ ...at, file: join(dir, "gone.ts") }, { paramNames: ["a", "x"], declared: ["f32", "f32[]"] }), null, "no such file");
});

// ---- in Chromium ------------------------------------------------------------------------------

const CHROMIUM = "/usr/bin/chromium";
const required = (process.env.GPUC_REQUIRE_DEVICES ?? "").split(",").includes("browser");
const noChromium = existsSync(CHROMIUM) ? null : `SKIPPED: no ${CHROMIUM} (apt-get install chromium)`;
if (noChromium && required) throw new Error(`the browser test is required (GPUC_REQUIRE_DEVICES) but ${noChromium}`);

const NO_ADAPTER = "SKIPPED: the WebGPU runs (Chromium has no WebGPU adapter on this machine); the CPU device's ran";

/**
 * Asks the app page at `probe` for a WebGPU adapter (on the app's origin: about:blank is no secure
 * context, where navigator.gpu is absent), then runs the app at `urls(kind)` on WebGPU (where there
 * is an adapter) and on the CPU device, each page's four kernels checked. Fails where the browser
 * is required and has no adapter; returns whether the WebGPU runs ran.
 */
async function runAppPages(page: Page, probe: string, urls: (kind: string) => string[]): Promise<boolean> {
  await page.goto(probe);
  const adapter = await page.evaluate(async () => !!(navigator.gpu && (await navigator.gpu.requestAdapter())));
  if (!adapter && required) assert.fail("the browser test is required (GPUC_REQUIRE_DEVICES) but Chromium has no WebGPU adapter here");
  for (const kind of adapter ? ["webgpu", "cpu"] : ["cpu"]) for (const url of urls(kind)) {
    await page.goto(url);
    await page.waitForFunction(() => document.title.startsWith("done") || document.title === "error", undefined, { timeout: 60_000 });
    const text = await page.$eval("#results", (e) => e.textContent ?? "");
    assert.equal(await page.title(), `done: ${kind}`, `${url}: ${text}`);
    assert.deepEqual((JSON.parse(text) as { kernel: string; ok: boolean }[]).map((x) => [x.kernel, x.ok]), [["saxpy", true], ["shade", true], ["blur", true], ["hash", true]]);
    // The CPU device ran kernels as WebAssembly (their modules, from the image, loaded in the page).
    if (kind === "cpu") assert.ok(await page.evaluate(() => (globalThis as { wasmRuns?: number }).wasmRuns ?? 0) > 0, `${url}: no kernel ran as WebAssembly`);
  }
  return adapter;
}

/**
 * Counts the launches WebAssembly modules run in the page (`run`, the contract's entry:
 * targets/js/wasm-abi.ts). A script as text: a function would be passed through the test's own
 * transpiler, whose helpers the page has not.
 */
async function countWasmRuns(page: Page): Promise<void> {
  await page.addInitScript(`(() => {
    globalThis.wasmRuns = 0;
    const Instance = WebAssembly.Instance;
    WebAssembly.Instance = function (module, imports) {
      const x = new Instance(module, imports).exports, run = x.run;
      return { exports: { ...x, run: (...a) => { globalThis.wasmRuns++; return run(...a); } } };
    };
  })();`);
}

/** The policy README's "Shipping kernels" gives a page with gpuc/runtime's two devices. */
const PAGE_CSP = "default-src 'self'; script-src 'self' 'unsafe-eval'";
/** Without 'unsafe-eval': WebGPU runs, the CPU device says at device() why it cannot. */
const STRICT_CSP = "default-src 'self'; script-src 'self'";

test("the minified app's page, built by esbuild, vite, rollup and webpack, runs every kernel from its image on WebGPU and the CPU device in Chromium, under a Content-Security-Policy", { skip: noChromium ?? false }, async (t) => {
  await rollupApp(join(out, "rollup-web"), "web");
  await webpackApp(join(out, "webpack-web"), "web");
  for (const dir of ["rollup-web", "webpack-web"]) {
    checkShipped(jsFiles(join(out, dir)).join("\n"), dir);
    assert.ok(existsSync(join(out, dir, "kernels.gpuc")), `${dir}: the image is beside the bundle`);
  }
  const server: Server = createServer((req, res) => {
    const path = normalize(join(out, decodeURIComponent(new URL(req.url ?? "/", "http://x").pathname)));
    if (!path.startsWith(out) || !existsSync(path)) { res.writeHead(404).end(); return; }
    // Under the Content-Security-Policy the README gives a page (its CPU device makes functions of the image's code).
    res.writeHead(200, { "content-type": extname(path) === ".html" ? "text/html" : extname(path) === ".js" ? "text/javascript" : "application/octet-stream", "content-security-policy": req.url?.includes("csp=strict") ? STRICT_CSP : PAGE_CSP }).end(readFileSync(path));
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const browser: Browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ["--no-sandbox", "--enable-unsafe-webgpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"],
  });
  try {
    const base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    const page = await browser.newPage();
    await countWasmRuns(page);
    // Without an adapter (and not required) the CPU device's runs still run; the WebGPU ones are said skipped.
    const pages = ["web", "vite", "rollup-web", "webpack-web"];
    const adapter = await runAppPages(page, `${base}/web/index.html?device=none`, (kind) => pages.map((d) => `${base}/${d}/index.html?device=${kind}`));
    // Under a policy without 'unsafe-eval' the CPU device refuses to open, saying why (WebGPU runs: above, when there is an adapter).
    if (adapter) await runAppPages(page, `${base}/web/index.html?device=none`, (kind) => (kind === "webgpu" ? [`${base}/web/index.html?device=webgpu&csp=strict`] : []));
    await page.goto(`${base}/web/index.html?device=cpu&csp=strict`);
    await page.waitForFunction(() => document.title.startsWith("done") || document.title === "error", undefined, { timeout: 60_000 });
    assert.match(await page.$eval("#results", (e) => e.textContent ?? ""), /^KernelError: the CPU device runs each kernel as a function made from its code, which this page's Content-Security-Policy forbids: allow it with script-src 'unsafe-eval', or run the kernels on WebGPU$/);
    if (!adapter) t.skip(NO_ADAPTER);
  } finally {
    await browser.close();
    server.close();
  }
});

test("vite's dev server: the same app (its import of gpuc/runtime served as gpuc) compiles its kernels in the page", { skip: noChromium ?? false }, async (t) => {
  const { createServer: createViteServer } = await import("vite");
  const server = await createViteServer({ configFile: join(root, "examples/app/vite.config.mjs"), logLevel: "error", server: { port: 0, host: "127.0.0.1" } });
  await server.listen();
  const browser: Browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox", "--enable-unsafe-webgpu", "--disable-background-networking", "--no-first-run"] });
  try {
    const page = await browser.newPage();
    await countWasmRuns(page);
    const app = server.resolvedUrls!.local[0];
    if (!(await runAppPages(page, `${app}index.html?device=none`, (kind) => [`${app}index.html?device=${kind}`]))) t.skip(NO_ADAPTER);
  } finally {
    await browser.close();
    await server.close();
  }
});
