// One pass of abstract interpretation over a method instance: walks the untyped IR with the
// current variable types, builds typed IR, and records the types each variable and `return` is
// given. infer.ts repeats the pass until those types stop changing (a fixed point), then keeps
// the last pass's IR and diagnostics. The builder holds the pass's state (pass.ts), which it
// shares with its parts: values (values.ts), object and tuple values (aggregates.ts),
// array accesses and views (arrays.ts) and array declarations (array-declarations.ts).

import type { CompileErrorKind } from "../errors.js";
import type { Span } from "../frontend/source.js";
import type { UExpr, UFunction, UStmt, UTable } from "../frontend/uir.js";
import type { AtomicOp, Builtin, ExprHandle, Function, FunctionHandle, LocalHandle, PrintFormat, Stmt, SubgroupOp, SwitchCase } from "../ir/module.js";
import { completesBlock } from "../ir/validate.js";
import { T, elemScalar, isAgg, isArray, isFloat, isInt, isNarrow, joinScalar, parseTypeName, typeName, wrapValue, type AggType, type Elem, type Scalar, type ScalarType, type Type } from "../ir/types.js";
import type { OpName } from "../ir/ops.js";
import { shapeText, type AggVal, type MethodBuilder, type Val } from "./methods.js";
import { Pass, type FrameSite, type InferError, type JSFunction, type Leaves, type Lowering, type ModuleContext } from "./pass.js";
import { Values, aggText } from "./values.js";
import { Aggregates, flatLeaves, holds } from "./aggregates.js";
import { Arrays, once, type ArrayOperand } from "./arrays.js";
import { ArrayDeclarations } from "./array-declarations.js";
import { inlineCall } from "../ir/passes/inline.js";
import type { ArgType } from "./overlays.js";

interface PassResult {
  fn: Function;
  varTypes: Type[];
  returnType: Type;
  errors: InferError[];
  /** An aggregate return value's leaf locals (see ModuleContext.aggregateReturn), and whether it is always a new object. */
  returnLeaves: LocalHandle[] | null;
  returnsFresh: boolean;
  /** Reads of variables and calls whose type is still unknown: errors if they remain at the fixed point. */
  unknownReads: { v: number; span: Span }[];
  unknownCalls: { name: string; span: Span }[];
}

const STATE_TYPE = T.array("i32", "global");

/** An assignable part of an aggregate variable: `p.x`, `t[1]`, `t[i].y` (a dynamic step: an index kept stable, checked). */
interface Place { v: number; steps: ({ k: "field"; name: string } | { k: "dyn"; index: ExprHandle })[]; text: string; span: Span }

export class FunctionBuilder implements MethodBuilder, Lowering {
  private readonly pass: Pass;
  private readonly values: Values;
  private readonly aggregates: Aggregates;
  private readonly arrays: Arrays;
  private readonly declarations: ArrayDeclarations;
  readonly unknown: Val;
  private newReturn: Type;
  private sawValueReturn = false;
  private sawVoidReturn = false;
  private sawPendingReturn = false;
  /** The leaf locals an aggregate return value is passed through. */
  private returnLeaves: Leaves | null = null;
  private returnsFresh = true;

  constructor(ufn: UFunction, argTypes: Type[], varTypes: Type[], returnType: Type, kind: "kernel" | "helper" | "runtime", ctx: ModuleContext, frames: FrameSite[]) {
    const pass = (this.pass = new Pass(ufn, kind, argTypes, varTypes, returnType, ctx, frames));
    this.unknown = pass.unknown;
    const values = (this.values = new Values(pass, this));
    this.aggregates = new Aggregates(pass, values);
    const arrays = (this.arrays = new Arrays(pass, values));
    this.declarations = new ArrayDeclarations(pass, arrays);
    // The parts lower the expressions they hold through the builder (expressions are its own).
    pass.lower = this;
    this.newReturn = returnType.kind === "scalar" || returnType.kind === "agg" ? returnType : T.unknown;
  }

