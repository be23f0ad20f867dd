// Shared helpers of the execution suites: a seeded PRNG, poisoned outputs, array comparison,
// markers of source lines, and the device matrix (every kernel runs on the CPU device and on WebGPU).

import assert from "node:assert/strict";
import { test, after } from "node:test";
import { readFileSync } from "node:fs";
import { basename } from "node:path";
import { fileURLToPath } from "node:url";
import { device, onCompile, CompileError, KernelError, type Device, type LaunchConfig } from "../src/index.ts";
import type { Kernel } from "../src/kernel.ts";
import { assemblePTX, formatPtxasErrors, ptxasAvailable } from "../src/targets/ptx/ptxas.ts";
import { SPIRV_TARGET_ENV, spirvValAvailable, validateSPIRV } from "../src/targets/spirv/spirv-tools.ts";
import { checkLLVM, llvmToolsAvailable } from "../src/targets/llvm/llvm-tools.ts";

process.env.XDG_RUNTIME_DIR ??= "/tmp";   // Dawn warns without it

/** xorshift32: a tiny seeded PRNG. */
export function prng(seed: number) {
  let s = seed >>> 0 || 0x9e3779b9;
  const next = () => { s ^= s << 13; s >>>= 0; s ^= s >>> 17; s ^= s << 5; s >>>= 0; return s; };
  return {
    u32: next,
    i32: () => next() | 0,
    int: (lo: number, hi: number) => lo + (next() % (hi - lo + 1)),
    float: (lo: number, hi: number) => lo + (next() / 4294967296) * (hi - lo),
  };
}
export const randF32 = (seed: number, n: number, lo = -1, hi = 1) => { const r = prng(seed); return Float32Array.from({ length: n }, () => r.float(lo, hi)); };
export const randF64 = (seed: number, n: number, lo = -1, hi = 1) => { const r = prng(seed); return Float64Array.from({ length: n }, () => r.float(lo, hi)); };
export const randI32 = (seed: number, n: number, lo: number, hi: number) => { const r = prng(seed); return Int32Array.from({ length: n }, () => r.int(lo, hi)); };
export const randFullI32 = (seed: number, n: number) => { const r = prng(seed); return Int32Array.from({ length: n }, () => r.i32()); };
export const randFullU32 = (seed: number, n: number) => { const r = prng(seed); return Uint32Array.from({ length: n }, () => r.u32()); };

export const SENT_I = -123456789;
export const SENT_U = 0xdeadbeef;
export const poisonF32 = (n: number) => new Float32Array(n).fill(NaN);
export const poisonF64 = (n: number) => new Float64Array(n).fill(NaN);
export const poisonI32 = (n: number) => new Int32Array(n).fill(SENT_I);
export const poisonU32 = (n: number) => new Uint32Array(n).fill(SENT_U);

/** f32 references round every operation with it. */
export const F = Math.fround;
/** Reference-side thread loop over a 1-D grid. */
export function forThreads(total: number, f: (i: number) => void): void { for (let i = 0; i < total; i++) f(i); }

/** Full-array comparison (deepStrictEqual: NaN equals NaN, -0 differs from 0). */
export function same(got: ArrayLike<number>, want: ArrayLike<number>, msg?: string): void {
  assert.equal(got.length, want.length, `${msg ?? "array"}: length`);
  assert.deepEqual(Array.from(got), Array.from(want), msg);
}

// ---- the device matrix -----------------------------------------------------------------------
//
// Every execution test runs once per device: `dtest(name, fn)` registers `name [cpu]`,
// `name [webgpu]` and, where an NVIDIA GPU and driver are present (or GPUC_REQUIRE_DEVICES names
// cuda), `name [cuda]` (an AMD GPU with ROCm: `name [amdgpu]`; OpenCL: `[opencl]` and `[spir]`),
// each calling `fn` with that device (opened once per test file, closed after its tests). Without
// one of them, each file registers one skipped test that says why. The CPU device is the exact reference semantics, so its run keeps the suites' exact
// assertions; on WebGPU the same references are compared by the element type of the output:
// integer arrays exactly (as 32-bit patterns), f32 arrays within F32_TOL relative (on a
// max(1, |ref|) scale), unless a test passes a looser `tol` and says why.

