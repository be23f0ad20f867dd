// compile()'s options (kernel.ts): checked, each mistake an invalid-option or unknown-target
// CompileError; argument types given by name; the copy of an artifact compile() returns. Loaded
// with the first compile() call, so that a program that only launches its kernels (gpuc/runtime
// in a page) never reads them.

import { CompileError, quoteName, unknownOption } from "./errors.js";
import { describeArgument, describeConfig } from "./typed-arrays.js";
import { parseTypeName, typeName as irTypeName, type Scalar, type Type } from "./ir/types.js";
import type { Artifact, TargetFeatures, TargetInfo } from "./targets/target.js";
import type { HostArray } from "./typed-arrays.js";
import { TARGET_NAMES, targetInfo } from "./targets/index.js";
import { RELOCATION_STRATEGIES } from "./reloc/manifest.js";
import { DUMP_STAGES, dims3, type DumpStage } from "./compiler/job.js";
import type { Signature } from "./cache/entry.js";

export interface CompileOptions {
  target: string;
  /** The target's variant, e.g. `{ arch: "sm_90" }` for PTX. */
  features?: TargetFeatures;
  /** Example arguments to specialize on… */
  args?: unknown[];
  /** …or their types, in parameter order (["f32", "f32[]"]) or by name ({ a: "f32" }). */
  types?: string[] | Record<string, string>;
  /** Print the IR after these stages. */
  dump?: DumpStage[];
  /** Where dumps go (default: stderr). */
  dumpSink?: (stage: DumpStage, text: string) => void;
  /** Run inlining, folding and dead-code elimination (default true). */
  optimize?: boolean;
}

/** The target compile() names, or an unknown-target error; then its other options checked. */
export function compileTarget(opts: CompileOptions): TargetInfo {
  const info = typeof opts.target === "string" ? targetInfo(opts.target) : undefined;
  if (!info)
    throw CompileError.single("unknown-target", `unknown target ${typeof opts.target === "string" ? quoteName(opts.target) : `(${describeArgument(opts.target)})`} (available: ${TARGET_NAMES.join(", ")})`);
  checkCompileOptions(opts);
  return info;
}

/** compile()'s options beyond the target: each of the right type, or an invalid-option error. */
function checkCompileOptions(o: CompileOptions): void {
  const bad = (what: string) => CompileError.single("invalid-option", `compile(): ${what}`);
  if (o.args !== undefined && !Array.isArray(o.args)) throw bad(`args must be an array of example arguments, got ${describeArgument(o.args)}`);
  if (o.dump !== undefined && (!Array.isArray(o.dump) || o.dump.some((d) => typeof d !== "string"))) throw bad(`dump must be an array of stage names, got ${describeConfig(o.dump)}`);
  if (o.dumpSink !== undefined && typeof o.dumpSink !== "function") throw bad(`dumpSink must be a function, got ${describeArgument(o.dumpSink)}`);
  if (o.optimize !== undefined && typeof o.optimize !== "boolean") throw bad(`optimize must be true or false, got ${describeArgument(o.optimize)}`);
  const f = o.features;
  if (f === undefined) return;
  if (typeof f !== "object" || f === null || Array.isArray(f)) throw bad(`features must be an object ({ ${FEATURES.join(", ")} }), got ${describeArgument(f)}`);
  const unknown = unknownOption(f, FEATURES, "feature");
  if (unknown) throw bad(`features: ${unknown}`);
  if (f.arch !== undefined && typeof f.arch !== "string") throw bad(`features.arch must be an architecture's name, got ${describeArgument(f.arch)}`);
  if (f.fastMath !== undefined && typeof f.fastMath !== "boolean") throw bad(`features.fastMath must be true or false, got ${describeArgument(f.fastMath)}`);
  if (f.sanitize !== undefined && typeof f.sanitize !== "boolean") throw bad(`features.sanitize must be true or false, got ${describeArgument(f.sanitize)}`);
  if (f.provenChecks !== undefined && typeof f.provenChecks !== "boolean") throw bad(`features.provenChecks must be true or false, got ${describeArgument(f.provenChecks)}`);
  if (f.relocation !== undefined && !RELOCATION_STRATEGIES.includes(f.relocation)) throw bad(`features.relocation must be one of ${RELOCATION_STRATEGIES.join(", ")}, got ${describeConfig(f.relocation)}`);
  // (Given as the kernel option is, a number or 1 to 3 dimensions; a job holds all three.)
  for (const key of ["maxThreads", "requiredThreads"] as const) if (f[key] !== undefined) f[key] = dims3(f[key]!, `features.${key}`, "compile()");
}

/** The fields of `features` (TargetFeatures). (compile() copied the object: its keys can be read.) */
const FEATURES = ["arch", "fastMath", "maxThreads", "requiredThreads", "relocation", "sanitize", "provenChecks"];

