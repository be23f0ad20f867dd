// Plain objects and Arrays of objects as kernel arguments. An object of numbers (`{ alpha: 0.5 }`,
// CUDA's struct passed by value) is its leaves, one scalar parameter each, read-only in the
// kernel. A plain JavaScript Array of objects of one shape (`[{ x: 1, y: 2.5 }, …]`, CUDA's
// `float2 *d_Call`; its objects may hold objects and fixed-length Arrays) is one array per leaf
// (structure of arrays: `a[i].x` reads the x array; ARCHITECTURE.md, "Arrays of objects"); a
// launch copies the leaves into those arrays, and back into the objects when it is done, as the
// kernel run as plain JavaScript would have left them. A struct array (struct-arrays.ts) is its
// fields' arrays as they are. kernel.ts loads this module on the first launch given an object
// (or an Array, or a struct array), so that a page's start does not pay for it.

import { DeviceArray, type Device } from "./devices/device.js";
import { KernelError } from "./errors.js";
import { parseTypeName, structsLeaves, type StructsType } from "./ir/types.js";
import { NAME, numberTypeName, structArrayFields } from "./struct-arrays.js";

/**
 * The type name of an argument that is an object of numbers, booleans and such objects
 * (`{ alpha: f32, dim: { n: i32 } }`: each number typed as a number argument is), or null for
 * any other value.
 */
export function objectTypeName(a: unknown): string | null {
  try { return objectShape(a, 0, false); }
  catch { return null; }   // (a Proxy whose traps throw)
}

/** An object argument's leaves in its type's order (fields sorted by name, depth first). */
function objectLeaves(o: Record<string, unknown>, out: unknown[]): void {
  for (const f of Object.keys(o).sort()) {
    const v = o[f];
    if (typeof v === "object" && v !== null) objectLeaves(v as Record<string, unknown>, out);
    else out.push(v);
  }
}

/**
 * The type name of an argument that is a plain Array of objects (`{ x: f64, y: f64 }[]`), or null
 * for any other value: objects of one shape whose fields are numbers — f64 each, JavaScript's
 * numbers, whatever the kernel stores into them (an integer field is i32 only in a struct array
 * that says so) — booleans (`bool`: the kernel stores only booleans there), objects of such
 * fields, and Arrays of numbers or of such objects, each the same length in every object
 * (`{ nei: { number: f64 }[26], nn: f64 }[]`: CUDA's `nei_str nei[26]` inside a struct).
 */
export function plainArrayTypeName(a: unknown): string | null {
  try {
    if (!Array.isArray(a)) return null;
    // An Array of numbers (holes are not numbers) is an f64 array: copied in, and back after the launch.
    if (all(a, (x) => typeof x === "number")) return "f64[]";
    if (a.length === 0) return null;
    const shape = objectShape(a[0], 0, true);
    return shape && all(a, (o) => sameShape(o, a[0])) ? `${shape}[]` : null;
  } catch { return null; }   // (a Proxy whose traps throw)
}

/**
 * The type name of an object: of one object of a plain Array of objects (`inArray`: numbers are
 * f64, fields may be fixed-length Arrays: `{ n: f64, v: f64[3] }`), or of an object argument
 * (numbers typed as number arguments are: `{ n: i32 }`); null where it has another field.
 */
function objectShape(o: unknown, depth: number, inArray: boolean): string | null {
  if (!plainObject(o) || depth > 8) return null;
  const names = Object.keys(o).sort();
  if (!names.length || names.length > 64 || !names.every((f) => NAME.test(f))) return null;
  const parts: string[] = [];
  for (const f of names) {
    const v = (o as Record<string, unknown>)[f];
    let t: string | null = null;
    if (typeof v === "number") t = inArray ? "f64" : numberTypeName(v);
    else if (typeof v === "boolean") t = "bool";
    else if (Array.isArray(v)) {
      if (!inArray || v.length === 0 || v.length > 1 << 20) return null;
      if (typeof v[0] === "number") t = all(v, (x) => typeof x === "number") ? `f64[${v.length}]` : null;
      else { const inner = objectShape(v[0], depth + 1, true); t = inner && all(v, (x) => sameShape(x, v[0])) ? `${inner}[${v.length}]` : null; }
    } else t = objectShape(v, depth + 1, inArray);
    if (!t) return null;
    parts.push(`${f}: ${t}`);
  }
  return `{ ${parts.join(", ")} }`;
}

/** Whether every element satisfies `p`, holes included (a hole is undefined: Array's `every` would skip it). */
function all(a: readonly unknown[], p: (x: unknown) => boolean): boolean {
  for (let i = 0; i < a.length; i++) if (!p(a[i])) return false;
  return true;
}

