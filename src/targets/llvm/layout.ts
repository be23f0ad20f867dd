// How a loader binds an LLVM IR artifact (its `layout`): the kernel's parameters in order (the
// OpenCL C target's order and roles, so that an OpenCL device binds SPIR as it binds OpenCL C),
// the constant tables, static local memory, and the architecture the code is for. Light: the
// devices and the read-back check import it.

import type { GenericSchema } from "valibot";
import type { RelocationStrategy } from "../../reloc/manifest.js";
import type { Artifact, SchemaKit } from "../target.js";

export interface LLVMArg {
  /** The kernel parameter's (or table's, or shared array's) name, for messages. */
  name: string;
  /**
   * As the OpenCL C target's argument roles: value, buffer, offset, length, state, state-length,
   * table, local (SPIR: a local-memory argument of the launch's size; an AMD GPU: the array's byte
   * offset in the launch's dynamic LDS), local-length.
   */
  role: "value" | "buffer" | "offset" | "length" | "state" | "state-length" | "table" | "local" | "local-length";
  /** The kernel parameter's index, the table's or the dynamic shared array's; -1 for the state. */
  index: number;
}

export interface LLVMLayout {
  /** `spir64`, or the AMD GPU (`gfx90a`, …) the code is for. */
  arch: string;
  args: LLVMArg[];
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
export function llvmLayout(a: Artifact): LLVMLayout | null {
  return a.target === "llvm" && a.layout ? (a.layout as LLVMLayout) : null;
}

/** The layout's schema (read back from caches and images), made with the caller's valibot. */
export function llvmLayoutSchema(v: SchemaKit): GenericSchema {
  const count = v.pipe(v.number(), v.integer(), v.minValue(0));
  const int = v.pipe(v.number(), v.integer());
  return v.strictObject({
    arch: v.picklist(["spir64", "gfx90a", "gfx940", "gfx1100"]),
    args: v.array(v.strictObject({
      name: v.string(),
      role: v.picklist(["value", "buffer", "offset", "length", "state", "state-length", "table", "local", "local-length"]),
      index: int,
    })),
    relocation: v.picklist(["table"]),
    tables: v.array(v.strictObject({ symbol: v.string(), index: count })),
    localBytes: count,
    conditionalBarriers: v.boolean(),
  });
}
