// One PTX function: its parts built around one context (context.ts), its signature and parameters
// (the kernel's entry parameters and their layout, a .func's parameters, or a cold block's
// arguments), its private arrays, and its text.

import type { Function } from "../../ir/module.js";
import { completesBlock } from "../../ir/module-info.js";
import { CLASS, SUFFIX, arrayBytes, paramType, sanitize } from "./common.js";
import { scalarOf } from "../../ir/types.js";
import { FunctionContext, type InlineBody, type PTXModuleState } from "./context.js";
import { Arrays, spaceOf } from "./arrays.js";
import { Expressions } from "./expressions.js";
import { Atomics } from "./atomics.js";
import { Subgroups } from "./subgroups.js";
import { Statements } from "./statements.js";
import type { PTXEntryParam } from "./layout.js";

export interface FunctionText {
  signature: string;
  lines: string[];
  locs: number[];
  /** Its register and private array declarations, where it was emitted inline (the caller declares them). */
  decls?: string[];
  /** The kernel's entry parameters (empty for any other function). */
  entryParams: PTXEntryParam[];
}

/** Function `index` of the module; with `inline`, a runtime function's body for a caller's cold block. */
export function emitFunction(mod: PTXModuleState, f: Function, index: number, tableSymbols: string[], inline: InlineBody | null = null): FunctionText {
  const ctx = new FunctionContext(mod, f, index, tableSymbols, inline);
  // Each part is given the parts it uses; the arrays, below the expressions, lower their indices
  // through the context (ctx.lower).
  const arrays = new Arrays(ctx);
  const expressions = (ctx.lower = new Expressions(ctx, arrays));
  const statements = new Statements(ctx, expressions, arrays, new Atomics(ctx, expressions, arrays), new Subgroups(ctx, expressions),
    (fn, body) => emitFunction(mod, mod.m.functions[fn], fn, tableSymbols, body));
  const name = mod.fnNames[index];
  // Registers for every scalar local; arrays get their references below.
  f.locals.forEach((l, i) => { if (l.type.kind === "scalar") ctx.regs[i] = ctx.reg(CLASS[l.type.scalar]); });
  if (ctx.isKernel) for (const sh of ctx.m.shared) if (sh.placed) ctx.dynamicBases.set(sh.placed.offset, ctx.reg("r"));
  const head: string[] = [];
  const entryParams: PTXEntryParam[] = [];
  const signature = inline ? inlineHead(ctx, inline, head) : ctx.isKernel ? entryHead(ctx, name, head, entryParams) : funcHead(ctx, name, head);
  const localDecls = privateArrays(ctx, head);
  statements.block(f.body);
  if (completesBlock(f.body)) ctx.line(inline ? "exit;" : "ret;");
  const coldDecls = statements.emitColdReport();
  const decls = [...ctx.regDecls(), ...coldDecls];
  // (Inline, its private arrays are declared by the caller too: a runtime function's in a cold block.)
  if (inline) return { signature, lines: [...head.map((h) => "  " + h), ...ctx.lines], locs: [...head.map(() => -1), ...ctx.locs], decls: [...decls, ...localDecls], entryParams };
  const headLines = [signature, "{", ...decls.map((d) => "  " + d), ...localDecls.map((d) => "  " + d), ...head.map((h) => "  " + h)].join("\n").split("\n");
  return {
    signature,
    lines: [...headLines, ...ctx.lines, "}"],
    locs: [...headLines.map(() => -1), ...ctx.locs, -1],
    entryParams,
  };
}

/** A body emitted inline: the arguments are the caller's registers (scalars copied, array references shared). */
function inlineHead(ctx: FunctionContext, inline: InlineBody, head: string[]): string {
  const f = ctx.f;
  const args = inline.args;
  f.params.forEach((p, i) => {
    const a = args[i];
    if (typeof a === "string") ctx.arith.move(scalarOf(f.locals[p].type), ctx.regs[p], a);
    else ctx.arrays.set(p, a);
  });
  head.push(...ctx.lines.map((l) => l.trim()));
  ctx.lines = [];
  ctx.locs = [];
  return "";
}

