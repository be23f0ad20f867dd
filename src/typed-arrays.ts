// The host typed arrays kernels accept, and how values are described in messages.

export type HostArray = Float32Array | Float64Array | Int32Array | Uint32Array | Int8Array | Uint8Array | Uint8ClampedArray | Int16Array | Uint16Array;
/** What an array holds: the IR's element types (ir/types.ts `Elem`, less bool). */
export type ElementType = "i32" | "u32" | "f32" | "f64" | "i8" | "u8" | "u8c" | "i16" | "u16";

/** The typed-array constructor of each element type. */
export const ARRAY_CONSTRUCTOR: Record<ElementType, new (n: number) => HostArray> = {
  f32: Float32Array, f64: Float64Array, i32: Int32Array, u32: Uint32Array,
  i8: Int8Array, u8: Uint8Array, u8c: Uint8ClampedArray, i16: Int16Array, u16: Uint16Array,
};

const ELEMENT = new Map<unknown, ElementType>(Object.entries(ARRAY_CONSTRUCTOR).map(([e, c]) => [c, e as ElementType]));

/**
 * The element type of a supported host typed array, or null. A typed array itself, not an object
 * that looks like one: a Proxy of a Float32Array has its constructor but none of its internal
 * slots (ArrayBuffer.isView tells them apart without running any of the Proxy's traps).
 */
export function hostArrayElement(v: unknown): ElementType | null {
  return (ArrayBuffer.isView(v) && ELEMENT.get((v as object).constructor)) || null;
}

/** Whether a typed array's buffer was detached (transferred, e.g. by postMessage or structuredClone). */
export function isDetached(a: ArrayBufferView): boolean {
  if (a.byteLength !== 0) return false;
  const buffer = a.buffer as ArrayBuffer & { detached?: boolean };
  if (typeof buffer.detached === "boolean") return buffer.detached;
  // (Without `detached` (Node 20): a view cannot be made on a detached buffer. Not slice(), which
  // a zero-length SharedArrayBuffer refuses too.)
  try { new Uint8Array(buffer, 0, 0); return false; } catch { return true; }
}

/** The element type of a typed array that can be a constant table from scope (4- and 8-byte elements only), or null. */
export function tableElement(v: unknown): "i32" | "u32" | "f32" | "f64" | null {
  const e = hostArrayElement(v);
  return e === "i32" || e === "u32" || e === "f32" || e === "f64" ? e : null;
}

/** A scope value as a constant table: its elements in one typed array, row by row, and its shape. */
export interface TableValue {
  readonly flat: Float32Array | Float64Array | Int32Array | Uint32Array;
  /** The dimensions of a table of tables (`[rows, columns]`, or three), null for a flat one. */
  readonly dims: readonly number[] | null;
  /** Whether `flat` was made from a plain Array (a copy, made again each time), not the typed array itself. */
  readonly copied: boolean;
}

/**
 * A scope value as a constant table, or why it cannot be one (null: it is no array at all). A
 * typed array of 4- or 8-byte elements is one as it is; a plain Array is flattened row by row
 * into a new typed array: of numbers (a table), of such typed arrays of one type and length, or
 * of Arrays of numbers of one length (a table of tables, `c_Table[dim][bit]`; three levels at
 * most). Plain numbers become i32 where every one is an integer in i32's range (not -0), u32
 * where in u32's, else f64 — exactly the numbers JavaScript reads.
 */