/** A device of the matrix: a kind of device, or "spir": the OpenCL device running the llvm target's SPIR (`llvm: true`). */
export type Kind = "cpu" | "webgpu" | "cuda" | "amdgpu" | "opencl" | "spir";
const required = (process.env.GPUC_REQUIRE_DEVICES ?? "").split(",");
const cudaRequired = required.includes("cuda");
const amdgpuRequired = required.includes("amdgpu");
const openclRequired = required.includes("opencl");
/** Whether CUDA can be opened here (probed once per test process), or why not. */
const cudaProbe: true | string = await (async () => {
  try { const d = await device("cuda"); d.close(); return true as const; } catch (e) { return (e as Error).message; }
})();
/** Whether an AMD GPU can be opened here (ROCm's HIP runtime and LLVM's tools), or why not. */
const amdgpuProbe: true | string = await (async () => {
  try { const d = await device("amdgpu"); d.close(); return true as const; } catch (e) { return (e as Error).message; }
})();
/** Whether an OpenCL platform can be opened here (PoCL on CI), or why not. */
const openclProbe: true | string = await (async () => {
  try { const d = await device("opencl"); d.close(); return true as const; } catch (e) { return (e as Error).message; }
})();
/** SPIR on the OpenCL device (required where GPUC_REQUIRE_DEVICES names "llvm" and "opencl"). */
const spirRequired = openclRequired && required.includes("llvm");
const spirProbe: true | string = openclProbe !== true ? openclProbe : await (async () => {
  try { const d = await device("opencl", { llvm: true }); d.close(); return true as const; } catch (e) { return (e as Error).message; }
})();
/** Open a device of the matrix (with options of its own). */
export function openKind(kind: Kind, options: Parameters<typeof device>[1] = {}): Promise<Device> {
  return kind === "spir" ? device("opencl", { ...options, llvm: true }) : device(kind, options);
}
/** GPUC_TEST_DEVICES (e.g. "cpu,cuda" on a GPU machine without Vulkan) narrows the matrix. */
const only = process.env.GPUC_TEST_DEVICES?.split(",").map((s) => s.trim()).filter(Boolean);
export const DEVICES: readonly Kind[] = ([
  "cpu", "webgpu",
  ...(cudaProbe === true || cudaRequired ? ["cuda"] : []),
  ...(amdgpuProbe === true || amdgpuRequired ? ["amdgpu"] : []),
  ...(openclProbe === true || openclRequired ? ["opencl"] : []),
  ...(spirProbe === true || spirRequired ? ["spir"] : []),
] as Kind[]).filter((k) => !only || only.includes(k));

/** Relative tolerance of f32 results on WebGPU (GPUs may contract a * b + c into an FMA, …). */
export const F32_TOL = 1e-5;

export interface CompareOptions {
  /** Relative tolerance of f32 values on WebGPU (default F32_TOL). */
  tol?: number;
  /** For a mixed array (see `On.wideMixed`): which slots hold f32 values; the others are compared exactly. */
  floats?: (j: number) => boolean;
}

/** What a test body gets for one device of the matrix. */
export interface On {
  kind: Kind;
  dev: Device;
  /** The device runs on a GPU (WebGPU or CUDA): threads run concurrently, floats within a tolerance. */
  gpu: boolean;
  /** The device runs WGSL: no f64, no recursion, barriers only in uniform control flow. */
  wgsl: boolean;
  /** The device's target has a call stack (recursive helpers run): not WGSL, not OpenCL C. */
  recursion: boolean;
  /** `same` on the CPU; on WebGPU, compared by the element type of `got` (see above). */
  same(got: ArrayLike<number>, want: ArrayLike<number>, msg?: string, opts?: CompareOptions): void;
  /**
   * A poisoned output array for results of type `elem`. The CPU run stores them into a
   * Float64Array, so that a missing wrap or f32 rounding is not hidden by a narrowing store;
   * WebGPU has no f64, so there the array has the results' own type (Int32Array for i32 and u32
   * results alike: compared as 32-bit patterns; Float32Array for f32 results).
   */
  wide(n: number, elem: "i32" | "u32" | "f32"): Float64Array | Float32Array | Int32Array | Uint32Array;
  /**
   * An output holding results of several types: on the CPU one launch into a Float64Array; on
   * WebGPU two launches, into an Int32Array and a Float32Array, merged slot by slot (slot j from
   * the Float32Array when `floats(j)`). `run` must set up its own inputs (it may run twice).
   * Compare the result with `same(got, want, msg, { floats })`.
   */
  wideMixed(n: number, floats: (j: number) => boolean, run: (o: Float64Array | Int32Array | Float32Array) => Promise<void>): Promise<Float64Array>;
}

