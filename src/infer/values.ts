// Values during a pass: JS's operators mapped onto the typed language (weak constants, the
// numeric joins, comparisons of mixed signedness), conversions, truthiness, and values kept for
// more than one use.

import type { Span } from "../frontend/source.js";
import type { ExprHandle, LocalHandle, Stmt } from "../ir/module.js";
import { exprOperands, stmtResult, walkStmts } from "../ir/module.js";
import { OPS, type OpName } from "../ir/ops.js";
import { T, isArray, isFloat, isInt, joinScalar, typeName, type ScalarType, type Type } from "../ir/types.js";
import { arrayWhat, computedConstant, shapeText, type MethodBuilder, type Val } from "./methods.js";
import type { Pass } from "./pass.js";

const BINARY_OPS: Record<string, OpName> = {
  "+": "add", "-": "sub", "*": "mul", "/": "div", "%": "rem", "**": "pow",
  "&": "and", "|": "or", "^": "xor", "<<": "shl", ">>": "shr", ">>>": "shr",
  "==": "eq", "===": "eq", "!=": "ne", "!==": "ne", "<": "lt", "<=": "le", ">": "gt", ">=": "ge",
};

/** "an object value { x: f32, y: f32 }" or "a tuple [i32, i32]", for messages. */
export function aggText(t: Type): string {
  return t.kind === "agg" ? `${t.tuple ? "a tuple" : "an object value"} ${typeName(t)}` : t.kind === "unknown" ? "an object value" : typeName(t);
}

/** The type a weak constant has on its own (as a literal's default). */
function defaultType(v: { value: number; isFloat: boolean }): ScalarType {
  if (!v.isFloat && Number.isInteger(v.value)) {
    if (v.value >= -0x80000000 && v.value <= 0x7fffffff) return T.i32;
    if (v.value >= 0 && v.value <= 0xffffffff) return T.u32;
  }
  return T.f32;
}

export class Values {
  /** `builder`: what the method table's methods build through (`a ** b` is Math.pow's). */
  constructor(private readonly pass: Pass, private readonly builder: MethodBuilder) {}

  /** The type a weak constant takes next to a value of type `other`. */
  adapt(v: { value: number; isFloat: boolean }, other: ScalarType): ScalarType {
    if (other === T.bool) return defaultType(v);
    if (isFloat(other)) return other;
    const d = defaultType(v);
    if (isFloat(d)) return d;
    if (other === T.i32) return d;
    return v.value >= 0 ? T.u32 : joinScalar(d, other);
  }

  typeOf(v: Val): Type {
    if (v.k === "weak") return defaultType(v);
    if (v.k === "str" || v.k === "row") return T.unknown;
    if (v.k === "null") return v.undef ? T.undefined : T.null;
    if (v.k === "structs" || v.k === "fn") return v.t;
    if (v.k === "agg") {
      const fields = v.fields.map((f) => ({ name: f.name, type: this.typeOf(f.v) }));
      return fields.some((f) => f.type.kind === "unknown") ? T.unknown : T.agg(v.tuple, fields);
    }
    if (v.k === "view") return T.view(v.t, v.bits);
    return v.t;
  }

