// WGSL subgroup operations with the `subgroups` feature's builtins: reductions, votes, ballots, and
// shuffles with JS's meaning at lanes outside the subgroup.

import { InternalCompilerError } from "../../errors.js";
import type { Stmt } from "../../ir/module.js";
import { scalarOf } from "../../ir/types.js";
import type { ShaderContext } from "./context.js";
import type { Expressions } from "./expressions.js";

export class Subgroups {
  constructor(private readonly ctx: ShaderContext, private readonly expressions: Expressions) {}

  /**
   * A subgroup operation with the `subgroups` feature's builtins. WGSL leaves a shuffle from a lane
   * past the subgroup undefined: the lane is computed in range and the reader's own value chosen
   * where JS's meaning (ir/module.ts SubgroupOp) says so; every lane still takes part in the one
   * subgroupShuffle. bool values travel as u32.
   */
  subgroup(s: Extract<Stmt, { k: "subgroup" }>, d: number): void {
    const ctx = this.ctx;
    ctx.usesSubgroups = true;
    const out = ctx.names[s.result];
    const t = scalarOf(ctx.f.exprs[s.args[0]].type);
    const v = this.expressions.expr(s.args[0]);
    const reduce: Record<string, string> = { add: "subgroupAdd", min: "subgroupMin", max: "subgroupMax", any: "subgroupAny", all: "subgroupAll" };
    if (s.op in reduce) { ctx.line(d, `${out} = ${reduce[s.op]}(${v});`); return; }
    if (s.op === "ballot") { ctx.line(d, `${out} = subgroupBallot(${v}).x;`); return; }
    if (s.op === "barrier") throw new InternalCompilerError("a subgroup barrier reached the WGSL back end (validation refuses it)");
    const n = this.expressions.expr(s.args[1]);
    ctx.line(d, "{");
    ctx.line(d + 1, `let gpuc_v = ${t === "bool" ? `select(0u, 1u, ${v})` : v};`);
    ctx.line(d + 1, `let gpuc_n = ${n};`);
    // [lane read, whether it is in the subgroup]
    const [lane, inside] = {
      shuffle: ["gpuc_n % sgs", "true"],
      shuffleDown: ["min(sgl + gpuc_n, sgs - 1u)", "gpuc_n < sgs - sgl"],
      shuffleUp: ["select(0u, sgl - gpuc_n, gpuc_n <= sgl)", "gpuc_n <= sgl"],
      shuffleXor: ["min(sgl ^ gpuc_n, sgs - 1u)", "(sgl ^ gpuc_n) < sgs"],
    }[s.op as "shuffle"];
    const shuffled = `subgroupShuffle(gpuc_v, ${lane})`;
    const r = inside === "true" ? shuffled : `select(gpuc_v, ${shuffled}, ${inside})`;
    ctx.line(d + 1, `${out} = ${t === "bool" ? `(${r}) != 0u` : r};`);
    ctx.line(d, "}");
  }
}
