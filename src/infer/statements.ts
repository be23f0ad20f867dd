// Statements during a pass: declarations, control flow (if, loops, switch, break, continue),
// `throw`, and `return` — the return type it gives the function (joined over the returns, or
// declared), and an object value returned through the function's result leaves.

import type { Span } from "../frontend/source.js";
import type { UExpr, UStmt } from "../frontend/uir.js";
import type { Block, ExprHandle, LocalHandle, Stmt, SwitchCase } from "../ir/module.js";
import { exprOperands } from "../ir/module.js";
import { completesBlock } from "../ir/module-info.js";
import { T, isAgg, isArray, isInt, joinScalar, parseTypeName, wrapValue, type ScalarType, type Type } from "../ir/types.js";
import type { AggVal, Val } from "./methods.js";
import type { Leaves, Pass } from "./pass.js";
import { flatLeaves, holds, type Aggregates } from "./aggregates.js";
import type { ArrayDeclarations } from "./array-declarations.js";
import type { Expressions } from "./expressions.js";
import type { Places } from "./places.js";
import { aggText, type Values } from "./values.js";

export class Statements {
  /** The return type this pass finds (joined over the returns; `unknown` until one is seen). */
  private newReturn: Type;
  private sawValueReturn = false;
  private sawVoidReturn = false;
  private sawPendingReturn = false;
  /** The leaf locals an aggregate return value is passed through. */
  private returnLeaves: Leaves | null = null;
  private returnsFresh = true;

  constructor(private readonly pass: Pass, private readonly values: Values, private readonly aggregates: Aggregates,
    private readonly declarations: ArrayDeclarations, private readonly places: Places, private readonly expressions: Expressions) {
    const returnType = pass.returnType;
    this.newReturn = returnType.kind === "scalar" || returnType.kind === "agg" ? returnType : T.unknown;
  }

