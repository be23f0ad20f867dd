// The target interface. A target is one folder, targets/<name>/, and one line of the registry
// (targets/index.ts): its info.ts (a TargetInfo: what the rest of gpuc knows of it without loading
// it), its back end (a Target: hooks called in pipeline order by compiler/pipeline.ts, loaded on
// the first compile), and its read-back checks (a ReadBack: the artifact layout's schema and the
// code check of artifacts read back from a cache or an image, loaded on the first such check
// through cache/read-backs.ts, whose line for the target a bundle without the checks leaves out).
// The layout of an artifact (how a loader binds the code) is the target's own data: the shared
// files here never name a target, and a device narrows the layout of the target it runs.

import type { Diagnostic } from "../errors.js";
import type { Module } from "../ir/module.js";
import type { Elem } from "../ir/types.js";
import type { SizeExpr } from "../ir/size.js";
import type { LaunchProof } from "../ir/launch-proof.js";
import type { MethodTable } from "../infer/methods.js";
import type { RuntimeTables } from "../runtime/tables.js";
import type { InlineOptions } from "../ir/passes/inline.js";
import type { LegalTable } from "../ir/passes/legalize.js";
import type { GenericSchema } from "valibot";
import type { RelocationManifest, RelocationStrategy } from "../reloc/manifest.js";

/** What selects a variant of a target (part of every cache key). */
export interface TargetFeatures {
  /** The GPU architecture (PTX: "sm_75" (default), "sm_80", "sm_86", "sm_89", "sm_90"). */
  arch?: string;
  /** Faster, less exact f32 division and square root (PTX: div.approx, sqrt.approx). */
  fastMath?: boolean;
  /** Launch bounds: the most threads per block a launch will use (PTX `.maxntid`). */
  maxThreads?: [number, number, number];
  /** Launch bounds: the exact block size every launch uses (PTX `.reqntid`). */
  requiredThreads?: [number, number, number];
  /** How the code reaches constant tables (default: the target's). */
  relocation?: RelocationStrategy;
  /** The js target only: code that reports data races, uninitialized shared reads and divergence to the CPU device's sanitizer. */
  sanitize?: boolean;
  /**
   * The variant of a kernel without the checks and loop tests outside its loops that a launch
   * decides, which a launch runs where it has proven them (ir/passes/launch-proofs.ts); its
   * artifact's `launchProof` says what it assumes. Targets whose info has `launchProofs`.
   */
  provenChecks?: boolean;
}

/** A stable text of the features, for cache keys ("" when none is set). */
export function featuresKey(f: TargetFeatures): string {
  const parts: string[] = [];
  if (f.arch) parts.push(f.arch);
  if (f.fastMath) parts.push("fastmath");
  if (f.maxThreads) parts.push(`maxntid=${f.maxThreads.join("x")}`);
  if (f.requiredThreads) parts.push(`reqntid=${f.requiredThreads.join("x")}`);
  if (f.relocation) parts.push(`reloc=${f.relocation}`);
  if (f.sanitize) parts.push("sanitize");
  if (f.provenChecks) parts.push("proven");
  return parts.join(",");
}

/** What compiling a kernel for a target produces. */
export interface Artifact {
  target: string;
  /** The kernel's name. */
  kernel: string;
  /** The entry symbol in `code`. */
  entry: string;
  /** Target code: text, or bytes for binary targets. */
  code: string | Uint8Array;
  /**
   * Kernel parameters in order, with their specialized types ("f32", "f32[]"); `readOnly` on an
   * array the code never writes (a loader that copies arrays in and back copies it back not);
   * `fills` on one whose every element a launch writes before it could read it, where its threads
   * along x cover the array (ir/module-info.ts, filledParams: a loader need not copy it in; a
   * launch that ends early leaves the elements it did not write as they were) — on the targets
   * whose loaders use it (js: the CPU device's WebAssembly), the others never work it out.
   */
  params: { name: string; type: string; readOnly?: true; fills?: true }[];
  /**
   * This session's value of each relocation site (constant tables), in the manifest's order. A
   * persisted artifact leaves them behind; its loader resolves the sites by name instead.
   */
  globals: { name: string; type: string; value: ArrayLike<number> }[];
  /** The relocation sites of the code, how they are lowered, and the hash of the code (frozen). */
  manifest: RelocationManifest;
  /** Every name the loader binds, in order: the globals, then target-specific runtime hooks. */
  bindings: string[];
  /** Messages, locations and print formats the host needs to report exceptions and prints. */
  runtime: RuntimeTables;
  /**
   * The shared arrays sized at launch (`shared(Float32Array, n)`), in the module's order: what a
   * loader evaluates with each launch's arguments (ir/size.ts; devices/device.ts, sharedSizes).
   */
  dynamicShared?: { name: string; elem: Elem; size: SizeExpr }[];
  /**
   * The checks and loop tests that a launch's values decide (ir/launch-proof.ts): on the code as
   * compiled, what its variant without them assumes (`assumed: false`); on that variant, what a
   * launch must prove before it runs it (`assumed: true`).
   */
  launchProof?: LaunchProof;
  /**
   * How a loader binds the code (JSON data, the target's own type: WGSL's bindings and params
   * block, PTX's entry parameters and tables), for targets whose info says `layout: true`.
   */
  layout?: TargetLayout;
}

/** An artifact's layout: a plain JSON record whose shape each target defines (and its ReadBack validates). */
export type TargetLayout = object;

