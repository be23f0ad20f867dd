// Places during a pass: what a value is read from and assigned to. Variables (each assignment
// widens the variable's type and converts to its type of the previous pass), the parts of an
// object or tuple variable (`p.x`, `t[1]`, `t[i].y`), array elements; compound assignments and
// `++`/`--`, in JavaScript's order of evaluation.

import type { Span } from "../frontend/source.js";
import type { UExpr } from "../frontend/uir.js";
import type { ExprHandle, LocalHandle } from "../ir/module.js";
import { T, elemScalar, isAgg, isArray, isFloat, isInt, joinScalar, parseTypeName, typeName, type ScalarType, type Type } from "../ir/types.js";
import type { AggVal, Val } from "./methods.js";
import { arrayWhat } from "./methods.js";
import type { Leaves, Pass } from "./pass.js";
import { chainOf, holds, type Aggregates } from "./aggregates.js";
import { once, type ArrayOperand, type Arrays } from "./arrays.js";
import { aggText, type Values } from "./values.js";
import { maybeUnassigned, type ReadUse } from "./unassigned.js";

/** An assignable part of an aggregate variable: `p.x`, `t[1]`, `t[i].y` (a dynamic step: an index kept stable, checked). */
interface Place { v: number; steps: ({ k: "field"; name: string } | { k: "dyn"; index: ExprHandle })[]; text: string; span: Span }

export class Places {
  constructor(private readonly pass: Pass, private readonly values: Values, private readonly aggregates: Aggregates, private readonly arrays: Arrays) {}

  // ---- variables -------------------------------------------------------------------------------

  private varType(v: number): Type {
    const d = this.pass.ufn.vars[v].declared;
    return d ? parseTypeName(d) ?? T.unknown : this.pass.varTypes[v];
  }

  /** The value a variable holds here: the row, view or array bound to it, an object value's leaves, a scalar's local. */
  readVar(v: number, span: Span, use?: ReadUse): Val {
    if (this.pass.poisoned.has(v)) return this.pass.unknown;
    const row = this.pass.rowAliases.get(v);
    if (row) return row;
    const view = this.pass.viewAliases.get(v);
    if (view) return this.arrays.copyView(view, span);
    const alias = this.pass.aliases.get(v);
    if (alias !== undefined) {
      const e = this.pass.fn.exprs[alias];
      return { k: "expr", h: this.pass.add({ ...e, loc: this.pass.loc(span) }), t: e.type };
    }
    const structs = this.pass.structVars.get(v);
    if (structs) return { k: "structs", t: structs.t, leaves: structs.leaves(), name: this.pass.ufn.vars[v].name, root: v };
    // (An absent optional array: a parameter declared Float32Array may be given null.)
    const nt = this.pass.varTypes[v];
    if (nt.kind === "null") return { k: "null", undef: nt.undef };
    if (nt.kind === "fn") {
      const env = this.pass.fnEnvs.get(v);
      return { k: "fn", t: nt, ...(env ? { env: env.map((x) => this.arrays.copy(x, span)) } : {}) };
    }
    const t = this.varType(v);
    if (t.kind === "unknown") { this.pass.unknownReads.push({ v, span }); return this.pass.unknown; }
    const defined = this.pass.definedFlags.get(v);
    if (isAgg(t)) {
      if (defined !== undefined)
        return this.pass.error("type", `'${this.pass.ufn.vars[v].name}' may be read here before an object value is assigned to it (JavaScript's undefined has no fields)`, span,
          "give it a value where it is declared");
      const val = this.aggregates.readLeaves(t, this.leavesOf(v)!, span) as AggVal;
      return this.aggregates.fromVariable(v, val);
    }
    // An array parameter has its argument's type (a declared Int32Array accepts any i32 array).
    if (t.kind === "array" && this.pass.localOf[v] !== undefined) {
      const l = this.pass.localOf[v];
      return { k: "expr", h: this.pass.read(l, span), t: this.pass.fn.locals[l].type };
    }
    if (t.kind !== "scalar") return this.pass.error("type", `'${this.pass.ufn.vars[v].name}' is not a value`, span);
    // A const bound to a constant (`const VEC = 32`) is that constant, as one from scope is: exact
    // in constant expressions (`VEC / 2` is 16, an integer) and taking its operand's type.
    const init = this.pass.localOf[v] !== undefined && this.pass.ufn.vars[v].kind === "const" ? this.pass.constInits.get(this.pass.localOf[v]) : undefined;
    if (init?.k === "weak") return init;
    const l = this.localFor(v);
    if (defined === undefined) return { k: "expr", h: this.pass.read(l, span), t: this.pass.fn.locals[l].type };
    // A read that may find it undefined: a test reads the flag (values.ts, expressions.ts) and a
    // bitwise operator's ToInt32 gives 0 as for undefined; NaN stands for undefined in a float's
    // arithmetic; an integer or a boolean used otherwise as a number, or
    // anything passed to a helper (which may test it for undefined), cannot be undefined here — a
    // KernelError where it is, at its line.
    if (use === "arg" || (use !== "exact" && !isFloat(t))) {
      const name = this.pass.ufn.vars[v].name;
      if (this.pass.fn.stateParam === null)
        return this.pass.error("type", `'${name}' may be read here before any value is assigned to it, which a helper compiled without bounds checks cannot report`, span, "give it a value where it is declared");
      const what = use === "arg" ? "passed to a helper" : `used as a number (JavaScript's undefined is NaN there, which ${t === T.bool ? "a boolean" : "an integer"} variable cannot hold)`;
      const report = this.pass.capture(() => this.pass.raise("throw", null,
        this.pass.ctx.message(`'${name}' is undefined here (declared without a value, none assigned yet) and ${what}: give it a value where it is declared`), span, null, null));
      this.pass.emit({ k: "if", cond: this.pass.add({ k: "op", op: "not", args: [this.pass.read(defined, span)], type: T.bool, loc: this.pass.loc(span) }), then: report, else: [], loc: this.pass.loc(span) });
    }
    return { k: "expr", h: this.pass.read(l, span), t: this.pass.fn.locals[l].type, defined };
  }

