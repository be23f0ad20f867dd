// The LLVM IR target (textual LLVM IR: AMD GPUs through HIP's code objects, `amdgcn-amd-amdhsa`;
// OpenCL drivers that take SPIR, `spir64-unknown-unknown`), as the rest of gpuc knows it without
// loading its back end. The architecture picks the triple: spir64 is SPIR (PoCL runs it here),
// gfx* an AMD GPU.

import type { TargetInfo } from "../target.js";

/** Architectures gpuc emits LLVM IR for: SPIR, then AMD GPUs (LLVM 16 knows no gfx942). */
export const LLVM_ARCHES = ["spir64", "gfx90a", "gfx940", "gfx1100"] as const;

export const llvmInfo: TargetInfo = {
  name: "llvm",
  arches: LLVM_ARCHES,
  // An AMD code object runs on its own architecture only (and SPIR is no GPU's): one entry each.
  forwardCompatible: false,
  // Constant tables are kernel parameters.
  relocations: ["table"],
  // As OpenCL C and SPIR-V: every helper inlined (no generic address space is assumed).
  alwaysInline: true,
  layout: true,
  // What every device it runs on has: OpenCL's 32 KiB of local memory (an AMD GPU has 64).
  limits: { sharedBytes: { max: 32 * 1024, why: "what every OpenCL device has" } },
};
