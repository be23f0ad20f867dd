// gpuc benchmarks on the WebGPU device (Dawn, the npm `webgpu` package): generated WGSL against
// hand-written WGSL of the same algorithm on the same GPUDevice, compile latency to WGSL, Dawn's
// shader-module and pipeline creation, and the time from `device("webgpu")` to the first result
// in a new process. Run with `npm run bench:webgpu` (= `npm run build && node --import tsx
// bench/webgpu.ts`); prints markdown tables and writes bench/results-webgpu.json. Never part of
// `npm test`. Section f of BENCHMARKS.md.

/// <reference types="@webgpu/types" />

import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import { fileURLToPath } from "node:url";
import { device, kernel } from "gpuc";
// @ts-ignore -- plain JS module shared with bench/run.ts
import { KERNELS, tiny } from "./kernels.mjs";
// @ts-ignore -- plain JS module shared with the child process
import { MATMUL_WGSL, SAXPY_WGSL } from "./wgsl.mjs";
import { median, ms, signed, num, table, section, stats, machineInfo, machineCpu, otherCpuLoad, ownCpu } from "./stats.ts";

// The compiler is what is measured: no disk cache (GPUC_CACHE=0 for this process and its children).
process.env.GPUC_CACHE = "0";

process.env.XDG_RUNTIME_DIR ??= "/tmp"; // Mesa's lavapipe wants one; the child processes inherit it
const ROOT = fileURLToPath(new URL("../", import.meta.url));
const COLD_SCRIPT = fileURLToPath(new URL("./webgpu-cold.mjs", import.meta.url));
const started = performance.now();


// ---- the machine ----------------------------------------------------------------------------

/**
 * CPU time of this process's main thread alone, ms (Linux; null elsewhere): the JS thread, which
 * also runs Dawn's polling while a promise of the device is pending.
 */
function mainThreadCpu(): number | null {
  try {
    const stat = readFileSync(`/proc/self/task/${process.pid}/stat`, "utf8");
    const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return ((+f[11] + +f[12]) * 1000) / 100; // utime + stime, in clock ticks of 1/100 s
  } catch { return null; }
}

const machine = { ...machineInfo(ROOT), lpNumThreads: process.env.LP_NUM_THREADS ?? null };
const command = "npm run bench:webgpu   # = npm run build && node --import tsx bench/webgpu.ts";
console.log(`## gpuc benchmarks: WebGPU\n\nCommand: \`${command}\`\n`);
console.log(`gpuc: commit ${machine.gitCommit}${machine.srcModified ? " with uncommitted changes under src/" : ""}, ${machine.date}\n`);
console.log(`Machine: ${machine.cores} cores (${machine.cpuModel}), ${machine.memoryGiB} GiB, ${machine.platform}; Node.js ${machine.node}`);
const otherLoadAtStart = await otherCpuLoad(1000);
console.log(`Other CPU load at start: ${(100 * otherLoadAtStart).toFixed(0)}% of ${machine.cores} cores; load average ${machine.loadAverageAtStart.join(", ")}`);
if (otherLoadAtStart > 0.1) console.log("Warning: other work is running on this machine; lavapipe runs on these CPUs, so every timing is affected.");

const inProcessStart = { machine: machineCpu(), own: ownCpu() };
const dev = await device("webgpu");
const gpu: GPUDevice = (dev as unknown as { gpu: GPUDevice }).gpu;
console.log(`Device: ${dev.name}`);

// ---- the raw WebGPU path -----------------------------------------------------------------------

const STORAGE = 0x80, COPY_SRC = 0x04, COPY_DST = 0x08, UNIFORM = 0x40, MAP_READ = 0x01;
type BufKind = "uniform" | "read-only-storage" | "storage" | "texture";
/** `record`: the kernel binds WGSL's exception record (a texture), which a launch reads back with the state's header. */
interface Raw { name: string; pipeline: GPUComputePipeline; bindGroup: GPUBindGroup; groups: [number, number, number]; record: boolean }

/** A pipeline and bind group for `code`, with an explicit layout (binding numbers[i], or i, has kind kinds[i]). */
function rawKernel(name: string, code: string, kinds: BufKind[], buffers: (GPUBuffer | GPUTextureView)[], groups: [number, number, number], constants?: Record<string, number>, numbers?: number[]): Raw {
  const module = gpu.createShaderModule({ code, label: name });
  const at = (i: number) => numbers?.[i] ?? i;
  // ("texture": WGSL's exception record, bound as gpuc's device binds it.)
  const bgl = gpu.createBindGroupLayout({ entries: kinds.map((type, i): GPUBindGroupLayoutEntry => (type === "texture"
    ? { binding: at(i), visibility: 4, storageTexture: { access: "write-only", format: "rgba32sint", viewDimension: "1d" } }
    : { binding: at(i), visibility: 4 /* COMPUTE */, buffer: { type } })) });
  const pipeline = gpu.createComputePipeline({
    layout: gpu.createPipelineLayout({ bindGroupLayouts: [bgl] }),
    compute: { module, entryPoint: "main", ...(constants ? { constants } : {}) },
  });
  const bindGroup = gpu.createBindGroup({ layout: bgl, entries: buffers.map((buffer, i) => ({ binding: at(i), resource: "mapAsync" in buffer ? { buffer } : buffer })) });
  return { name, pipeline, bindGroup, groups, record: kinds.includes("texture") };
}

function uniform(words: ArrayBufferView): GPUBuffer {
  const size = Math.max(16, Math.ceil(words.byteLength / 16) * 16);
  const buf = gpu.createBuffer({ size, usage: UNIFORM | COPY_DST });
  gpu.queue.writeBuffer(buf, 0, words.buffer, words.byteOffset, words.byteLength);
  return buf;
}

