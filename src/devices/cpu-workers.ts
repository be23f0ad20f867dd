// The CPU device's worker threads (Node's worker_threads): a launch's blocks spread over them,
// sharing memory through SharedArrayBuffers, with the same results as the device's own thread.
//
// What "the same results" means, and why this design gives them:
//
// - The grid is split by blocks, never inside one: a block's threads, its shared memory and its
//   barriers stay on one worker, which runs the kernel's own code (the JS artifact, compiled once
//   per worker) on a range of linear block indices (bx fastest: the order the device's own loop
//   runs them in). Workers take ranges from one shared counter, in increasing order, chunks
//   growing while a chunk takes under a millisecond (load balance for uneven kernels such as
//   Mandelbrot, and a check of the cancel flag every few milliseconds).
// - Blocks that communicate only through atomics see the same memory model as on a GPU: the
//   code binds `$mt` true here, so its atomics are `Atomics` operations (f32 add and exchange a
//   compare-exchange loop on an Int32Array view: `atomicF32` below). Integer atomics commute, so
//   their final values are one thread's; what depends on the order blocks run in is not: the old
//   values atomics return (a slot taken from a counter), and f32 atomicAdd's rounding (its sum
//   is added up in another order), as on a GPU. Plain stores from different blocks to one
//   element are a data race on a GPU too; here one of the possible results is kept, not
//   necessarily the one the device's own thread leaves.
// - Exceptions: each worker has a kernel state of its own and stops at its first exception (as
//   the device's thread stops the whole launch at its first). The launch reports the exception
//   of the lowest linear block that raised one, which is the exception the device's own thread
//   reports (every block before it ran without one there). Workers stop taking blocks past it,
//   but blocks after it that were already running finish: memory after a launch that raised an
//   exception may hold more of their stores than on one thread (on a GPU, any of them may).
//   An exception caused by another block's atomics can differ, as the blocks' order does. The
//   same rule picks between a barrier reached under a divergent condition (reported with its
//   block) and a JavaScript error thrown by the code (a stack overflow in recursion: ranked as
//   the first block of its chunk, whose block is not known).
// - Prints: each worker records into its own print area; the records are merged by linear block
//   (a block's own records keep their order), those of blocks after the exception dropped, and
//   laid into the device's one print area as its own thread would have reserved them (the same
//   lines, and the same ones dropped when the area is full, except that a worker whose own area
//   overflowed counts the records it dropped without their blocks).
// - Cancellation: the launch's AbortSignal or time limit sets a shared flag that workers read
//   between chunks; a worker still running after CANCEL_GRACE_MS (one long block) is terminated
//   and the pool is started afresh at the next launch, so the launch ends within about 100 ms.
//   An exception raised before the cancel took effect is reported rather than the cancel.
//
// The worker's code is this file's WORKER_SOURCE, started with `eval: true`: dist/ is bundled
// (scripts/bundle-node.mjs) and a worker script would have to be an entry of its own.

import { KernelError } from "../errors.js";
import type { HostArray } from "../typed-arrays.js";
import { STATE } from "../runtime/state.js";
import { decodeException, resetState } from "../runtime/host.js";
import type { RuntimeTables } from "../runtime/tables.js";
import { printPartWords } from "../ir/module.js";
import { THREADS_SECTION, WASM_IMPORTS, wasmElemBytes } from "../targets/js/wasm-abi.js";
import { HEADER, argumentWords, copyBack, copyIn, grow, place, placeShared, type LinearMemory, type WasmKernel } from "./cpu-wasm.js";
import type { Grid } from "./device.js";
import { argumentRanges, cancelledError, estimate, isShared, viewsOver, type CpuHost, type CpuKernel } from "./cpu-launch.js";

/** How long workers get to stop after a cancel before they are terminated. */
const CANCEL_GRACE_MS = 50;