const opened = new Map<Kind, Device>();
/** The CPU device that runs every kernel with a WebAssembly form as WebAssembly (see dtest). */
let wasmCpu: Device | null = null;
let saidNoCuda = false, saidNoAmdgpu = false, saidNoOpenCL = false, saidNoSpir = false;

/**
 * Open every device of the matrix. Call it once, at the top level of a test file: the devices
 * serve all its tests and are closed after them (so that the process can exit).
 */
export async function openDevices(): Promise<void> {
  if (opened.size) return;
  after(() => { for (const d of opened.values()) d.close(); });
  // The CPU device of the matrix runs on the calling thread (the reference: atomics' old values in
  // thread order, one run like another) unless GPUC_CPU_THREADS asks for workers (with
  // GPUC_CPU_PARALLEL=always, the whole matrix on them); cpu-threads.test.ts tests the workers.
  for (const kind of DEVICES) opened.set(kind, await openKind(kind, kind === "cpu" && !process.env.GPUC_CPU_THREADS ? { threads: 1 } : {}));
  if (DEVICES.includes("cpu")) wasmCpu = await device("cpu", { threads: 1, wasm: "always" });
  after(() => wasmCpu?.close());
}

/** Open a device with options of its own (a print sink, a small print buffer), run `fn`, close it. */
export async function withDevice<T>(kind: Kind, options: Parameters<typeof device>[1], fn: (dev: Device) => Promise<T>): Promise<T> {
  const dev = await openKind(kind, options);
  try { return await fn(dev); } finally { dev.close(); }
}

export interface DTestOptions {
  /** Devices on which the test is skipped, with the reason (shown by the reporter). */
  skip?: Partial<Record<Kind, string>>;
  /** Devices on which the test is a known failure, with the reason (a bug to fix: see the report). */
  todo?: Partial<Record<Kind, string>>;
}

/** Register `name [kind]` for every device of the matrix. */
export function dtest(name: string, fn: (on: On) => Promise<unknown> | void): void;
export function dtest(name: string, options: DTestOptions, fn: (on: On) => Promise<unknown> | void): void;
export function dtest(name: string, a: DTestOptions | ((on: On) => Promise<unknown> | void), b?: (on: On) => Promise<unknown> | void): void {
  const options = typeof a === "function" ? {} : a;
  const fn = typeof a === "function" ? a : b!;
  // Once per file, with its first test: say loudly that the [cuda] runs are missing.
  if (cudaProbe !== true && !cudaRequired && !saidNoCuda) {
    saidNoCuda = true;
    test("CUDA device [cuda]", { skip: `SKIPPED: every [cuda] run of this file: ${cudaProbe}` }, () => {});
  }
  if (amdgpuProbe !== true && !amdgpuRequired && !saidNoAmdgpu) {
    saidNoAmdgpu = true;
    test("AMD GPU device [amdgpu]", { skip: `SKIPPED: every [amdgpu] run of this file: ${amdgpuProbe}` }, () => {});
  }
  if (openclProbe !== true && !openclRequired && !saidNoOpenCL) {
    saidNoOpenCL = true;
    test("OpenCL device [opencl]", { skip: `SKIPPED: every [opencl] run of this file: ${openclProbe}` }, () => {});
  }
  if (spirProbe !== true && !spirRequired && !saidNoSpir) {
    saidNoSpir = true;
    test("SPIR on the OpenCL device [spir]", { skip: `SKIPPED: every [spir] run of this file: ${spirProbe}` }, () => {});
  }
  for (const kind of DEVICES) {
    test(`${name} [${kind}]`, { skip: options.skip?.[kind] ?? false, todo: options.todo?.[kind] ?? false }, async () => {
      const dev = opened.get(kind);
      if (!dev) throw new Error("call openDevices() at the top level of the test file");
      if (kind !== "cpu") { await fn(on(kind, dev)); return; }
      // The CPU run also compiles every kernel it specialized to PTX and assembles it with ptxas.
      const seen: { k: Kernel; types: string[] }[] = [];
      const stop = onCompile((e) => { if (e.target === "js") seen.push({ k: e.kernel, types: [...e.types] }); });
      try { await fn(on(kind, dev)); } finally { stop(); }
      await assembleAll(seen);
      await validateAllSPIRV(seen);
      await checkAllLLVM(seen);
      // The same body again on the WebAssembly path, where a kernel it ran has a module
      // (targets/js/wasm.ts): the test's own exact assertions hold there too.
      if (wasmCpu && (await someModule(seen))) {
        try { await fn(on(kind, wasmCpu)); }
        catch (e) { if (e instanceof Error) e.message = `on the CPU device's WebAssembly path: ${e.message}`; throw e; }
      }
    });
  }
}

