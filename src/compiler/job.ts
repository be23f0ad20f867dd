// The compile job (DESIGN §4): everything that selects the code of one specialization, decided
// once — the kernel, its argument types, the target with its features (the relocation strategy
// resolved to the target's default and checked against what it implements), the back-end
// parameters, whether the code goes into an image — with its owner and keys derived from it
// here and nowhere else. The kernel object builds a job per specialization; the specializer
// files it in its own table (`key`) and in the stores (`owner`); the pipeline compiles it.
// Light: no compiler is loaded to make one.

import { CompileError } from "../errors.js";
import { targetInfo } from "../targets/index.js";
import { featuresKey, type TargetFeatures } from "../targets/target.js";
import { cacheOwner, ownerKey, type CacheOwner } from "./owner.js";

export interface CompileJob {
  /** The kernel's name (messages, the entry). */
  readonly kernel: string;
  readonly target: string;
  /** The target's variant; `relocation` is always set (the target's default when not asked for). */
  readonly features: Readonly<TargetFeatures>;
  /** Argument type names in parameter order ("f32", "f32[]"). */
  readonly types: readonly string[];
  readonly boundsCheck: boolean;
  readonly debugLevel: 0 | 1 | 2;
  /** The code goes into a kernel image (runtime functions are then compiled apart: DESIGN §4). */
  readonly forImage: boolean;
  /** What the caches file the code under (owner.ts). */
  readonly owner: CacheOwner;
  /** The job's key in a kernel's own table of specializations: target, features and types. */
  readonly key: string;
}

export interface JobRequest {
  kernel: string;
  target: string;
  features: TargetFeatures;
  types: readonly string[];
  boundsCheck: boolean;
  debugLevel: 0 | 1 | 2;
  forImage?: boolean;
}

/** The job of a request. A target that is not one, or a relocation strategy it lacks, is a CompileError. */
export function compileJob(r: JobRequest): CompileJob {
  const info = targetInfo(r.target);
  if (!info) throw CompileError.single("unknown-target", `unknown target '${r.target}'`);
  const relocation = r.features.relocation ?? info.relocations[0];
  if (!info.relocations.includes(relocation))
    throw CompileError.single("relocation", `the ${info.name} target does not implement the '${relocation}' relocation strategy (it has ${info.relocations.join(", ")})`);
  const features: TargetFeatures = { ...r.features, relocation };
  const owner = cacheOwner(r.target, features, { boundsCheck: r.boundsCheck, debugLevel: r.debugLevel });
  return {
    kernel: r.kernel, target: r.target, features, types: [...r.types], boundsCheck: r.boundsCheck, debugLevel: r.debugLevel,
    forImage: r.forImage === true, owner, key: jobKey(r.target, r.features, r.types.join(",")),
  };
}

/**
 * A specialization's key in a kernel's table, from what a launch has at hand (the launch path
 * looks it up before it makes a job). Features as given: a job asked with the target's default
 * relocation spelled out is another key for the same code, which only costs a table entry.
 */
export function jobKey(target: string, features: TargetFeatures, typesKey: string): string {
  return `${target}|${featuresKey(features)}|${typesKey}`;
}

export { ownerKey };
