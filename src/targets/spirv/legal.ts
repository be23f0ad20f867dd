// What SPIR-V's instructions (OpenCL flavour, with OpenCL.std) mean per op, against JavaScript
// (ir/passes/legalize.ts): the C family's (legal-base.ts) and SPIR-V's own. Not named: native
// (fmod, from OpenCL.std, is exact: float % is native).

import type { LegalTable } from "../../ir/passes/legalize.js";
import { C_LIKE, C_LIKE_OPS, OPENCL_ATOMICS, SHIFTS_MOD_32 } from "../legal-base.js";

export const SPIRV_LEGAL: LegalTable = {
  ...C_LIKE,
  target: "spirv",
  ops: {
    ...C_LIKE_OPS,
    // (OpenCL C masks shift counts; SPIR-V does not.)
    ...SHIFTS_MOD_32,
    // pow(1, NaN) and pow(-1, ±inf) are 1 in OpenCL.std (JS: NaN): selected around it.
    pow: { f32: "helper", f64: "helper" },
  },
  eagerSelects: true,
  zeroFill: "loop",
  doneGuards: "effects-and-reads",
  subgroups: "one-lane",
  atomics: { ...OPENCL_ATOMICS, narrowLoads: "word" },
};