const WORKER_SOURCE = String.raw`"use strict";
const { parentPort, workerData } = require("node:worker_threads");
const { ctl, counters, state, memory } = workerData;
const kernels = new Map();
const wasmImports = ${wasmImportsSource()};
const TRAP = Object.freeze({ gpucTrap: true });
class Divergent { constructor(args) { this.args = args; } }
const divergent = (...args) => { throw new Divergent(args); };
const bits = new Float32Array(1), bitsI32 = new Int32Array(bits.buffer);
const views = new WeakMap();
function atomicF32(a, i, op, v) {
  let iv = views.get(a);
  if (iv === undefined) { iv = new Int32Array(a.buffer, a.byteOffset, a.length); views.set(a, iv); }
  for (;;) {
    const o = Atomics.load(iv, i);
    bitsI32[0] = o;
    const old = bits[0];
    bits[0] = op === 0 ? old + v : v;
    if (Atomics.compareExchange(iv, i, o, bitsI32[0]) === o) return old;
  }
}
parentPort.on("message", (m) => {
  if (m.t === "load") {
    const factory = new Function(...m.bindings, m.code + "\nreturn " + m.entry + ";");
    kernels.set(m.key, factory(...m.sites, TRAP, divergent, m.subgroupSize, true, atomicF32));
    return;
  }
  if (m.t === "load-wasm") {
    const instance = new WebAssembly.Instance(new WebAssembly.Module(m.bytes), { m: { ...wasmImports, divergent, memory } });
    kernels.set(m.key, instance.exports.run);
    return;
  }
  const run = kernels.get(m.key);
  const [gx, gy, gz, dx, dy, dz] = m.grid;
  const total = m.total, args = m.args, call = m.call;
  let chunk = 1, fault = -1, diverged = null, error = null;
  for (;;) {
    if (Atomics.load(ctl, 0) !== 0) break;
    const start = Number(Atomics.add(counters, 0, BigInt(chunk)));
    if (start >= total || start >= Number(Atomics.load(counters, 1))) break;
    const end = Math.min(start + chunk, total);
    const t0 = performance.now();
    try {
      if (call) run(...call, start, end);
      else run(state, ...args, gx, gy, gz, dx, dy, dz, start, end);
    } catch (e) {
      // (A module's trap follows the exception the runtime library recorded in its state.)
      const s = call && e instanceof WebAssembly.RuntimeError ? new Int32Array(memory.buffer, m.statePtr, 10) : null;
      if (e === TRAP || (s && s[0] !== 0)) { const w = s || state; fault = w[7] + gx * (w[8] + gy * w[9]); }
      else if (e instanceof Divergent) { diverged = e.args; fault = e.args[4] + gx * (e.args[5] + gy * e.args[6]); }
      else { error = { name: e && e.name, message: String(e && e.message !== undefined ? e.message : e) }; fault = start; }
      // The launch's lowest faulting block: no worker starts a range past it.
      for (let cur = Atomics.load(counters, 1); BigInt(fault) < cur;) {
        const seen = Atomics.compareExchange(counters, 1, cur, BigInt(fault));
        if (seen === cur) break;
        cur = seen;
      }
      break;
    }
    const dt = performance.now() - t0;
    if (dt < 1 && chunk < 1073741824) chunk *= 2;
    else if (dt > 4 && chunk > 1) chunk = Math.ceil(chunk / 2);
  }
  // A module's state (header and prints) into the worker's own, where the launch reads them.
  if (call) {
    const words = new Int32Array(memory.buffer, m.statePtr, state.length);
    state.set(words.subarray(0, ${STATE.PRINT_BASE} + Math.min(Math.max(words[${STATE.PRINT_CURSOR}], 0), state.length - ${STATE.PRINT_BASE})));
  }
  parentPort.postMessage({ fault, diverged, error });
});
`;

/** A loaded kernel as the workers need it: its code and its tables (SharedArrayBuffer-backed). */
interface WorkerKernel {
  readonly id: number;
  readonly code: string;
  readonly bindings: readonly string[];
  readonly entry: string;
  readonly sites: readonly HostArray[];
}

