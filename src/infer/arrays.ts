// Arrays during a pass: what an index applies to (an array, a row of a multi-dimensional shared
// array, a view), the checked access it makes (one bounds check per dimension; a view's index
// against its length), views (`subarray`, a row of the last dimension passed on), and the value
// a store into an element takes (narrow and clamped elements included).

import type { Span } from "../frontend/source.js";
import { walkUBody, type UExpr } from "../frontend/uir.js";
import type { ExprHandle, LocalHandle } from "../ir/module.js";
import type { OpName } from "../ir/ops.js";
import type { SizeExpr } from "../ir/size.js";
import { sizeIR } from "../ir/passes/launch-sizes.js";
import { T, elemBytes, elemScalar, isArray, isFloat, isInt, structsLeaves, typeName, type AggType, type ArrayType, type Elem, type ScalarType, type Type } from "../ir/types.js";
import { arrayWhat, shapeText, type AggVal, type Dim, type SharedShape, type Val, type ViewVal } from "./methods.js";
import type { Pass } from "./pass.js";
import { aggText, type Values } from "./values.js";
import { partOf } from "./aggregates.js";

/** An array being indexed: its expression and type, and for a multi-dimensional shared array (or a row of one) its shape and the indices applied so far. */
export interface ArrayOperand { h: ExprHandle; t: Extract<Type, { kind: "array" }>; row?: { shape: SharedShape; indices: ExprHandle[] }; view?: ViewVal }

export function once(h: ExprHandle): () => ExprHandle { return () => h; }

/** Whether a field of an array of objects' objects holds an array (at any depth). */
function holdsArray(t: Type): boolean {
  return t.kind === "structs" || t.kind === "array" || (t.kind === "agg" && t.fields.some((f) => holdsArray(f.type)));
}

export class Arrays {
  /** The shapes of this function's multi-dimensional shared arrays, by shared-array handle. */
  private sharedShapes = new Map<number, SharedShape>();
  /** The shapes of parameters that are multi-dimensional shared arrays, by parameter local. */
  private paramShapes = new Map<number, SharedShape>();

  constructor(private readonly pass: Pass, private readonly values: Values) {}

  /** An expression as the array an index applies to; null after reporting why not (or while its type is unknown). */
  arrayOperand(e: UExpr): ArrayOperand | null {
    return this.operandOf(this.pass.lower.expr(e), e.span);
  }

  /** A value as the array an index applies to (see arrayOperand). */
  operandOf(a: Val, span: Span): ArrayOperand | null {
    if (a.k === "null") { this.nullAccess(a, "read an element of", span); return null; }
    if (a.k === "row") return { h: a.array, t: a.t, row: { shape: a.shape, indices: a.indices } };
    if (a.k === "view") return { h: a.base, t: a.t, view: a };
    if (a.k === "expr" && isArray(a.t)) {
      const shape = this.shapeOf(a.h);
      return shape ? { h: a.h, t: a.t, row: { shape, indices: [] } } : { h: a.h, t: a.t };
    }
    if (a.k === "expr" && a.t.kind === "unknown") return null;
    this.pass.err("type", `indexing needs an array, got ${a.k === "str" ? "a string" : a.k === "agg" ? aggText(this.values.typeOf(a)) : typeName(this.values.typeOf(a))}`, span);
    return null;
  }

  /**
   * The array of one number field of an array of objects (`a[i].x` indexes `a`'s x array), or
   * null after reporting that its objects have no such field (or that it holds objects or arrays:
   * stores reach numbers only).
   */
  structField(a: Extract<Val, { k: "structs" }>, field: string, span: Span): ArrayOperand | null {
    const r = this.structMember(a, field, span);
    if (!r) return null;
    if (r.type.kind !== "scalar") {
      this.pass.err("invalid-assignment", `field '${field}' of the objects of '${a.name}' holds ${r.type.kind === "agg" ? "an object" : "an array"}: stores into the objects and arrays inside the objects of an array of objects are not supported`, span,
        "keep what the kernel writes in a field of numbers, or in an array of its own");
      return null;
    }
    return { h: this.pass.add({ ...this.pass.fn.exprs[a.leaves[r.start]] }), t: this.pass.fn.exprs[a.leaves[r.start]].type as ArrayType };
  }

  /** A field of the objects of `a`: its type and its leaves among a's (structsLeaves order); null after reporting there is none. */
  private structMember(a: Extract<Val, { k: "structs" }>, field: string, span: Span): { type: Type; start: number; count: number } | null {
    let start = 0;
    for (const f of a.t.of.fields) {
      const count = f.type.kind === "agg" ? structsLeaves(f.type).length : f.type.kind === "structs" ? structsLeaves(f.type.of).length : 1;
      if (f.name === field) return { type: f.type, start, count };
      start += count;
    }
    this.pass.err("type", `the objects of '${a.name}' (${typeName(a.t)}) have no field '${field}'`, span, `their fields are ${a.t.of.fields.map((f) => f.name).join(", ")}`);
    return null;
  }

  /**
   * The checked position of `a[index]` among a's objects (each leaf holds its `per` values of an
   * object from position × per): one check — of a fixed-length array inside an object against its
   * length, else of a leaf holding one value per object against its length (they have one length).
   */
  private structPosition(a: Extract<Val, { k: "structs" }>, index: UExpr, span: Span): (() => ExprHandle) | null {
    const i = this.index(index);
    if (i === null) return null;
    const idx = this.values.stable(i, index.span);
    const leaves = structsLeaves(a.t.of);
    const copy = (h: ExprHandle) => this.pass.add({ ...this.pass.fn.exprs[h] });
    const leafT = (j: number) => this.pass.fn.exprs[a.leaves[j]].type as ArrayType;
    if (a.at) return this.viewAccess({ k: "view", base: a.leaves[0], t: leafT(0), offset: a.at.offset, length: a.at.length, name: a.name }, idx, span, 2).index;
    const one = leaves.findIndex((l) => l.per === 1);
    if (one >= 0) return this.access({ h: copy(a.leaves[one]), t: leafT(one) }, idx, span, 2).index;
    return this.viewAccess({ k: "view", base: a.leaves[0], t: leafT(0), offset: this.pass.constant(0, T.i32, span), length: this.structsCount(a, span), name: a.name }, idx, span, 2).index;
  }

