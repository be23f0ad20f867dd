// How a loader binds a PTX artifact (its `layout`): the entry's parameters, the constant tables
// and static shared memory. Light: the CUDA device and the read-back check import it.

import type { RelocationStrategy } from "../../reloc/manifest.js";
import type { Artifact } from "../target.js";

export interface PTXEntryParam {
  /** The .param name in the entry's signature. */
  name: string;
  /** A kernel parameter's value or an array's pointer, an array's length, the kernel state or its length. */
  role: "value" | "pointer" | "length" | "state" | "state-length" | "tables";
  /** The kernel parameter's index (-1 for the state). */
  index: number;
  type: "u64" | "u32" | "s32" | "f32" | "f64";
}

export interface PTXLayout {
  arch: string;
  /** The entry's parameters, in order, with where each value comes from. */
  params: PTXEntryParam[];
  /** The relocation strategy of the constant tables. */
  relocation: RelocationStrategy;
  /**
   * The constant tables in manifest order: `patch` — the .u64 global to fill with the table's
   * address; `table` — `slot <i>` of the pointer table (the entry parameter of role "tables");
   * `bake` — the initialized global holding the data.
   */
  tables: { symbol: string; index: number }[];
  /** Static shared memory per block, in bytes. */
  sharedBytes: number;
  /** For each line of the code (0-based), the id of the source location it came from, or -1. */
  lines: number[];
}

/** The layout of a PTX artifact, or null when the artifact is not one (or has none). */
export const ptxLayout = (a: Artifact): PTXLayout | null => (a.target === "ptx" && a.layout ? (a.layout as PTXLayout) : null);