/** A uniform block of 4-byte fields. */
function block(...fields: ["f32" | "u32" | "i32", number][]): GPUBuffer {
  const v = new DataView(new ArrayBuffer(4 * fields.length));
  fields.forEach(([t, x], i) => (t === "f32" ? v.setFloat32(i * 4, x, true) : t === "u32" ? v.setUint32(i * 4, x, true) : v.setInt32(i * 4, x, true)));
  return uniform(v);
}

/** gpuc's kernel state buffer, as the device makes it (header, then the print area). */
const STATE_HEADER_BYTES = 128;
const rawState = gpu.createBuffer({ size: 4 * (32 + (1 << 16)), usage: STORAGE | COPY_SRC | COPY_DST });
gpu.queue.writeBuffer(rawState, 0, new Int32Array(32));
/** WGSL's exception record (targets/wgsl/emit.ts, RECORD), as the device makes it. */
const rawRecordTexture = gpu.createTexture({ size: [2], dimension: "1d", format: "rgba32sint", usage: 0x08 /* STORAGE_BINDING */ | 0x01 /* COPY_SRC */ });
const rawRecord = { texture: rawRecordTexture, view: rawRecordTexture.createView() };

/**
 * gpuc's own WGSL for `types`, launched through the raw path: the bindings filled as gpuc's
 * device fills them (the params block, the state buffer, then the arrays), the workgroup size
 * through the override constants.
 */
async function gpucRaw(name: string, k: ReturnType<typeof kernel>, types: string[], args: (number | GPUBuffer)[], lengths: number[], groups: [number, number, number], threads: [number, number, number], edit?: (code: string) => string): Promise<Raw & { code: string }> {
  const art = await k.compile({ target: "wgsl", types });
  const layout = art.layout!;
  const params = new DataView(new ArrayBuffer(Math.ceil((layout.fields.length * 4) / 16) * 16));
  layout.fields.forEach((f, i) => {
    if (f.source.param < 0) return;
    if (f.source.length) params.setInt32(i * 4, lengths[f.source.param], true);
    else if (f.type === "f32") params.setFloat32(i * 4, args[f.source.param] as number, true);
    else params.setInt32(i * 4, args[f.source.param] as number, true);
  });
  const buffers: (GPUBuffer | GPUTextureView)[] = [], kinds: BufKind[] = [];
  for (const b of layout.bindings) {
    kinds.push(b.kind === "texture" ? "texture" : b.kind === "uniform" ? "uniform" : b.readOnly ? "read-only-storage" : "storage");
    buffers.push(b.role === "record" ? rawRecord.view : b.role === "params" ? uniform(params) : b.role === "state" ? rawState : (args[b.index] as GPUBuffer));
  }
  const code = edit ? edit(art.code as string) : (art.code as string);
  const [wgx, wgy, wgz] = layout.workgroupSize;
  // A kernel with no check left has no state binding: binding numbers as the layout gives them.
  return { ...rawKernel(name, code, kinds, buffers, groups, { [wgx]: threads[0], [wgy]: threads[1], [wgz]: threads[2] }, layout.bindings.map((b) => b.binding)), code };
}

function encode(r: Raw): GPUCommandEncoder {
  const enc = gpu.createCommandEncoder();
  const pass = enc.beginComputePass();
  pass.setPipeline(r.pipeline);
  pass.setBindGroup(0, r.bindGroup);
  pass.dispatchWorkgroups(...r.groups);
  pass.end();
  return enc;
}
/** One dispatch: encode, submit, await onSubmittedWorkDone. */
async function dispatch(r: Raw): Promise<void> {
  gpu.queue.submit([encode(r).finish()]);
  await gpu.queue.onSubmittedWorkDone();
}
/**
 * One dispatch finished as gpuc's launch finishes it: the state header cleared before, and copied
 * into a staging buffer (reused, as the device pools them) in the same submission, mapped and
 * read after.
 */
const headerStaging = gpu.createBuffer({ size: STATE_HEADER_BYTES + 32, usage: MAP_READ | COPY_DST });
async function dispatchWithHeader(r: Raw): Promise<void> {
  gpu.queue.writeBuffer(rawState, 0, new Int32Array(32));
  const enc = encode(r);
  enc.copyBufferToBuffer(rawState, 0, headerStaging, 0, STATE_HEADER_BYTES);
  // (The exception record's texels after the header, in the same staging buffer, as the device reads them.)
  if (r.record) enc.copyTextureToBuffer({ texture: rawRecord.texture }, { buffer: headerStaging, offset: STATE_HEADER_BYTES }, [2]);
  gpu.queue.submit([enc.finish()]);
  await headerStaging.mapAsync(1 /* READ */);
  const header = new Int32Array(headerStaging.getMappedRange().slice(0));
  headerStaging.unmap();
  if (header[0] !== 0) throw new Error(`${r.name}: the kernel raised exception code ${header[0]}`);
}

async function readBuffer(src: GPUBuffer, bytes: number): Promise<ArrayBuffer> {
  const staging = gpu.createBuffer({ size: bytes, usage: MAP_READ | COPY_DST });
  const enc = gpu.createCommandEncoder();
  enc.copyBufferToBuffer(src, 0, staging, 0, bytes);
  gpu.queue.submit([enc.finish()]);
  await staging.mapAsync(1);
  const out = staging.getMappedRange().slice(0);
  staging.unmap();
  staging.destroy();
  return out;
}

/**
 * The code without the bounds checks whose test matches `which`: each `if ((u32(…) >= …)) {`
 * block that reports an exception, through its closing brace.
 */
