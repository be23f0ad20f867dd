// Object and tuple values during a pass (`{ x, y }`, `[lo, hi]`): scalarized, never allocated.
// A variable holding one is one IR local per leaf field (its "leaves"), a helper takes one
// parameter per leaf, and an aggregate's type (ir/types.ts `agg`) exists only here and in
// specialization keys. This part joins their types, reads and writes their leaves, selects
// between them, indexes tuples, and keeps JavaScript's sharing of objects from showing (which
// objects may be bound where).

import type { Span } from "../frontend/source.js";
import type { UExpr, UFunction } from "../frontend/uir.js";
import { walkUBody } from "../frontend/uir.js";
import type { ExprHandle, LocalHandle, Stmt } from "../ir/module.js";
import { exprOperands } from "../ir/module.js";
import { T, isInt, joinScalar, typeName, type Type } from "../ir/types.js";
import type { AggVal, Val } from "./methods.js";
import type { Leaves, Pass } from "./pass.js";
import { aggText, type Values } from "./values.js";

/** An aggregate value's field `name`, seen through its parent (read from a variable, it is at the parent's path and the name). */
export function partOf(parent: AggVal, name: string, v: Val): Val {
  return v.k === "agg" && parent.root !== undefined ? { ...v, root: parent.root, path: [...parent.path ?? [], name] } : v;
}

export function flatLeaves(l: Leaves): LocalHandle[] {
  return Array.isArray(l) ? l.flatMap(flatLeaves) : [l];
}

/** "a number", "an array", "an object value { x: f32 }": what a type holds, for messages. */
export function holds(t: Type): string {
  if (t.kind === "agg") return aggText(t);
  if (t.kind === "array") return `an array (${typeName(t)})`;
  if (t.kind === "null" || t.kind === "fn") return typeName(t);
  return t === T.bool ? "a boolean" : "a number";
}

export class Aggregates {
  /** Per variable, the paths of the objects whose fields the function assigns (they must not be shared: see mayHold). */
  private readonly mutated: ReadonlyMap<number, string[][]>;

  constructor(private readonly pass: Pass, private readonly values: Values) {
    this.mutated = fieldsAssignedIn(pass.ufn);
  }

  /** Leaf locals for an aggregate of type `t`, named `name.field`. */
  makeLeaves(t: Type, name: string): Leaves {
    if (t.kind === "agg") return t.fields.map((f) => this.makeLeaves(f.type, `${name}.${f.name}`));
    return this.pass.newLocal(name, t);
  }

  /** The value held by leaves of type `t` (reads of the locals). */
  readLeaves(t: Type, leaves: Leaves, span: Span | null): Val {
    if (t.kind === "agg") {
      const ls = leaves as Leaves[];
      return { k: "agg", tuple: t.tuple, fields: t.fields.map((f, i) => ({ name: f.name, v: this.readLeaves(f.type, ls[i], span) })), fresh: false };
    }
    const l = leaves as LocalHandle;
    return { k: "expr", h: this.pass.read(l, span), t: this.pass.fn.locals[l].type };
  }

  /** The field of an aggregate value by name (an object's) or position (a tuple's). */
  fieldVal(v: AggVal, name: string): Val | undefined {
    return v.fields.find((f) => f.name === name)?.v;
  }

