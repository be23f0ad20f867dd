// The compiler pipeline in one straight function: inference, passes, target validation,
// emission, with the IR validator between stages and a dump hook after each. It compiles a
// CompileJob (job.ts: the target, its features, the argument types, the owner — decided once
// by the caller) with the target's loaded back end.

import { CompileError, InternalCompilerError, type Diagnostic } from "../errors.js";
import type { UFunction } from "../frontend/uir.js";
import { inferKernel } from "../infer/infer.js";
import { methodTableFor } from "../infer/overlays.js";
import { InvalidIRError, copyModule, walkStmts, type Module, type Stmt } from "../ir/module.js";
import { eliminateDeadCode } from "../ir/passes/dce.js";
import { foldConstants } from "../ir/passes/fold.js";
import { hoistBoundsChecks } from "../ir/passes/hoist-checks.js";
import { launchProofs } from "../ir/passes/launch-proofs.js";
import type { LaunchProof } from "../ir/launch-proof.js";
import { legalize } from "../ir/passes/legalize.js";
import { addDoneGuards } from "../ir/passes/done-guards.js";
import { lazyReads } from "../ir/passes/lazy-reads.js";
import { zeroFillLoops } from "../ir/passes/zero-fill.js";
import { placeLaunchSizes } from "../ir/passes/launch-sizes.js";
import { copyAssignedParams } from "../ir/passes/param-copies.js";
import { closeBarrierRegions } from "../ir/passes/barrier-regions.js";
import { oneLaneSubgroups } from "../ir/passes/one-lane.js";
import { expandCasLoops } from "../ir/passes/cas-loops.js";
import { guardPartialShuffles } from "../ir/passes/partial-shuffles.js";
import { dropProvenChecks, foldDecidedTests } from "../ir/passes/ranges.js";
import { containsBarrier, inlineCalls, type InlineOptions } from "../ir/passes/inline.js";
import { printModule } from "../ir/printer.js";
import { parseTypeName, typeName } from "../ir/types.js";
import { validateModule } from "../ir/validate.js";
import { finalizeSites } from "../reloc/sites.js";
import { targetInfo } from "../targets/index.js";
import { limitDiagnostics } from "../targets/limits.js";
import { BLOCK_LIMITS, MAX_BLOCKS } from "../targets/target.js";
import type { CompileJob, DumpStage } from "./job.js";
import { inferenceOwner, ownerKey, runtimeCacheToken } from "./job.js";
import { currentWorld } from "../registry.js";
import type { Artifact, Target } from "../targets/target.js";

/** Stages whose IR `--dump` can print, in pipeline order. */
export { DUMP_STAGES, type DumpStage } from "./job.js";

/** How to compile a job: its target's back end, and options that do not change what the code means. */
export interface CompilerConfig {
  /** The back end of `job.target` (targets/index.ts, loadTarget). */
  target: Target;
  /** Run the optimization passes (inline, fold, dce). */
  optimize: boolean;
  inline: InlineOptions;
  /** Called with the printed IR after each stage named in `dumpStages`. */
  dump?: { stages: ReadonlySet<DumpStage>; sink: (stage: DumpStage, text: string) => void };
}

export const defaultInline: InlineOptions = { always: false, maxStatements: 40 };

/** Inferred modules per kernel (its lowered function), by owner, argument types and world. */
const inferred = new WeakMap<UFunction, Map<string, Module>>();

export { globalMethods } from "../infer/overlays.js";

