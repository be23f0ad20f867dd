// The environment a kernel's free names resolve in: its `scope` object (helpers, constants,
// constant tables, device functions, generated functions), then the method table.

import { hostArrayElement, tableOf, describeValue } from "../typed-arrays.js";
import { DEVICE_FUNCTION, GENERATED } from "../registry.js";
import { intrinsicsByValue } from "../intrinsics.js";
import { applyOriginalAnnotations } from "./annotations.js";
import { lowerFunction, type Environment, type GlobalNames, type ScopeBinding } from "./lower.js";
import { parseFunctionSource } from "./parse.js";
import type { UFunction, UTable } from "./uir.js";

interface ScopeOptions {
  /** The global names (the method table and the overlays): inference's, given by the caller (the front end sits below it). */
  globals: GlobalNames;
  /** The file kernel() was called from (whether annotations a transpiler stripped are worth looking for). */
  callerFile?: string | null;
  /** Records every scope name looked up and the value it had (to notice redefinitions). */
  deps?: Map<string, unknown>;
  /** Scope tables the host may rewrite between launches (the kernel's `rewritable` option). */
  rewritable?: ReadonlySet<string>;
}

/** gpuc's intrinsics by value (intrinsics.ts: their host stand-ins), with their names. */
const INTRINSICS = intrinsicsByValue();

export function scopeEnvironment(scope: Record<string, unknown> | undefined, opts: ScopeOptions): Environment {
  const helpers = new Map<Function, UFunction>();
  const tables = new Map<unknown, UTable>();
  const env: Environment = {
    globals: opts.globals,
    lookup(name: string): ScopeBinding | undefined {
      if (!scope || !Object.prototype.hasOwnProperty.call(scope, name)) return undefined;
      const v = scope[name];
      opts.deps?.set(name, v);
      // gpuc's threadIdx, syncthreads, atomicMin, … passed through scope: the builtins themselves.
      const builtin = INTRINSICS.get(v);
      if (builtin === name) return undefined;
      if (typeof builtin === "string") return { k: "invalid", what: `gpuc's '${builtin}' under another name; use it as '${builtin}'` };
      if (typeof v === "number") return { k: "num", value: v };
      if (typeof v === "boolean") return { k: "bool", value: v };
      if (typeof v === "function") {
        const fn = v as Function & { [DEVICE_FUNCTION]?: string; [GENERATED]?: { gen: Function; name: string } };
        if (fn[DEVICE_FUNCTION]) return { k: "intrinsic", name: fn[DEVICE_FUNCTION] };
        if (fn[GENERATED]) return { k: "generated", gen: fn[GENERATED].gen, name: fn[GENERATED].name };
        return { k: "function", get: () => helper(fn, name) };
      }
      const table = tableOf(v);
      if (table && !("problem" in table)) {
        let t = tables.get(v);
        if (!t) { t = { name, value: table.flat, ...(table.dims ? { dims: table.dims } : {}), ...(opts.rewritable?.has(name) ? { rewritable: true } : {}) }; tables.set(v, t); }
        return { k: "table", table: t };
      }
      if (table) return { k: "invalid", what: table.problem };
      if (hostArrayElement(v)) return { k: "invalid", what: `a ${describeValue(v)} (constant tables from scope are Float32Array, Float64Array, Int32Array or Uint32Array; pass narrow arrays as kernel arguments)` };
      return { k: "invalid", what: v === null ? "null" : v === undefined ? "undefined" : typeof v === "object" ? `an object (${describeValue(v)})` : `a ${typeof v}` };
    },
  };
  const helper = (fn: Function, name: string): UFunction => {
    let u = helpers.get(fn);
    if (!u) {
      const parsed = parseFunctionSource(fn, fn.name || name);
      u = lowerFunction(parsed.node, fn.name || name, parsed.source, env);
      applyOriginalAnnotations(u, fn, opts.callerFile ?? null);
      helpers.set(fn, u);
    }
    return u;
  };
  return env;
}