  scalarType(v: Val, span: Span): ScalarType | null {
    if (v.k === "weak") return defaultType(v);
    if (v.k === "str") { this.pass.err("type", "strings can only be passed to console.log and Error in kernels", span); return null; }
    if (v.k === "structs") { this.pass.err("type", `expected a number or boolean, got an array of objects ('${v.name}', ${typeName(v.t)})`, span, `index it and read a field, e.g. ${v.name}[i].${v.t.of.fields[0].name}`); return null; }
    if (v.k === "null") { this.pass.err("type", `expected a number or boolean, got ${v.undef ? "undefined" : "null"}`, span, "test an optional array with `if (a)` or `a != null` before using it"); return null; }
    if (v.k === "fn") { this.pass.err("type", `expected a number or boolean, got ${typeName(v.t)}`, span, "a function value is called, passed to a helper or bound to a const"); return null; }
    if (v.k === "view") { this.pass.err("type", `expected a number or boolean, got a view of an array ('${v.name}')`, span); return null; }
    if (v.k === "agg") { this.pass.err("type", `expected a number or boolean, got ${aggText(this.typeOf(v))}`, span, v.tuple ? "index it, e.g. t[0]" : "read one of its fields, e.g. p.x"); return null; }
    if (v.k === "row") { this.pass.err("type", `expected a number or boolean, got a row of ${arrayWhat(v.shape)} (${shapeText(v.shape.dims)}): index it to an element, e.g. ${v.shape.name}${(v.shape.dims.length === 3 ? ["z", "y", "x"] : ["y", "x"]).map((n) => `[${n}]`).join("")}`, span); return null; }
    if (v.t.kind === "unknown") return null;
    if (v.t.kind !== "scalar") { this.pass.err("type", `expected a number or boolean, got an array (${typeName(v.t)})`, span); return null; }
    return v.t;
  }

  convert(v: Val, t: ScalarType, span: Span): ExprHandle {
    if (v.k === "weak") return this.pass.constant(v.value, t, span);
    if (v.k === "expr" && v.weakPair && v.t !== t && t !== T.bool) {
      // The default-typed select is left unused; the choice is made again at the context's type.
      const { cond, a, b } = v.weakPair;
      return this.pass.add({ k: "select", cond, a: this.pass.constant(a, t, span), b: this.pass.constant(b, t, span), type: t, loc: this.pass.loc(span) });
    }
    if (v.k === "str" || v.k === "row" || v.k === "view" || v.k === "agg" || v.k === "null" || v.k === "structs" || v.k === "fn") { this.scalarType(v, span); return this.pass.unknown.h; }
    return this.convertH(v.h, t, span);
  }

  convertH(h: ExprHandle, t: ScalarType, span: Span | null): ExprHandle {
    const from = this.pass.fn.exprs[h];
    if (from.type === t || from.type.kind === "unknown") return h;
    if (from.type.kind !== "scalar") return this.pass.unknown.h;
    if (from.k === "const") return this.pass.constant(from.value as number, t, span);
    return this.pass.add({ k: "convert", arg: h, type: t, loc: this.pass.loc(span) });
  }

  op(op: OpName, args: ExprHandle[], t: Type, span: Span): Val {
    return { k: "expr", h: this.pass.add({ k: "op", op, args, type: t, loc: this.pass.loc(span) }), t };
  }

  /** A value's truthiness as a bool expression (JS semantics: 0, -0 and NaN are false). */
  truthy(v: Val, span: Span): ExprHandle {
    // Arrays and objects are always truthy in JS; null and undefined never are.
    if ((v.k === "expr" && isArray(v.t)) || v.k === "agg" || v.k === "view" || v.k === "row" || v.k === "structs") return this.pass.constant(true, T.bool, span);
    if (v.k === "null") return this.pass.constant(false, T.bool, span);
    return this.convert(v, T.bool, span);
  }

  /** An expression that can be used twice: constants and locals are duplicated, others spilled to a temp. */
  reusable(h: ExprHandle, span: Span): () => ExprHandle {
    const e = this.pass.fn.exprs[h];
    if (e.k === "const" || e.k === "local" || e.k === "builtin" || e.k === "global" || e.k === "shared") {
      let first = true;
      return () => (first ? ((first = false), h) : this.pass.add({ ...e }));
    }
    const t = this.pass.temp(e.type);
    this.pass.emit({ k: "set", local: t, value: h, loc: this.pass.loc(span) });
    return () => this.pass.read(t, span);
  }

  /** An index kept for later use: a constant as it is, anything else in a temporary (later evaluation cannot change it). */
  stable(h: ExprHandle, span: Span): ExprHandle {
    const e = this.pass.fn.exprs[h];
    if (e.k === "const") return h;
    const t = this.pass.temp(e.type);
    this.pass.emit({ k: "set", local: t, value: h, loc: this.pass.loc(span) });
    return this.pass.read(t, span);
  }

