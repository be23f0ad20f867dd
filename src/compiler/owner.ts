// Cache owners (DESIGN §4): everything compiled is stored and looked up per owner, a token made
// of what can change the output for the same source — gpuc's version and build, the target and its
// features, the back-end parameters, always-inline and the relocation strategy. Owners are plain
// data: equal after serialization and reload. The CPU (host) owner and each device owner differ
// in their target, so their entries never mix.

import { targetInfo } from "../targets/index.js";
import type { TargetFeatures } from "../targets/target.js";
import type { RelocationStrategy } from "../reloc/manifest.js";
import { GPUC_VERSION } from "../version.js";
import { GPUC_BUILD } from "../build-id.js";

export interface CacheOwner {
  readonly gpuc: string;
  readonly target: string;
  readonly arch: string | null;
  readonly fastMath: boolean;
  readonly maxThreads: readonly number[] | null;
  readonly requiredThreads: readonly number[] | null;
  readonly relocation: RelocationStrategy;
  readonly boundsCheck: boolean;
  readonly debugLevel: 0 | 1 | 2;
  /** The target inlines every helper (WGSL). */
  readonly alwaysInline: boolean;
}

/** The owner of a job: the target with its features (the relocation resolved to the target's default) and the kernel's parameters. */
export function cacheOwner(target: string, features: TargetFeatures, params: { boundsCheck: boolean; debugLevel: 0 | 1 | 2 }): CacheOwner {
  const info = targetInfo(target);
  return {
    gpuc: `${GPUC_VERSION}+${GPUC_BUILD}`, target,
    arch: features.arch ?? info?.arches?.[0] ?? null,
    fastMath: features.fastMath === true,
    maxThreads: features.maxThreads ? [...features.maxThreads] : null,
    requiredThreads: features.requiredThreads ? [...features.requiredThreads] : null,
    relocation: features.relocation ?? info?.relocations[0] ?? "bake",
    boundsCheck: params.boundsCheck, debugLevel: params.debugLevel,
    alwaysInline: info?.alwaysInline === true,
  };
}

const FIELDS: (keyof CacheOwner)[] = ["gpuc", "target", "arch", "fastMath", "maxThreads", "requiredThreads", "relocation", "boundsCheck", "debugLevel", "alwaysInline"];

/** A canonical text of an owner (fields in a fixed order): equal owners, equal keys. */
export function ownerKey(o: CacheOwner): string {
  return JSON.stringify(FIELDS.map((f) => o[f]));
}

/**
 * The owner runtime-library functions are compiled under: derived from the kernel's owner
 * (`parent`), with whether the output is being generated for a kernel image. Its entries live in
 * memory only: they never cross the precompilation boundary in either direction.
 */
export interface RuntimeCacheToken {
  readonly parent: string;
  readonly generating: boolean;
}

export function runtimeCacheToken(parent: CacheOwner, generating: boolean): RuntimeCacheToken {
  return { parent: ownerKey(parent), generating };
}
