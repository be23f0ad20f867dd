// Which code a launch of a kernel with a launch proof runs (ARCHITECTURE.md, "Checks a launch
// proves"): its variant without the checks the launch proves, or the kernel as compiled. Loaded
// with the first launch of such a kernel (kernel.ts), with the proof's evaluator.

import type { Grid } from "./devices/device.js";
import type { Artifact } from "./targets/target.js";
import type { Specialization } from "./specializer.js";
import { KernelError } from "./errors.js";
import { codeParameters } from "./ir/types.js";
import { provesLaunch } from "./ir/launch-proof.js";

/** Where the variant's specialization comes from: the kernel's table, a store, or a compile. */
export interface VariantSource {
  current(): Specialization | undefined;
  stored(): Promise<Specialization | null>;
  compile(): Promise<Specialization>;
}

/**
 * The kernel's variant for this launch, or null where the launch does not prove what it assumes,
 * or the variant is not to be had: it is compiled only where the kernel's own code was (a kernel
 * from an image or the disk cache takes its variant from there or runs as it is: a launch that
 * needed no compiler loads none). The variant runs only where its own record of what it assumed
 * is proven.
 */
export async function provenVariant(spec: Specialization, types: readonly string[], args: readonly unknown[], grid: Grid, from: VariantSource): Promise<Specialization | null> {
  const code = codeArguments(spec.artifact, types, args);
  if (!code) return null;
  const at = { args: code, threads: grid.threads, blocks: grid.blocks };
  const proven = (s: Specialization): boolean => !s.artifact.launchProof || (s.artifact.launchProof.assumed && provesLaunch(s.artifact.launchProof, at));
  const current = from.current();
  if (current) return proven(current) ? current : null;
  if (!provesLaunch(spec.artifact.launchProof!, at)) return null;
  let alt: Specialization | null;
  if (spec.origin !== "compiled") alt = await from.stored();
  else {
    try { alt = await from.compile(); }
    catch (e) { if (e instanceof KernelError && e.kind === "not-precompiled") return null; throw e; }
  }
  return alt && proven(alt) ? alt : null;
}

/** Whether a launch may run a variant (its record of what it assumed proven for the launch). */
export function runsVariant(v: Specialization, types: readonly string[], args: readonly unknown[], grid: Grid): boolean {
  const code = codeArguments(v.artifact, types, args);
  return code !== null && (!v.artifact.launchProof || (v.artifact.launchProof.assumed && provesLaunch(v.artifact.launchProof, { args: code, threads: grid.threads, blocks: grid.blocks })));
}

/** Per artifact: how many code parameters each argument is (negative: an object's leaves, which a proof never reads). */
const codeParameterCounts = new WeakMap<Artifact, number[]>();

/**
 * A launch's arguments as the code's parameters, which a launch proof indexes: an absent optional
 * array has none, an object or an array of objects one per leaf — given as unknown here, so that
 * an obligation reading one is never proven.
 */
function codeArguments(artifact: Artifact, types: readonly string[], args: readonly unknown[]): readonly unknown[] | null {
  let counts = codeParameterCounts.get(artifact);
  if (!counts) codeParameterCounts.set(artifact, (counts = types.map((t) => (t.startsWith("{") ? -codeParameters(t) : codeParameters(t)))));
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