  /** How many objects an array of objects holds (an i32 expression). */
  structsCount(a: Extract<Val, { k: "structs" }>, span: Span): ExprHandle {
    if (a.at) return this.pass.add({ ...this.pass.fn.exprs[a.at.length] });
    const leaves = structsLeaves(a.t.of);
    const j = Math.max(0, leaves.findIndex((l) => l.per === 1));
    const size = (this.pass.fn.exprs[a.leaves[j]].type as ArrayType).size;
    if (size !== null) return this.pass.constant(size / leaves[j].per, T.i32, span);
    const len = this.pass.add({ k: "length", array: this.pass.add({ ...this.pass.fn.exprs[a.leaves[j]] }), type: T.i32, loc: this.pass.loc(span) });
    return leaves[j].per === 1 ? len : this.pass.add({ k: "op", op: "div", args: [len, this.pass.constant(leaves[j].per, T.i32, span)], type: T.i32, loc: null });
  }

  /**
   * `a[i]` of an array of objects: the object value its leaves' arrays hold at `i`. Where the
   * function assigns the fields of `a`'s objects, it carries `a` as its root (the sharing rules:
   * aggregates.ts mayHold). Objects holding arrays are read a field at a time (`a[i].nei[k].n`).
   */
  structElement(a: Extract<Val, { k: "structs" }>, index: UExpr, span: Span, root: (val: AggVal) => AggVal): Val {
    const arrays = a.t.of.fields.find((f) => holdsArray(f.type));
    if (arrays) {
      this.index(index);
      return this.pass.error("unsupported-type", `the objects of '${a.name}' hold arrays ('${arrays.name}'): such an object is not a value in kernels`, span,
        `read its fields where you index it, e.g. ${a.name}[i].${arrays.name}${arrays.type.kind === "structs" ? `[k].${arrays.type.of.fields[0].name}` : "[k]"}`);
    }
    const pos = this.structPosition(a, index, span);
    if (!pos) return this.pass.unknown;
    return root(this.structValue(a, a.t.of, 0, pos, span));
  }

  /**
   * `a[i].name`: one field of an element of an array of objects, read alone — a number, an object
   * value, or a fixed-length array inside the object (a view of a leaf, or an array of objects
   * over its leaves' part).
   */
  structElementField(a: Extract<Val, { k: "structs" }>, index: UExpr, name: string, span: Span, root: (val: AggVal) => AggVal): Val {
    const m = this.structMember(a, name, span);
    const pos = this.structPosition(a, index, span);
    if (!m || !pos) return this.pass.unknown;
    const t = m.type;
    if (t.kind === "agg" && holdsArray(t))
      return this.pass.error("unsupported-type", `field '${name}' of the objects of '${a.name}' is an object holding arrays, which is not a value in kernels`, span, "keep fixed-length arrays at the first level of the objects");
    if (t.kind === "scalar" || t.kind === "agg") {
      // (Read as a one-field object's field: an object field carries a's root as a[i] would, for the sharing rules.)
      const whole = root(this.structValue(a, T.agg(false, [{ name, type: t }]), m.start, pos, span));
      return partOf(whole, name, whole.fields[0].v);
    }
    const what = `${a.name}[…].${name}`;
    const count = t.kind === "structs" ? t.count! : (t as ArrayType).size!;
    const offset = this.values.stable(this.pass.add({ k: "op", op: "mul", args: [pos(), this.pass.constant(count, T.i32, span)], type: T.i32, loc: null }), span);
    const length = this.pass.constant(count, T.i32, span);
    if (t.kind === "structs") return { k: "structs", t, leaves: a.leaves.slice(m.start, m.start + m.count), name: what, at: { offset, length } };
    return { k: "view", base: this.pass.add({ ...this.pass.fn.exprs[a.leaves[m.start]] }), t: T.array((t as ArrayType).elem, "global"), offset, length, name: what };
  }

  /** The object value of type `of` (number and object fields) whose leaves are a's from `start`, at a position. */
  private structValue(a: Extract<Val, { k: "structs" }>, of: AggType, start: number, pos: () => ExprHandle, span: Span): AggVal {
    let at = start;
    const value = (t: AggType): AggVal => ({ k: "agg", tuple: false, fresh: false, fields: t.fields.map((f) => {
      if (f.type.kind === "agg") return { name: f.name, v: value(f.type) };
      const h = a.leaves[at++];
      const leaf: ArrayOperand = { h: this.pass.add({ ...this.pass.fn.exprs[h] }), t: this.pass.fn.exprs[h].type as ArrayType };
      const v = this.load(leaf, leaf.h, pos(), span);
      // (A boolean field's leaf holds 0 or 1: the field reads as a boolean.)
      return { name: f.name, v: f.type === T.bool ? { k: "expr", h: this.values.convertH((v as { h: ExprHandle }).h, T.bool, span), t: T.bool } : v };
    }) });
    return value(of);
  }