  build(): PassResult {
    const u = this.pass.ufn;
    const names: string[] = [];
    u.params.forEach((p, i) => {
      const t = this.pass.argTypes[i];
      const name = u.vars[p].name;
      if (t.kind === "array" && t.view) {
        // A view arrives as its base array, an offset and a length.
        const base = this.pass.newLocal(name, T.array(t.elem, t.space, t.size)), offset = this.pass.newLocal(`${name}_offset`, T.i32), length = this.pass.newLocal(`${name}_length`, T.i32);
        this.pass.fn.params.push(base, offset, length);
        names.push(name, `${name}_offset`, `${name}_length`);
        this.pass.viewAliases.set(p, { k: "view", base: this.pass.read(base), t: T.array(t.elem, t.space, t.size), offset: this.pass.read(offset), length: this.pass.read(length), name });
        return;
      }
      if (t.kind === "agg") {
        // An object value arrives as its leaves, one parameter each.
        const leaves = this.aggregates.makeLeaves(t, name);
        for (const l of flatLeaves(leaves)) { this.pass.fn.params.push(l); names.push(this.pass.fn.locals[l].name); }
        this.pass.aggLeaves.set(p, leaves);
        return;
      }
      // A multi-dimensional shared array arrives as its flat array; the parameter keeps the shape.
      const param = this.pass.newLocal(name, t.kind === "array" && t.dims ? T.array(t.elem, t.space, t.size) : t);
      if (t.kind === "array" && t.dims) this.arrays.setParamShape(param, { name, dims: t.dims });
      this.pass.fn.params.push(param);
      names.push(name);
      this.pass.localOf[p] = param;
    });
    this.pass.fn.paramNames = names;
    if (this.pass.kind === "kernel" || (this.pass.kind === "helper" && this.pass.ctx.usesState(u))) this.pass.fn.stateParam = this.pass.newLocal("$state", STATE_TYPE);
    u.vars.forEach((v, i) => {
      if (v.kind === "param") {
        const t = this.pass.varTypes[i];
        const argT = this.pass.argTypes[u.params.indexOf(i)];
        if (t !== argT && isAgg(t) && isAgg(argT)) {
          // An object parameter whose fields are assigned values of wider types: copied to leaves of those.
          const leaves = this.aggregates.makeLeaves(t, v.name);
          this.aggregates.writeLeaves(t, leaves, this.aggregates.readLeaves(argT, this.pass.aggLeaves.get(i)!, v.span), v.span);
          this.pass.aggLeaves.set(i, leaves);
          return;
        }
        // A parameter assigned values of a wider type than its argument: copy it to a local of that type.
        if (t !== this.pass.argTypes[u.params.indexOf(i)] && t.kind === "scalar") {
          const l = this.pass.newLocal(v.name, t);
          this.pass.emit({ k: "set", local: l, value: this.values.convertH(this.pass.read(this.pass.localOf[i]), t, v.span), loc: this.pass.loc(v.span) });
          this.pass.localOf[i] = l;
        }
        return;
      }
    });
    this.stmts(u.body);
    this.declarations.checkLaunchSizes();
    if (this.pass.kind !== "kernel") {
      if (this.sawValueReturn && (this.sawVoidReturn || completesBlock(this.pass.fn.body)))
        this.pass.err("type", `function '${u.name}' does not return a value on every path`, u.span);
      if (!this.sawValueReturn && !this.sawPendingReturn) this.newReturn = u.declaredReturn ? parseTypeName(u.declaredReturn) ?? T.void : T.void;
    } else this.newReturn = T.void;
    this.pass.fn.returnType = this.pass.returnType.kind === "unknown" ? this.newReturn : this.pass.returnType;
    // An aggregate is returned through leaf locals (every call inlines the function).
    if (isAgg(this.pass.fn.returnType)) this.pass.fn.returnType = T.void;
    return { fn: this.pass.fn, varTypes: this.pass.newVarTypes, returnType: this.newReturn, errors: this.pass.errors,
      returnLeaves: this.returnLeaves ? flatLeaves(this.returnLeaves) : null, returnsFresh: this.returnsFresh,
      unknownReads: this.pass.unknownReads, unknownCalls: this.pass.unknownCalls };
  }

  // ---- statements ----------------------------------------------------------------------------

  private stmts(list: UStmt[]): void {
    for (const s of list) this.stmt(s);
  }

  /**
   * An expression whose value nobody reads: `a && b` is `if (a) b`, `a || b` is `if (!a) b`,
   * `c ? a : b` is `if (c) a else b`, `(a, b)` is `a; b` — the same evaluation, without a
   * temporary for the value (minifiers write statements so: `f() === 0 && (s[1] = x, s[2] = y)`).
   */
  private discard(e: UExpr): void {
    if ((e.k === "logical" && e.op !== "??") || e.k === "cond") {
      const loc = this.pass.loc(e.span);
      const test = this.cond(e.k === "cond" ? e.c : e.a);
      const cond = e.k === "logical" && e.op === "||" ? this.pass.add({ k: "op", op: "not", args: [test], type: T.bool, loc }) : test;
      const then = this.pass.capture(() => this.discard(e.k === "cond" ? e.a : e.b));
      const els = e.k === "cond" ? this.pass.capture(() => this.discard(e.b)) : [];
      this.pass.emit({ k: "if", cond, then, else: els, loc });
      return;
    }
    if (e.k === "seq") { for (const x of e.exprs) this.discard(x); return; }
    this.expr(e, false);
  }

  private stmt(s: UStmt): void {
    const loc = this.pass.loc(s.span);
    switch (s.k) {
      case "expr":
        this.discard(s.e);
        return;
      case "decl": {
        if (!s.init) return;
        const v = this.pass.ufn.vars[s.v];
        if (s.init.k === "newArray" || s.init.k === "sharedArray") return this.declarations.declareArray(s.v, s.init, s.span);
        const val = this.expr(s.init);
        if (val.k === "view") {
          if (v.kind !== "const") { this.pass.err("invalid-assignment", `a view must be bound with const ('${v.name}')`, s.span); return; }
          this.pass.newVarTypes[s.v] = T.view(val.t);
          this.pass.viewAliases.set(s.v, val);
          return;
        }
        if (val.k === "row") {
          if (v.kind !== "const") { this.pass.err("invalid-assignment", `a row of a shared array must be bound with const ('${v.name}')`, s.span); return; }
          this.pass.newVarTypes[s.v] = val.t;
          this.pass.rowAliases.set(s.v, val);
          return;
        }
        if (val.k === "expr" && isArray(val.t)) {
          if (v.kind !== "const") { this.pass.err("invalid-assignment", `array variable '${v.name}' must be const (an alias of an array)`, s.span); return; }
          this.pass.newVarTypes[s.v] = val.t;
          this.pass.aliases.set(s.v, val.h);
          return;
        }
        this.assignVar(s.v, val, s.span);
        return;
      }
      case "if": {
        const cond = this.cond(s.c);
        const then = this.pass.capture(() => this.stmts(s.then));
        const els = this.pass.capture(() => this.stmts(s.else));
        this.pass.emit({ k: "if", cond, then, else: els, loc });
        return;
      }
      case "loop": {
        this.stmts(s.init);
        let breakIf: ExprHandle | null = null;
        const body = this.pass.capture(() => {
          if (s.test && s.testFirst) this.breakUnless(s.test);
          this.stmts(s.body);
        }, true);
        const continuing = this.pass.capture(() => {
          if (s.update) this.expr(s.update, false);
          if (s.test && !s.testFirst) {
            const c = this.cond(s.test);
            breakIf = this.pass.add({ k: "op", op: "not", args: [c], type: T.bool, loc: this.pass.loc(s.test.span) });
          }
        }, true);
        this.pass.emit({ k: "loop", body, continuing, breakIf, loc });
        return;
      }
      case "break": this.pass.emit({ k: "break", loc }); return;
      case "continue": this.pass.emit({ k: "continue", loc }); return;
      case "return":
        if (s.implicit && this.pass.kind === "kernel" && s.e) { this.expr(s.e, false); return; }
        return this.ret(s.e, s.span);
      case "block": this.stmts(s.body); return;
      case "throw": this.pass.raise("throw", null, this.pass.ctx.message(s.message), s.span, null, null); return;
      case "switch": return this.switchStmt(s);
    }
  }

