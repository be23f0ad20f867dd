// What PTX's instructions mean per op, against JavaScript (ir/passes/legalize.ts): the C family's
// (legal-base.ts) and PTX's own. Not named: native (the instruction, with `.rn` rounding for
// f32/f64 arithmetic, has the op's meaning).

import type { LegalTable } from "../../ir/passes/legalize.js";
import { C_LIKE, C_LIKE_OPS, SHIFTS_MOD_32 } from "../legal-base.js";

export const PTX_LEGAL: LegalTable = {
  ...C_LIKE,
  target: "ptx",
  ops: {
    ...C_LIKE_OPS,
    rem: { ...C_LIKE_OPS.rem, f32: "overlay", f64: "overlay" },   // floats: softmath fmod (exact)
    ...SHIFTS_MOD_32,
  },
  eagerSelects: true,
  launchSizes: "kernel",
  // No done-guards: a thread that ends exits (and no longer holds up barriers).
  // atom works on 32- and 64-bit words (f32 add, inc and dec included); 8- and 16-bit stores are native.
  atomics: { narrow: "cas", narrowStores: "native", f32Add: "native", incDec: "native" },
};