  /**
   * An element or the length of an absent optional array (`a[i]`, `a[i] = v`, `a.length` where
   * `a` is null): JavaScript's TypeError where it is reached, after the operands' effects — a
   * KernelError at its line. The value (never seen) is a weak 0.
   */
  nullAccess(a: { undef: boolean }, what: "read an element of" | "set an element of" | "read the length of", span: Span): Val {
    if (this.pass.fn.stateParam === null)
      return this.pass.error("type", `this ${what.startsWith("set") ? "store" : "read"} is of ${a.undef ? "undefined" : "null"} (an absent optional array), which a helper compiled without bounds checks cannot report`, span,
        "test the array first (`if (a) …`), or compile with bounds checks");
    this.pass.raise("throw", null, this.pass.ctx.message(`TypeError: cannot ${what} ${a.undef ? "undefined" : "null"}`), span, null, null);
    return { k: "weak", value: 0, isFloat: false };
  }

  /** An array index: an integer constant (i32, or u32 past i32's range) or an integer expression; null after reporting why not. */
  index(e: UExpr): ExprHandle | null {
    const v = this.pass.lower.expr(e);
    if (v.k === "weak") {
      if (!Number.isInteger(v.value) || v.value < 0) { this.pass.err("type", `array index ${v.value} is not a non-negative integer`, e.span); return null; }
      return this.pass.constant(v.value, v.value <= 0x7fffffff ? T.i32 : T.u32, e.span);
    }
    const t = this.values.scalarType(v, e.span);
    if (!t) return null;
    if (t === T.f64 && v.k === "expr") return this.wholeIndex(v.h, e.span);
    if (!isInt(t)) {
      this.pass.err("type", `array index must be an integer, got ${typeName(t)}${this.divisionIn(e)}`, e.span,
        "convert it, e.g. `Math.floor(x) | 0`; JavaScript's `/` gives a float even for integers: for an integer quotient write `(a / b) | 0`, or `a >> 1` for `a / 2`");
      return null;
    }
    return v.k === "expr" ? v.h : null;
  }

  /**
   * Where a float index comes from (ported C's `size / 2` is an integer division there, a float one
   * in JavaScript): words for the message naming it — a `/` in the index, or a float variable of
   * the index followed back through what the function assigns it (a division, or the call's
   * argument where it is a helper's parameter) — or "".
   */
  private divisionIn(e: UExpr): string {
    const ufn = this.pass.ufn;
    const text = (x: UExpr): string => ufn.source.text.slice(x.span.start, x.span.end);
    const division = (x: UExpr | null): UExpr | null => {
      let found: UExpr | null = null;
      if (x) walkUBody([{ k: "expr", e: x, span: x.span }], (y) => { if (!found && y.k === "binary" && y.op === "/") found = y; });
      return found;
    };
    const inIndex = division(e);
    if (inIndex) return ` (\`${text(inIndex)}\` is a float)`;
    const floatVars = (x: UExpr): number[] => {
      const vs: number[] = [];
      walkUBody([{ k: "expr", e: x, span: x.span }], (y) => {
        const t = y.k === "var" && !ufn.vars[y.v].declared ? this.pass.varTypes[y.v] : null;
        if (t && t.kind === "scalar" && isFloat(t) && !vs.includes((y as { v: number }).v)) vs.push((y as { v: number }).v);
      });
      return vs;
    };
    // A variable's story: the first of its values that explains it (two steps back at most).
    const explain = (v: number, depth: number): string => {
      const name = ufn.vars[v].name;
      if (ufn.params.includes(v)) return this.pass.kind === "helper" ? `'${name}' is a float: the call passes one` : "";
      const values: UExpr[] = [];
      walkUBody(ufn.body, (y) => { if (y.k === "assign" && y.target.k === "var" && y.target.v === v) values.push(y.value); },
        (st) => { if (st.k === "decl" && st.v === v && st.init) values.push(st.init); });
      for (const x of values) {
        const d = division(x);
        if (d) return `'${name}' is a float: it is assigned \`${text(d)}\` at line ${ufn.source.locate(d.span.start).line}`;
      }
      if (depth === 0) return "";
      for (const x of values) for (const w of floatVars(x)) {
        if (w === v) continue;
        const why = explain(w, depth - 1);
        if (why) return `'${name}' is a float: it is assigned \`${text(x)}\` at line ${ufn.source.locate(x.span.start).line}, and ${why}`;
      }
      return "";
    };
    for (const v of floatVars(e)) {
      const why = explain(v, 2);
      if (why) return ` (${why})`;
    }
    return "";
  }

  /**
   * An f64 index (a number read from a plain Array of objects, whose fields are JavaScript's
   * numbers): the element at that integer, as JavaScript indexes; where it is not an integer from
   * 0 to 2³¹ − 1 (JavaScript reads undefined there), a bounds error like any index outside.
   */
  private wholeIndex(h: ExprHandle, span: Span): ExprHandle {
    const x = this.values.reusable(h, span);
    const i = this.values.reusable(this.values.convertH(x(), T.i32, span), span);
    if (this.pass.ctx.options.boundsCheck && this.pass.kind !== "runtime") {
      const bad = this.pass.add({ k: "op", op: "ne", args: [this.values.convertH(i(), T.f64, span), x()], type: T.bool, loc: this.pass.loc(span) });
      const code = this.pass.ctx.message("index out of bounds: a number that is not an integer from 0 to 2147483647 (its integer part as an i32: {0})", "bounds");
      this.pass.raise("bounds", bad, code, span, i(), i());
    }
    return i();
  }

  /** The shape of a multi-dimensional shared array expression (none for any other expression). */
  shapeOf(h: ExprHandle): SharedShape | undefined {
    const e = this.pass.fn.exprs[h];
    return e.k === "shared" ? this.sharedShapes.get(e.shared) : e.k === "local" ? this.paramShapes.get(e.local) : e.k === "global" ? this.pass.ctx.tableShape(e.global) : undefined;
  }

