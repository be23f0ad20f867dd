// Intrinsics during a pass: what the method table's methods for the GPU's own operations build —
// barriers, the thread indices and other builtins, subgroup operations, atomics (narrow ones
// included) and console.log's print records.

import type { Span } from "../frontend/source.js";
import type { AtomicOp, Builtin, ExprHandle, PrintFormat, SubgroupOp } from "../ir/module.js";
import { printPartWords } from "../ir/module.js";
import { resultScalar, type OpName } from "../ir/ops.js";
import { T, elemScalar, isArray, isFloat, isInt, isNarrow, type Scalar } from "../ir/types.js";
import { arrayWhat, shapeText, type Val } from "./methods.js";
import type { Pass } from "./pass.js";
import type { ArrayOperand, Arrays } from "./arrays.js";
import type { Values } from "./values.js";

export class Intrinsics {
  constructor(private readonly pass: Pass, private readonly values: Values, private readonly arrays: Arrays) {}

  barrier(span: Span): Val {
    if (this.pass.switchDepth > 0) return this.pass.error("unsupported-syntax", "syncthreads() inside a switch is not supported", span, "use if/else around the barrier");
    this.pass.emit({ k: "barrier", loc: this.pass.loc(span) });
    return this.pass.unknown;
  }

  /** threadfence() / threadfenceBlock(): a memory fence of the device or of the block. */
  fence(scope: "device" | "block", span: Span): Val {
    this.pass.emit({ k: "fence", scope, loc: this.pass.loc(span) });
    return this.pass.unknown;
  }

  builtin(name: Builtin, span: Span): Val {
    return { k: "expr", h: this.pass.add({ k: "builtin", name, type: T.i32, loc: this.pass.loc(span) }), t: T.i32 };
  }

  /**
   * A subgroup operation: shuffles take a value of any scalar type and an integer lane (as u32,
   * ToUint32); add/min/max a number (a bool counts as an i32); any/all/ballot a truth value.
   */
  subgroup(op: SubgroupOp, args: Val[], span: Span, name: string): Val {
    if (this.pass.switchDepth > 0) return this.pass.error("unsupported-syntax", `${name}() inside a switch is not supported`, span, "use if/else around it");
    const shuffle = op.startsWith("shuffle");
    const want = shuffle ? 2 : 1;
    if (shuffle && args.length === 3) return this.shuffleWithin(op, args, span, name);
    if (args.length !== want) return this.pass.error("type", `${name} takes ${want} argument${want > 1 ? "s" : ""}${shuffle ? " (and a width)" : ""}, got ${args.length}`, span);
    const vote = op === "any" || op === "all" || op === "ballot" || op === "barrier";
    let t = vote ? T.bool : this.values.scalarType(args[0], span);
    if (!t) return this.pass.unknown;
    if (!shuffle && t === T.bool) t = T.i32;
    const operands = [vote ? this.values.truthy(args[0], span) : this.values.convert(args[0], t, span)];
    if (shuffle) {
      const lane = args[1];
      const lt = this.values.scalarType(lane, span);
      if (!lt) return this.pass.unknown;
      if (isFloat(lt) && !(lane.k === "weak" && Number.isInteger(lane.value)))
        return this.pass.error("type", `${name}: the ${op === "shuffle" ? "lane" : op === "shuffleXor" ? "lane mask" : "lane distance"} must be an integer, got ${lt.scalar}`, span, "keep it an integer: `d >> 1` instead of `d / 2`, or Math.floor(…)");
      operands.push(this.values.convert(lane, T.u32, span));
    }
    const rt = op === "ballot" ? T.u32 : vote ? T.bool : t;
    const result = this.pass.temp(rt);
    this.pass.emit({ k: "subgroup", op, args: operands, result, loc: this.pass.loc(span) });
    return { k: "expr", h: this.pass.read(result, span), t: rt };
  }