/**
 * What the workers run: the kernel's JavaScript on `args` (SharedArrayBuffer-backed arrays and
 * scalars), or its WebAssembly module on the pool's shared memory (launchOnThreads below:
 * worker i's module `module(i)`, its `run` arguments `calls[i]`, its state at `states[i]`).
 */
export type WorkerJob =
  | { kind: "js"; kernel: WorkerKernel; args: readonly unknown[] }
  | { kind: "wasm"; id: number; module: (worker: number) => Uint8Array; calls: number[][]; states: number[] };

/** What one worker reports after a launch: its first faulting block (-1: none) and how. */
interface WorkerReport { fault: number; diverged: number[] | null; error: { name?: string; message: string } | null }

/** How a launch on the workers ended. */
interface WorkersOutcome {
  /** The exception that won (lowest block): the state exception (already in the merged state), a divergence's arguments, or a JS error. */
  fault: { kind: "state" } | { kind: "divergent"; args: number[] } | { kind: "error"; name?: string; message: string } | null;
  /** Why the launch was stopped before its end, if it was. */
  cancelled: "signal" | "timeout" | null;
}

type WorkerThread = import("node:worker_threads").Worker;

export class CpuWorkers {
  private workers: WorkerThread[] | null = null;
  private loaded: Set<string>[] = [];
  /** The memory the workers' WebAssembly instances share (null where the engine has none). */
  readonly memory: LinearMemory | null;
  /** [0]: the cancel flag. */
  private readonly ctl = new Int32Array(new SharedArrayBuffer(4));
  /** [0]: the next block to hand out; [1]: the lowest faulting block (the grid's size when none). */
  private readonly counters = new BigInt64Array(new SharedArrayBuffer(16));
  private readonly states: Int32Array[];

  constructor(readonly count: number, stateWords: number, private readonly subgroupSize: number) {
    this.states = Array.from({ length: count }, () => new Int32Array(new SharedArrayBuffer(stateWords * 4)));
    let memory: LinearMemory | null = null;
    try { memory = new WebAssembly.Memory({ initial: 1, maximum: 65536, shared: true }); } catch { /* none: the JavaScript runs */ }
    this.memory = memory;
  }

  private async start(): Promise<WorkerThread[]> {
    if (this.workers) return this.workers;
    // (The browser builds resolve it to a stand-in, src/platform/node-shims.ts: browsers run one thread.)
    const { Worker } = await import("node:worker_threads");
    if (this.workers) return this.workers;
    this.workers = this.states.map((state) => {
      const w = new Worker(WORKER_SOURCE, { eval: true, workerData: { ctl: this.ctl, counters: this.counters, state, memory: this.memory } });
      w.unref();
      return w;
    });
    this.loaded = this.workers.map(() => new Set());
    return this.workers;
  }