  /** A multi-dimensional shared array declared in this function. */
  setSharedShape(shared: number, shape: SharedShape): void { this.sharedShapes.set(shared, shape); }

  /** A parameter that is a multi-dimensional shared array (a helper's, indexed as the kernel does). */
  setParamShape(param: LocalHandle, shape: SharedShape): void { this.paramShapes.set(param, shape); }

  /** The checked access of `a[index]`: an array's element, or the element a row's indices and `index` select. */
  access(a: ArrayOperand, index: ExprHandle, span: Span, uses: 1 | 2 = 1): { array: () => ExprHandle; index: () => ExprHandle } {
    if (a.view) return this.viewAccess(a.view, index, span, uses);
    if (!a.row) return this.checked(a.h, a.t, index, span, uses);
    const { shape, indices } = a.row;
    const dims = shape.dims;
    const all = [...indices.map((h) => this.values.reusable(this.pass.add({ ...this.pass.fn.exprs[h] }), span)), this.values.reusable(index, span)];
    const i32 = (r: () => ExprHandle) => this.values.convertH(r(), T.i32, span);
    if (this.pass.ctx.options.boundsCheck && this.pass.kind !== "runtime") {
      // One check per dimension, in order; each reports two of the indices (both, for two dimensions).
      const text = shapeText(dims, this.paramNames());
      for (let k = 0; k < dims.length; k++) {
        const pair = k < dims.length - 1 ? [k, k + 1] : [k - 1, k];
        const fmt = (j: number, slot: 0 | 1) => `{${slot}${this.pass.fn.exprs[all[j]()].type === T.u32 ? "u" : ""}}`;
        const at = dims.map((_d, j) => (j === pair[0] ? `[${fmt(j, 0)}]` : j === pair[1] ? `[${fmt(j, 1)}]` : "[…]")).join("");
        const code = this.pass.ctx.message(`index ${at} out of bounds for ${arrayWhat(shape)} of shape ${text}`, "bounds");
        const out = this.pass.add({ k: "op", op: "ge", args: [this.values.convertH(all[k](), T.u32, span), this.dimValue(dims[k], T.u32, span)], type: T.bool, loc: this.pass.loc(span) });
        this.pass.raise("bounds", out, code, span, i32(all[pair[0]]), i32(all[pair[1]]));
      }
    }
    const flat = this.rowMajor(all, dims, span);
    const arr = this.values.reusable(a.h, span);
    return uses === 1 ? { array: arr, index: once(flat) } : { array: arr, index: this.values.reusable(flat, span) };
  }

  /**
   * A bounds check before an access of `array[index]` (unless bounds checks are off): an
   * out-of-range index reports "index i out of bounds for array 'a' of length n" and ends the
   * thread. Returns reusable handles for the access itself.
   */
  private checked(array: ExprHandle, t: ArrayType, index: ExprHandle, span: Span, uses: 1 | 2): { array: () => ExprHandle; index: () => ExprHandle } {
    if (!this.pass.ctx.options.boundsCheck || this.pass.kind === "runtime")
      return uses === 1 ? { array: once(array), index: once(index) } : { array: this.values.reusable(array, span), index: this.values.reusable(index, span) };
    const key = this.pass.checkKey(array, index);
    if (key && this.pass.alreadyChecked(key))
      return uses === 1 ? { array: once(array), index: once(index) } : { array: this.values.reusable(array, span), index: this.values.reusable(index, span) };
    const arr = this.values.reusable(array, span), idx = this.values.reusable(index, span);
    const idxT = this.pass.fn.exprs[index].type as ScalarType;
    const len = t.size !== null ? this.pass.constant(t.size, T.u32, span) : this.values.convertH(this.pass.add({ k: "length", array: arr(), type: T.i32, loc: null }), T.u32, span);
    const i = idx();
    const out = this.pass.add({ k: "op", op: "ge", args: [this.values.convertH(i, T.u32, span), len], type: T.bool, loc: this.pass.loc(span) });
    const name = this.arrayName(array);
    const code = this.pass.ctx.message(`index {0${idxT === T.u32 ? "u" : ""}} out of bounds for array '${name}' of length {1}`, "bounds");
    const lenI = t.size !== null ? this.pass.constant(t.size, T.i32, span) : this.pass.add({ k: "length", array: arr(), type: T.i32, loc: null });
    this.pass.raise("bounds", out, code, span, this.values.convertH(idx(), T.i32, span), lenI);
    // The check's own index may have been spilled to a temporary: key it by what the access uses.
    const after = this.pass.checkKey(arr(), idx());
    if (after) this.pass.noteChecked(after);
    return { array: arr, index: idx };
  }

  private arrayName(h: ExprHandle): string {
    const e = this.pass.fn.exprs[h];
    if (e.k === "local") return this.pass.fn.locals[e.local].name;
    if (e.k === "global" || e.k === "shared") return this.pass.ctx.arrayName(e);
    return "array";
  }

