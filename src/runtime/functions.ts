// The device runtime library's functions, in the kernel language (state.ts: the kernel state they
// work on; infer/runtime.ts: how they are linked). Data, not compiler: cache entries record their
// fingerprint (library-fingerprint.ts), so code made with another library is never revived.

import { blockIdx, threadIdx } from "../intrinsics.js";
import { STATE } from "./state.js";
import { sha256 } from "../sha256.js";
import { advanceWorld } from "../registry.js";
import { fingerprintRuntimeWith } from "./library-fingerprint.js";

type i32 = number;

/**
 * Record an exception; the first one in a launch wins: whoever takes the claim word first (one
 * atomic add; a compare-exchange on the code was a loop where it may fail spuriously, and most of
 * the record's cost on WGSL: BENCHMARKS §m). WGSL code never calls it: its back end writes the
 * same words, claimed the same way, itself (targets/wgsl/emit.ts, RECORD).
 */
function gpuc_report_exception(state: Int32Array, code: i32, loc: i32, a: i32, b: i32): void {
  if (Atomics.add(state, CLAIM, 1) === 0) {
    state[CODE] = code;
    state[LOC] = loc;
    state[A] = a;
    state[B] = b;
    state[THREAD] = threadIdx.x | (threadIdx.y << 10) | (threadIdx.z << 20);   // packed (state.ts)
    state[BLOCK] = blockIdx.x;
    state[BLOCK + 1] = blockIdx.y;
    state[BLOCK + 2] = blockIdx.z;
  }
}

/** Add a caller's call site to the recorded exception's call chain (debug level 2). */
function gpuc_report_exception_frame(state: Int32Array, loc: i32): void {
  const n = state[NFRAMES];
  if (n < MAX_FRAMES) {
    state[FRAMES + n] = loc;
    state[NFRAMES] = n + 1;
  }
}

/** Reserve a print record of `words` values; returns where the values go, or -1 when the area is full. */
function gpuc_print_reserve(state: Int32Array, format: i32, words: i32): i32 {
  const size = words + PRINT_HEADER;
  const at = PRINT_BASE + Atomics.add(state, PRINT_CURSOR, size);
  if (at + size > state.length) {
    Atomics.add(state, PRINT_DROPPED, 1);
    return -1;
  }
  state[at] = format;
  state[at + 1] = threadIdx.x;
  state[at + 2] = threadIdx.y;
  state[at + 3] = threadIdx.z;
  state[at + 4] = blockIdx.x;
  state[at + 5] = blockIdx.y;
  state[at + 6] = blockIdx.z;
  return at + PRINT_HEADER;
}

// The state layout, as the constants the runtime functions name.
const { CODE, CLAIM, LOC, A, B, THREAD, BLOCK, NFRAMES, FRAMES, MAX_FRAMES, PRINT_CURSOR, PRINT_DROPPED, PRINT_BASE, PRINT_HEADER } = STATE;

interface RuntimeFunction {
  name: string;
  /** Declared signature; the compiled function must match it exactly. */
  params: string[];
  returns: string;
  fn: Function;
}

/** The registry: redefining a function in it advances the world, so code linked with the old one recompiles on its next launch. */
class RuntimeRegistry extends Map<string, RuntimeFunction> {
  override set(name: string, f: RuntimeFunction): this {
    const redefined = this.has(name) && this.get(name) !== f;
    super.set(name, f);
    if (redefined) advanceWorld(`runtime:${name}`);
    return this;
  }
}

const BUILT_IN: readonly [string, RuntimeFunction][] = [
  ["gpuc_report_exception", { name: "gpuc_report_exception", params: ["i32[]", "i32", "i32", "i32", "i32"], returns: "void", fn: gpuc_report_exception }],
  ["gpuc_report_exception_frame", { name: "gpuc_report_exception_frame", params: ["i32[]", "i32"], returns: "void", fn: gpuc_report_exception_frame }],
  ["gpuc_print_reserve", { name: "gpuc_print_reserve", params: ["i32[]", "i32", "i32"], returns: "i32", fn: gpuc_print_reserve }],
];
const builtIn = new Set(BUILT_IN.map(([, r]) => r.fn));

export const RUNTIME: ReadonlyMap<string, RuntimeFunction> = new RuntimeRegistry(BUILT_IN);

/**
 * A fingerprint of the runtime library as it is now (its functions' declarations, and the sources
 * of those redefined). gpuc's own functions are said by name: the owner's gpuc build already
 * names their sources, and their text changes in a minified bundle of gpuc.
 */
export function runtimeFingerprint(): string {
  return sha256(JSON.stringify([...RUNTIME.values()].map((r) => [r.name, r.params, r.returns, builtIn.has(r.fn) ? "built-in" : r.fn.toString()])));
}
// What the specializer records and checks from now on (library-fingerprint.ts: the built-in
// library's, a constant, until this module loads).
fingerprintRuntimeWith(runtimeFingerprint);
