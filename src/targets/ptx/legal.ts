// What PTX's instructions mean per op, against JavaScript (ir/passes/legalize.ts). Not named:
// native (the instruction, with `.rn` rounding for f32/f64 arithmetic, has the op's meaning).

import type { LegalTable } from "../../ir/passes/legalize.js";

export const PTX_LEGAL: LegalTable = {
  target: "ptx",
  ops: {
    // div.s32/rem.s32 by 0 give an unspecified value and -2^31 / -1 overflows: the instruction
    // sees neither.
    div: { i32: "divisor-safe", u32: "divisor-safe" },
    rem: { i32: "divisor-safe", u32: "divisor-safe", f32: "helper", f64: "helper" },   // floats: gpuc_fmod (exact)
    // PTX clamps shift counts at 32; JS takes them modulo 32.
    shl: { i32: "shift-mod-32", u32: "shift-mod-32" },
    shr: { i32: "shift-mod-32", u32: "shift-mod-32" },
    sign: { i32: "sign-by-compare", u32: "sign-by-compare", f32: "sign-by-compare", f64: "sign-by-compare" },
    abs: { u32: "abs-unsigned" },
    // NaN in, NaN out, and min(0, -0) is -0 (PTX's min/max return the other operand of a NaN).
    min: { f32: "minmax-nan", f64: "minmax-nan" },
    max: { f32: "minmax-nan", f64: "minmax-nan" },
    // Halves up, the sign of zero kept (cvt.rni rounds to even).
    round: { f32: "round-half-up", f64: "round-half-up" },
  },
  // Conversions f32/f64 → i32/u32 wrap as JS's ToInt32 (cvt.rzi saturates).
  converts: { "f32>i32": "wrap-to-int32", "f32>u32": "wrap-to-int32", "f64>i32": "wrap-to-int32", "f64>u32": "wrap-to-int32" },
  nanTestsByBits: false,
  checks: "lower",
  // atom works on 32- and 64-bit words (f32 add, inc and dec included); 8- and 16-bit stores are native.
  atomics: { narrow: "cas", narrowStores: "native", f32Add: "native", incDec: "native" },
};
