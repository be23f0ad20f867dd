// Arrays as PTX code reaches them: the reference (state space, base address, length) of a local
// array, a constant table by its relocation strategy and a shared array (one sized at launch at its
// offset in the kernel's dynamic shared memory, which the kernel computes: passes/launch-sizes.ts);
// element addresses.

import type { ExprHandle, Module } from "../../ir/module.js";
import { InternalCompilerError } from "../../errors.js";
import { sanitize } from "./common.js";
import { elemBytes, scalarOf } from "../../ir/types.js";
import type { ArrayRef, FunctionContext } from "./context.js";

export function sharedName(m: Module, i: number): string { return `gpuc_shared_${i}_${sanitize(m.shared[i].name)}`; }

/** The kernel's dynamic shared memory, where the shared arrays sized at launch are. */
export const DYNAMIC_SHARED = "gpuc_dynamic_shared";

export function spaceOf(space: string): ArrayRef["space"] {
  return space === "shared" ? "shared" : space === "private" ? "local" : "global";
}

export class Arrays {
  constructor(private readonly ctx: FunctionContext) {}

  arrayRef(h: ExprHandle): ArrayRef {
    const ctx = this.ctx;
    const e = ctx.f.exprs[h];
    if (e.k === "local") {
      const r = ctx.arrays.get(e.local);
      if (!r) throw new InternalCompilerError(`PTX array local ${e.local} has no reference`);
      return r;
    }
    if (e.k === "global") {
      // The table's address is read from its patched global where it is used (a use may be
      // under a branch; ptxas merges repeated loads).
      const g = ctx.m.globals[e.global];
      const base = ctx.reg("rd");
      switch (ctx.mod.features.relocation ?? "patch") {
        case "patch":
          ctx.line(`ld.global.u64 ${base}, [${ctx.tableSymbols[e.global]}];`);
          ctx.line(`cvta.to.global.u64 ${base}, ${base};`);
          break;
        case "table":
          ctx.line(`ld.global.u64 ${base}, [${ctx.tablesReg}+${e.global * 8}];`);
          ctx.line(`cvta.to.global.u64 ${base}, ${base};`);
          break;
        case "bake":
          ctx.line(`mov.u64 ${base}, ${ctx.tableSymbols[e.global]};`);
          break;
      }
      return { space: "global", base, wide: true, elem: g.type.elem, length: String(g.value.length) };
    }
    if (e.k === "shared") {
      const sh = ctx.m.shared[e.shared];
      if (sh.size) {
        // In the dynamic block, at the offset the kernel computed (passes/launch-sizes.ts).
        if (!sh.placed || !ctx.isKernel) throw new InternalCompilerError(`shared array '${sh.name}' sized at launch used outside its kernel`);
        const base = ctx.reg("r");
        ctx.line(`mov.b32 ${base}, ${ctx.dynamicBases.get(sh.placed.offset)};`);
        return { space: "shared", base, wide: false, elem: sh.type.elem, length: ctx.regs[sh.placed.length] };
      }
      const base = ctx.reg("r");
      ctx.line(`mov.u32 ${base}, ${sharedName(ctx.m, e.shared)};`);
      return { space: "shared", base, wide: false, elem: sh.type.elem, length: String(sh.type.size ?? 0) };
    }
    throw new InternalCompilerError(`array expression of kind ${e.k}`);
  }

  /** The address operand `[reg]` or `[reg+offset]` of array[index]. */
  address(a: ArrayRef, index: ExprHandle): string {
    const ctx = this.ctx;
    const ie = ctx.f.exprs[index];
    const size = elemBytes(a.elem);
    if (ie.k === "const" && typeof ie.value === "number" && Math.abs(ie.value * size) < 2 ** 24) {
      const off = ie.value * size;
      return off === 0 ? `[${a.base}]` : `[${a.base}${off < 0 ? "" : "+"}${off}]`;
    }
    const it = scalarOf(ie.type);
    const i = ctx.arith.materialize(it, ctx.lower.expr(index));
    if (a.wide) {
      const off = ctx.reg("rd"), addr = ctx.reg("rd");
      ctx.line(`mul.wide.${it === "u32" ? "u32" : "s32"} ${off}, ${i}, ${size};`);
      ctx.line(`add.s64 ${addr}, ${a.base}, ${off};`);
      return `[${addr}]`;
    }
    const addr = ctx.reg("r");
    ctx.line(`mad.lo.s32 ${addr}, ${i}, ${size}, ${a.base};`);
    return `[${addr}]`;
  }

  /** A register holding the element's address rounded down to its word's. */
  wordAddress(a: ArrayRef, addr: string): string {
    const ctx = this.ctx;
    const at = this.addressRegister(a, addr), word = ctx.reg(a.wide ? "rd" : "r");
    ctx.line(`and.b${a.wide ? 64 : 32} ${word}, ${at}, -4;`);
    return word;
  }

  /** Where the element at `addr` sits in its word: the offset of its lowest bit (0, 8, 16 or 24), an i32 register. */
  bitOffset(a: ArrayRef, addr: string): string {
    const ctx = this.ctx;
    const at = this.addressRegister(a, addr), low = ctx.reg("r"), shift = ctx.reg("r");
    ctx.line(a.wide ? `cvt.u32.u64 ${low}, ${at};` : `and.b32 ${low}, ${at}, 3;`);
    if (a.wide) ctx.line(`and.b32 ${low}, ${low}, 3;`);
    ctx.line(`shl.b32 ${shift}, ${low}, 3;`);
    return shift;
  }

  /** The address `[reg]` or `[reg+offset]` as one register. */
  private addressRegister(a: ArrayRef, addr: string): string {
    const ctx = this.ctx;
    const m = /^\[([^+\-\]]+)([+-]\d+)?\]$/.exec(addr);
    if (!m) throw new InternalCompilerError(`PTX address ${addr}`);
    if (!m[2]) return m[1];
    const at = ctx.reg(a.wide ? "rd" : "r");
    ctx.line(`add.${a.wide ? "s64" : "s32"} ${at}, ${m[1]}, ${Number(m[2])};`);
    return at;
  }
}
