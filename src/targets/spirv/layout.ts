// How a loader binds a SPIR-V artifact (its `layout`): the kernel's parameters in order (the same
// order and roles as the OpenCL C target's arguments, so that an OpenCL device binds both alike),
// the constant tables and static Workgroup memory. Light: the read-back check imports it.

import type { RelocationStrategy } from "../../reloc/manifest.js";
import type { Artifact } from "../target.js";
import type { KernelArg } from "../layout-kit.js";

export interface SPIRVLayout {
  args: KernelArg[];
  /** `table`: one CrossWorkgroup pointer parameter per table; `bake`: UniformConstant data in the module. */
  relocation: RelocationStrategy;
  tables: { symbol: string; index: number }[];
  /** Static Workgroup memory per work-group, in bytes. */
  localBytes: number;
}

/** The layout of a SPIR-V artifact, or null when the artifact is not one (or has none). */
export const spirvLayout = (a: Artifact): SPIRVLayout | null => (a.target === "spirv" && a.layout ? (a.layout as SPIRVLayout) : null);
