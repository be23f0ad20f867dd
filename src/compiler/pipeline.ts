// The compiler pipeline in one straight function: inference, passes, target validation,
// emission, with the IR validator between stages and a dump hook after each.

import { CompileError, InternalCompilerError, type Diagnostic } from "../errors.js";
import type { UFunction } from "../frontend/uir.js";
import { inferKernel } from "../infer/infer.js";
import { methodTableFor } from "../infer/overlays.js";
import { copyModule, walkStmts, type Module, type Stmt } from "../ir/module.js";
import { eliminateDeadCode } from "../ir/passes/dce.js";
import { foldConstants } from "../ir/passes/fold.js";
import { hoistBoundsChecks } from "../ir/passes/hoist-checks.js";
import { dropProvenChecks } from "../ir/passes/ranges.js";
import { containsBarrier, inlineCalls, type InlineOptions } from "../ir/passes/inline.js";
import { printModule } from "../ir/printer.js";
import { typeName, type Type } from "../ir/types.js";
import { InvalidIRError, validateModule } from "../ir/validate.js";
import { finalizeSites } from "../reloc/sites.js";
import { cacheOwner, ownerKey, runtimeCacheToken } from "./owner.js";
import { currentWorld } from "../registry.js";
import type { Artifact, Target, TargetFeatures } from "../targets/target.js";

/** Stages whose IR `--dump` can print, in pipeline order. */
export const DUMP_STAGES = ["infer", "inline", "fold", "dce"] as const;
export type DumpStage = (typeof DUMP_STAGES)[number];

export interface CompilerConfig {
  target: Target;
  /** The target's variant: architecture, fast math, launch bounds. */
  features: TargetFeatures;
  /** Check every array access (default true). */
  boundsCheck: boolean;
  /** 0: only that an exception happened; 1: message and location; 2: also the call chain. */
  debugLevel: 0 | 1 | 2;
  /** Run the optimization passes (inline, fold, dce). */
  optimize: boolean;
  inline: InlineOptions;
  /**
   * The output goes into a kernel image (`gpuc precompile`): runtime functions are then compiled
   * apart from this process's own (they never cross the precompilation boundary; DESIGN §4).
   * The caller knows (cache/image.ts); the pipeline sits below the caches. Default false.
   */
  forImage?: boolean;
  /** Called with the printed IR after each stage named in `dumpStages`. */
  dump?: { stages: ReadonlySet<DumpStage>; sink: (stage: DumpStage, text: string) => void };
}

export const defaultInline: InlineOptions = { always: false, maxStatements: 40 };

/** Inferred modules per kernel (its lowered function), by owner, argument types and world. */
const inferred = new WeakMap<UFunction, Map<string, Module>>();
/** How often inference was reused (for tests and diagnostics). */
export const inferenceStats = { hits: 0, misses: 0 };

export { globalMethods } from "../infer/overlays.js";