function dropChecks(code: string, which: RegExp): string {
  const lines = code.split("\n"), out: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const m = /^( *)if \(\(u32\(.*\) >= .*\)\) \{$/.exec(lines[i]);
    if (m && which.test(lines[i]) && lines[i + 1]?.includes("gpuc_raise(")) {
      const end = m[1] + "}";
      while (lines[i] !== end) i++;
      continue;
    }
    out.push(lines[i]);
  }
  return out.join("\n");
}

interface Variant { name: string; run: () => Promise<void>; reset?: () => void }
/** Interleaved rounds, each variant once per round, after `warmup` rounds; ms per run. */
async function timeVariants(variants: Variant[], warmup: number, reps: number): Promise<Record<string, number[]>> {
  const out: Record<string, number[]> = Object.fromEntries(variants.map((v) => [v.name, []]));
  for (let r = 0; r < warmup + reps; r++) {
    for (const v of variants) {
      v.reset?.();
      const t0 = performance.now();
      await v.run();
      const dt = performance.now() - t0;
      if (r >= warmup) out[v.name].push(dt);
    }
  }
  return out;
}
/** Within each round, time of `base` ÷ time of `v`: a check on the ratio of medians. */
function perRound(times: Record<string, number[]>, base: string, v: string) {
  const r = times[v].map((t, i) => times[base][i] / t);
  return { median: median(r), min: Math.min(...r), max: Math.max(...r) };
}

function fill(a: Float32Array, seed: number): Float32Array {
  let s = seed >>> 0;
  for (let i = 0; i < a.length; i++) {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    a[i] = (s / 2 ** 32) * 2 - 1;
  }
  return a;
}
function storageBuffer(data: Float32Array | Int32Array): GPUBuffer {
  const buf = gpu.createBuffer({ size: Math.max(4, data.byteLength), usage: STORAGE | COPY_SRC | COPY_DST });
  gpu.queue.writeBuffer(buf, 0, data.buffer, data.byteOffset, data.byteLength);
  return buf;
}

// ---- f1. fixed cost of a launch ------------------------------------------------------------------

// The smallest kernel, 1 workgroup of 1 invocation: what a launch costs apart from the work.
const tinyKernel = kernel(tiny);
const tinyOut = dev.array(new Int32Array(1));
const tinyBuf = (tinyOut as unknown as { buffer: GPUBuffer }).buffer;
const tinyRaw = await gpucRaw("tiny", tinyKernel, ["i32[]"], [tinyBuf], [1], [1, 1, 1], [1, 1, 1]);
const launchTimes = await timeVariants([
  { name: "launch", run: () => tinyKernel.launch(dev, { blocks: 1, threads: 1 }, tinyOut) },
  { name: "header", run: () => dispatchWithHeader(tinyRaw) },
  { name: "raw", run: () => dispatch(tinyRaw) },
], 50, 300);
const fixed = Object.fromEntries(Object.entries(launchTimes).map(([k, t]) => [k, stats(t)]));
section("f1. Fixed cost of one launch (1 workgroup × 1 invocation, `out[0] = out[0] + 1`; ms, median of 300 after 50 warm-up)", table(
  ["call", "median", "p90", "min"],
  [
    ["`await k.launch(dev, { blocks: 1, threads: 1 }, out)`, `out` a device array", ms(fixed.launch.median), ms(fixed.launch.p90), ms(fixed.launch.min)],
    ["gpuc's WGSL, raw: dispatch + 128-byte state header (and the exception record's 32) copied out and mapped (as `launch` ends)", ms(fixed.header.median), ms(fixed.header.p90), ms(fixed.header.min)],
    ["gpuc's WGSL, raw: dispatch, `submit` + `await onSubmittedWorkDone()`", ms(fixed.raw.median), ms(fixed.raw.p90), ms(fixed.raw.min)],
  ],
));

// ---- f2. saxpy -----------------------------------------------------------------------------------

// 65,535 workgroups of 256: 2^24 − 256 elements. 2^24 would need 65,536 workgroups in x, one over
// WebGPU's maxComputeWorkgroupsPerDimension (65,535), and gpuc's saxpy indexes by blockIdx.x alone.
const GROUPS = Math.min(65535, gpu.limits.maxComputeWorkgroupsPerDimension);
const N = GROUPS * 256;
const A = 1.7, Af = Math.fround(A);
const sx = fill(new Float32Array(N), 1), sy0 = fill(new Float32Array(N), 2);
const dx = dev.array(sx), dy = dev.array(sy0);
const bx = (dx as unknown as { buffer: GPUBuffer }).buffer, by = (dy as unknown as { buffer: GPUBuffer }).buffer;
const saxpyKernel = kernel(KERNELS.saxpy.fn);
const saxpyUnchecked = kernel(KERNELS.saxpy.fn, { boundsCheck: false });
const saxpyTypes = KERNELS.saxpy.types as string[];
const saxpyGrid = { blocks: GROUPS, threads: 256 };
const saxpyGen = await gpucRaw("saxpy (gpuc)", saxpyKernel, saxpyTypes, [A, bx, by], [0, N, N], [GROUPS, 1, 1], [256, 1, 1]);
const saxpyGenUnchecked = await gpucRaw("saxpy (gpuc, no checks)", saxpyUnchecked, saxpyTypes, [A, bx, by], [0, N, N], [GROUPS, 1, 1], [256, 1, 1]);
const saxpyHand = rawKernel("saxpy (hand)", SAXPY_WGSL, ["uniform", "read-only-storage", "storage"], [block(["f32", A], ["u32", N]), bx, by], [GROUPS, 1, 1]);


/** Bits differing between two f32 arrays (NaN = NaN). */
function differingBits(a: Float32Array, b: Float32Array): number {
  const x = new Uint32Array(a.buffer, a.byteOffset, a.length), y = new Uint32Array(b.buffer, b.byteOffset, b.length);
  let diff = 0;
  for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) diff++;
  return diff;
}

