// Linking the device runtime library (ARCHITECTURE.md, "The kernel state and the runtime library"):
// its functions (runtime/functions.ts, written in the kernel language) are compiled per target like
// any helper (bounds checks off: they index the kernel state, runtime/state.ts, themselves) and
// linked into a module only when a kernel uses them. The runtime folder is data; this is the
// compiler's side of it.

import { InternalCompilerError } from "../errors.js";
import type { UFunction } from "../frontend/uir.js";
import { lowerFunction, type Environment } from "../frontend/lower.js";
import { parseFunctionSource } from "../frontend/parse.js";
import { RUNTIME } from "../runtime/functions.js";
import { STATE } from "../runtime/state.js";
import type { MethodTable } from "./methods.js";

/** Lowered once per function object (a redefined runtime function is lowered anew). */
const lowered = new WeakMap<Function, UFunction>();

/**
 * The runtime function lowered to untyped IR (once per process; the method table is the global
 * one), under its name.
 */
export function runtimeFunction(name: string, methods: MethodTable): UFunction {
  const r = RUNTIME.get(name);
  if (!r) throw new InternalCompilerError(`unknown runtime function '${name}'`);
  const fn = r.fn;
  let u = lowered.get(fn);
  if (!u) {
    const constants = STATE as Record<string, number>;
    const env: Environment = {
      globals: methods,
      lookup: (n) => (n in constants ? { k: "num", value: constants[n] } : undefined),
    };
    const parsed = parseFunctionSource(fn, name);
    u = lowerFunction(parsed.node, name, parsed.source, env);
    lowered.set(fn, u);
  }
  return u;
}
