// Bounds checks in counted loops, tested once for the whole loop (loop versioning). A loop
//   loop { if (!(k < N)) break; …check of a[index]…; … } continuing { k = k + 1 }
// whose checked indices are, on every iteration j = 0, 1, …, a linear function lo + j*step of the
// iteration number, becomes
//   if (k >= 0 and, for every such check, every index lo + j*step with j <= N - 1 - k is in range) {
//     the loop without those checks
//   } else { the loop as it was }
//
// Why it is sound (the rule every pass that drops or moves a check follows): a check is removed
// only from the copy that runs when the test before the loop has proven, for every iteration the
// loop can run, that the check cannot fire. When the test fails, the original loop runs, checks
// and all, so the first failure reported — which access, which index, which thread — is exactly
// the one plain JavaScript reports. The test itself has no effects and cannot fail: it reads only
// values that no iteration changes (no loads), and its divisions are guarded.
//
// What "linear in the iteration" means, and why it is exact. Values are tracked at a *point*: the
// position, in the loop body's top-level statements, of the statement being executed. With j the
// iteration number (0 at loop entry) and every value taken modulo 2^32 (i32 add, sub, mul and
// shifts by constants are ring operations there):
//  - a value that no statement of the body assigns and that loads no memory is the same on every
//    iteration (step 0);
//  - the counter k is k₀ + j (it changes only in `continuing`);
//  - an *induction variable* t — assigned exactly once in the body, by a top-level `t = t ± c` at
//    position d with c invariant, and no `continue` of this loop before d — is t₀ + j·(±c) at
//    points up to d and t₀ + (j+1)·(±c) after it: every iteration that goes on to the next one
//    passes d exactly once;
//  - a *temporary* u — assigned exactly once, by a top-level `u = e` at position d — is, at a point
//    after d, what e was at d (that iteration has just executed d). At a point at or before d it
//    holds the previous iteration's value (it is *carried*) and is not linear: the check stays.
// Every other local read in a checked index makes it non-linear, and its check stays. A walk
// through temporaries only goes to strictly earlier positions (so it ends), each temporary is
// analysed once (memo), and a linear form larger than MAX_TERMS nodes is given up.
//
// The checked copy as a scan. Where the loop has no effect but on locals and its checks (no store,
// atomic, call, barrier, subgroup operation, private array or return), and what decides its path
// and its checks — the tests of its ifs, switches and loops, the checks' conditions and operands,
// and the assignments to the locals those read, closed under what those assignments read — reads
// no memory and no float (integers and bools only), the else arm becomes a *scan*: that slice of
// the loop alone, on copies of the locals it assigns, before the one fast copy:
//   if (!(test)) { the scan: the loop's path and checks, none of its loads }
//   the loop without the hoisted checks
// Why it is sound: the statements the scan leaves out assign only locals that nothing in it reads,
// so it takes the checked loop's path exactly — the same tests of the same values, computed by the
// same integer operations, which no driver evaluates two ways (no float contraction, no memory
// another thread may change between two reads) — and meets the same checks with the same operands
// in the same order. Where the checked loop would fail, the scan fails there first, with the same
// record; the left-out statements before it assigned only locals, which end with the thread.
// Where it would not, the scan ends, assigning only its copies, and the fast copy runs that same
// path with the hoisted checks gone, none of which would fire on it (the checks not hoisted stay).
// The driver compiles the loop's loads once instead of twice (the naive matmul's: BENCHMARKS.md §m).
//
// The test: with C = N - 1 - k₀ (the iterations after the first; k₀ >= 0, so it does not wrap) and
// step >= 1: 0 <= lo < len and C <= (len - 1 - lo) / step; step <= -1: 0 <= lo < len and
// C <= lo / -step; step = 0: 0 <= lo < len. Then every lo + j·step (j <= C) lies in [0, len - 1]
// as a mathematical integer, so none of the loop's wrapping computations of it wrapped.

import type { Block, Expr, ExprHandle, Function, LocalHandle, Module, Stmt } from "../module.js";
import { assertNeverIR, childBlocks, exprOperands, rewriteBlock, stmtResult, walkStmts } from "../module.js";
import { continues, exposedReads } from "../module-info.js";
import { T, isInt } from "../types.js";
import { copyBlock, copyFrom } from "./inline.js";

export function hoistBoundsChecks(m: Module): Map<Function, ReadonlySet<Stmt>> {
  const versioned = new Map<Function, ReadonlySet<Stmt>>();
  for (const f of m.functions) {
    const tests = new Set<Stmt>();
    f.body = visitBlock(f, f.body, tests);
    if (tests.size) { entryConstants(f, f.body, tests); versioned.set(f, tests); }
  }
  return versioned;
}

