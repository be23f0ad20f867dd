// The PTX target (NVIDIA GPUs through the CUDA driver), as the rest of gpuc knows it without loading
// its back end.

import type { TargetInfo } from "../target.js";

/** Architectures gpuc emits PTX for (the CUDA 13 ptxas accepts sm_75 and newer). */
export const PTX_ARCHES = ["sm_75", "sm_80", "sm_86", "sm_89", "sm_90"] as const;

export const ptxInfo: TargetInfo = {
  name: "ptx",
  arches: PTX_ARCHES,
  forwardCompatible: true,
  relocations: ["patch", "table", "bake"],
  layout: true,
  // Every architecture here: 4 KiB of kernel parameters (arrays a pointer and a length; the kernel
  // state two more parameters) and 48 KiB of static shared memory per block.
  limits: { paramBytes: { max: 4096, array: 12, state: 16 }, sharedBytes: { max: 48 * 1024, why: "static shared memory" } },
};
