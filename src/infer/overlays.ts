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
import { MethodTable, createGlobalMethodTable, type Method } from "./methods.js";

export const globalMethods: MethodTable = createGlobalMethodTable();

/** target ("*" = all) → name → kernel-language implementation. */
const userOverlays = new Map<string, Map<string, Function>>();
const changes: { world: number; name: string }[] = [];
let world = 1;

/** The current world: advanced by every overlay (and detected scope change). */
export function currentWorld(): number { return world; }

export function advanceWorld(name: string): void {
  world++;
  changes.push({ world, name });
}

/** Names redefined after `since` (the world a compilation saw). */
export function changedSince(since: number): Set<string> {
  const out = new Set<string>();
  for (let i = changes.length - 1; i >= 0 && changes[i].world > since; i--) out.add(changes[i].name);
  return out;
}

export function addOverlay(target: string, name: string, impl: Function): void {
  if (typeof impl !== "function") throw new TypeError(`overlay '${name}': the implementation must be a function`);
  let m = userOverlays.get(target);
  if (!m) { m = new Map(); userOverlays.set(target, m); }
  m.set(name, impl);
  advanceWorld(name);
}

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

// ---- device functions and generated functions ---------------------------------------------

export const DEVICE_FUNCTION = Symbol.for("gpuc.deviceFunction");
export const GENERATED = Symbol.for("gpuc.generated");

/** A host stub: device functions exist only inside kernels. */
function hostStub(name: string): Function {
  const stub = function (): never {
    throw new Error(`'${name}' is only callable inside a kernel`);
  };
  Object.defineProperty(stub, "name", { value: name });
  return stub;
}

/**
 * Define a device function: `impl` (one function for every target, or one per target name) in
 * the kernel language. Kernels call it by name or through the returned stub in `scope`; on the
 * host the stub throws "'name' is only callable inside a kernel".
 */
export function deviceFunction<F extends Function>(name: string, impl: F | Record<string, Function>): F {
  if (typeof impl === "function") addOverlay("*", name, impl);
  else for (const [target, f] of Object.entries(impl)) addOverlay(target, name, f);
  const stub = hostStub(name) as unknown as F;
  Object.defineProperty(stub, DEVICE_FUNCTION, { value: name });
  return stub;
}

/** The type of an argument, as a generator sees it. */
export interface ArgType {
  /** "f32", "i32[]", "f32[256] shared", … */
  readonly name: string;
  readonly kind: "scalar" | "array";
  /** The scalar type, or the element type of an array. */
  readonly elem: "bool" | "i32" | "u32" | "f32" | "f64";
  /** Constant length of private and shared arrays, else null. */
  readonly length: number | null;
}

/**
 * A generated function: `gen` runs at compile time with the argument types of a call and
 * returns the function (in the kernel language) specialized for them.
 */
export function generated<G extends (...types: ArgType[]) => Function>(gen: G, name = gen.name || "generated"): Function {
  const stub = hostStub(name);
  Object.defineProperty(stub, GENERATED, { value: { gen, name } });
  return stub;
}