/** Fresh copies of a launch's arguments: arrays that share a buffer share the buffer's one copy. */
const copyArgs = (args: unknown[]) => {
  const copies = new Map<ArrayBufferLike, ArrayBufferLike>();
  return args.map((a) => {
    if (!ArrayBuffer.isView(a)) return a;
    let b = copies.get(a.buffer);
    if (!b) copies.set(a.buffer, (b = a.buffer.slice(0)));
    const View = a.constructor as new (b: ArrayBufferLike, offset: number, length: number) => unknown;
    return new View(b, a.byteOffset, (a as unknown as ArrayLike<number>).length);
  });
};

/** What a launch leaves: the arrays after it, the printed lines, and the error it raised (as data). */
export interface LaunchOutcome { arrays: number[][]; lines: string[]; error: unknown }

/** Launch `k` on fresh copies of `args`, `lines` being where `dev` prints: its outcome. */
export async function launchOutcome(dev: Device, lines: string[], k: Kernel, cfg: LaunchConfig, args: unknown[]): Promise<LaunchOutcome> {
  lines.length = 0;
  const mine = copyArgs(args);
  let error: unknown = null;
  try { await k.launch(dev, cfg, ...mine); }
  catch (e) {
    const ke = e as KernelError;
    error = { name: ke.name, kind: ke.kind, message: ke.message, thread: ke.thread, block: ke.block, location: ke.location };
  }
  return { arrays: mine.filter((a) => ArrayBuffer.isView(a)).map((a) => Array.from(a as unknown as ArrayLike<number>)), lines: [...lines], error };
}

/**
 * Whether one of the kernels has a WebAssembly form in its JS artifact (compile() finds the
 * specialization the run made); each one found must load on the CPU device (a module the loader
 * refuses would leave the JavaScript running in its place, unseen).
 */
async function someModule(seen: { k: Kernel; types: string[] }[]): Promise<boolean> {
  let some = false;
  for (const { k, types } of seen) {
    let a;
    try { a = await k.compile({ target: "js", types }); }
    catch { continue; /* a kernel compiled with options compile() does not take here: not counted */ }
    if (!(a.code as string).includes("\nconst $wasm = ")) continue;
    assertModuleLoads(wasmCpu!, a);
    some = true;
  }
  return some;
}

/** The CPU device loads the artifact's WebAssembly module (its loader refuses none gpuc makes). */
export function assertModuleLoads(dev: Device, artifact: Parameters<Device["load"]>[0]): void {
  const loaded = dev.load(artifact) as unknown as { wasm: unknown; wasmRefused: string | null };
  assert.ok(loaded.wasm, `kernel ${artifact.kernel}: its WebAssembly module does not load: ${loaded.wasmRefused}`);
}

// ---- every kernel through ptxas ----------------------------------------------------------------
//
// Each kernel a CPU test runs is compiled for the ptx target and assembled by ptxas for sm_75 and
// sm_90 (the oldest and newest architectures the CUDA 13 ptxas here takes). ptxas is required
// where GPUC_REQUIRE_DEVICES names "ptxas" (CI); elsewhere its absence is said once, loudly.

export const PTXAS_ARCHES = ["sm_75", "sm_90"] as const;
const ptxasRequired = (process.env.GPUC_REQUIRE_DEVICES ?? "").split(",").includes("ptxas");
const assembled = new Map<string, Promise<string | null>>();
let warnedNoPtxas = false;

