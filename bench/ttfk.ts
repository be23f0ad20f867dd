// Time to first kernel, as whole processes (issue #7): a package of 20 kernels, launched for the
// first time in a new process with no cache, with a warm disk cache, and with a kernel image; on
// the CPU device and on WebGPU, where the baseline is creating the device and the same 20
// pipelines by hand. Also the in-process cost of a launch that hits the kernel's cache.
// Run with `npm run bench:ttfk` (= `npm run build && node --import tsx bench/ttfk.ts`); prints
// markdown tables and writes bench/results-ttfk.json. Never part of `npm test`.
// GPUC_BENCH_BEFORE=<another gpuc checkout, built> runs the same package and scenarios with that
// gpuc too, interleaved in the same rounds, for before/after columns measured side by side (runs
// minutes apart on this machine differ by more than the changes measured).

import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { device, kernel } from "gpuc";
import { median } from "./stats.ts";

const ROOT = fileURLToPath(new URL("../", import.meta.url));
const RUNS = Number(process.env.GPUC_BENCH_RUNS ?? 7);
const dir = mkdtempSync(join(tmpdir(), "gpuc-ttfk-"));
process.env.XDG_RUNTIME_DIR ??= "/tmp";

// ---- the package: 20 kernels, each its own source; one copy per gpuc measured ---------------
const kernels: string[] = [];
for (let i = 0; i < 20; i++) {
  const op = ["x[i] * 2", "x[i] + 1", "Math.sqrt(Math.abs(x[i]))", "x[i] * x[i]", "Math.max(x[i], 0)"][i % 5];
  kernels.push(`export const k${i} = kernel(function k${i}(o, x) {
  const i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < o.length) o[i] = ${op} + ${i};
});`);
}

/** A gpuc build to measure: its checkout, and the folder holding the package, its image and caches. */
interface Gpuc { root: string; dir: string; gpuc: string; cli: string; image: string; signedImage: string | null; pin: string | null; cacheDir: string; keyFile: string }

function makePackage(root: string, where: string): Gpuc {
  mkdirSync(where, { recursive: true });
  const gpuc = join(root, "dist/index.js");
  writeFileSync(join(where, "kernels.mjs"), `import { kernel } from ${JSON.stringify(gpuc)};\n${kernels.join("\n")}\n`);
  writeFileSync(join(where, "workload.mjs"), `import * as K from "./kernels.mjs";
export default async function () {
  for (const k of Object.values(K)) for (const target of ["js", "wgsl"]) await k.compile({ target, types: ["f32[]", "f32[]"] });
}\n`);
  // The program: time from after `import("gpuc")` to the first kernel's result and to all 20.
  writeFileSync(join(where, "app.mjs"), `const t0 = performance.now();
const { device, loadImage } = await import(${JSON.stringify(gpuc)});
const t1 = performance.now();
const K = await import("./kernels.mjs");
const opt = process.argv[4];   // a public key file, or sha256:<pin>
if (process.argv[3]) await loadImage(process.argv[3], !opt ? {} : opt.startsWith("sha256:") ? { sha256: opt.slice(7) } : { publicKey: (await import("node:fs")).readFileSync(opt, "utf8") });
const dev = await device(process.argv[2]);
const x = Float32Array.from({ length: 256 }, (_, i) => i - 128), o = new Float32Array(256);
let first = 0;
for (const k of Object.values(K)) { await k.launch(dev, { blocks: 1, threads: 256 }, o, x); if (!first) first = performance.now(); }
const t2 = performance.now();
dev.close();
process.stdout.write(JSON.stringify({ importMs: t1 - t0, firstMs: first - t1, allMs: t2 - t1, check: o[255] }));
`);
  return { root, dir: where, gpuc, cli: join(root, "dist/cli/main.js"), image: join(where, "kernels.gpucimg"), signedImage: null, pin: null, cacheDir: join(where, "cache"), keyFile: join(where, "cache-key") };
}

