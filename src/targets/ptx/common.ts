// What the PTX emitters share: register classes, type suffixes and spellings, immediates, names.

import { legalName, type NameRules } from "../names.js";
import { elemBytes, isNarrow, type Elem, type Scalar } from "../../ir/types.js";
import { InternalCompilerError } from "../../errors.js";

export type RegClass = "p" | "r" | "f" | "fd" | "rd";
export const REG_DECL: Record<RegClass, string> = { p: ".pred", r: ".b32", f: ".f32", fd: ".f64", rd: ".b64" };
export const CLASS: Record<Scalar, RegClass> = { bool: "p", i32: "r", u32: "r", f32: "f", f64: "fd" };
/** The instruction type suffix of a scalar. */
export const SUFFIX: Record<Scalar, string> = { bool: "pred", i32: "s32", u32: "u32", f32: "f32", f64: "f64" };
/**
 * Bytes and alignment of an array of `n` elements in .shared or .local memory: narrow arrays are
 * word-aligned and padded to whole words (their atomics and the zero-fill work on 32-bit words).
 */
export function arrayBytes(e: Elem, n: number): { bytes: number; align: number } {
  return isNarrow(e) ? { bytes: Math.ceil((elemBytes(e) * n) / 4) * 4, align: 4 } : { bytes: elemBytes(e) * n, align: elemBytes(e) };
}

/** The type of a value in memory (ld/st). */
export function memType(t: Scalar): string { return t === "f32" ? "f32" : t === "f64" ? "f64" : t === "i32" ? "s32" : "u32"; }
/** The type of an array element in memory (ld/st): narrow ones load sign- or zero-extended into a 32-bit register and store its low bits. */
export function elemMemType(e: Elem): string {
  switch (e) {
    case "i8": return "s8";
    case "u8": case "u8c": return "u8";
    case "i16": return "s16";
    case "u16": return "u16";
    default: return memType(e);
  }
}
export function movType(t: Scalar): string { return t === "f32" ? "f32" : t === "f64" ? "f64" : "b32"; }
export function paramType(t: Scalar): string { return t === "f32" ? "f32" : t === "f64" ? "f64" : "b32"; }

/** PTX immediates: integers in decimal, floats as their exact bits (0f… / 0d…). */
export function immediate(v: number | boolean, t: Scalar): string {
  if (typeof v === "boolean") return v ? "1" : "0";
  switch (t) {
    case "bool": return v ? "1" : "0";
    case "i32": return String(v | 0);
    case "u32": return String(v >>> 0);
    case "f32": { const b = new DataView(new ArrayBuffer(4)); b.setFloat32(0, v); return `0f${b.getUint32(0).toString(16).toUpperCase().padStart(8, "0")}`; }
    case "f64": { const b = new DataView(new ArrayBuffer(8)); b.setFloat64(0, v); return `0d${b.getBigUint64(0).toString(16).toUpperCase().padStart(16, "0")}`; }
  }
}

/** PTX names: a letter or "_" first, then letters, digits and "_". */
const PTX_NAMES: NameRules = { invalid: /[^A-Za-z0-9_]/g, badStart: (n) => !/^[A-Za-z_]/.test(n), prefix: "k_", reserved: new Set() };

export function sanitize(name: string): string {
  return legalName(name, PTX_NAMES);
}

export function assertNeverOp(op: never): never {
  throw new InternalCompilerError(`op ${String(op)} has no PTX spelling`);
}