  /** The integer type of `a / b` when both are integers (and not both constants), else null. */
  intDivisionType(a: Val, b: Val): ScalarType | null {
    const quiet = (v: Val): ScalarType | null => (v.k === "expr" && v.t.kind === "scalar" ? v.t : null);
    if (a.k === "weak" && b.k === "weak") return null;
    let ta = quiet(a), tb = quiet(b);
    if (!ta && a.k === "weak" && tb) ta = this.adapt(a, tb);
    if (!tb && b.k === "weak" && ta) tb = this.adapt(b, ta);
    return ta && tb && isInt(ta) && isInt(tb) ? joinScalar(ta, tb) : null;
  }

  /**
   * Whether an already-built expression still has its value after `after` ran: `after` assigns
   * none of the locals it reads and, if it loads from memory, writes no memory (bounds checks,
   * which only report and trap, do not count).
   */
  isStable(h: ExprHandle, after: Stmt[] = []): boolean {
    const locals = new Set<number>();
    let memory = false;
    walkStmts(after, (s) => {
      if (s.k === "set" || s.k === "init") locals.add(s.local);
      const r = stmtResult(s);
      if (r !== null) locals.add(r);
      if (s.k === "store" || s.k === "atomic" || (s.k === "call" && !this.pass.runtimeCalls.has(s.fn))) memory = true;
    });
    const visit = (x: ExprHandle): boolean => {
      const e = this.pass.fn.exprs[x];
      if (e.k === "local" && locals.has(e.local)) return false;
      if (e.k === "load" && memory) return false;
      return exprOperands(e).every(visit);
    };
    return visit(h);
  }

