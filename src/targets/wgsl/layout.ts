// How a loader binds a WGSL artifact (its `layout`): the bindings of group 0, the fields of the
// params block (see emit.ts's head), and where the code names each array parameter's variable.
// Light: the WebGPU device and the read-back check import it.

import type { Artifact } from "../target.js";

interface WGSLBinding {
  binding: number;
  /** A uniform or storage buffer, or (the exception record) a write-only rgba32sint storage texture of two texels. */
  kind: "uniform" | "storage" | "texture";
  readOnly: boolean;
  /**
   * What is bound: the parameter block, the kernel state, a kernel parameter (by index), a
   * constant table (by index), the exception record (emit.ts, RECORD).
   */
  role: "params" | "state" | "param" | "table" | "record";
  index: number;
}

/**
 * Where the code declares and names the variable of one array parameter's binding, as offsets
 * into the code (the WebGPU device splices its variants there: devices/webgpu-variants.ts).
 */
export interface WGSLSites {
  binding: number;
  /** The declaration: its line, from `@group` to its `;` (start, end). */
  declaration: [number, number];
  /**
   * Each access `name[index]`, as a pair: where the name starts (the name is the declared one,
   * `[` right after it) and where the index ends (at its `]`). In the order of the names; an
   * access in another's index comes after it.
   */
  accesses: number[];
  /** Where the name starts wherever it is named other than in an access (none in gpuc's code today). */
  mentions: number[];
}

export interface WGSLLayout {
  bindings: WGSLBinding[];
  /**
   * Fields of the params block, in order (4 bytes each): scalar parameters by index, then array
   * lengths, then (`offset`) where each narrow array parameter starts in its binding, in elements
   * (8- and 16-bit elements are packed in u32 words, so a view may start inside a word).
   */
  fields: { name: string; type: "i32" | "u32" | "f32"; source: { param: number; length: boolean; offset?: true } }[];
  /** Override constants for the workgroup size. */
  workgroupSize: [string, string, string];
  /** For each line of the code (0-based), the id of the source location it came from, or -1. */
  lines: number[];
  /** Each array parameter's binding's sites, by binding (ascending). */
  sites: WGSLSites[];
}

/**
 * WGSL's exception record (emit.ts, RECORD): a write-only 1-D storage texture of this format and
 * width, bound where the layout has a binding of role `record`. Texel 0 is (code, location, a, b),
 * texel 1 (threadIdx packed as runtime/state.ts packs it, blockIdx x, y, z).
 */
export const RECORD_FORMAT = "rgba32sint", RECORD_TEXELS = 2;

/** The layout of a WGSL artifact, or null when the artifact is not one (or has none). */
export const wgslLayout = (a: Artifact): WGSLLayout | null => (a.target === "wgsl" && a.layout ? (a.layout as WGSLLayout) : null);

/** The override constant holding the length of the k-th shared array sized at launch (the WebGPU device sets it per launch). */
export function dynamicLength(k: number): string { return `gpuc_shared_length_${k}`; }