export function compileModule(kernel: UFunction, job: CompileJob, config: CompilerConfig): { module: Module; artifact: Artifact; inferenceReused: boolean } {
  const { target } = config;
  const argTypes = job.types.map((t) => {
    const type = parseTypeName(t);
    if (!type) throw new InternalCompilerError(`compile job of '${job.kernel}': '${t}' is not a type`);
    return type;
  });
  const methods = methodTableFor(target.name, target.overlay);
  const opts = { allowRecursion: target.allowRecursion };
  // The IR is validated after inference and before emission; after every stage between them too
  // where GPUC_CHECK_IR=1 (the test suites set it): a pass that breaks an invariant is then named.
  const everyStage = checkEveryStage();
  const checkpoint = (stage: DumpStage, m: Module): void => {
    try {
      if (stage === "infer" || stage === "legalize" || everyStage) validateModule(m, { ...opts, helperBarriers: stage === "infer" });
    } catch (e) {
      if (e instanceof InvalidIRError) throw new InternalCompilerError(`IR invalid after stage '${stage}':\n${e.message}\n${printModule(m)}`);
      throw e;
    }
    if (config.dump?.stages.has(stage)) config.dump.sink(stage, printModule(m));
  };

  const owner = job.owner;
  const runtimeToken = JSON.stringify(runtimeCacheToken(owner, job.forImage));
  // Inference results per (owner, kernel method instance, world): a later compilation of the
  // same job (after a poisoned or stale artifact, or with dumps), of its variant or for a launch's
  // block size (the owner as inference reads it) starts from a copy.
  const key = `${ownerKey(inferenceOwner(owner))}|${argTypes.map(typeName).join(",")}|${currentWorld()}`;
  let byKey = inferred.get(kernel);
  if (!byKey) { byKey = new Map(); inferred.set(kernel, byKey); }
  let module: Module;
  const hit = byKey.get(key);
  if (hit) module = copyModule(hit);
  else {
    module = inferKernel(kernel, argTypes, methods, { boundsCheck: job.boundsCheck, debugLevel: job.debugLevel, target: target.name, runtimeToken });
    byKey.set(key, copyModule(module));
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
  const { features } = job;
  if (features.requiredThreads) foldBlockDim(module, features.requiredThreads);
  let proof: LaunchProof | null = null;
  if (config.optimize) {
    checkpoint("inline", module);
    foldConstants(module);
    checkpoint("fold", module);
    if (job.boundsCheck) {
      // The block's size bounds the thread indices: the launch bounds, else the largest block;
      // the target's largest grid bounds the block indices. Checks proven first: a loop whose
      // checks are all proven is not versioned for them.
      const ranges = dropProvenChecks(module, {
        threads: features.requiredThreads ?? features.maxThreads ?? BLOCK_LIMITS.dims,
        blocks: targetInfo(job.target)?.maxBlocks ?? MAX_BLOCKS,
        exactThreads: features.requiredThreads,
      });
      const versioned = hoistBoundsChecks(module);
      // What the launch decides (its variant without it: features.provenChecks).
      if (targetInfo(job.target)?.launchProofs) proof = launchProofs(module, versioned, features.provenChecks === true, job.types);
      // The versioned loops' tests, under the facts where they stand (n >= 1 under row < n).
      foldDecidedTests(module, ranges, versioned);
      foldConstants(module);
    }
    eliminateDeadCode(module);
    checkpoint("dce", module);
  }
  finalizeSites(module);
  const problems = [...limitDiagnostics(module, features, target), ...target.validate(module, features)];
  if (problems.length) throw new CompileError(problems);
  // What JS means, written out for the target: its back end then only spells ops.
  // (Guards of constant operands fold as legalize builds them: x / 3 needs none.)
  // (Before legalize, which gives the ops it writes JS's meaning; before the done guards, which
  // would hide a return among the traps.)
  if (target.legal.partialShuffles) guardPartialShuffles(module, target.legal.partialShuffles);
  if (target.legal.paramCopies) copyAssignedParams(module);
  if (target.legal.launchSizes) placeLaunchSizes(module);
  legalize(module, target.legal);
  if (target.legal.doneGuards) addDoneGuards(module, target.legal.doneGuards);
  if (target.legal.atomics) expandCasLoops(module, target.legal.atomics);
  if (target.legal.eagerSelects) lazyReads(module);
  if (target.legal.zeroFill) zeroFillLoops(module);
  if (target.legal.barrierRegions) closeBarrierRegions(module);
  if (target.legal.subgroups) oneLaneSubgroups(module);
  checkpoint("legalize", module);
  // A back end that needs every helper inlined (its info's alwaysInline) gets no other function.
  const left = owner.alwaysInline ? module.functions.find((g, i) => i !== module.entry && g.kind !== "runtime") : undefined;
  if (left) throw new InternalCompilerError(`the ${target.name} back end needs every helper inlined ('${left.name}' is not)`);
  try {
    const artifact = target.emit(module, features);
    if (proof) artifact.launchProof = proof;
    return { module, artifact, inferenceReused: hit !== undefined };
  } catch (e) {
    if (e instanceof InvalidIRError) throw new InternalCompilerError(`back end '${target.name}' rejected validated IR: ${e.message}`);
    throw e;
  }
}

/** Whether the IR is validated after every stage (GPUC_CHECK_IR=1), not only after inference and before emission. */
function checkEveryStage(): boolean {
  return (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env?.GPUC_CHECK_IR === "1";
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
function recursionDiagnostics(m: Module, target: string): Diagnostic[] {
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
