// Objects as kernel arguments. An object of numbers (`{ alpha: 0.5 }`, CUDA's struct passed by
// value) is its leaves, one scalar parameter each, read-only in the kernel. A plain JavaScript
// Array of objects of one shape, whose fields are numbers (`[{ x: 1, y: 2.5 }, …]`, CUDA's
// `float2 *d_Call`), is one array per field (structure of arrays: `a[i].x` reads the x array;
// ARCHITECTURE.md, "Arrays of objects"); a launch copies the fields into those arrays, and back
// into the objects when it is done, as the kernel run as plain JavaScript would have left them.
// Loaded with kernel.ts (a launch types its arguments with it): light.

import { DeviceArray, type Device } from "./devices/device.js";
import { KernelError } from "./errors.js";
import { parseTypeName, structsLeaves, type StructsType } from "./ir/types.js";

type FieldElem = "i32" | "u32" | "f32" | "f64";
type FieldArray = Int32Array | Uint32Array | Float32Array | Float64Array;
const CTOR: Record<FieldElem, new (n: number) => FieldArray> = { i32: Int32Array, u32: Uint32Array, f32: Float32Array, f64: Float64Array };
const ELEM = new Map<unknown, FieldElem>(Object.entries(CTOR).map(([e, c]) => [c, e as FieldElem]));
const FIELDS = Symbol("gpuc.structArrayFields");

/** A struct array's fields (its typed arrays by name; a device struct array's device arrays), or null for any other value. */
function structArrayFields(a: unknown): Record<string, FieldArray> | null {
  return typeof a === "object" && a !== null ? ((a as { [FIELDS]?: Record<string, FieldArray> })[FIELDS] ?? null) : null;
}

/** A struct array whose fields live on a device (`deviceStructArray`): a kernel argument like the struct array, kept there between launches. */
export interface DeviceStructArray<T extends Record<string, number>> {
  readonly length: number;
  /** Each field's device array. */
  readonly fields: { readonly [K in keyof T]: DeviceArray };
  /** The fields copied back into a new struct array. */
  read(): Promise<StructArray<T>>;
}

/**
 * A struct array copied to a device (one device array per field), for data that stays there
 * across launches as `dev.array(typedArray)` does for a typed array; `read()` brings it back.
 */
export function deviceStructArray<T extends Record<string, number>>(dev: Device, a: StructArray<T>): DeviceStructArray<T> {
  const host = structArrayFields(a);
  if (!host) throw new TypeError("deviceStructArray: give it a struct array (structArray({ x: Float32Array, … }, n))");
  const fields: Record<string, DeviceArray> = {};
  for (const n of Object.keys(host)) fields[n] = dev.array(host[n]);
  const length = a.length;
  return {
    length, fields: fields as DeviceStructArray<T>["fields"], [FIELDS]: fields,
    async read() {
      const types = Object.fromEntries(Object.keys(host).map((n) => [n, host[n].constructor as new (n: number) => FieldArray]));
      const out = structArray(types, length) as unknown as StructArray<T>;
      for (const n of Object.keys(fields)) (out.fields as Record<string, FieldArray>)[n].set(await fields[n].read() as FieldArray);
      return out;
    },
  } as DeviceStructArray<T>;
}

/**
 * An array of `length` objects whose fields have the given types (`structArray({ x: Float32Array,
 * y: Float32Array }, n)`: CUDA's `float2 *`), kept as one typed array per field in one
 * ArrayBuffer. It reads as objects in JavaScript — `a[i].x`, `a[i].x = v`, `a[i] = { x, y }`,
 * `a.length` — so a kernel run as plain JavaScript uses it as it is; a launch passes its fields'
 * arrays to the device as they are (nothing is copied into objects), and `a.fields.x` is the x
 * array itself. Field types: Float32Array, Float64Array, Int32Array, Uint32Array.
 */
