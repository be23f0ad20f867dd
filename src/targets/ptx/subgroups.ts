// PTX subgroup operations on the warp's active lanes: votes, shuffles with JS's meaning at lanes
// outside the warp or inactive, and reductions in lane order (or `redux.sync` for integers on sm_80+).

import type { Stmt } from "../../ir/module.js";
import { assertNeverIR } from "../../ir/module.js";
import { scalarOf, type Scalar } from "../../ir/types.js";
import { CLASS, SUFFIX, immediate, movType } from "./common.js";
import type { FunctionContext } from "./context.js";
import type { Expressions } from "./expressions.js";

export class Subgroups {
  constructor(private readonly ctx: FunctionContext, private readonly expressions: Expressions) {}

  /**
   * A subgroup operation on the warp's active lanes (`activemask`: the lanes that reached it
   * together). A shuffle reads lane j with `shfl.sync.idx` and keeps the reader's own value where
   * j is outside the warp or not active (JS's meaning, ir/module.ts SubgroupOp). Integer
   * reductions are `redux.sync` (sm_80+); the others combine the active lanes' values in lane
   * order (exactly as the CPU device does, floats included), one `shfl.sync` per lane.
   */
  subgroup(s: Extract<Stmt, { k: "subgroup" }>): void {
    const ctx = this.ctx;
    const t = scalarOf(ctx.f.exprs[s.args[0]].type);
    const out = ctx.regs[s.result];
    const x = ctx.arith.materialize(t, this.expressions.expr(s.args[0]));
    const m = ctx.reg("r");
    ctx.line(`activemask.b32 ${m};`);
    switch (s.op) {
      case "any": case "all": ctx.line(`vote.sync.${s.op}.pred ${out}, ${x}, ${m};`); return;
      // __syncwarp(): the active lanes meet, their memory accesses ordered among them.
      case "barrier": ctx.line(`bar.warp.sync ${m};`); ctx.line(`mov.pred ${out}, ${x};`); return;
      case "ballot": ctx.line(`vote.sync.ballot.b32 ${out}, ${x}, ${m};`); return;
      case "add": case "min": case "max": return this.reduce(s.op, t, x, m, out);
      default: break;
    }
    const n = ctx.arith.materialize("u32", this.expressions.expr(s.args[1]));
    const lane = ctx.reg("r"), j = ctx.reg("r"), ok = ctx.reg("p"), bit = ctx.reg("r"), active = ctx.reg("p");
    ctx.line(`mov.u32 ${lane}, %laneid;`);
    switch (s.op) {
      case "shuffle": ctx.line(`and.b32 ${j}, ${n}, 31;`); ctx.line(`setp.eq.u32 ${ok}, 0, 0;`); break;
      case "shuffleDown": {
        const room = ctx.reg("r");
        ctx.line(`sub.u32 ${room}, 32, ${lane};`);
        ctx.line(`setp.lt.u32 ${ok}, ${n}, ${room};`);
        ctx.line(`add.u32 ${j}, ${lane}, ${n};`);
        break;
      }
      case "shuffleUp": ctx.line(`setp.le.u32 ${ok}, ${n}, ${lane};`); ctx.line(`sub.u32 ${j}, ${lane}, ${n};`); break;
      case "shuffleXor": ctx.line(`xor.b32 ${j}, ${lane}, ${n};`); ctx.line(`setp.lt.u32 ${ok}, ${j}, 32;`); break;
      default: assertNeverIR(s.op as never);
    }
    ctx.line(`and.b32 ${j}, ${j}, 31;`);
    ctx.line(`shr.b32 ${bit}, ${m}, ${j};`);
    ctx.line(`and.b32 ${bit}, ${bit}, 1;`);
    ctx.line(`setp.ne.and.u32 ${active}, ${bit}, 0, ${ok};`);
    const y = this.shuffleIdx(t, x, j, m);
    if (t !== "bool") { ctx.line(`selp.${movType(t)} ${out}, ${y}, ${x}, ${active};`); return; }
    // out = active ? y != 0 : x
    const got = ctx.reg("p"), own = ctx.reg("p");
    ctx.line(`setp.ne.and.u32 ${got}, ${y}, 0, ${active};`);
    ctx.line(`not.pred ${own}, ${active};`);
    ctx.line(`and.pred ${own}, ${own}, ${x};`);
    ctx.line(`or.pred ${out}, ${got}, ${own};`);
  }

