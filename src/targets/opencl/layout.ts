// How a loader binds an OpenCL C artifact (its `layout`): the kernel's arguments in order, the
// constant tables, the build options and where each line of the code came from. Light: the
// OpenCL device and the read-back check import it.

import type { RelocationStrategy } from "../../reloc/manifest.js";
import type { Artifact } from "../target.js";
import type { KernelArg } from "../layout-kit.js";

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
export const openclLayout = (a: Artifact): OpenCLLayout | null => (a.target === "opencl" && a.layout ? (a.layout as OpenCLLayout) : null);