/** The kernel's `.entry`: its parameters (their layout in `params`), loaded in its head; launch bounds. */
function entryHead(ctx: FunctionContext, name: string, head: string[], entryParams: PTXEntryParam[]): string {
  const f = ctx.f;
  const params: string[] = [];
  const add = (p: PTXEntryParam): string => { entryParams.push(p); params.push(`.param .${p.type} ${p.name}`); return p.name; };
  f.params.forEach((p, i) => {
    const t = f.locals[p].type;
    const pname = `${name}_${sanitize(f.paramNames[i] ?? f.locals[p].name)}_${i}`;
    if (t.kind === "scalar") {
      const type = t.scalar === "bool" ? "u32" : SUFFIX[t.scalar] as PTXEntryParam["type"];
      const n = add({ name: pname, role: "value", index: i, type });
      if (t.scalar === "bool") {
        const tmp = ctx.reg("r");
        head.push(`ld.param.u32 ${tmp}, [${n}];`, `setp.ne.u32 ${ctx.regs[p]}, ${tmp}, 0;`);
      } else head.push(`ld.param.${type} ${ctx.regs[p]}, [${n}];`);
    } else if (t.kind === "array") {
      const ptr = add({ name: pname, role: "pointer", index: i, type: "u64" });
      const len = add({ name: `${pname}_len`, role: "length", index: i, type: "u32" });
      const base = ctx.reg("rd"), length = ctx.reg("r");
      head.push(`ld.param.u64 ${base}, [${ptr}];`, `cvta.to.global.u64 ${base}, ${base};`, `ld.param.u32 ${length}, [${len}];`);
      ctx.arrays.set(p, { space: "global", base, wide: true, elem: t.elem, length });
    }
  });
  if (ctx.mod.needsTables.has(ctx.index)) {
    const p = add({ name: `${name}_gpuc_tables`, role: "tables", index: -1, type: "u64" });
    ctx.tablesReg = ctx.reg("rd");
    head.push(`ld.param.u64 ${ctx.tablesReg}, [${p}];`, `cvta.to.global.u64 ${ctx.tablesReg}, ${ctx.tablesReg};`);
  }
  if (f.stateParam !== null) {
    const ptr = add({ name: `${name}_gpuc_state`, role: "state", index: -1, type: "u64" });
    const len = add({ name: `${name}_gpuc_state_len`, role: "state-length", index: -1, type: "u32" });
    const base = ctx.reg("rd"), length = ctx.reg("r");
    head.push(`ld.param.u64 ${base}, [${ptr}];`, `cvta.to.global.u64 ${base}, ${base};`, `ld.param.u32 ${length}, [${len}];`);
    ctx.arrays.set(f.stateParam, { space: "global", base, wide: true, elem: "i32", length });
  }
  const bounds: string[] = [];
  const { maxThreads, requiredThreads } = ctx.mod.features;
  if (requiredThreads) bounds.push(`.reqntid ${requiredThreads.join(", ")}`);
  else if (maxThreads) bounds.push(`.maxntid ${maxThreads.join(", ")}`);
  return `.visible .entry ${name}(\n  ${params.join(",\n  ")}\n)${bounds.length ? "\n" + bounds.join("\n") : ""}`;
}

/** A `.func`: scalars as .b32/.b64/.f32/.f64 params (bools as b32), arrays as address + length. */
function funcHead(ctx: FunctionContext, name: string, head: string[]): string {
  const f = ctx.f;
  const params: string[] = [];
  const all = [...(f.stateParam !== null ? [f.stateParam] : []), ...f.params];
  all.forEach((p, i) => {
    const t = f.locals[p].type;
    const pn = `${name}_p${i}`;
    if (t.kind === "scalar") {
      if (t.scalar === "bool") {
        params.push(`.param .b32 ${pn}`);
        const tmp = ctx.reg("r");
        head.push(`ld.param.b32 ${tmp}, [${pn}];`, `setp.ne.b32 ${ctx.regs[p]}, ${tmp}, 0;`);
      } else {
        params.push(`.param .${paramType(t.scalar)} ${pn}`);
        head.push(`ld.param.${paramType(t.scalar)} ${ctx.regs[p]}, [${pn}];`);
      }
    } else if (t.kind === "array") {
      const space = spaceOf(t.space);
      const wide = space !== "shared";
      params.push(`.param .${wide ? "b64" : "b32"} ${pn}`, `.param .b32 ${pn}_len`);
      const base = ctx.reg(wide ? "rd" : "r"), length = ctx.reg("r");
      head.push(`ld.param.${wide ? "b64" : "b32"} ${base}, [${pn}];`, `ld.param.b32 ${length}, [${pn}_len];`);
      ctx.arrays.set(p, { space, base, wide, elem: t.elem, length });
    }
  });
  if (ctx.mod.needsTables.has(ctx.index)) {
    params.push(`.param .b64 ${name}_tables`);
    ctx.tablesReg = ctx.reg("rd");
    head.push(`ld.param.b64 ${ctx.tablesReg}, [${name}_tables];`);
  }
  const ret = f.returnType.kind === "scalar" ? `(.param .${paramType(f.returnType.scalar)} ${name}_ret) ` : "";
  return `.func ${ret}${name}(${params.join(", ")})`;
}

/** Private arrays: .local, addressed through a register; their declarations (named apart from the caller's where the body is inline). */
function privateArrays(ctx: FunctionContext, head: string[]): string[] {
  const f = ctx.f;
  const decls: string[] = [];
  f.locals.forEach((l, i) => {
    if (l.type.kind !== "array" || ctx.arrays.has(i) || i === f.stateParam || f.params.includes(i as never)) return;
    const sym = `gpuc_local_${ctx.prefix}${i}`;
    const { bytes, align } = arrayBytes(l.type.elem, l.type.size ?? 0);
    decls.push(`.local .align ${align} .b8 ${sym}[${Math.max(bytes, 4)}];`);
    const base = ctx.reg("rd");
    head.push(`mov.u64 ${base}, ${sym};`);
    ctx.arrays.set(i, { space: "local", base, wide: true, elem: l.type.elem, length: String(l.type.size ?? 0) });
  });
  return decls;
}
