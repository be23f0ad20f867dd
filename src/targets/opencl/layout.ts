// How a loader binds an OpenCL C artifact (its `layout`): the kernel's arguments in order, the
// constant tables, the build options and where each line of the code came from. Light: the
// OpenCL device and the read-back check import it.

import type { GenericSchema } from "valibot";
import type { RelocationStrategy } from "../../reloc/manifest.js";
import type { Artifact, SchemaKit } from "../target.js";

export interface OpenCLArg {
  /** The argument's name in the kernel's signature. */
  name: string;
  /**
   * What the loader passes: a kernel parameter's value (`value`), an array parameter's buffer
   * (`buffer`), the element offset of the array's first element in that buffer (`offset`: a
   * view passes its base's buffer), its length (`length`); the kernel state and its length in
   * words (`state`, `state-length`); a constant table's buffer (`table`, by manifest index); a
   * shared array sized at launch (`local`: `__local` memory of the launch's size, by index among
   * those arrays) and its length (`local-length`).
   */
  role: "value" | "buffer" | "offset" | "length" | "state" | "state-length" | "table" | "local" | "local-length";
  /** The kernel parameter's index (`value`, `buffer`, `offset`, `length`), table or dynamic shared array index; -1 for the state. */
  index: number;
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
export function openclLayout(a: Artifact): OpenCLLayout | null {
  return a.target === "opencl" && a.layout ? (a.layout as OpenCLLayout) : null;
}

/** The layout's schema (read back from caches and images), made with the caller's valibot. */
export function openclLayoutSchema(v: SchemaKit): GenericSchema {
  const count = v.pipe(v.number(), v.integer(), v.minValue(0));
  const int = v.pipe(v.number(), v.integer());
  return v.strictObject({
    args: v.array(v.strictObject({
      name: v.string(),
      role: v.picklist(["value", "buffer", "offset", "length", "state", "state-length", "table", "local", "local-length"]),
      index: int,
      type: v.picklist(["int", "uint", "float", "double", "pointer", "local"]),
    })),
    relocation: v.picklist(["bake", "table"]),
    tables: v.array(v.strictObject({ symbol: v.string(), index: count })),
    localBytes: count,
    conditionalBarriers: v.boolean(),
    buildOptions: v.picklist(["", "-cl-fp32-correctly-rounded-divide-sqrt"]),
    lines: v.array(int),
  });
}
