// Which code a launch of a kernel with a launch proof runs (ARCHITECTURE.md, "Checks a launch
// proves"): its variant without the checks the launch proves, or the kernel as compiled. Loaded
// with the first launch of such a kernel (kernel.ts), with the proof's evaluator.

import type { Grid } from "./devices/device.js";
import type { Artifact, TargetFeatures } from "./targets/target.js";
import type { Specialization, Specializer } from "./specializer.js";
import { jobKeyPrefix, type CompileJob } from "./compiler/job.js";
import { KernelError } from "./errors.js";
import { codeParameterCounts } from "./ir/types.js";
import { provesLaunch } from "./ir/launch-proof.js";

/** A launch's features on a device and the key prefix of its jobs (kernel.ts), with those of the kernel's variant once a launch asked for it. */
export interface DeviceFeatures { features: TargetFeatures; keyPrefix: string; proven?: DeviceFeatures }

/** The variant's features and key prefix beside the kernel's on a device (kept with them). */
function variantFeatures(plain: DeviceFeatures, target: string): DeviceFeatures {
  if (!plain.proven) {
    const features: TargetFeatures = { ...plain.features, provenChecks: true };
    plain.proven = { features, keyPrefix: jobKeyPrefix(target, features) };
  }
  return plain.proven;
}

/**
 * The variant an earlier launch proved, where this launch proves it too (it needs no kernel code
 * then: after a table unfolded under it, only the variant was compiled again), or null.
 */
export function currentVariant(specs: Specializer, plain: DeviceFeatures, types: readonly string[], args: readonly unknown[], grid: Grid): { spec: Specialization; features: TargetFeatures } | null {
  const variant = plain.proven;
  const v = variant && specs.current(variant.keyPrefix + types.join(","));
  return v && runs(v, types, args, grid) ? { spec: v, features: variant.features } : null;
}

/**
 * The kernel's variant for this launch, or null where the kernel is to run as compiled. Given the
 * kernel's specialization (`spec`): where the launch proves its record, the variant — compiled
 * only where the kernel's own code was (a kernel from an image or the disk cache takes its variant
 * from there or runs as it is: a launch that needed no compiler loads none). Given none (nothing of
 * the kernel's in its table): the kernel's stored code, as above, where a store holds it; else the
 * variant first — revived where a store holds it, else compiled — which needs no proof of the
 * kernel's to run, so a first launch compiles once, not twice; null where it does not run (the
 * caller compiles the kernel). A variant runs only where its own record of what it assumed is
 * proven (ARCHITECTURE.md, "Checks a launch proves").
 */
export async function provenVariant(specs: Specializer, plain: DeviceFeatures, target: string, types: readonly string[], spec: Specialization | null, args: readonly unknown[], grid: Grid, job: (f: TargetFeatures) => CompileJob): Promise<{ spec: Specialization; features: TargetFeatures } | null> {
  const variant = variantFeatures(plain, target);
  const current = specs.current(variant.keyPrefix + types.join(","));
  if (current) return runs(current, types, args, grid) ? { spec: current, features: variant.features } : null;
  spec ??= await specs.get(job(plain.features), true);
  if (spec && (spec.artifact.launchProof?.assumed !== false || !proves(spec.artifact, types, args, grid))) return null;
  let alt: Specialization | null;
  try { alt = !spec || spec.origin === "compiled" ? await specs.get(job(variant.features)) : await specs.get(job(variant.features), true); }
  catch (e) { if (e instanceof KernelError && e.kind === "not-precompiled") return null; throw e; }
  return alt && runs(alt, types, args, grid) ? { spec: alt, features: variant.features } : null;
}

/** Whether a launch may run a variant: its record of what it assumed proven for the launch (a variant without one is the kernel as compiled). */
function runs(v: Specialization, types: readonly string[], args: readonly unknown[], grid: Grid): boolean {
  return !v.artifact.launchProof || (v.artifact.launchProof.assumed && proves(v.artifact, types, args, grid));
}

/** Whether this launch proves an artifact's launch proof (its arguments as the code's parameters). */
function proves(a: Artifact, types: readonly string[], args: readonly unknown[], grid: Grid): boolean {
  const code = codeArguments(a, types, args);
  return code !== null && provesLaunch(a.launchProof!, { args: code, threads: grid.threads, blocks: grid.blocks });
}

/** Per artifact: how many code parameters each argument is (negative: an object's leaves, which a proof never reads). */
const countsOf = new WeakMap<Artifact, number[]>();

/**
 * A launch's arguments as the code's parameters, which a launch proof indexes: an absent optional
 * array has none, an object or an array of objects one per leaf — given as unknown here, so that
 * an obligation reading one is never proven.
 */
function codeArguments(artifact: Artifact, types: readonly string[], args: readonly unknown[]): readonly unknown[] | null {
  let counts = countsOf.get(artifact);
  if (!counts) countsOf.set(artifact, (counts = codeParameterCounts(types)));
  if (counts.length !== args.length) return null;
  let out: unknown[] | null = null;
  counts.forEach((c, i) => {
    if (c !== 1 && !out) out = args.slice(0, i);
    if (!out) return;
    if (c === 1) out.push(args[i]);
    else for (let j = 0; j < -c; j++) out.push(undefined);
  });
  const code = out ?? args;
  return code.length === artifact.params.length ? code : null;
}
