// Array declarations during a pass: private arrays (`new Float32Array(8)`), shared arrays of one
// or more dimensions, sized by constants or at launch (a size the loaders evaluate from the
// kernel's parameters and blockDim: ir/size.ts), and the check that no parameter such a size
// reads is assigned.

import type { Span } from "../frontend/source.js";
import type { UExpr } from "../frontend/uir.js";
import type { ExprHandle } from "../ir/module.js";
import { walkStmts } from "../ir/module.js";
import { SIZE_CMPS, SIZE_OPS, constantSize, evalSize, type SizeCmp, type SizeExpr, type SizeOp } from "../ir/size.js";
import { T, isInt, typeName, type ArrayType, type Elem, type ScalarType } from "../ir/types.js";
import { shapeText, type Dim, type Val, type ViewVal } from "./methods.js";
import type { Pass } from "./pass.js";
import type { Arrays } from "./arrays.js";

const MAX_ARRAY_SIZE = { private: 4096, shared: 12288 } as const;

/** The parameters a size reads. */
function paramsOf(e: SizeExpr): number[] {
  switch (e.k) {
    case "param": return [e.index];
    case "op": return [...paramsOf(e.args[0]), ...paramsOf(e.args[1])];
    case "select": return [...paramsOf(e.args[0]), ...paramsOf(e.args[1]), ...paramsOf(e.a), ...paramsOf(e.b)];
    default: return [];
  }
}

export class ArrayDeclarations {
  /** Dynamic shared arrays' sizes: the parameters they read (none may be assigned), for the check at the end. */
  private dynamicShared: { params: number[]; name: string; span: Span }[] = [];

  constructor(private readonly pass: Pass, private readonly arrays: Arrays) {}

  /** `const a = new Float32Array(8)` (a private array local) or `const s = shared(Float32Array, 256)`. */
  declareArray(v: number, init: Extract<UExpr, { k: "newArray" | "sharedArray" }>, span: Span): void {
    if (init.objects) return this.declareObjects(v, init, span);
    if (init.k === "sharedArray" && init.dims) return this.declareSharedArray(v, init, init.dims, span);
    const uv = this.pass.ufn.vars[v];
    const size = this.pass.lower.expr(init.size);
    const kind = init.k === "newArray" ? "private" : "shared";
    if (kind === "shared" && size.k === "expr") return this.declareDynamicShared(v, init.elem, size, init.size.span, span);
    if (size.k !== "weak" || !Number.isInteger(size.value) || size.value < 1 || size.value > MAX_ARRAY_SIZE[kind]) {
      this.pass.err("type", `the size of a ${kind} array must be a constant integer from 1 to ${MAX_ARRAY_SIZE[kind]}`, init.size.span);
      this.pass.poisoned.add(v);
      return;
    }
    // (`let a = new Float32Array(4)` too, where nothing assigns `a` again: the array is the variable's.)
    if (uv.kind !== "const" && (kind === "shared" || this.pass.rebound.has(v))) {
      this.pass.err("invalid-assignment", kind === "shared" ? `shared array '${uv.name}' must be declared with const` : `private array '${uv.name}' is assigned again: declare it with const, and copy elements into it instead`, span);
      return;
    }
    const type = T.array(init.elem, kind, size.value);
    this.pass.newVarTypes[v] = type;
    if (kind === "shared") {
      const h = this.pass.ctx.sharedArray(`${this.pass.ufn.id}:${span.start}:${this.pass.argTypes.map(typeName).join(",")}`, uv.name, type);
      this.pass.aliases.set(v, this.pass.add({ k: "shared", shared: h as never, type, loc: this.pass.loc(span) }));
      return;
    }
    const l = this.pass.newLocal(uv.name, type);
    this.pass.localOf[v] = l;
    this.pass.emit({ k: "init", local: l, loc: this.pass.loc(span) });
  }

