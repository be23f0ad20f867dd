// The compile job (ARCHITECTURE.md, "Caches"): everything that selects the code of one
// specialization, decided once — the kernel, its argument types, the target with its features (the
// relocation strategy resolved to the target's default and checked against what it implements), the
// back-end parameters, whether the code goes into an image — with its owner and keys derived from
// it here and nowhere else. The kernel object builds a job per specialization; the specializer
// files it in its own table (`key`) and in the stores (`owner`); the pipeline compiles it. Light:
// no compiler is loaded to make one.
//
// Cache owners (ARCHITECTURE.md, "Caches"): everything compiled is stored and looked up per owner,
// a token made of what can change the output for the same source — gpuc's version and build, the
// target and its features, the back-end parameters, always-inline and the relocation strategy.
// Owners are plain data: equal after serialization and reload. The CPU (host) owner and each device
// owner differ in their target, so their entries never mix.

import { CompileError, quoteName } from "../errors.js";
import { describeConfig } from "../typed-arrays.js";
import { targetInfo } from "../targets/index.js";
import { BLOCK_LIMITS, featuresKey, type Artifact, type Target, type TargetFeatures } from "../targets/target.js";
import type { Type } from "../ir/types.js";
import type { TypeName, UFunction } from "../frontend/uir.js";
import type { RelocationStrategy } from "../reloc/manifest.js";
import { GPUC_VERSION } from "../version.js";
import { GPUC_BUILD } from "../build-id.js";

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
  /**
   * The code goes into a kernel image (runtime functions are then compiled apart: ARCHITECTURE.md,
   * "Caches").
   */
  readonly forImage: boolean;
  /** What the caches file the code under (cacheOwner, below). */
  readonly owner: CacheOwner;
  /** The job's key in a kernel's own table of specializations: target, features and types. */
  readonly key: string;
  /**
   * Where the job's block size came from the launch (TargetInfo.specializeThreads): the owner of
   * the same kernel's code for any block size, which a stored entry may serve instead (never
   * compiled for this job: a compile makes the job's own code).
   */
  readonly general?: CacheOwner;
}

interface JobRequest {
  kernel: string;
  target: string;
  features: TargetFeatures;
  types: readonly string[];
  boundsCheck: boolean;
  debugLevel: 0 | 1 | 2;
  forImage?: boolean;
  /** The block size in `features.requiredThreads` is the launch's, not the kernel's (see CompileJob.general). */
  launchThreads?: boolean;
}

/** The job of a request. A target that is not one, or a relocation strategy it lacks, is a CompileError. */
export function compileJob(r: JobRequest): CompileJob {
  const info = targetInfo(r.target);
  if (!info) throw CompileError.single("unknown-target", `unknown target '${r.target}'`);
  const relocation = r.features.relocation ?? info.relocations[0];
  if (!info.relocations.includes(relocation))
    throw CompileError.single("relocation", `the ${info.name} target does not implement the '${relocation}' relocation strategy (it has ${info.relocations.join(", ")})`);
  const features: TargetFeatures = { ...r.features, relocation };
  const params = { boundsCheck: r.boundsCheck, debugLevel: r.debugLevel };
  const owner = cacheOwner(r.target, features, params);
  const job: CompileJob = {
    kernel: r.kernel, target: r.target, features, types: [...r.types], boundsCheck: r.boundsCheck, debugLevel: r.debugLevel,
    forImage: r.forImage === true, owner, key: jobKey(r.target, r.features, r.types.join(",")),
  };
  return r.launchThreads ? { ...job, general: cacheOwner(r.target, { ...features, requiredThreads: undefined }, params) } : job;
}

/**
 * A specialization's key in a kernel's table, from what a launch has at hand (the launch path
 * looks it up before it makes a job). Features as given: a job asked with the target's default
 * relocation spelled out is another key for the same code, which only costs a table entry.
 */
function jobKey(target: string, features: TargetFeatures, typesKey: string): string {
  return jobKeyPrefix(target, features) + typesKey;
}

/** The part of a job's key that the target and its features make (a launch keeps it per device). */
export function jobKeyPrefix(target: string, features: TargetFeatures): string {
  return `${target}|${featuresKey(features)}|`;
}

// ---- owners ------------------------------------------------------------------------------------

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
  /** The code reports to the CPU device's sanitizer (the js target's `sanitize` feature). */
  readonly sanitize: boolean;
  /** The variant without the checks its launches prove (ir/passes/launch-proofs.ts). */
  readonly provenChecks: boolean;
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
    sanitize: features.sanitize === true,
    provenChecks: features.provenChecks === true,
  };
}

const FIELDS: (keyof CacheOwner)[] = ["gpuc", "target", "arch", "fastMath", "maxThreads", "requiredThreads", "relocation", "boundsCheck", "debugLevel", "alwaysInline", "sanitize", "provenChecks"];

