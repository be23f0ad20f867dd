// Arrays of objects as kernel arguments: a plain JavaScript Array of objects of one shape, whose
// fields are numbers (`[{ x: 1, y: 2.5 }, …]`, CUDA's `float2 *d_Call`). The kernel sees it as
// one array per field (structure of arrays: `a[i].x` reads the x array; ARCHITECTURE.md, "Arrays
// of objects"); a launch copies the fields into those arrays, and back into the objects when it
// is done, as the kernel run as plain JavaScript would have left them. Loaded with kernel.ts (a
// launch types its arguments with it): light.

import { DeviceArray, type Device } from "./devices/device.js";
import { KernelError } from "./errors.js";
import { parseTypeName, type StructsType } from "./ir/types.js";

/** The fields of an array of objects (sorted by name, as the object type's) and each one's element type. */
export interface StructsShape { readonly fields: readonly string[]; readonly elems: readonly FieldElem[] }

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

/**
 * The type name of an argument that is an array of objects (`{ x: f64, y: f64 }[]`), or null for
 * any other value: a struct array (its fields' typed arrays give their types), or a plain Array of
 * objects of one shape whose fields are numbers — f64 each, JavaScript's numbers, whatever the
 * kernel stores into them (an integer field is i32 only in a struct array that says so).
 */
export function structsTypeName(a: unknown): string | null {
  const s = structsShape(a);
  return s ? `{ ${s.fields.map((f, j) => `${f}: ${s.elems[j]}`).join(", ")} }[]` : null;
}

export function structsShape(a: unknown): StructsShape | null {
  try {
    const typed = structArrayFields(a);
    if (typed) {
      const fields = Object.keys(typed).sort();
      const elem = (x: unknown): FieldElem => (x instanceof DeviceArray ? (x.elem as FieldElem) : ELEM.get((x as object).constructor)!);
      return { fields, elems: fields.map((f) => elem(typed[f])) };
    }
    if (!Array.isArray(a) || a.length === 0) return null;
    const first = a[0];
    if (!plainObject(first)) return null;
    const fields = Object.keys(first).sort();
    if (!fields.length || !fields.every((f) => NAME.test(f))) return null;
    for (let i = 0; i < a.length; i++) {
      const o = a[i];
      if (!plainObject(o) || Object.keys(o).length !== fields.length) return null;
      for (let j = 0; j < fields.length; j++) if (typeof (o as Record<string, unknown>)[fields[j]] !== "number") return null;
    }
    return { fields, elems: fields.map(() => "f64") };
  } catch { return null; }   // (a Proxy whose traps throw)
}

function plainObject(o: unknown): o is object {
  if (typeof o !== "object" || o === null || Array.isArray(o) || ArrayBuffer.isView(o)) return false;
  const p = Object.getPrototypeOf(o);
  return p === Object.prototype || p === null;
}

/**
 * A launch's arguments with each Array of objects (its type name among `types`) replaced by its
 * fields' arrays, and what copies the fields back into the objects once the launch is done.
 */
export function expandStructs(args: unknown[], types: readonly string[], dev: Device): { args: unknown[]; writeBack: () => void } {
  const out: unknown[] = [];
  const backs: (() => void)[] = [];
  args.forEach((a, i) => {
    if (!types[i].startsWith("{")) { out.push(a); return; }
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
    // (A plain Array's fields, f64 each, as its type name gives them: typing read them this launch.)
    const objs = a as Record<string, number>[];
    const fields = (parseTypeName(types[i]) as StructsType).of.fields.map((f) => f.name);
    const arrays = fields.map((f) => {
      const arr = new Float64Array(objs.length);
      for (let k = 0; k < objs.length; k++) arr[k] = objs[k][f];
      return arr;
    });
    out.push(...arrays);
    backs.push(() => fields.forEach((f, j) => { const arr = arrays[j]; for (let k = 0; k < objs.length; k++) objs[k][f] = arr[k]; }));
  });
  return { args: out, writeBack: () => { for (const b of backs) b(); } };
}
