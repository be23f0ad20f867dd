// What LLVM IR's instructions mean per op, against JavaScript (ir/passes/legalize.ts). Not named:
// native (the instruction or intrinsic has the op's meaning on every input).

import type { LegalTable } from "../../ir/passes/legalize.js";

export const LLVM_LEGAL: LegalTable = {
  target: "llvm",
  ops: {
    // sdiv/srem by 0 and -2^31 / -1 are undefined behaviour (udiv/urem by 0 too): the
    // instruction sees neither.
    div: { i32: "divisor-safe", u32: "divisor-safe" },
    // frem is C's fmod (exact) on SPIR; on AMD GPUs LLVM expands it inexactly: the emitter spells
    // it there with an exact helper of its own.
    rem: { i32: "divisor-safe", u32: "divisor-safe", f32: "helper", f64: "helper" },
    // A shift by the width or more is poison: counts are taken modulo 32 first.
    shl: { i32: "shift-mod-32", u32: "shift-mod-32" },
    shr: { i32: "shift-mod-32", u32: "shift-mod-32" },
    sign: { i32: "sign-by-compare", u32: "sign-by-compare", f32: "sign-by-compare", f64: "sign-by-compare" },
    abs: { u32: "abs-unsigned" },
    // llvm.minnum/maxnum return the other operand of a NaN and may pick either zero.
    min: { f32: "minmax-nan", f64: "minmax-nan" },
    max: { f32: "minmax-nan", f64: "minmax-nan" },
    // llvm.round goes half away from zero; JS half up.
    round: { f32: "round-half-up", f64: "round-half-up" },
  },
  // fptosi/fptoui out of range are poison: wrapped as JS's ToInt32 first.
  converts: { "f32>i32": "wrap-to-int32", "f32>u32": "wrap-to-int32", "f64>i32": "wrap-to-int32", "f64>u32": "wrap-to-int32" },
  nanTestsByBits: false,
  checks: "lower",
  doneGuards: "effects-and-reads",
  // 32-bit integer atomicrmw everywhere; narrow read-modify-writes, f32 add and CUDA's inc/dec as
  // compare-and-swap loops (LLVM 15, which SPIR drivers here are built on, has no uinc_wrap).
  atomics: { narrow: "cas", narrowStores: "native", f32Add: "cas", incDec: "cas" },
};
