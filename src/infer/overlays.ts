// User overlays, device functions, generated functions, and the world counter.
//
// An overlay gives a global name (e.g. "Math.exp", or a new "rsqrt") an implementation written
// in the kernel language, for one target or for all ("*"). Resolution for a target: its user
// overlay, then the all-targets overlay, then the target's own overlay, then the global table.
// A kernel compiled for one target never sees another target's overlays.
//
// Every definition that can change compiled code advances `world`; compiled code records the
// world it saw and the overlaid names it used, and is recompiled only when one of those changed.

import type { GlobalNames } from "../frontend/lower.js";
import { userOverlays } from "../registry.js";
import { MethodTable, createGlobalMethodTable, type Method } from "./methods.js";

export { advanceWorld, changedSince, currentWorld, addOverlay, deviceFunction, generated, DEVICE_FUNCTION, GENERATED, type ArgType } from "../registry.js";

export const globalMethods: MethodTable = createGlobalMethodTable();

/** A method that calls a kernel-language implementation like a helper. */
function implementationMethod(impl: Function): Method {
  return (b, args, span, name) => b.callImplementation(impl, args, span, name);
}

/** The method table of a target: user overlays over the target's overlay over the global table. */
class TargetMethodTable extends MethodTable {
  constructor(private readonly target: string, base: MethodTable) { super(base); }
  override method(path: string): Method | undefined {
    const impl = userOverlays.get(this.target)?.get(path) ?? userOverlays.get("*")?.get(path);
    return impl ? implementationMethod(impl) : super.method(path);
  }
}

const tables = new Map<string, MethodTable>();
export function methodTableFor(target: string, targetOverlay: MethodTable | null): MethodTable {
  let t = tables.get(target);
  if (!t) { t = new TargetMethodTable(target, targetOverlay ?? globalMethods); tables.set(target, t); }
  return t;
}

/**
 * What the front end may resolve: the global table and every overlay of any target (whether a
 * name exists for the target being compiled is checked at inference).
 */
export const allNames: GlobalNames = {
  isFunction(path: string): boolean {
    if (globalMethods.isFunction(path)) return true;
    for (const m of userOverlays.values()) if (m.has(path)) return true;
    return false;
  },
  value: (path) => globalMethods.value(path),
  isNamespace(name: string): boolean {
    if (globalMethods.isNamespace(name)) return true;
    for (const m of userOverlays.values()) for (const k of m.keys()) if (k.startsWith(name + ".")) return true;
    return false;
  },
};

