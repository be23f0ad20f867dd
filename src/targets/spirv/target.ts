// The SPIR-V target: binary SPIR-V modules for OpenCL drivers that take IL (OpenCL 2.1+, oneAPI).

import type { Diagnostic } from "../../errors.js";
import type { Loc, Module } from "../../ir/module.js";
import { someStmt } from "../../ir/module-info.js";
import type { BackEnd, TargetFeatures } from "../target.js";
import { artifactOf } from "../artifact.js";
import { emitSPIRV } from "./emit.js";
import { SPIRV_LEGAL } from "./legal.js";

const where = (l: Loc | null) => (l ? l.src.locate(l.at) : null);

export const spirvBackEnd: BackEnd = {
  allowRecursion: false,
  overlay: null,
  inline: { always: true, maxStatements: Infinity, multiReturn: true },
  legal: SPIRV_LEGAL,
  validate(m: Module): Diagnostic[] {
    for (const f of m.functions) {
      const sub = f.exprs.find((e) => e.k === "builtin" && (e.name === "subgroupSize" || e.name === "subgroupLaneId"));
      let at: Loc | null = sub?.loc ?? null;
      if (!sub && !someStmt(f.body, (s) => { if (s.k === "subgroup") at = s.loc; return s.k === "subgroup"; })) continue;
      return [{ kind: "unsupported-feature", frames: [], location: where(at), message: "subgroup operations are not available on the spirv target (gpuc's SPIR-V is OpenCL 1.2's model, without subgroups)" }];
    }
    return [];
  },
  emit(m: Module, features: TargetFeatures) {
    const out = emitSPIRV(m, features);
    return artifactOf("spirv", m, features, out, [], (i) => out.layout.tables[i].symbol);
  },
};
