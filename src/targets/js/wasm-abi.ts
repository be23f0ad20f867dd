// The contract between the JS target's WebAssembly modules (wasm.ts writes them) and the CPU
// device that runs them (devices/cpu-wasm.ts): what a module may import — its memory and the
// functions JavaScript has and WebAssembly lacks — and what it exports. Light: the runtime loads it.
//
// A module imports `m.memory` (with a maximum of 4 GiB) and some of WASM_IMPORTS as `m.<name>`; it exports `run`
//   run(statePtr, stateWords, ...parameters, gx, gy, gz, dx, dy, dz, subgroupSize, ...sharedSizedAtLaunch, first, end)
// (an array parameter as its byte offset and its length, a bool as an i32; each shared array
// sized at launch, in the artifact's `dynamicShared` order, a byte offset and its length: room the
// loader leaves after the arguments, which `run` zero-fills; the blocks run, `first` to `end`
// exclusive, by linear index bx + gx·(by + gy·bz), in that order), the immutable i32
// globals `table<i>` (where constant table i lives) and `heap` (the first byte free for the
// launch's arrays: the state, then the arguments). Its first section is the custom section
// PREFER_SECTION, one byte: 1 where the kernel likely runs faster as WebAssembly (it has a loop
// or a barrier, or does four steps or more per element it reads or writes) — first, so that a
// loader reads it without compiling the module (one it would not run is never compiled).
//
// A module that may run on several threads at once over one shared memory (the CPU device's
// workers, each a range of blocks) carries the custom section THREADS_SECTION: the byte offset in
// the module of its memory import's limits flags (0x01: a maximum; the loader sets 0x02, shared),
// then a vector of the byte offsets of five-byte LEB128 `i32.const` operands that are places in
// its fixed data below `heap` other than its tables (per-thread storage, shared and private
// arrays: each thread's instance needs its own). A thread's copy adds its own base to each of
// them; the tables, read-only, stay where the loader writes them once. A module without the
// section (one with atomics, whose blocks meet through memory) runs on one thread only.

import { elemBytes, type Elem } from "../../ir/types.js";

type F = (...x: number[]) => number;

/** Bytes an element takes in linear memory (a bool one, as the JavaScript's Uint8Array holds it). */
export const wasmElemBytes = (e: Elem): number => (e === "bool" ? 1 : elemBytes(e));

/** Each import's JavaScript function and its WebAssembly signature (d: f64, i: i32). */
export const WASM_IMPORTS: Readonly<Record<string, { fn: F; sig: "d_d" | "dd_d" | "d_i" }>> = Object.freeze({
  cbrt: { fn: Math.cbrt, sig: "d_d" }, exp: { fn: Math.exp, sig: "d_d" }, expm1: { fn: Math.expm1, sig: "d_d" },
  log: { fn: Math.log, sig: "d_d" }, log2: { fn: Math.log2, sig: "d_d" }, log10: { fn: Math.log10, sig: "d_d" }, log1p: { fn: Math.log1p, sig: "d_d" },
  sin: { fn: Math.sin, sig: "d_d" }, cos: { fn: Math.cos, sig: "d_d" }, tan: { fn: Math.tan, sig: "d_d" },
  asin: { fn: Math.asin, sig: "d_d" }, acos: { fn: Math.acos, sig: "d_d" }, atan: { fn: Math.atan, sig: "d_d" },
  sinh: { fn: Math.sinh, sig: "d_d" }, cosh: { fn: Math.cosh, sig: "d_d" }, tanh: { fn: Math.tanh, sig: "d_d" },
  asinh: { fn: Math.asinh, sig: "d_d" }, acosh: { fn: Math.acosh, sig: "d_d" }, atanh: { fn: Math.atanh, sig: "d_d" },
  // Math.round rounds halves up (WebAssembly's nearest rounds them to even).
  round: { fn: Math.round, sig: "d_d" },
  pow: { fn: Math.pow, sig: "dd_d" }, atan2: { fn: Math.atan2, sig: "dd_d" }, hypot: { fn: (a: number, b: number) => Math.hypot(a, b), sig: "dd_d" },
  // JavaScript's % on numbers (C's fmod), which WebAssembly has not.
  fmod: { fn: (a: number, b: number) => a % b, sig: "dd_d" },
  // ToInt32 of a number outside ±2^63 or NaN (the module converts the others itself).
  toInt32: { fn: (x: number) => x | 0, sig: "d_i" },
});

/**
 * Imports a module of a kernel with barriers may have besides: the loader's own functions for it.
 * `divergent(location, tx, ty, tz, bx, by, bz)` throws the KernelError of a barrier reached under a
 * condition that differs between the threads of a block (the JS's `$divergent`).
 */
export const WASM_HOOKS = Object.freeze({ divergent: "iiiiiii_" as const });

/** The module's first section: whether it prefers to run (above). */
export const PREFER_SECTION = "gpuc.prefer";

/** The custom section of a module that may run on several threads at once (above). */
export const THREADS_SECTION = "gpuc.threads";

/** The name under which the JS text carries its kernel's module, base64 (a string constant; absent where there is none). */
export const WASM_CONSTANT = "$wasm";

/** The constant sanitized JavaScript carries its sites in (function.ts, SanSite), which the CPU device hands to its sanitizer. */
export const SAN_SITES = "$sanSites";
