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

import type { UFunction } from "../frontend/uir.js";
import { lowerFunction, type Environment } from "../frontend/lower.js";
import { parseFunctionSource } from "../frontend/parse.js";
import type { MethodTable } from "../infer/methods.js";

export { STATE } from "./state.js";
import { STATE } from "./state.js";

import { RUNTIME } from "./functions.js";
export { RUNTIME, type RuntimeFunction } from "./functions.js";

/** Lowered once per function object (a redefined runtime function is lowered anew). */
const lowered = new WeakMap<Function, UFunction>();

/** The runtime function lowered to untyped IR (once per process; the method table is the global one). */
export function runtimeFunction(name: string, methods: MethodTable): UFunction {
  const r = RUNTIME.get(name);
  if (!r) throw new Error(`unknown runtime function '${name}'`);
  let u = lowered.get(r.fn);
  if (!u) {
    const constants = STATE as Record<string, number>;
    const env: Environment = {
      globals: methods,
      lookup: (n) => (n in constants ? { k: "num", value: constants[n] } : undefined),
    };
    const parsed = parseFunctionSource(r.fn, name);
    u = lowerFunction(parsed.node, name, parsed.source, env);
    lowered.set(r.fn, u);
  }
  return u;
}
