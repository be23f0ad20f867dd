// The compiler pipeline in one straight function: inference, passes, target validation,
// emission, with the IR validator between stages and a dump hook after each.

import { CompileError, InternalCompilerError } from "./errors.js";
import type { UFunction } from "./frontend/uir.js";
import { inferKernel } from "./infer/infer.js";
import { methodTableFor } from "./infer/overlays.js";
import type { Module } from "./ir/module.js";
import { eliminateDeadCode } from "./ir/passes/dce.js";
import { foldConstants } from "./ir/passes/fold.js";
import { inlineCalls, type InlineOptions } from "./ir/passes/inline.js";
import { printModule } from "./ir/printer.js";
import type { Type } from "./ir/types.js";
import { InvalidIRError, validateModule } from "./ir/validate.js";
import type { Artifact, Target } from "./targets/target.js";

/** Stages whose IR `--dump` can print, in pipeline order. */
export const DUMP_STAGES = ["infer", "inline", "fold", "dce"] as const;
export type DumpStage = (typeof DUMP_STAGES)[number];

export interface CompilerConfig {
  target: Target;
  /** Check every array access (default true). */
  boundsCheck: boolean;
  /** 0: only that an exception happened; 1: message and location; 2: also the call chain. */
  debugLevel: 0 | 1 | 2;
  /** Run the optimization passes (inline, fold, dce). */
  optimize: boolean;
  inline: InlineOptions;
  /** Called with the printed IR after each stage named in `dumpStages`. */
  dump?: { stages: ReadonlySet<DumpStage>; sink: (stage: DumpStage, text: string) => void };
}

export const defaultInline: InlineOptions = { always: false, maxStatements: 40 };

export { globalMethods } from "./infer/overlays.js";

export function compileModule(kernel: UFunction, argTypes: Type[], config: CompilerConfig): { module: Module; artifact: Artifact } {
  const { target } = config;
  const methods = methodTableFor(target.name, target.overlay);
  const opts = { allowRecursion: target.allowRecursion };
  const checkpoint = (stage: DumpStage, m: Module): void => {
    try {
      validateModule(m, opts);
    } catch (e) {
      if (e instanceof InvalidIRError) throw new InternalCompilerError(`IR invalid after stage '${stage}':\n${e.message}\n${printModule(m)}`);
      throw e;
    }
    if (config.dump?.stages.has(stage)) config.dump.sink(stage, printModule(m));
  };

  const module = inferKernel(kernel, argTypes, methods, { boundsCheck: config.boundsCheck, debugLevel: config.debugLevel, target: target.name });
  checkpoint("infer", module);
  // Helpers that contain a barrier are always inlined: barriers belong to the kernel's own control flow.
  inlineCalls(module, config.optimize ? config.inline : { always: false, maxStatements: 0 });
  if (config.optimize) {
    checkpoint("inline", module);
    foldConstants(module);
    checkpoint("fold", module);
    eliminateDeadCode(module);
    checkpoint("dce", module);
  }
  const problems = target.validate(module);
  if (problems.length) throw new CompileError(problems);
  try {
    return { module, artifact: target.emit(module) };
  } catch (e) {
    if (e instanceof InvalidIRError) throw new InternalCompilerError(`back end '${target.name}' rejected validated IR: ${e.message}`);
    throw e;
  }
}