/** Whether an object has the shape of `ref`, one objectShape accepted: the same fields, kinds and Array lengths. */
function sameShape(o: unknown, ref: unknown): boolean {
  if (o === ref) return true;
  if (!plainObject(o)) return false;
  const r = ref as Record<string, unknown>, x = o as Record<string, unknown>;
  const names = Object.keys(r);
  if (Object.keys(x).length !== names.length) return false;
  for (const f of names) {
    const a = x[f], b = r[f];
    if (typeof b === "number" || typeof b === "boolean") { if (typeof a !== typeof b) return false; continue; }
    if (Array.isArray(b)) {
      if (!Array.isArray(a) || a.length !== b.length) return false;
      if (typeof b[0] === "number") { if (!all(a, (e) => typeof e === "number")) return false; }
      else if (!all(a, (e) => sameShape(e, b[0]))) return false;
      continue;
    }
    if (!sameShape(a, b)) return false;
  }
  return true;
}

/**
 * The numbers at one leaf path of an object (through its fields and every element of the Arrays
 * on the way, in order), copied into `arr` from `at` — or, `back`, from `arr` into the object.
 * Returns where the next object's start.
 */
function visitLeaf(o: unknown, keys: readonly string[], k: number, arr: Float64Array | Uint8Array, at: number, back: boolean): number {
  if (Array.isArray(o)) { for (const x of o) at = visitLeaf(x, keys, k, arr, at, back); return at; }
  const rec = o as Record<string, unknown>;
  if (k < keys.length - 1) return visitLeaf(rec[keys[k]], keys, k + 1, arr, at, back);
  const v = rec[keys[k]];
  if (Array.isArray(v)) { for (let j = 0; j < v.length; j++) { if (back) v[j] = arr[at]; else arr[at] = v[j] as number; at++; } return at; }
  if (back) rec[keys[k]] = arr instanceof Uint8Array ? arr[at] !== 0 : arr[at];
  else arr[at] = v as number;
  return at + 1;
}

function plainObject(o: unknown): o is object {
  if (typeof o !== "object" || o === null || Array.isArray(o) || ArrayBuffer.isView(o)) return false;
  const p = Object.getPrototypeOf(o);
  return p === Object.prototype || p === null;
}

/**
 * A launch's arguments with each object replaced by its leaves, each Array of objects (their
 * type names among `types`) by its fields' arrays and each Array of numbers by a Float64Array,
 * and what copies them back into the Arrays once the launch is done.
 */
export function expandObjects(args: unknown[], types: readonly string[], dev: Device): { args: unknown[]; writeBack: () => void } {
  const out: unknown[] = [];
  const backs: (() => void)[] = [];
  // An Array passed twice is one array (or one set of leaf arrays) in the kernel, as it is one
  // object in JavaScript: its copies are made once and copied back once.
  const copies = new Map<unknown, unknown[]>();
  args.forEach((a, i) => {
    const seen = Array.isArray(a) ? copies.get(a) : undefined;
    if (seen) { out.push(...seen); return; }
    if (Array.isArray(a) && types[i] === "f64[]") {
      // A plain Array of numbers: its numbers, copied back after the launch.
      const arr = Float64Array.from(a as number[]);
      out.push(arr);
      copies.set(a, [arr]);
      backs.push(() => { for (let k = 0; k < arr.length; k++) (a as number[])[k] = arr[k]; });
      return;
    }
    if (!types[i].startsWith("{")) { out.push(a); return; }
    if (!types[i].endsWith("[]")) { objectLeaves(a as Record<string, unknown>, out); return; }
    // A struct array is its fields' arrays already.
    const typed = structArrayFields(a);
    if (typed) {
      for (const f of Object.keys(typed).sort()) {
        const x: unknown = typed[f];
        if (x instanceof DeviceArray && x.device !== dev) throw new KernelError("launch", `a device struct array of another device (${x.device.kind}) was passed to a launch on ${dev.kind}: copy it (deviceStructArray(dev, await array.read()))`);
        out.push(x);
      }
      return;
    }
    // (A plain Array's leaves, f64 each, as its type name gives them: typing read them this launch.)
    const objs = a as Record<string, unknown>[];
    const leaves = structsLeaves((parseTypeName(types[i]) as StructsType).of);
    const arrays = leaves.map((l) => {
      // (A boolean field's leaf is a Uint8Array of 0s and 1s.)
      const arr = l.elem === "u8" ? new Uint8Array(objs.length * l.per) : new Float64Array(objs.length * l.per);
      const keys = l.path.split(".");
      for (let k = 0; k < objs.length; k++) visitLeaf(objs[k], keys, 0, arr, k * l.per, false);
      return arr;
    });
    out.push(...arrays);
    copies.set(a, arrays);
    backs.push(() => leaves.forEach((l, j) => {
      const keys = l.path.split(".");
      for (let k = 0; k < objs.length; k++) visitLeaf(objs[k], keys, 0, arrays[j], k * l.per, true);
    }));
  });
  return { args: out, writeBack: () => { for (const b of backs) b(); } };
}
