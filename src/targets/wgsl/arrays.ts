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
    if (ctx.atomicArrays.has(ctx.arrayKey(e.array))) return this.fromWord(e.array, `atomicLoad(&${this.element(e.array, e.index)})`);
    return this.element(e.array, e.index);
  }

  /** `array[index] = value` (the statement `store`). */
  store(s: Extract<Stmt, { k: "store" }>, d: number): void {
    const ctx = this.ctx;
    const narrow = ctx.narrowOf(s.array);
    if (narrow && ctx.arrayKey(s.array).startsWith("l")) ctx.line(d, `${this.element(s.array, s.index)} = ${narrowValue(ctx.lower.expr(s.value), narrow)};`);
    else if (narrow) throw new InternalCompilerError("a store to a packed narrow array reached the WGSL back end (passes/cas-loops.ts writes it out)");
    else if (ctx.atomicArrays.has(ctx.arrayKey(s.array))) ctx.line(d, `atomicStore(&${this.element(s.array, s.index)}, ${this.toWord(s.array, ctx.lower.expr(s.value))});`);
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
   * An atomic: WGSL's on i32/u32 elements; on a packed narrow array's element, its read, and the
   * steps on its word of the loops passes/cas-loops.ts writes for every write to it (WGSL has no
   * 8- or 16-bit memory: a plain read-modify-write of the word would undo a neighbour's store).
   */
  atomic(s: Extract<Stmt, { k: "atomic" }>, d: number): void {
    const ctx = this.ctx;
    const narrow = ctx.narrowOf(s.array);
    const set = (x: string): string => (s.result !== null ? `${ctx.names[s.result]} = ${x};` : `_ = ${x};`);
    if (narrow) {
      const { element, word } = this.packedIndex(s.array, s.index, narrow);
      const v = s.args.map((a) => `bitcast<u32>(${ctx.lower.expr(a)})`);
      if (s.word && s.op === "load") ctx.line(d, set(`bitcast<i32>(atomicLoad(&${word(element)}))`));
      else if (s.word && s.op === "compareExchange") this.compareExchange(d, `&${word(element)}`, v, s.result !== null ? (x) => `${ctx.names[s.result!]} = bitcast<i32>(${x});` : null);
      else if (s.op === "load") ctx.line(d, set(this.packedLoad(s.array, s.index, narrow)));
      else throw new InternalCompilerError(`atomic ${s.op} on ${narrow} elements reached the WGSL back end (passes/cas-loops.ts writes it out)`);
      return;
    }
    const ptr = `&${this.element(s.array, s.index)}`;
    const elem = (ctx.f.exprs[s.array].type as { elem?: string }).elem;
    if (s.word) {
      // A 32-bit element's word: an f32's bits (the array is atomic<u32>), an integer as it is.
      const w = elem === "i32" ? "i32" : "u32";
      const v = s.args.map((a) => `bitcast<${w}>(${ctx.lower.expr(a)})`);
      if (s.op === "load") ctx.line(d, set(`bitcast<i32>(atomicLoad(${ptr}))`));
      else if (s.op === "compareExchange") this.compareExchange(d, ptr, v, s.result !== null ? (x) => `${ctx.names[s.result!]} = bitcast<i32>(${x});` : null);
      else throw new InternalCompilerError(`word atomic ${s.op}`);
      return;
    }
    const f32 = elem === "f32";
    if ((f32 && s.op !== "load" && s.op !== "store" && s.op !== "exchange") || s.op === "inc" || s.op === "dec")
      throw new InternalCompilerError(`atomic ${s.op} on ${elem} elements reached the WGSL back end (passes/cas-loops.ts writes it out)`);
    const raw = s.args.map((a) => ctx.lower.expr(a)), v = raw.map((x) => this.toWord(s.array, x));
    if (f32 && s.op !== "store") {
      ctx.line(d, set(this.fromWord(s.array, s.op === "load" ? `atomicLoad(${ptr})` : `atomicExchange(${ptr}, ${v[0]})`)));
      return;
    }
    const fn: Record<string, string> = { add: "atomicAdd", sub: "atomicSub", and: "atomicAnd", or: "atomicOr", xor: "atomicXor", min: "atomicMin", max: "atomicMax", exchange: "atomicExchange" };
    switch (s.op) {
      case "load": ctx.line(d, set(`atomicLoad(${ptr})`)); return;
      case "store":
        ctx.line(d, `atomicStore(${ptr}, ${v[0]});`);
        if (s.result !== null) ctx.line(d, `${ctx.names[s.result]} = ${raw[0]};`);
        return;
      case "compareExchange": this.compareExchange(d, ptr, v, s.result !== null ? (x) => `${ctx.names[s.result!]} = ${x};` : null); return;
      default: ctx.line(d, set(`${fn[s.op]}(${ptr}, ${v[0]})`));
    }
  }

  /** An element of an array used atomically as WGSL holds it: an f32's bits in a u32 word, others as they are. */
  private toWord(array: ExprHandle, v: string): string {
    return (this.ctx.f.exprs[array].type as { elem?: string }).elem === "f32" && this.ctx.atomicArrays.has(this.ctx.arrayKey(array)) ? `bitcast<u32>(${v})` : v;
  }
  private fromWord(array: ExprHandle, w: string): string {
    return (this.ctx.f.exprs[array].type as { elem?: string }).elem === "f32" && this.ctx.atomicArrays.has(this.ctx.arrayKey(array)) ? `bitcast<f32>(${w})` : w;
  }

  /** A compare-exchange that fails only where the element differs: WGSL's may fail spuriously, so it is retried until it succeeds or sees another value. */
  private compareExchange(d: number, ptr: string, v: string[], result: ((old: string) => string) | null): void {
    const ctx = this.ctx;
    ctx.line(d, "loop {");
    ctx.line(d + 1, `let r = atomicCompareExchangeWeak(${ptr}, ${v[0]}, ${v[1]});`);
    ctx.line(d + 1, `if (r.exchanged || r.old_value != ${v[0]}) { ${result ? `${result("r.old_value")} ` : ""}break; }`);
    ctx.line(d, "}");
  }

  /** Where element `index` of a packed narrow array sits in its word: the offset of its lowest bit. */
  bitOffset(array: ExprHandle, index: ExprHandle): string {
    const narrow = this.ctx.narrowOf(array);
    if (!narrow) throw new InternalCompilerError("a bit offset in a word of an array that is not packed");
    const { element } = this.packedIndex(array, index, narrow);
    return elemBytes(narrow) === 1 ? `i32((${element} & 3u) * 8u)` : `i32((${element} & 1u) * 16u)`;
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