  /**
   * A shuffle within segments of `width` lanes (CUDA's `__shfl_*_sync(mask, v, lane, width)`): the
   * subgroup is cut into segments of `width` consecutive lanes, a power of two no more than the
   * subgroup; `shuffle` reads lane `lane % width` of the reader's segment, `shuffleUp`/`shuffleDown`
   * read within it (the reader's own value where the lane would leave it), `shuffleXor` may read an
   * earlier segment but gets its own value where the lane is in a later one. Written with the
   * whole-subgroup operation and the lane's position in its segment; a width that is not a power
   * of two, or more than subgroupSize(), is a KernelError at the call (the kernel assumed other
   * subgroups than the device has).
   */
  private shuffleWithin(op: SubgroupOp, args: Val[], span: Span, name: string): Val {
    const wt = this.values.scalarType(args[2], span), dt = this.values.scalarType(args[1], span), t = this.values.scalarType(args[0], span);
    if (!wt || !dt || !t) return this.pass.unknown;
    const hint = "keep it an integer: `d >> 1` instead of `d / 2`, or Math.floor(…)";
    if (isFloat(wt) && !(args[2].k === "weak" && Number.isInteger(args[2].value))) return this.pass.error("type", `${name}: the width must be an integer, got ${wt.scalar}`, span, hint);
    if (isFloat(dt) && !(args[1].k === "weak" && Number.isInteger(args[1].value)))
      return this.pass.error("type", `${name}: the ${op === "shuffle" ? "lane" : op === "shuffleXor" ? "lane mask" : "lane distance"} must be an integer, got ${dt.scalar}`, span, hint);
    const u32 = (v: Val) => this.values.reusable(this.values.convert(v, T.u32, span), span);
    const w = u32(args[2]), d = u32(args[1]), v = this.values.reusable(this.values.convert(args[0], t === T.bool ? T.bool : t, span), span);
    const k = (n: number) => this.pass.constant(n, T.u32, span);
    const o = (name: OpName, ...xs: ExprHandle[]) => this.pass.add({ k: "op", op: name, args: xs, type: T.scalar(resultScalar(name, name === "lor" ? "bool" : "u32")), loc: null });
    const lane = this.values.reusable(this.pass.add({ k: "convert", arg: this.pass.add({ k: "builtin", name: "subgroupLaneId", type: T.i32, loc: this.pass.loc(span) }), type: T.u32, loc: null }), span);
    const size = () => this.pass.add({ k: "convert", arg: this.pass.add({ k: "builtin", name: "subgroupSize", type: T.i32, loc: null }), type: T.u32, loc: null });
    // A width the device's subgroups cannot hold: 0, not a power of two, or more lanes than a subgroup.
    const bad = o("lor", o("lor", o("ne", o("and", w(), o("sub", w(), k(1))), k(0)), o("eq", w(), k(0))), o("gt", w(), size()));
    const i32 = (x: ExprHandle) => this.pass.add({ k: "convert", arg: x, type: T.i32, loc: null });
    const raise = this.pass.capture(() => this.pass.raise("throw", null,
      this.pass.ctx.message(`${name}: the width must be a power of two no more than subgroupSize(), got {0u} where subgroups have {1} lanes (the kernel assumed subgroups of more lanes than this device has)`), span, i32(w()), i32(size())));
    this.pass.emit({ k: "if", cond: bad, then: raise, else: [], loc: this.pass.loc(span) });
    const m = () => o("sub", w(), k(1));
    const within = (x: ExprHandle): ExprHandle => o("and", x, m());
    const operands = [v()];
    let laneOperand: ExprHandle, keep: ExprHandle | null;
    switch (op) {
      case "shuffle": laneOperand = o("or", o("and", lane(), o("bitnot", m())), within(d())); keep = null; break;
      case "shuffleUp": laneOperand = d(); keep = o("ge", within(lane()), d()); break;
      case "shuffleDown": laneOperand = d(); keep = o("lt", d(), o("sub", w(), within(lane()))); break;
      default: laneOperand = d(); keep = o("lt", o("xor", lane(), d()), o("add", o("and", lane(), o("bitnot", m())), w()));
    }
    operands.push(laneOperand);
    const rt = t === T.bool ? T.bool : t;
    const result = this.pass.temp(rt);
    this.pass.emit({ k: "subgroup", op, args: operands, result, loc: this.pass.loc(span) });
    const r = this.pass.read(result, span);
    return { k: "expr", h: keep === null ? r : this.pass.add({ k: "select", cond: keep, a: r, b: v(), type: rt, loc: null }), t: rt };
  }

