// What OpenCL C's operators and built-ins mean per op, against JavaScript (ir/passes/legalize.ts):
// the C family's (legal-base.ts) and OpenCL C's own. Not named: native (f32 and f64 arithmetic is
// IEEE 754 with round to nearest, contraction off, division and square root correctly rounded by
// the build option unless fastMath).

import type { LegalTable } from "../../ir/passes/legalize.js";
import { C_LIKE, C_LIKE_OPS, OPENCL_ATOMICS } from "../legal-base.js";

export const OPENCL_LEGAL: LegalTable = {
  ...C_LIKE,
  target: "opencl",
  ops: {
    ...C_LIKE_OPS,
    // Floats: fmod is exact (OpenCL requires 0 ulp), with JS's sign and special cases: native.
    // Shifts: OpenCL C takes the count modulo the width (§6.3 j), as JS does: native (the emitter
    // shifts i32 values as uint, where C leaves a negative left operand undefined).
    // pow(1, NaN) and pow(-1, ±inf) are 1 in C (JS: NaN): gpuc_pow.
    pow: { f32: "helper", f64: "helper" },
  },
  doneGuards: "effects-and-reads",
  subgroups: "one-lane",
  barrierRegions: "pocl",
  zeroFill: "loop",
  atomics: OPENCL_ATOMICS,
};