export function structArray<F extends Record<string, new (n: number) => FieldArray>>(types: F, length: number): StructArray<{ [K in keyof F]: number }> {
  const names = Object.keys(types);
  if (!names.length || !names.every((n) => NAME.test(n) && ELEM.has(types[n]))) throw new TypeError("structArray: give each field a name and one of Float32Array, Float64Array, Int32Array, Uint32Array");
  if (!Number.isInteger(length) || length < 1) throw new TypeError(`structArray: the length must be a positive integer, got ${length}`);
  // Fields in one buffer, 8-byte fields first (each array aligned to its element size).
  const order = [...names].sort((a, b) => new types[b](0).BYTES_PER_ELEMENT - new types[a](0).BYTES_PER_ELEMENT);
  const bytes = order.reduce((s, n) => s + new types[n](0).BYTES_PER_ELEMENT * length, 0);
  const buffer = new ArrayBuffer(bytes);
  const fields: Record<string, FieldArray> = {};
  let at = 0;
  for (const n of order) {
    const C = types[n] as unknown as { new (b: ArrayBuffer, o: number, l: number): FieldArray; BYTES_PER_ELEMENT: number };
    fields[n] = new C(buffer, at, length);
    at += C.BYTES_PER_ELEMENT * length;
  }
  const row = (i: number): Record<string, number> => {
    const o = {};
    for (const n of names) Object.defineProperty(o, n, { enumerable: true, get: () => fields[n][i], set: (v: number) => { fields[n][i] = v; } });
    return o as Record<string, number>;
  };
  const target = { length, fields, [FIELDS]: fields };
  return new Proxy(target, {
    get(t, k) {
      if (typeof k === "string" && /^(0|[1-9]\d*)$/.test(k)) return Number(k) < length ? row(Number(k)) : undefined;
      return (t as Record<string | symbol, unknown>)[k];
    },
    set(_t, k, v) {
      if (typeof k !== "string" || !/^(0|[1-9]\d*)$/.test(k) || Number(k) >= length) return false;
      for (const n of names) fields[n][Number(k)] = (v as Record<string, number>)[n];
      return true;
    },
  }) as unknown as StructArray<{ [K in keyof F]: number }>;
}

/** What structArray makes: indexable objects over one typed array per field. */
export interface StructArray<T extends Record<string, number>> {
  readonly length: number;
  /** Each field's typed array (the memory itself). */
  readonly fields: { readonly [K in keyof T]: FieldArray };
  [index: number]: T;
}

const NAME = /^[A-Za-z_$][\w$]*$/;

/** The type of a number argument (or field of an object argument): i32 where it is one, else f32. */
export function numberTypeName(a: number): "i32" | "f32" {
  return (a | 0) === a && !Object.is(a, -0) ? "i32" : "f32";
}

/**
 * The type name of an argument that is an object of numbers, booleans and such objects
 * (`{ alpha: f32, dim: { n: i32 } }`: each number typed as a number argument is), or null for
 * any other value.
 */
