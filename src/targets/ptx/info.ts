// The PTX target (NVIDIA GPUs through the CUDA driver), as the rest of gpuc knows it without loading
// its back end.

import type { ReadBack, TargetInfo } from "../target.js";

let checks: Promise<ReadBack> | null = null;

/** Architectures gpuc emits PTX for (the CUDA 13 ptxas accepts sm_75 and newer). */
export const PTX_ARCHES = ["sm_75", "sm_80", "sm_86", "sm_89", "sm_90"] as const;

export const ptxInfo: TargetInfo = {
  name: "ptx",
  arches: PTX_ARCHES,
  forwardCompatible: true,
  relocations: ["patch", "table", "bake"],
  layout: true,
  readBack: () => (checks ??= import("./read-back.js").then((m) => m.ptxReadBack)),
};