/** The most blocks per dimension any launch has (CUDA's grid limits; every device refuses more: devices/device.ts). */
export const MAX_BLOCKS: readonly [number, number, number] = [0x7fffffff, 65535, 65535];

/**
 * The kernel language's block limits, CUDA's, on every target: at most 1024 threads a block, at
 * most 1024 × 1024 × 64 per dimension (launch configurations, launch bounds and the compiler's
 * value ranges all read them here).
 */
export const BLOCK_LIMITS = { threads: 1024, dims: [1024, 1024, 64] as const } as const;

/**
 * A target's own limits, as data (its info.ts), checked against a module before emission by one
 * validator (targets/limits.ts): what every device of the target has, so that code that passes
 * runs on any of them.
 */
export interface TargetLimits {
  /** Static shared memory per block in bytes (narrow arrays padded to 4-byte words), and why that much. */
  readonly sharedBytes?: { readonly max: number; readonly why: string };
  /**
   * The kernel entry's parameters in bytes, as the target lays them out: scalars of 4 bytes, 8-byte
   * scalars and arrays aligned to 8, each array `array` bytes, the kernel state `state` bytes.
   */
  readonly paramBytes?: { readonly max: number; readonly array: number; readonly state: number };
}

/** What the rest of gpuc knows of a target without loading it (targets/<name>/info.ts). */

export interface TargetInfo {
  readonly name: string;
  /** The architectures `features.arch` may name, oldest first (the first is the default); none for targets without. */
  readonly arches?: readonly string[];
  /** Code made for an architecture runs on every newer one (PTX: the driver compiles it for the GPU). */
  readonly forwardCompatible?: boolean;
  /** Relocation strategies the back end implements; the first is the default. */
  readonly relocations: readonly RelocationStrategy[];
  /** The back end needs every helper inlined (part of the cache owner). */
  readonly alwaysInline?: boolean;
  /** Whether its artifacts carry a layout (they must then, and others must not). */
  readonly layout: boolean;
  /**
   * The most blocks a launch of its code has per dimension, where below MAX_BLOCKS (every device
   * that runs the target refuses more; the compiler's value ranges rely on it: ir/passes/ranges.ts).
   */
  readonly maxBlocks?: readonly [number, number, number];
  /**
   * Its loaders make code per block size anyway (WebGPU: a pipeline per workgroup size), so a
   * launch compiles the kernel for its own block size (launch bounds `requiredThreads`: blockDim
   * constant, checks against it proven) unless the kernel declares launch bounds of its own.
   */
  readonly specializeThreads?: boolean;
  /**
   * A launch that proves a kernel's checks outside its loops (ir/launch-proof.ts) runs its variant
   * without them: where each check and exception site costs the driver's compile (WebGPU).
   */
  readonly launchProofs?: boolean;
  /** What every device of the target has (targets/limits.ts checks modules against it). */
  readonly limits: TargetLimits;
}

/** An artifact's code, as the code check sees it. */
export interface CheckedArtifact {
  target: string;
  code: string | Uint8Array;
  entry: string;
  bindings?: readonly string[];
}

/**
 * The valibot functions a layout schema may use. Passed in, not imported: the cache's schema
 * module carries valibot tree-shaken to what it uses (scripts/bundle-node.mjs), which a namespace
 * handed out whole would defeat. A layout that needs another function adds it here and there.
 */
export type SchemaKit = Pick<typeof import("valibot"), "array" | "boolean" | "integer" | "literal" | "minValue" | "number" | "optional" | "picklist" | "pipe" | "strictObject" | "string" | "tuple">;

/** The checks of a target's artifacts read back from a cache or an image (ARCHITECTURE.md, "Caches"). */
export interface ReadBack {
  /**
   * The schema of the target's layout, made with the schema functions the caller passes (the
   * cache's schema module, which carries valibot); null when the target has no layout.
   */
  layoutSchema: ((v: SchemaKit) => GenericSchema) | null;
  /**
   * Why the code refers to something it neither defines nor is given (a call of an undefined
   * function, an indirect call, a free name), or cannot be read; null when it does not. Fresh
   * output is checked the same way (poison in it is an internal error).
   */
  checkCode(a: CheckedArtifact): string | null | Promise<string | null>;
}

/** A target loaded: its info and its back end. */
export interface Target extends TargetInfo, BackEnd {}

/** A back end: the hooks the pipeline calls (targets/<name>/target.ts; info.ts joins it to the info). */
export interface BackEnd {
  /** Whether the target has a call stack (recursion is a CompileError otherwise). */
  allowRecursion: boolean;
  /** Target-specific method implementations, consulted before the global table. */
  overlay: MethodTable | null;
  /** Inlining the target needs, overriding the compiler's defaults (e.g. everything, for WGSL). */
  inline?: InlineOptions;
  /**
   * What the target lacks (f64 on WGSL, float atomics…), as user-facing diagnostics (empty when
   * the module fits); its limits are data (TargetInfo.limits), checked apart.
   */
  validate(m: Module, features: TargetFeatures): Diagnostic[];
  /** What the target's instructions mean per op (its legal.ts): the pipeline legalizes the module with it before `emit`. */
  legal: LegalTable;
  /** Validated, legalized IR → artifact. Throws only for a documented target limit. */
  emit(m: Module, features: TargetFeatures): Artifact;
}
