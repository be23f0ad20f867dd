// PTX atomics on array elements: `atom` on 32-bit words (a volatile load for Atomics.load), and
// on 8- and 16-bit elements a compare-and-swap loop on the word that holds the element.

import type { Stmt } from "../../ir/module.js";
import { assertNeverIR } from "../../ir/module.js";
import { isNarrow } from "../../ir/types.js";
import { InternalCompilerError } from "../../errors.js";
import { CLASS, ELEM_BYTES, elemMemType, memType } from "./common.js";
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
    if (isNarrow(a.elem)) return this.narrowAtomic(s, a, addr, v);
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

  /**
   * An atomic on an 8- or 16-bit element: PTX's atom works on 32-bit words, so it is a
   * compare-and-swap loop on the word that holds the element (narrow arrays are word-aligned and
   * padded: devices allocate and shared/local declarations say so), which changes only the
   * element's bits. The old element is read as the typed array reads it (sign- or zero-extended).
   */
  private narrowAtomic(s: Extract<Stmt, { k: "atomic" }>, a: ArrayRef, addr: string, v: string[]): void {
    const ctx = this.ctx;
    const sp = `.${a.space}`;
    const bits = ELEM_BYTES[a.elem] * 8, ext = a.elem === "i8" || a.elem === "i16" ? "s32" : "u32";
    const res = s.result !== null ? ctx.regs[s.result] : ctx.reg("r");
    if (s.op === "load") { ctx.line(`ld.volatile${sp}.${elemMemType(a.elem)} ${res}, ${addr};`); return; }
    // The element's address in a register, the word's address and the element's bit offset in it.
    const m = /^\[([^+\-\]]+)([+-]\d+)?\]$/.exec(addr);
    if (!m) throw new InternalCompilerError(`PTX address ${addr}`);
    const at = m[2] ? ctx.reg(a.wide ? "rd" : "r") : m[1], word = ctx.reg(a.wide ? "rd" : "r"), low = ctx.reg("r"), shift = ctx.reg("r");
    if (m[2]) ctx.line(`add.${a.wide ? "s64" : "s32"} ${at}, ${m[1]}, ${Number(m[2])};`);
    ctx.line(`and.b${a.wide ? 64 : 32} ${word}, ${at}, -4;`);
    ctx.line(a.wide ? `cvt.u32.u64 ${low}, ${at};` : `mov.b32 ${low}, ${at};`);
    ctx.line(`and.b32 ${low}, ${low}, 3;`);
    ctx.line(`shl.b32 ${shift}, ${low}, 3;`);
    const x = v.map((o) => ctx.arith.materialize("i32", o));
    const old = ctx.reg("r"), cur = ctx.reg("r"), next = ctx.reg("r"), put = ctx.reg("r"), seen = ctx.reg("r"), retry = ctx.reg("p");
    const loop = ctx.label("cas");
    ctx.line(`ld.volatile${sp}.u32 ${old}, [${word}];`);
    ctx.line(`${loop}:`);
    ctx.line(`bfe.${ext} ${cur}, ${old}, ${shift}, ${bits};`);
    switch (s.op) {
      case "add": ctx.line(`add.s32 ${next}, ${cur}, ${x[0]};`); break;
      case "sub": ctx.line(`sub.s32 ${next}, ${cur}, ${x[0]};`); break;
      case "and": case "or": case "xor": ctx.line(`${s.op}.b32 ${next}, ${cur}, ${x[0]};`); break;
      case "exchange": case "store": ctx.line(`mov.b32 ${next}, ${x[0]};`); break;
      case "compareExchange": {
        const hit = ctx.reg("p");
        ctx.line(`setp.eq.s32 ${hit}, ${cur}, ${x[0]};`);
        ctx.line(`selp.b32 ${next}, ${x[1]}, ${cur}, ${hit};`);
        break;
      }
      case "min": case "max": throw new InternalCompilerError(`atomic ${s.op} on ${a.elem} elements`);
      default: assertNeverIR(s.op as never);
    }
    ctx.line(`bfi.b32 ${put}, ${next}, ${old}, ${shift}, ${bits};`);
    ctx.line(`atom${sp}.cas.b32 ${seen}, [${word}], ${old}, ${put};`);
    ctx.line(`setp.ne.b32 ${retry}, ${seen}, ${old};`);
    ctx.line(`mov.b32 ${old}, ${seen};`);
    ctx.line(`@${retry} bra ${loop};`);
    ctx.line(`mov.b32 ${res}, ${s.op === "store" ? x[0] : cur};`);
  }
}