  /**
   * `let x;` that a read may find unassigned (unassigned.ts): JavaScript's `undefined` there — its
   * flag false, and a value that reads as undefined does where the flag is not consulted: NaN for
   * a float (arithmetic on undefined is NaN's), 0 or false otherwise (falsy, as undefined is; a
   * read that uses an integer or boolean as a number checks the flag: readVar). Where the
   * declaration runs (a `let` in a loop is undefined again each iteration); a `var`'s at the
   * function's start (`atStart`, build.ts), its declaration doing nothing.
   */
  declareUnassigned(v: number, span: Span, atStart = false): void {
    if (!maybeUnassigned(this.pass.ufn).vars.has(v) || (this.pass.ufn.vars[v].kind === "var") !== atStart) return;
    const flag = this.pass.newLocal(`${this.pass.ufn.vars[v].name}_defined`, T.bool);
    this.pass.definedFlags.set(v, flag);
    const loc = this.pass.loc(span);
    this.pass.emit({ k: "set", local: flag, value: this.pass.constant(false, T.bool, span), loc });
    const t = this.varType(v);
    if (t.kind === "scalar") this.pass.emit({ k: "set", local: this.localFor(v), value: this.pass.constant(t === T.bool ? false : isFloat(t) ? NaN : 0, t, span), loc });
  }

  /** The IR local of a scalar variable, created on first use (array aliases and untyped variables get none). */
  private localFor(v: number): LocalHandle {
    let l = this.pass.localOf[v];
    if (l === undefined) {
      l = this.pass.newLocal(this.pass.ufn.vars[v].name, this.varType(v));
      this.pass.localOf[v] = l;
    }
    return l;
  }

  /** The leaf locals of a variable holding an aggregate (its type of the previous pass), or null before that is known. */
  private leavesOf(v: number): Leaves | null {
    const t = this.varType(v);
    if (!isAgg(t)) return null;
    let l = this.pass.aggLeaves.get(v);
    if (!l) { l = this.aggregates.makeLeaves(t, this.pass.ufn.vars[v].name); this.pass.aggLeaves.set(v, l); }
    return l;
  }

  /** Assign to a variable: widens its inferred type, converts to its current type. */
  assignVar(v: number, val: Val, span: Span): void {
    const uv = this.pass.ufn.vars[v];
    if (val.k === "null" || this.pass.newVarTypes[v].kind === "null" || val.k === "fn" || this.pass.newVarTypes[v].kind === "fn") return this.assignNull(v, val, span);
    if (val.k === "agg" || isAgg(this.pass.newVarTypes[v])) return this.assignAggregate(v, val, span);
    if (this.pass.rebindable.has(v)) return this.arrays.rebind(v, val, span);
    if (val.k === "expr" && isArray(val.t)) { this.pass.err("invalid-assignment", `cannot assign an array to '${uv.name}'`, span); return; }
    if (val.k === "expr" && val.t.kind === "unknown") return;
    if (this.pass.aliases.has(v) || isArray(this.pass.varTypes[v])) { this.pass.err("invalid-assignment", `cannot assign to array '${uv.name}'`, span); return; }
    const vt = this.values.scalarType(val, span);
    if (!vt) return;
    const declared = uv.declared ? parseTypeName(uv.declared) : null;
    if (declared) {
      if (declared.kind !== "scalar") { this.pass.err("type", `'${uv.name}' is declared as an array`, span); return; }
      if (isInt(declared) && isFloat(vt) && !(val.k === "weak" && Number.isInteger(val.value)))
        this.pass.err("type", `cannot assign a ${typeName(vt)} value to '${uv.name}', declared ${typeName(declared)}`, span, "convert explicitly, e.g. `x | 0` or `Math.floor(x) | 0`");
      this.pass.newVarTypes[v] = declared;
    } else {
      const cur = this.pass.newVarTypes[v];
      const t = val.k === "weak" && cur.kind === "scalar" ? this.values.adapt(val, cur) : vt;
      this.pass.newVarTypes[v] = cur.kind === "scalar" ? joinScalar(cur, t) : t;
    }
    const target = this.varType(v);
    if (target.kind !== "scalar") return; // first pass: the type is not known yet
    const local = this.localFor(v);
    this.pass.emit({ k: "set", local, value: this.values.convert(val, target, span), loc: this.pass.loc(span) });
    const flag = this.pass.definedFlags.get(v);
    if (flag !== undefined) this.pass.emit({ k: "set", local: flag, value: this.pass.constant(true, T.bool, span), loc: this.pass.loc(span) });
  }