  /**
   * `const s = shared(Array, 100)` or `const a = new Array(8)`: an array of objects of one shape —
   * the shape of the objects stored into it, learnt over the passes (places.ts learnStructs) — as
   * one shared (or private) array per field, like a parameter's array of objects. A constant size.
   */
  private declareObjects(v: number, init: Extract<UExpr, { k: "newArray" | "sharedArray" }>, span: Span): void {
    const uv = this.pass.ufn.vars[v];
    const kind = init.k === "newArray" ? "private" : "shared";
    const size = this.pass.lower.expr(init.size);
    if (size.k !== "weak" || !Number.isInteger(size.value) || size.value < 1 || size.value > MAX_ARRAY_SIZE[kind]) {
      this.pass.err("type", `the length of a ${kind} array of objects must be a constant integer from 1 to ${MAX_ARRAY_SIZE[kind]}`, init.size.span);
      this.pass.poisoned.add(v);
      return;
    }
    if (uv.kind !== "const") { this.pass.err("invalid-assignment", `${kind} array of objects '${uv.name}' must be declared with const`, span); return; }
    const t = this.pass.varTypes[v];
    if (t.kind !== "structs") { this.pass.pendingStructs.add(v); return; }
    this.pass.newVarTypes[v] = t;
    const n = size.value;
    if (kind === "shared") {
      const key = `${this.pass.ufn.id}:${span.start}:${this.pass.argTypes.map(typeName).join(",")}`;
      const handles = t.of.fields.map((f) => {
        const type = T.array((f.type as ScalarType).scalar, "shared", n);
        return { h: this.pass.ctx.sharedArray(`${key}:${f.name}`, `${uv.name}.${f.name}`, type), type };
      });
      this.pass.structVars.set(v, { t, leaves: () => handles.map(({ h, type }) => this.pass.add({ k: "shared", shared: h as never, type, loc: this.pass.loc(span) })) });
      return;
    }
    const locals = t.of.fields.map((f) => {
      const l = this.pass.newLocal(`${uv.name}.${f.name}`, T.array((f.type as ScalarType).scalar, "private", n));
      this.pass.emit({ k: "init", local: l, loc: this.pass.loc(span) });
      return l;
    });
    this.pass.structVars.set(v, { t, leaves: () => locals.map((l) => this.pass.read(l)) });
  }

  /**
   * `const t = shared(Float32Array, [16, 17])`: one flat shared array of 16 × 17 elements, row
   * major; the variable keeps its shape, and `t[y][x]` is element y * 17 + x.
   */
  private declareSharedArray(v: number, init: Extract<UExpr, { k: "sharedArray" }>, dimExprs: UExpr[], span: Span): void {
    const uv = this.pass.ufn.vars[v];
    const dims: Dim[] = [];
    for (const d of dimExprs) {
      const size = this.pass.lower.expr(d);
      // A dimension sized at launch (in the kernel, from its parameters and blockDim), or a constant.
      if (size.k === "expr" && this.pass.kind === "kernel" && isInt(size.t)) {
        const e = this.launchSize(size.h);
        if (typeof e !== "string" && !constantSize(e)) { dims.push(e); continue; }
        if (typeof e !== "string") {
          const n = evalSize(e, [], [1, 1, 1]);
          if (n >= 1 && n <= MAX_ARRAY_SIZE.shared) { dims.push(n); continue; }
        }
      }
      if (size.k !== "weak" || !Number.isInteger(size.value) || size.value < 1 || size.value > MAX_ARRAY_SIZE.shared) {
        this.pass.err("type", `each dimension of a shared array must be a constant integer from 1 to ${MAX_ARRAY_SIZE.shared}, or (in the kernel) computed from its scalar parameters and blockDim`, d.span);
        this.pass.poisoned.add(v);
        return;
      }
      dims.push(size.value);
    }
    const fixed = dims.every((d): d is number => typeof d === "number");
    const total = fixed ? (dims as number[]).reduce((a, b) => a * b, 1) : 0;
    if (fixed && total > MAX_ARRAY_SIZE.shared) {
      this.pass.err("type", `shared array '${uv.name}' of shape ${shapeText(dims)} has ${total} elements; a shared array has at most ${MAX_ARRAY_SIZE.shared}`, span);
      this.pass.poisoned.add(v);
      return;
    }
    if (uv.kind !== "const") { this.pass.err("invalid-assignment", `shared array '${uv.name}' must be declared with const`, span); return; }
    const key = `${this.pass.ufn.id}:${span.start}:${this.pass.argTypes.map(typeName).join(",")}`;
    let h: number, type: ArrayType;
    if (fixed) {
      type = T.array(init.elem, "shared", total);
      h = this.pass.ctx.sharedArray(key, uv.name, type);
    } else {
      // Sized at launch: the product of the dimensions, evaluated by the loader (as shared(T, n)).
      const asSize = (d: Dim): SizeExpr => (typeof d === "number" ? { k: "const", value: d } : d);
      const size = dims.slice(1).reduce<SizeExpr>((acc, d) => ({ k: "op", op: "mul", args: [acc, asSize(d)] }), asSize(dims[0]));
      type = T.array(init.elem, "shared");
      h = this.pass.ctx.sharedArray(key, uv.name, type, size);
      this.dynamicShared.push({ params: paramsOf(size), name: uv.name, span });
    }
    this.pass.newVarTypes[v] = type;
    if (dims.length > 1) this.arrays.setSharedShape(h, { name: uv.name, dims });
    this.pass.aliases.set(v, this.pass.add({ k: "shared", shared: h as never, type, loc: this.pass.loc(span) }));
  }

