// PTX atomics on array elements: `atom` on 32-bit words (a volatile load for Atomics.load), and
// the word steps of the compare-and-swap loops passes/cas-loops.ts writes for 8- and 16-bit
// elements (a volatile load of the word, `atom.cas` on it).

import type { Stmt } from "../../ir/module.js";
import { assertNeverIR } from "../../ir/module.js";
import { isNarrow } from "../../ir/types.js";
import { InternalCompilerError } from "../../errors.js";
import { CLASS, elemMemType, memType } from "./common.js";
import type { ArrayRef, FunctionContext } from "./context.js";
import type { Arrays } from "./arrays.js";
import type { Expressions } from "./expressions.js";

export class Atomics {
  constructor(private readonly ctx: FunctionContext, private readonly expressions: Expressions, private readonly arrays: Arrays) {}

  atomic(s: Extract<Stmt, { k: "atomic" }>): void {
    const ctx = this.ctx;
    const a = this.arrays.arrayRef(s.array);
    const addr = this.arrays.address(a, s.index);
    const v = s.args.map((x) => this.expressions.expr(x));
    if (s.word) return this.wordAtomic(s, a, addr, v);
    if (isNarrow(a.elem)) {
      if (s.op !== "load") throw new InternalCompilerError(`atomic ${s.op} on ${a.elem} elements reached the PTX back end (passes/cas-loops.ts writes it out)`);
      const res = s.result !== null ? ctx.regs[s.result] : ctx.reg("r");
      ctx.line(`ld.volatile.${a.space}.${elemMemType(a.elem)} ${res}, ${addr};`);
      return;
    }
    const t = a.elem;
    const res = s.result !== null ? ctx.regs[s.result] : ctx.reg(CLASS[t]);
    const sp = a.space === "local" ? "" : `.${a.space}`;
    const it = t === "i32" ? "s32" : t === "u32" ? "u32" : "f32";
    switch (s.op) {
      case "add": ctx.line(`atom${sp}.add.${t === "f32" ? "f32" : "u32"} ${res}, ${addr}, ${v[0]};`); return;
      case "sub": {
        const n = ctx.reg("r");
        ctx.line(`neg.s32 ${n}, ${ctx.arith.materialize("i32", v[0])};`);
        ctx.line(`atom${sp}.add.u32 ${res}, ${addr}, ${n};`);
        return;
      }
      case "and": case "or": case "xor": ctx.line(`atom${sp}.${s.op}.b32 ${res}, ${addr}, ${v[0]};`); return;
      case "min": case "max": ctx.line(`atom${sp}.${s.op}.${it} ${res}, ${addr}, ${v[0]};`); return;
      case "exchange": ctx.line(`atom${sp}.exch.b32 ${res}, ${addr}, ${v[0]};`); return;
      case "inc": case "dec": ctx.line(`atom${sp}.${s.op}.u32 ${res}, ${addr}, ${v[0]};`); return;
      case "compareExchange": ctx.line(`atom${sp}.cas.b32 ${res}, ${addr}, ${v[0]}, ${v[1]};`); return;
      case "load": ctx.line(`ld.volatile${sp}.${memType(t)} ${res}, ${addr};`); return;
      case "store": {
        const old = ctx.reg(CLASS[t]);
        ctx.line(`atom${sp}.exch.b32 ${old}, ${addr}, ${v[0]};`);
        if (s.result !== null) ctx.arith.move(t, res, v[0]);
        return;
      }
      default: assertNeverIR(s.op as never);
    }
  }

  /** A step on the word that holds the element: its address rounded down to 4 for narrow elements (arrays are word-aligned and padded: devices allocate and shared/local declarations say so). */
  private wordAtomic(s: Extract<Stmt, { k: "atomic" }>, a: ArrayRef, addr: string, v: string[]): void {
    const ctx = this.ctx;
    const res = s.result !== null ? ctx.regs[s.result] : ctx.reg("r");
    const word = isNarrow(a.elem) ? `[${this.arrays.wordAddress(a, addr)}]` : addr;
    const x = v.map((o) => ctx.arith.materialize("i32", o));
    if (s.op === "load") ctx.line(`ld.volatile.${a.space}.u32 ${res}, ${word};`);
    else if (s.op === "compareExchange") ctx.line(`atom.${a.space}.cas.b32 ${res}, ${word}, ${x[0]}, ${x[1]};`);
    else throw new InternalCompilerError(`word atomic ${s.op}`);
  }
}
