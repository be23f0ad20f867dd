// The target interface: a record of defaults and hooks, called in pipeline order by pipeline.ts.

import type { Diagnostic } from "../errors.js";
import type { Loc, Module } from "../ir/module.js";
import { typeName } from "../ir/types.js";
import type { MethodTable } from "../infer/methods.js";
import { runtimeTables, type RuntimeTables } from "../runtime/host.js";
import type { InlineOptions } from "../ir/passes/inline.js";
import type { WGSLLayout } from "./wgsl/emit.js";
import type { PTXLayout } from "./ptx/emit.js";
import { freezeManifest, type RelocationManifest, type RelocationSite, type RelocationStrategy } from "../reloc/manifest.js";

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
}

/** A stable text of the features, for cache keys ("" when none is set). */
export function featuresKey(f: TargetFeatures): string {
  const parts: string[] = [];
  if (f.arch) parts.push(f.arch);
  if (f.fastMath) parts.push("fastmath");
  if (f.maxThreads) parts.push(`maxntid=${f.maxThreads.join("x")}`);
  if (f.requiredThreads) parts.push(`reqntid=${f.requiredThreads.join("x")}`);
  if (f.relocation) parts.push(`reloc=${f.relocation}`);
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
  /** Kernel parameters in order, with their specialized types ("f32", "f32[]"). */
  params: { name: string; type: string }[];
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
  /** How a loader binds parameters, the kernel state and tables (binding-based targets: WGSL). */
  layout?: WGSLLayout;
  /** The entry's parameter list, patched globals and shared memory (PTX). */
  ptx?: PTXLayout;
}

export interface Target {
  name: string;
  description: string;
  /** The architectures `features.arch` may name (the first is the default); none for targets without. */
  arches?: readonly string[];
  /** Relocation strategies the back end implements; the first is the default. */
  relocations: readonly RelocationStrategy[];
  /** Whether the target has a call stack (recursion is a CompileError otherwise). */
  allowRecursion: boolean;
  /** Target-specific method implementations, consulted before the global table. */
  overlay: MethodTable | null;
  /** Inlining the target needs, overriding the compiler's defaults (e.g. everything, for WGSL). */
  inline?: InlineOptions;
  /** Target limits and unsupported features, as user-facing diagnostics (empty when the module fits). */
  validate(m: Module, features: TargetFeatures): Diagnostic[];
  /** Validated IR → artifact. Throws only for a documented target limit. */
  emit(m: Module, features: TargetFeatures): Artifact;
}

/** The sites of a module's constant tables, with each one's name in the code. */
export function tableSites(m: Module, symbol: (i: number) => string): RelocationSite[] {
  return m.globals.map((g, i) => ({ name: g.name, kind: "table", elem: g.type.elem, length: g.value.length, symbol: symbol(i) }));
}

/**
 * The fields every target's artifact has, from the emitted code: parameters, this session's table
 * values, runtime tables, and the frozen manifest (the module's globals are already in name
 * order: see reloc/sites.ts). `symbol(i)` names table i in the code; `bindings` what the loader binds.
 */
export function artifactOf(
  target: string, m: Module, features: TargetFeatures,
  emitted: { code: string | Uint8Array; entry: string; locations: Loc[] },
  bindings: string[], symbol: (i: number) => string,
): Artifact {
  const kernel = m.functions[m.entry];
  return {
    target,
    kernel: kernel.name,
    entry: emitted.entry,
    code: emitted.code,
    params: kernel.params.map((p, i) => ({ name: kernel.paramNames[i], type: typeName(kernel.locals[p].type) })),
    globals: m.globals.map((g) => ({ name: g.name, type: typeName(g.type), value: g.value })),
    bindings,
    runtime: runtimeTables(m, emitted.locations, m.debugLevel),
    manifest: freezeManifest(features.relocation!, tableSites(m, symbol), emitted.code),
  };
}