  private breakUnless(test: UExpr): void {
    const c = this.cond(test);
    const notC = this.pass.add({ k: "op", op: "not", args: [c], type: T.bool, loc: this.pass.loc(test.span) });
    this.pass.emit({ k: "if", cond: notC, then: [{ k: "break", loc: this.pass.loc(test.span) }], else: [], loc: this.pass.loc(test.span) });
  }

  private ret(e: UExpr | null, span: Span): void {
    const loc = this.pass.loc(span);
    if (this.pass.kind === "kernel") {
      if (e) this.pass.err("type", "a kernel cannot return a value", e.span, "write results into an array argument");
      this.pass.emit({ k: "return", value: null, loc });
      return;
    }
    if (!e) {
      this.sawVoidReturn = true;
      this.pass.emit({ k: "return", value: null, loc });
      return;
    }
    const v = this.expr(e);
    if (v.k === "agg") return this.retAggregate(v, e, span);
    if (isAgg(this.newReturn)) { this.pass.err("type", `function '${this.pass.ufn.name}' returns ${aggText(this.newReturn)} elsewhere; it cannot also return ${holds(this.values.typeOf(v))}`, e.span); this.pass.emit({ k: "return", value: null, loc }); return; }
    if (v.k === "expr" && isArray(v.t)) { this.pass.err("type", "functions cannot return arrays in kernels", e.span); return; }
    if (v.k === "expr" && v.t.kind === "unknown") {
      // Not known yet (a recursive call still being inferred): the fixed point settles it.
      this.sawPendingReturn = true;
      this.pass.emit({ k: "return", value: null, loc });
      return;
    }
    const vt = this.values.scalarType(v, e.span);
    if (!vt) { this.pass.emit({ k: "return", value: null, loc }); return; }
    this.sawValueReturn = true;
    const declared = this.pass.ufn.declaredReturn ? parseTypeName(this.pass.ufn.declaredReturn) : null;
    if (declared) this.newReturn = declared;
    else {
      const prev = this.newReturn;
      const t = v.k === "weak" && prev.kind === "scalar" ? this.values.adapt(v, prev) : vt;
      this.newReturn = prev.kind === "scalar" ? joinScalar(prev, t) : t;
    }
    const rt = this.pass.returnType.kind === "scalar" ? this.pass.returnType : vt;
    this.pass.emit({ k: "return", value: this.values.convert(v, rt, e.span), loc });
  }

  /**
   * `return { sum, carry }`: the value goes to the function's result leaves and the IR function
   * returns nothing; each call inlines the function and reads the leaves (IR functions return one
   * scalar).
   */
  private retAggregate(v: AggVal, e: UExpr, span: Span): void {
    const loc = this.pass.loc(span);
    // `return m` of a variable whose fields are assigned hands its object over (the variable ends here).
    const whole = e.k === "var" && v.root === e.v;
    if (this.aggregates.sharesChanged(v) && !whole) { this.aggregates.shared(v, "be returned inside another value", e.span); this.pass.emit({ k: "return", value: null, loc }); return; }
    if (!whole && !this.aggregates.allFresh(v)) this.returnsFresh = false;
    this.sawValueReturn = true;
    const t = this.aggregates.joinValue(this.newReturn, v, e.span, `the return value of '${this.pass.ufn.name}'`);
    if (t) this.newReturn = t;
    const rt = this.pass.returnType;
    if (t && isAgg(rt) && rt === t) {
      this.returnLeaves ??= this.aggregates.makeLeaves(rt, `${this.pass.ufn.name}.result`);
      this.aggregates.writeLeaves(rt, this.returnLeaves, v, e.span);
    }
    this.pass.emit({ k: "return", value: null, loc });
  }

  private switchStmt(s: Extract<UStmt, { k: "switch" }>): void {
    const sel = this.expr(s.selector);
    const st = this.values.scalarType(sel, s.selector.span);
    if (st && !isInt(st)) this.pass.err("type", `switch needs an integer selector, got ${typeName(st)}`, s.selector.span);
    const selT = st && isInt(st) ? st : T.i32;
    const selector = this.values.convert(sel, selT, s.selector.span);
    const cases: SwitchCase[] = [];
    let pending: number[] = [];
    let pendingDefault = false;
    const seen = new Set<number>();
    s.cases.forEach((c, i) => {
      if (c.test) {
        const tv = this.expr(c.test);
        if (tv.k !== "weak" || !Number.isInteger(tv.value)) this.pass.err("type", "switch case labels must be integer constants", c.test.span);
        else if (seen.has(tv.value)) this.pass.err("type", `duplicate case label ${tv.value}`, c.test.span);
        else { seen.add(tv.value); pending.push(wrapValue(selT.scalar, tv.value) as number); }
      } else pendingDefault = true;
      if (c.body.length === 0 && i < s.cases.length - 1) return; // case 1: case 2: … share the next body
      this.pass.switchDepth++;
      const body = this.pass.capture(() => this.stmts(c.body));
      this.pass.switchDepth--;
      cases.push({ values: pending, isDefault: pendingDefault, body, fallthrough: i < s.cases.length - 1 && completesBlock(body) });
      pending = [];
      pendingDefault = false;
    });
    this.pass.emit({ k: "switch", selector, cases, loc: this.pass.loc(s.span) });
  }