  /**
   * `const s = shared(Float32Array, n)` with n computed at launch: from the kernel's scalar
   * parameters (never assigned), blockDim and constants — uniform for the launch, as CUDA's
   * `extern __shared__` size is. The size is kept as data (ir/size.ts) that each loader evaluates;
   * the array's length is a `length` expression (its checks are against it).
   */
  private declareDynamicShared(v: number, elem: Elem, size: Extract<Val, { k: "expr" }>, sizeSpan: Span, span: Span): void {
    const uv = this.pass.ufn.vars[v];
    if (uv.kind !== "const") { this.pass.err("invalid-assignment", `shared array '${uv.name}' must be declared with const`, span); return; }
    const fail = (why: string): void => {
      this.pass.err("type", `the size of shared array '${uv.name}' must be a constant, or computed from the kernel's scalar parameters and blockDim (the same for every thread of the launch): ${why}`, sizeSpan,
        "e.g. shared(Float32Array, blockDim.x) or shared(Float32Array, n * 2) with n a parameter the kernel does not assign");
      this.pass.poisoned.add(v);
    };
    if (this.pass.kind !== "kernel") return fail("a shared array sized at launch is declared in the kernel itself, not in a helper");
    if (!isInt(size.t)) return fail(`it is ${typeName(size.t)}, not an integer`);
    const sizeExpr = this.launchSize(size.h);
    if (typeof sizeExpr === "string") return fail(sizeExpr);
    if (constantSize(sizeExpr)) {
      // Computed from constants only (a conditional, a const local): a shared array of that size.
      const n = evalSize(sizeExpr, [], [1, 1, 1]);
      if (n < 1 || n > MAX_ARRAY_SIZE.shared) return fail(`it is ${n}, and a shared array has 1 to ${MAX_ARRAY_SIZE.shared} elements`);
      const type = T.array(elem, "shared", n);
      this.pass.newVarTypes[v] = type;
      const h = this.pass.ctx.sharedArray(`${this.pass.ufn.id}:${span.start}:${this.pass.argTypes.map(typeName).join(",")}`, uv.name, type);
      this.pass.aliases.set(v, this.pass.add({ k: "shared", shared: h as never, type, loc: this.pass.loc(span) }));
      return;
    }
    const type = T.array(elem, "shared");
    this.pass.newVarTypes[v] = type;
    const h = this.pass.ctx.sharedArray(`${this.pass.ufn.id}:${span.start}:${this.pass.argTypes.map(typeName).join(",")}`, uv.name, type, sizeExpr);
    this.dynamicShared.push({ params: paramsOf(sizeExpr), name: uv.name, span: sizeSpan });
    this.pass.aliases.set(v, this.pass.add({ k: "shared", shared: h as never, type, loc: this.pass.loc(span) }));
  }