  /** A binary operator on two values, with JS's rules mapped onto the typed language. */
  arith(op: string, a: Val, b: Val, span: Span): Val {
    const name = BINARY_OPS[op];
    if (!name) return this.pass.error("unsupported-syntax", `the '${op}' operator is not supported in kernels`, span);
    // `"n = " + n`: a string built for console.log, as a template literal is (each number as String() writes it).
    if ((a.k === "str" || b.k === "str") && op === "+") return concatStrings(a, b);
    // Two strings known when compiled (`typeof b === "undefined"`): compared now.
    if (a.k === "str" && b.k === "str" && !a.template && !b.template && (name === "eq" || name === "ne"))
      return { k: "expr", h: this.pass.constant((a.value === b.value) === (name === "eq"), T.bool, span), t: T.bool };
    if (a.k === "str" || b.k === "str") return this.pass.error("type", "strings can only be passed to console.log and Error in kernels", span);
    if (a.k === "null" || b.k === "null") return this.compareNull(op, a, b, span);
    if (a.k === "row" || b.k === "row" || a.k === "view" || b.k === "view" || a.k === "structs" || b.k === "structs") { this.scalarType(a.k === "row" || a.k === "view" || a.k === "structs" ? a : b, span); return this.pass.unknown; }
    if (a.k === "agg" || b.k === "agg") {
      if (name === "eq" || name === "ne")
        return this.pass.error("type", `'${op}' on ${a.k === "agg" && b.k === "agg" ? "two object values" : "an object value"} compares references in JavaScript (two objects are the same only if they are one object), which gpuc's object values do not have`, span,
          "compare their fields, e.g. a.x === b.x && a.y === b.y");
      this.scalarType(a.k === "agg" ? a : b, span);
      return this.pass.unknown;
    }
    if (a.k === "weak" && b.k === "weak") return this.foldWeak(op, name, a, b, span);
    let ta = a.k === "weak" ? null : this.scalarType(a, span);
    let tb = b.k === "weak" ? null : this.scalarType(b, span);
    if ((a.k !== "weak" && !ta) || (b.k !== "weak" && !tb)) return this.pass.unknown;
    if (!ta) ta = this.adapt(a as { value: number; isFloat: boolean }, tb!);
    if (!tb) tb = this.adapt(b as { value: number; isFloat: boolean }, ta);
    const row = OPS[name];

    if (row.operands === "int") {
      // Bitwise operators work on 32-bit integers: ToInt32 of both sides (ToUint32 for >>>), shift counts mod 32.
      const it = op === ">>>" ? T.u32 : T.i32;
      return this.op(name, [this.convert(a, it, span), this.convert(b, it, span)], it, span);
    }
    if (row.result === "bool") {
      const da = a.k === "expr" ? a.defined : undefined, db = b.k === "expr" ? b.defined : undefined;
      if (da === undefined && db === undefined) return this.compare(name, a, ta, b, tb, span);
      // A variable that may be undefined (its flag false): undefined equals only undefined (== and
      // === alike) and is neither below nor above anything.
      const flag = (d: LocalHandle | undefined): ExprHandle => (d === undefined ? this.pass.constant(true, T.bool, span) : this.pass.read(d, span));
      const bool = (op: OpName, ...args: ExprHandle[]): ExprHandle => this.pass.add({ k: "op", op, args, type: T.bool, loc: this.pass.loc(span) });
      const values = this.compare(name === "ne" ? "eq" : name, a, ta, b, tb, span) as { k: "expr"; h: ExprHandle };
      const both = bool("land", flag(da), flag(db));
      if (name !== "eq" && name !== "ne") return { k: "expr", h: bool("land", both, values.h), t: T.bool };
      const equal = bool("lor", bool("land", both, values.h), bool("land", bool("not", flag(da)), bool("not", flag(db))));
      return { k: "expr", h: name === "eq" ? equal : bool("not", equal), t: T.bool };
    }

    if (name === "pow") {
      // `a ** b` is Math.pow(a, b): a target's overlay of Math.pow applies to it too.
      const viaMethod = this.operatorMethod("Math.pow", [a, b], span);
      if (viaMethod) return viaMethod;
    }
    let t = joinScalar(ta === T.bool ? T.i32 : ta, tb === T.bool ? T.i32 : tb);
    if ((name === "div" || name === "pow") && isInt(t)) t = T.f32;
    const ab = [this.convert(a, t, span), this.convert(b, t, span)];
    if (name === "rem" && !isInt(t)) {
      // A float `%` is the method "%" where the target's table has one (an exact fmod where the
      // target has none: softmath), on operands of its type.
      const viaMethod = this.operatorMethod("%", ab.map((h): Val => ({ k: "expr", h, t })), span);
      if (viaMethod) return viaMethod;
    }
    return this.op(name, ab, t, span);
  }

  /**
   * A comparison with `null` or `undefined` (an optional array's test, `a != null`): decided by
   * the types alone, as JavaScript decides it — `==` holds between null and undefined only,
   * `===` between the same one only; an array, object or number is neither.
   */
  private compareNull(op: string, a: Val, b: Val, span: Span): Val {
    const name = BINARY_OPS[op];
    if (name !== "eq" && name !== "ne")
      return this.pass.error("type", `'${op}' on ${a.k === "null" ? (a.undef ? "undefined" : "null") : (b as { undef: boolean }).undef ? "undefined" : "null"} is not supported in kernels`, span,
        "undefined is a helper's parameter that the call does not pass, or an absent optional array: pass it, give the parameter a default (`b = 0`), or test it first (`b === undefined ? … : …`, `if (a)`)");
    const strict = op.length === 3;
    // A variable that may be undefined (unassigned.ts): its flag says, except that === null never holds.
    const other = a.k === "null" ? b : a, nul = (a.k === "null" ? a : b) as { undef: boolean };
    if (other.k === "expr" && other.defined !== undefined && (nul.undef || !strict)) {
      const defined = this.pass.read(other.defined, span);
      return name === "eq" ? this.op("not", [defined], T.bool, span) : { k: "expr", h: defined, t: T.bool };
    }
    const same = a.k === "null" && b.k === "null" && (!strict || a.undef === b.undef);
    return { k: "expr", h: this.pass.constant(same === (name === "eq"), T.bool, span), t: T.bool };
  }

