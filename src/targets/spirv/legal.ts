// What SPIR-V's instructions (OpenCL flavour, with OpenCL.std) mean per op, against JavaScript
// (ir/passes/legalize.ts). Not named: native.

import type { LegalTable } from "../../ir/passes/legalize.js";

export const SPIRV_LEGAL: LegalTable = {
  target: "spirv",
  ops: {
    // OpSDiv/OpSRem by 0 and -2^31 / -1 are undefined: the instruction sees neither. (fmod, from
    // OpenCL.std, is exact: float % is native.)
    div: { i32: "divisor-safe", u32: "divisor-safe" },
    rem: { i32: "divisor-safe", u32: "divisor-safe" },
    // SPIR-V leaves shifts by the width or more undefined (OpenCL C masks them; SPIR-V does not).
    shl: { i32: "shift-mod-32", u32: "shift-mod-32" },
    shr: { i32: "shift-mod-32", u32: "shift-mod-32" },
    sign: { i32: "sign-by-compare", u32: "sign-by-compare", f32: "sign-by-compare", f64: "sign-by-compare" },
    abs: { u32: "abs-unsigned" },
    // fmin/fmax return the other operand of a NaN and may pick either zero.
    min: { f32: "minmax-nan", f64: "minmax-nan" },
    max: { f32: "minmax-nan", f64: "minmax-nan" },
    // round() goes half away from zero.
    round: { f32: "round-half-up", f64: "round-half-up" },
    // pow(1, NaN) and pow(-1, ±inf) are 1 in OpenCL.std (JS: NaN): selected around it.
    pow: { f32: "helper", f64: "helper" },
  },
  // Float → integer conversions out of range are undefined: wrapped as JS's ToInt32 first.
  converts: { "f32>i32": "wrap-to-int32", "f32>u32": "wrap-to-int32", "f64>i32": "wrap-to-int32", "f64>u32": "wrap-to-int32" },
  nanTestsByBits: false,
  checks: "lower",
  doneGuards: "effects-and-reads",
  // SPIR-V's OpenCL environment: 32-bit integer atomics only.
  atomics: { narrow: "cas", narrowStores: "native", f32Add: "cas", incDec: "cas" },
};