  /**
   * Assign `val` (an aggregate of `t`'s shape, or a scalar leaf) to `leaves` of type `t`; where
   * `guard` is given, each leaf keeps its value unless the guard holds (a dynamic index's
   * element). All values are computed before any leaf is assigned (`p = { x: p.y, y: p.x }`).
   */
  writeLeaves(t: Type, leaves: Leaves, val: Val, span: Span, guard: (() => ExprHandle) | null = null): void {
    const sets: { local: LocalHandle; value: ExprHandle }[] = [];
    const collect = (tt: Type, ls: Leaves, v: Val): void => {
      if (tt.kind === "agg") {
        if (v.k !== "agg") return;
        tt.fields.forEach((f, i) => { const fv = this.fieldVal(v, f.name); if (fv) collect(f.type, (ls as Leaves[])[i], fv); });
        return;
      }
      const local = ls as LocalHandle;
      if (v.k === "expr" && v.t.kind === "unknown") return;
      let value = this.values.convert(v, tt as Extract<Type, { kind: "scalar" }>, span);
      if (guard) value = this.pass.add({ k: "select", cond: guard(), a: value, b: this.pass.read(local, span), type: tt, loc: this.pass.loc(span) });
      sets.push({ local, value });
    };
    collect(t, leaves, val);
    const targets = new Set<number>(sets.map((s) => s.local));
    const readsTarget = (h: ExprHandle): boolean => {
      const e = this.pass.fn.exprs[h];
      return (e.k === "local" && targets.has(e.local)) || exprOperands(e).some(readsTarget);
    };
    if (sets.length > 1 && sets.some((s) => readsTarget(s.value))) {
      for (const s of sets) {
        const e = this.pass.fn.exprs[s.value];
        if (e.k === "const") continue;
        const tmp = this.pass.temp(e.type);
        this.pass.emit({ k: "set", local: tmp, value: s.value, loc: this.pass.loc(span) });
        s.value = this.pass.read(tmp, span);
      }
    }
    for (const s of sets) this.pass.emit({ k: "set", local: s.local, value: s.value, loc: this.pass.loc(span) });
  }

  /** The leaves of an aggregate argument as scalars of its parameter type's leaf types. */
  flattenArg(v: Val, t: Type, span: Span): ExprHandle[] {
    if (t.kind === "agg") {
      if (v.k !== "agg") return [];
      return t.fields.flatMap((f) => { const fv = this.fieldVal(v, f.name); return fv ? this.flattenArg(fv, f.type, span) : []; });
    }
    return [this.values.convert(v, t as Extract<Type, { kind: "scalar" }>, span)];
  }

  /**
   * The type a variable (or return value, or field) of type `cur` has after also holding `val`:
   * scalars join as scalar variables do (i32 ⊔ f32 = f32), aggregates field by field and only with
   * the same fields (names for objects, length for tuples). Null after reporting a mismatch, or
   * when `val` is not known yet.
   */
  joinValue(cur: Type, val: Val, span: Span, what: string): Type | null {
    if (val.k === "expr" && val.t.kind === "unknown") return null;
    if (val.k === "agg") {
      const vt = this.values.typeOf(val);
      if (vt.kind !== "agg") return null;
      if (cur.kind === "unknown") return vt;
      if (cur.kind !== "agg") { this.pass.err("type", `${what} holds ${holds(cur)}; it cannot also hold ${aggText(vt)}`, span); return null; }
      if (cur.tuple !== vt.tuple || cur.fields.length !== vt.fields.length || cur.fields.some((f, i) => f.name !== vt.fields[i].name)) {
        this.pass.err("type", `${what} holds ${aggText(cur)}; it cannot also hold ${aggText(vt)}: an ${cur.tuple ? "tuple keeps its length" : "object value keeps its fields"} (its type is its shape)`, span);
        return null;
      }
      const fields: { name: string; type: Type }[] = [];
      for (const f of cur.fields) {
        const t = this.joinValue(f.type, this.fieldVal(val, f.name)!, span, `${cur.tuple ? "element" : "field"} '${f.name}' of ${what}`);
        if (!t) return null;
        fields.push({ name: f.name, type: t });
      }
      return T.agg(cur.tuple, fields);
    }
    const vt = this.values.scalarType(val, span);
    if (!vt) return null;
    if (cur.kind === "unknown") return vt;
    if (cur.kind !== "scalar") { this.pass.err("type", `${what} holds ${holds(cur)}; it cannot also hold ${holds(vt)}`, span); return null; }
    return joinScalar(cur, val.k === "weak" ? this.values.adapt(val, cur) : vt);
  }

