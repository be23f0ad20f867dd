// Object and tuple values during inference (`{ x, y }`, `[lo, hi]`): scalarized, never allocated.
// A variable holding one is one IR local per leaf field (its "leaves"), a helper takes one
// parameter per leaf, and an aggregate's type (ir/types.ts `agg`) exists only here and in
// specialization keys. This layer joins their types, reads and writes their leaves, and selects
// between them; FunctionBuilder (build.ts) maps the syntax onto it.

import type { Span } from "../frontend/source.js";
import type { ExprHandle, LocalHandle, Stmt } from "../ir/module.js";
import { exprOperands } from "../ir/module.js";
import { T, joinScalar, typeName, type Type } from "../ir/types.js";
import type { AggVal, Val } from "./methods.js";
import { ValueBuilder, aggText } from "./values.js";

/** The IR locals of an aggregate's leaves, nested as its type's fields are. */
export type Leaves = LocalHandle | Leaves[];

export function flatLeaves(l: Leaves): LocalHandle[] {
  return Array.isArray(l) ? l.flatMap(flatLeaves) : [l];
}

/** "a number", "an array", "an object value { x: f32 }": what a type holds, for messages. */
export function holds(t: Type): string {
  if (t.kind === "agg") return aggText(t);
  if (t.kind === "array") return `an array (${typeName(t)})`;
  return t === T.bool ? "a boolean" : "a number";
}

export abstract class AggregateBuilder extends ValueBuilder {
  /** Leaf locals for an aggregate of type `t`, named `name.field`. */
  protected makeLeaves(t: Type, name: string): Leaves {
    if (t.kind === "agg") return t.fields.map((f) => this.makeLeaves(f.type, `${name}.${f.name}`));
    return this.newLocal(name, t);
  }

  /** The value held by leaves of type `t` (reads of the locals). */
  protected readLeaves(t: Type, leaves: Leaves, span: Span | null): Val {
    if (t.kind === "agg") {
      const ls = leaves as Leaves[];
      return { k: "agg", tuple: t.tuple, fields: t.fields.map((f, i) => ({ name: f.name, v: this.readLeaves(f.type, ls[i], span) })), fresh: false };
    }
    const l = leaves as LocalHandle;
    return { k: "expr", h: this.read(l, span), t: this.fn.locals[l].type };
  }

  /** The field of an aggregate value by name (an object's) or position (a tuple's). */
  protected fieldVal(v: AggVal, name: string): Val | undefined {
    return v.fields.find((f) => f.name === name)?.v;
  }

  /**
   * Assign `val` (an aggregate of `t`'s shape, or a scalar leaf) to `leaves` of type `t`; where
   * `guard` is given, each leaf keeps its value unless the guard holds (a dynamic index's
   * element). All values are computed before any leaf is assigned (`p = { x: p.y, y: p.x }`).
   */
  protected writeLeaves(t: Type, leaves: Leaves, val: Val, span: Span, guard: (() => ExprHandle) | null = null): void {
    const sets: { local: LocalHandle; value: ExprHandle }[] = [];
    const collect = (tt: Type, ls: Leaves, v: Val): void => {
      if (tt.kind === "agg") {
        if (v.k !== "agg") return;
        tt.fields.forEach((f, i) => { const fv = this.fieldVal(v, f.name); if (fv) collect(f.type, (ls as Leaves[])[i], fv); });
        return;
      }
      const local = ls as LocalHandle;
      if (v.k === "expr" && v.t.kind === "unknown") return;
      let value = this.convert(v, tt as Extract<Type, { kind: "scalar" }>, span);
      if (guard) value = this.add({ k: "select", cond: guard(), a: value, b: this.read(local, span), type: tt, loc: this.loc(span) });
      sets.push({ local, value });
    };
    collect(t, leaves, val);
    const targets = new Set<number>(sets.map((s) => s.local));
    const readsTarget = (h: ExprHandle): boolean => {
      const e = this.fn.exprs[h];
      return (e.k === "local" && targets.has(e.local)) || exprOperands(e).some(readsTarget);
    };
    if (sets.length > 1 && sets.some((s) => readsTarget(s.value))) {
      for (const s of sets) {
        const e = this.fn.exprs[s.value];
        if (e.k === "const") continue;
        const tmp = this.temp(e.type);
        this.emit({ k: "set", local: tmp, value: s.value, loc: this.loc(span) });
        s.value = this.read(tmp, span);
      }
    }
    for (const s of sets) this.emit({ k: "set", local: s.local, value: s.value, loc: this.loc(span) });
  }

  /** The leaves of an aggregate argument as scalars of its parameter type's leaf types. */
  protected flattenArg(v: Val, t: Type, span: Span): ExprHandle[] {
    if (t.kind === "agg") {
      if (v.k !== "agg") return [];
      return t.fields.flatMap((f) => { const fv = this.fieldVal(v, f.name); return fv ? this.flattenArg(fv, f.type, span) : []; });
    }
    return [this.convert(v, t as Extract<Type, { kind: "scalar" }>, span)];
  }

