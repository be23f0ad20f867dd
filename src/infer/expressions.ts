// Expressions during a pass: the untyped IR's expressions lowered to typed IR values, in
// JavaScript's order of evaluation (an earlier operand is spilled to a temporary where a later
// one emits statements: ARCHITECTURE.md, "Expressions are trees"); conditions, operators,
// short-circuits, `?:`, and the syntax of object and tuple values. Assignments, calls and array
// accesses are their parts' (places, calls, arrays).

import type { Span } from "../frontend/source.js";
import { walkUBody, type UExpr, type UStmt, type UTable } from "../frontend/uir.js";
import type { Block, ExprHandle, LocalHandle, Stmt } from "../ir/module.js";
import { T, isArray, type AggType, type ScalarType } from "../ir/types.js";
import type { AggVal, Val } from "./methods.js";
import type { Lowering, Pass } from "./pass.js";
import { holds, type Aggregates } from "./aggregates.js";
import type { Arrays } from "./arrays.js";
import type { Calls } from "./calls.js";
import type { Places } from "./places.js";
import { maybeUnassigned } from "./unassigned.js";
import { fnType } from "./function-values.js";
import { aggText, type Values } from "./values.js";

export class Expressions implements Lowering {
  constructor(private readonly pass: Pass, private readonly values: Values, private readonly aggregates: Aggregates, private readonly arrays: Arrays,
    private readonly places: Places, private readonly calls: Calls,
    /** Lowers the statements a UIR `stmts` holds: the statements' part, which is above this one (build.ts). */
    private readonly statements: (list: UStmt[]) => void) {}

