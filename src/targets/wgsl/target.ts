// The WGSL target: compute shaders for WebGPU (Dawn in Node, navigator.gpu in browsers).

import type { Diagnostic } from "../../errors.js";
import type { Loc, Module, Stmt } from "../../ir/module.js";
import { walkStmts } from "../../ir/module.js";
import { typeName } from "../../ir/types.js";
import type { BackEnd, TargetFeatures } from "../target.js";
import { artifactOf } from "../artifact.js";
import { emitWGSL } from "./emit.js";
import { WGSL_LEGAL } from "./legal.js";

const where = (l: Loc | null) => (l ? l.src.locate(l.at) : null);

export const wgslBackEnd: BackEnd = {
  allowRecursion: false,
  overlay: null,
  // WGSL functions cannot take storage arrays: every helper is inlined. The runtime library stays
  // out of line: its only array is the kernel state, a module binding there.
  inline: { always: true, maxStatements: Infinity, multiReturn: true },
  legal: WGSL_LEGAL,
  validate(m: Module): Diagnostic[] {
    const out: Diagnostic[] = [];
    for (const f of m.functions) {
      // f64: WGSL has no 64-bit floats. Report the first value of that type, where it is.
      const local = f.locals.find((l) => l.type.kind === "scalar" && l.type.scalar === "f64" || (l.type.kind === "array" && l.type.elem === "f64"));
      const expr = f.exprs.find((e) => e.loc && ((e.type.kind === "scalar" && e.type.scalar === "f64") || (e.type.kind === "array" && e.type.elem === "f64")));
      if (local || expr) {
        out.push({
          kind: "unsupported-type", frames: [], location: where(expr?.loc ?? f.loc),
          message: `${local ? `'${local.name}' is ${typeName(local.type)}` : "an f64 value"}: the wgsl target has no f64 (WebGPU shaders have 32-bit floats only)`,
          hint: "use Float32Array and f32 values, or run the kernel on the CPU device",
        });
        break;
      }
      let fence: Extract<Stmt, { k: "fence" }> | undefined, warpSync: Stmt | undefined;
      walkStmts(f.body, (s) => { if (s.k === "fence") fence ??= s; if (s.k === "subgroup" && s.op === "barrier") warpSync ??= s; });
      if (warpSync)
        out.push({
          kind: "unsupported-feature", frames: [], location: where(warpSync.loc),
          message: "subgroupBarrier() is not available on the wgsl target (WGSL has no subgroup barrier)",
          hint: "it is on the ptx, opencl and spirv targets and the CPU device; on WebGPU, syncthreads() makes the whole block meet",
        });
      if (fence)
        out.push({
          kind: "unsupported-feature", frames: [], location: where(fence.loc),
          message: `${fence.scope === "device" ? "threadfence()" : "threadfenceBlock()"} is not available on the wgsl target (WGSL has no memory fence: its barriers make every thread of the workgroup wait)`,
          hint: "it is on the ptx, opencl and spirv targets and the CPU device; on WebGPU, syncthreads() orders the block's memory when every thread reaches it",
        });
    }
    return out;
  },
  emit(m: Module, features: TargetFeatures) {
    const out = emitWGSL(m);
    const tableBinding = (i: number) => `binding ${out.layout.bindings.find((b) => b.role === "table" && b.index === i)!.binding}`;
    return artifactOf("wgsl", m, features, out, [], tableBinding);
  },
};