  /**
   * A variable that holds `null` or `undefined` (`const input = d_Input`, an absent optional
   * array), or a function (`const op = add`): known here like its value, so it may hold nothing else.
   */
  private assignNull(v: number, val: Val, span: Span): void {
    if (val.k === "expr" && val.t.kind === "unknown") return;
    const cur = this.pass.newVarTypes[v], t = this.values.typeOf(val);
    if (cur.kind === "unknown" || cur === t) {
      this.pass.newVarTypes[v] = t;
      if (val.k === "fn" && val.env) this.pass.fnEnvs.set(v, val.env);
      return;
    }
    this.pass.err("type", `'${this.pass.ufn.vars[v].name}' holds ${holds(cur)} and, here, ${holds(t)}: a variable of a kernel holds one kind of value`, span,
      cur.kind === "fn" || t.kind === "fn" ? "a variable holds one function: call the other where it is chosen (`c ? f(x) : g(x)`)" : "an optional array is tested where it is used: `a ? a[i] : 0`, `if (a != null) …`");
  }

  /** Assign to a variable that holds an object value: its type joins field by field, its leaves are set. */
  private assignAggregate(v: number, val: Val, span: Span): void {
    const uv = this.pass.ufn.vars[v];
    if (val.k === "expr" && val.t.kind === "unknown") return;
    if (uv.declared) { this.pass.err("type", `'${uv.name}' is declared ${uv.declared}; it cannot hold ${holds(this.values.typeOf(val))}`, span); return; }
    if (val.k === "agg" && !this.aggregates.mayHold(v, val, span)) return;
    const t = this.aggregates.joinValue(this.pass.newVarTypes[v], val, span, `'${uv.name}'`);
    if (!t) return;
    this.pass.newVarTypes[v] = t;
    const leaves = this.leavesOf(v);
    if (leaves) this.aggregates.writeLeaves(this.varType(v), leaves, val, span);
  }

  // ---- assignments ----------------------------------------------------------------------------

  /**
   * What a call hands back into an argument (an out-parameter's object, a captured local the
   * callee assigned): assigned to the variable, or the field of one, that was passed.
   */
  assignTo(target: UExpr, val: Val, span: Span): void {
    if (target.k === "var") return this.assignVar(target.v, val, span);
    const p = this.place(target);
    if (p) this.writePlace(p, val, span);
  }

  /** `x = v` and `x op= v` on a variable, a part of an object value or an array element; the assignment's value where it is used. */
  assign(e: Extract<UExpr, { k: "assign" }>, used: boolean): Val {
    const span = e.span;
    const binop = e.op === "=" ? null : e.op.slice(0, -1);
    const structs = this.assignStructs(e, binop, used);
    if (structs) return structs;
    if (this.isPlace(e.target)) {
      const place = this.place(e.target);
      if (!place) { this.pass.lower.expr(e.value); return this.pass.unknown; }
      let value: Val;
      if (binop) {
        const cur = this.readPlace(place);
        value = this.values.arith(binop, cur, this.pass.lower.operandAfter(cur, e.value), span);
      } else value = this.pass.lower.expr(e.value);
      if (value.k === "expr" && value.t.kind === "unknown") return this.pass.unknown;
      if (!used) { this.writePlace(place, value, span); return this.pass.unknown; }
      const result = this.aggregates.keepVal(value, span);
      this.writePlace(place, this.aggregates.copyDeep(result), span);
      return this.aggregates.copyDeep(result);
    }
    if (e.target.k === "var") {
      const v = e.target.v;
      let value: Val;
      if (binop) {
        // JS reads the variable before evaluating the right side (`s += (s = 3)` adds to the old s).
        const cur = this.readVar(v, e.target.span);
        value = this.values.arith(binop, cur, this.pass.lower.operandAfter(cur, e.value), span);
      } else value = this.pass.lower.expr(e.value);
      this.assignVar(v, value, span);
      return used ? this.readVar(v, span) : this.pass.unknown;
    }
    if (e.target.k === "index") {
      const base = this.pass.lower.expr(e.target.array);
      if (base.k === "null" && !binop) {
        // JS evaluates the index and the value, then fails to set the element.
        this.arrays.index(e.target.index);
        this.pass.lower.expr(e.value);
        return this.arrays.nullAccess(base, "set an element of", span);
      }
      const arr = this.arrays.operandOf(base, e.target.array.span);
      return this.assignElement(arr, this.arrays.index(e.target.index), e, binop, used);
    }
    return this.pass.unknown;
  }