  /** The checked access of `view[index]`: the index against the view's length, the element at offset + index. */
  private viewAccess(v: ViewVal, index: ExprHandle, span: Span, uses: 1 | 2): { array: () => ExprHandle; index: () => ExprHandle } {
    const idx = this.values.reusable(index, span);
    const copy = (h: ExprHandle) => this.pass.add({ ...this.pass.fn.exprs[h] });
    if (this.pass.ctx.options.boundsCheck && this.pass.kind !== "runtime") {
      const idxT = this.pass.fn.exprs[index].type as ScalarType;
      const code = this.pass.ctx.message(`index {0${idxT === T.u32 ? "u" : ""}} out of bounds for view '${v.name}' of length {1}`, "bounds");
      const out = this.pass.add({ k: "op", op: "ge", args: [this.values.convertH(idx(), T.u32, span), this.values.convertH(copy(v.length), T.u32, span)], type: T.bool, loc: this.pass.loc(span) });
      this.pass.raise("bounds", out, code, span, this.values.convertH(idx(), T.i32, span), copy(v.length));
    }
    const flat = this.pass.add({ k: "op", op: "add", args: [copy(v.offset), this.values.convertH(idx(), T.i32, span)], type: T.i32, loc: null });
    const arr = this.values.reusable(copy(v.base), span);
    return uses === 1 ? { array: arr, index: once(flat) } : { array: arr, index: this.values.reusable(flat, span) };
  }

  /**
   * A row of the last dimension of a multi-dimensional shared array, as a view (to pass to a
   * helper or take a subarray of): the indices applied so far are checked here, as the row is
   * made, each reporting itself and its dimension.
   */
  rowToView(a: ArrayOperand, span: Span): ViewVal {
    const { shape, indices } = a.row!;
    const dims = shape.dims;
    const all = indices.map((h) => this.values.reusable(this.pass.add({ ...this.pass.fn.exprs[h] }), span));
    const i32 = (r: () => ExprHandle) => this.values.convertH(r(), T.i32, span);
    if (this.pass.ctx.options.boundsCheck && this.pass.kind !== "runtime") {
      const text = shapeText(dims, this.paramNames());
      all.forEach((r, k) => {
        const code = this.pass.ctx.message(`index {0${this.pass.fn.exprs[r()].type === T.u32 ? "u" : ""}} out of bounds for dimension ${k + 1} of ${arrayWhat(shape)} of shape ${text} (length {1})`, "bounds");
        const out = this.pass.add({ k: "op", op: "ge", args: [this.values.convertH(r(), T.u32, span), this.dimValue(dims[k], T.u32, span)], type: T.bool, loc: this.pass.loc(span) });
        this.pass.raise("bounds", out, code, span, i32(r), this.dimValue(dims[k], T.i32, span));
      });
    }
    const flat = this.rowMajor(all, dims, span);
    const last = dims[dims.length - 1];
    const offset = this.values.stable(this.pass.add({ k: "op", op: "mul", args: [flat, this.dimValue(last, T.i32, span)], type: T.i32, loc: null }), span);
    const length = typeof last === "number" ? this.pass.constant(last, T.i32, span) : this.values.stable(this.sizeIR(last, span), span);
    return { k: "view", base: this.pass.add({ ...this.pass.fn.exprs[a.h] }), t: a.t, offset, length, name: `${shape.name}${indices.map(() => "[…]").join("")}` };
  }

  /** The row-major flat index of `indices` (one per leading dimension of `dims`): ((i0 * d1) + i1) * d2 + i2, as i32. */
  private rowMajor(indices: (() => ExprHandle)[], dims: SharedShape["dims"], span: Span): ExprHandle {
    let flat = this.values.convertH(indices[0](), T.i32, span);
    for (let k = 1; k < indices.length; k++) {
      const scaled = this.pass.add({ k: "op", op: "mul", args: [flat, this.dimValue(dims[k], T.i32, span)], type: T.i32, loc: null });
      flat = this.pass.add({ k: "op", op: "add", args: [scaled, this.values.convertH(indices[k](), T.i32, span)], type: T.i32, loc: null });
    }
    return flat;
  }

  /** A view with fresh handles for its parts (each use of a view reads them anew). */
  copyView(v: ViewVal, span: Span): ViewVal {
    const copy = (h: ExprHandle) => this.pass.add({ ...this.pass.fn.exprs[h], loc: this.pass.loc(span) });
    return { ...v, base: copy(v.base), offset: copy(v.offset), length: copy(v.length) };
  }

  /**
   * `a.subarray(begin, end?)` as JavaScript defines it: a negative begin or end counts from the
   * end, both are clamped to [0, length], and the view is empty when end ≤ begin. The view's
   * offset and length are computed here, once, into temporaries.
   */
  subarray(e: Extract<UExpr, { k: "subarray" }>, span: Span): Val {
    const a = this.arrayOperand(e.array);
    const args = e.args.map((x) => this.pass.lower.expr(x));
    if (!a) return this.pass.unknown;
    if (a.view?.bits) return this.pass.error("unsupported-syntax", `a subarray of a typed array over the buffer of '${a.view.name}' is not supported; index it`, span);
    if (a.row && a.row.indices.length + 1 < a.row.shape.dims.length) return this.pass.error("type", `subarray of ${arrayWhat(a.row.shape)} needs a row of its last dimension`, span);
    const base = a.row ? this.rowToView(a, span) : a.view ?? { k: "view" as const, base: a.h, t: a.t, offset: this.pass.constant(0, T.i32, span), length: this.lengthOf(a.h, a.t, span), name: this.arrayName(a.h) };
    const ints: ExprHandle[] = [];
    for (let i = 0; i < args.length; i++) {
      const v = args[i];
      const t = v.k === "weak" ? (Number.isInteger(v.value) ? T.i32 : T.f32) : this.values.scalarType(v, e.args[i].span);
      if (!t) return this.pass.unknown;
      if (!isInt(t)) return this.pass.error("type", `subarray's ${i === 0 ? "begin" : "end"} must be an integer, got ${typeName(t)}`, e.args[i].span);
      ints.push(this.values.convert(v, T.i32, e.args[i].span));
    }
    const op = (o: "add" | "sub" | "min" | "max" | "lt", x: ExprHandle, y: ExprHandle) => this.pass.add({ k: "op", op: o, args: [x, y], type: o === "lt" ? T.bool : T.i32, loc: null });
    const c = (n: number) => this.pass.constant(n, T.i32, span);
    const len = this.values.reusable(base.length, span);
    // JS's relative index: x < 0 ? max(len + x, 0) : min(x, len).
    const relative = (x: ExprHandle): ExprHandle => {
      const r = this.values.reusable(x, span);
      return this.pass.add({ k: "select", cond: op("lt", r(), c(0)), a: op("max", op("add", len(), r()), c(0)), b: op("min", r(), len()), type: T.i32, loc: null });
    };
    const begin = this.values.stable(relative(ints[0]), span);
    const end = ints.length > 1 ? relative(ints[1]) : len();
    const beginR = this.values.reusable(begin, span);
    const length = this.values.stable(op("max", op("sub", end, beginR()), c(0)), span);
    const offset = this.values.stable(op("add", this.pass.add({ ...this.pass.fn.exprs[base.offset] }), beginR()), span);
    return { k: "view", base: base.base, t: base.t, offset, length, name: base.name };
  }