/** Inner loops first: a loop is versioned with its inner loops already versioned. */
function visitBlock(f: Function, block: Block, tests: Set<Stmt>): Block {
  return rewriteBlock(block, (s) => {
    if (s.k !== "loop") return s;
    const v = version(f, s);
    if (v) tests.add(v[0]);
    return v ?? s;
  });
}

/**
 * A versioned loop's test (and a scan's copies of the locals) reads locals as they are when the
 * loop is entered; where the statements right before it in its block set them to constants (`k = 0`
 * before `for (…; k < n; k++)`), they read those constants instead, and constant folding then
 * shortens the test (k >= 0 goes, lo + 0, (n - 1) - 0 …). Sound: those sets run just before the
 * test, and nothing between them writes memory or the locals. The test's expression trees (and the
 * scan's copies') are the versioning's own (built fresh), so they are rewritten in place.
 */
function entryConstants(f: Function, block: Block, tests: ReadonlySet<Stmt>): void {
  block.forEach((s, i) => {
    if (tests.has(s) && s.k === "if") {
      const known = new Map<number, Expr>();
      for (let j = i - 1; j >= 0; j--) {
        const p = block[j];
        if (p.k !== "set") break;
        const v = f.exprs[p.value];
        if (v.k !== "const") break;
        if (!known.has(p.local)) known.set(p.local, v);
      }
      if (known.size) {
        const visit = (h: ExprHandle): void => {
          const e = f.exprs[h];
          if (e.k === "local" && known.has(e.local)) { f.exprs[h] = { ...known.get(e.local)!, loc: e.loc }; return; }
          for (const o of exprOperands(e)) visit(o);
        };
        visit(s.cond);
        // (A scan's copies of the locals start from them too: its first statements, fresh as the test.)
        for (const t of s.then) if (t.k === "set") visit(t.value);
      }
    }
    for (const b of childBlocks(s)) entryConstants(f, b, tests);
  });
}

/** A symbolic i32 value at loop entry, built into the arena only when the test is made. */
type Sym =
  | { k: "const"; value: number }
  /** A copy of a loop-invariant expression. */
  | { k: "expr"; h: ExprHandle }
  /** The value a local has when the loop is entered. */
  | { k: "entry"; local: LocalHandle }
  | { k: "add" | "sub" | "mul"; a: Sym; b: Sym };

/** value(j) ≡ base + j·step (mod 2^32) on iteration j. */
interface Linear { base: Sym; step: Sym }

/** Larger linear forms are given up (keeps the test, and the walk, small). */
const MAX_TERMS = 64;

const ZERO: Sym = { k: "const", value: 0 };
const ONE: Sym = { k: "const", value: 1 };

function size(s: Sym): number {
  return s.k === "add" || s.k === "sub" || s.k === "mul" ? 1 + size(s.a) + size(s.b) : 1;
}

function isZero(s: Sym): boolean { return s.k === "const" && s.value === 0; }

/** a op b with the constant cases simplified (i32 wrapping, as the loop computes). */
function sym(op: "add" | "sub" | "mul", a: Sym, b: Sym): Sym {
  if (a.k === "const" && b.k === "const") {
    const v = op === "add" ? (a.value + b.value) | 0 : op === "sub" ? (a.value - b.value) | 0 : Math.imul(a.value, b.value);
    return { k: "const", value: v };
  }
  if (op === "add" && isZero(a)) return b;
  if ((op === "add" || op === "sub") && isZero(b)) return a;
  if (op === "mul" && (isZero(a) || isZero(b))) return ZERO;
  if (op === "mul" && a.k === "const" && a.value === 1) return b;
  if (op === "mul" && b.k === "const" && b.value === 1) return a;
  return { k: op, a, b };
}