async function assembleAll(seen: { k: Kernel; types: string[] }[]): Promise<void> {
  if (!seen.length) return;
  if (!(await ptxasAvailable())) {
    if (ptxasRequired) throw new Error("ptxas is required (GPUC_REQUIRE_DEVICES includes ptxas) but cannot be run: install the CUDA toolkit or set PTXAS");
    if (!warnedNoPtxas) { warnedNoPtxas = true; console.warn("SKIPPED: PTX validation (ptxas not found): kernels are not assembled for sm_75/sm_90"); }
    return;
  }
  const problems: string[] = [];
  for (const { k, types } of seen) {
    for (const arch of PTXAS_ARCHES) {
      const artifact = await k.compile({ target: "ptx", types, features: { arch } });
      const code = artifact.code as string;
      let p = assembled.get(`${arch}\0${code}`);
      if (!p) {
        p = assemblePTX(artifact, arch).then((r) => (r.ok ? null : formatPtxasErrors(r)));
        assembled.set(`${arch}\0${code}`, p);
      }
      const err = await p;
      if (err) problems.push(`kernel '${k.name}' (${types.join(", ")}) for ${arch}:\n${err}\n--- PTX ---\n${code}`);
    }
  }
  assert.equal(problems.length, 0, `ptxas rejected the PTX of ${problems.length} kernel(s):\n${problems.join("\n")}`);
}

// ---- every kernel through spirv-val -------------------------------------------------------------
//
// Each kernel a CPU test runs is compiled for the spirv target and validated by spirv-val (OpenCL
// environment), except where the target refuses it (recursion: a CompileError). spirv-val
// is required where GPUC_REQUIRE_DEVICES names "spirv-val" (CI). No device here runs the SPIR-V:
// PoCL 3.1 takes no IL.

const spirvValRequired = (process.env.GPUC_REQUIRE_DEVICES ?? "").split(",").includes("spirv-val");
const spirvChecked = new Map<string, Promise<string | null>>();
let warnedNoSpirvVal = false;

async function validateAllSPIRV(seen: { k: Kernel; types: string[] }[]): Promise<void> {
  if (!seen.length) return;
  if (!(await spirvValAvailable())) {
    if (spirvValRequired) throw new Error("spirv-val is required (GPUC_REQUIRE_DEVICES includes spirv-val) but cannot be run: install spirv-tools");
    if (!warnedNoSpirvVal) { warnedNoSpirvVal = true; console.warn("SKIPPED: SPIR-V validation (spirv-val not found)"); }
    return;
  }
  const problems: string[] = [];
  for (const { k, types } of seen) {
    let artifact;
    try { artifact = await k.compile({ target: "spirv", types }); } catch (e) {
      if (e instanceof CompileError && (e.kind === "recursion" || e.kind === "unsupported-feature")) continue;
      throw e;
    }
    const code = artifact.code as Uint8Array;
    const key = Buffer.from(code).toString("base64");
    let p = spirvChecked.get(key);
    if (!p) { p = validateSPIRV(code).then((r) => (r.ok ? null : r.log)); spirvChecked.set(key, p); }
    const err = await p;
    if (err) problems.push(`kernel '${k.name}' (${types.join(", ")}):\n${err}`);
  }
  assert.equal(problems.length, 0, `spirv-val --target-env ${SPIRV_TARGET_ENV} rejected the SPIR-V of ${problems.length} kernel(s):\n${problems.join("\n")}`);
}

// ---- every kernel through LLVM's tools ---------------------------------------------------------
//
// Each kernel a CPU test runs is compiled for the llvm target, as SPIR (verified by opt) and for
// one AMD GPU (LLVM_TEST_ARCHES: verified, compiled by llc and linked by ld.lld; GPUC_LLVM_ARCHES
// names others: npm test's threaded runs check gfx940 and gfx1100, scripts/llvm-check.sh all
// four at once), except where the target refuses it
// (recursion: a CompileError). LLVM 16's tools are required where GPUC_REQUIRE_DEVICES names
// "llvm" (CI).

export const LLVM_TEST_ARCHES: readonly string[] = process.env.GPUC_LLVM_ARCHES?.split(",").map((a) => a.trim()).filter(Boolean) ?? ["spir64", "gfx90a"];
const llvmRequired = (process.env.GPUC_REQUIRE_DEVICES ?? "").split(",").includes("llvm");
const llvmChecked = new Map<string, Promise<string | null>>();
let warnedNoLLVM = false;

