// How a loader binds an OpenCL C artifact (its `layout`): the kernel's arguments in order, the
// constant tables, the build options and where each line of the code came from. Light: the
// OpenCL device and the read-back check import it.

import type { GenericSchema } from "valibot";
import type { RelocationStrategy } from "../../reloc/manifest.js";
import type { Artifact, SchemaKit } from "../target.js";
import { layoutOf, schemaParts, type KernelArg } from "../layout-kit.js";

export interface OpenCLArg extends KernelArg {
  /** The argument's C type as the loader writes it (`buffer`, `state`, `table`: a pointer; `local`: its element bytes follow from the artifact). */
  type: "int" | "uint" | "float" | "double" | "pointer" | "local";
}

export interface OpenCLLayout {
  /** The kernel's arguments, in order. */
  args: OpenCLArg[];
  /** The relocation strategy of the constant tables (`table`: kernel arguments; `bake`: `__constant` arrays in the code). */
  relocation: RelocationStrategy;
  /** The constant tables in manifest order: the argument (`table`) or the `__constant` array (`bake`) that holds each. */
  tables: { symbol: string; index: number }[];
  /** Static `__local` memory per work-group, in bytes. */
  localBytes: number;
  /** Options for clBuildProgram (correctly rounded f32 division and square root unless fastMath). */
  buildOptions: string;
  /**
   * Whether a barrier is inside an `if` or a `switch` (on a value the block's threads share):
   * PoCL 3.1's optimizer miscompiles some such kernels (wrong values, no error: found by the
   * fuzzer, test/opencl.test.ts), so the OpenCL device builds them without its optimizations there.
   */
  conditionalBarriers: boolean;
  /** For each line of the code (0-based), the id of the source location it came from, or -1. */
  lines: number[];
}

/** The layout of an OpenCL artifact, or null when the artifact is not one (or has none). */
export const openclLayout = (a: Artifact) => layoutOf<OpenCLLayout>(a, "opencl");

/** The layout's schema (read back from caches and images), made with the caller's valibot. */
export function openclLayoutSchema(v: SchemaKit): GenericSchema {
  const { count, lines, tables, args } = schemaParts(v);
  return v.strictObject({
    args: args({ type: v.picklist(["int", "uint", "float", "double", "pointer", "local"]) }),
    relocation: v.picklist(["bake", "table"]),
    tables,
    localBytes: count,
    conditionalBarriers: v.boolean(),
    buildOptions: v.picklist(["", "-cl-fp32-correctly-rounded-divide-sqrt"]),
    lines,
  });
}
