// The device runtime library (DESIGN §5): functions written in the kernel language, compiled
// per target like any helper (bounds checks off: they index the state themselves), linked into
// a module only when a kernel uses them.
//
// The kernel state is one i32 array per launch, passed to every function that uses it:
//
//   [0]        exception code (0: none; else 1 + index into the module's message table)
//   [1]        location id of the exception (-1: unknown)
//   [2], [3]   two i32 payload values (e.g. the index and the length of a bounds error)
//   [4..6]     threadIdx of the thread that raised it
//   [7..9]     blockIdx
//   [10]       number of call-chain frames recorded (debug level 2)
//   [11..26]   frame location ids, innermost first
//   [27]       print cursor (words used in the print area)
//   [28]       print records dropped because the area was full
//   [32..]     the print area: records of [format id, threadIdx x y z, blockIdx x y z, values…]

import { blockIdx, threadIdx } from "../intrinsics.js";
import type { UFunction } from "../frontend/uir.js";
import { lowerFunction, type Environment } from "../frontend/lower.js";
import { parseFunctionSource } from "../frontend/parse.js";
import type { MethodTable } from "../infer/methods.js";

export { STATE } from "./state.js";
import { STATE } from "./state.js";

type i32 = number;

/** Record an exception; the first one in a launch wins. */
function gpuc_report_exception(state: Int32Array, code: i32, loc: i32, a: i32, b: i32): void {
  if (Atomics.compareExchange(state, CODE, 0, code) === 0) {
    state[LOC] = loc;
    state[A] = a;
    state[B] = b;
    state[THREAD] = threadIdx.x;
    state[THREAD + 1] = threadIdx.y;
    state[THREAD + 2] = threadIdx.z;
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
const { CODE, LOC, A, B, THREAD, BLOCK, NFRAMES, FRAMES, MAX_FRAMES, PRINT_CURSOR, PRINT_DROPPED, PRINT_BASE, PRINT_HEADER } = STATE;

export interface RuntimeFunction {
  name: string;
  /** Declared signature; the compiled function must match it exactly. */
  params: string[];
  returns: string;
  fn: Function;
}

export const RUNTIME: ReadonlyMap<string, RuntimeFunction> = new Map([
  ["gpuc_report_exception", { name: "gpuc_report_exception", params: ["i32[]", "i32", "i32", "i32", "i32"], returns: "void", fn: gpuc_report_exception }],
  ["gpuc_report_exception_frame", { name: "gpuc_report_exception_frame", params: ["i32[]", "i32"], returns: "void", fn: gpuc_report_exception_frame }],
  ["gpuc_print_reserve", { name: "gpuc_print_reserve", params: ["i32[]", "i32", "i32"], returns: "i32", fn: gpuc_print_reserve }],
]);

const lowered = new Map<string, UFunction>();

/** The runtime function lowered to untyped IR (once per process; the method table is the global one). */
export function runtimeFunction(name: string, methods: MethodTable): UFunction {
  let u = lowered.get(name);
  if (!u) {
    const r = RUNTIME.get(name);
    if (!r) throw new Error(`unknown runtime function '${name}'`);
    const constants = STATE as Record<string, number>;
    const env: Environment = {
      globals: methods,
      lookup: (n) => (n in constants ? { k: "num", value: constants[n] } : undefined),
    };
    const parsed = parseFunctionSource(r.fn, name);
    u = lowerFunction(parsed.node, name, parsed.source, env);
    lowered.set(name, u);
  }
  return u;
}