  /**
   * Make variable `v` a rebindable view (CUDA's pointer bump, `a = a.subarray(k)`): its offset and
   * length in locals set from `view` here, read wherever `v` is, set again by each rebinding.
   */
  makeRebindable(v: number, view: ViewVal, span: Span): void {
    const name = view.name;
    const off = this.pass.newLocal(`${name}_off`, T.i32), len = this.pass.newLocal(`${name}_len`, T.i32);
    this.pass.emit({ k: "set", local: off, value: view.offset, loc: this.pass.loc(span) });
    this.pass.emit({ k: "set", local: len, value: view.length, loc: this.pass.loc(span) });
    this.pass.rebindable.set(v, { off, len, base: view.base });
    this.pass.viewAliases.set(v, { k: "view", base: view.base, t: view.t, offset: this.pass.read(off), length: this.pass.read(len), name });
  }

  /** `v = value` for a rebindable view: a view of the same array (its offset and length set), or a CompileError. */
  rebind(v: number, value: Val, span: Span): void {
    const r = this.pass.rebindable.get(v)!, name = this.pass.ufn.vars[v].name;
    const view = value.k === "view" ? value : value.k === "expr" && isArray(value.t) ? { k: "view" as const, base: value.h, t: value.t, offset: this.pass.constant(0, T.i32, span), length: this.lengthOf(value.h, value.t, span), name } : null;
    if (!view) { this.pass.err("invalid-assignment", `'${name}' is an array: it may be rebound to a view of itself (${name} = ${name}.subarray(k)), not to another value`, span); return; }
    if (!this.sameArray(view.base, r.base)) { this.pass.err("invalid-assignment", `'${name}' may be rebound only to a view of the same array (${name} = ${name}.subarray(k)), not of another`, span); return; }
    // Both from the view's old values: the offset is set after the length is computed from it.
    const length = this.values.stable(view.length, span);
    this.pass.emit({ k: "set", local: r.off, value: view.offset, loc: this.pass.loc(span) });
    this.pass.emit({ k: "set", local: r.len, value: length, loc: this.pass.loc(span) });
  }

  /** Whether two array expressions name the same array (a parameter, shared, global or private array). */
  private sameArray(a: ExprHandle, b: ExprHandle): boolean {
    const x = this.pass.fn.exprs[a], y = this.pass.fn.exprs[b];
    if (x.k !== y.k) return false;
    switch (x.k) {
      case "local": return x.local === (y as typeof x).local;
      case "shared": return x.shared === (y as typeof x).shared;
      case "global": return x.global === (y as typeof x).global;
      default: return false;
    }
  }

  /**
   * `new Uint32Array(f.buffer)` (JavaScript's bit cast, CUDA's __float_as_uint and `(unsigned
   * int *)key`): a view of all of the private array `f` whose elements are read and written by
   * their bits as the new type's, little-endian as JavaScript's typed arrays are on every machine
   * gpuc runs on. Between any of Float32Array, Int32Array, Uint32Array and the 8- and 16-bit
   * arrays: a wider element is its narrower ones' bits side by side (load, store).
   */
  bitsView(e: Extract<UExpr, { k: "bitsView" }>, span: Span): Val {
    const a = this.arrayOperand(e.array);
    if (!a) return this.pass.unknown;
    const name = this.arrayName(a.h);
    if (a.row || a.view || a.t.space !== "private")
      return this.pass.error("unsupported-syntax", `a typed array over another's buffer is over a private array of the thread (\`const f = new Float32Array(1); const u = new Uint32Array(f.buffer)\`), not over ${a.view ? "a view" : `a ${a.t.space} array`} ('${name}')`, span);
    if (a.t.elem === "f64" || e.elem === "f64")
      return this.pass.error("unsupported-type", `a typed array over another's buffer is not supported with 64-bit elements (here ${a.t.elem}[] as ${e.elem}[])`, span);
    const bytes = (a.t.size ?? 0) * elemBytes(a.t.elem), each = elemBytes(e.elem as Elem);
    if (bytes % each)
      return this.pass.error("unsupported-type", `'${name}' holds ${bytes} bytes, not a whole number of ${e.elem}[] elements of ${each} bytes (JavaScript throws a RangeError)`, span);
    return { k: "view", base: a.h, t: T.array(e.elem as Elem, a.t.space, bytes / each), offset: this.pass.constant(0, T.i32, span), length: this.pass.constant(bytes / each, T.i32, span), name, bits: a.t.elem };
  }