  /**
   * Run blocks 0 to the grid's size on the workers. The prints and the winning state exception
   * are merged into `into` (the device's state, reset before).
   */
  async run(job: WorkerJob, grid: readonly number[], into: Int32Array, tables: RuntimeTables,
    cancel: { signal?: AbortSignal; timeoutMs?: number }): Promise<WorkersOutcome> {
    const workers = await this.start();
    const [gx, gy, gz] = grid;
    const total = gx * gy * gz;
    Atomics.store(this.ctl, 0, 0);
    Atomics.store(this.counters, 0, 0n);
    Atomics.store(this.counters, 1, BigInt(total));
    for (const s of this.states) s.fill(0, 0, STATE.PRINT_BASE);
    let cancelled: WorkersOutcome["cancelled"] = null;
    let forceStop: (() => void) | null = null;
    const stop = (why: "signal" | "timeout") => {
      if (cancelled) return;
      cancelled = why;
      Atomics.store(this.ctl, 0, 1);
      // A worker inside one long block cannot see the flag: it is terminated after a grace period.
      setTimeout(() => forceStop?.(), CANCEL_GRACE_MS).unref?.();
    };
    const onAbort = () => stop("signal");
    cancel.signal?.addEventListener("abort", onAbort, { once: true });
    const timer = cancel.timeoutMs !== undefined ? setTimeout(() => stop("timeout"), cancel.timeoutMs) : null;
    const used = workers.slice(0, Math.min(workers.length, total));
    let reports: (WorkerReport | null)[];
    try {
      reports = await new Promise<(WorkerReport | null)[]>((resolve, reject) => {
        const got: (WorkerReport | null)[] = used.map(() => null);
        let left = used.length;
        const done = () => { for (const w of used) { w.off("message", onMessage(w)); w.off("error", onError); w.off("exit", onExit); w.unref(); } };
        const handlers = new Map<WorkerThread, (r: WorkerReport) => void>();
        const onMessage = (w: WorkerThread) => handlers.get(w)!;
        const onError = (e: Error) => { done(); this.terminate(); reject(e); };
        // A worker gone before it reported: the device was closed (terminate()) during the launch.
        const onExit = () => { done(); this.terminate(); reject(new KernelError("device-unavailable", "the CPU device was closed during the launch")); };
        used.forEach((w, i) => {
          handlers.set(w, (r) => { got[i] = r; if (--left === 0) { done(); resolve(got); } });
          w.on("message", handlers.get(w)!);
          w.on("error", onError);
          w.on("exit", onExit);
          w.ref();
          const key = job.kind === "js" ? `j${job.kernel.id}` : `w${job.id}`;
          if (!this.loaded[i].has(key)) {
            if (job.kind === "js") {
              const k = job.kernel;
              w.postMessage({ t: "load", key, code: k.code, bindings: k.bindings, entry: k.entry, sites: k.sites, subgroupSize: this.subgroupSize });
            } else w.postMessage({ t: "load-wasm", key, bytes: job.module(i) });
            this.loaded[i].add(key);
          }
          if (job.kind === "js") w.postMessage({ t: "run", key, args: job.args, grid, total });
          else w.postMessage({ t: "run", key, call: job.calls[i], statePtr: job.states[i], grid, total });
        });
        forceStop = () => { if (left > 0) { done(); this.terminate(); resolve(got); } };
      });
    } finally {
      cancel.signal?.removeEventListener("abort", onAbort);
      if (timer) clearTimeout(timer);
      forceStop = null;
    }
    // The winner: the lowest faulting block.
    let win = -1;
    reports.forEach((r, i) => { if (r && r.fault >= 0 && (win < 0 || r.fault < reports[win]!.fault)) win = i; });
    const limit = win >= 0 ? reports[win]!.fault : Infinity;
    mergePrints(used.map((_w, i) => this.states[i]), into, tables, grid, limit);
    let fault: WorkersOutcome["fault"] = null;
    if (win >= 0) {
      const r = reports[win]!;
      if (r.diverged) fault = { kind: "divergent", args: r.diverged };
      else if (r.error) fault = { kind: "error", ...r.error };
      else {
        into.set(this.states[win].subarray(0, STATE.PRINT_CURSOR));
        fault = { kind: "state" };
      }
    }
    return { fault, cancelled };
  }

  /** Stop every worker now (the pool starts afresh at the next launch). */
  terminate(): void {
    const ws = this.workers;
    this.workers = null;
    this.loaded = [];
    if (ws) for (const w of ws) void w.terminate();
  }
}

/**
 * WASM_IMPORTS as source text for the workers: a Math function by its name, any other the
 * function's own text (each is self-contained: its parameters and Math only).
 */
function wasmImportsSource(): string {
  const math = Math as unknown as Record<string, unknown>;
  return `{ ${Object.entries(WASM_IMPORTS).map(([n, { fn }]) => `${n}: ${math[n] === fn ? `Math.${n}` : `(${fn.toString()})`}`).join(", ")} }`;
}

