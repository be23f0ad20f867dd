// Array elements in WGSL: each load and store as the array needs it (plain, atomic, or a packed
// narrow array's u32 word), atomics, and accesses as the code names them (a kernel parameter's
// marked for its sites, a constant index into a shared array sized at launch made a run-time one).

import type { Expr, ExprHandle, Stmt } from "../../ir/module.js";
import { T, elemBytes, type Narrow } from "../../ir/types.js";
import { InternalCompilerError } from "../../errors.js";
import type { ShaderContext } from "./context.js";
import { markAccess } from "./sites.js";

export class Arrays {
  constructor(private readonly ctx: ShaderContext) {}

  /** `array[index]` read (the expression `load`). */
  load(e: Extract<Expr, { k: "load" }>): string {
    const ctx = this.ctx;
    const narrow = ctx.narrowOf(e.array);
    if (narrow && !ctx.arrayKey(e.array).startsWith("l")) return this.packedLoad(e.array, e.index, narrow);
    if (ctx.atomicArrays.has(ctx.arrayKey(e.array))) return `atomicLoad(&${this.element(e.array, e.index)})`;
    return this.element(e.array, e.index);
  }

  /** `array[index] = value` (the statement `store`). */
  store(s: Extract<Stmt, { k: "store" }>, d: number): void {
    const ctx = this.ctx;
    const narrow = ctx.narrowOf(s.array);
    if (narrow && ctx.arrayKey(s.array).startsWith("l")) ctx.line(d, `${this.element(s.array, s.index)} = ${narrowValue(ctx.lower.expr(s.value), narrow)};`);
    else if (narrow) this.packedUpdate(d, s.array, s.index, narrow, "store", [s.value], null);
    else if (ctx.atomicArrays.has(ctx.arrayKey(s.array))) ctx.line(d, `atomicStore(&${this.element(s.array, s.index)}, ${ctx.lower.expr(s.value)});`);
    else ctx.line(d, `${this.element(s.array, s.index)} = ${ctx.lower.expr(s.value)};`);
  }

  element(array: ExprHandle, index: ExprHandle): string {
    const ctx = this.ctx;
    // A constant index into a shared array sized at launch: WGSL checks a constant index against
    // the override-sized array when the pipeline is made, even where a bounds check guards the
    // access; through a function's result the index is a run-time value.
    const a = ctx.f.exprs[array], i = ctx.f.exprs[index];
    if (a.k === "shared" && ctx.m.shared[a.shared].size && i.k === "const") {
      const at = ctx.use("gpuc_index", i.type === T.u32 ? `u32(gpuc_index(bitcast<i32>(${ctx.lower.expr(index)})))` : `gpuc_index(${ctx.lower.expr(index)})`);
      return `${ctx.lower.expr(array)}[${at}]`;
    }
    return this.indexed(array, ctx.lower.expr(index));
  }

  /** `array[index]`, marked where the array is a parameter of the kernel (see sites.ts). */
  private indexed(array: ExprHandle, index: string): string {
    const ctx = this.ctx;
    const binding = ctx.paramBinding(array);
    return binding === undefined ? `${ctx.lower.expr(array)}[${index}]` : markAccess(binding, ctx.names[(ctx.f.exprs[array] as { local: number }).local], index);
  }

  /**
   * Element `index` of a packed narrow array as a u32 index of elements in its binding (a
   * parameter's view starts `params.<name>_off` elements in), and the index of its word.
   */
  private packedIndex(array: ExprHandle, index: ExprHandle, narrow: Narrow): { element: string; word: (element: string) => string } {
    const ctx = this.ctx;
    const a = ctx.f.exprs[array], i = ctx.f.exprs[index];
    let at = ctx.lower.expr(index);
    // A constant index into a shared array sized at launch: a run-time value (see element()).
    if (a.k === "shared" && ctx.m.shared[a.shared].size && i.k === "const")
      at = ctx.use("gpuc_index", i.type === T.u32 ? `u32(gpuc_index(bitcast<i32>(${at})))` : `gpuc_index(${at})`);
    let element = i.type === T.u32 ? at : `u32(${at})`;
    if (a.k === "local" && ctx.f.params.includes(a.local)) element = `(${element} + params.${ctx.names[a.local]}_off)`;
    return { element, word: (e) => this.indexed(array, `${e} >> ${elemBytes(narrow) === 1 ? 2 : 1}u`) };
  }

  private packedLoad(array: ExprHandle, index: ExprHandle, narrow: Narrow): string {
    const ctx = this.ctx;
    const { element, word } = this.packedIndex(array, index, narrow);
    const fn = `gpuc_ld_${narrow === "u8c" ? "u8" : narrow}`;
    return ctx.use(fn, `${fn}(${ctx.written.has(ctx.arrayKey(array)) ? `atomicLoad(&${word(element)})` : word(element)}, ${element})`);
  }