const BEFORE = process.env.GPUC_BENCH_BEFORE ? resolve(process.env.GPUC_BENCH_BEFORE) : null;
const builds: Gpuc[] = [makePackage(ROOT, dir), ...(BEFORE ? [makePackage(BEFORE, join(dir, "before"))] : [])];
const GPUC = builds[0].gpuc;
// The WebGPU baseline: Dawn, the device, and the same 20 WGSL pipelines by hand, each launched
// as gpuc launches it: upload the input and the parameters, clear the state header, dispatch,
// read back the output and the state header.
writeFileSync(join(dir, "by-hand.mjs"), `const t1 = performance.now();
const { create, globals } = await import(${JSON.stringify(join(ROOT, "node_modules/webgpu/index.js"))});
Object.assign(globalThis, globals);
const shaders = JSON.parse((await import("node:fs")).readFileSync(process.argv[2], "utf8"));
const gpu = create([]);
const adapter = await gpu.requestAdapter();
const dev = await adapter.requestDevice();
const STORAGE = 0x80, COPY_SRC = 0x04, COPY_DST = 0x08, UNIFORM = 0x40, MAP_READ = 0x01;
const x = Float32Array.from({ length: 256 }, (_, i) => i - 128), o = new Float32Array(256);
const state = dev.createBuffer({ size: 4 * (32 + 65536), usage: STORAGE | COPY_SRC | COPY_DST });
const record = dev.createTexture({ size: [2], dimension: "1d", format: "rgba32sint", usage: 0x08 | 0x01 });
let first = 0;
for (const s of shaders) {
  const module = dev.createShaderModule({ code: s.code });
  // (The exception record's texture, where a kernel raises, as gpuc's device binds it and reads it back.)
  const entries = s.bindings.map((b) => b.kind === "texture" ? { binding: b.binding, visibility: 4, storageTexture: { access: "write-only", format: "rgba32sint", viewDimension: "1d" } }
    : { binding: b.binding, visibility: 4, buffer: { type: b.kind === "uniform" ? "uniform" : b.readOnly ? "read-only-storage" : "storage" } });
  const bgl = dev.createBindGroupLayout({ entries });
  const p = dev.createComputePipeline({ layout: dev.createPipelineLayout({ bindGroupLayouts: [bgl] }), compute: { module, entryPoint: s.entry, constants: { wgx: 256, wgy: 1, wgz: 1 } } });
  const params = new Int32Array(Math.max(4, Math.ceil(s.fields.length / 4) * 4)); s.fields.forEach((f, i) => { if (f.source.length) params[i] = 256; });
  const pb = dev.createBuffer({ size: params.byteLength, usage: UNIFORM | COPY_DST }); dev.queue.writeBuffer(pb, 0, params);
  dev.queue.writeBuffer(state, 0, new Int32Array(32));
  const xb = dev.createBuffer({ size: 1024, usage: STORAGE | COPY_DST | COPY_SRC }); dev.queue.writeBuffer(xb, 0, x);
  const ob = dev.createBuffer({ size: 1024, usage: STORAGE | COPY_DST | COPY_SRC }); dev.queue.writeBuffer(ob, 0, o);
  const byRole = { params: pb, state };
  const group = dev.createBindGroup({ layout: bgl, entries: s.bindings.map((b) => ({ binding: b.binding, resource: b.role === "record" ? record.createView() : { buffer: b.role === "param" ? (b.index === 0 ? ob : xb) : byRole[b.role] } })) });
  const enc = dev.createCommandEncoder(); const pass = enc.beginComputePass();
  pass.setPipeline(p); pass.setBindGroup(0, group); pass.dispatchWorkgroups(1); pass.end();
  const so = dev.createBuffer({ size: 1024, usage: MAP_READ | COPY_DST }), ss = dev.createBuffer({ size: 160, usage: MAP_READ | COPY_DST });
  enc.copyBufferToBuffer(ob, 0, so, 0, 1024); enc.copyBufferToBuffer(state, 0, ss, 0, 128);
  if (s.bindings.some((b) => b.role === "record")) enc.copyTextureToBuffer({ texture: record }, { buffer: ss, offset: 128 }, [2]);
  dev.queue.submit([enc.finish()]);
  await Promise.all([so.mapAsync(1), ss.mapAsync(1)]);
  o.set(new Float32Array(so.getMappedRange()));
  if (!first) first = performance.now();
}
const t2 = performance.now();
dev.destroy();
process.stdout.write(JSON.stringify({ firstMs: first - t1, allMs: t2 - t1, check: o[255] }));
process.exit(0);
`);

function run(args: string[], env: Record<string, string> = {}, cwd = dir): { wall: number; out: Record<string, number> } {
  const t0 = performance.now();
  const r = spawnSync(process.execPath, args, { cwd, encoding: "utf8", env: { ...process.env, ...env } });
  const wall = performance.now() - t0;
  if (r.status !== 0) throw new Error(`${args.join(" ")}: ${r.stderr}`);
  return { wall, out: r.stdout ? JSON.parse(r.stdout) : {} };
}