export function compileModule(kernel: UFunction, argTypes: Type[], config: CompilerConfig): { module: Module; artifact: Artifact } {
  const { target } = config;
  const methods = methodTableFor(target.name, target.overlay);
  const opts = { allowRecursion: target.allowRecursion };
  const checkpoint = (stage: DumpStage, m: Module): void => {
    try {
      validateModule(m, { ...opts, helperBarriers: stage === "infer" });
    } catch (e) {
      if (e instanceof InvalidIRError) throw new InternalCompilerError(`IR invalid after stage '${stage}':\n${e.message}\n${printModule(m)}`);
      throw e;
    }
    if (config.dump?.stages.has(stage)) config.dump.sink(stage, printModule(m));
  };

  const owner = cacheOwner(target.name, config.features, { boundsCheck: config.boundsCheck, debugLevel: config.debugLevel });
  const runtimeToken = JSON.stringify(runtimeCacheToken(owner, config.forImage === true));
  // Inference results per (owner, kernel method instance, world): a later compilation of the
  // same job (after a poisoned or stale artifact, or with dumps) starts from a copy.
  const key = `${ownerKey(owner)}|${argTypes.map(typeName).join(",")}|${currentWorld()}`;
  let byKey = inferred.get(kernel);
  if (!byKey) { byKey = new Map(); inferred.set(kernel, byKey); }
  let module: Module;
  const hit = byKey.get(key);
  if (hit) { module = copyModule(hit); inferenceStats.hits++; }
  else {
    module = inferKernel(kernel, argTypes, methods, { boundsCheck: config.boundsCheck, debugLevel: config.debugLevel, target: target.name, runtimeToken });
    byKey.set(key, copyModule(module));
    inferenceStats.misses++;
  }
  if (!target.allowRecursion) {
    const problems = recursionDiagnostics(module, target.name);
    if (problems.length) throw new CompileError(problems);
  }
  checkpoint("infer", module);
  // Helpers that contain a barrier are always inlined: barriers belong to the kernel's own control flow.
  inlineCalls(module, target.inline ?? (config.optimize ? config.inline : { always: false, maxStatements: 0 }));
  const stuck = module.functions.filter((f) => f.kind !== "kernel" && containsBarrier(f.body));
  if (stuck.length) throw new CompileError(stuck.map((f) => ({
    kind: "unsupported-syntax" as const, frames: [], location: f.loc ? f.loc.src.locate(f.loc.at) : null,
    message: `syncthreads() in '${f.name}', a helper that cannot be inlined into the kernel (it returns before its end, or recurses)`,
    hint: "restructure the helper so that its only return is its last statement",
  })));
  // Launch bounds that fix the block size make blockDim a constant (loops over it fold and unroll).
  if (config.features.requiredThreads) foldBlockDim(module, config.features.requiredThreads);
  if (config.optimize) {
    checkpoint("inline", module);
    foldConstants(module);
    checkpoint("fold", module);
    if (config.boundsCheck) {
      hoistBoundsChecks(module);
      foldConstants(module);
      // The block's size bounds the thread indices: the launch bounds, else the largest block.
      dropProvenChecks(module, config.features.requiredThreads ?? config.features.maxThreads ?? [1024, 1024, 64]);
    }
    eliminateDeadCode(module);
    checkpoint("dce", module);
  }
  finalizeSites(module);
  const relocation = config.features.relocation ?? target.relocations[0];
  if (!target.relocations.includes(relocation))
    throw CompileError.single("relocation", `the ${target.name} target does not implement the '${relocation}' relocation strategy (it has ${target.relocations.join(", ")})`);
  const features = { ...config.features, relocation };
  const problems = target.validate(module, features);
  if (problems.length) throw new CompileError(problems);
  try {
    return { module, artifact: target.emit(module, features) };
  } catch (e) {
    if (e instanceof InvalidIRError) throw new InternalCompilerError(`back end '${target.name}' rejected validated IR: ${e.message}`);
    throw e;
  }
}

/** With `requiredThreads`, every launch has this block size: blockDim.x/y/z are constants. */
function foldBlockDim(m: Module, dims: readonly number[]): void {
  const axis = { "blockDim.x": 0, "blockDim.y": 1, "blockDim.z": 2 } as Record<string, number>;
  for (const f of m.functions)
    f.exprs.forEach((e, h) => {
      if (e.k === "builtin" && e.name in axis) f.exprs[h] = { k: "const", value: dims[axis[e.name]], type: e.type, loc: e.loc };
    });
}

/** A call that closes a cycle in the call graph, on a target without a call stack. */
export function recursionDiagnostics(m: Module, target: string): Diagnostic[] {
  const out: Diagnostic[] = [];
  const state = new Map<number, "open" | "done">();
  const chain: { fn: number; site: Stmt | null }[] = [];
  const seen = new Set<string>();
  const visit = (h: number, site: Stmt | null): void => {
    if (state.get(h) === "done") return;
    if (state.get(h) === "open") {
      const names = [...chain.slice(chain.findIndex((c) => c.fn === h)).map((c) => m.functions[c.fn].name), m.functions[h].name];
      if (seen.has(names.join())) return; // one report per cycle
      seen.add(names.join());
      const loc = site?.loc ? site.loc.src.locate(site.loc.at) : null;
      out.push({ kind: "recursion", message: `recursion is not supported on target '${target}' (no call stack): ${names.map((n) => `'${n}'`).join(" calls ")}`, location: loc, frames: [],
        hint: "rewrite the recursion as a loop" });
      return;
    }
    state.set(h, "open");
    chain.push({ fn: h, site });
    walkStmts(m.functions[h].body, (s) => { if (s.k === "call") visit(s.fn, s); });
    chain.pop();
    state.set(h, "done");
  };
  visit(m.entry, null);
  return out;
}