  /** Lower an expression; `used` is false in statement position (the value is discarded). */
  expr(e: UExpr, used = true): Val {
    const span = e.span;
    switch (e.k) {
      case "num": return { k: "weak", value: e.value, isFloat: e.isFloat };
      case "bool": return { k: "expr", h: this.pass.constant(e.value, T.bool, span), t: T.bool };
      // typeof: what JavaScript says of the value's type, known where the function is specialized.
      case "typeof": {
        const v = this.expr(e.a);
        if (v.k === "expr" && v.t.kind === "unknown") return this.pass.unknown;
        if (v.k === "expr" && v.defined !== undefined)
          return this.pass.error("type", `typeof '${this.pass.ufn.source.text.slice(e.a.span.start, e.a.span.end)}' is known only when the kernel runs: it may be read before a value is assigned to it (undefined) or after (a ${v.t === T.bool ? "boolean" : "number"})`, span,
            "test it with `=== undefined`, or give it a value where it is declared");
        const t = v.k === "null" ? (v.undef ? "undefined" : "object") : v.k === "str" ? "string" : v.k === "fn" ? "function"
          : (v.k === "weak" || (v.k === "expr" && v.t.kind === "scalar")) ? (v.k === "expr" && v.t === T.bool ? "boolean" : "number") : "object";
        return { k: "str", value: t };
      }
      case "str": return e.template ? { k: "str", value: e.value, template: { quasis: e.template.quasis, values: e.template.exprs.map((x) => this.expr(x)) } } : { k: "str", value: e.value };
      case "null": return { k: "null", undef: e.undef };
      // A function as a value, with the values of the locals it captures (read here).
      case "fn": {
        const env = e.env?.map((x) => this.expr(x)) ?? [];
        for (const [j, v] of env.entries()) {
          if (v.k === "expr" && v.t.kind === "unknown") return this.pass.unknown;
          // (What it could not receive as a helper's parameter: a row, a multi-dimensional shared
          // array, an array of objects, another function, null, a string, a bit cast.)
          if (v.k === "row" || v.k === "structs" || v.k === "fn" || v.k === "null" || v.k === "str" || (v.k === "expr" && isArray(v.t) && this.arrays.shapeOf(v.h)) || (v.k === "view" && v.bits)) {
            const x = e.env![j];
            return this.pass.error("unsupported-syntax", `'${e.name}' captures '${x.k === "var" ? this.pass.ufn.vars[x.v].name : "?"}', which a function passed as a value cannot take along (numbers, booleans, object values, arrays and their views can)`, x.span,
              "pass it to the function as an argument");
          }
        }
        return { k: "fn", t: fnType(e.callee, e.name, env.map((v) => this.values.typeOf(v))), ...(env.length ? { env } : {}) };
      }
      case "var": return this.places.readVar(e.v, span, this.pass.definedFlags.has(e.v) ? maybeUnassigned(this.pass.ufn).uses.get(e) : undefined);
      case "table": {
        const g = this.pass.ctx.table(e.table);
        if ("conflict" in g) {
          const what = (v: UTable["value"]) => `${v.constructor.name}(${v.length})`;
          return this.pass.error("relocation", `two different tables are named '${e.table.name}' in this kernel (a ${what(g.conflict.value)} and, here, a ${what(e.table.value)}): compiled code refers to a table by its name`, span,
            "give the tables different names in their scopes");
        }
        return { k: "expr", h: this.pass.add({ k: "global", global: g.handle as never, type: g.type, loc: this.pass.loc(span) }), t: g.type };
      }
      case "builtin": return { k: "expr", h: this.pass.add({ k: "builtin", name: e.name as never, type: T.i32, loc: this.pass.loc(span) }), t: T.i32 };
      case "object": case "tuple": return this.literal(e);
      case "field": return this.field(e, span);
      case "length": {
        const a = this.expr(e.array);
        if (a.k === "null") return this.arrays.nullAccess(a, "read the length of", span);
        if (a.k === "structs") {
          if (a.t.count !== undefined) return { k: "weak", value: a.t.count, isFloat: false };
          const n = this.arrays.structsCount(a, span), c = this.pass.fn.exprs[n];
          return c.k === "const" ? { k: "weak", value: c.value as number, isFloat: false } : { k: "expr", h: n, t: T.i32 };
        }
        if (a.k === "agg") {
          if (a.tuple) return { k: "weak", value: a.fields.length, isFloat: false };
          const f = this.aggregates.fieldVal(a, "length");
          return f ? this.aggregates.partOf(a, "length", f) : this.pass.error("type", `${aggText(this.values.typeOf(a))} has no field 'length'`, span);
        }
        // A multi-dimensional array's length is its first dimension's, a row's its next one's (as nested JS arrays have).
        if (a.k === "row") return this.arrays.dimVal(a.shape.dims[a.indices.length], span);
        if (a.k === "view") return { k: "expr", h: a.length, t: T.i32 };
        const shape = a.k === "expr" ? this.arrays.shapeOf(a.h) : undefined;
        if (shape) return this.arrays.dimVal(shape.dims[0], span);
        if (a.k !== "expr" || !isArray(a.t)) {
          if (a.k === "expr" && a.t.kind === "unknown") return this.pass.unknown;
          return this.pass.error("type", "'.length' is only defined on arrays", span);
        }
        if (a.t.size !== null) return { k: "weak", value: a.t.size, isFloat: false };
        return { k: "expr", h: this.pass.add({ k: "length", array: a.h, type: T.i32, loc: this.pass.loc(span) }), t: T.i32 };
      }
      case "index": return this.indexed(this.expr(e.array), e, span);
      case "bitsView": return this.arrays.bitsView(e, span);
      case "subarray": return this.arrays.subarray(e, span);
      case "unary": return this.unary(e.op, this.expr(e.a), span);
      case "binary": return this.binary(e, span);
      case "logical": return this.logical(e, span);
      case "cond": return this.conditional(e, span);
      case "call": return this.calls.call(e, used);
      case "assign": return this.places.assign(e, used);
      case "update": return this.places.update(e, used);
      case "newArray": case "sharedArray":
        return this.pass.error("unsupported-syntax", `${e.k === "newArray" ? "private" : "shared"} arrays must be declared with const, e.g. \`const a = ${e.k === "newArray" ? "new Float32Array(8)" : "shared(Float32Array, 256)"}\``, span);
      // An array's method written out as a loop (frontend/lower.ts, arrayMethod): its statements, then its value.
      case "stmts": {
        this.statements(e.body);
        return this.expr(e.value, used);
      }
      case "seq": {
        let last: Val = this.pass.unknown;
        e.exprs.forEach((x, i) => { last = this.expr(x, used && i === e.exprs.length - 1); });
        return last;
      }
    }
  }

