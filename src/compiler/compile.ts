// The compile path of kernel(): parsing, lowering and the pipeline. kernel.ts imports this module
// only when a specialization is compiled, so a process that revives its kernels from a cache or
// an image never loads the front end, inference or any back end.

import { CompileError, quoteName } from "../errors.js";
import { annotationsNeedParser, applyOriginalAnnotations } from "../frontend/annotations.js";
import { loadTSParser } from "../frontend/ts-parser.js";
import { lowerFunction } from "../frontend/lower.js";
import { parseFunctionSource } from "../frontend/parse.js";
import { scopeEnvironment } from "../frontend/scope.js";
import { allNames } from "../infer/overlays.js";
import type { TypeName, UFunction } from "../frontend/uir.js";
import { parseTypeName, type Scalar, type Type } from "../ir/types.js";
import { compileModule, defaultInline, type CompilerConfig } from "./pipeline.js";
export { DUMP_STAGES } from "./job.js";
import type { Artifact, Target } from "../targets/target.js";
import type { CompileJob, CompileOptions, LoweredKernel } from "./job.js";
import { jsInfo } from "../targets/js/info.js";
import { wgslInfo } from "../targets/wgsl/info.js";
import { ptxInfo } from "../targets/ptx/info.js";
import { openclInfo } from "../targets/opencl/info.js";
import { spirvInfo } from "../targets/spirv/info.js";
import { llvmInfo } from "../targets/llvm/info.js";
import { provideScriptParser } from "../targets/js/read-back.js";
import { parseScript } from "../frontend/acorn.js";

// The check of fresh JavaScript output (and of any read back after this) parses with the
// compiler's own parser, in-process (targets/js/read-back.ts says why).
provideScriptParser(parseScript);

export type { LoweredKernel, CompileOptions } from "./job.js";

/** Parse and lower a kernel; scope names it resolves are recorded in `deps`. */
export async function lowerKernel(fn: Function, name: string, scope: Record<string, unknown> | undefined, types: Record<string, string> | undefined, callerFile: string | null, deps: Map<string, unknown>, rewritable?: ReadonlySet<string>): Promise<LoweredKernel> {
  // The TypeScript parser loads only for a kernel whose annotations are in a .ts file (ts-parser.ts).
  if (annotationsNeedParser(fn, callerFile)) await loadTSParser();
  const parsed = parseFunctionSource(fn, name);
  const env = scopeEnvironment(scope, { globals: allNames, callerFile, deps, rewritable });
  const ufn = lowerFunction(parsed.node, name, parsed.source, env);
  applyOriginalAnnotations(ufn, fn, callerFile);
  return declareParams(ufn, name, types);
}

/** A lowered kernel with its parameters' declared types: the `types` option's, else their annotations. */
export function declareParams(ufn: UFunction, name: string, types: Record<string, string> | undefined): LoweredKernel {
  const paramNames = ufn.params.map((p) => ufn.vars[p].name);
  const declaredByName = types ?? {};
  for (const n of Object.keys(declaredByName)) {
    if (!paramNames.includes(n)) throw CompileError.single("invalid-option", `types: '${n}' is not a parameter of kernel ${quoteName(name)} (parameters: ${paramNames.join(", ")})`);
  }
  const declared = paramNames.map((n, i) => {
    const t = declaredByName[n] ?? ufn.vars[ufn.params[i]].declared;
    if (t === undefined || t === null) return null;
    const parsedType = parseTypeName(t);
    if (!parsedType) throw CompileError.single("invalid-option", `types: '${n}' has unknown type '${t}' (use bool, i32, u32, f32, f64 or an array of them, e.g. f32[])`);
    return parsedType;
  });
  // Declared types become the parameters' declarations for inference as well.
  ufn.params.forEach((p, i) => { const d = declared[i]; if (d) ufn.vars[p].declared = typeNameOf(d); });
  return { ufn, paramNames, declared };
}


/**
 * Compile a lowered kernel's job through the pipeline, with the job's back end (loadTarget). Synchronous: what the compilation read (scope values, overlays, the runtime
 * library) is what the caller records right after it, with nothing run in between.
 */
export function compileLowered(src: LoweredKernel, job: CompileJob, target: Target, o: CompileOptions = {}): { artifact: Artifact; methodsUsed: string[]; inferenceReused: boolean } {
  const config: CompilerConfig = { target, optimize: o.optimize ?? true, inline: defaultInline, dump: o.dump };
  const { module, artifact, inferenceReused } = compileModule(src.ufn, job, config);
  return { artifact, methodsUsed: module.methodsUsed, inferenceReused };
}

/**
 * The back ends, loaded on a target's first compile. They belong to the compiler: the runtime-only
 * entry (runtime-only.ts), which has no compiler, never reaches them.
 */
const BACK_ENDS: Record<string, () => Promise<Target>> = {
  js: () => import("../targets/js/target.js").then((m) => ({ ...jsInfo, ...m.jsBackEnd })),
  wgsl: () => import("../targets/wgsl/target.js").then((m) => ({ ...wgslInfo, ...m.wgslBackEnd })),
  ptx: () => import("../targets/ptx/target.js").then((m) => ({ ...ptxInfo, ...m.ptxBackEnd })),
  opencl: () => import("../targets/opencl/target.js").then((m) => ({ ...openclInfo, ...m.openclBackEnd })),
  spirv: () => import("../targets/spirv/target.js").then((m) => ({ ...spirvInfo, ...m.spirvBackEnd })),
  llvm: () => import("../targets/llvm/target.js").then((m) => ({ ...llvmInfo, ...m.llvmBackEnd })),
};
const loadedBackEnds = new Map<string, Promise<Target>>();

/** A target's back end (loaded on first use), or undefined for a name that is not a target. */
export async function loadTarget(name: string): Promise<Target | undefined> {
  const load = Object.prototype.hasOwnProperty.call(BACK_ENDS, name) ? BACK_ENDS[name] : undefined;
  if (!load) return undefined;
  let t = loadedBackEnds.get(name);
  if (!t) { t = load(); loadedBackEnds.set(name, t); }
  return t;
}

export function typeNameOf(t: Type): TypeName {
  return (t.kind === "array" ? `${t.elem}[]` : (t as { scalar: Scalar }).scalar) as TypeName;
}
