// The host typed arrays kernels accept, and how values are described in messages.

export type HostArray = Float32Array | Float64Array | Int32Array | Uint32Array;
export type ElementType = "i32" | "u32" | "f32" | "f64";

const ELEMENT = new Map<unknown, ElementType>([[Float32Array, "f32"], [Float64Array, "f64"], [Int32Array, "i32"], [Uint32Array, "u32"]]);

/** The element type of a supported host typed array, or null. */
export function hostArrayElement(v: unknown): ElementType | null {
  return (v !== null && typeof v === "object" && ELEMENT.get((v as object).constructor)) || null;
}

/** "Float32Array", "null", "string": what a value is, for messages. */
export function describeValue(v: unknown): string {
  if (v === null) return "null";
  if (typeof v === "object") return (v as object).constructor?.name ?? "object";
  return typeof v;
}