  /** An expression in a condition (if, loops, ?:, !, && and || operands): a bool. */
  cond(e: UExpr): ExprHandle {
    if (e.k === "logical" && e.op !== "??") {
      const a = this.cond(e.a);
      let b = a;
      const pre = this.pass.capture(() => { b = this.cond(e.b); });
      if (!pre.length) return this.pass.add({ k: "op", op: e.op === "&&" ? "land" : "lor", args: [a, b], type: T.bool, loc: this.pass.loc(e.span) });
      // The right side has statements (a call, an assignment): evaluate it only when needed.
      const t = this.pass.temp(T.bool);
      this.pass.emit({ k: "set", local: t, value: a, loc: this.pass.loc(e.span) });
      let test = this.pass.read(t);
      if (e.op === "||") test = this.pass.add({ k: "op", op: "not", args: [test], type: T.bool, loc: null });
      pre.push({ k: "set", local: t, value: b, loc: this.pass.loc(e.b.span) });
      this.pass.emit({ k: "if", cond: test, then: pre, else: [], loc: this.pass.loc(e.span) });
      return this.pass.read(t);
    }
    if (e.k === "unary" && e.op === "!") return this.pass.add({ k: "op", op: "not", args: [this.cond(e.a)], type: T.bool, loc: this.pass.loc(e.span) });
    return this.values.truthy(this.expr(e), e.span);
  }

  private unary(op: "-" | "+" | "!" | "~", a: Val, span: Span): Val {
    if (a.k === "weak") {
      switch (op) {
        case "-": return { k: "weak", value: -a.value, isFloat: a.isFloat };
        case "+": return a;
        case "~": return { k: "weak", value: ~a.value, isFloat: false };
        case "!": return { k: "expr", h: this.pass.constant(!a.value, T.bool, span), t: T.bool };
      }
    }
    if (op === "!") return this.values.op("not", [this.values.truthy(a, span)], T.bool, span);
    const t = this.values.scalarType(a, span);
    if (!t) return this.pass.unknown;
    if (op === "~") return this.values.op("bitnot", [this.values.convert(a, T.i32, span)], T.i32, span);
    const nt = t === T.bool ? T.i32 : t;
    if (op === "+") return { k: "expr", h: this.values.convert(a, nt, span), t: nt };
    return this.values.op("neg", [this.values.convert(a, nt, span)], nt, span);
  }

  private binary(e: Extract<UExpr, { k: "binary" }>, span: Span): Val {
    // (a / b) | 0 and (a / b) >>> 0 on integers are integer division, exactly as in JS.
    if ((e.op === "|" || e.op === ">>>") && e.b.k === "num" && e.b.value === 0 && e.a.k === "binary" && e.a.op === "/") {
      const div = e.a;
      const a = this.expr(div.a);
      const b = this.operandAfter(a, div.b);
      const it = this.values.intDivisionType(a, b);
      if (it) {
        const q = this.values.op("div", [this.values.convert(a, it, div.span), this.values.convert(b, it, div.span)], it, div.span);
        const rt = e.op === "|" ? T.i32 : T.u32;
        return { k: "expr", h: this.values.convert(q, rt, span), t: rt };
      }
      return this.values.arith(e.op, this.values.arith("/", a, b, div.span), { k: "weak", value: 0, isFloat: false }, span);
    }
    const a = this.expr(e.a);
    const b = this.operandAfter(a, e.b);
    return this.values.arith(e.op, a, b, span);
  }

  /**
   * Lower `right` after `left` has been lowered. If `right` emits statements (a call or an
   * assignment) and `left` reads state, `left` is spilled to a temporary first, so JS's
   * left-to-right evaluation order is kept.
   */
  operandAfter(left: Val, right: UExpr): Val {
    const mark = this.pass.out.length;
    const block = this.pass.out;
    const r = this.expr(right);
    if (block.length > mark) {
      const spills: Stmt[] = [];
      this.aggregates.spillLeaves(left, block.slice(mark), spills);
      block.splice(mark, 0, ...spills);
    }
    return r;
  }

