// PTX expressions: each a register or an immediate (fresh temporaries per expression: ptxas
// allocates); predicates for branches; selects and short-circuits that evaluate only the operand
// chosen where it may load; builtins, loads, conversions and ops (arith.ts) on registers.

import type { Builtin, Expr, ExprHandle } from "../../ir/module.js";
import { assertNeverIR } from "../../ir/module.js";
import { elemScalar, scalarOf } from "../../ir/types.js";
import { InternalCompilerError } from "../../errors.js";
import { CLASS, elemMemType, immediate, memType } from "./common.js";
import type { Arrays } from "./arrays.js";
import type { FunctionContext, Lowering } from "./context.js";

export class Expressions implements Lowering {
  constructor(private readonly ctx: FunctionContext, private readonly arrays: Arrays) {}

  /** A register or immediate holding the expression's value. */
  expr(h: ExprHandle): string {
    const ctx = this.ctx;
    const e: Expr = ctx.f.exprs[h];
    switch (e.k) {
      case "const": return immediate(e.value, scalarOf(e.type));
      case "local": return ctx.regs[e.local];
      case "builtin": {
        const r = ctx.reg("r");
        ctx.line(`mov.u32 ${r}, ${BUILTINS[e.name]};`);
        return r;
      }
      case "location": return String(ctx.mod.locations.id(e.site));
      case "length": return this.arrays.arrayRef(e.array).length;
      case "load": {
        const a = this.arrays.arrayRef(e.array);
        const addr = this.arrays.address(a, e.index);
        const r = ctx.reg(CLASS[elemScalar(a.elem)]);
        ctx.line(`ld.${a.space}.${elemMemType(a.elem)} ${r}, ${addr};`);
        return r;
      }
      case "select": {
        const t = scalarOf(e.type);
        const r = ctx.reg(CLASS[t]);
        // (selp computes both operands: a side that reads memory is a branch by now,
        // ir/passes/lazy-reads.ts. PTX has no selp of predicates: a bool select branches.)
        if (t !== "bool") {
          const c = this.pred(e.cond);
          const a = this.expr(e.a), b = this.expr(e.b);
          ctx.line(`selp.${memType(t) === "f32" ? "f32" : t === "f64" ? "f64" : "b32"} ${r}, ${a}, ${b}, ${c};`);
          return r;
        }
        const c = this.pred(e.cond);
        const elseL = ctx.label("sel_else"), endL = ctx.label("sel_end");
        ctx.line(`@!${c} bra ${elseL};`);
        ctx.arith.move(t, r, this.expr(e.a));
        ctx.line(`bra ${endL};`);
        ctx.line(`${elseL}:`);
        ctx.arith.move(t, r, this.expr(e.b));
        ctx.line(`${endL}:`);
        return r;
      }
      case "convert": return ctx.arith.convert(this.expr(e.arg), scalarOf(ctx.f.exprs[e.arg].type), scalarOf(e.type));
      case "op": return this.op(e);
      case "global": case "shared": throw new InternalCompilerError("an array used as a value");
      case "bitOffset": {
        const a = this.arrays.arrayRef(e.array);
        return this.arrays.bitOffset(a, this.arrays.address(a, e.index));
      }
      default: return assertNeverIR(e);
    }
  }

  /** A predicate for a branch condition; `!x` gives x's predicate, negated (no `not` instruction). */
  condition(h: ExprHandle): { p: string; negated: boolean } {
    const e = this.ctx.f.exprs[h];
    if (e.k === "op" && e.op === "not") return { p: this.pred(e.args[0]), negated: true };
    return { p: this.pred(h), negated: false };
  }

  /** A predicate register holding a bool expression. */
  pred(h: ExprHandle): string {
    const v = this.expr(h);
    if (v.startsWith("%")) return v;
    const p = this.ctx.reg("p");
    this.ctx.line(`setp.ne.u32 ${p}, ${v === "1" ? 1 : 0}, 0;`);
    return p;
  }

  private op(e: Extract<Expr, { k: "op" }>): string {
    const ctx = this.ctx;
    const t = scalarOf(ctx.f.exprs[e.args[0]].type);
    const rt = scalarOf(e.type);
    // Predicates: the right operand is computed too (one that reads memory is a branch by now,
    // ir/passes/lazy-reads.ts).
    if (e.op === "land" || e.op === "lor") {
      const r = ctx.reg("p"), a = this.pred(e.args[0]), b = this.pred(e.args[1]);
      ctx.line(`${e.op === "land" ? "and" : "or"}.pred ${r}, ${a}, ${b};`);
      return r;
    }
    const args = e.args.map((a) => this.expr(a));
    return ctx.arith.opValue(e.op, args, t, rt);
  }
}

const BUILTINS: Record<Builtin, string> = {
  "threadIdx.x": "%tid.x", "threadIdx.y": "%tid.y", "threadIdx.z": "%tid.z",
  "blockIdx.x": "%ctaid.x", "blockIdx.y": "%ctaid.y", "blockIdx.z": "%ctaid.z",
  "blockDim.x": "%ntid.x", "blockDim.y": "%ntid.y", "blockDim.z": "%ntid.z",
  "gridDim.x": "%nctaid.x", "gridDim.y": "%nctaid.y", "gridDim.z": "%nctaid.z",
  subgroupSize: "WARP_SZ", subgroupLaneId: "%laneid",
};
