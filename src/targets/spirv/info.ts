// The SPIR-V 1.0 target, OpenCL flavour (Kernel capability, Physical64: OpenCL 2.1+ drivers and
// oneAPI, clCreateProgramWithIL), as the rest of gpuc knows it without loading its back end.

import type { TargetInfo } from "../target.js";

export const spirvInfo: TargetInfo = {
  name: "spirv",
  // Constant tables are kernel parameters (`table`), or UniformConstant data in the module (`bake`).
  relocations: ["table", "bake"],
  // As OpenCL C: no generic address space in OpenCL 1.2's memory model, no recursion.
  alwaysInline: true,
  layout: true,
  // It runs on OpenCL devices: their limits (its own folder imports no other target's).
  limits: { sharedBytes: { max: 32 * 1024, why: "what every OpenCL device has" } },
};
