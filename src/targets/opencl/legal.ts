// What OpenCL C's operators and built-ins mean per op, against JavaScript (ir/passes/legalize.ts).
// Not named: native (the operator or built-in has the op's meaning on every input; f32 and f64
// arithmetic is IEEE 754 with round to nearest, contraction off, division and square root
// correctly rounded by the build option unless fastMath).

import type { LegalTable } from "../../ir/passes/legalize.js";

export const OPENCL_LEGAL: LegalTable = {
  target: "opencl",
  ops: {
    // C leaves x / 0, x % 0 and -2^31 / -1 undefined: the operator sees none of them.
    div: { i32: "divisor-safe", u32: "divisor-safe" },
    // Floats: fmod is exact (OpenCL requires 0 ulp), with JS's sign and special cases: native.
    // Shifts: OpenCL C takes the count modulo the width (§6.3 j), as JS does: native (the emitter
    // shifts i32 values as uint, where C leaves a negative left operand undefined).
    rem: { i32: "divisor-safe", u32: "divisor-safe" },
    sign: { i32: "sign-by-compare", u32: "sign-by-compare", f32: "sign-by-compare", f64: "sign-by-compare" },
    abs: { u32: "abs-unsigned" },
    // fmin/fmax return the other operand of a NaN and may pick either zero.
    min: { f32: "minmax-nan", f64: "minmax-nan" },
    max: { f32: "minmax-nan", f64: "minmax-nan" },
    // round() goes half away from zero (-2.5 → -3; JS: -2).
    round: { f32: "round-half-up", f64: "round-half-up" },
    // pow(1, NaN) and pow(-1, ±inf) are 1 in C (JS: NaN): gpuc_pow.
    pow: { f32: "helper", f64: "helper" },
  },
  // Conversions f32/f64 → i32/u32 wrap as JS's ToInt32 (C leaves out-of-range ones undefined).
  converts: { "f32>i32": "wrap-to-int32", "f32>u32": "wrap-to-int32", "f64>i32": "wrap-to-int32", "f64>u32": "wrap-to-int32" },
  // The program is built without -cl-fast-relaxed-math / -cl-finite-math-only: NaN tests hold.
  nanTestsByBits: false,
  checks: "lower",
  doneGuards: "effects-and-reads",
  // OpenCL C 1.2: 32-bit integer atomics only.
  atomics: { narrow: "cas", narrowStores: "native", f32Add: "cas", incDec: "cas" },
};