/** Words of the print record at `at`: its header and values (runtime/host.ts decodes them). */
function recordWords(state: Int32Array, at: number, tables: RuntimeTables): number {
  const fmt = tables.formats[state[at]];
  if (!fmt) return -1;
  let n = STATE.PRINT_HEADER;
  for (const p of fmt.parts) n += printPartWords(p);
  return n;
}

/**
 * The workers' print records, merged by linear block (stable: a block's records keep their
 * order) up to block `limit`, reserved in `into` as one thread's gpuc_print_reserve would have.
 */
function mergePrints(states: Int32Array[], into: Int32Array, tables: RuntimeTables, grid: readonly number[], limit: number): void {
  const [gx, gy] = grid;
  const records: { block: number; state: Int32Array; at: number; words: number }[] = [];
  let droppedElsewhere = 0;
  for (const s of states) {
    const end = Math.min(STATE.PRINT_BASE + s[STATE.PRINT_CURSOR], s.length);
    for (let at = STATE.PRINT_BASE; at + STATE.PRINT_HEADER <= end;) {
      const words = recordWords(s, at, tables);
      if (words < 0 || at + words > end) break;
      const block = s[at + 4] + gx * (s[at + 5] + gy * s[at + 6]);
      if (block <= limit) records.push({ block, state: s, at, words });
      at += words;
    }
    droppedElsewhere += s[STATE.PRINT_DROPPED];
  }
  if (!records.length && !droppedElsewhere) return;
  records.sort((a, b) => a.block - b.block);
  let cursor = 0, dropped = droppedElsewhere;
  for (const r of records) {
    const at = STATE.PRINT_BASE + cursor;
    cursor += r.words;
    if (at + r.words > into.length) { dropped++; continue; }
    into.set(r.state.subarray(r.at, r.at + r.words), at);
  }
  into[STATE.PRINT_CURSOR] = cursor;
  into[STATE.PRINT_DROPPED] = dropped;
}

/**
 * A launch of the CPU device's on its worker pool (cpu.ts starts the pool at its first use): host
 * arrays copied into SharedArrayBuffers and back (arrays of one buffer copied together, as one
 * range, so that views that overlap still do), the prints and the exception merged (run).
 */
export async function launchOnWorkers(pool: CpuWorkers, host: CpuHost, k: CpuKernel, args: unknown[], grid: Grid, shared: number[]): Promise<void> {
  const t0 = performance.now();
  const state = host.state;
  resetState(state);
  // The kernel's WebAssembly where it would run it on this thread and the module may run on
  // several at once (launchOnThreads, below), in the pool's shared memory.
  const w = k.wasm && k.wasm.threads && pool.memory && host.asWasm(k) ? k.wasm : null;
  const threads = grid.blocks[0] * grid.blocks[1] * grid.blocks[2] * grid.threads[0] * grid.threads[1] * grid.threads[2];
  let copyMs = performance.now();
  const laid = w && launchOnThreads(w, pool.memory!, pool.count, state.length, k.sites, args, k.readOnly, [...grid.blocks, ...grid.threads], host.subgroupSize,
    shared.map((length, i) => ({ length, bytes: wasmElemBytes(k.artifact.dynamicShared![i].elem) })));
  if (w && laid) {
    copyMs = performance.now() - copyMs;
    let outcome;
    const base = threadBytes(w);
    try {
      outcome = await pool.run({ kind: "wasm", id: k.id, module: (i) => threadModule(w, laid.info, i * base), calls: laid.calls, states: laid.states },
        [...grid.blocks, ...grid.threads], state, k.artifact.runtime, { signal: grid.signal, timeoutMs: grid.timeoutMs });
    } finally {
      const c = performance.now();
      laid.finish();
      k.copyNs = ((copyMs + performance.now() - c) * 1e6) / threads;
    }
    return afterWorkers(host, k, grid, outcome, t0);
  }
  copyMs = performance.now();
  // (Only a buffer some parameter may write is copied back.)
  const ranges = argumentRanges(args, (i) => !isShared(args[i] as HostArray), (i) => !k.readOnly[i]);
  for (const [buffer, r] of ranges) {
    r.copy = new Uint8Array(new SharedArrayBuffer(r.hi - r.lo));
    r.copy.set(new Uint8Array(buffer, r.lo, r.hi - r.lo));
  }
  const sharedArgs = viewsOver(args, ranges);
  copyMs = performance.now() - copyMs;
  let outcome;
  try {
    const a = k.artifact;
    outcome = await pool.run({ kind: "js", kernel: { id: k.id, code: a.code as string, bindings: a.bindings, entry: a.entry, sites: k.sites }, args: sharedArgs },
      [...grid.blocks, ...grid.threads], state, k.artifact.runtime, { signal: grid.signal, timeoutMs: grid.timeoutMs });
  } finally {
    const c = performance.now();
    for (const [buffer, r] of ranges) if (r.written) new Uint8Array(buffer, r.lo, r.hi - r.lo).set(r.copy!);
    k.copyNs = ((copyMs + performance.now() - c) * 1e6) / threads;
  }
  return afterWorkers(host, k, grid, outcome, t0);
}

