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
 * Record an exception; the first one in a launch wins. The winner is whoever takes the claim word
 * first: one atomic add, where a compare-exchange on the code is a loop on targets whose
 * compare-exchange may fail spuriously (WGSL's is weak), and the loop was most of what the record
 * cost Dawn's pipeline creation (saxpy's 2.63 ms became 1.99: BENCHMARKS §m).
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

/**
 * gpuc_report_exception for WGSL: the same words stored by one store in a loop, not eight stores.
 * lavapipe (Mesa's software Vulkan, Dawn's driver here) compiles each store to a storage buffer
 * into a loop over the shader's lanes, and the record's stores were most of what it took to compile
 * a small kernel for its first launch (saxpy's shader cost Dawn and lavapipe 1.98× a hand-written
 * one's, 1.55× this way: BENCHMARKS §m, `npm run bench:driver`). The loop's bound is one the driver cannot see
 * through (`state.length`, the state buffer's, always more than 8 words: state.ts), so Mesa does
 * not unroll it back into eight stores; each word is chosen by the index (selects), not read from
 * a private array. The other targets keep the eight stores, which their compilers take as fast
 * (and PoCL's region former, which the record's shape reaches where it is inlined, is left as
 * tested: test/opencl-pocl.test.ts).
 */
function gpuc_report_exception_by_loop(state: Int32Array, code: i32, loc: i32, a: i32, b: i32): void {
  if (Atomics.add(state, CLAIM, 1) === 0) {
    // The words in the state's order: [CODE .. THREAD], then [BLOCK .. BLOCK + 2] (state.ts keeps them so).
    const thread = threadIdx.x | (threadIdx.y << 10) | (threadIdx.z << 20);   // packed (state.ts)
    for (let w = 0; w < Math.min(8, state.length); w++)
      state[w < 5 ? CODE + w : w + (BLOCK - 5)] =
        w === 0 ? code : w === 1 ? loc : w === 2 ? a : w === 3 ? b : w === 4 ? thread : w === 5 ? blockIdx.x : w === 6 ? blockIdx.y : blockIdx.z;
  }
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

/**
 * Built-in functions' bodies for some targets, where another form suits their drivers (same
 * signature, same effect). Keyed by the built-in function: a redefinition (another function in
 * the registry) is the body on every target. Their sources are the build's, as the built-in
 * functions' are (runtimeFingerprint says "built-in").
 */
const TARGET_BODIES: ReadonlyMap<Function, Readonly<Record<string, Function>>> = new Map([[gpuc_report_exception, { wgsl: gpuc_report_exception_by_loop }]]);

/** The body of a runtime function on a target: its own there, if a built-in one has one, else its function. */
export function bodyOn(r: RuntimeFunction, target: string): Function {
  return TARGET_BODIES.get(r.fn)?.[target] ?? r.fn;
}

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