  /**
   * An integer expression as a size the launch evaluates (ir/size.ts): built from the kernel's
   * integer parameters, blockDim and constants by the integer ops a loader computes; or why not.
   */
  private launchSize(h: ExprHandle): SizeExpr | string {
    const e = this.pass.fn.exprs[h];
    switch (e.k) {
      case "const": return typeof e.value === "number" ? { k: "const", value: e.value } : "a boolean";
      case "local": {
        const i = this.pass.fn.params.indexOf(e.local);
        if (i >= 0) return e.type.kind === "scalar" && isInt(e.type) ? { k: "param", index: i } : `'${this.pass.fn.locals[e.local].name}' is not one of the kernel's integer parameters`;
        // A const local: what it was declared with (a const is assigned once, before it is read).
        const init = this.pass.constInits.get(e.local);
        if (init !== undefined) {
          if (init.k === "weak") return typeof init.value === "number" && Number.isInteger(init.value) ? { k: "const", value: init.value } : `'${this.pass.fn.locals[e.local].name}' is not an integer`;
          if (init.k === "expr" && isInt(init.t)) return this.launchSize(init.h);
        }
        return `'${this.pass.fn.locals[e.local].name}' is neither one of the kernel's integer parameters nor a const computed from them`;
      }
      case "select": {
        const c = this.pass.fn.exprs[e.cond];
        if (c.k === "const") return this.launchSize(c.value ? e.a : e.b);
        if (c.k !== "op" || !(SIZE_CMPS as readonly string[]).includes(c.op) || !isInt(this.pass.fn.exprs[c.args[0]].type)) return "a conditional whose test is not a comparison of integers";
        const parts = [this.launchSize(c.args[0]), this.launchSize(c.args[1]), this.launchSize(e.a), this.launchSize(e.b)];
        const why = parts.find((x): x is string => typeof x === "string");
        if (why !== undefined) return why;
        const [x, y, a, b] = parts as SizeExpr[];
        return { k: "select", cmp: c.op as SizeCmp, args: [x, y], a, b };
      }
      case "builtin": return e.name.startsWith("blockDim.") ? { k: "blockDim", axis: "xyz".indexOf(e.name.slice(-1)) as 0 | 1 | 2 } : `${e.name} differs between threads or blocks`;
      case "convert": return isInt(e.type) && isInt(this.pass.fn.exprs[e.arg].type) ? this.launchSize(e.arg) : "a conversion from a float";
      case "op": {
        if (!(SIZE_OPS as readonly string[]).includes(e.op) || e.args.length !== 2) return `'${e.op}' is not an integer operation the launch can evaluate`;
        const a = this.launchSize(e.args[0]), b = this.launchSize(e.args[1]);
        if (typeof a === "string") return a;
        if (typeof b === "string") return b;
        return { k: "op", op: e.op as SizeOp, args: [a, b] };
      }
      case "load": return "it reads an array";
      default: return `a ${e.k} expression`;
    }
  }

  /** `let p = a.subarray(k)` or `let p = a` that the body rebinds: a view whose offset and length are locals (arrays.ts, makeRebindable). */
  declareRebindable(v: number, val: Val, span: Span): void {
    const name = this.pass.ufn.vars[v].name;
    if (val.k === "view" && val.bits) { this.pass.err("invalid-assignment", `a typed array over another's buffer ('${name}') is bound with const`, span); return; }
    const e = val as Extract<Val, { k: "expr" }>, t = e.t as ArrayType;
    const view: ViewVal = val.k === "view" ? { ...val, name } : { k: "view", base: e.h, t, offset: this.pass.constant(0, T.i32, span), length: this.arrays.lengthOf(e.h, t, span), name };
    this.pass.newVarTypes[v] = T.view(view.t);
    this.arrays.makeRebindable(v, view, span);
  }

  /** After the body: a parameter a launch-time size reads must keep its argument's value (uniform for the launch). */
  checkLaunchSizes(): void {
    const fn = this.pass.fn;
    if (this.dynamicShared.length) {
      const set = new Set<number>();
      walkStmts(fn.body, (s) => { if (s.k === "set") set.add(s.local); });
      for (const d of this.dynamicShared) for (const i of d.params)
        if (set.has(fn.params[i])) this.pass.err("type", `the size of shared array '${d.name}' reads parameter '${fn.locals[fn.params[i]].name}', which the kernel assigns: a size must be the same for every thread of the launch`, d.span);
    }
  }
}