  /**
   * The type a variable (or return value, or field) of type `cur` has after also holding `val`:
   * scalars join as scalar variables do (i32 ⊔ f32 = f32), aggregates field by field and only with
   * the same fields (names for objects, length for tuples). Null after reporting a mismatch, or
   * when `val` is not known yet.
   */
  protected joinValue(cur: Type, val: Val, span: Span, what: string): Type | null {
    if (val.k === "expr" && val.t.kind === "unknown") return null;
    if (val.k === "agg") {
      const vt = this.typeOf(val);
      if (vt.kind !== "agg") return null;
      if (cur.kind === "unknown") return vt;
      if (cur.kind !== "agg") { this.err("type", `${what} holds ${holds(cur)}; it cannot also hold ${aggText(vt)}`, span); return null; }
      if (cur.tuple !== vt.tuple || cur.fields.length !== vt.fields.length || cur.fields.some((f, i) => f.name !== vt.fields[i].name)) {
        this.err("type", `${what} holds ${aggText(cur)}; it cannot also hold ${aggText(vt)}: an ${cur.tuple ? "tuple keeps its length" : "object value keeps its fields"} (its type is its shape)`, span);
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
    const vt = this.scalarType(val, span);
    if (!vt) return null;
    if (cur.kind === "unknown") return vt;
    if (cur.kind !== "scalar") { this.err("type", `${what} holds ${holds(cur)}; it cannot also hold ${holds(vt)}`, span); return null; }
    return joinScalar(cur, val.k === "weak" ? this.adapt(val, cur) : vt);
  }

  /**
   * `cond ? a : b` on values already computed (no statements of their own): scalars as a select
   * at their common type, aggregates of one shape field by field. `cond` is called once per leaf.
   */
  protected selectVals(cond: () => ExprHandle, a: Val, b: Val, span: Span, what: string): Val | null {
    if (a.k === "agg" || b.k === "agg") {
      const t = this.joinValue(this.typeOf(a), b, span, what);
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
    const t = this.commonType(a, b, span);
    return t ? this.selectVal(cond(), a, b, t, span) : null;
  }

  /**
   * Keep a value's leaves from changing under statements emitted after it (`after`): each leaf
   * that `after` could change is copied to a temporary, in `spills`, to go before `after`.
   */
  protected spillLeaves(v: Val, after: Stmt[], spills: Stmt[]): void {
    if (v.k === "agg") { for (const f of v.fields) this.spillLeaves(f.v, after, spills); return; }
    if (v.k === "expr" && v.t.kind === "scalar" && !this.isStable(v.h, after)) {
      const t = this.temp(v.t);
      spills.push({ k: "set", local: t, value: v.h, loc: null });
      (v as { h: ExprHandle }).h = this.read(t);
    }
  }

  /** A value whose scalar leaves are constants or temporaries, so that `copyDeep` may use it again. */
  protected keepVal(v: Val, span: Span): Val {
    if (v.k === "agg") return { ...v, fields: v.fields.map((f) => ({ name: f.name, v: this.keepVal(f.v, span) })) };
    if (v.k !== "expr" || v.t.kind !== "scalar") return v;
    const e = this.fn.exprs[v.h];
    if (e.k === "const" && !v.weakPair) return v;
    const t = this.temp(v.t);
    this.emit({ k: "set", local: t, value: v.h, loc: this.loc(span) });
    return { k: "expr", h: this.read(t, span), t: v.t };
  }

  /** Another use of a value made by keepVal (expressions are trees: each use its own copy). */
  protected copyDeep(v: Val): Val {
    if (v.k === "agg") return { ...v, fields: v.fields.map((f) => ({ name: f.name, v: this.copyDeep(f.v) })) };
    if (v.k !== "expr" || v.t.kind !== "scalar") return v;
    return { k: "expr", h: this.add({ ...this.fn.exprs[v.h] }), t: v.t };
  }

  /** An aggregate value's field `name`, seen through its parent (read from a variable, it is at the parent's path and the name). */
  protected partOf(parent: AggVal, name: string, v: Val): Val {
    return v.k === "agg" && parent.root !== undefined ? { ...v, root: parent.root, path: [...parent.path ?? [], name] } : v;
  }

  /** Every object in the value is new (none is shared with a variable). */
  protected allFresh(v: Val): boolean {
    return v.k !== "agg" || (v.fresh && v.fields.every((f) => this.allFresh(f.v)));
  }

  /** The value with each of its objects marked new or not. */
  protected markFresh(v: Val, fresh: boolean): Val {
    return v.k === "agg" ? { ...v, fresh, fields: v.fields.map((f) => ({ name: f.name, v: this.markFresh(f.v, fresh) })) } : v;
  }

  /** The objects at a path of fields of a value ("*": every element). */
  protected objectsAt(v: Val, path: readonly string[]): AggVal[] {
    if (v.k !== "agg") return [];
    if (!path.length) return [v];
    const [first, ...rest] = path;
    return v.fields.filter((f) => first === "*" || f.name === first).flatMap((f) => this.objectsAt(f.v, rest));
  }
}
