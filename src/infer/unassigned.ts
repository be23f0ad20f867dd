// Definite assignment: which variables declared without a value (`let best;`) some read may find
// still unassigned — where JavaScript reads `undefined`. Inference gives those a flag saying
// whether they hold a value and starts them at what `undefined` is in arithmetic (statements.ts,
// places.ts); every other variable is assigned before each of its reads, so it needs neither.
//
// A forward walk of the untyped body in evaluation order, with the set of candidates assigned on
// every path so far (null: no path reaches here — after a return, break, continue or throw). Both
// sides of a branch meet in what both assign; a loop's body is walked once, from the state of its
// first iteration (later ones only add to it, and a declaration in the body clears its variable
// again), and the loop ends with what its test and every break leave; the right side of `&&`,
// `||`, `??` and a local function's assignments of what it captures may not run, so they assign
// nothing here. The answer can only err towards "maybe unassigned": such a variable costs a flag,
// and reads the same values.

import { walkUBody, type UExpr, type UFunction, type UStmt } from "../frontend/uir.js";

type State = Set<number> | null;

/**
 * How a read of such a variable uses what it reads: "exact" — compared (`=== undefined`, `<`),
 * tested for truth, the left of `??` and `||` (where its flag decides), or an operand of a bitwise
 * operator (ToInt32 of undefined is 0, as of the 0 or false an integer or boolean holds then);
 * "arg" — passed to a helper (which may test it for undefined: only a value that is one can be
 * passed); any other read uses it as a number.
 */
export type ReadUse = "exact" | "arg";

export interface Unassigned {
  readonly vars: ReadonlySet<number>;
  readonly uses: ReadonlyMap<UExpr, ReadUse>;
}

const cache = new WeakMap<UFunction, Unassigned>();

/** The variables of `ufn` declared without a value that a read may find unassigned, and how its reads use them. */
export function maybeUnassigned(ufn: UFunction): Unassigned {
  let found = cache.get(ufn);
  if (!found) {
    const vars = analyze(ufn);
    cache.set(ufn, (found = { vars, uses: vars.size ? readUses(ufn) : new Map() }));
  }
  return found;
}

const EXACT_OPERANDS = new Set(["==", "===", "!=", "!==", "<", "<=", ">", ">=", "&", "|", "^", "<<", ">>", ">>>"]);

function readUses(ufn: UFunction): Map<UExpr, ReadUse> {
  const uses = new Map<UExpr, ReadUse>();
  const test = (e: UExpr | null | undefined): void => { if (e?.k === "var") uses.set(e, "exact"); };
  /** A condition: the variable itself, and through `!`, `&&` and `||`. */
  const condition = (e: UExpr | null): void => {
    if (!e) return;
    if (e.k === "var") test(e);
    else if (e.k === "unary" && e.op === "!") condition(e.a);
    else if (e.k === "logical" && e.op !== "??") { condition(e.a); condition(e.b); }
  };
  walkUBody(ufn.body, (e) => {
    if (e.k === "binary" && EXACT_OPERANDS.has(e.op)) { test(e.a); test(e.b); }
    else if ((e.k === "unary" && (e.op === "!" || e.op === "~")) || e.k === "typeof") test(e.a);
    else if (e.k === "logical" && e.op !== "&&") test(e.a);
    else if (e.k === "cond") condition(e.c);
    else if (e.k === "call") { if (e.callee.k !== "intrinsic" && e.callee.k !== "dynamic") for (const a of e.args) if (a.k === "var") uses.set(a, "arg"); }
    else if (e.k === "fn") for (const a of e.env ?? []) if (a.k === "var") uses.set(a, "arg");
  }, (s) => {
    if (s.k === "if") condition(s.c);
    else if (s.k === "loop") condition(s.test);
  });
  return uses;
}

