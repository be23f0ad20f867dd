// The OpenCL C 1.2 target (AMD, Intel, ARM, Apple GPUs and CPUs through an OpenCL driver; PoCL), as
// the rest of gpuc knows it without loading its back end.

import type { TargetInfo, TargetLimits } from "../target.js";

/** What every OpenCL 1.2 device has: 32 KiB of `__local` memory per work-group (CL_DEVICE_LOCAL_MEM_SIZE's minimum). */
const OPENCL_LIMITS: TargetLimits = { sharedBytes: { max: 32 * 1024, why: "what every OpenCL device has" } };

export const openclInfo: TargetInfo = {
  name: "opencl",
  // Constant tables are kernel arguments given at launch (`table`), or `__constant` arrays in the
  // code (`bake`). OpenCL C 1.2 has no program-scope variables a host could patch.
  relocations: ["table", "bake"],
  // OpenCL C 1.2 has no generic address space and no recursion: every helper is inlined into the
  // kernel (the runtime library stays out of line: its only array is the kernel state).
  alwaysInline: true,
  layout: true,
  limits: OPENCL_LIMITS,
};