  /** Lower one more argument, keeping every earlier argument's evaluation before it. */
  operandAfterAll(earlier: Val[], next: UExpr): Val {
    const mark = this.pass.out.length;
    const block = this.pass.out;
    const r = this.expr(next);
    if (block.length > mark) {
      const spills: Stmt[] = [];
      const after = block.slice(mark);
      for (const v of earlier) this.aggregates.spillLeaves(v, after, spills);
      block.splice(mark, 0, ...spills);
    }
    return r;
  }

  /** `a && b`, `a || b`, `a ?? b` as values: JS returns one of the operands. */
  private logical(e: Extract<UExpr, { k: "logical" }>, span: Span): Val {
    if (e.op === "??") {
      // Whether `a` is null or undefined is known from its type: `a ?? b` is `a` (b is still
      // checked) or `b`.
      const a = this.expr(e.a);
      if (a.k === "null") return this.expr(e.b);
      // (One whose type is not known yet, in inference's first pass, is typed by what is assigned to it.)
      if (a.k === "expr" && a.t.kind === "unknown" && e.a.k === "var" && this.pass.definedFlags.has(e.a.v)) return this.expr(e.b);
      if (a.k === "expr" && a.defined !== undefined) return this.choose(a, this.pass.add({ k: "op", op: "not", args: [this.pass.read(a.defined, span)], type: T.bool, loc: null }), e.b, span);
      this.pass.capture(() => this.expr(e.b));
      return a;
    }
    const a = this.expr(e.a);
    const [pre, b] = this.pass.captureVal(() => this.expr(e.b));
    const t = this.values.commonType(a, b, span);
    if (!t) return this.pass.unknown;
    if (t === T.bool && !pre.length)
      return this.values.op(e.op === "&&" ? "land" : "lor", [this.values.convert(a, T.bool, span), this.values.convert(b, T.bool, span)], T.bool, span);
    // General case: tmp = a; if (tmp is truthy (&&) / falsy (||)) tmp = b.
    const tmp = this.pass.temp(t);
    this.pass.emit({ k: "set", local: tmp, value: this.values.convert(a, t, span), loc: this.pass.loc(span) });
    let test = this.values.truthy({ k: "expr", h: this.pass.read(tmp), t }, span);
    if (e.op === "||") test = this.pass.add({ k: "op", op: "not", args: [test], type: T.bool, loc: null });
    return this.joinInto(tmp, t, test, pre, b, e.b.span, span);
  }

  /** `a ?? b` where `a` may be undefined (`whenB`: its flag is false): `b`, evaluated only then, else `a`. */
  private choose(a: Val, whenB: ExprHandle, eb: UExpr, span: Span): Val {
    const [pre, b] = this.pass.captureVal(() => this.expr(eb));
    const t = this.values.commonType(a, b, span);
    if (!t) return this.pass.unknown;
    const tmp = this.pass.temp(t);
    this.pass.emit({ k: "set", local: tmp, value: this.values.convert(a, t, span), loc: this.pass.loc(span) });
    return this.joinInto(tmp, t, whenB, pre, b, eb.span, span);
  }

  /** `tmp` (holding the left operand) becomes `b`, with what computes it, where `test` holds: the value of `&&`, `||`, `??`. */
  private joinInto(tmp: LocalHandle, t: ScalarType, test: ExprHandle, pre: Stmt[], b: Val, bSpan: Span, span: Span): Val {
    pre.push({ k: "set", local: tmp, value: this.values.convert(b, t, span), loc: this.pass.loc(bSpan) });
    this.pass.emit({ k: "if", cond: test, then: pre, else: [], loc: this.pass.loc(span) });
    return { k: "expr", h: this.pass.read(tmp), t };
  }