/** A launch on the workers, done: its time measured (one that ran to its end), its prints, its exception. */
function afterWorkers(host: CpuHost, k: CpuKernel, grid: Grid, outcome: WorkersOutcome, t0: number): void {
  const state = host.state;
  const [gx, gy, gz] = grid.blocks, [dx, dy, dz] = grid.threads;
  if (!outcome.cancelled && !outcome.fault) { k.workersNs = estimate(k.workersNs, k.workersRuns++, ((performance.now() - t0) * 1e6) / (gx * gy * gz * dx * dy * dz)); }
  host.flushPrints(k.artifact);
  const f = outcome.fault;
  if (f?.kind === "divergent") k.divergent(...f.args);
  if (f?.kind === "error") { const e = new Error(f.message); if (f.name) e.name = f.name; throw e; }
  const err = decodeException(state, k.artifact.runtime, k.artifact.kernel);
  if (err) throw err;
  if (outcome.cancelled) throw cancelledError(k.artifact.kernel, outcome.cancelled, grid);
}

// ---- A kernel's WebAssembly on several threads (cpu-wasm.ts loads it and runs it on one) ----

/** A launch laid out in a memory several threads share: each thread's `run` arguments (its block range aside). */
interface ThreadsLaunch {
  /** Per thread: `run`'s arguments but the last two, and where its state is. */
  calls: number[][];
  states: number[];
  /** The written arrays copied back (also after a trap). */
  finish(): void;
}

/** Where a module's memory import's limits flags and its relocations are (wasm-abi.ts, THREADS_SECTION). */
export interface ThreadsInfo { limits: number; relocs: number[] }

/** Each module's THREADS_SECTION, read and checked once; null where it does not check out (its launches here run the JavaScript). */
const threadsInfos = new WeakMap<WasmKernel, ThreadsInfo | null>();
export function threadsInfo(w: WasmKernel): ThreadsInfo | null {
  let t = threadsInfos.get(w);
  if (t === undefined) threadsInfos.set(w, (t = threadsSection(w.bytes, w.sections(THREADS_SECTION), w.heap)));
  return t;
}

/** Bytes a thread's fixed data takes in a shared memory (its tables inside the first thread's). */
function threadBytes(w: WasmKernel): number { return Math.ceil(w.heap / 64) * 64; }

/**
 * The module for the thread whose fixed data starts at `base` (a multiple of 8) of a shared
 * memory: its memory import shared, each relocated constant moved by `base`.
 */
export function threadModule(w: WasmKernel, t: ThreadsInfo, base: number): Uint8Array<ArrayBuffer> {
  const b = new Uint8Array(w.bytes);
  b[t.limits] = 0x03;
  for (const r of t.relocs) writeWide(b, r, readWide(b, r) + base);
  return b;
}