  /**
   * `cond ? a : b` on values already computed (no statements of their own): scalars as a select
   * at their common type, aggregates of one shape field by field. `cond` is called once per leaf.
   */
  selectVals(cond: () => ExprHandle, a: Val, b: Val, span: Span, what: string): Val | null {
    if (a.k === "agg" || b.k === "agg") {
      const t = this.joinValue(this.values.typeOf(a), b, span, what);
      if (!t || t.kind !== "agg" || a.k !== "agg" || b.k !== "agg") return null;
      const fields: AggVal["fields"] = [];
      for (const f of t.fields) {
        const v = this.selectVals(cond, this.fieldVal(a, f.name)!, this.fieldVal(b, f.name)!, span, what);
        if (!v) return null;
        fields.push({ name: f.name, v });
      }
      const from = a.root !== undefined ? a : b;
      return { k: "agg", tuple: t.tuple, fields, fresh: a.fresh && b.fresh, ...(from.root !== undefined ? { root: from.root, path: from.path } : {}) };
    }
    const t = this.values.commonType(a, b, span);
    return t ? this.values.selectVal(cond(), a, b, t, span) : null;
  }

  /**
   * Keep a value's leaves from changing under statements emitted after it (`after`): each leaf
   * that `after` could change is copied to a temporary, in `spills`, to go before `after`.
   */
  spillLeaves(v: Val, after: Stmt[], spills: Stmt[]): void {
    if (v.k === "agg") { for (const f of v.fields) this.spillLeaves(f.v, after, spills); return; }
    if (v.k === "expr" && v.t.kind === "scalar" && !this.values.isStable(v.h, after)) {
      const t = this.pass.temp(v.t);
      spills.push({ k: "set", local: t, value: v.h, loc: null });
      (v as { h: ExprHandle }).h = this.pass.read(t);
    }
  }

  /** A value whose scalar leaves are constants or temporaries, so that `copyDeep` may use it again. */
  keepVal(v: Val, span: Span): Val {
    if (v.k === "agg") return { ...v, fields: v.fields.map((f) => ({ name: f.name, v: this.keepVal(f.v, span) })) };
    if (v.k !== "expr" || v.t.kind !== "scalar") return v;
    const e = this.pass.fn.exprs[v.h];
    if (e.k === "const" && !v.weakPair) return v;
    const t = this.pass.temp(v.t);
    this.pass.emit({ k: "set", local: t, value: v.h, loc: this.pass.loc(span) });
    return { k: "expr", h: this.pass.read(t, span), t: v.t };
  }

  /** Another use of a value made by keepVal (expressions are trees: each use its own copy). */
  copyDeep(v: Val): Val {
    if (v.k === "agg") return { ...v, fields: v.fields.map((f) => ({ name: f.name, v: this.copyDeep(f.v) })) };
    if (v.k !== "expr" || v.t.kind !== "scalar") return v;
    return { k: "expr", h: this.pass.add({ ...this.pass.fn.exprs[v.h] }), t: v.t };
  }

  /** An aggregate value's field `name`, seen through its parent (partOf). */
  partOf(parent: AggVal, name: string, v: Val): Val { return partOf(parent, name, v); }

  /** Every object in the value is new (none is shared with a variable). */
  allFresh(v: Val): boolean {
    return v.k !== "agg" || (v.fresh && v.fields.every((f) => this.allFresh(f.v)));
  }

  /** The value with each of its objects marked new or not. */
  markFresh(v: Val, fresh: boolean): Val {
    return v.k === "agg" ? { ...v, fresh, fields: v.fields.map((f) => ({ name: f.name, v: this.markFresh(f.v, fresh) })) } : v;
  }

  /** The objects at a path of fields of a value ("*": every element). */
  private objectsAt(v: Val, path: readonly string[]): AggVal[] {
    if (v.k !== "agg") return [];
    if (!path.length) return [v];
    const [first, ...rest] = path;
    return v.fields.filter((f) => first === "*" || f.name === first).flatMap((f) => this.objectsAt(f.v, rest));
  }