  private conditional(e: Extract<UExpr, { k: "cond" }>, span: Span): Val {
    const c = this.cond(e.c);
    // A test of undefined or null decided here (a parameter not passed, an absent optional
    // array): only the side that runs is compiled (`b === undefined ? a : a + b` with b missing).
    const decided = this.decidedTest(e.c, c);
    if (decided !== null) return this.expr(decided ? e.a : e.b);
    // Another constant condition: both sides typed together, but what the side that never runs
    // reports is dropped (`t.length ? t[t.length - 1] : 0` of an empty tuple); where it reports
    // something, only the side that runs is compiled.
    const known = this.knownBool(c);
    const side = (x: UExpr, dead: boolean): [Block, Val, boolean] => {
      if (!dead) return [...this.pass.captureVal(() => this.expr(x)), false];
      const [[block, v], failed] = this.pass.quietly(() => this.pass.captureVal(() => this.expr(x)));
      return [block, v, failed];
    };
    const [preA, a, deadA] = side(e.a, known === false);
    const [preB, b, deadB] = side(e.b, known === true);
    if (deadA || deadB) {
      for (const st of deadA ? preB : preA) this.pass.emit(st);
      return deadA ? b : a;
    }
    const isArrayVal = (v: Val) => v.k === "null" || v.k === "view" || v.k === "row" || (v.k === "expr" && isArray(v.t));
    if (isArrayVal(a) || isArrayVal(b)) {
      // `a ? a[i] : undefined`, `a?.[i]`, `a != null ? a : b` (`a ?? b` as compilers write it):
      // decided where the kernel is specialized (whether `a` is absent).
      const known = this.knownBool(c);
      if (known === null) return this.pass.error("type", "'?:' choosing an array, null or undefined needs a condition known when the kernel is compiled (a test of an optional array)", span,
        "choose the element instead, e.g. `c ? a[i] : b[i]`");
      for (const st of known ? preA : preB) this.pass.emit(st);
      return known ? a : b;
    }
    if (a.k === "agg" || b.k === "agg") {
      // Object values: both sides into temporaries of their common type (one shape).
      const t = this.aggregates.joinValue(this.values.typeOf(a), b, span, "the two sides of '?:'");
      if (!t || a.k !== "agg" || b.k !== "agg") return this.pass.unknown;
      const leaves = this.aggregates.makeLeaves(t, "tmp");
      preA.push(...this.pass.capture(() => this.aggregates.writeLeaves(t, leaves, a, e.a.span)));
      preB.push(...this.pass.capture(() => this.aggregates.writeLeaves(t, leaves, b, e.b.span)));
      this.pass.emit({ k: "if", cond: c, then: preA, else: preB, loc: this.pass.loc(span) });
      const from = a.root !== undefined ? a : b;
      return { ...(this.aggregates.markFresh(this.aggregates.readLeaves(t, leaves, span), this.aggregates.allFresh(a) && this.aggregates.allFresh(b)) as AggVal), ...(from.root !== undefined ? { root: from.root, path: from.path } : {}) };
    }
    const t = this.values.commonType(a, b, span);
    if (!t) return this.pass.unknown;
    if (!preA.length && !preB.length) {
      const v = this.values.selectVal(c, a, b, t, span);
      if (a.k === "weak" && b.k === "weak" && v.k === "expr") return { ...v, weakPair: { cond: c, a: a.value, b: b.value } };
      return v;
    }
    const tmp = this.pass.temp(t);
    preA.push({ k: "set", local: tmp, value: this.values.convert(a, t, span), loc: this.pass.loc(e.a.span) });
    preB.push({ k: "set", local: tmp, value: this.values.convert(b, t, span), loc: this.pass.loc(e.b.span) });
    this.pass.emit({ k: "if", cond: c, then: preA, else: preB, loc: this.pass.loc(span) });
    return { k: "expr", h: this.pass.read(tmp), t };
  }

  /**
   * A test of undefined or null (`b === undefined`, `a != null`) whose value is known where the
   * function is specialized — a parameter not passed, an optional array absent or present — else
   * null. (Only such tests: another constant condition keeps both sides, typed together.)
   */
  decidedTest(e: UExpr, c: ExprHandle): boolean | null {
    let tests = false;
    walkUBody([{ k: "expr", e, span: e.span }], (x) => { if (x.k === "null") tests = true; });
    return tests ? this.knownBool(c) : null;
  }

  /** A condition's value where inference built it as a constant (a test of an optional array), else null. */
  knownBool(h: ExprHandle): boolean | null {
    const e = this.pass.fn.exprs[h];
    if (e.k === "const") return Boolean(e.value);
    if (e.k === "op" && e.op === "not") { const x = this.knownBool(e.args[0]); return x === null ? null : !x; }
    return null;
  }