// Each variant once from the same y, against the CPU's f32 saxpy (a fused multiply-add would differ).
const saxpyRef = new Float32Array(N);
for (let i = 0; i < N; i++) saxpyRef[i] = Math.fround(Math.fround(Af * sx[i]) + sy0[i]);
const saxpyMismatch: Record<string, number> = {};
for (const [name, run] of [
  ["launch", () => saxpyKernel.launch(dev, saxpyGrid, A, dx, dy)],
  ["gpuc", () => dispatch(saxpyGen)],
  ["unchecked", () => dispatch(saxpyGenUnchecked)],
  ["hand", () => dispatch(saxpyHand)],
] as const) {
  gpu.queue.writeBuffer(by, 0, sy0.buffer, sy0.byteOffset, sy0.byteLength);
  await run();
  saxpyMismatch[name] = differingBits(new Float32Array(await readBuffer(by, 4 * N)), saxpyRef);
  if (saxpyMismatch[name]) throw new Error(`saxpy: ${name} differs from the CPU's f32 result in ${saxpyMismatch[name]} of ${N} elements`);
}
// Timed: every variant on the same x and y (y grows by a·x per run; the values do not matter).
// One run takes 60–200 ms on this machine, and runs vary more than the variants do, so 25 rounds.
const SAXPY_REPS = 25;
const saxpyMain0 = mainThreadCpu(), saxpyWall0 = performance.now();
const saxpyTimes = await timeVariants([
  { name: "launch", run: () => saxpyKernel.launch(dev, saxpyGrid, A, dx, dy) },
  { name: "gpuc", run: () => dispatch(saxpyGen) },
  { name: "unchecked", run: () => dispatch(saxpyGenUnchecked) },
  { name: "hand", run: () => dispatch(saxpyHand) },
], 2, SAXPY_REPS);
const saxpyMainThread = saxpyMain0 === null ? null : { cpuMs: mainThreadCpu()! - saxpyMain0, wallMs: performance.now() - saxpyWall0 };

const compareHead = ["code", "median ms", "range", "rate", "speed ÷ hand-written", "per round: median (range)", "fastest ÷ fastest"];
function compareRows(times: Record<string, number[]>, labels: [string, string][], rate: (t: number) => string): string[][] {
  const h = median(times.hand);
  return labels.map(([key, label]) => {
    const t = median(times[key]), r = perRound(times, "hand", key);
    return [label, ms(t), `${ms(Math.min(...times[key]))}–${ms(Math.max(...times[key]))}`, rate(t), num(h / t),
      key === "hand" ? "1" : `${num(r.median)} (${num(r.min)}–${num(r.max)})`, num(Math.min(...times.hand) / Math.min(...times[key]))];
  });
}
function compareResult(times: Record<string, number[]>) {
  const h = median(times.hand);
  return {
    ms: Object.fromEntries(Object.entries(times).map(([k, t]) => [k, { ...stats(t), runs: t.map((x) => +x.toFixed(2)) }])),
    ratioToHand: Object.fromEntries(Object.keys(times).map((k) => [k, h / median(times[k])])),
    perRoundRatioToHand: Object.fromEntries(Object.keys(times).map((k) => [k, perRound(times, "hand", k)])),
    fastestRatioToHand: Object.fromEntries(Object.keys(times).map((k) => [k, Math.min(...times.hand) / Math.min(...times[k])])),
  };
}
section(`f2. saxpy, ${N.toLocaleString("en-US")} f32 (${GROUPS.toLocaleString("en-US")} workgroups of 256), device arrays (median of ${SAXPY_REPS} runs after 2 warm-up rounds, interleaved; 12 bytes per element)`,
  table(compareHead, compareRows(saxpyTimes, [
    ["launch", "`await k.launch(dev, { blocks, threads: 256 }, a, dx, dy)`, end to end"],
    ["gpuc", "gpuc's WGSL, raw dispatch (`submit` + `await onSubmittedWorkDone()`)"],
    ["unchecked", "gpuc's WGSL with `boundsCheck: false`, raw dispatch"],
    ["hand", "hand-written WGSL, raw dispatch (the baseline)"],
  ], (t) => `${num((12 * N) / t / 1e6)} GB/s`)) +
  `\n\nEvery variant's result equals the CPU's f32 saxpy bit for bit (the run fails otherwise).` +
  (saxpyMainThread ? ` While these runs were timed, the main (JS) thread used ${ms(saxpyMainThread.cpuMs)} ms of CPU in ${ms(saxpyMainThread.wallMs)} ms: Dawn's Node binding polls for completion with \`setImmediate\` while a promise of the device is pending, so one of the machine's cores spins alongside lavapipe's worker threads.` : ""));

// ---- f3. tiled matmul ------------------------------------------------------------------------------

const M = 1024, MG = M / 16;
const ma = fill(new Float32Array(M * M), 3), mb = fill(new Float32Array(M * M), 4);
const da = dev.array(ma), db = dev.array(mb), dc = dev.array(new Float32Array(M * M));
const ba = (da as unknown as { buffer: GPUBuffer }).buffer, bb = (db as unknown as { buffer: GPUBuffer }).buffer;
const bc = (dc as unknown as { buffer: GPUBuffer }).buffer;
const bcHand = storageBuffer(new Float32Array(M * M));
const matmulKernel = kernel(KERNELS.matmulTiled.fn);
const matmulTypes = KERNELS.matmulTiled.types as string[];
const matmulGrid = { blocks: [MG, MG], threads: [16, 16] };
const matmulGen = await gpucRaw("matmul (gpuc)", matmulKernel, matmulTypes, [bc, ba, bb, M], [M * M, M * M, M * M, 0], [MG, MG, 1], [16, 16, 1]);
const matmulHand = rawKernel("matmul (hand)", MATMUL_WGSL, ["uniform", "storage", "read-only-storage", "read-only-storage"], [block(["u32", M]), bcHand, ba, bb], [MG, MG, 1]);

