// The JavaScript target (the CPU device; exact reference semantics), as the rest of gpuc knows it
// without loading its back end.

import type { TargetInfo } from "../target.js";

export const jsInfo: TargetInfo = {
  name: "js",
  // The code names each table (`$g0_LUT`) and the loader binds it: `bake` binds this session's
  // values; `table` marks the same code persistable, its tables resolved by name at load.
  relocations: ["bake", "table"],
  layout: false,
  // The CPU device's limits are its own (devices/cpu.ts); the code has none.
  limits: {},
};