  /** `a[i] = v`, `a[i] op= v` on an array operand and its index (null: not an array, already reported). */
  private assignElement(arr: ArrayOperand | null, idx: ExprHandle | null, e: Extract<UExpr, { k: "assign" }>, binop: string | null, used: boolean, onValue?: (v: Val) => void): Val {
    const span = e.span;
    {
      if (!arr || idx === null) { this.pass.lower.expr(e.value); return this.pass.unknown; }
      if (arr.t.space === "constant") return this.pass.error("invalid-assignment", "cannot write to a constant table captured from scope", e.target.span);
      if (arr.row && arr.row.indices.length + 1 < arr.row.shape.dims.length) return this.pass.error("invalid-assignment", `cannot assign to a row of ${arrayWhat(arr.row.shape)}: index it to an element`, e.target.span);
      let value: Val;
      let target: { array: () => ExprHandle; index: () => ExprHandle };
      if (binop) {
        // a[i] op= v: the load's check covers the store (same array, same index).
        target = this.arrays.access(arr, idx, span, 2);
        const cur: Val = this.arrays.load(arr, target.array(), target.index(), span);
        value = this.values.arith(binop, cur, this.pass.lower.operandAfter(cur, e.value), span);
      } else {
        // JS evaluates the target, then the value, then stores: the index is kept (spilled if the
        // right side could change it) and checked just before the store.
        const iv: Val = { k: "expr", h: idx, t: this.pass.fn.exprs[idx].type };
        value = this.pass.lower.operandAfterAll([iv], e.value);
        const arrH = arr.h, idxH = (iv as { h: ExprHandle }).h;
        target = { array: once(arrH), index: once(idxH) };
      }
      if (value.k === "expr" && value.t.kind === "unknown") return this.pass.unknown;
      if (!this.values.scalarType(value, e.value.span)) return this.pass.unknown;
      onValue?.(value);
      const h = this.arrays.storeValue(value, arr.t.elem, span, used);
      if (!binop) target = this.arrays.access({ ...arr, h: target.array() }, target.index(), span);
      this.arrays.store(arr, target.array, target.index, h.store, span);
      return h.result;
    }
  }

