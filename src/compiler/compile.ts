// The compile path of kernel(): parsing, lowering and the pipeline. kernel.ts imports this module
// only when a specialization is compiled, so a process that revives its kernels from a cache or
// an image never loads the front end, inference or any back end.

import { CompileError, quoteName } from "../errors.js";
import { applyOriginalAnnotations } from "../frontend/annotations.js";
import { lowerFunction } from "../frontend/lower.js";
import { parseFunctionSource } from "../frontend/parse.js";
import { scopeEnvironment } from "../frontend/scope.js";
import { allNames } from "../infer/overlays.js";
import type { TypeName, UFunction } from "../frontend/uir.js";
import { parseTypeName, type Scalar, type Type } from "../ir/types.js";
import { compileModule, defaultInline, type CompilerConfig, type DumpStage } from "./pipeline.js";
import type { Artifact, Target } from "../targets/target.js";
import type { CompileJob } from "./job.js";

/** The parsed and lowered kernel. */
export interface LoweredKernel {
  ufn: UFunction;
  paramNames: string[];
  /** Declared type of each parameter (types option, then TS annotation), or null. */
  declared: (Type | null)[];
}

/** Parse and lower a kernel; scope names it resolves are recorded in `deps`. */
export function lowerKernel(fn: Function, name: string, scope: Record<string, unknown> | undefined, types: Record<string, string> | undefined, callerFile: string | null, deps: Map<string, unknown>, rewritable?: ReadonlySet<string>): LoweredKernel {
  const parsed = parseFunctionSource(fn, name);
  const env = scopeEnvironment(scope, { globals: allNames, callerFile, deps, rewritable });
  const ufn = lowerFunction(parsed.node, name, parsed.source, env);
  applyOriginalAnnotations(ufn, fn, callerFile);
  const paramNames = ufn.params.map((p) => ufn.vars[p].name);
  const declaredByName = types ?? {};
  for (const n of Object.keys(declaredByName)) {
    if (!paramNames.includes(n)) throw CompileError.single("invalid-argument", `types: '${n}' is not a parameter of kernel ${quoteName(name)} (parameters: ${paramNames.join(", ")})`);
  }
  const declared = paramNames.map((n, i) => {
    const t = declaredByName[n] ?? ufn.vars[ufn.params[i]].declared;
    if (t === undefined || t === null) return null;
    const parsedType = parseTypeName(t);
    if (!parsedType) throw CompileError.single("invalid-argument", `types: '${n}' has unknown type '${t}' (use bool, i32, u32, f32, f64 or an array of them, e.g. f32[])`);
    return parsedType;
  });
  // Declared types become the parameters' declarations for inference as well.
  ufn.params.forEach((p, i) => { const d = declared[i]; if (d) ufn.vars[p].declared = typeNameOf(d); });
  return { ufn, paramNames, declared };
}

/** Options of one compilation that do not change what its code means (the job says that). */
export interface CompileOptions {
  optimize?: boolean;
  dump?: { stages: ReadonlySet<DumpStage>; sink: (stage: DumpStage, text: string) => void };
}

/**
 * Compile a lowered kernel's job through the pipeline, with the job's back end (targets/index.ts,
 * loadTarget). Synchronous: what the compilation read (scope values, overlays, the runtime
 * library) is what the caller records right after it, with nothing run in between.
 */
export function compileLowered(src: LoweredKernel, job: CompileJob, target: Target, o: CompileOptions = {}): { artifact: Artifact; methodsUsed: string[] } {
  const config: CompilerConfig = { target, optimize: o.optimize ?? true, inline: defaultInline, dump: o.dump };
  const { module, artifact } = compileModule(src.ufn, job, config);
  return { artifact, methodsUsed: module.methodsUsed };
}

export function typeNameOf(t: Type): TypeName {
  return (t.kind === "array" ? `${t.elem}[]` : (t as { scalar: Scalar }).scalar) as TypeName;
}
