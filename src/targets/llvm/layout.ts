// How a loader binds an LLVM IR artifact (its `layout`): the kernel's parameters in order (the
// OpenCL C target's order and roles, so that an OpenCL device binds SPIR as it binds OpenCL C),
// the constant tables, static local memory, and the architecture the code is for. Light: the
// devices and the read-back check import it.

import type { RelocationStrategy } from "../../reloc/manifest.js";
import type { Artifact } from "../target.js";
import type { KernelArg } from "../layout-kit.js";

export interface LLVMLayout {
  /** `spir64`, or the AMD GPU (`gfx90a`, …) the code is for. */
  arch: string;
  args: KernelArg[];
  relocation: RelocationStrategy;
  tables: { symbol: string; index: number }[];
  /** Static local memory (LDS) per work-group, in bytes. */
  localBytes: number;
  /**
   * Whether a barrier is inside an `if` or a `switch` (on a value the block's threads share): PoCL
   * 3.1's optimizer miscompiles some such kernels, SPIR as OpenCL C (the OpenCL C layout's
   * `conditionalBarriers`; found by the fuzzer), so the OpenCL device builds them unoptimized.
   */
  conditionalBarriers: boolean;
}

/** The layout of an LLVM IR artifact, or null when the artifact is not one (or has none). */
export const llvmLayout = (a: Artifact): LLVMLayout | null => (a.target === "llvm" && a.layout ? (a.layout as LLVMLayout) : null);