  // ---- object and tuple values ----------------------------------------------------------------

  /**
   * `{ x: a, ...p }` or `[a, ...t]`: fields evaluated in order (each kept from later ones' effects),
   * a spread copying another value's fields; a later field of the same name replaces an earlier
   * one, as in JS. Fields hold numbers, booleans and other object values.
   */
  private literal(e: Extract<UExpr, { k: "object" | "tuple" }>): Val {
    const tuple = e.k === "tuple";
    const parts = e.k === "object" ? e.fields.map((f) => ({ name: f.name, value: f.value, span: f.span }))
      : e.elems.map((x) => ({ name: x.spread ? null : "", value: x.value, span: x.span }));
    const fields: AggVal["fields"] = [];
    const done: Val[] = [];
    let ok = true;
    const put = (name: string, v: Val) => {
      const at = tuple ? -1 : fields.findIndex((f) => f.name === name);
      if (at >= 0) fields[at] = { name, v };
      else fields.push({ name: tuple ? String(fields.length) : name, v });
    };
    for (const p of parts) {
      const v = done.length ? this.operandAfterAll(done, p.value) : this.expr(p.value);
      done.push(v);
      if (v.k === "expr" && v.t.kind === "unknown") { ok = false; continue; }
      if (p.name === null) {
        // A spread: an object's fields into an object, a tuple's elements into a tuple.
        if (v.k !== "agg" || v.tuple !== tuple) { this.pass.err("type", `a spread in ${tuple ? "an array value needs a tuple" : "an object value needs an object value"}, got ${v.k === "agg" ? aggText(this.values.typeOf(v)) : holds(this.values.typeOf(v))}`, p.span); ok = false; continue; }
        for (const f of v.fields) {
          const part = this.aggregates.partOf(v, f.name, f.v);
          if (this.aggregates.sharesChanged(part)) { this.aggregates.shared(part as AggVal, "be copied by a spread (a spread copies only the outer object, and shares the objects in it)", p.span); ok = false; }
          put(f.name, part);
        }
        continue;
      }
      if (v.k === "str" || v.k === "row" || v.k === "view" || (v.k === "expr" && isArray(v.t))) {
        this.pass.err("type", `${tuple ? "an array value's elements" : "an object value's fields"} hold numbers, booleans and object values, not ${v.k === "str" ? "strings" : "arrays"}`, p.span,
          v.k === "str" ? undefined : "pass the array itself to helpers, and index it where the value is needed");
        ok = false;
        continue;
      }
      if (this.aggregates.sharesChanged(v)) { this.aggregates.shared(v as AggVal, "be put in another object value", p.span); ok = false; continue; }
      put(p.name, v);
    }
    if (!ok) return this.pass.unknown;
    return { k: "agg", tuple, fields, fresh: true };
  }

  /** `p.x`, or a destructuring's `t[0]` and its default. */
  /** `a[i]` of the value `base` that `e.array` gave. */
  private indexed(base: Val, e: Extract<UExpr, { k: "index" }>, span: Span): Val {
    if (base.k === "agg") return this.element(base, e, span);
    if (base.k === "null") { this.arrays.index(e.index); return this.arrays.nullAccess(base, "read an element of", span); }
    if (base.k === "structs") return this.arrays.structElement(base, e.index, span, (v) => this.aggregates.elementOf(base.root, v));
    const a = this.arrays.operandOf(base, e.array.span);
    const i = this.arrays.index(e.index);
    if (!a || i === null) return this.pass.unknown;
    if (a.row && a.row.indices.length + 1 < a.row.shape.dims.length)
      return { k: "row", array: a.h, t: a.t, shape: a.row.shape, indices: [...a.row.indices, this.values.stable(i, e.index.span)] };
    const c = this.arrays.access(a, i, span);
    return this.arrays.load(a, c.array(), c.index(), span);
  }