  /**
   * A variable index into a tuple of `length` elements: an integer kept in a temporary, checked
   * like an array index (out of range raises a bounds KernelError, where JS would read undefined).
   */
  dynamicIndex(iv: Val, length: number, name: string | null, span: Span): ExprHandle | null {
    const it = this.values.scalarType(iv, span);
    if (!it) return null;
    if (!isInt(it)) { this.pass.err("type", `a tuple index must be an integer, got ${typeName(it)}`, span, "convert it, e.g. `Math.floor(x) | 0`"); return null; }
    const idx = this.values.stable(this.values.convert(iv, it, span), span);
    if (this.pass.ctx.options.boundsCheck && this.pass.kind !== "runtime") {
      const code = this.pass.ctx.message(`index {0${it === T.u32 ? "u" : ""}} out of bounds for tuple${name ? ` '${name}'` : ""} of length {1}`, "bounds");
      const out = this.pass.add({ k: "op", op: "ge", args: [this.values.convertH(this.pass.add({ ...this.pass.fn.exprs[idx] }), T.u32, span), this.pass.constant(length, T.u32, span)], type: T.bool, loc: this.pass.loc(span) });
      this.pass.raise("bounds", out, code, span, this.values.convertH(this.pass.add({ ...this.pass.fn.exprs[idx] }), T.i32, span), this.pass.constant(length, T.i32, span));
    }
    return idx;
  }

  // ---- sharing ---------------------------------------------------------------------------------

  /**
   * JavaScript's objects are shared by reference, gpuc's object values are copied; the two agree
   * as long as no object that two names share is changed. So an object whose fields are assigned
   * (the variable `m` of `m.x = …`) must be new where it is bound (a literal, a copy `{ ...p }`, a
   * helper's new object), and may not itself be bound to another name or put in another value.
   */
  mayHold(v: number, val: AggVal, span: Span): boolean {
    // (Its own object again — `ai = bodyBodyInteraction(ai, …)`, which hands `ai` back — shares nothing.)
    if (val.root === v && !val.path?.length) return true;
    if (this.sharesChanged(val)) { this.shared(val, `also be held by '${this.pass.ufn.vars[v].name}'`, span); return false; }
    if ((this.mutated.get(v) ?? []).some((path) => this.objectsAt(val, path).some((o) => !o.fresh))) {
      const name = this.pass.ufn.vars[v].name;
      this.pass.err("type", `the fields of '${name}' are assigned, so '${name}' must hold a new object here (an object or array literal, a copy { ...p }, or a helper's new object): in JavaScript it would share this object, and the assignments would change it for its other holders`, span,
        "copy it, e.g. `{ ...p }` or `[...t]`");
      return false;
    }
    return true;
  }

  /** Whether a value read from a variable holds an object whose fields the function assigns. */
  sharesChanged(v: Val): boolean {
    if (v.k !== "agg" || v.root === undefined) return false;
    const at = v.path ?? [];
    const match = (a: string, b: string) => a === "*" || b === "*" || a === b;
    return (this.mutated.get(v.root) ?? []).some((p) => at.length <= p.length && at.every((s, i) => match(s, p[i])));
  }

  /** Report that an object whose fields are assigned (read from a variable) would be shared in JavaScript. */
  shared(v: AggVal, what: string, span: Span): void {
    const name = [this.pass.ufn.vars[v.root!].name, ...(v.path ?? []).map((s) => (s === "*" ? "[…]" : /^\d+$/.test(s) ? `[${s}]` : `.${s}`))].join("");
    this.pass.err("type", `the fields of '${name}' are assigned, so its object cannot ${what}: JavaScript would share one object between them, and gpuc copies object values`, span,
      `copy it, e.g. \`{ ...${name} }\` or \`[...${name}]\``);
  }

  /** An object of the array of objects `v` (`a[i]`): it carries `v` as its root where the function assigns its objects' fields. */
  elementOf(v: number | undefined, val: AggVal): AggVal {
    return v !== undefined && this.mutated.has(v) ? { ...val, root: v, path: ["*"] } : val;
  }

  /** An object value read from variable `v`: it carries `v` as its root where the function assigns fields of v's objects (see mayHold). */
  fromVariable(v: number, val: AggVal): AggVal {
    return this.mutated.has(v) ? { ...val, root: v, path: [] } : val;
  }
}

/**
 * The variables whose fields or elements a function assigns (`p.x = …`, `t[i]++`, a destructuring
 * assignment to `p.x`), each with the paths of the objects assigned (`b.pos.x = …`: ["pos"];
 * `t[i].y = …`: ["*"]). Array variables are among them; only those holding object values matter.
 */