/** The loop versioned: its test (an `if`) first, then, for a scan, the fast copy. */
function version(f: Function, loop: Extract<Stmt, { k: "loop" }>): [Stmt, ...Stmt[]] | null {
  const E = (h: ExprHandle): Expr => f.exprs[h];
  const isLocal = (h: ExprHandle, l: number) => { const x = E(h); return x.k === "local" && x.local === l; };
  // continuing { k = k + 1 }, no break-if.
  if (loop.breakIf !== null || loop.continuing.length !== 1) return null;
  const inc = loop.continuing[0];
  if (inc.k !== "set") return null;
  const k = inc.local;
  const incValue = E(inc.value);
  if (incValue.k !== "op" || incValue.op !== "add" || incValue.type !== T.i32) return null;
  const isOne = (h: ExprHandle) => { const x = E(h); return x.k === "const" && x.value === 1; };
  if (!((isLocal(incValue.args[0], k) && isOne(incValue.args[1])) || (isOne(incValue.args[0]) && isLocal(incValue.args[1], k)))) return null;
  // body[0]: if (!(k < N)) break
  const test = loop.body[0];
  if (test?.k !== "if" || test.else.length || test.then.length !== 1 || test.then[0].k !== "break") return null;
  const not = E(test.cond);
  if (not.k !== "op" || not.op !== "not") return null;
  const lt = E(not.args[0]);
  if (lt.k !== "op" || lt.op !== "lt" || !isLocal(lt.args[0], k)) return null;
  const bound = lt.args[1];

  // How often the body assigns each local (anywhere in it), and whether it holds a barrier.
  const assigned = new Map<number, number>();
  let barrier = false;
  walkStmts(loop.body, (s) => {
    if (s.k === "set" || s.k === "init") assigned.set(s.local, (assigned.get(s.local) ?? 0) + 1);
    const r = stmtResult(s);
    if (r !== null) assigned.set(r, 2);
    // A versioned loop runs one of two copies per thread: threads meeting at a barrier or a
    // subgroup operation must all be in the same copy.
    if (s.k === "barrier" || s.k === "subgroup") barrier = true;
  });
  if (barrier || assigned.has(k)) return null;
  const invariant = (h: ExprHandle): boolean => {
    const x = E(h);
    if (x.k === "local") return x.local !== k && !assigned.has(x.local);
    if (x.k === "load") return false;
    return exprOperands(x).every(invariant);
  };
  if (!invariant(bound)) return null;

  // Locals whose only assignment is a top-level `set`: where, and with what.
  const defs = new Map<number, { at: number; value: ExprHandle }>();
  loop.body.forEach((s, at) => { if (s.k === "set" && assigned.get(s.local) === 1) defs.set(s.local, { at, value: s.value }); });
  // The first top-level position whose statement may `continue` this loop (inner loops' own
  // continues do not count).
  const firstContinue = loop.body.findIndex((s) => continues(s));
  const exprSym = (h: ExprHandle): Sym => { const x = E(h); return x.k === "const" ? { k: "const", value: x.value as number } : { k: "expr", h }; };
  /** Induction variables: `t = t ± c` (c invariant) that every iteration going on passes. */
  const steps = new Map<number, Sym>();
  for (const [t, d] of defs) {
    const x = E(d.value);
    if (x.k !== "op" || x.type !== T.i32 || (x.op !== "add" && x.op !== "sub")) continue;
    if (firstContinue >= 0 && firstContinue < d.at) continue;
    const [a, b] = x.args;
    if (isLocal(a, t) && invariant(b)) steps.set(t, x.op === "add" ? exprSym(b) : sym("sub", ZERO, exprSym(b)));
    else if (x.op === "add" && isLocal(b, t) && invariant(a)) steps.set(t, exprSym(a));
  }

  const memo = new Map<number, Linear | null>();
  /** The value of `h`, evaluated at top-level position `at`, as a linear form; null: not linear. */
  const linear = (h: ExprHandle, at: number): Linear | null => {
    const r = linearUnbounded(h, at);
    return r && size(r.base) + size(r.step) <= MAX_TERMS ? r : null;
  };
  const linearUnbounded = (h: ExprHandle, at: number): Linear | null => {
    const x = E(h);
    if (x.type !== T.i32) return null;
    if (invariant(h)) return { base: exprSym(h), step: ZERO };
    if (x.k === "local") {
      if (x.local === k) return { base: { k: "entry", local: k }, step: ONE };
      const def = defs.get(x.local);
      if (!def) return null; // assigned elsewhere in the body, or more than once
      const step = steps.get(x.local);
      // An induction variable: t₀ + j·c up to its increment, t₀ + (j + 1)·c after it.
      if (step) return { base: at <= def.at ? { k: "entry", local: x.local } : sym("add", { k: "entry", local: x.local }, step), step };
      if (def.at >= at) return null; // carried from the previous iteration
      if (!memo.has(x.local)) memo.set(x.local, linear(def.value, def.at));
      return memo.get(x.local)!;
    }
    if (x.k !== "op") return null;
    const [a, b] = x.args;
    switch (x.op) {
      case "add": case "sub": {
        const la = linear(a, at), lb = la && linear(b, at);
        return la && lb ? { base: sym(x.op, la.base, lb.base), step: sym(x.op, la.step, lb.step) } : null;
      }
      case "mul": {
        const la = linear(a, at), lb = la && linear(b, at);
        if (!la || !lb) return null;
        if (isZero(lb.step)) return { base: sym("mul", la.base, lb.base), step: sym("mul", la.step, lb.base) };
        if (isZero(la.step)) return { base: sym("mul", la.base, lb.base), step: sym("mul", la.base, lb.step) };
        return null;
      }
      case "shl": {
        // x << c ≡ x · 2^c (mod 2^32) for a constant c (counts are taken mod 32).
        const c = E(b);
        if (c.k !== "const" || typeof c.value !== "number") return null;
        const la = linear(a, at);
        const factor: Sym = { k: "const", value: (2 ** (c.value & 31)) | 0 };
        return la && { base: sym("mul", la.base, factor), step: sym("mul", la.step, factor) };
      }
      case "neg": {
        const la = linear(a, at);
        return la && { base: sym("sub", ZERO, la.base), step: sym("sub", ZERO, la.step) };
      }
      default: return null;
    }
  };

  // The checks of the body (anywhere in it) on linear indices into arrays whose length no
  // iteration changes.
  const hoisted = new Set<Stmt>();
  const ranges: { index: Linear; length: ExprHandle }[] = [];
  loop.body.forEach((top, at) => walkStmts([top], (s) => {
    if (s.k !== "check" || s.kind !== "bounds" || s.cond === null) return;
    const c = E(s.cond);
    if (c.k !== "op" || c.op !== "ge") return;
    const unwrap = (h: ExprHandle) => (E(h).k === "convert" ? (E(h) as Extract<Expr, { k: "convert" }>).arg : h);
    const idx = unwrap(c.args[0]), len = unwrap(c.args[1]);
    if (E(idx).type !== T.i32 || !invariant(len)) return;
    const index = linear(idx, at);
    if (!index) return;
    hoisted.add(s);
    ranges.push({ index, length: len });
  }));
  if (!ranges.length) return null;

  // The test, built fresh in the arena (every use its own copy: expressions are trees).
  const add = (x: unknown): ExprHandle => { f.exprs.push({ ...(x as object), loc: null } as Expr); return (f.exprs.length - 1) as ExprHandle; };
  const i32 = (v: number) => add({ k: "const", value: v, type: T.i32 });
  const copy = (h: ExprHandle) => copyFrom(f, f, h, (l) => l as LocalHandle);
  type Op = "add" | "sub" | "mul" | "div" | "eq" | "ge" | "lt" | "le" | "land" | "lor";
  const op = (o: Op, a: ExprHandle, b: ExprHandle) =>
    add({ k: "op", op: o, args: [a, b], type: o === "add" || o === "sub" || o === "mul" || o === "div" ? T.i32 : T.bool });
  const build = (s: Sym): ExprHandle => {
    switch (s.k) {
      case "const": return i32(s.value);
      case "expr": return copy(s.h);
      case "entry": return add({ k: "local", local: s.local, type: T.i32 });
      default: return op(s.k, build(s.a), build(s.b));
    }
  };
  const len = (h: ExprHandle) => (E(h).type === T.i32 ? copy(h) : add({ k: "convert", arg: copy(h), type: T.i32 }));
  const kk = () => add({ k: "local", local: k, type: T.i32 });
  const iterations = () => op("sub", op("sub", copy(bound), i32(1)), kk());
  let cond: ExprHandle = op("ge", kk(), i32(0));
  for (const { index: { base, step }, length } of ranges) {
    const lo = () => build(base);
    let ok = op("land", op("ge", lo(), i32(0)), op("lt", lo(), len(length)));
    const up = () => op("land", op("ge", build(step), i32(1)),
      op("le", iterations(), op("div", op("sub", op("sub", len(length), i32(1)), lo()), build(step))));
    const down = () => op("land", op("le", build(step), i32(-1)),
      op("le", iterations(), op("div", lo(), op("sub", i32(0), build(step)))));
    if (step.k === "const") {
      if (step.value > 0) ok = op("land", ok, up());
      else if (step.value < 0) ok = op("land", ok, down());
    } else {
      ok = op("land", ok, op("lor", op("eq", build(step), i32(0)), op("lor", up(), down())));
    }
    cond = op("land", cond, ok);
  }
  const strip = (b: Block): Block => rewriteBlock(b, (s) => (hoisted.has(s) ? [] : s));
  const scan = scanOf(f, loop);
  if (scan) {
    // The fast copy is the loop itself (its inner loops' tests stay where foldDecidedTests finds them).
    const then = [...scan.inits, scan.loop];
    return [{ k: "if", cond: add({ k: "op", op: "not", args: [cond], type: T.bool }), then, else: [], loc: loop.loc }, { ...loop, body: strip(loop.body) }];
  }
  const fast = copyBlock([{ ...loop, body: strip(loop.body) }], copy, (l) => l as LocalHandle, (l) => l);
  return [{ k: "if", cond, then: fast, else: [loop], loc: loop.loc }];
}