  private field(e: Extract<UExpr, { k: "field" }>, span: Span): Val {
    let o: Val;
    if (e.object.k === "index" && !e.element && !e.fallback) {
      // `a[i].x` of an array of objects reads that field alone (its objects may hold arrays).
      const base = this.expr(e.object.array);
      if (base.k === "structs") return this.arrays.structElementField(base, e.object.index, e.name, span, (v) => this.aggregates.elementOf(base.root, v));
      o = this.indexed(base, e.object, e.object.span);
    } else o = this.expr(e.object);
    if (o.k === "expr" && o.t.kind === "unknown") return this.pass.unknown;
    if (o.k !== "agg" || (e.element && !o.tuple)) {
      if (e.element) return this.pass.error("type", `array destructuring needs a tuple value, got ${o.k === "agg" ? aggText(this.values.typeOf(o)) : holds(this.values.typeOf(o))}`, span,
        o.k === "expr" && isArray(o.t) ? "index the array instead, e.g. const a = x[0], b = x[1]" : undefined);
      if (o.k === "expr" && isArray(o.t)) return this.pass.error("unsupported-syntax", `property '${e.name}' is not supported on arrays in kernels (only '.length')`, span);
      return this.pass.error("type", `property '${e.name}' is not supported on ${o.k === "str" ? "a string" : o.k === "agg" ? aggText(this.values.typeOf(o)) : holds(this.values.typeOf(o))} in kernels (only '.length' of arrays and the fields of object values)`, span);
    }
    if (o.tuple && !e.element) return this.pass.error("type", `${aggText(this.values.typeOf(o))} has no field '${e.name}'`, span, "index a tuple, e.g. t[0], or take t.length");
    const f = this.aggregates.fieldVal(o, e.name);
    if (f) return this.aggregates.partOf(o, e.name, f);
    // A default applies where the field is missing, as JS applies it to an undefined property.
    if (e.fallback) return this.expr(e.fallback);
    const t = this.values.typeOf(o) as AggType;
    return this.pass.error("type", o.tuple ? `${aggText(t)} has no element ${e.name}` : `${aggText(t)} has no field '${e.name}'`, span,
      o.tuple ? undefined : `its fields are ${t.fields.map((x) => x.name).join(", ")}`);
  }

  /** `t[k]` of a tuple value: a constant index picks the element, a dynamic one selects among them (checked). */
  private element(t: AggVal, e: Extract<UExpr, { k: "index" }>, span: Span): Val {
    const name = e.array.k === "var" ? this.pass.ufn.vars[e.array.v].name : null;
    if (!t.tuple) {
      this.expr(e.index);
      return this.pass.error("type", `an object value is not indexed in kernels: read its fields by name (${aggText(this.values.typeOf(t))})`, span, "write p.x; computed field names are not supported");
    }
    const iv = this.expr(e.index);
    if (iv.k === "weak") {
      if (!Number.isInteger(iv.value) || iv.value < 0 || iv.value >= t.fields.length)
        return this.pass.error("type", `index ${iv.value} is out of range for ${name ? `'${name}', ` : ""}${aggText(this.values.typeOf(t))} (length ${t.fields.length})`, e.index.span);
      return this.aggregates.partOf(t, String(iv.value), t.fields[iv.value].v);
    }
    const idx = this.aggregates.dynamicIndex(iv, t.fields.length, name, e.index.span);
    if (idx === null) return this.pass.unknown;
    // An empty tuple has no element: the check before always fires (its value, never read, a 0).
    if (!t.fields.length) return { k: "weak", value: 0, isFloat: false };
    // The last element, then each earlier one where the index selects it.
    let v: Val | null = this.aggregates.partOf(t, "*", t.fields[t.fields.length - 1].v);
    for (let k = t.fields.length - 2; k >= 0 && v; k--) {
      const cond = () => this.pass.add({ k: "op", op: "eq", args: [this.pass.add({ ...this.pass.fn.exprs[idx] }), this.pass.constant(k, this.pass.fn.exprs[idx].type as ScalarType, span)], type: T.bool, loc: null });
      v = this.aggregates.selectVals(cond, this.aggregates.partOf(t, "*", t.fields[k].v), v, span, `the elements of ${name ? `'${name}'` : "a tuple"} indexed by a variable`);
    }
    return v ?? this.pass.unknown;
  }
}