  /**
   * A store or atomic on an element of a packed narrow array (storage or workgroup): WGSL has no
   * 8- or 16-bit memory, and a plain read-modify-write of the word would undo a neighbour's store
   * made by another thread meanwhile, so every write is a compare-exchange loop on the word that
   * changes only this element's bits (a store is never seen half done, and racing stores to one
   * element leave one of their values, as in JavaScript). `result` gets the old element, or the
   * stored value for `store`.
   */
  private packedUpdate(d: number, array: ExprHandle, index: ExprHandle, narrow: Narrow, op: Extract<Stmt, { k: "atomic" }>["op"], args: ExprHandle[], result: number | null): void {
    const ctx = this.ctx;
    const { element, word } = this.packedIndex(array, index, narrow);
    const ld = ctx.use(`gpuc_ld_${narrow === "u8c" ? "u8" : narrow}`, `gpuc_ld_${narrow === "u8c" ? "u8" : narrow}`);
    const put = ctx.use(elemBytes(narrow) === 1 ? "gpuc_put8" : "gpuc_put16", elemBytes(narrow) === 1 ? "gpuc_put8" : "gpuc_put16");
    const x = args.map((a) => ctx.lower.expr(a));
    ctx.line(d, "{");
    ctx.line(d + 1, `let gpuc_e = ${element};`);
    ctx.line(d + 1, `let gpuc_w = &${word("gpuc_e")};`);
    x.forEach((v, i) => ctx.line(d + 1, `let gpuc_x${i} = ${v};`));
    if (op === "load") {
      if (result !== null) ctx.line(d + 1, `${ctx.names[result]} = ${ld}(atomicLoad(gpuc_w), gpuc_e);`);
      ctx.line(d, "}");
      return;
    }
    const next: Record<string, string> = {
      add: "gpuc_c + gpuc_x0", sub: "gpuc_c - gpuc_x0", and: "gpuc_c & gpuc_x0", or: "gpuc_c | gpuc_x0", xor: "gpuc_c ^ gpuc_x0",
      exchange: "gpuc_x0", store: "gpuc_x0", compareExchange: "select(gpuc_c, gpuc_x1, gpuc_c == gpuc_x0)",
    };
    if (!(op in next)) throw new InternalCompilerError(`atomic ${op} on ${narrow} elements`);
    ctx.line(d + 1, "var gpuc_o = atomicLoad(gpuc_w);");
    ctx.line(d + 1, "var gpuc_c: i32;");
    ctx.line(d + 1, "loop {");
    ctx.line(d + 2, `gpuc_c = ${ld}(gpuc_o, gpuc_e);`);
    ctx.line(d + 2, `let r = atomicCompareExchangeWeak(gpuc_w, gpuc_o, ${put}(gpuc_o, gpuc_e, ${next[op]}));`);
    ctx.line(d + 2, "if (r.exchanged) { break; }");
    ctx.line(d + 2, "gpuc_o = r.old_value;");
    ctx.line(d + 1, "}");
    if (result !== null) ctx.line(d + 1, `${ctx.names[result]} = ${op === "store" ? "gpuc_x0" : "gpuc_c"};`);
    ctx.line(d, "}");
  }

  atomic(s: Extract<Stmt, { k: "atomic" }>, d: number): void {
    const ctx = this.ctx;
    const narrow = ctx.narrowOf(s.array);
    if (narrow) return this.packedUpdate(d, s.array, s.index, narrow, s.op, s.args, s.result);
    const ptr = `&${this.element(s.array, s.index)}`;
    const v = s.args.map((a) => ctx.lower.expr(a));
    const set = (x: string): string => (s.result !== null ? `${ctx.names[s.result]} = ${x};` : `_ = ${x};`);
    const fn: Record<string, string> = { add: "atomicAdd", sub: "atomicSub", and: "atomicAnd", or: "atomicOr", xor: "atomicXor", min: "atomicMin", max: "atomicMax", exchange: "atomicExchange" };
    switch (s.op) {
      case "load": ctx.line(d, set(`atomicLoad(${ptr})`)); return;
      case "store":
        ctx.line(d, `atomicStore(${ptr}, ${v[0]});`);
        if (s.result !== null) ctx.line(d, `${ctx.names[s.result]} = ${v[0]};`);
        return;
      case "compareExchange":
        // WGSL's exchange may fail spuriously: retry until it succeeds or sees another value.
        ctx.line(d, "loop {");
        ctx.line(d + 1, `let r = atomicCompareExchangeWeak(${ptr}, ${v[0]}, ${v[1]});`);
        ctx.line(d + 1, `if (r.exchanged || r.old_value != ${v[0]}) { ${s.result !== null ? `${ctx.names[s.result]} = r.old_value; ` : ""}break; }`);
        ctx.line(d, "}");
        return;
      default: ctx.line(d, set(`${fn[s.op]}(${ptr}, ${v[0]})`));
    }
  }
}

/** An i32 as a private narrow array keeps it: its low 8 or 16 bits, sign- or zero-extended. */
function narrowValue(v: string, e: Narrow): string {
  switch (e) {
    case "i8": return `((${v} << 24u) >> 24u)`;
    case "i16": return `((${v} << 16u) >> 16u)`;
    case "u8": case "u8c": return `(${v} & 0xff)`;
    case "u16": return `(${v} & 0xffff)`;
  }
}