  // ---- assignment ----------------------------------------------------------------------------

  private varType(v: number): Type {
    const d = this.pass.ufn.vars[v].declared;
    return d ? parseTypeName(d) ?? T.unknown : this.pass.varTypes[v];
  }

  /** Assign to a variable: widens its inferred type, converts to its current type. */
  private assignVar(v: number, val: Val, span: Span): void {
    const uv = this.pass.ufn.vars[v];
    if (val.k === "agg" || isAgg(this.pass.newVarTypes[v])) return this.assignAggregate(v, val, span);
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

  /** The leaf locals of a variable holding an aggregate (its type of the previous pass), or null before that is known. */
  private leavesOf(v: number): Leaves | null {
    const t = this.varType(v);
    if (!isAgg(t)) return null;
    let l = this.pass.aggLeaves.get(v);
    if (!l) { l = this.aggregates.makeLeaves(t, this.pass.ufn.vars[v].name); this.pass.aggLeaves.set(v, l); }
    return l;
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

  private readVar(v: number, span: Span): Val {
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
    const t = this.varType(v);
    if (t.kind === "unknown") { this.pass.unknownReads.push({ v, span }); return this.pass.unknown; }
    if (isAgg(t)) {
      const val = this.aggregates.readLeaves(t, this.leavesOf(v)!, span) as AggVal;
      return this.aggregates.fromVariable(v, val);
    }
    // An array parameter has its argument's type (a declared Int32Array accepts any i32 array).
    if (t.kind === "array" && this.pass.localOf[v] !== undefined) {
      const l = this.pass.localOf[v];
      return { k: "expr", h: this.pass.read(l, span), t: this.pass.fn.locals[l].type };
    }
    if (t.kind !== "scalar") return this.pass.error("type", `'${this.pass.ufn.vars[v].name}' is not a value`, span);
    const l = this.localFor(v);
    return { k: "expr", h: this.pass.read(l, span), t: this.pass.fn.locals[l].type };
  }

  // ---- expressions ---------------------------------------------------------------------------

  /** Lower an expression; `used` is false in statement position (the value is discarded). */
  expr(e: UExpr, used = true): Val {
    const span = e.span;
    switch (e.k) {
      case "num": return { k: "weak", value: e.value, isFloat: e.isFloat };
      case "bool": return { k: "expr", h: this.pass.constant(e.value, T.bool, span), t: T.bool };
      case "str": return { k: "str", value: e.value };
      case "var": return this.readVar(e.v, span);
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
      case "index": {
        const base = this.expr(e.array);
        if (base.k === "agg") return this.element(base, e, span);
        const a = this.arrays.operandOf(base, e.array.span);
        const i = this.arrays.index(e.index);
        if (!a || i === null) return this.pass.unknown;
        if (a.row && a.row.indices.length + 1 < a.row.shape.dims.length)
          return { k: "row", array: a.h, t: a.t, shape: a.row.shape, indices: [...a.row.indices, this.values.stable(i, e.index.span)] };
        const t = T.scalar(elemScalar(a.t.elem));
        const c = this.arrays.access(a, i, span);
        return { k: "expr", h: this.pass.add({ k: "load", array: c.array(), index: c.index(), type: t, loc: this.pass.loc(span) }), t };
      }
      case "subarray": return this.arrays.subarray(e, span);
      case "unary": return this.unary(e.op, this.expr(e.a), span);
      case "binary": return this.binary(e, span);
      case "logical": return this.logical(e, span);
      case "cond": return this.conditional(e, span);
      case "call": return this.call(e, used);
      case "assign": return this.assign(e, used);
      case "update": return this.update(e, used);
      case "newArray": case "sharedArray":
        return this.pass.error("unsupported-syntax", `${e.k === "newArray" ? "private" : "shared"} arrays must be declared with const, e.g. \`const a = ${e.k === "newArray" ? "new Float32Array(8)" : "shared(Float32Array, 256)"}\``, span);
      case "seq": {
        let last: Val = this.pass.unknown;
        e.exprs.forEach((x, i) => { last = this.expr(x, used && i === e.exprs.length - 1); });
        return last;
      }
    }
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
  private field(e: Extract<UExpr, { k: "field" }>, span: Span): Val {
    const o = this.expr(e.object);
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
    // The last element, then each earlier one where the index selects it.
    let v: Val | null = this.aggregates.partOf(t, "*", t.fields[t.fields.length - 1].v);
    for (let k = t.fields.length - 2; k >= 0 && v; k--) {
      const cond = () => this.pass.add({ k: "op", op: "eq", args: [this.pass.add({ ...this.pass.fn.exprs[idx] }), this.pass.constant(k, this.pass.fn.exprs[idx].type as ScalarType, span)], type: T.bool, loc: null });
      v = this.aggregates.selectVals(cond, this.aggregates.partOf(t, "*", t.fields[k].v), v, span, `the elements of ${name ? `'${name}'` : "a tuple"} indexed by a variable`);
    }
    return v ?? this.pass.unknown;
  }

  /** An expression in a condition (if, loops, ?:, !, && and || operands): a bool. */
  private cond(e: UExpr): ExprHandle {
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

  /** `a && b`, `a || b`, `a ?? b` as values: JS returns one of the operands. */
  private logical(e: Extract<UExpr, { k: "logical" }>, span: Span): Val {
    if (e.op === "??") {
      // Kernel values are never null or undefined: `a ?? b` is `a` (b is still checked).
      const a = this.expr(e.a);
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
    pre.push({ k: "set", local: tmp, value: this.values.convert(b, t, span), loc: this.pass.loc(e.b.span) });
    this.pass.emit({ k: "if", cond: test, then: pre, else: [], loc: this.pass.loc(span) });
    return { k: "expr", h: this.pass.read(tmp), t };
  }

  private conditional(e: Extract<UExpr, { k: "cond" }>, span: Span): Val {
    const c = this.cond(e.c);
    const [preA, a] = this.pass.captureVal(() => this.expr(e.a));
    const [preB, b] = this.pass.captureVal(() => this.expr(e.b));
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

  private assign(e: Extract<UExpr, { k: "assign" }>, used: boolean): Val {
    const span = e.span;
    const binop = e.op === "=" ? null : e.op.slice(0, -1);
    if (this.isPlace(e.target)) {
      const place = this.place(e.target);
      if (!place) { this.expr(e.value); return this.pass.unknown; }
      let value: Val;
      if (binop) {
        const cur = this.readPlace(place);
        value = this.values.arith(binop, cur, this.operandAfter(cur, e.value), span);
      } else value = this.expr(e.value);
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
        value = this.values.arith(binop, cur, this.operandAfter(cur, e.value), span);
      } else value = this.expr(e.value);
      this.assignVar(v, value, span);
      return used ? this.readVar(v, span) : this.pass.unknown;
    }
    if (e.target.k === "index") {
      const arr = this.arrays.arrayOperand(e.target.array);
      const idx = this.arrays.index(e.target.index);
      if (!arr || idx === null) { this.expr(e.value); return this.pass.unknown; }
      if (arr.t.space === "constant") return this.pass.error("invalid-assignment", "cannot write to a constant table captured from scope", e.target.span);
      if (arr.row && arr.row.indices.length + 1 < arr.row.shape.dims.length) return this.pass.error("invalid-assignment", `cannot assign to a row of shared array '${arr.row.shape.name}': index it to an element`, e.target.span);
      const elem = T.scalar(elemScalar(arr.t.elem));
      let value: Val;
      let target: { array: () => ExprHandle; index: () => ExprHandle };
      if (binop) {
        // a[i] op= v: the load's check covers the store (same array, same index).
        target = this.arrays.access(arr, idx, span, 2);
        const cur: Val = { k: "expr", h: this.pass.add({ k: "load", array: target.array(), index: target.index(), type: elem, loc: this.pass.loc(span) }), t: elem };
        value = this.values.arith(binop, cur, this.operandAfter(cur, e.value), span);
      } else {
        // JS evaluates the target, then the value, then stores: the index is kept (spilled if the
        // right side could change it) and checked just before the store.
        const iv: Val = { k: "expr", h: idx, t: this.pass.fn.exprs[idx].type };
        value = this.operandAfterAll([iv], e.value);
        const arrH = arr.h, idxH = (iv as { h: ExprHandle }).h;
        target = { array: once(arrH), index: once(idxH) };
      }
      if (value.k === "expr" && value.t.kind === "unknown") return this.pass.unknown;
      if (!this.values.scalarType(value, e.value.span)) return this.pass.unknown;
      const h = this.arrays.storeValue(value, arr.t.elem, span, used);
      if (!binop) target = this.arrays.access({ ...arr, h: target.array() }, target.index(), span);
      this.pass.emit({ k: "store", array: target.array(), index: target.index(), value: h.store, loc: this.pass.loc(span) });
      return h.result;
    }
    return this.pass.unknown;
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
      if (uv.kind === "param")
        { this.pass.err("invalid-assignment", `cannot assign to a field of parameter '${uv.name}': in JavaScript that would change the caller's object, and gpuc passes object values by copy`, x.span, `copy it first, e.g. \`const q = { ...${uv.name} }\``); return null; }
      return { v: x.v, steps: [], text: uv.name, span: x.span };
    }
    if (x.k !== "field" && x.k !== "index") { this.pass.err("invalid-assignment", "only variables, array elements and the fields of object values can be assigned", x.span); return null; }
    const base = this.place(x.k === "field" ? x.object : x.array);
    if (!base) { if (x.k === "index") this.expr(x.index); return null; }
    const t = this.placeType(base);
    if (!t) return null;
    if (x.k === "field") {
      if (t.kind !== "agg" || t.tuple) { this.pass.err("type", `'${base.text}' holds ${holds(t)}; it has no field '${x.name}'`, x.span); return null; }
      if (!t.fields.some((f) => f.name === x.name))
        { this.pass.err("type", `cannot add field '${x.name}' to '${base.text}' (${aggText(t)}): an object value keeps the fields it was created with`, x.span); return null; }
      return { ...base, steps: [...base.steps, { k: "field", name: x.name }], text: `${base.text}.${x.name}`, span: x.span };
    }
    if (t.kind !== "agg" || !t.tuple) { this.expr(x.index); this.pass.err("type", `'${base.text}' holds ${holds(t)}; it cannot be indexed`, x.span); return null; }
    const iv = this.expr(x.index);
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
  private placeType(p: Place, from: Type = this.pass.newVarTypes[p.v]): Type | null {
    let t: Type = from;
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
        r = this.aggregates.selectVals(cond, t.fields[k].v, r, p.span, `the elements of '${p.text.replace(/\[…\]$/, "")}'`);
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

  private update(e: Extract<UExpr, { k: "update" }>, used: boolean): Val {
    const one: UExpr = { k: "num", value: 1, isFloat: false, span: e.span };
    const op = e.op === "++" ? "+=" : "-=";
    if (!used || e.prefix) return this.assign({ k: "assign", op, target: e.target, value: one, span: e.span }, used);
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
    const old = this.expr(e.target);
    if (old.k !== "expr" || old.t.kind !== "scalar") { this.assign({ k: "assign", op, target: e.target, value: one, span: e.span }, false); return old; }
    const t = this.pass.temp(old.t === T.bool ? T.i32 : old.t);
    this.pass.emit({ k: "set", local: t, value: this.values.convert(old, this.pass.fn.locals[t].type as ScalarType, e.span), loc: this.pass.loc(e.span) });
    this.assign({ k: "assign", op, target: e.target, value: one, span: e.span }, false);
    return { k: "expr", h: this.pass.read(t), t: this.pass.fn.locals[t].type };
  }

  /** `a[i]++` used as a value: the array and index are evaluated once; the value is the old element. */
  private updateElement(e: Extract<UExpr, { k: "update" }>): Val {
    const target = e.target as Extract<UExpr, { k: "index" }>;
    const arr = this.arrays.arrayOperand(target.array);
    const idx = this.arrays.index(target.index);
    if (!arr || idx === null) return this.pass.unknown;
    if (arr.t.space === "constant") return this.pass.error("invalid-assignment", "cannot write to a constant table captured from scope", target.span);
    if (arr.row && arr.row.indices.length + 1 < arr.row.shape.dims.length) return this.pass.error("invalid-assignment", `cannot assign to a row of shared array '${arr.row.shape.name}': index it to an element`, target.span);
    const elem = T.scalar(elemScalar(arr.t.elem));
    const c = this.arrays.access(arr, idx, e.span, 2);
    const old = this.pass.temp(elem === T.bool ? T.i32 : elem);
    this.pass.emit({ k: "set", local: old, value: this.pass.add({ k: "load", array: c.array(), index: c.index(), type: elem, loc: this.pass.loc(e.span) }), loc: this.pass.loc(e.span) });
    const next = this.values.arith(e.op === "++" ? "+" : "-", { k: "expr", h: this.pass.read(old), t: elem }, { k: "weak", value: 1, isFloat: false }, e.span);
    this.pass.emit({ k: "store", array: c.array(), index: c.index(), value: this.arrays.elementValue(next, arr.t.elem, e.span), loc: this.pass.loc(e.span) });
    return { k: "expr", h: this.pass.read(old), t: elem };
  }

  private call(e: Extract<UExpr, { k: "call" }>, used: boolean): Val {
    const span = e.span;
    const c = e.callee;
    if (c.k === "dynamic") {
      e.args.forEach((a) => this.expr(a));
      if (c.reported) return this.pass.unknown;
      return this.pass.error("dynamic-call", `unsupported dynamic function invocation (call to '${c.name}')`, e.calleeSpan,
        "kernels can call helper functions (declared in the kernel or passed in `scope`) and gpuc's intrinsics");
    }
    const args: Val[] = [];
    for (const a of e.args) args.push(args.length ? this.operandAfterAll(args, a) : this.expr(a));
    if (c.k === "intrinsic") {
      const m = this.pass.ctx.methods.method(c.name);
      if (!m) return this.pass.error("undefined-name", `'${c.name}' has no implementation for target '${this.pass.ctx.target}'`, e.calleeSpan,
        `define one with overlay("${this.pass.ctx.target}", "${c.name}", fn) or deviceFunction("${c.name}", { ${this.pass.ctx.target}: fn })`);
      this.pass.ctx.noteMethod(c.name);
      return m(this, args, span, c.name);
    }
    if (c.k === "generated") {
      const ufn = this.generate(c.gen, c.name, args, e.calleeSpan);
      return ufn ? this.callUFunction(ufn, args, e.args.map((a) => a.span), span, used) : this.pass.unknown;
    }
    return this.callUFunction(c.fn(), args, e.args.map((a) => a.span), span, used);
  }

  /** Call an overlay's kernel-language implementation like a helper. */
  callImplementation(impl: JSFunction, args: Val[], span: Span, name: string): Val {
    const ufn = this.pass.ctx.lowerImplementation(impl, name);
    return this.callUFunction(ufn, args, args.map(() => span), span, true);
  }

  /** Run a generator on the call's argument types; its errors are CompileErrors of kind generator-error. */
  private generate(gen: JSFunction, name: string, args: Val[], span: Span): UFunction | null {
    const types: ArgType[] = [];
    for (const a of args) {
      const t = this.values.typeOf(a);
      if (t.kind === "unknown") return null;
      if (a.k === "str") { this.pass.err("type", "strings cannot be passed to generated functions", span); return null; }
      if (a.k === "agg") { this.pass.err("unsupported-type", "object values cannot be passed to generated functions (their generators see scalar and array types)", span, "pass the fields"); return null; }
      types.push(argTypeOf(t));
    }
    const r = this.pass.ctx.generate(gen, name, types);
    if ("error" in r) {
      const err = r.error as Error;
      this.pass.errors.push({
        kind: "generator-error", span, cause: r.error,
        message: `the generator of '${name}' threw ${err?.name ?? "an error"} for (${types.map((t) => t.name).join(", ")}): ${err?.message ?? String(r.error)}`,
        hint: err instanceof ReferenceError ? "a binding the generator uses may not be initialized yet (temporal dead zone): define it before the first compile" : undefined,
      });
      return null;
    }
    return r.fn;
  }

  private callUFunction(callee: UFunction, args: Val[], argSpans: Span[], span: Span, used: boolean): Val {
    const argTypes: Type[] = [];
    for (let i = 0; i < args.length; i++) {
      const a = args[i];
      if (a.k === "str") return this.pass.error("type", "strings cannot be passed to helper functions", argSpans[i]);
      // A row of a multi-dimensional shared array's last dimension goes as a view.
      if (a.k === "row" && a.indices.length + 1 === a.shape.dims.length) { args[i] = this.arrays.rowToView({ h: a.array, t: a.t, row: { shape: a.shape, indices: a.indices } }, argSpans[i]); i--; continue; }
      const shape = a.k === "row" ? a.shape : a.k === "expr" ? this.arrays.shapeOf(a.h) : undefined;
      if (a.k === "row" && shape) return this.pass.error("unsupported-type", `a row of shared array '${shape.name}' that is not of its last dimension cannot be passed to a helper function; the array, or a row of its last dimension, can`, argSpans[i],
        "pass the whole array (t) or a row of the last dimension (t[z][y])");
      // A multi-dimensional shared array goes whole: the helper indexes it as the kernel does.
      if (shape && a.k === "expr" && isArray(a.t)) {
        if (shape.dims.some((d) => typeof d !== "number")) return this.pass.error("unsupported-type", `shared array '${shape.name}' has dimensions sized at launch: it cannot be passed whole to a helper function (a row of its last dimension can)`, argSpans[i]);
        argTypes.push(T.shaped(a.t, shape.dims as number[]));
        continue;
      }
      if (a.k === "expr" && a.t.kind === "unknown") return this.pass.unknown;
      // An object value specializes on its shape and field types (and goes as its leaves).
      if (a.k === "agg") {
        const t = this.values.typeOf(a);
        if (t.kind === "unknown") return this.pass.unknown;
        argTypes.push(t);
        continue;
      }
      // A parameter with a declared type takes arguments converted to it; the others specialize.
      const declared = callee.vars[callee.params[i]]?.declared;
      const dt = declared ? parseTypeName(declared) : null;
      argTypes.push(dt && dt.kind === "scalar" && !(a.k === "expr" && isArray(a.t)) ? dt : this.values.typeOf(a));
    }
    if (args.length !== callee.params.length)
      return this.pass.error("type", `'${callee.name}' takes ${callee.params.length} argument${callee.params.length === 1 ? "" : "s"}, got ${args.length}`, span);
    const frames: FrameSite[] = [{ function: this.pass.ufn.name, src: this.pass.ufn.source, at: span.start }, ...this.pass.frames];
    const inst = this.pass.ctx.instance(callee, argTypes, frames);
    if (!inst) return this.pass.unknown;
    const argH = args.flatMap((a, i) => (argTypes[i].kind === "scalar" ? [this.values.convert(a, argTypes[i] as ScalarType, argSpans[i])]
      : argTypes[i].kind === "agg" ? this.aggregates.flattenArg(a, argTypes[i], argSpans[i])
      : a.k === "view" ? [a.base, this.pass.add({ ...this.pass.fn.exprs[a.offset] }), this.pass.add({ ...this.pass.fn.exprs[a.length] })] : [(a as { h: ExprHandle }).h]));
    const rt = inst.returnType;
    if (rt.kind === "unknown") {
      // Pending (recursion in progress) is settled by the fixed point; a finished instance already reported why.
      if (inst.pending) this.pass.unknownCalls.push({ name: callee.name, span });
      return this.pass.unknown;
    }
    if (inst.usesState && this.pass.fn.stateParam === null) return this.pass.error("type", `internal: '${callee.name}' needs the kernel state but '${this.pass.ufn.name}' has none`, span);
    if (isAgg(rt)) return this.inlineAggregateCall(callee, inst, args, argH, rt, span);
    const result = rt === T.void ? null : this.pass.temp(rt);
    const frame = this.pass.ctx.options.debugLevel >= 2 ? this.pass.loc(span) ?? undefined : undefined;
    this.pass.emit({ k: "call", fn: inst.handle as never, args: argH, result, loc: this.pass.loc(span), ...(frame !== undefined ? { frame } : {}) });
    if (!result) return used ? this.pass.error("type", `'${callee.name}' does not return a value`, span) : this.pass.unknown;
    return { k: "expr", h: this.pass.read(result, span), t: rt };
  }

  /**
   * A call of a helper that returns an object value: its IR (a void function that sets its result
   * leaves) is inlined here, its result leaves becoming temporaries of this function. A recursive
   * one cannot be (it is still being inferred).
   */
  private inlineAggregateCall(callee: UFunction, inst: { handle: number; pending: boolean }, args: Val[], argH: ExprHandle[], rt: AggType, span: Span): Val {
    const agg = inst.pending ? null : this.pass.ctx.aggregateReturn(inst.handle);
    if (!agg) return this.pass.error("recursion", `'${callee.name}' returns an object value and is called recursively: a function returning an object value is inlined at each call, so it cannot recurse`, span,
      "return a number, or rewrite the recursion as a loop");
    // A helper whose result may share an argument's object must not be given one whose fields are assigned.
    if (!agg.fresh) for (const a of args) if (this.aggregates.sharesChanged(a)) { this.aggregates.shared(a as AggVal, `be passed to '${callee.name}', whose result may be that same object`, span); return this.pass.unknown; }
    const results = agg.leaves.map((l) => this.pass.newLocal(`${callee.name}.${agg.fn.locals[l].name.slice(agg.fn.name.length + 1)}`, agg.fn.locals[l].type));
    const body = inlineCall(this.pass.fn, agg.fn, { k: "call", fn: inst.handle as FunctionHandle, args: argH, result: null, loc: this.pass.loc(span) }, new Map(agg.leaves.map((l, i) => [l, results[i]])));
    for (const st of body) this.pass.emit(st);
    let k = 0;
    const nest = (t: Type): Leaves => (t.kind === "agg" ? t.fields.map((f) => nest(f.type)) : results[k++]);
    return this.aggregates.markFresh(this.aggregates.readLeaves(rt, nest(rt), span), agg.fresh);
  }

  barrier(span: Span): Val {
    if (this.pass.switchDepth > 0) return this.pass.error("unsupported-syntax", "syncthreads() inside a switch is not supported", span, "use if/else around the barrier");
    this.pass.emit({ k: "barrier", loc: this.pass.loc(span) });
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
    if (args.length !== want) return this.pass.error("type", `${name} takes ${want} argument${want > 1 ? "s" : ""}, got ${args.length}`, span);
    const vote = op === "any" || op === "all" || op === "ballot";
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

  /** An atomic read-modify-write; returns the old value. */
  atomic(op: AtomicOp, args: Val[], span: Span, name: string): Val {
    const want = op === "compareExchange" ? 4 : op === "load" ? 2 : 3;
    if (args.length !== want) return this.pass.error("type", `${name} takes ${want} arguments, got ${args.length}`, span);
    const a0 = args[0];
    // A row of a multi-dimensional shared array (`Atomics.add(t[y], x, 1)`) is an array whose last index is args[1].
    if (a0.k === "row" && a0.indices.length + 1 !== a0.shape.dims.length) return this.pass.error("type", `${name} needs a row of the last dimension of shared array '${a0.shape.name}', e.g. ${name}(${a0.shape.name}${a0.shape.dims.slice(1).map(() => "[y]").join("")}, x, …)`, span);
    const shape0 = a0.k === "expr" ? this.arrays.shapeOf(a0.h) : undefined;
    if (shape0) return this.pass.error("type", `${name} needs a row of shared array '${shape0.name}' (${shapeText(shape0.dims)}), e.g. ${name}(${shape0.name}${shape0.dims.slice(1).map(() => "[y]").join("")}, x, …)`, span);
    const operand: ArrayOperand | null = a0.k === "row" ? { h: a0.array, t: a0.t, row: { shape: a0.shape, indices: a0.indices } }
      : a0.k === "view" ? { h: a0.base, t: a0.t, view: a0 } : a0.k === "expr" && isArray(a0.t) ? { h: a0.h, t: a0.t } : null;
    if (!operand) return a0.k === "expr" && a0.t.kind === "unknown" ? this.pass.unknown : this.pass.error("type", `${name} needs an array as its first argument`, span);
    const t = operand.t;
    const floatOk = name === "atomicAdd" || op === "load" || op === "store" || op === "exchange";
    const js = name.startsWith("Atomics.");
    // JavaScript's Atomics take every integer typed array but Uint8ClampedArray (a TypeError);
    // gpuc's atomicMin/atomicMax/atomicAdd take 32-bit elements only.
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
    if (op === "compareExchange" && isNarrow(t.elem)) operands[0] = this.narrowed(operands[0], t.elem);
    const c = this.arrays.access(operand, idx, span);
    const result = this.pass.temp(elem);
    this.pass.emit({ k: "atomic", op, array: c.array(), index: c.index(), args: operands, result, loc: this.pass.loc(span) });
    return { k: "expr", h: this.pass.read(result, span), t: elem };
  }

  /** An i32 as an element of narrow type `elem` reads back after storing it (its low bits, sign- or zero-extended). */
  private narrowed(h: ExprHandle, elem: Elem): ExprHandle {
    const bits = elem === "i8" || elem === "u8" || elem === "u8c" ? 8 : 16;
    const c = (n: number) => this.pass.constant(n, T.i32, null);
    if (elem === "i8" || elem === "i16")
      return this.pass.add({ k: "op", op: "shr", args: [this.pass.add({ k: "op", op: "shl", args: [h, c(32 - bits)], type: T.i32, loc: null }), c(32 - bits)], type: T.i32, loc: null });
    return this.pass.add({ k: "op", op: "and", args: [h, c(2 ** bits - 1)], type: T.i32, loc: null });
  }

  /** console.log(…): a print record through the runtime library, formatted on the host. */
  print(args: Val[], span: Span): Val {
    const parts: PrintFormat["parts"] = [];
    const values: { h: ExprHandle; t: Scalar }[] = [];
    for (const a of args) {
      if (a.k === "str") { parts.push(a.value); continue; }
      const t = this.values.scalarType(a, span);
      if (!t) return this.pass.unknown;
      parts.push(t.scalar);
      values.push({ h: this.values.convert(a, t, span), t: t.scalar });
    }
    const words = values.reduce((n, v) => n + (v.t === "f64" ? 2 : 1), 0);
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

  // ---- what the method table's methods build through (methods.ts, MethodBuilder) -------------

  scalarType(v: Val, span: Span): ScalarType | null { return this.values.scalarType(v, span); }
  convert(v: Val, t: ScalarType, span: Span): ExprHandle { return this.values.convert(v, t, span); }
  op(op: OpName, args: ExprHandle[], t: Type, span: Span): Val { return this.values.op(op, args, t, span); }
  minMaxMixed(op: "min" | "max", a: Val, ta: ScalarType, b: Val, tb: ScalarType, span: Span): Val { return this.values.minMaxMixed(op, a, ta, b, tb, span); }
  error(kind: CompileErrorKind, message: string, span: Span, hint?: string): Val { return this.pass.error(kind, message, span, hint); }
}

function argTypeOf(t: Type): ArgType {
  if (t.kind === "array") return Object.freeze({ name: typeName(t), kind: "array", elem: t.elem, length: t.size });
  const elem = (t as ScalarType).scalar;
  return Object.freeze({ name: elem, kind: "scalar", elem, length: null });
}