/** The architecture compile() names is one of the target's; `sanitize` is the js target's alone, `provenChecks` WGSL's. */
export function checkArch(opts: CompileOptions, info: TargetInfo): void {
  if (opts.features?.sanitize && opts.target !== "js")
    throw CompileError.single("invalid-option", `compile(): features.sanitize is the js target's (the CPU device's sanitizer runs it), not target '${opts.target}'s: compile for 'js', or launch on device("cpu", { sanitize: true })`);
  if (opts.features?.provenChecks && !info.launchProofs)
    throw CompileError.single("invalid-option", `compile(): features.provenChecks is for targets whose launches prove checks (wgsl), not target '${opts.target}'`);
  if (opts.features?.arch !== undefined && !info.arches?.includes(opts.features.arch))
    throw CompileError.single("unknown-target", `${quoteName(String(opts.features.arch))} is not an architecture of target '${opts.target}'${info.arches ? ` (available: ${info.arches.join(", ")})` : ""}`);
}

/** The stages compile() is told to dump after are stages of the pipeline. */
export function checkDumpStages(dump: readonly string[] | undefined): void {
  const unknown = (dump ?? []).find((d) => !(DUMP_STAGES as readonly string[]).includes(d));
  if (unknown !== undefined) throw CompileError.single("invalid-option", `compile(): dump stages are ${DUMP_STAGES.join(", ")}, got ${describeArgument(unknown)}`);
}

/** compile()'s `types`, in parameter order or by parameter name (the declared type where one is not named), as type names. */
export function typesFromNames(types: string[] | Record<string, string>, sig: Signature, kernel: string): string[] {
  if (typeof types !== "object" || types === null)
    throw CompileError.single("invalid-option", `compile(): types must be an array of type names (in parameter order) or an object of them by parameter name, got ${describeArgument(types)}`);
  const names: unknown[] = Array.isArray(types) ? types : sig.paramNames.map((n, i) => types[n] ?? sig.declared[i] ?? undefined);
  if (names.length !== sig.paramNames.length)
    throw CompileError.single("arity", `kernel ${quoteName(kernel)} takes ${sig.paramNames.length} parameters (${sig.paramNames.join(", ")}), got ${names.length} types`);
  return names.map((n, i) => {
    const t = typeof n === "string" ? parseTypeName(n) : null;
    if (!t) throw CompileError.single("invalid-option", `parameter '${sig.paramNames[i]}' of ${quoteName(kernel)} needs a type (bool, i32, u32, f32, f64, an array such as f32[], an object such as { x: f32 }, an array of objects such as { x: f32 }[], or null for an absent optional array)${n === undefined ? "" : typeof n === "string" ? `, got ${quoteName(n)}` : `, got ${describeArgument(n)}`}`);
    return typeName(t);
  });
}

function typeName(t: Type): string {
  return t.kind === "array" ? `${t.elem}[]` : t.kind === "null" ? (t.undef ? "undefined" : "null") : t.kind === "structs" || t.kind === "agg" ? irTypeName(t) : (t as { scalar: Scalar }).scalar;
}

/**
 * What compile() hands out: a copy of the specialization's artifact, which the kernel goes on
 * launching from and the disk cache may not have stored yet. Artifacts are values: changing the
 * copy (its code, entry, parameters, tables, layout) changes no later launch or compile. Typed
 * arrays cannot be frozen, so it is a copy; the manifest is frozen already and shared.
 */
export function artifactCopy(a: Artifact): Artifact {
  const out: Artifact = {
    ...a, code: typeof a.code === "string" ? a.code : a.code.slice(), params: a.params.map((p) => ({ ...p })),
    globals: a.globals.map((g) => ({ ...g, value: (g.value as HostArray).slice() })), bindings: [...a.bindings], runtime: a.runtime.copy(),
  };
  if (a.layout) out.layout = copyData(a.layout);
  if (a.dynamicShared) out.dynamicShared = copyData(a.dynamicShared);
  if (a.launchProof) out.launchProof = copyData(a.launchProof);
  return out;
}

/**
 * A deep copy of plain data: objects, arrays, typed arrays and primitives, as a layout is (the
 * cache's schemas read layouts back as such data). Several times cheaper than structuredClone for
 * a compile's small objects.
 */
function copyData<T>(x: T): T {
  if (Array.isArray(x)) return x.map(copyData) as T;
  if (ArrayBuffer.isView(x)) return (x as unknown as Uint8Array).slice() as T;
  if (typeof x !== "object" || x === null) return x;
  const o: Record<string, unknown> = {};
  for (const k of Object.keys(x)) o[k] = copyData((x as Record<string, unknown>)[k]);
  return o as T;
}