  /** An operator through the method table's `path` (`**`: Math.pow, float `%`: "%"), where it has one (null: use the op). */
  private operatorMethod(path: string, args: Val[], span: Span): Val | null {
    const m = this.pass.ctx.methods.method(path);
    if (!m) return null;
    this.pass.ctx.noteMethod(path);
    return m(this.builder, args, span, path);
  }

  private foldWeak(op: string, name: OpName, a: { value: number; isFloat: boolean }, b: { value: number; isFloat: boolean }, span: Span): Val {
    const x = a.value, y = b.value;
    const row = OPS[name];
    if (row.result === "bool") return { k: "expr", h: this.pass.constant(row.eval([x, y], "f64") as boolean, T.bool, span), t: T.bool };
    if (row.operands === "int") {
      const v = op === ">>>" ? x >>> y : (row.eval([x | 0, y | 0], "i32") as number);
      return { k: "weak", value: op === ">>>" ? v : (v as number) | 0, isFloat: false };
    }
    const v = row.eval([x, y], "f64") as number;
    return computedConstant(v, a.isFloat || b.isFloat || name === "div" || name === "pow" || !Number.isInteger(v));
  }

  /** Comparisons; i32 against u32 compares the mathematical values (a negative i32 is below every u32). */
  private compare(name: OpName, a: Val, ta: ScalarType, b: Val, tb: ScalarType, span: Span): Val {
    // An integer constant outside the range of the integer it is compared with decides the result.
    for (const [w, other, otherT, weakLeft] of [[a, b, tb, true], [b, a, ta, false]] as const) {
      if (w.k !== "weak" || other.k === "weak" || !Number.isInteger(w.value) || !isInt(otherT)) continue;
      const [lo, hi] = otherT === T.i32 ? [-0x80000000, 0x7fffffff] : [0, 0xffffffff];
      if (w.value >= lo && w.value <= hi) continue;
      // Every value of the other side is below (constant above the range) or above it.
      const otherBelow = w.value > hi;
      const lt = weakLeft ? !otherBelow : otherBelow; // is the left side less than the right?
      const result: Record<string, boolean> = { eq: false, ne: true, lt, le: lt, gt: !lt, ge: !lt };
      return { k: "expr", h: this.pass.constant(result[name], T.bool, span), t: T.bool };
    }
    const mixed = (ta === T.i32 && tb === T.u32) || (ta === T.u32 && tb === T.i32);
    if (mixed && !(a.k === "weak" || b.k === "weak")) {
      const signedLeft = ta === T.i32;
      const s = this.reusable(this.convert(signedLeft ? a : b, T.i32, span), span);
      const u = this.convert(signedLeft ? b : a, T.u32, span);
      // Result when the signed side is negative: it is less than the unsigned side.
      const negResult: Record<string, boolean> = signedLeft
        ? { eq: false, ne: true, lt: true, le: true, gt: false, ge: false }
        : { eq: false, ne: true, lt: false, le: false, gt: true, ge: true };
      const isNeg = this.pass.add({ k: "op", op: "lt", args: [s(), this.pass.constant(0, T.i32, span)], type: T.bool, loc: this.pass.loc(span) });
      const su = this.convertH(s(), T.u32, span);
      const cmp = this.pass.add({ k: "op", op: name, args: signedLeft ? [su, u] : [u, su], type: T.bool, loc: this.pass.loc(span) });
      return { k: "expr", h: this.pass.add({ k: "select", cond: isNeg, a: this.pass.constant(negResult[name], T.bool, span), b: cmp, type: T.bool, loc: this.pass.loc(span) }), t: T.bool };
    }
    let t: ScalarType;
    if (ta === T.bool && tb === T.bool) t = T.bool;
    else t = joinScalar(ta === T.bool ? T.i32 : ta, tb === T.bool ? T.i32 : tb);
    if (t === T.bool && name !== "eq" && name !== "ne") t = T.i32;
    return this.op(name, [this.convert(a, t, span), this.convert(b, t, span)], T.bool, span);
  }