  /** An atomic read-modify-write; returns the old value. */
  atomic(op: AtomicOp, args: Val[], span: Span, name: string): Val {
    const want = op === "compareExchange" ? 4 : op === "load" ? 2 : 3;
    if (args.length !== want) return this.pass.error("type", `${name} takes ${want} arguments, got ${args.length}`, span);
    const a0 = args[0];
    // A row of a multi-dimensional shared array (`Atomics.add(t[y], x, 1)`) is an array whose last index is args[1].
    if (a0.k === "row" && a0.indices.length + 1 !== a0.shape.dims.length) return this.pass.error("type", `${name} needs a row of the last dimension of ${arrayWhat(a0.shape)}, e.g. ${name}(${a0.shape.name}${a0.shape.dims.slice(1).map(() => "[y]").join("")}, x, …)`, span);
    const shape0 = a0.k === "expr" ? this.arrays.shapeOf(a0.h) : undefined;
    if (shape0) return this.pass.error("type", `${name} needs a row of ${arrayWhat(shape0)} (${shapeText(shape0.dims)}), e.g. ${name}(${shape0.name}${shape0.dims.slice(1).map(() => "[y]").join("")}, x, …)`, span);
    const operand: ArrayOperand | null = a0.k === "row" ? { h: a0.array, t: a0.t, row: { shape: a0.shape, indices: a0.indices } }
      : a0.k === "view" ? { h: a0.base, t: a0.t, view: a0 } : a0.k === "expr" && isArray(a0.t) ? { h: a0.h, t: a0.t } : null;
    if (!operand) return a0.k === "expr" && a0.t.kind === "unknown" ? this.pass.unknown : this.pass.error("type", `${name} needs an array as its first argument`, span);
    const t = operand.t;
    const floatOk = name === "atomicAdd" || op === "load" || op === "store" || op === "exchange";
    const js = name.startsWith("Atomics.");
    // JavaScript's Atomics take every integer typed array but Uint8ClampedArray (a TypeError);
    // gpuc's atomicMin/atomicMax/atomicAdd/atomicInc/atomicDec take 32-bit elements only.
    if (t.elem === "u8c" && js) return this.pass.error("type", `${name} does not work on Uint8ClampedArray (u8c[]), as in JavaScript (a TypeError there); use a Uint8Array`, span);
    if (!(t.elem === "i32" || t.elem === "u32" || (isNarrow(t.elem) && js) || (t.elem === "f32" && floatOk && !js)))
      return this.pass.error("type", `${name} works on ${js ? "Int32Array, Uint32Array, Int16Array, Uint16Array, Int8Array and Uint8Array" : name === "atomicAdd" ? "Int32Array, Uint32Array and Float32Array" : "Int32Array and Uint32Array"} arrays, not ${t.elem}[]`, span);
    if (t.space !== "global" && t.space !== "shared") return this.pass.error("type", `${name} works on global and shared arrays, not ${t.space} ones`, span);
    const iv = args[1];
    const idxT = iv.k === "weak" ? null : this.values.scalarType(iv, span);
    if (iv.k !== "weak" && (!idxT || !isInt(idxT))) return this.pass.error("type", `${name}: the index must be an integer`, span);
    const idx = iv.k === "weak" ? this.pass.constant(iv.value, T.i32, span) : (iv as { h: ExprHandle }).h;
    const elem = T.scalar(elemScalar(t.elem));
    const operands = args.slice(2).map((v) => this.values.convert(v, elem, span));
    // A narrow element is compared with the expected value as the typed array stores it (its low bits).
    if (op === "compareExchange" && isNarrow(t.elem)) operands[0] = this.arrays.narrowed(operands[0], t.elem);
    const c = this.arrays.access(operand, idx, span);
    const result = this.pass.temp(elem);
    this.pass.emit({ k: "atomic", op, array: c.array(), index: c.index(), args: operands, result, loc: this.pass.loc(span) });
    return { k: "expr", h: this.pass.read(result, span), t: elem };
  }