export function objectTypeName(a: unknown, depth = 0): string | null {
  try {
    if (!plainObject(a) || depth > 8) return null;
    const names = Object.keys(a).sort();
    if (!names.length || names.length > 64 || !names.every((f) => NAME.test(f))) return null;
    const parts: string[] = [];
    for (const f of names) {
      const v = (a as Record<string, unknown>)[f];
      const t = typeof v === "number" ? numberTypeName(v) : typeof v === "boolean" ? "bool" : objectTypeName(v, depth + 1);
      if (!t) return null;
      parts.push(`${f}: ${t}`);
    }
    return `{ ${parts.join(", ")} }`;
  } catch { return null; }   // (a Proxy whose traps throw)
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
 * The type name of an argument that is an array of objects (`{ x: f64, y: f64 }[]`), or null for
 * any other value: a struct array (its fields' typed arrays give their types), or a plain Array of
 * objects of one shape whose fields are numbers — f64 each, JavaScript's numbers, whatever the
 * kernel stores into them (an integer field is i32 only in a struct array that says so) — objects
 * of such fields, and Arrays of numbers or of such objects, each the same length in every object
 * (`{ nei: { number: f64 }[26], nn: f64 }[]`: CUDA's `nei_str nei[26]` inside a struct).
 */
export function structsTypeName(a: unknown): string | null {
  try {
    const typed = structArrayFields(a);
    if (typed) {
      const elem = (x: unknown): FieldElem => (x instanceof DeviceArray ? (x.elem as FieldElem) : ELEM.get((x as object).constructor)!);
      return `{ ${Object.keys(typed).sort().map((f) => `${f}: ${elem(typed[f])}`).join(", ")} }[]`;
    }
    if (!Array.isArray(a) || a.length === 0) return null;
    const shape = objectShape(a[0], 0);
    return shape && a.every((o) => sameShape(o, a[0])) ? `${shape}[]` : null;
  } catch { return null; }   // (a Proxy whose traps throw)
}

/** The type name of one object of a plain Array of objects (`{ n: f64, v: f64[3] }`), or null where it has another field. */
function objectShape(o: unknown, depth: number): string | null {
  if (!plainObject(o) || depth > 8) return null;
  const names = Object.keys(o).sort();
  if (!names.length || names.length > 64 || !names.every((f) => NAME.test(f))) return null;
  const parts: string[] = [];
  for (const f of names) {
    const v = (o as Record<string, unknown>)[f];
    let t: string | null = null;
    if (typeof v === "number") t = "f64";
    else if (Array.isArray(v)) {
      if (v.length === 0 || v.length > 1 << 20) return null;
      if (typeof v[0] === "number") t = v.every((x) => typeof x === "number") ? `f64[${v.length}]` : null;
      else { const inner = objectShape(v[0], depth + 1); t = inner && v.every((x) => sameShape(x, v[0])) ? `${inner}[${v.length}]` : null; }
    } else t = objectShape(v, depth + 1);
    if (!t) return null;
    parts.push(`${f}: ${t}`);
  }
  return `{ ${parts.join(", ")} }`;
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
    if (typeof b === "number") { if (typeof a !== "number") return false; continue; }
    if (Array.isArray(b)) {
      if (!Array.isArray(a) || a.length !== b.length) return false;
      if (typeof b[0] === "number") { for (const e of a) if (typeof e !== "number") return false; }
      else for (const e of a) if (!sameShape(e, b[0])) return false;
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
function visitLeaf(o: unknown, keys: readonly string[], k: number, arr: Float64Array, at: number, back: boolean): number {
  if (Array.isArray(o)) { for (const x of o) at = visitLeaf(x, keys, k, arr, at, back); return at; }
  const rec = o as Record<string, unknown>;
  if (k < keys.length - 1) return visitLeaf(rec[keys[k]], keys, k + 1, arr, at, back);
  const v = rec[keys[k]];
  if (Array.isArray(v)) { for (let j = 0; j < v.length; j++) { if (back) v[j] = arr[at]; else arr[at] = v[j] as number; at++; } return at; }
  if (back) rec[keys[k]] = arr[at]; else arr[at] = v as number;
  return at + 1;
}

function plainObject(o: unknown): o is object {
  if (typeof o !== "object" || o === null || Array.isArray(o) || ArrayBuffer.isView(o)) return false;
  const p = Object.getPrototypeOf(o);
  return p === Object.prototype || p === null;
}

/**
 * A launch's arguments with each object replaced by its leaves and each Array of objects (their
 * type names among `types`) by its fields' arrays, and what copies the fields back into the
 * objects of the Arrays once the launch is done.
 */
export function expandObjects(args: unknown[], types: readonly string[], dev: Device): { args: unknown[]; writeBack: () => void } {
  const out: unknown[] = [];
  const backs: (() => void)[] = [];
  args.forEach((a, i) => {
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
      const arr = new Float64Array(objs.length * l.per);
      const keys = l.path.split(".");
      for (let k = 0; k < objs.length; k++) visitLeaf(objs[k], keys, 0, arr, k * l.per, false);
      return arr;
    });
    out.push(...arrays);
    backs.push(() => leaves.forEach((l, j) => {
      const keys = l.path.split(".");
      for (let k = 0; k < objs.length; k++) visitLeaf(objs[k], keys, 0, arrays[j], k * l.per, true);
    }));
  });
  return { args: out, writeBack: () => { for (const b of backs) b(); } };
}