  /**
   * An assignment to an element of an array of objects, or to a field of one (`a[i] = { x, y }`,
   * `a[i].x += v`): a store into each field's array, or into the one field's. Null where the target
   * is not such an element (arrays of objects are variables: parameters, shared and private ones).
   */
  private assignStructs(e: Extract<UExpr, { k: "assign" }>, binop: string | null, used: boolean): Val | null {
    const span = e.span, t = e.target;
    const deep = this.deepStructStore(t);
    if (deep) { this.pass.lower.expr(e.value); return deep; }
    const index = t.k === "field" && t.object.k === "index" ? t.object : t.k === "index" ? t : null;
    if (!index || index.array.k !== "var") return null;
    if (t.k === "index" && this.pass.pendingStructs.has(index.array.v)) {
      // A shared or private array of objects whose objects' shape is not known yet: this store teaches it.
      this.arrays.index(index.index);
      const value = this.pass.lower.expr(e.value);
      this.learnStructs(index.array.v, value, e.value.span);
      return this.pass.unknown;
    }
    const v = index.array.v;
    if (!this.pass.structVars.has(v)) return null;
    const a = this.readVar(v, index.array.span) as Extract<Val, { k: "structs" }>;
    if (t.k === "field") {
      const name = t.name;
      let field = this.arrays.structField(a, t.name, t.span);
      let idx = this.arrays.index(index.index);
      // JavaScript reads the element `a[i]` before it evaluates the value (then sets its field), so
      // its index is checked first; the store's own check then finds it done (`a[i].x op= v`
      // loads the field first anyway).
      if (!binop && field && idx !== null) {
        const early = this.arrays.access(field, idx, t.span, 2);
        field = { ...field, h: early.array() };
        idx = early.index();
      }
      // (A shared or private one's field widens with what is stored into it, as a variable does.)
      const widen = field && this.pass.ufn.vars[v].kind !== "param" ? (value: Val) => {
        const vt = value.k === "expr" && value.t.kind === "unknown" ? null : this.values.scalarType(value, e.value.span);
        const ft = a.t.of.fields.find((f) => f.name === name)!.type;
        if (!vt || ft.kind !== "scalar") return;
        const joined = joinScalar(ft, value.k === "weak" ? this.values.adapt(value, ft) : vt);
        const cur = this.pass.newVarTypes[v];
        if (joined !== ft && cur.kind === "structs")
          this.pass.newVarTypes[v] = T.structs(T.agg(false, cur.of.fields.map((f) => (f.name === name ? { name: f.name, type: joinScalar(f.type as ScalarType, joined) } : f))));
      } : undefined;
      // A boolean field holds booleans: JavaScript would store any other value as it is, changing the field's type.
      const ft = field ? a.t.of.fields.find((f) => f.name === name)!.type : null;
      const check = ft === T.bool ? (value: Val) => {
        if (value.k === "weak" || this.values.scalarType(value, e.value.span) !== T.bool)
          this.pass.err("type", `field '${name}' of the objects of '${a.name}' holds booleans; this stores ${binop ? `the result of '${e.op}', a number` : "a number"}, which would change its type`, e.span, "store a boolean (true, false, a comparison)");
      } : widen;
      return this.assignElement(field, idx, e, binop, used, check);
    }
    // The whole element: each field's array at one checked index.
    if (binop) return this.pass.error("type", `'${e.op}' on an element of array of objects '${a.name}' (${typeName(a.t)})`, e.span, `assign its fields, e.g. ${a.name}[i].${a.t.of.fields[0].name} ${e.op} v`);
    const idx = this.arrays.index(index.index);
    if (idx === null) { this.pass.lower.expr(e.value); return this.pass.unknown; }
    const iv: Val = { k: "expr", h: this.values.stable(idx, index.index.span), t: this.pass.fn.exprs[idx].type };
    const value = this.pass.lower.operandAfterAll([iv], e.value);
    if (value.k === "expr" && value.t.kind === "unknown") return this.pass.unknown;
    if (value.k !== "agg" || value.tuple) return this.pass.error("type", `an element of '${a.name}' (${typeName(a.t)}) is assigned an object of its fields, got ${holds(this.values.typeOf(value))}`, e.value.span);
    const fields = a.t.of.fields;
    const missing = fields.find((f) => !this.aggregates.fieldVal(value, f.name));
    const extra = value.fields.find((f) => !fields.some((g) => g.name === f.name));
    if (missing || extra) return this.pass.error("type", `an element of '${a.name}' has the fields ${fields.map((f) => f.name).join(", ")}; ${missing ? `this object has no '${missing.name}'` : `this object has '${extra!.name}' too`}`, e.value.span);
    const notBool = fields.find((f) => f.type === T.bool && this.values.typeOf(this.aggregates.fieldVal(value, f.name)!) !== T.bool);
    if (notBool) return this.pass.error("type", `field '${notBool.name}' of the objects of '${a.name}' holds booleans; this object's is not one, which would change its type`, e.value.span, "store a boolean (true, false, a comparison)");
    // (JavaScript would store the object itself: one whose fields are assigned would be shared.)
    if (this.aggregates.sharesChanged(value)) { this.aggregates.shared(value, `be stored into '${a.name}'`, e.value.span); return this.pass.unknown; }
    this.learnStructs(index.array.v, value, e.value.span);
    const kept = this.aggregates.keepVal(value, span);
    this.arrays.access(this.arrays.structField(a, fields[0].name, span)!, (iv as { h: ExprHandle }).h, span);
    fields.forEach((f) => {
      const leaf = this.arrays.structField(a, f.name, span)!;
      const h = this.arrays.storeValue(this.aggregates.fieldVal(kept as AggVal, f.name)!, leaf.t.elem, span, false);
      this.pass.emit({ k: "store", array: leaf.h, index: this.pass.add({ ...this.pass.fn.exprs[(iv as { h: ExprHandle }).h] }), value: h.store, loc: this.pass.loc(span) });
    });
    return used ? this.aggregates.copyDeep(kept) : this.pass.unknown;
  }