function analyze(ufn: UFunction): Set<number> {
  const candidates = new Set<number>();
  const walkDecls = (list: UStmt[]): void => {
    for (const s of list) {
      switch (s.k) {
        case "decl": if (!s.init && !ufn.params.includes(s.v)) candidates.add(s.v); break;
        case "if": walkDecls(s.then); walkDecls(s.else); break;
        case "loop": walkDecls(s.init); walkDecls(s.body); break;
        case "block": walkDecls(s.body); break;
        case "switch": for (const c of s.cases) walkDecls(c.body); break;
        default: break;
      }
    }
  };
  walkDecls(ufn.body);
  const maybe = new Set<number>();
  if (!candidates.size) return maybe;

  const meet = (a: State, b: State): State => (a === null ? b && new Set(b) : b === null ? new Set(a) : new Set([...a].filter((v) => b.has(v))));
  const copy = (s: State): State => s && new Set(s);
  /** Where `break` and `continue` go: the innermost loop or switch (continue: the innermost loop). */
  const targets: { loop: boolean; breaks: State[]; continues: State[] }[] = [];

  const read = (v: number, s: State): void => { if (s && candidates.has(v) && !s.has(v)) maybe.add(v); };
  const expr = (e: UExpr | null | undefined, s: State): State => {
    if (!e || s === null) return s;
    switch (e.k) {
      case "var": read(e.v, s); return s;
      case "assign": {
        if (e.target.k === "var") {
          if (e.op !== "=") read(e.target.v, s);
          s = expr(e.value, s);
          s?.add(e.target.v);
          return s;
        }
        return expr(e.value, expr(e.target, s));
      }
      case "update":
        s = expr(e.target, s);
        if (e.target.k === "var") s?.add(e.target.v);
        return s;
      case "logical": { const after = expr(e.a, s); expr(e.b, copy(after)); return after; }
      case "cond": { const c = expr(e.c, s); return meet(expr(e.a, copy(c)), expr(e.b, copy(c))); }
      case "field": { const after = expr(e.object, s); if (e.fallback) expr(e.fallback, copy(after)); return after; }
      case "str": for (const x of e.template?.exprs ?? []) s = expr(x, s); return s;
      case "length": return expr(e.array, s);
      case "object": for (const f of e.fields) s = expr(f.value, s); return s;
      case "tuple": for (const x of e.elems) s = expr(x.value, s); return s;
      case "index": return expr(e.index, expr(e.array, s));
      case "subarray": for (const x of [e.array, ...e.args]) s = expr(x, s); return s;
      case "unary": case "typeof": return expr(e.a, s);
      case "binary": return expr(e.b, expr(e.a, s));
      case "call": for (const x of e.args) s = expr(x, s); return s;
      case "fn": for (const x of e.env ?? []) s = expr(x, s); return s;
      case "seq": for (const x of e.exprs) s = expr(x, s); return s;
      case "stmts": return expr(e.value, stmts(e.body, s));
      case "newArray": return expr(e.size, s);
      case "bitsView": return expr(e.array, s);
      case "sharedArray": for (const x of e.dims ?? [e.size]) s = expr(x, s); return s;
      default: return s;
    }
  };
  const stmts = (list: UStmt[], s: State): State => {
    for (const st of list) s = stmt(st, s);
    return s;
  };
  const stmt = (st: UStmt, s: State): State => {
    if (s === null) return null;
    switch (st.k) {
      case "expr": return expr(st.e, s);
      case "decl":
        // (A `let` is undefined again each time its declaration runs; a `var`'s does nothing.)
        if (!st.init) { if (ufn.vars[st.v].kind !== "var") s.delete(st.v); return s; }
        s = expr(st.init, s);
        s?.add(st.v);
        return s;
      case "if": { const c = expr(st.c, s); return meet(stmts(st.then, copy(c)), stmts(st.else, copy(c))); }
      case "block": return stmts(st.body, s);
      case "return": expr(st.e, s); return null;
      case "throw": if (st.template) expr(st.template, s); return null;
      case "break": targets[targets.length - 1]?.breaks.push(copy(s)); return null;
      case "continue": { const t = [...targets].reverse().find((x) => x.loop); t?.continues.push(copy(s)); return null; }
      case "loop": {
        s = stmts(st.init, s);
        const target = { loop: true, breaks: [] as State[], continues: [] as State[] };
        targets.push(target);
        let exit: State = null;
        let first = s;
        // (A loop whose test is `true` leaves by its breaks only.)
        const always = st.test?.k === "bool" && st.test.value;
        if (st.test && st.testFirst) { first = expr(st.test, s); if (!always) exit = copy(first); }
        let end = stmts(st.body, copy(first));
        for (const c of target.continues) end = meet(end, c);
        end = expr(st.update, end);
        if (st.test && !st.testFirst) exit = expr(st.test, end);
        else if (st.test) expr(st.test, copy(end)); // the test's reads on a later iteration
        targets.pop();
        for (const b of target.breaks) exit = meet(exit, b);
        return exit;
      }
      case "switch": {
        const sel = expr(st.selector, s);
        const target = { loop: false, breaks: [] as State[], continues: [] as State[] };
        targets.push(target);
        let fall: State = null;
        for (const c of st.cases) {
          const entry = c.test ? expr(c.test, copy(sel)) : copy(sel);
          fall = stmts(c.body, meet(entry, fall));
        }
        targets.pop();
        let exit = st.cases.some((c) => !c.test) ? fall : meet(fall, sel);
        for (const b of target.breaks) exit = meet(exit, b);
        return exit;
      }
      default: return s;
    }
  };
  stmts(ufn.body, new Set());
  return maybe;
}
