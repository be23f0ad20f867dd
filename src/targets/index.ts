// The registry of targets: one line per target (its folder's info.ts). Light: importing it loads
// no back end (the compiler loads those: compiler/compile.ts, loadTarget).

import { jsInfo } from "./js/info.js";
import { ptxInfo } from "./ptx/info.js";
import { openclInfo } from "./opencl/info.js";
import { spirvInfo } from "./spirv/info.js";
import { wgslInfo } from "./wgsl/info.js";
import { llvmInfo } from "./llvm/info.js";
import type { TargetInfo } from "./target.js";

export const TARGETS: ReadonlyMap<string, TargetInfo> = new Map([
  jsInfo,
  wgslInfo,
  ptxInfo,
  openclInfo,
  spirvInfo,
  llvmInfo,
].map((t) => [t.name, t]));

export const TARGET_NAMES: readonly string[] = [...TARGETS.keys()];

/** A target's info, or undefined for a name that is not a target. */
export function targetInfo(name: string): TargetInfo | undefined {
  return TARGETS.get(name);
}

export type { Artifact, Target, TargetInfo } from "./target.js";
