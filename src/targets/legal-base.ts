// What C and the instruction sets gpuc emits for besides WGSL (OpenCL C, SPIR-V, LLVM IR, PTX)
// leave undefined or spell otherwise than JavaScript, alike on every one of them: each target's
// table (<target>/legal.ts) is this and what differs on it (ir/passes/legalize.ts names the
// lowerings and why each is exact).

import type { LegalTable } from "../ir/passes/legalize.js";

const FLOATS = ["f32", "f64"] as const;
const both = <L extends string>(l: L) => ({ f32: l, f64: l });

/** The ops all four lower alike. */
export const C_LIKE_OPS = {
  // Integer x / 0, x % 0 and -2^31 / -1 are undefined (C, OpSDiv, sdiv) or unspecified (div.s32):
  // the instruction sees none of them.
  div: { i32: "divisor-safe", u32: "divisor-safe" },
  rem: { i32: "divisor-safe", u32: "divisor-safe" },
  // No instruction has Math.sign's NaN and zeros: comparisons.
  sign: { i32: "sign-by-compare", u32: "sign-by-compare", ...both("sign-by-compare") },
  abs: { u32: "abs-unsigned" },
  // fmin/fmax, OpenCL.std's, llvm.minnum/maxnum and PTX's min/max return the other operand of a
  // NaN and may pick either zero.
  min: both("minmax-nan"),
  max: both("minmax-nan"),
  // round() goes half away from zero (-2.5 → -3; JS: -2); cvt.rni to even.
  round: both("round-half-up"),
} as const satisfies LegalTable["ops"];

/** A shift by the width or more is undefined (SPIR-V, LLVM's poison) or clamped (PTX); JS takes the count modulo 32. */
export const SHIFTS_MOD_32 = { shl: { i32: "shift-mod-32", u32: "shift-mod-32" }, shr: { i32: "shift-mod-32", u32: "shift-mod-32" } } as const;

/** The table's fields all four share, their ops aside. */
export const C_LIKE = {
  // f32/f64 → i32/u32 out of range is undefined in C, SPIR-V and LLVM, and saturates in PTX
  // (cvt.rzi): wrapped as JS's ToInt32 first.
  converts: Object.fromEntries(FLOATS.flatMap((f) => [[`${f}>i32`, "wrap-to-int32"], [`${f}>u32`, "wrap-to-int32"]])) as LegalTable["converts"],
  // Each is built without finite-math assumptions: a comparison with a NaN is false.
  nanTestsByBits: false,
  checks: "lower",
} as const;

/** The OpenCL memory model's atomics (OpenCL C 1.2, SPIR-V's OpenCL environment, SPIR): 32-bit integer read-modify-writes only. */
export const OPENCL_ATOMICS = { narrow: "cas", narrowStores: "native", f32Add: "cas", incDec: "cas" } as const satisfies LegalTable["atomics"];
