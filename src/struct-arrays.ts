// Struct arrays: arrays of objects kept as one typed array per field (`structArray`), and
// `deviceStructArray`, one kept on a device. Plain objects and Arrays of objects as kernel
// arguments are object-arguments.ts's (loaded on the first launch given one). Loaded with
// kernel.ts: light.

import { DeviceArray, type Device } from "./devices/device.js";

type FieldElem = "i32" | "u32" | "f32" | "f64";
type FieldArray = Int32Array | Uint32Array | Float32Array | Float64Array;
const CTOR: Record<FieldElem, new (n: number) => FieldArray> = { i32: Int32Array, u32: Uint32Array, f32: Float32Array, f64: Float64Array };
const ELEM = new Map<unknown, FieldElem>(Object.entries(CTOR).map(([e, c]) => [c, e as FieldElem]));
const FIELDS = Symbol("gpuc.structArrayFields");

/** A struct array's fields (its typed arrays by name; a device struct array's device arrays), or null for any other value. */
export function structArrayFields(a: unknown): Record<string, FieldArray> | null {
  try {
    return typeof a === "object" && a !== null ? ((a as { [FIELDS]?: Record<string, FieldArray> })[FIELDS] ?? null) : null;
  } catch { return null; }   // (a Proxy whose traps throw)
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

export const NAME = /^[A-Za-z_$][\w$]*$/;

/** The type of a number argument (or field of an object argument): i32 where it is one, else f32. */
export function numberTypeName(a: number): "i32" | "f32" {
  return (a | 0) === a && !Object.is(a, -0) ? "i32" : "f32";
}

/** The type name of a struct array (or a device struct array) argument, its fields' typed arrays giving their types; null for any other value. */
export function structArrayTypeName(a: unknown): string | null {
  const typed = structArrayFields(a);
  if (!typed) return null;
  const elem = (x: unknown): FieldElem => (x instanceof DeviceArray ? (x.elem as FieldElem) : ELEM.get((x as object).constructor)!);
  return `{ ${Object.keys(typed).sort().map((f) => `${f}: ${elem(typed[f])}`).join(", ")} }[]`;
}