  /**
   * Math.min / Math.max of an i32 and a u32, exact as in JS: the smaller is always an i32 (a
   * negative i32, or a u32 below an i32) and the larger always a u32, so min gives an i32 and max
   * a u32, chosen by the mathematical comparison.
   */
  minMaxMixed(op: "min" | "max", a: Val, ta: ScalarType, b: Val, tb: ScalarType, span: Span): Val {
    const ra = this.reusable(this.convert(a, ta, span), span), rb = this.reusable(this.convert(b, tb, span), span);
    const lt = this.compare("lt", { k: "expr", h: ra(), t: ta }, ta, { k: "expr", h: rb(), t: tb }, tb, span) as { h: ExprHandle };
    const rt = op === "min" ? T.i32 : T.u32;
    const [first, second] = op === "min" ? [ra, rb] : [rb, ra];
    const pickA = this.convertH(first(), rt, span), pickB = this.convertH(second(), rt, span);
    return { k: "expr", h: this.pass.add({ k: "select", cond: lt.h, a: pickA, b: pickB, type: rt, loc: this.pass.loc(span) }), t: rt };
  }

  /** The type two alternative values meet in (?:, &&, ||): weak constants adapt to the other side. */
  commonType(a: Val, b: Val, span: Span): ScalarType | null {
    // One side not inferred yet (recursion): the other side's type is the best guess so far.
    if (a.k === "expr" && a.t.kind === "unknown") return b.k === "weak" ? defaultType(b) : b.k === "expr" && b.t.kind === "scalar" ? b.t : null;
    if (b.k === "expr" && b.t.kind === "unknown") return a.k === "weak" ? defaultType(a) : a.k === "expr" && a.t.kind === "scalar" ? a.t : null;
    if (a.k === "weak" && b.k === "weak") return a.isFloat || b.isFloat ? T.f32 : joinScalar(defaultType(a), defaultType(b));
    const ta = a.k === "weak" ? null : this.scalarType(a, span);
    const tb = b.k === "weak" ? null : this.scalarType(b, span);
    if ((a.k !== "weak" && !ta) || (b.k !== "weak" && !tb)) return null;
    const x = ta ?? this.adapt(a as { value: number; isFloat: boolean }, tb!);
    const y = tb ?? this.adapt(b as { value: number; isFloat: boolean }, ta!);
    if (x === T.bool && y === T.bool) return T.bool;
    return joinScalar(x === T.bool ? T.i32 : x, y === T.bool ? T.i32 : y);
  }

  selectVal(c: ExprHandle, a: Val, b: Val, t: ScalarType, span: Span): Val {
    const h = this.pass.add({ k: "select", cond: c, a: this.convert(a, t, span), b: this.convert(b, t, span), type: t, loc: this.pass.loc(span) });
    return { k: "expr", h, t };
  }
}

/** `a + b` where one is a string: the template literal `${a}${b}` (its pieces merged where both are text). */
function concatStrings(a: Val, b: Val): Val {
  const pieces = (v: Val): { quasis: string[]; values: Val[] } =>
    v.k === "str" ? (v.template ? { quasis: [...v.template.quasis], values: [...v.template.values] } : { quasis: [v.value], values: [] }) : { quasis: ["", ""], values: [v] };
  const x = pieces(a), y = pieces(b);
  const quasis = [...x.quasis.slice(0, -1), x.quasis[x.quasis.length - 1] + y.quasis[0], ...y.quasis.slice(1)];
  const values = [...x.values, ...y.values];
  return values.length ? { k: "str", value: quasis.join("…"), template: { quasis, values } } : { k: "str", value: quasis[0] };
}