// Baselines: Node itself, and Node importing gpuc.
const nodeMs = median(Array.from({ length: RUNS }, () => run(["-e", "0"]).wall));
const importMs = median(Array.from({ length: RUNS }, () => run(["-e", `import(${JSON.stringify(GPUC)})`]).wall));
const importBeforeMs = BEFORE ? median(Array.from({ length: RUNS }, () => run(["-e", `import(${JSON.stringify(builds[1].gpuc)})`]).wall)) : null;

// For each gpuc: the image, signed by its publisher (when that gpuc can sign), and a warm disk
// cache, whose key (entries are tagged with it) is kept with the run, apart from the user's.
for (const b of builds) {
  const env = { ...process.env, GPUC_KEY_FILE: b.keyFile };
  const pre = spawnSync(process.execPath, [b.cli, "precompile", join(b.dir, "workload.mjs"), "-o", b.image], { encoding: "utf8", env: { ...env, GPUC_CACHE: "0" } });
  if (pre.status !== 0) throw new Error(pre.stderr);
  // Its pin, where that gpuc prints it (loadImage's sha256).
  b.pin = /sha256 ([0-9a-f]{64})/.exec(pre.stdout)?.[1] ?? null;
  const signed = join(b.dir, "kernels.signed.gpucimg");
  writeFileSync(signed, readFileSync(b.image));
  const signs = [["image", "keygen", join(b.dir, "publisher")], ["image", "sign", signed, "--key", join(b.dir, "publisher.pem")]]
    .every((args) => spawnSync(process.execPath, [b.cli, ...args], { encoding: "utf8" }).status === 0);
  if (signs) b.signedImage = signed;
  else if (b === builds[0]) throw new Error("gpuc image sign failed");
  for (const d of ["cpu", "webgpu"]) {
    run(["app.mjs", d], { GPUC_CACHE_DIR: b.cacheDir, GPUC_KEY_FILE: b.keyFile }, b.dir);
    run(["app.mjs", d, b.image], { GPUC_CACHE_DIR: join(b.dir, "image-cache"), GPUC_KEY_FILE: b.keyFile }, b.dir);
  }
}
const { parseImage } = await import("../src/cache/image-file.ts");
const image = builds[0].image;
const wgsl = (await parseImage(readFileSync(image), image)).entries.filter((e) => e.owner.target === "wgsl").map((e) => ({ code: e.artifact.code, entry: e.artifact.entry, bindings: e.artifact.layout!.bindings, fields: e.artifact.layout!.fields }));
writeFileSync(join(dir, "shaders.json"), JSON.stringify(wgsl));

const rows: string[][] = [];
const results: Record<string, unknown> = { nodeMs, importMs, ...(importBeforeMs !== null ? { importBeforeMs } : {}) };
/** One scenario: a device, what runs, the program and its environment, and which gpuc (null: none). */
interface Scenario { dev: string; label: string; args: string[]; env: Record<string, string>; build: Gpuc | null }
const scenarios: Scenario[] = [];
for (const dev of ["cpu", "webgpu"]) {
  for (const b of builds) {
    const key = { GPUC_KEY_FILE: b.keyFile };
    scenarios.push({ dev, label: "no cache", args: ["app.mjs", dev], env: { ...key, GPUC_CACHE: "0" }, build: b });
    scenarios.push({ dev, label: "warm disk cache", args: ["app.mjs", dev], env: { ...key, GPUC_CACHE_DIR: b.cacheDir }, build: b });
    scenarios.push({ dev, label: "kernel image", args: ["app.mjs", dev, b.image], env: { ...key, GPUC_CACHE: "0" }, build: b });
    // The disk cache on (the default) beside an unsigned image: the first process checked the image's
    // entries and kept them there (tagged with the user's key); these runs take the kept copies.
    scenarios.push({ dev, label: "kernel image, disk cache on (checked copies kept)", args: ["app.mjs", dev, b.image], env: { ...key, GPUC_CACHE_DIR: join(b.dir, "image-cache") }, build: b });
    if (b.signedImage) scenarios.push({ dev, label: "kernel image, signed (verified)", args: ["app.mjs", dev, b.signedImage, join(b.dir, "publisher.pub.pem")], env: { ...key, GPUC_CACHE: "0" }, build: b });
    if (b.pin) scenarios.push({ dev, label: "kernel image, pinned (loadImage's sha256)", args: ["app.mjs", dev, b.image, `sha256:${b.pin}`], env: { ...key, GPUC_CACHE: "0" }, build: b });
  }
  if (dev === "webgpu") scenarios.push({ dev, label: "by hand: device + 20 pipelines (baseline)", args: ["by-hand.mjs", join(dir, "shaders.json")], env: {}, build: null });
}
// Interleaved: round r runs every scenario once, so drift on the machine falls on all alike.
const samples = scenarios.map(() => [] as { wall: number; out: Record<string, number> }[]);
for (let r = 0; r < RUNS; r++) scenarios.forEach((c, i) => samples[i].push(run(c.args, c.env, c.build?.dir ?? dir)));
const stat = (i: number) => ({ first: median(samples[i].map((s) => s.out.firstMs)), all: median(samples[i].map((s) => s.out.allMs)), wall: median(samples[i].map((s) => s.wall)) });
scenarios.forEach((c, i) => {
  if (c.build && c.build !== builds[0]) return;
  const now = stat(i);
  const j = scenarios.findIndex((o) => o.dev === c.dev && o.label === c.label && o.build !== null && o.build !== builds[0]);
  const before = j >= 0 ? stat(j) : null;
  const cell = (v: number | undefined) => (v === undefined ? "" : v.toFixed(1));
  rows.push([c.dev, c.label, now.first.toFixed(1), ...(BEFORE ? [cell(before?.first)] : []), now.all.toFixed(1), ...(BEFORE ? [cell(before?.all)] : []), now.wall.toFixed(0)]);
  results[`${c.dev}/${c.label}`] = { firstMs: now.first, allMs: now.all, wallMs: now.wall, samples: samples[i].map((s) => s.out.allMs), ...(before ? { before: { firstMs: before.first, allMs: before.all, wallMs: before.wall, samples: samples[j].map((s) => s.out.allMs) } } : {}) };
});
if (BEFORE) results.before = { root: BEFORE };