/**
 * The architectures whose code a device of architecture `arch` runs, newest first: `arch`
 * itself, then, on a target whose code is forward-compatible (TargetInfo.forwardCompatible: PTX,
 * which the driver compiles for the GPU it runs on), every older architecture the target has.
 * Stored code (an image made for sm_75) is looked up in this order, so a device uses the newest
 * stored code it can run before compiling for its own architecture.
 */
export function runnableArches(target: string, arch: string | null): (string | null)[] {
  const info = targetInfo(target);
  if (arch === null || !info?.arches || !info.forwardCompatible) return [arch];
  const at = info.arches.indexOf(arch);
  return at < 0 ? [arch] : [arch, ...info.arches.slice(0, at).reverse()];
}

/** Of the architectures some stored code was made for, the one a device of `deviceArch` uses (see runnableArches), or null. */
export function pickArch(target: string, available: readonly string[], deviceArch: string): string | null {
  return (runnableArches(target, deviceArch).find((a) => a !== null && available.includes(a)) as string | undefined) ?? null;
}

/** A canonical text of an owner (fields in a fixed order): equal owners, equal keys. */
export function ownerKey(o: CacheOwner): string {
  return JSON.stringify(FIELDS.map((f) => o[f]));
}

/**
 * The part of an owner that inference reads (compiler/pipeline.ts): the owner without the fields
 * that only passes after it read — the launch bounds (blockDim folded, checks proven against the
 * block's size) and `provenChecks` (the launch-proofs pass). A kernel's variant, and its code for
 * a launch's block size, start from the inference of its code for any block size.
 */
export function inferenceOwner(o: CacheOwner): CacheOwner {
  return o.maxThreads === null && o.requiredThreads === null && !o.provenChecks ? o : { ...o, maxThreads: null, requiredThreads: null, provenChecks: false };
}

/**
 * The owner runtime-library functions are compiled under: derived from the kernel's owner
 * (`parent`, the part of it inference reads), with whether the output is being generated for a
 * kernel image. Its entries live in memory only: they never cross the precompilation boundary in
 * either direction.
 */
export interface RuntimeCacheToken {
  readonly parent: string;
  readonly generating: boolean;
}

export function runtimeCacheToken(parent: CacheOwner, generating: boolean): RuntimeCacheToken {
  return { parent: ownerKey(inferenceOwner(parent)), generating };
}

// ---- the compiler as the runtime sees it -------------------------------------------------------

/** Stages whose IR `--dump` / compile({ dump }) prints. */
export const DUMP_STAGES = ["infer", "inline", "fold", "dce", "legalize"] as const;
export type DumpStage = (typeof DUMP_STAGES)[number];

/** The parsed and lowered kernel. */
export interface LoweredKernel {
  ufn: UFunction;
  paramNames: string[];
  /** Declared type of each parameter (types option, then TS annotation), or null. */
  declared: (Type | null)[];
}

/** Options of one compilation that do not change what its code means (the job says that). */
export interface CompileOptions {
  optimize?: boolean;
  dump?: { stages: ReadonlySet<DumpStage>; sink: (stage: DumpStage, text: string) => void };
}

/**
 * What kernel.ts and specializer.ts use of the compiler (compiler/compile.ts), which the package's
 * entry loads on the first compile and the runtime-only entry never has: declared here so that
 * the runtime reaches the compiler only through this interface, not its module.
 */
export interface CompilerModule {
  lowerKernel(fn: Function, name: string, scope: Record<string, unknown> | undefined, types: Record<string, string> | undefined, tsFile: string | null, deps: Map<string, unknown>, rewritable?: ReadonlySet<string>): Promise<LoweredKernel>;
  compileLowered(src: LoweredKernel, job: CompileJob, target: Target, o?: CompileOptions): { artifact: Artifact; methodsUsed: string[]; inferenceReused: boolean };
  typeNameOf(t: Type): TypeName;
  loadTarget(name: string): Promise<Target | undefined>;
}

/** A launch-bounds option as three positive integer dimensions. */
export function dims3(v: number | readonly number[], what: string, kernel: string): [number, number, number] {
  let list: unknown[] = [];
  try { list = typeof v === "number" ? [v] : Array.isArray(v) ? [...v] : []; } catch { /* a revoked Proxy: refused below */ }
  if (list.length < 1 || list.length > 3 || list.some((x) => !Number.isInteger(x) || (x as number) < 1) || (list as number[]).reduce((a, b) => a * b, 1) > BLOCK_LIMITS.threads)
    throw CompileError.single("invalid-option", `kernel ${quoteName(kernel)}: ${what} must be 1 to 3 positive integers with a product of at most ${BLOCK_LIMITS.threads}, got ${describeConfig(v)}`);
  return [list[0] as number, (list[1] as number) ?? 1, (list[2] as number) ?? 1];
}
