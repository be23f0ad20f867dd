// What the rest of gpuc needs to know of each target without loading its back end: its name,
// architectures and relocation strategies (the first is the default). The target records
// (targets/*/target.ts) take these; `kernel.ts` checks options against them.

import type { RelocationStrategy } from "../reloc/manifest.js";

/** Architectures gpuc emits PTX for (the CUDA 13 ptxas accepts sm_75 and newer). */
export const PTX_ARCHES = ["sm_75", "sm_80", "sm_86", "sm_89", "sm_90"] as const;

export interface TargetInfo {
  readonly arches?: readonly string[];
  readonly relocations: readonly RelocationStrategy[];
  /** The back end needs every helper inlined (WGSL functions cannot take storage arrays). */
  readonly alwaysInline?: boolean;
}

export const TARGET_INFO: Readonly<Record<string, TargetInfo>> = {
  js: { relocations: ["bake", "table"] },
  wgsl: { relocations: ["table"], alwaysInline: true },
  ptx: { arches: PTX_ARCHES, relocations: ["patch", "table", "bake"] },
};

export const TARGET_NAMES: readonly string[] = Object.keys(TARGET_INFO);