/**
 * A launch of `w` laid out for `threads` threads sharing `memory` (each running threadModule of
 * its own base: thread i's fixed data at i · threadBytes, the tables written in thread 0's): the
 * threads' states (zeroed headers), the arrays (copied in), each thread's shared arrays sized at
 * launch. Null where the module's THREADS_SECTION does not check out or the launch does not fit
 * in linear memory.
 */
function launchOnThreads(w: WasmKernel, memory: LinearMemory, threads: number, stateWords: number, sites: readonly HostArray[], args: unknown[], readOnly: boolean[],
  grid: readonly number[], subgroupSize: number, shared: { length: number; bytes: number }[]): (ThreadsLaunch & { info: ThreadsInfo }) | null {
  const info = threadsInfo(w);
  if (!info) return null;
  const base = threadBytes(w);
  const states = Array.from({ length: threads }, (_, i) => threads * base + i * stateWords * 4);
  const { ranges, end } = place(args, readOnly, threads * base + threads * stateWords * 4);
  const sharedAt = placeShared(states.map(() => shared), end);
  if (!grow(memory, sharedAt.at(-1)?.end ?? end)) return null;
  const bytes = new Uint8Array(memory.buffer);
  sites.forEach((s, i) => bytes.set(new Uint8Array(s.buffer, s.byteOffset, s.byteLength), w.tables[i]));
  for (const p of states) new Int32Array(memory.buffer, p, HEADER).fill(0);
  copyIn(bytes, ranges);
  const words = argumentWords(args, ranges);
  const calls = states.map((p, i) => {
    const call = [p, stateWords, ...words, ...grid, subgroupSize];
    shared.forEach((x, j) => call.push(sharedAt[i].at[j], x.length));
    return call;
  });
  return { calls, states, info, finish: () => copyBack(new Uint8Array(memory.buffer), ranges) };
}

/** A five-byte LEB128 i32 at `at` (the relocations' form: wasm-binary.ts, s32wide). */
function readWide(b: Uint8Array, at: number): number {
  let v = 0;
  for (let i = 0; i < 5; i++) v |= (b[at + i] & 0x7f) << (7 * i);
  return v;
}

function writeWide(b: Uint8Array, at: number, v: number): void {
  for (let i = 0; i < 4; i++) { b[at + i] = (v & 0x7f) | 0x80; v >>= 7; }
  b[at + 4] = v & 0x7f;
}

/**
 * The module's THREADS_SECTION, checked against its bytes: exactly one; the limits flags byte a
 * memory with a maximum (0x01); each relocation an `i32.const` whose operand is five bytes long
 * and a place below `heap`. Null where there is none or it does not check out (one thread only).
 */
function threadsSection(bytes: Uint8Array, sections: ArrayBuffer[], heap: number): ThreadsInfo | null {
  if (sections.length !== 1) return null;
  const d = new Uint8Array(sections[0]);
  let p = 0;
  const u32 = (): number => {
    let v = 0, shift = 0;
    for (;;) {
      if (p >= d.length || shift > 28) throw new Error("truncated");
      const c = d[p++];
      v += (c & 0x7f) * 2 ** shift;
      if (!(c & 0x80)) return v;
      shift += 7;
    }
  };
  try {
    const limits = u32(), n = u32();
    if (bytes[limits] !== 0x01 || n > bytes.length) return null;
    const relocs: number[] = [];
    for (let i = 0; i < n; i++) {
      const r = u32();
      if (r < 1 || r + 5 > bytes.length || bytes[r - 1] !== 0x41) return null;
      for (let j = 0; j < 4; j++) if (!(bytes[r + j] & 0x80)) return null;
      if (bytes[r + 4] & 0x80) return null;
      const v = readWide(bytes, r);
      if (v < 0 || v >= heap) return null;
      relocs.push(r);
    }
    return p === d.length ? { limits, relocs } : null;
  } catch {
    return null;
  }
}