  /** `x` of lane `j` (a register of x's class; bools as a u32 0/1). */
  private shuffleIdx(t: Scalar, x: string, j: string, m: string): string {
    const ctx = this.ctx;
    if (t === "f64") {
      const lo = ctx.reg("r"), hi = ctx.reg("r"), y = ctx.reg("fd");
      ctx.line(`mov.b64 {${lo}, ${hi}}, ${x};`);
      ctx.line(`shfl.sync.idx.b32 ${lo}, ${lo}, ${j}, 31, ${m};`);
      ctx.line(`shfl.sync.idx.b32 ${hi}, ${hi}, ${j}, 31, ${m};`);
      ctx.line(`mov.b64 ${y}, {${lo}, ${hi}};`);
      return y;
    }
    if (t === "bool") {
      const v = ctx.reg("r");
      ctx.line(`selp.u32 ${v}, 1, 0, ${x};`);
      ctx.line(`shfl.sync.idx.b32 ${v}, ${v}, ${j}, 31, ${m};`);
      return v;
    }
    const y = ctx.reg(CLASS[t]);
    ctx.line(`shfl.sync.idx.b32 ${y}, ${x}, ${j}, 31, ${m};`);
    return y;
  }

  /** add/min/max over the active lanes `m` into `out`. */
  private reduce(op: "add" | "min" | "max", t: Scalar, x: string, m: string, out: string): void {
    const ctx = this.ctx;
    const sm = Number(/^sm_(\d+)/.exec(ctx.mod.features.arch ?? "sm_75")?.[1] ?? 75);
    if ((t === "i32" || t === "u32") && sm >= 80) {
      ctx.line(`redux.sync.${op}.${op === "add" ? "u32" : SUFFIX[t]} ${out}, ${x}, ${m};`);
      return;
    }
    // In lane order: the lowest remaining lane of `rest` each time round.
    const rest = ctx.reg("r"), neg = ctx.reg("r"), low = ctx.reg("r"), j = ctx.reg("r"), done = ctx.reg("p");
    const acc = ctx.reg(CLASS[t]);
    const identity = op === "add" ? (t === "f32" || t === "f64" ? -0 : 0) : op === "min" ? (t === "i32" ? 0x7fffffff : t === "u32" ? 0xffffffff : Infinity) : (t === "i32" ? -0x80000000 : t === "u32" ? 0 : -Infinity);
    ctx.line(`mov.${movType(t)} ${acc}, ${immediate(identity, t)};`);
    ctx.line(`mov.b32 ${rest}, ${m};`);
    const top = ctx.label("sg_lane"), end = ctx.label("sg_end");
    ctx.line(`${top}:`);
    ctx.line(`setp.eq.u32 ${done}, ${rest}, 0;`);
    ctx.line(`@${done} bra.uni ${end};`);
    ctx.line(`neg.s32 ${neg}, ${rest};`);
    ctx.line(`and.b32 ${low}, ${rest}, ${neg};`);
    ctx.line(`xor.b32 ${rest}, ${rest}, ${low};`);
    ctx.line(`bfind.u32 ${j}, ${low};`);
    const y = this.shuffleIdx(t, x, j, m);
    if (op === "add") {
      if (t === "f32" || t === "f64") ctx.line(`add.rn.${t} ${acc}, ${acc}, ${y};`);
      else ctx.line(`add.u32 ${acc}, ${acc}, ${y};`);
    } else if (t === "i32" || t === "u32") ctx.line(`${op}.${SUFFIX[t]} ${acc}, ${acc}, ${y};`);
    else {
      // Math.min/max: NaN wins; -0 is below +0.
      const pick = ctx.reg("p"), eq = ctx.reg("p"), sign = ctx.reg("p"), nan = ctx.reg("p");
      const bits = ctx.reg(t === "f64" ? "rd" : "r");
      ctx.line(`setp.${op === "min" ? "lt" : "gt"}.${t} ${pick}, ${y}, ${acc};`);
      ctx.line(`setp.eq.${t} ${eq}, ${y}, ${acc};`);
      ctx.line(`mov.b${t === "f64" ? 64 : 32} ${bits}, ${y};`);
      ctx.line(`setp.${op === "min" ? "lt" : "ge"}.s${t === "f64" ? 64 : 32} ${sign}, ${bits}, 0;`);
      ctx.line(`and.pred ${eq}, ${eq}, ${sign};`);
      ctx.line(`or.pred ${pick}, ${pick}, ${eq};`);
      ctx.line(`setp.nan.${t} ${nan}, ${y}, ${y};`);
      ctx.line(`or.pred ${pick}, ${pick}, ${nan};`);
      ctx.line(`selp.${t} ${acc}, ${y}, ${acc}, ${pick};`);
    }
    ctx.line(`bra.uni ${top};`);
    ctx.line(`${end}:`);
    ctx.line(`mov.${movType(t)} ${out}, ${acc};`);
  }
}