/**
 * The loop's scan (the header's "checked copy as a scan"): the slice of it that decides its path
 * and its checks, on fresh copies of the locals that slice assigns (`inits` copy in those it reads
 * before assigning them); null where the loop has an effect other than its checks, or the slice
 * reads memory or a float.
 */
function scanOf(f: Function, loop: Extract<Stmt, { k: "loop" }>): { inits: Stmt[]; loop: Stmt } | null {
  const E = (h: ExprHandle): Expr => f.exprs[h];
  const roots: ExprHandle[] = [];
  const sets: Extract<Stmt, { k: "set" }>[] = [];
  let effect = false;
  const visit = (s: Stmt): void => {
    switch (s.k) {
      case "set": sets.push(s); break;
      case "if": roots.push(s.cond); break;
      case "switch": roots.push(s.selector); break;
      case "loop": if (s.breakIf !== null) roots.push(s.breakIf); break;
      case "check": if (s.cond !== null) roots.push(s.cond); roots.push(s.a, s.b); break;
      case "break": case "continue": break;
      case "store": case "call": case "return": case "barrier": case "fence": case "atomic": case "subgroup": case "init": case "trap":
        effect = true;
        break;
      default: assertNeverIR(s);
    }
  };
  walkStmts(loop.body, visit);
  walkStmts(loop.continuing, visit);
  if (effect || loop.breakIf !== null) return null;
  // The slice's locals: read by a root, or by the assignment of one (to a fixed point).
  const slice = new Set<number>();
  const reads = (h: ExprHandle): void => {
    const e = E(h);
    if (e.k === "local") slice.add(e.local);
    for (const o of exprOperands(e)) reads(o);
  };
  roots.forEach(reads);
  const kept = new Set<Extract<Stmt, { k: "set" }>>();
  for (let grew = true; grew;) {
    grew = false;
    for (const s of sets) if (slice.has(s.local) && !kept.has(s)) { kept.add(s); reads(s.value); grew = true; }
  }
  /** Integers and bools only, no load; an array only as what `length` reads. */
  const plain = (h: ExprHandle): boolean => {
    const e = E(h);
    if (e.k === "length") { const a = E(e.array); return a.k === "local" || a.k === "global" || a.k === "shared"; }
    if (e.k === "load" || e.k === "bitOffset" || !(isInt(e.type) || e.type === T.bool)) return false;
    return exprOperands(e).every(plain);
  };
  if (!roots.every(plain) || ![...kept].every((s) => plain(s.value))) return null;
  const cut = (b: Block): Block => rewriteBlock(b, (s) => {
    if (s.k === "set") return slice.has(s.local) ? s : [];
    if (s.k === "if" && !s.then.length && !s.else.length) return [];
    return s;
  });
  const sliced = { ...loop, body: cut(loop.body), continuing: cut(loop.continuing) };
  // Fresh copies of the locals the slice assigns; the reads before an assignment start from the originals.
  const own = new Map<number, LocalHandle>();
  for (const s of kept) {
    if (own.has(s.local)) continue;
    f.locals.push({ ...f.locals[s.local] });
    own.set(s.local, (f.locals.length - 1) as LocalHandle);
  }
  const local = (l: number): LocalHandle => own.get(l) ?? (l as LocalHandle);
  const { exposed } = exposedReads(f, [sliced]);
  const inits: Stmt[] = [...own].filter(([l]) => exposed.has(l)).map(([l, copy]) => {
    f.exprs.push({ k: "local", local: l as LocalHandle, type: f.locals[l].type, loc: null });
    return { k: "set", local: copy, value: (f.exprs.length - 1) as ExprHandle, loc: null };
  });
  const [scan] = copyBlock([sliced], (h) => copyFrom(f, f, h, local), local, (l) => l);
  return { inits, loop: scan };
}

