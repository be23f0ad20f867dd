// What LLVM IR's instructions mean per op, against JavaScript (ir/passes/legalize.ts): the C
// family's (legal-base.ts) and LLVM's own. Not named: native (the instruction or intrinsic has
// the op's meaning on every input).

import type { LegalTable } from "../../ir/passes/legalize.js";
import { C_LIKE, C_LIKE_OPS, OPENCL_ATOMICS, SHIFTS_MOD_32 } from "../legal-base.js";

export const LLVM_LEGAL: LegalTable = {
  ...C_LIKE,
  target: "llvm",
  ops: {
    ...C_LIKE_OPS,
    // frem is C's fmod (exact) on SPIR; on AMD GPUs LLVM expands it inexactly: floats take the
    // overlay's exact fmod (softmath) on both.
    rem: { ...C_LIKE_OPS.rem, f32: "overlay", f64: "overlay" },
    ...SHIFTS_MOD_32,
  },
  eagerSelects: true,
  zeroFill: "loop",
  doneGuards: "effects-and-reads",
  subgroups: "one-lane",
  // 32-bit integer atomicrmw everywhere; narrow read-modify-writes, f32 add and CUDA's inc/dec as
  // compare-and-swap loops (LLVM 15, which SPIR drivers here are built on, has no uinc_wrap).
  atomics: { ...OPENCL_ATOMICS, narrowLoads: "word" },
};
