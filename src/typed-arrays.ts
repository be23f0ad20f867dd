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
