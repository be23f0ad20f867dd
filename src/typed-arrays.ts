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

/** The element type of a supported host typed array, or null. */
export function hostArrayElement(v: unknown): ElementType | null {
  return (v !== null && typeof v === "object" && ELEMENT.get((v as object).constructor)) || null;
}

/** The element type of a typed array that can be a constant table from scope (4- and 8-byte elements only), or null. */
export function tableElement(v: unknown): "i32" | "u32" | "f32" | "f64" | null {
  const e = hostArrayElement(v);
  return e === "i32" || e === "u32" || e === "f32" || e === "f64" ? e : null;
}

/** "Float32Array", "null", "string": what a value is, for messages. */
export function describeValue(v: unknown): string {
  if (v === null) return "null";
  if (typeof v === "object") return (v as object).constructor?.name ?? "object";
  return typeof v;
}