  /** An element read through an access: as the array holds it, or — a bit cast — its bits as the view's type. */
  load(a: ArrayOperand, array: ExprHandle, index: ExprHandle, span: Span): Val {
    const t = T.scalar(elemScalar(a.t.elem));
    const from = a.view?.bits;
    if (!from) return { k: "expr", h: this.pass.add({ k: "load", array, index, type: t, loc: this.pass.loc(span) }), t };
    const vb = elemBytes(a.t.elem), bb = elemBytes(from), loc = this.pass.loc(span);
    const baseBits = (i: ExprHandle): ExprHandle => this.toBits(this.pass.add({ k: "load", array: this.pass.add({ ...this.pass.fn.exprs[array] }), index: i, type: T.scalar(elemScalar(from)), loc }), from);
    let bits: ExprHandle;
    if (vb === bb) bits = baseBits(index);
    else if (vb > bb) {
      // Its base's elements side by side, the first lowest.
      const at = this.values.reusable(this.int("mul", index, this.i32(vb / bb)), span);
      bits = this.int("and", baseBits(at()), this.i32(mask(bb)));
      for (let p = 1; p < vb / bb; p++) bits = this.int("or", bits, this.int("shl", this.int("and", baseBits(this.int("add", at(), this.i32(p))), this.i32(mask(bb))), this.i32(8 * bb * p)));
    } else {
      // Bits of one element of its base.
      const at = this.values.reusable(index, span), k = bb / vb;
      const shift = this.int("mul", this.int("and", at(), this.i32(k - 1)), this.i32(8 * vb));
      bits = this.pass.add({ k: "op", op: "shr", args: [this.pass.add({ k: "convert", arg: baseBits(this.int("shr", at(), this.i32(Math.log2(k)))), type: T.u32, loc: null }), this.pass.add({ k: "convert", arg: shift, type: T.u32, loc: null })], type: T.u32, loc: null });
      bits = this.pass.add({ k: "convert", arg: bits, type: T.i32, loc: null });
    }
    return { k: "expr", h: this.fromBits(bits, a.t.elem), t };
  }

  /**
   * `array[index] = value` (value as `elementValue` makes it), through a bit cast too: its bits
   * written over its base's elements — each of those it spans, or its part of the one it is in.
   */
  store(a: ArrayOperand, array: () => ExprHandle, index: () => ExprHandle, value: ExprHandle, span: Span): void {
    const from = a.view?.bits, loc = this.pass.loc(span);
    if (!from) { this.pass.emit({ k: "store", array: array(), index: index(), value, loc }); return; }
    const vb = elemBytes(a.t.elem), bb = elemBytes(from), base = array();
    const arr = (): ExprHandle => this.pass.add({ ...this.pass.fn.exprs[base] });   // (the private array: a local)
    const put = (i: ExprHandle, bits: ExprHandle): void => this.pass.emit({ k: "store", array: arr(), index: i, value: this.fromBits(bits, from), loc });
    if (vb === bb) { put(index(), this.toBits(value, a.t.elem)); return; }
    const bits = this.values.reusable(this.toBits(value, a.t.elem), span);
    if (vb > bb) {
      const at = this.values.reusable(this.int("mul", index(), this.i32(vb / bb)), span);
      for (let p = 0; p < vb / bb; p++)
        put(p ? this.int("add", at(), this.i32(p)) : at(), this.pass.add({ k: "convert", arg: this.pass.add({ k: "op", op: "shr", args: [this.pass.add({ k: "convert", arg: bits(), type: T.u32, loc: null }), this.pass.constant(8 * bb * p, T.u32, null)], type: T.u32, loc: null }), type: T.i32, loc: null }));
      return;
    }
    // Read, change its part, write back the element of the base it is in.
    const at = this.values.reusable(index(), span), k = bb / vb;
    const word = this.values.reusable(this.int("shr", at(), this.i32(Math.log2(k))), span);
    const shift = this.values.reusable(this.int("mul", this.int("and", at(), this.i32(k - 1)), this.i32(8 * vb)), span);
    const old = this.toBits(this.pass.add({ k: "load", array: arr(), index: word(), type: T.scalar(elemScalar(from)), loc }), from);
    const part = this.int("shl", this.int("and", bits(), this.i32(mask(vb))), shift());
    const kept = this.int("and", old, this.pass.add({ k: "op", op: "bitnot", args: [this.int("shl", this.i32(mask(vb)), shift())], type: T.i32, loc: null }));
    put(word(), this.int("or", kept, part));
  }

  /** An element's value (as a load gives it, as a store takes it) as the i32 of its bits (a narrow one's in its low bits). */
  private toBits(h: ExprHandle, e: Elem): ExprHandle {
    if (e === "f32") return this.pass.add({ k: "op", op: "f32bits", args: [h], type: T.i32, loc: null });
    if (e === "u32") return this.pass.add({ k: "convert", arg: h, type: T.i32, loc: null });
    return h;
  }

  /** The i32 of an element's bits as its value: f32 and u32 reinterpreted, a narrow one's low bits sign- or zero-extended. */
  private fromBits(h: ExprHandle, e: Elem): ExprHandle {
    switch (e) {
      case "f32": return this.pass.add({ k: "op", op: "f32frombits", args: [h], type: T.f32, loc: null });
      case "u32": return this.pass.add({ k: "convert", arg: h, type: T.u32, loc: null });
      case "i8": case "i16": case "u8": case "u8c": case "u16": return this.narrowed(h, e);
      default: return h;
    }
  }

  /** An i32 as an element of narrow type `elem` reads back after storing it (its low bits, sign- or zero-extended). */
  narrowed(h: ExprHandle, elem: Elem): ExprHandle {
    if (elem === "i8" || elem === "i16") { const s = 32 - 8 * elemBytes(elem); return this.int("shr", this.int("shl", h, this.i32(s)), this.i32(s)); }
    return this.int("and", h, this.i32(mask(elemBytes(elem))));
  }