function assignedThroughFields(fn: UFunction): Map<number, string[][]> {
  const found = new Map<number, string[][]>();
  const add = (v: number, path: string[]) => found.set(v, [...found.get(v) ?? [], path]);
  const target = (x: UExpr): void => {
    if (x.k !== "field" && x.k !== "index") return;
    const r = chainOf(x, []);
    if (r) add(r.v, r.path.slice(0, -1));
  };
  walkUBody(fn.body, (e) => {
    if (e.k === "assign" || e.k === "update") target(e.target);
    // An object passed to a helper that assigns its fields (an out-parameter) is assigned here too.
    // (At the paths the callee assigns inside it: `deepFill(5, w)` assigning `ob.inner.a` assigns w.inner's.)
    if (e.k === "call" && e.callee.k === "function") {
      const byRef = byRefParams(e.callee.fn());
      e.args.forEach((a, i) => {
        const r = byRef.has(i) ? chainOf(a, []) : null;
        if (r) for (const q of byRef.get(i)!) add(r.v, [...r.path, ...q]);
      });
    }
  });
  return found;
}

/**
 * assignedThroughFields of a function, kept for each builder of it that asks (every round of inference's
 * fixed point and every instance builds it again: a walk of its body each time, 6% of a compile of
 * bench/kernels.mjs's mandelbrot). What it gives depends on the function's lowered body and on its
 * callees' byRefParams, which are kept per function once found: the same at every ask. (Asked
 * outside byRefParams only, where no function is being computed.)
 */
function fieldsAssignedIn(fn: UFunction): ReadonlyMap<number, string[][]> {
  let found = fieldsAssigned.get(fn);
  if (!found) fieldsAssigned.set(fn, (found = assignedThroughFields(fn)));
  return found;
}
const fieldsAssigned = new WeakMap<UFunction, ReadonlyMap<number, string[][]>>();

/** The variable under a chain of fields and indices, and the path along it (a dynamic index is "*"). */
export function chainOf(x: UExpr, path: string[]): { v: number; path: string[] } | null {
  if (x.k === "var") return { v: x.v, path };
  if (x.k === "field") return chainOf(x.object, [x.name, ...path]);
  if (x.k === "index") return chainOf(x.array, [x.index.k === "num" ? String(x.index.value) : "*", ...path]);
  return null;
}

/**
 * The parameters (by position) whose values a call hands back to its caller when it returns, with
 * the paths of the objects inside each that it assigns fields of (as assignedThroughFields's), as
 * JavaScript's references would: those whose fields the function assigns (an object passed to
 * be filled in: an out-parameter), itself or through a helper it passes them to; and the captured
 * locals it assigns (C++'s `[&]`). infer/calls.ts copies each back into the argument's variable
 * or field (copy-in/copy-out, right where nothing else holds the object: see mayHold).
 */
export function byRefParams(fn: UFunction): ReadonlyMap<number, readonly string[][]> {
  const known = byRefCache.get(fn);
  if (known) return known;
  // (Recursion: a function met again while its own answer is being found is taken to hand back
  // every parameter, assigned at every depth — never too few; a call that must copy back is then
  // refused as recursive.)
  if (computing.has(fn)) return new Map(fn.params.map((_, i) => [i, [[], ["*", "*", "*", "*", "*", "*"]]]));
  computing.add(fn);
  const out = new Map<number, string[][]>();
  try {
    const assigned = assignedThroughFields(fn);
    fn.params.forEach((p, i) => { const paths = assigned.get(p); if (paths) out.set(i, paths); });
    const declared = fn.params.length - (fn.captures?.length ?? 0);
    fn.captures?.forEach((n, j) => { if (fn.writtenCaptures?.includes(n)) out.set(declared + j, [...out.get(declared + j) ?? [], []]); });
  } finally { computing.delete(fn); }
  byRefCache.set(fn, out);
  return out;
}
const byRefCache = new WeakMap<UFunction, Map<number, string[][]>>();
const computing = new Set<UFunction>();