// Results: the two gpuc paths and the hand-written one against each other (all 1M entries) and
// against a CPU reference in f64 on 1,000 sampled entries. Errors are relative to Σ_k |a_ik·b_kj|,
// the scale of a dot product's rounding error (f32 summation of 1,024 terms: at most ~6e-5).
// The launch and the hand-written kernel run once first (their warm-up); the raw dispatch of
// gpuc's WGSL writes the same buffer as the launch and is checked after the timed runs, whose last
// writer it is.
await matmulKernel.launch(dev, matmulGrid, dc, da, db, M);
const mcLaunch = new Float32Array(await readBuffer(bc, 4 * M * M));
await dispatch(matmulHand);
const mcHand = new Float32Array(await readBuffer(bcHand, 4 * M * M));

// Timed: 7 interleaved rounds.
const MATMUL_REPS = 7, matmulFlops = 2 * M ** 3;
const matmulTimes = await timeVariants([
  { name: "launch", run: () => matmulKernel.launch(dev, matmulGrid, dc, da, db, M) },
  { name: "gpuc", run: () => dispatch(matmulGen) },
  { name: "hand", run: () => dispatch(matmulHand) },
], 0, MATMUL_REPS);
const mcGen = new Float32Array(await readBuffer(bc, 4 * M * M));
function absDot(i: number, j: number): number { let s = 0; for (let k = 0; k < M; k++) s += Math.abs(ma[i * M + k] * mb[k * M + j]); return s; }
let maxGenHand = 0;
const genHandBits = differingBits(mcGen, mcHand), launchGenBits = differingBits(mcLaunch, mcGen);
for (let i = 0; i < M; i++) {
  for (let j = 0; j < M; j++) {
    const d = Math.abs(mcGen[i * M + j] - mcHand[i * M + j]);
    if (d > 0) maxGenHand = Math.max(maxGenHand, d / absDot(i, j));
  }
}
let maxRefGen = 0, maxRefHand = 0, seed = 12345;
for (let s = 0; s < 1000; s++) {
  seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0;
  const i = seed % M, j = (seed >>> 10) % M;
  let ref = 0;
  for (let k = 0; k < M; k++) ref += ma[i * M + k] * mb[k * M + j];
  const scale = absDot(i, j);
  maxRefGen = Math.max(maxRefGen, Math.abs(mcGen[i * M + j] - ref) / scale, Math.abs(mcLaunch[i * M + j] - ref) / scale);
  maxRefHand = Math.max(maxRefHand, Math.abs(mcHand[i * M + j] - ref) / scale);
}
if (launchGenBits) throw new Error(`matmul: launch and the raw dispatch of gpuc's WGSL differ in ${launchGenBits} entries`);
if (!(maxGenHand <= 1e-4 && maxRefGen <= 1e-4 && maxRefHand <= 1e-4))
  throw new Error(`matmul: results disagree (gpuc vs hand ${maxGenHand}, gpuc vs CPU ${maxRefGen}, hand vs CPU ${maxRefHand}; relative to Σ|a·b|)`);

section(`f3. Tiled matmul, ${M}×${M} f32, 16×16 tiles in workgroup memory (${MG}×${MG} workgroups of 16×16; median of ${MATMUL_REPS} runs, interleaved, the launch and the hand-written kernel after one run each for the result check; 2·n³ flops)`,
  table(compareHead, compareRows(matmulTimes, [
    ["launch", "`await k.launch(dev, { blocks: [64, 64], threads: [16, 16] }, dc, da, db, n)`, end to end"],
    ["gpuc", "gpuc's WGSL, raw dispatch (`submit` + `await onSubmittedWorkDone()`)"],
    ["hand", "hand-written WGSL of the same algorithm, raw dispatch (the baseline)"],
  ], (t) => `${num(matmulFlops / t / 1e6, 3)} GFLOP/s`)) +
  `\n\ngpuc's result and the hand-written one differ in ${genHandBits.toLocaleString("en-US")} of ${(M * M).toLocaleString("en-US")} entries, by at most ${maxGenHand.toExponential(1)} of Σ_k |a_ik·b_kj|; ` +
  `on 1,000 sampled entries against an f64 CPU reference, gpuc's error is at most ${maxRefGen.toExponential(1)} and the hand-written one's ${maxRefHand.toExponential(1)} of that sum (the run fails above 1e-4).`);

// ---- f3′. where the tiled matmul's time goes: variants of the generated WGSL -------------------

// Each difference between gpuc's WGSL and the hand-written one, removed by editing the generated
// code (or added to the hand-written code), at 512×512 (a run takes ~0.5 s; at 1024×1024 the
// seven variants would take 4 minutes). `syncthreads()` becomes `workgroupBarrier();
// storageBarrier();`, and in WGSL each of the two is a control barrier; the checks in the k loop
// are the two on the workgroup arrays' indices (`ty * 16 + k`, `k * 16 + tx`): a compare and a
// branch each, per multiply-add, around the code that records the exception.
const V = 512, VG = V / 16, VARIANT_REPS = 7;
const va = storageBuffer(fill(new Float32Array(V * V), 5)), vb = storageBuffer(fill(new Float32Array(V * V), 6));
const vcGen = storageBuffer(new Float32Array(V * V)), vcHand = storageBuffer(new Float32Array(V * V));
const matmulNoChecks = kernel(KERNELS.matmulTiled.fn, { boundsCheck: false });
const noStorageBarrier = (c: string) => c.replaceAll("storageBarrier();", "");
const genVariant = (name: string, k: ReturnType<typeof kernel>, edit?: (c: string) => string) =>
  gpucRaw(name, k, matmulTypes, [vcGen, va, vb, V], [V * V, V * V, V * V, 0], [VG, VG, 1], [16, 16, 1], edit);
