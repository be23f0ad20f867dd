// What WGSL's operators and built-ins mean per op, against JavaScript (ir/passes/legalize.ts).
// Not named: native (WGSL's operator or built-in has the op's meaning on every input).

import type { LegalTable } from "../../ir/passes/legalize.js";

export const WGSL_LEGAL: LegalTable = {
  target: "wgsl",
  ops: {
    // WGSL: x / 0 is x (JS: 0); -2^31 / -1 is -2^31, as JS's wrap gives. Integer x % 0 is 0 and
    // -2^31 % -1 is 0, as in JS: native.
    div: { i32: "divisor-zero", u32: "divisor-zero" },
    rem: { f32: "helper" },   // f32: gpuc_fmodf (exact; WGSL's is x - y * trunc(x / y))
    // WGSL takes shift counts modulo 32 too, but the count must be u32 and Tint's polyfill is not
    // promised on every back end: the count is masked in the IR.
    shl: { i32: "shift-mod-32", u32: "shift-mod-32" },
    shr: { i32: "shift-mod-32", u32: "shift-mod-32" },
    sign: { u32: "sign-by-compare", f32: "sign-by-compare" },   // i32: WGSL's sign() is exact
    abs: { u32: "abs-unsigned" },
    eq: { f32: "nan-self-test" },
    // WGSL's != is ordered on Dawn with lavapipe (NaN != 3 is false; JS: true).
    ne: { f32: "ne-nan-bits" },
    // NaN in, NaN out, and min(0, -0) is -0 (WGSL leaves NaN undefined).
    min: { f32: "minmax-nan" },
    max: { f32: "minmax-nan" },
    // Halves up (WGSL's round() goes to even), the sign of zero kept.
    round: { f32: "round-half-up" },
    // Negative bases, zeros and NaNs as JS has them: gpuc_pow, gpuc_atan2.
    pow: { f32: "helper" },
    atan2: { f32: "helper" },
    // Tested by bits: WGSL compilers may assume floats are never NaN or infinite.
    isnan: { f32: "helper" },
    isfinite: { f32: "helper" },
  },
  // Conversions f32 → i32/u32 wrap as JS's ToInt32 (WGSL's saturate).
  converts: { "f32>i32": "wrap-to-int32", "f32>u32": "wrap-to-int32" },
  nanTestsByBits: true,
  checks: "lower",
  doneGuards: "effects",
  // No 8- or 16-bit memory: narrow arrays are u32 words, every write to one a loop on its word.
  // No float atomics: an f32 array used atomically is atomic<u32> words holding the floats' bits,
  // an atomic add a loop on them.
  atomics: { narrow: "cas", narrowStores: "cas", f32Add: "cas", incDec: "cas" },
  // subgroupShuffle from an invocation that is not active is undefined: a shuffle that part of a
  // subgroup may reach tests the lane it reads in subgroupBallot(true).
  partialShuffles: "ballot",
  // Scalar parameters are the uniform block's fields, read where the kernel reads them: one the
  // kernel assigns becomes a local.
  paramCopies: "assigned",
};