  stmts(list: UStmt[]): void {
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
      const test = this.expressions.cond(e.k === "cond" ? e.c : e.a);
      const cond = e.k === "logical" && e.op === "||" ? this.pass.add({ k: "op", op: "not", args: [test], type: T.bool, loc }) : test;
      const then = this.pass.capture(() => this.discard(e.k === "cond" ? e.a : e.b));
      const els = e.k === "cond" ? this.pass.capture(() => this.discard(e.b)) : [];
      this.pass.emit({ k: "if", cond, then, else: els, loc });
      return;
    }
    if (e.k === "seq") { for (const x of e.exprs) this.discard(x); return; }
    this.expressions.expr(e, false);
  }

  private stmt(s: UStmt): void {
    const loc = this.pass.loc(s.span);
    switch (s.k) {
      case "expr":
        this.discard(s.e);
        return;
      case "decl": {
        if (!s.init) return this.places.declareUnassigned(s.v, s.span);
        const v = this.pass.ufn.vars[s.v];
        if (s.init.k === "newArray" || s.init.k === "sharedArray") return this.declarations.declareArray(s.v, s.init, s.span);
        const errors = this.pass.errors.length;
        const val = this.expressions.expr(s.init);
        // An initializer that was an error (reported), or its value that cannot be assigned, leaves
        // its variable poisoned: reading it is no second error ("used before any value is
        // assigned"), which would name the symptom.
        if (this.pass.errors.length > errors) { this.pass.poisoned.add(s.v); return; }
        // `let p = a.subarray(k)` (or `let p = a`) that the body rebinds: a view whose offset and length are locals.
        if (v.kind !== "const" && this.pass.rebound.has(s.v) && (val.k === "view" || (val.k === "expr" && isArray(val.t)))) return this.declarations.declareRebindable(s.v, val, s.span);
        if (val.k === "view") {
          if (v.kind !== "const") { this.pass.err("invalid-assignment", `a view must be bound with const ('${v.name}'), or rebound to a view of its array (p = p.subarray(k))`, s.span); return; }
          this.pass.newVarTypes[s.v] = T.view(val.t);
          // `const a = p` of a view that is rebound later (p = p.subarray(1)): `a` keeps the view p
          // is now, as JavaScript's binding keeps the object — its offset and length read here.
          const now = (h: ExprHandle): ExprHandle => (this.readsRebindable(h) ? this.values.stable(h, s.span) : h);
          this.pass.viewAliases.set(s.v, { ...val, offset: now(val.offset), length: now(val.length) });
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
        this.places.assignVar(s.v, val, s.span);
        if (this.pass.errors.length > errors) { this.pass.poisoned.add(s.v); return; }
        const l = this.pass.localOf[s.v];
        if (v.kind === "const" && l !== undefined && (val.k === "weak" || val.k === "expr")) this.pass.constInits.set(l, val);
        return;
      }
      case "if": {
        const cond = this.expressions.cond(s.c);
        // A test of undefined or null decided here: only the branch that runs (expressions.ts, decidedTest).
        const decided = this.expressions.decidedTest(s.c, cond);
        if (decided !== null) return this.stmts(decided ? s.then : s.else);
        // Another constant condition: what the branch that never runs reports is dropped, and
        // where it reports something only the other branch is compiled (expressions.ts, conditional).
        const known = this.expressions.knownBool(cond);
        const branch = (list: UStmt[], dead: boolean): [Block, boolean] =>
          (dead ? this.pass.quietly(() => this.pass.capture(() => this.stmts(list))) : [this.pass.capture(() => this.stmts(list)), false]);
        const [then, deadThen] = branch(s.then, known === false);
        const [els, deadElse] = branch(s.else, known === true);
        if (deadThen || deadElse) { for (const st of deadThen ? els : then) this.pass.emit(st); return; }
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
          if (s.update) this.expressions.expr(s.update, false);
          if (s.test && !s.testFirst) {
            const c = this.expressions.cond(s.test);
            breakIf = this.pass.add({ k: "op", op: "not", args: [c], type: T.bool, loc: this.pass.loc(s.test.span) });
          }
        }, true);
        this.pass.emit({ k: "loop", body, continuing, breakIf, loc });
        return;
      }
      case "break": this.pass.emit({ k: "break", loc }); return;
      case "continue": this.pass.emit({ k: "continue", loc }); return;
      case "return":
        if (s.implicit && this.pass.kind === "kernel" && s.e) { this.expressions.expr(s.e, false); return; }
        return this.ret(s.e, s.span);
      case "block": this.stmts(s.body); return;
      case "throw": return this.throwStmt(s);
      case "switch": return this.switchStmt(s);
    }
  }

  /**
   * `throw new Error(msg)`: the exception record with the message's code. A message built from
   * values (a template literal, strings joined with +) carries up to two of them in the record's
   * payload words, formatted on the host as String() writes them (`{0}` an i32, `{0u}` a u32,
   * `{0f}` an f32's bits, `{0b}` a boolean: runtime/host.ts); its text's own braces doubled.
   */
  private throwStmt(s: Extract<UStmt, { k: "throw" }>): void {
    if (!s.template) { this.pass.raise("throw", null, this.pass.ctx.message(escapeBraces(s.message)), s.span, null, null); return; }
    const v = this.expressions.expr(s.template);
    if (v.k !== "str") { this.pass.err("type", "an Error's message is a string", s.template.span); return; }
    const quasis = v.template ? v.template.quasis : [v.value], subs = v.template ? v.template.values : [];
    if (subs.length > 2) { this.pass.err("unsupported-syntax", `a device exception's message holds at most two values, here ${subs.length}`, s.template.span, "print the others with console.log before throwing"); return; }
    const words: ExprHandle[] = [];
    let text = escapeBraces(quasis[0]);
    for (const [i, sub] of subs.entries()) {
      const t = this.values.scalarType(sub, s.template.span);
      if (!t) return;
      if (t === T.f64) { this.pass.err("unsupported-type", "an f64 in a device exception's message (the record holds 32-bit values)", s.template.span, "convert it (Math.fround(x)), or print it with console.log"); return; }
      const h = this.values.convert(sub, t, s.template.span);
      words.push(t === T.f32 ? this.pass.add({ k: "op", op: "f32bits", args: [h], type: T.i32, loc: null }) : this.values.convert({ k: "expr", h, t }, T.i32, s.template.span));
      text += `{${i}${t === T.u32 ? "u" : t === T.f32 ? "f" : t === T.bool ? "b" : ""}}` + escapeBraces(quasis[i + 1]);
    }
    this.pass.raise("throw", null, this.pass.ctx.message(text), s.span, words[0] ?? null, words[1] ?? null);
  }

  /** Whether an expression reads the offset or length of a rebindable view (which a rebinding sets again). */
  private readsRebindable(h: ExprHandle): boolean {
    const locals = new Set<number>();
    for (const r of this.pass.rebindable.values()) { locals.add(r.off); locals.add(r.len); }
    if (!locals.size) return false;
    const visit = (x: ExprHandle): boolean => {
      const e = this.pass.fn.exprs[x];
      return (e.k === "local" && locals.has(e.local)) || exprOperands(e).some(visit);
    };
    return visit(h);
  }

  private breakUnless(test: UExpr): void {
    const c = this.expressions.cond(test);
    const notC = this.pass.add({ k: "op", op: "not", args: [c], type: T.bool, loc: this.pass.loc(test.span) });
    this.pass.emit({ k: "if", cond: notC, then: [{ k: "break", loc: this.pass.loc(test.span) }], else: [], loc: this.pass.loc(test.span) });
  }

  private switchStmt(s: Extract<UStmt, { k: "switch" }>): void {
    const sel = this.expressions.expr(s.selector);
    const st = this.values.scalarType(sel, s.selector.span);
    // Each label as JavaScript evaluates it: after the selector, in order, until one matches.
    const labels = s.cases.map((c) => (c.test ? this.pass.captureVal(() => this.expressions.expr(c.test!)) : null));
    const selT = st && isInt(st) ? st : T.i32;
    // (A label the selector's type cannot hold, 2^32 - 1 for an i32, is not one: it matches nothing.)
    const values = labels.map((l) => (l && !l[0].length && l[1].k === "weak" && wrapValue(selT.scalar, l[1].value) === l[1].value ? l[1].value : null));
    // Labels other than distinct integer constants of the selector's type, or a selector other than an integer
    // (`switch (true)`): the case that matches is found by `===` in order (the first of equal
    // labels, as in JavaScript), and the IR's switch goes to it by number.
    const ints = values.filter((v) => v !== null);
    if (st && (!isInt(st) || s.cases.some((c, i) => c.test && values[i] === null) || new Set(ints).size < ints.length)) return this.switchByTests(s, sel, st, labels);
    const selector = this.values.convert(sel, selT, s.selector.span);
    this.pass.emit({ k: "switch", selector, cases: this.switchCases(s, values), loc: this.pass.loc(s.span) });
  }

  /** The cases of a switch, each with its label's value (null: none, or the default); empty cases share the next body. */
  private switchCases(s: Extract<UStmt, { k: "switch" }>, values: (number | null)[]): SwitchCase[] {
    const cases: SwitchCase[] = [];
    let pending: number[] = [];
    let pendingDefault = false;
    s.cases.forEach((c, i) => {
      if (c.test) { if (values[i] !== null) pending.push(values[i]!); } else pendingDefault = true;
      if (c.body.length === 0 && i < s.cases.length - 1) return; // case 1: case 2: … share the next body
      this.pass.switchDepth++;
      const body = this.pass.capture(() => this.stmts(c.body));
      this.pass.switchDepth--;
      cases.push({ values: pending, isDefault: pendingDefault, body, fallthrough: i < s.cases.length - 1 && completesBlock(body) });
      pending = [];
      pendingDefault = false;
    });
    return cases;
  }

  /**
   * `switch (v) { case a: …; case b: … }` with labels that are not integer constants: the number
   * of the first case whose label is `=== v` (each label evaluated only if the ones before it did
   * not match, as JavaScript does), else the default's (else -1), then the IR's switch on that
   * number, the bodies and their fallthrough as written.
   */
  private switchByTests(s: Extract<UStmt, { k: "switch" }>, sel: Val, st: ScalarType, labels: ([Block, Val] | null)[]): void {
    const span = s.span;
    const selector = this.values.reusable(this.values.convert(sel, st, s.selector.span), s.selector.span);
    const k = this.pass.temp(T.i32);
    const dflt = s.cases.findIndex((c) => !c.test);
    const tests = (i: number): Stmt[] => {
      while (i < labels.length && !labels[i]) i++;
      if (i >= labels.length) return [{ k: "set", local: k, value: this.pass.constant(dflt, T.i32, span), loc: null }];
      const [pre, label] = labels[i]!;
      const eq = this.values.arith("===", { k: "expr", h: selector(), t: st }, label, s.cases[i].test!.span);
      const cond = eq.k === "expr" ? eq.h : this.values.convert(eq, T.bool, span);
      const rest = tests(i + 1);
      return [...pre, { k: "if", cond, then: [{ k: "set", local: k, value: this.pass.constant(i, T.i32, span), loc: null }], else: rest, loc: this.pass.loc(s.cases[i].test!.span) }];
    };
    for (const x of tests(0)) this.pass.emit(x);
    const values = s.cases.map((c, i) => (c.test ? i : null));
    this.pass.emit({ k: "switch", selector: this.pass.read(k), cases: this.switchCases(s, values), loc: this.pass.loc(span) });
  }

  // ---- returns --------------------------------------------------------------------------------

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
    const v = this.expressions.expr(e);
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
    // (A parameter's object returned is the caller's — handed back, not new: calls.ts roots the result at the argument.)
    const param = whole && this.pass.ufn.params.includes(e.v);
    if (param || (!whole && !this.aggregates.allFresh(v))) this.returnsFresh = false;
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

  /**
   * After the body: a helper that returns a value must return one on every path, and one that
   * returns none returns void (or what it declares). Sets the IR function's return type: void for
   * a kernel, and for an object value (passed through result leaves; every call inlines it).
   */
  finishReturns(): { returnType: Type; returnLeaves: LocalHandle[] | null; returnsFresh: boolean } {
    const pass = this.pass, u = pass.ufn, fn = pass.fn;
    if (pass.kind !== "kernel") {
      if (this.sawValueReturn && (this.sawVoidReturn || completesBlock(fn.body)))
        pass.err("type", `function '${u.name}' does not return a value on every path`, u.span);
      if (!this.sawValueReturn && !this.sawPendingReturn) this.newReturn = u.declaredReturn ? parseTypeName(u.declaredReturn) ?? T.void : T.void;
    } else this.newReturn = T.void;
    fn.returnType = pass.returnType.kind === "unknown" ? this.newReturn : pass.returnType;
    // An aggregate is returned through leaf locals (every call inlines the function).
    if (isAgg(fn.returnType)) fn.returnType = T.void;
    return { returnType: this.newReturn, returnLeaves: this.returnLeaves ? flatLeaves(this.returnLeaves) : null, returnsFresh: this.returnsFresh };
  }
}

/** A message's own text, its braces doubled (`{0}` and its kin are the record's payload: runtime/host.ts). */
function escapeBraces(text: string): string { return text.replace(/[{}]/g, (c) => c + c); }