  /** A value read again where it is used (a function value's captured locals: reads of locals and parameters, each node copied at its new place). */
  copy(v: Val, span: Span): Val {
    switch (v.k) {
      case "expr": return { ...v, h: this.pass.add({ ...this.pass.fn.exprs[v.h] }) };
      case "view": return this.copyView(v, span);
      case "agg": return { ...v, fields: v.fields.map((f) => ({ ...f, v: this.copy(f.v, span) })) };
      default: return v;
    }
  }

  private i32(v: number): ExprHandle { return this.pass.constant(v, T.i32, null); }
  private int(op: "add" | "mul" | "and" | "or" | "shl" | "shr", a: ExprHandle, b: ExprHandle): ExprHandle { return this.pass.add({ k: "op", op, args: [a, b], type: T.i32, loc: null }); }

  /** An array's length as an i32 expression. */
  lengthOf(h: ExprHandle, t: ArrayType, span: Span): ExprHandle {
    return t.size !== null ? this.pass.constant(t.size, T.i32, span) : this.pass.add({ k: "length", array: this.pass.add({ ...this.pass.fn.exprs[h] }), type: T.i32, loc: null });
  }

  /** The kernel's parameter names (for sizes in messages). */
  private paramNames(): string[] { return this.pass.fn.params.map((p) => this.pass.fn.locals[p].name); }

  /** A dimension as a value: a constant (weak), or its size computed in the kernel from the parameters and blockDim. */
  dimVal(d: Dim, span: Span): Val {
    return typeof d === "number" ? { k: "weak", value: d, isFloat: false } : { k: "expr", h: this.sizeIR(d, span), t: T.i32 };
  }

  /** A dimension as an i32 or u32 expression. */
  private dimValue(d: Dim, t: ScalarType, span: Span): ExprHandle {
    return typeof d === "number" ? this.pass.constant(d, t, span) : this.values.convertH(this.sizeIR(d, span), t, span);
  }

  /** A launch-time size computed in the kernel (i32, as the loader computes it). */
  private sizeIR(e: SizeExpr, span: Span): ExprHandle {
    return sizeIR(e, (x) => this.pass.add(x), (i) => this.values.convertH(this.pass.read(this.pass.fn.params[i], span), T.i32, span));
  }

  /**
   * The value a store writes (converted as a typed-array store converts) and, if used, the
   * assignment's value — in JS, the right side itself, not what the array kept.
   */
  storeValue(value: Val, elem: Elem, span: Span, used: boolean): { store: ExprHandle; result: Val } {
    if (!used || value.k === "weak") return { store: this.elementValue(value, elem, span), result: used ? value : this.pass.unknown };
    if (value.k !== "expr" || value.t.kind !== "scalar") return { store: this.elementValue(value, elem, span), result: this.pass.unknown };
    const r = this.values.reusable(value.h, span);
    return { store: this.elementValue({ k: "expr", h: r(), t: value.t }, elem, span), result: { k: "expr", h: r(), t: value.t } };
  }

  /**
   * The value a store into an element of type `elem` takes, converted as the typed array
   * converts. Narrow elements take an i32 whose low 8 or 16 bits the store keeps (ToInt8, ToUint8,
   * ToInt16 and ToUint16 are ToInt32 modulo 2^8 or 2^16); Uint8ClampedArray's conversion is
   * written out here: NaN and values up to 0 are 0, values from 255 are 255, the rest round to
   * the nearest integer with ties to even.
   */
  elementValue(v: Val, elem: Elem, span: Span): ExprHandle {
    if (elem !== "u8c") return this.values.convert(v, T.scalar(elemScalar(elem)), span);
    if (v.k === "weak") return this.pass.constant(Uint8ClampedArray.of(v.value)[0], T.i32, span);
    const t = this.values.scalarType(v, span);
    if (!t) return this.pass.unknown.h;
    if (t === T.bool) return this.values.convert(v, T.i32, span);
    const op = (o: OpName, args: ExprHandle[], type: ScalarType): ExprHandle => this.pass.add({ k: "op", op: o, args, type, loc: null });
    const c = (n: number, type: ScalarType = t): ExprHandle => this.pass.constant(n, type, span);
    const x = this.values.reusable(this.values.convert(v, t, span), span);
    if (isInt(t)) return this.values.convertH(t === T.i32 ? op("max", [op("min", [x(), c(255)], t), c(0)], t) : op("min", [x(), c(255)], t), T.i32, span);
    // Floats: y = min(x, 255) rounded half to even; x > 0 is false for NaN.
    const y = this.values.reusable(op("min", [x(), c(255)], t), span);
    const f = this.values.reusable(op("floor", [y()], t), span);
    const d = this.values.reusable(op("sub", [y(), f()], t), span);
    const fi = this.values.reusable(this.values.convertH(f(), T.i32, span), span);
    const odd = op("ne", [op("and", [fi(), c(1, T.i32)], T.i32), c(0, T.i32)], T.bool);
    const up = op("lor", [op("gt", [d(), c(0.5)], T.bool), op("land", [op("eq", [d(), c(0.5)], T.bool), odd], T.bool)], T.bool);
    const rounded = op("add", [fi(), this.pass.add({ k: "select", cond: up, a: c(1, T.i32), b: c(0, T.i32), type: T.i32, loc: null })], T.i32);
    return this.pass.add({ k: "select", cond: op("gt", [x(), c(0)], T.bool), a: rounded, b: c(0, T.i32), type: T.i32, loc: null });
  }
}

/** The low `bytes` bytes of an i32 set: 0xff, 0xffff, or every bit. */
function mask(bytes: number): number { return bytes >= 4 ? -1 : 2 ** (8 * bytes) - 1; }