  /**
   * A store below the fields of an array of objects' objects (`a[i].nbr[k].d = v`, `a[i].pos.x =
   * v`): refused, reported (null for any other target).
   */
  private deepStructStore(t: UExpr): Val | null {
    const r = chainOf(t, []);
    if (!r || r.path.length <= 2 || !this.pass.structVars.has(r.v)) return null;
    const name = this.pass.ufn.vars[r.v].name;
    return this.pass.error("invalid-assignment", `stores into the objects and arrays inside the objects of '${name}' are not supported`, t.span,
      "keep what the kernel writes in a field of numbers, or in an array of its own");
  }

  /** Whether an assignment target is a part of an object or tuple value (`p.x`, `t[i]`, `t[0].y`). */
  private isPlace(x: UExpr): boolean {
    if (x.k === "field") return true;
    if (x.k === "index") return x.array.k === "var" ? isAgg(this.pass.newVarTypes[x.array.v]) || isAgg(this.varType(x.array.v)) : this.isPlace(x.array);
    return false;
  }

  /**
   * The part of an aggregate variable an assignment target names: fields checked against the
   * variable's shape, constant indices against its length, dynamic indices evaluated once (kept,
   * checked). Null after reporting why not (or while the variable's type is not known yet).
   */
  private place(x: UExpr): Place | null {
    if (x.k === "var") {
      const uv = this.pass.ufn.vars[x.v];
      const t = this.pass.newVarTypes[x.v];
      if (!isAgg(t)) {
        if (t.kind !== "unknown") this.pass.err("type", `'${uv.name}' holds ${holds(t)}; it has no fields to assign`, x.span);
        return null;
      }
      // A parameter's fields assigned are the caller's object's (an out-parameter: copied back
      // when the call returns) — unless the parameter is also bound to another object, after
      // which its fields would be that one's.
      const u = this.pass.ufn, captured = u.params.indexOf(x.v) >= u.params.length - (u.captures?.length ?? 0);
      if (uv.kind === "param" && !captured && this.pass.rebound.has(x.v))
        { this.pass.err("invalid-assignment", `parameter '${uv.name}' is assigned another object, and its fields are assigned: in JavaScript the fields would change the caller's object or the new one depending on the order, and gpuc copies the caller's back when the call returns`, x.span, `copy it to a local first, e.g. \`const q = { ...${uv.name} }\``); return null; }
      return { v: x.v, steps: [], text: uv.name, span: x.span };
    }
    if (x.k !== "field" && x.k !== "index") { this.pass.err("invalid-assignment", "only variables, array elements and the fields of object values can be assigned", x.span); return null; }
    const base = this.place(x.k === "field" ? x.object : x.array);
    if (!base) { if (x.k === "index") this.pass.lower.expr(x.index); return null; }
    const t = this.placeType(base);
    if (!t) return null;
    if (x.k === "field") {
      if (t.kind !== "agg" || t.tuple) { this.pass.err("type", `'${base.text}' holds ${holds(t)}; it has no field '${x.name}'`, x.span); return null; }
      if (!t.fields.some((f) => f.name === x.name))
        { this.pass.err("type", `cannot add field '${x.name}' to '${base.text}' (${aggText(t)}): an object value keeps the fields it was created with`, x.span); return null; }
      return { ...base, steps: [...base.steps, { k: "field", name: x.name }], text: `${base.text}.${x.name}`, span: x.span };
    }
    if (t.kind !== "agg" || !t.tuple) { this.pass.lower.expr(x.index); this.pass.err("type", `'${base.text}' holds ${holds(t)}; it cannot be indexed`, x.span); return null; }
    const iv = this.pass.lower.expr(x.index);
    if (iv.k === "weak") {
      if (!Number.isInteger(iv.value) || iv.value < 0 || iv.value >= t.fields.length)
        { this.pass.err("type", `index ${iv.value} is out of range for '${base.text}', ${aggText(t)} (length ${t.fields.length})`, x.index.span); return null; }
      return { ...base, steps: [...base.steps, { k: "field", name: String(iv.value) }], text: `${base.text}[${iv.value}]`, span: x.span };
    }
    const index = this.aggregates.dynamicIndex(iv, t.fields.length, base.text, x.index.span);
    if (index === null) return null;
    return { ...base, steps: [...base.steps, { k: "dyn", index }], text: `${base.text}[…]`, span: x.span };
  }

  /** The type of a place (every element of a dynamic step has one shape and is joined). */
  private placeType(p: Place): Type | null {
    let t: Type = this.pass.newVarTypes[p.v];
    for (const s of p.steps) {
      if (t.kind !== "agg") return null;
      if (s.k === "field") t = t.fields.find((f) => f.name === s.name)?.type ?? T.unknown;
      else t = t.fields.slice(1).reduce<Type>((acc, f) => (acc === f.type ? acc : acc.kind === "scalar" && f.type.kind === "scalar" ? joinScalar(acc, f.type) : T.unknown), t.fields[0].type);
      if (t.kind === "unknown") return null;
    }
    return t;
  }