const handVariant = (name: string, code: string) =>
  rawKernel(name, code, ["uniform", "storage", "read-only-storage", "read-only-storage"], [block(["u32", V]), vcHand, va, vb], [VG, VG, 1]);
const variantSpecs: { key: string; label: string; make: () => Promise<Raw> | Raw }[] = [
  { key: "gpuc", label: "gpuc's WGSL as generated (checks on)", make: () => genVariant("gpuc", matmulKernel) },
  { key: "noSB", label: "− `storageBarrier()`", make: () => genVariant("noSB", matmulKernel, noStorageBarrier) },
  { key: "noK", label: "− the 2 checks in the k loop", make: () => genVariant("noK", matmulKernel, (c) => dropChecks(c, kLoopChecks(c))) },
  { key: "noSBnoK", label: "− `storageBarrier()` − the 2 checks in the k loop", make: () => genVariant("noSBnoK", matmulKernel, (c) => dropChecks(noStorageBarrier(c), kLoopChecks(c))) },
  { key: "uncheckedNoSB", label: "`boundsCheck: false` (no checks at all) − `storageBarrier()`", make: () => genVariant("uncheckedNoSB", matmulNoChecks, noStorageBarrier) },
  { key: "hand", label: "hand-written (the baseline)", make: () => handVariant("hand", MATMUL_WGSL) },
  { key: "handSB", label: "hand-written + `storageBarrier()` after each `workgroupBarrier()`", make: () => handVariant("handSB", MATMUL_WGSL.replaceAll("workgroupBarrier();", "workgroupBarrier(); storageBarrier();")) },
];
/**
 * The index checks inside the innermost loop (the k loop): the last two on workgroup arrays
 * (`>= 256u`); none where the code is compiled for the launch's 16×16 block (ir/passes/ranges.ts
 * proves them: k in [0, 15]), and then the variants without them are the code as generated.
 */
