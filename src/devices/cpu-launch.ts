// What the CPU device's ways of launching share: its own thread (cpu.ts), the worker pool
// (cpu-workers.ts) and a sanitized launch (cpu-sanitizer.ts) — the loaded kernel, the device as a
// launch sees it, a launch's arguments copied by buffer, and its measurements and errors. A module
// of its own so that the pool and the sanitizer carry their launches with them: an app's page
// leaves both out (it has no worker threads, and its image no sanitized code), and with them the
// code that only they run.

import { KernelError, quoteName } from "../errors.js";
import type { Artifact } from "../targets/target.js";
import type { HostArray } from "../typed-arrays.js";
import type { Grid, LoadedKernel } from "./device.js";
import type { WasmKernel } from "./cpu-wasm.js";

export interface CpuKernel extends LoadedKernel {
  run: (...args: unknown[]) => void;
  /** The tables the code is bound to (the manifest's sites, in order): `updateTable` writes into them. */
  sites: HostArray[];
  /** Its id among the kernels the workers have compiled. */
  id: number;
  /** The throw of a barrier reached under a divergent condition (a worker reports the arguments). */
  divergent: (...args: number[]) => never;
  /**
   * A multi-threaded device's measurements: nanoseconds per GPU thread of its launches on the
   * device's own thread and on the workers (copies included), each an average of the recent ones
   * (estimate()), how many runs each measured, and how many launches chose between them.
   */
  inlineNs?: number;
  workersNs?: number;
  /** Of those on the workers, the copies into shared memory and back alone (the last launch's; per GPU thread). */
  copyNs?: number;
  inlineRuns: number;
  workersRuns: number;
  choices: number;
  /** Its WebAssembly form (cpu-wasm.ts), where it has one the device uses; else why not (null: it has none). */
  wasm: WasmKernel | null;
  wasmRefused: string | null;
  /** Its module's text while not yet compiled (see WASM_AFTER_THREADS), and the threads its launches ran meanwhile. */
  wasmText: string | null;
  threadsRun: number;
  /** For each parameter, whether the code never writes it (its copy out of WebAssembly's memory is skipped). */
  readOnly: boolean[];
  /** For each parameter, whether the launch fills it (Artifact's `fills`: its copy into WebAssembly's memory is skipped). */
  fills: boolean[];
  /** Sanitized code's sites (the `sanitize` feature: its launches run under the device's sanitizer); else null. */
  sanSites: unknown[] | null;
  /** Whether sanitized code has shared arrays (only then can it read uninitialized memory: Sanitizer.launch). */
  sanShared: boolean;
}

/** Whether an array's memory is a SharedArrayBuffer (which worker threads share). */
export const isShared = (a: HostArray) => typeof SharedArrayBuffer !== "undefined" && a.buffer instanceof SharedArrayBuffer;

/** The CPU device as a launch away from its own code sees it (cpu.ts makes one per device). */
export interface CpuHost {
  /** The device's kernel state (exception, prints), which every launch reports through. */
  readonly state: Int32Array;
  readonly subgroupSize: number;
  /** `threadOrder: "reversed"` (with sanitize): each barrier interval's threads, and the blocks, run last first. */
  readonly reversed: boolean;
  /** Whether a launch on the device's thread would run the kernel's WebAssembly. */
  asWasm(k: CpuKernel): boolean;
  /** The launch's prints, written out. */
  flushPrints(artifact: Artifact): void;
}

/** Thrown by generated code to end a thread after the runtime recorded an exception. */
export const TRAP = Object.freeze({ gpucTrap: true });

/**
 * A measurement folded into an estimate: the first run of a kernel on a thread is left out (the
 * JIT has not compiled it yet), later ones averaged with halving weights (recent runs count most;
 * runs on the workers vary more than on one thread, so neither the fastest nor the last alone).
 */
export function estimate(previous: number | undefined, runsBefore: number, ns: number): number | undefined {
  if (runsBefore === 0) return undefined;
  return previous === undefined ? ns : (previous + ns) / 2;
}

/** The error of a launch stopped by its AbortSignal or its time limit. */
export function cancelledError(kernel: string, why: "signal" | "timeout", grid: Grid): KernelError {
  return new KernelError("cancelled", why === "signal"
    ? `the launch of kernel ${quoteName(kernel)} was cancelled (its AbortSignal was aborted)`
    : `the launch of kernel ${quoteName(kernel)} ran past its time limit of ${grid.timeoutMs} ms and was stopped`);
}

/** A buffer's range that a launch's array arguments lie in, whether one the code may write is among them, and a copy of the range. */
export interface BufferRange { lo: number; hi: number; written: boolean; copy?: Uint8Array }

/**
 * The byte range of each buffer that the array arguments `take` accepts lie in (one range a
 * buffer, so that views of one buffer still alias in a copy of it; offsets rounded down to 8
 * bytes, so that every view keeps its alignment there).
 */
export function argumentRanges(args: readonly unknown[], take: (i: number) => boolean, written: (i: number) => boolean): Map<ArrayBufferLike, BufferRange> {
  const ranges = new Map<ArrayBufferLike, BufferRange>();
  args.forEach((a, i) => {
    if (!ArrayBuffer.isView(a) || !take(i)) return;
    const r = ranges.get(a.buffer), lo = a.byteOffset & ~7, hi = a.byteOffset + a.byteLength;
    if (!r) ranges.set(a.buffer, { lo, hi, written: written(i) });
    else { r.lo = Math.min(r.lo, lo); r.hi = Math.max(r.hi, hi); r.written ||= written(i); }
  });
  return ranges;
}

/** The arguments again, each view of a buffer among `ranges` over that range's copy. */
export function viewsOver(args: readonly unknown[], ranges: ReadonlyMap<ArrayBufferLike, BufferRange>): unknown[] {
  return args.map((a) => {
    const r = ArrayBuffer.isView(a) ? ranges.get(a.buffer) : undefined;
    if (!r) return a;
    const v = a as HostArray, C = v.constructor as new (b: ArrayBufferLike, offset: number, length: number) => HostArray;
    return new C(r.copy!.buffer, v.byteOffset - r.lo, v.length);
  });
}