// In-process: a launch that hits the kernel's own cache, against the device's launch of the same loaded kernel.
const cpu = await device("cpu");
const tiny = kernel(function tiny(o: Float32Array) { if (threadIdx.x === 0) o[0] = o[0] + 1; });
const o = new Float32Array(1);
await tiny.launch(cpu, { blocks: 1, threads: 1 }, o);
const N = 20000;
const per = (f: () => Promise<void>) => async () => { const t0 = performance.now(); for (let i = 0; i < N; i++) await f(); return ((performance.now() - t0) / N) * 1000; };
const art = await tiny.compile({ target: "js", types: ["f32[]"] });
const loaded = cpu.load(art);
const grid = { blocks: [1, 1, 1] as [number, number, number], threads: [1, 1, 1] as [number, number, number] };
const viaKernel = per(() => tiny.launch(cpu, { blocks: 1, threads: 1 }, o)), direct = per(() => cpu.launch(loaded, [o], grid));
const hit: number[] = [], raw: number[] = [];
for (let r = 0; r < 7; r++) { hit.push(await viaKernel()); raw.push(await direct()); }
cpu.close();
results.launchHitUs = median(hit);
results.deviceLaunchUs = median(raw);

console.log(`\n### i1. Time to first kernel: a package of 20 kernels, a new process each (median of ${RUNS}, interleaved; ms after \`import("gpuc")\`)\n`);
console.log(`Node alone: ${nodeMs.toFixed(0)} ms; Node importing gpuc: ${importMs.toFixed(0)} ms${importBeforeMs !== null ? ` (${importBeforeMs.toFixed(0)} before)` : ""} (wall, whole process).\n`);
const head = ["device", "run", "first result (ms)", ...(BEFORE ? ["before"] : []), "all 20 results (ms)", ...(BEFORE ? ["before"] : []), "process wall (ms)"];
console.log([head, head.map(() => "---"), ...rows].map((r) => `| ${r.join(" | ")} |`).join("\n"));
console.log(`\n### i2. A launch that hits the kernel's cache (CPU device, 1 thread, median of 7 × ${N} launches)\n`);
console.log(`| k.launch (cache hit) | dev.launch of the loaded kernel | gpuc's own cost per launch |\n| --- | --- | --- |\n| ${median(hit).toFixed(2)} µs | ${median(raw).toFixed(2)} µs | ${(median(hit) - median(raw)).toFixed(2)} µs |`);
writeFileSync(fileURLToPath(new URL("./results-ttfk.json", import.meta.url)), JSON.stringify({ date: new Date().toISOString(), results }, null, 2));
if (!process.env.GPUC_BENCH_KEEP) rmSync(dir, { recursive: true, force: true });   // the packages, images and caches of this run (GPUC_BENCH_KEEP=1 keeps them)