  /**
   * console.log(…): a print record through the runtime library, formatted on the host. Its
   * arguments are printed with a space between them, as console.log does; a template literal's
   * pieces and substitutions with none, each substitution as String() writes it.
   */
  print(args: Val[], span: Span): Val {
    const parts: PrintFormat["parts"] = [];
    const values: { h: ExprHandle; t: Scalar }[] = [];
    const text = (s: string): void => {
      const last = parts.length - 1;
      if (last >= 0 && parts[last].startsWith("'")) parts[last] = `${parts[last]}${s}` as `'${string}`;
      else if (s) parts.push(`'${s}`);
    };
    // (A template literal's substitution may be a string, or a template literal itself.)
    const value = (a: Val, asString: boolean): boolean => {
      if (a.k === "str" && !a.template) { text(a.value); return true; }
      if (a.k === "str") {
        const { quasis, values: subs } = a.template!;
        for (const [j, q] of quasis.entries()) {
          text(q);
          if (j < subs.length && !value(subs[j], true)) return false;
        }
        return true;
      }
      const t = this.values.scalarType(a, span);
      if (!t) return false;
      parts.push(asString && isFloat(t) ? (t.scalar === "f32" ? "f32s" : "f64s") : t.scalar);
      values.push({ h: this.values.convert(a, t, span), t: t.scalar });
      return true;
    };
    for (const [i, a] of args.entries()) {
      if (i > 0) text(" ");
      if (!value(a, false)) return this.pass.unknown;
    }
    const words = parts.reduce((n, p) => n + printPartWords(p), 0);
    const fmt = this.pass.ctx.format({ parts, loc: this.pass.loc(span) });
    const rt = this.pass.ctx.runtime("gpuc_print_reserve");
    const at = this.pass.temp(T.i32);
    this.pass.emit({ k: "call", fn: rt.handle as never, args: [this.pass.stateExpr(), this.pass.constant(fmt, T.i32, span), this.pass.constant(words, T.i32, span)], result: at, loc: this.pass.loc(span) });
    const stores = this.pass.capture(() => {
      let k = 0;
      const put = (word: ExprHandle): void => {
        const index = this.pass.add({ k: "op", op: "add", args: [this.pass.read(at), this.pass.constant(k++, T.i32, span)], type: T.i32, loc: null });
        this.pass.emit({ k: "store", array: this.pass.stateExpr(), index, value: word, loc: this.pass.loc(span) });
      };
      for (const v of values) {
        if (v.t === "f32") put(this.pass.add({ k: "op", op: "f32bits", args: [v.h], type: T.i32, loc: null }));
        else if (v.t === "f64") {
          const r = this.values.reusable(v.h, span);
          put(this.pass.add({ k: "op", op: "f64hi", args: [r()], type: T.i32, loc: null }));
          put(this.pass.add({ k: "op", op: "f64lo", args: [r()], type: T.i32, loc: null }));
        } else put(this.values.convertH(v.h, T.i32, span));
      }
    });
    const ok = this.pass.add({ k: "op", op: "ge", args: [this.pass.read(at), this.pass.constant(0, T.i32, span)], type: T.bool, loc: null });
    this.pass.emit({ k: "if", cond: ok, then: stores, else: [], loc: this.pass.loc(span) });
    return this.pass.unknown;
  }
}