async function checkAllLLVM(seen: { k: Kernel; types: string[] }[]): Promise<void> {
  if (!seen.length) return;
  if (!llvmToolsAvailable()) {
    if (llvmRequired) throw new Error("LLVM 16's tools are required (GPUC_REQUIRE_DEVICES includes llvm) but are not installed: install llvm-16 and lld-16, or set GPUC_LLVM_BIN");
    if (!warnedNoLLVM) { warnedNoLLVM = true; console.warn("SKIPPED: LLVM IR validation (LLVM 16's opt, llc and ld.lld not found)"); }
    return;
  }
  const problems: string[] = [];
  for (const { k, types } of seen) {
    for (const arch of LLVM_TEST_ARCHES) {
      let artifact;
      try { artifact = await k.compile({ target: "llvm", types, features: { arch } }); } catch (e) {
        if (e instanceof CompileError && (e.kind === "recursion" || e.kind === "unsupported-feature")) continue;
        throw e;
      }
      const code = artifact.code as string;
      let p = llvmChecked.get(`${arch}\0${code}`);
      if (!p) { p = checkLLVM(artifact, arch).then((r) => (r.ok ? null : r.log)); llvmChecked.set(`${arch}\0${code}`, p); }
      const err = await p;
      if (err) problems.push(`kernel '${k.name}' (${types.join(", ")}) for ${arch}:\n${err}\n--- LLVM IR ---\n${code}`);
    }
  }
  assert.equal(problems.length, 0, `LLVM's tools rejected the LLVM IR of ${problems.length} kernel(s):\n${problems.join("\n")}`);
}

function on(kind: Kind, dev: Device): On {
  const gpu = kind !== "cpu";
  return {
    kind, dev, gpu, wgsl: kind === "webgpu", recursion: kind !== "webgpu" && kind !== "opencl" && kind !== "spir" && kind !== "amdgpu",
    same: (got, want, msg, opts) => (gpu ? sameGpu(got, want, msg, opts, kind !== "webgpu") : same(got, want, msg)),
    wide: (n, elem) => (kind !== "webgpu" ? poisonF64(n) : elem === "f32" ? poisonF32(n) : poisonI32(n)),
    async wideMixed(n, floats, run) {
      if (kind !== "webgpu") { const o = poisonF64(n); await run(o); return o; }
      const oi = poisonI32(n), of = poisonF32(n);
      await run(oi);
      await run(of);
      return Float64Array.from({ length: n }, (_, j) => (floats(j) ? of[j] : oi[j]));
    },
  };
}

const isIntArray = (a: unknown): a is Int32Array | Uint32Array => a instanceof Int32Array || a instanceof Uint32Array;

/** The WebGPU comparison: integer arrays exactly (the reference wrapped to the array's type), f32 values within a tolerance. */
function sameGpu(got: ArrayLike<number>, want: ArrayLike<number>, msg?: string, opts: CompareOptions = {}, exactWide = false): void {
  const what = msg ?? "array";
  assert.equal(got.length, want.length, `${what}: length`);
  if (!isIntArray(got) && !(got instanceof Float32Array) && !(got instanceof Float64Array)) return same(got, want, msg);
  const tol = opts.tol ?? F32_TOL;
  const wrap = got instanceof Uint32Array ? (v: number) => v >>> 0 : (v: number) => v | 0;
  const bad: string[] = [];
  let count = 0;
  for (let j = 0; j < got.length; j++) {
    const g = got[j], w = want[j];
    let ok: boolean;
    // Integer arrays as 32-bit patterns (WebGPU's merged mixed outputs too); an integer slot of a
    // wide output on CUDA and OpenCL (a Float64Array: every value exact) as it is.
    if (isIntArray(got)) ok = Number.isInteger(w) ? g === wrap(w) : Object.is(g, w);
    else if (opts.floats && !opts.floats(j)) ok = exactWide && got instanceof Float64Array ? Object.is(g, w) : Number.isInteger(w) ? g === wrap(w) : Object.is(g, w);
    else if (Number.isNaN(w)) ok = Number.isNaN(g);
    else if (!Number.isFinite(w)) ok = g === w;
    else ok = Math.abs(g - w) <= tol * Math.max(1, Math.abs(w));
    if (!ok && count++ < 10) bad.push(`  [${j}] got ${g}, want ${w}`);
  }
  assert.ok(count === 0, `${what}: ${count} of ${got.length} elements differ${isIntArray(got) ? "" : ` (f32 tolerance ${tol})`}:\n${bad.join("\n")}`);
}

