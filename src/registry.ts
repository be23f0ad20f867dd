// What user code defines for kernels, and when: overlays per target, device functions,
// generated functions, and the world counter. Plain data, loaded with gpuc's entry point; the
// method tables that consult it belong to inference (infer/overlays.ts), loaded only to compile.
//
// Every definition that can change compiled code advances `world`; compiled code records the
// world it saw and the overlaid names it used, and is recompiled only when one of those changed.

/** target ("*" = all) → name → kernel-language implementation. */
export const userOverlays = new Map<string, Map<string, Function>>();
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
  /** The scalar type, or the element type of an array (narrow integers: "i8", "u8", "u8c", "i16", "u16"). */
  readonly elem: "bool" | "i32" | "u32" | "f32" | "f64" | "i8" | "u8" | "u8c" | "i16" | "u16";
  /** Constant length of private and shared arrays, else null. */
  readonly length: number | null;
}

/**
 * A generated function: `gen` runs at compile time with the argument types of a call and
 * returns the function (in the kernel language) specialized for them, or `{ fn, scope }` when
 * that function names helpers or constants (its scope).
 */
export function generated<G extends (...types: ArgType[]) => Function | { fn: Function; scope?: Record<string, unknown> }>(gen: G, name = gen.name || "generated"): Function {
  const stub = hostStub(name);
  Object.defineProperty(stub, GENERATED, { value: { gen, name } });
  return stub;
}