  /** The value at a place (a dynamic step selects among the elements). */
  private readPlace(p: Place): Val {
    const leaves = this.leavesOf(p.v);
    if (!leaves) { this.pass.unknownReads.push({ v: p.v, span: p.span }); return this.pass.unknown; }
    let v: Val = this.aggregates.readLeaves(this.varType(p.v), leaves, p.span);
    for (const s of p.steps) {
      if (v.k !== "agg") return this.pass.unknown;
      if (s.k === "field") { v = this.aggregates.fieldVal(v, s.name) ?? this.pass.unknown; continue; }
      const t: AggVal = v;
      let r: Val | null = t.fields[t.fields.length - 1].v;
      for (let k = t.fields.length - 2; k >= 0 && r; k--) {
        const cond = () => this.pass.add({ k: "op", op: "eq", args: [this.pass.add({ ...this.pass.fn.exprs[s.index] }), this.pass.constant(k, this.pass.fn.exprs[s.index].type as ScalarType, p.span)], type: T.bool, loc: null });
        r = this.aggregates.selectVals(cond, t.fields[k].v, r, p.span, `the elements of '${p.text.replace(/\[\u2026\]$/, "")}'`);
      }
      v = r ?? this.pass.unknown;
    }
    return v;
  }

  /** Assign a value to a place: its type joins into the variable's (into every element a dynamic step may pick), its leaves are set. */
  private writePlace(p: Place, val: Val, span: Span): void {
    if (val.k === "agg" && !this.aggregates.mayHold(p.v, val, span)) return;
    // A dynamic step writes the value into each element it may pick: kept for several uses.
    const dynamic = p.steps.some((s) => s.k === "dyn");
    const kept = dynamic ? this.aggregates.keepVal(val, span) : val;
    const what = `'${p.text}'`;
    const update = (t: Type, k: number): Type | null => {
      if (k === p.steps.length) return this.aggregates.joinValue(t, val, span, what);
      if (t.kind !== "agg") return null;
      const s = p.steps[k];
      const fields: { name: string; type: Type }[] = [];
      for (const f of t.fields) {
        const hit = s.k === "dyn" || f.name === s.name;
        const nt = hit ? update(f.type, k + 1) : f.type;
        if (!nt) return null;
        fields.push({ name: f.name, type: nt });
      }
      return T.agg(t.tuple, fields);
    };
    const nt = update(this.pass.newVarTypes[p.v], 0);
    if (!nt) return;
    this.pass.newVarTypes[p.v] = nt;
    const leaves = this.leavesOf(p.v);
    if (!leaves) return;
    // Down the steps to the leaves written; a dynamic step writes each element where the index picks it.
    const write = (t: Type, ls: Leaves, k: number, guard: (() => ExprHandle) | null): void => {
      if (k === p.steps.length) { this.aggregates.writeLeaves(t, ls, dynamic ? this.aggregates.copyDeep(kept) : kept, span, guard); return; }
      if (t.kind !== "agg") return;
      const s = p.steps[k];
      t.fields.forEach((f, i) => {
        if (s.k === "field") { if (f.name === s.name) write(f.type, (ls as Leaves[])[i], k + 1, guard); return; }
        const here = () => this.pass.add({ k: "op", op: "eq", args: [this.pass.add({ ...this.pass.fn.exprs[s.index] }), this.pass.constant(i, this.pass.fn.exprs[s.index].type as ScalarType, span)], type: T.bool, loc: null });
        write(f.type, (ls as Leaves[])[i], k + 1, guard ? () => this.pass.add({ k: "op", op: "land", args: [guard(), here()], type: T.bool, loc: null }) : here);
      });
    };
    write(this.varType(p.v), leaves, 0, null);
  }