function kLoopChecks(code: string): RegExp {
  const vars = [...code.matchAll(/if \(\(u32\((v_tmp(?:_\d+)?)\) >= 256u\)\) \{/g)].map((m) => m[1]).slice(-2);
  if (vars.length === 0) return /(?!)/;
  if (vars.length !== 2) throw new Error("matmul variants: the generated code no longer has the expected checks");
  return new RegExp(vars.map((v) => `u32\\(${v}\\)`).join("|"));
}
const variants: (Raw & { key: string; label: string })[] = [];
for (const v of variantSpecs) variants.push({ ...(await v.make()), key: v.key, label: v.label });
// Every variant runs once (its warm-up) and its result is compared with the hand-written one's.
const variantDiff: Record<string, number> = {};
let vRef: Float32Array | null = null;
for (const v of [...variants].sort((a, b) => Number(b.key === "hand") - Number(a.key === "hand"))) {
  const out = v.key.startsWith("hand") ? vcHand : vcGen;
  gpu.queue.writeBuffer(out, 0, new Float32Array(V * V));
  await dispatch(v);
  const got = new Float32Array(await readBuffer(out, 4 * V * V));
  vRef ??= got;
  variantDiff[v.key] = differingBits(got, vRef);
  if (variantDiff[v.key]) throw new Error(`matmul variant '${v.key}' differs from the hand-written result in ${variantDiff[v.key]} entries`);
}
const variantTimes = await timeVariants(variants.map((v) => ({ name: v.key, run: () => dispatch(v) })), 0, VARIANT_REPS);
section(`f3′. Tiled matmul, ${V}×${V}: variants of gpuc's WGSL and of the hand-written WGSL (raw dispatch; median of ${VARIANT_REPS} runs after one run each for the result check, interleaved)`,
  table(compareHead, compareRows(variantTimes, variants.map((v) => [v.key, v.label]), (t) => `${num((2 * V ** 3) / t / 1e6, 3)} GFLOP/s`)) +
  "\n\nAll seven give the same result bit for bit (the run fails otherwise).");

// ---- f4. compile latency to WGSL, and Dawn's shader module + pipeline ------------------------------

// Warm: a new kernel object each time (no cache hit), `compile({ target: "wgsl", types })`,
// saxpy and the tiled matmul interleaved.
const COMPILE_ITERS = 150, COMPILE_WARMUP = 25;
const compileTimes: Record<string, number[]> = { saxpy: [], matmulTiled: [] };
for (let i = 0; i < COMPILE_WARMUP + COMPILE_ITERS; i++) {
  for (const key of ["saxpy", "matmulTiled"] as const) {
    const t0 = performance.now();
    await kernel(KERNELS[key].fn).compile({ target: "wgsl", types: KERNELS[key].types });
    const dt = performance.now() - t0;
    if (i >= COMPILE_WARMUP) compileTimes[key].push(dt);
  }
}
const inProcessEnd = { machine: machineCpu(), own: ownCpu() };
const otherLoadDuring = Math.max(0, (inProcessEnd.machine.busy - inProcessStart.machine.busy - (inProcessEnd.own - inProcessStart.own)) /
  Math.max(1, inProcessEnd.machine.all - inProcessStart.machine.all));
dev.close();

// The first launch of a new kernel (compiled beforehand) against its second launch, in a child
// process (bench/webgpu-cold.mjs pipelines): the difference is `load` (createShaderModule, the
// layouts), createComputePipeline and, at the first dispatch, lavapipe's compilation of the shader
// (SPIR-V → NIR → LLVM → machine code). Each kernel gets its own name (or, hand-written, a comment),
// so its WGSL is new to Dawn; but the SPIR-V that Vulkan gets is the same each time, and Mesa keeps
// compiled shaders in an on-disk cache (~/.cache/mesa_shader_cache_db), so the child runs twice: as
// is (a cache hit: what every run after the first on a machine gets) and with
// MESA_SHADER_CACHE_DISABLE=true (a first run). saxpy on 65,536 floats, the matmul at 64×64; each
// as generated, with `boundsCheck: false`, and hand-written through the raw API.
const PIPELINE_ITERS = { cached: 5, uncached: 3 };
const childEnv = { ...process.env };
delete childEnv.NODE_OPTIONS;
function spawnTimed(args: string[], env: NodeJS.ProcessEnv) {
  const t0 = performance.now();
  const r = spawnSync(process.execPath, args, { cwd: ROOT, env, encoding: "utf8" });
  const wallMs = performance.now() - t0;
  if (r.status !== 0) throw new Error(`node ${args.join(" ")} failed (exit ${r.status}):\n${r.stderr}`);
  const last = r.stdout.trim().split("\n").at(-1) ?? "";
  return { wallMs, inner: last.startsWith("{") ? JSON.parse(last) : null };
}
const UNCACHED = { ...childEnv, MESA_SHADER_CACHE_DISABLE: "true" };
type FirstLaunch = Record<string, { compile: number[]; first: number[]; later: number[] }>;
const firstLaunch: Record<"cached" | "uncached", FirstLaunch> = {
  cached: spawnTimed([COLD_SCRIPT, "pipelines", String(PIPELINE_ITERS.cached)], childEnv).inner,
  uncached: spawnTimed([COLD_SCRIPT, "pipelines", String(PIPELINE_ITERS.uncached)], UNCACHED).inner,
};
const pipelineMs = (mode: "cached" | "uncached", key: string) =>
  median(firstLaunch[mode][key].first.map((f, i) => f - firstLaunch[mode][key].later[i]));
const pipelineKeys = ["saxpy/gpuc", "saxpy/unchecked", "saxpy/hand", "matmulTiled/gpuc", "matmulTiled/unchecked", "matmulTiled/hand"];
const pipelineLabel = (key: string) => {
  const [k, v] = key.split("/");
  return `${k === "saxpy" ? "saxpy" : "tiled matmul"}, ${v === "gpuc" ? "gpuc (checks on)" : v === "unchecked" ? "gpuc, `boundsCheck: false`" : "hand-written"}`;
};
const compileRows = pipelineKeys.map((key) => {
  const [k, v] = key.split("/");
  const c = v === "gpuc" ? stats(compileTimes[k]) : null;
  return [pipelineLabel(key), c ? ms(c.median) : "", c ? ms(c.p90) : "", c ? ms(c.min) : "",
    ms(median(firstLaunch.cached[key].later)), ms(median(firstLaunch.cached[key].first)), ms(pipelineMs("cached", key)),
    ms(median(firstLaunch.uncached[key].first)), ms(pipelineMs("uncached", key))];
});
section(`f4. Compile latency to WGSL, and a new kernel's first launch (ms): warm compile of a new kernel object (in-process, ${COMPILE_ITERS} each after ${COMPILE_WARMUP}, interleaved); first and second launch of a new kernel, compiled to WGSL beforehand, in a child process (median of ${PIPELINE_ITERS.cached} with Mesa's shader cache, of ${PIPELINE_ITERS.uncached} without)`,
  table(["kernel", "`compile({ target: \"wgsl\" })` median", "p90", "min", "second launch", "first launch, Mesa cache warm", "first − second", "first launch, `MESA_SHADER_CACHE_DISABLE=true`", "first − second"], compileRows) +
  "\n\nFirst − second launch is the shader module, the pipeline and the shader's compilation: Tint's WGSL → SPIR-V, then lavapipe's SPIR-V → LLVM → machine code (at the first dispatch), or its cache look-up.");

// ---- f5. time to the first result in a new process ----------------------------------------------------

// bench/webgpu-cold.mjs imports gpuc from dist, opens the device, compiles and launches saxpy on
// 1M floats and launches it again. Mesa keeps compiled shaders in an on-disk cache
// (~/.cache/mesa_shader_cache_db), so after the first run on a machine the pipeline is a cache hit;
// MESA_SHADER_CACHE_DISABLE=true shows the first run on a machine (or after a driver update).
const COLD_ROUNDS = 7;
const coldConfigs = [
  { key: "nodeEmpty", args: ["-e", "0"], env: childEnv },
  { key: "cached", args: [COLD_SCRIPT], env: childEnv },
  { key: "uncached", args: [COLD_SCRIPT], env: UNCACHED },
];
const coldRuns: Record<string, { wallMs: number; inner: Record<string, number> | null }[]> = { nodeEmpty: [], cached: [], uncached: [] };
for (const c of coldConfigs) spawnTimed(c.args, c.env); // the file cache, and Mesa's for the shader
for (let round = 0; round < COLD_ROUNDS; round++) for (const c of coldConfigs) coldRuns[c.key].push(spawnTimed(c.args, c.env));
const nodeBase = median(coldRuns.nodeEmpty.map((r) => r.wallMs));
const inner = (key: string, field: string) => median(coldRuns[key].map((r) => r.inner![field]));
const coldRow = (key: string, label: string) => {
  const wall = median(coldRuns[key].map((r) => r.wallMs));
  return [label, ms(inner(key, "startupMs")), ms(inner(key, "importMs")), ms(inner(key, "deviceMs")), ms(inner(key, "compileMs")),
    ms(inner(key, "firstLaunchMs")), ms(inner(key, "secondLaunchMs")), ms(inner(key, "deviceToResultMs")), ms(inner(key, "importToResultMs")), ms(wall), signed(wall - nodeBase)];
};
section(`f5. From a new process to the first result: saxpy on 1,048,576 floats, host arrays (median of ${COLD_ROUNDS} processes each, interleaved, ms)`,
  table(["process", "Node start-up (to the script)", "`import(\"gpuc\")`", "`device(\"webgpu\")`", "`compile()`", "first `launch()`", "second `launch()`", "`device()` → result", "import → result", "wall", "over `node -e 0`"], [
    ["`node -e 0` (baseline)", "", "", "", "", "", "", "", "", ms(nodeBase), "—"],
    coldRow("cached", "`node bench/webgpu-cold.mjs` (Mesa's shader cache warm)"),
    coldRow("uncached", "the same, `MESA_SHADER_CACHE_DISABLE=true` (a first run)"),
  ]) +
  "\n\n\"`device()` → result\" is `device(\"webgpu\")` + `compile()` + the first `launch()` (uploads, shader module, pipeline, dispatch, read-back); the host arrays' filling is not counted. The wall time includes `dev.close()` and the process's exit.");

// ---- summary ------------------------------------------------------------------------------------------

const ratio = (times: Record<string, number[]>, key: string) => median(times.hand) / median(times[key]);
const summary = [
  ["saxpy: gpuc's WGSL ÷ hand-written (raw dispatch of each)", num(ratio(saxpyTimes, "gpuc")), "≥ 0.9", ratio(saxpyTimes, "gpuc") >= 0.9 ? "met" : "missed"],
  ["saxpy: `k.launch` end to end ÷ hand-written raw dispatch", num(ratio(saxpyTimes, "launch")), "≥ 0.9", ratio(saxpyTimes, "launch") >= 0.9 ? "met" : "missed"],
  ["tiled matmul: gpuc's WGSL ÷ hand-written (raw dispatch of each)", num(ratio(matmulTimes, "gpuc")), "≥ 0.9", ratio(matmulTimes, "gpuc") >= 0.9 ? "met" : "missed"],
  ["tiled matmul: `k.launch` end to end ÷ hand-written raw dispatch", num(ratio(matmulTimes, "launch")), "≥ 0.9", ratio(matmulTimes, "launch") >= 0.9 ? "met" : "missed"],
  ["warm compile to WGSL, saxpy / tiled matmul (median)", `${ms(median(compileTimes.saxpy))} / ${ms(median(compileTimes.matmulTiled))} ms`, "—", ""],
  ["a new kernel's first launch − its second, Mesa's cache disabled: saxpy, gpuc / hand-written", `${ms(pipelineMs("uncached", "saxpy/gpuc"))} / ${ms(pipelineMs("uncached", "saxpy/hand"))} ms`, "—", ""],
  ["the same, tiled matmul, gpuc / hand-written", `${ms(pipelineMs("uncached", "matmulTiled/gpuc"))} / ${ms(pipelineMs("uncached", "matmulTiled/hand"))} ms`, "—", ""],
  ["`device(\"webgpu\")` → first result, new process (Mesa cache warm / disabled)", `${ms(inner("cached", "deviceToResultMs"))} / ${ms(inner("uncached", "deviceToResultMs"))} ms`, "—", ""],
];
section("f. Against the targets", table(["measure", "this run", "target", ""], summary));

const totalS = (performance.now() - started) / 1000;
console.log(`\nBenchmark time: ${totalS.toFixed(1)} s`);
const otherLoadAtEnd = await otherCpuLoad(1000);
console.log(`Other CPU load during the in-process sections (f1–f4): ${(100 * otherLoadDuring).toFixed(0)}% of ${machine.cores} cores; at end: ${(100 * otherLoadAtEnd).toFixed(0)}%; load average at end ${os.loadavg().map((x) => x.toFixed(2)).join(", ")}`);
const results = {
  command, device: dev.name,
  machine: { ...machine, otherLoadAtStart, otherLoadDuring, otherLoadAtEnd, loadAverageAtEnd: os.loadavg().map((x) => +x.toFixed(2)) },
  totalSeconds: totalS,
  launchFixedMs: fixed,
  saxpy: { n: N, workgroups: GROUPS, ...compareResult(saxpyTimes), mismatchesVsCpu: saxpyMismatch, mainThread: saxpyMainThread },
  matmul: { n: M, ...compareResult(matmulTimes), differingEntriesGpucVsHand: genHandBits, maxErrGpucVsHand: maxGenHand, maxErrGpucVsCpu: maxRefGen, maxErrHandVsCpu: maxRefHand },
  matmulVariants: { n: V, labels: Object.fromEntries(variants.map((v) => [v.key, v.label])), differingEntriesVsHand: variantDiff, ...compareResult(variantTimes) },
  compile: Object.fromEntries(Object.entries(compileTimes).map(([k, t]) => [k, stats(t)])),
  firstLaunch: Object.fromEntries((["cached", "uncached"] as const).map((mode) => [mode, Object.fromEntries(pipelineKeys.map((k) => {
    const f = firstLaunch[mode][k];
    return [k, { compile: stats(f.compile), first: stats(f.first), later: stats(f.later), pipelineMs: pipelineMs(mode, k) }];
  }))])),
  cold: Object.fromEntries(Object.entries(coldRuns).map(([k, runs]) => [k, { wallMs: stats(runs.map((r) => r.wallMs)), inner: runs[0].inner ? Object.fromEntries(Object.keys(runs[0].inner).filter((f) => typeof runs[0].inner![f] === "number").map((f) => [f, stats(runs.map((r) => r.inner![f]))])) : null }])),
};
writeFileSync(new URL("./results-webgpu.json", import.meta.url), JSON.stringify(results, null, 2) + "\n");
console.log("Results written to bench/results-webgpu.json");