export function tableOf(v: unknown): TableValue | { problem: string } | null {
  const elem = tableElement(v);
  if (elem) return { flat: v as TableValue["flat"], dims: null, copied: false };
  let isArray = false;
  try { isArray = Array.isArray(v); } catch { return null; }   // (a revoked Proxy)
  if (!isArray) return null;
  try {
    const dims: number[] = [];
    const leaves: unknown[] = [];
    // The shape from the first element at each level; every element must then have it.
    for (let x: unknown = v; ; ) {
      if (Array.isArray(x)) { if (x.length === 0) return { problem: "an empty Array" }; dims.push(x.length); x = x[0]; continue; }
      if (tableElement(x)) dims.push((x as ArrayLike<number>).length);
      break;
    }
    if (dims.length > 3) return { problem: `an Array of ${dims.length} levels (a table has at most three)` };
    let rowType: unknown = null;
    const walk = (x: unknown, level: number): string | null => {
      const n = dims[level];
      if (level === dims.length - 1) {
        if (tableElement(x)) {
          if (rowType === null) rowType = (x as object).constructor;
          if ((x as object).constructor !== rowType || (x as ArrayLike<number>).length !== n) return "rows of different types or lengths";
          leaves.push(x);
          return null;
        }
        if (!Array.isArray(x) || x.length !== n) return "rows of different lengths";
        if (rowType === null) rowType = Array;
        if (rowType !== Array) return "rows of different types";
        for (let i = 0; i < n; i++) if (typeof x[i] !== "number") return `an element that is not a number (${describeValue(x[i])})`;
        leaves.push(x);
        return null;
      }
      if (!Array.isArray(x) || x.length !== n) return "rows of different lengths";
      for (let i = 0; i < n; i++) { const p = walk(x[i], level + 1); if (p) return p; }
      return null;
    };
    const problem = walk(v, 0);
    if (problem) return { problem: `an Array with ${problem} (a table is rectangular: rows of one type and length, of numbers or typed arrays)` };
    const total = dims.reduce((a, b) => a * b, 1);
    let ctor: new (n: number) => TableValue["flat"];
    if (rowType !== Array) ctor = rowType as typeof ctor;
    else {
      let i32 = true, u32 = true;
      for (const row of leaves as number[][]) for (const x of row) {
        if (!Number.isInteger(x) || Object.is(x, -0)) { i32 = u32 = false; break; }
        if (x < -2147483648 || x > 2147483647) i32 = false;
        if (x < 0 || x > 4294967295) u32 = false;
      }
      ctor = i32 ? Int32Array : u32 ? Uint32Array : Float64Array;
    }
    const flat = new ctor(total);
    const n = dims[dims.length - 1];
    leaves.forEach((row, r) => flat.set(row as ArrayLike<number>, r * n));
    return { flat, dims: dims.length > 1 ? dims : null, copied: true };
  } catch { return null; }   // (an Array whose elements cannot be read: a Proxy's trap threw)
}

/**
 * "Float32Array", "null", "string": what a value is, for messages. Never throws (a revoked Proxy,
 * an object without a prototype, a constructor whose name is not a string).
 */
export function describeValue(v: unknown): string {
  if (v === null) return "null";
  if (typeof v === "object") {
    try {
      const name: unknown = (v as object).constructor?.name;
      return typeof name === "string" && name ? name : "object";
    } catch { return "a revoked Proxy"; }
  }
  return typeof v;
}

/** An argument as messages show it: numbers, BigInts, booleans and short strings by value, others by kind. */
export function describeArgument(v: unknown): string {
  switch (typeof v) {
    case "number": return `the number ${Object.is(v, -0) ? "-0" : String(v)}`;
    case "bigint": return `the BigInt ${v}n`;
    case "boolean": return `the boolean ${v}`;
    case "string": return `the string ${JSON.stringify(v.length > 24 ? v.slice(0, 24) + "…" : v)}`;
    case "symbol": return "a symbol";
    case "function": return "a function";
    case "undefined": return "undefined";
    default: return describeValue(v);
  }
}

/** A launch configuration value as messages show it (JSON where it has one; a BigInt as `2n`; never throws). */
export function describeConfig(v: unknown): string {
  if (typeof v === "bigint") return `${v}n`;
  try { return JSON.stringify(v, (_k, x) => (typeof x === "bigint" ? `${x}n` : x)) ?? describeArgument(v); } catch { return describeArgument(v); }
}