  /** `x++`, `--x`, …: `x += 1` or `x -= 1`, whose value, postfix and used, is the old one. */
  update(e: Extract<UExpr, { k: "update" }>, used: boolean): Val {
    const one: UExpr = { k: "num", value: 1, isFloat: false, span: e.span };
    const op = e.op === "++" ? "+=" : "-=";
    if (!used || e.prefix) return this.assign({ k: "assign", op, target: e.target, value: one, span: e.span }, used);
    // `a[i].x++` of an array of objects: the field's array's element.
    const st = e.target;
    const deep = this.deepStructStore(st);
    if (deep) return deep;
    if (st.k === "field" && st.object.k === "index" && st.object.array.k === "var" && this.pass.structVars.has(st.object.array.v)) {
      const a = this.readVar(st.object.array.v, st.object.array.span) as Extract<Val, { k: "structs" }>;
      return this.updateElementOf(this.arrays.structField(a, st.name, st.span), this.arrays.index(st.object.index), e);
    }
    if (this.isPlace(e.target)) {
      // `p.x++` used as a value: the old value, read before the update (a dynamic index evaluated once).
      const place = this.place(e.target);
      if (!place) return this.pass.unknown;
      const old = this.readPlace(place);
      const ot = old.k === "expr" && old.t.kind === "scalar" ? old.t : null;
      if (!ot) { if (old.k !== "expr") this.values.scalarType(old, e.span); return this.pass.unknown; }
      const t = this.pass.temp(ot === T.bool ? T.i32 : ot);
      this.pass.emit({ k: "set", local: t, value: this.values.convert(old, this.pass.fn.locals[t].type as ScalarType, e.span), loc: this.pass.loc(e.span) });
      this.writePlace(place, this.values.arith(e.op === "++" ? "+" : "-", { k: "expr", h: this.pass.read(t), t: this.pass.fn.locals[t].type }, { k: "weak", value: 1, isFloat: false }, e.span), e.span);
      return { k: "expr", h: this.pass.read(t), t: this.pass.fn.locals[t].type };
    }
    // Postfix with its value used: the old value, read before the update.
    if (e.target.k === "index") return this.updateElement(e);
    const old = this.pass.lower.expr(e.target);
    if (old.k !== "expr" || old.t.kind !== "scalar") { this.assign({ k: "assign", op, target: e.target, value: one, span: e.span }, false); return old; }
    const t = this.pass.temp(old.t === T.bool ? T.i32 : old.t);
    this.pass.emit({ k: "set", local: t, value: this.values.convert(old, this.pass.fn.locals[t].type as ScalarType, e.span), loc: this.pass.loc(e.span) });
    this.assign({ k: "assign", op, target: e.target, value: one, span: e.span }, false);
    return { k: "expr", h: this.pass.read(t), t: this.pass.fn.locals[t].type };
  }

  /** `a[i]++` used as a value: the array and index are evaluated once; the value is the old element. */
  private updateElement(e: Extract<UExpr, { k: "update" }>): Val {
    const target = e.target as Extract<UExpr, { k: "index" }>;
    return this.updateElementOf(this.arrays.arrayOperand(target.array), this.arrays.index(target.index), e);
  }

  /**
   * A shared or private array of objects (`shared(Array, n)`, `new Array(n)`) takes the shape of
   * the objects stored into it, their fields' types joined over every store (as a variable's type
   * joins over its assignments); a parameter's is its argument's and never changes here.
   */
  private learnStructs(v: number, value: Val, span: Span): void {
    if (this.pass.ufn.vars[v].kind === "param") return;
    if (value.k === "expr" && value.t.kind === "unknown") return;
    const vt = this.values.typeOf(value);
    if (vt.kind !== "agg" || vt.tuple || vt.fields.some((f) => f.type.kind !== "scalar" || f.type === T.bool)) {
      this.pass.err("type", `'${this.pass.ufn.vars[v].name}' holds objects whose fields are numbers; this is ${holds(vt)}`, span);
      return;
    }
    const cur = this.pass.newVarTypes[v];
    const joined = this.aggregates.joinValue(cur.kind === "structs" ? cur.of : T.unknown, value, span, `an element of '${this.pass.ufn.vars[v].name}'`);
    if (joined && joined.kind === "agg") this.pass.newVarTypes[v] = T.structs(joined);
  }

  /** `a[i]++` used as a value, on an array operand and its index (null: already reported). */
  private updateElementOf(arr: ArrayOperand | null, idx: ExprHandle | null, e: Extract<UExpr, { k: "update" }>): Val {
    const target = e.target;
    if (!arr || idx === null) return this.pass.unknown;
    if (arr.t.space === "constant") return this.pass.error("invalid-assignment", "cannot write to a constant table captured from scope", target.span);
    if (arr.row && arr.row.indices.length + 1 < arr.row.shape.dims.length) return this.pass.error("invalid-assignment", `cannot assign to a row of ${arrayWhat(arr.row.shape)}: index it to an element`, target.span);
    const elem = T.scalar(elemScalar(arr.t.elem));
    const c = this.arrays.access(arr, idx, e.span, 2);
    const old = this.pass.temp(elem === T.bool ? T.i32 : elem);
    this.pass.emit({ k: "set", local: old, value: (this.arrays.load(arr, c.array(), c.index(), e.span) as { h: ExprHandle }).h, loc: this.pass.loc(e.span) });
    const next = this.values.arith(e.op === "++" ? "+" : "-", { k: "expr", h: this.pass.read(old), t: elem }, { k: "weak", value: 1, isFloat: false }, e.span);
    this.arrays.store(arr, c.array, c.index, this.arrays.elementValue(next, arr.t.elem, e.span), e.span);
    return { k: "expr", h: this.pass.read(old), t: elem };
  }
}