/** The promise rejects with a CompileError of this kind whose message matches; returns it. */
export async function rejectsCompile(p: Promise<unknown>, kind: string, re: RegExp): Promise<CompileError> {
  let err: unknown = null;
  try { await p; } catch (e) { err = e; }
  assert.ok(err instanceof CompileError, `expected a CompileError, got ${err instanceof Error ? err.stack : err}`);
  assert.equal(err.kind, kind, err.message);
  assert.match(err.message, re);
  return err;
}

/** The promise rejects with a KernelError of this kind; returns it. */
export async function kernelError(p: Promise<unknown>, kind: string): Promise<KernelError> {
  let err: unknown = null;
  try { await p; } catch (e) { err = e; }
  assert.ok(err instanceof KernelError, `expected a KernelError, got ${err instanceof Error ? err.stack : err}`);
  assert.equal(err.kind, kind, err.message);
  return err;
}

// ---- source locations ------------------------------------------------------------------------
//
// tsx reprints kernel sources (comments vanish), so locations in error messages are checked
// against the test file itself: a line that a test names carries the marker comment `// @NAME`.

/**
 * `lineOf` for one test file (pass its `import.meta.url`): `lineOf("NAME")` is the 1-based line of
 * that file that carries the marker comment `// @NAME`, which must occur there once.
 */
export function lineOfIn(fileUrl: string): (name: string) => number {
  const lines = readFileSync(fileURLToPath(fileUrl), "utf8").split("\n");
  return (name) => {
    const hits: number[] = [];
    const re = new RegExp(`// @${name}(\\s|$)`);
    lines.forEach((l, i) => { if (re.test(l)) hits.push(i + 1); });
    assert.equal(hits.length, 1, `marker @${name} must occur once`);
    return hits[0];
  };
}

/** `assertLocation(loc, line)` for one test file (pass its `import.meta.url`): a location in that file at a given line. */
export function assertLocationIn(fileUrl: string): (loc: { file: string; line: number; column: number } | null, line: number) => void {
  const file = basename(fileURLToPath(fileUrl));
  return (loc, line) => {
    assert.ok(loc, "location is null");
    assert.ok(loc.file.endsWith(file), `file: ${loc.file}`);
    assert.equal(loc.line, line, `line of ${JSON.stringify(loc)}`);
    assert.ok(Number.isInteger(loc.column) && loc.column >= 1, `column: ${loc.column}`);
  };
}

/** A thread or block index. */
export type Idx = { x: number; y: number; z: number };
export const xyz = (x: number, y = 0, z = 0): Idx => ({ x, y, z });

/**
 * The exception names the thread and block that raised it, and its message says `text(thread,
 * block)`. On the CPU the threads run one at a time, so that is the first thread to fail,
 * `first`; on a GPU they run concurrently and any failing thread (`fails(thread, block)`) may be
 * the first to report.
 */
export function assertRaisedBy(gpu: boolean, err: KernelError, first: [Idx, Idx], fails: (t: Idx, b: Idx) => boolean, text?: (t: Idx, b: Idx) => string): void {
  const [t, b] = gpu ? [err.thread!, err.block!] : first;
  assert.ok(t && b, `no thread or block: ${err.message}`);
  if (gpu) assert.ok(fails(t, b), `thread ${JSON.stringify(t)} of block ${JSON.stringify(b)} does not fail`);
  else { assert.deepEqual(err.thread, t); assert.deepEqual(err.block, b); }
  if (text) assert.ok(err.message.includes(text(t, b)), err.message);
}

/** WGSL has no f64: the WebGPU device rejects a kernel that uses it, before running anything. */
export const rejectsF64 = (p: Promise<unknown>) => rejectsCompile(p, "unsupported-type", /the wgsl target has no f64/);
/** WGSL has no call stack: the WebGPU device rejects a recursive kernel. */
export const rejectsRecursion = (p: Promise<unknown>) => rejectsCompile(p, "recursion", /recursion is not supported on target '(wgsl|opencl|llvm)'/);

/**
 * The annotation of a kernel parameter that takes a `wide()` array: a Float64Array on the CPU, a
 * narrower array on WebGPU. (An annotation such as `Float64Array` declares the parameter's type;
 * this one declares nothing, so the argument's type decides.)
 */
export type Wide = Float64Array | Float32Array | Int32Array | Uint32Array;
