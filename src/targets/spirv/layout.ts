// How a loader binds a SPIR-V artifact (its `layout`): the kernel's parameters in order (the same
// order and roles as the OpenCL C target's arguments, so that an OpenCL device binds both alike),
// the constant tables and static Workgroup memory. Light: the read-back check imports it.

import type { GenericSchema } from "valibot";
import type { RelocationStrategy } from "../../reloc/manifest.js";
import type { Artifact, SchemaKit } from "../target.js";

export interface SPIRVArg {
  /** The kernel parameter's (or table's, or shared array's) name, for messages. */
  name: string;
  /** As the OpenCL C target's argument roles: value, buffer, offset, length, state, state-length, table, local, local-length. */
  role: "value" | "buffer" | "offset" | "length" | "state" | "state-length" | "table" | "local" | "local-length";
  /** The kernel parameter's index, the table's or the dynamic shared array's; -1 for the state. */
  index: number;
}

export interface SPIRVLayout {
  args: SPIRVArg[];
  /** `table`: one CrossWorkgroup pointer parameter per table; `bake`: UniformConstant data in the module. */
  relocation: RelocationStrategy;
  tables: { symbol: string; index: number }[];
  /** Static Workgroup memory per work-group, in bytes. */
  localBytes: number;
}

/** The layout of a SPIR-V artifact, or null when the artifact is not one (or has none). */
export function spirvLayout(a: Artifact): SPIRVLayout | null {
  return a.target === "spirv" && a.layout ? (a.layout as SPIRVLayout) : null;
}

/** The layout's schema (read back from caches and images), made with the caller's valibot. */
export function spirvLayoutSchema(v: SchemaKit): GenericSchema {
  const count = v.pipe(v.number(), v.integer(), v.minValue(0));
  const int = v.pipe(v.number(), v.integer());
  return v.strictObject({
    args: v.array(v.strictObject({
      name: v.string(),
      role: v.picklist(["value", "buffer", "offset", "length", "state", "state-length", "table", "local", "local-length"]),
      index: int,
    })),
    relocation: v.picklist(["bake", "table"]),
    tables: v.array(v.strictObject({ symbol: v.string(), index: count })),
    localBytes: count,
  });
}
