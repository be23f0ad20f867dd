// Bounds checks proven by value ranges: a bounds check (`u32(index) >= u32(length)`)
// whose index lies in [0, length - 1] for every value it can take is dropped. Ranges come from
// constants, the thread and block indices (below the block size: the launch bounds when the
// kernel has them, else the largest block any launch may have; below the target's largest grid),
// array sizes known at compile time, and locals — flow-insensitively: a local's range covers every
// value any of its assignments can give it, so it holds wherever the local is read. Arithmetic
// that could wrap gives no range. Typical result: `s[threadIdx.x]` into a shared array sized for
// the block needs no check.
//
// Besides ranges, tests that dominate a check: under `if (i < n)` (or after `if (i >= n) return`,
// or a loop's `if (!(i < n)) break`), a check of `u32(i) >= u32(n)` of the same expressions can
// never fire where i >= 0, by its range or by a test too (`if (i >= 0 && i < n)`): then 0 <= i < n. Such a fact holds in the statements the
// test guards only while nothing it reads changes: it is used only where no local it reads is
// assigned anywhere in the guarded statements, and it compares only expressions of locals,
// constants, builtins, lengths and arithmetic (never a load: memory may change).
//
// Checks: only checks that can never fire are dropped (their index's range, over every value it
// can take at any point of the kernel, lies inside [0, length - 1], or a dominating test bounds
// it); so the first failure plain JavaScript would report is still reported, by a check that
// stays. The ranges are sound only if every launch keeps the block within `threads` and the grid
// within `blocks` (devices reject larger ones: device.ts, and the WebGPU device its own limit) and
// a local's every assignment is seen (calls and atomics make their result locals unknown).

import type { Block, Expr, ExprHandle, Function, Module, Stmt } from "../module.js";
import { exprOperands, stmtResult, walkStmts } from "../module.js";
import { completesBlock } from "../validate.js";
import { T } from "../types.js";

/** An inclusive integer interval; null: anything. */
type Range = readonly [number, number] | null;

/** `lhs < rhs` (strict) or `lhs <= rhs`, compared as i32 or as u32, known where a test that dominates it said so. */
interface Fact { lhs: ExprHandle; rhs: ExprHandle; strict: boolean; unsigned: boolean }

/** The most threads per block, and blocks per grid, per dimension. */
export interface LaunchLimits { threads: readonly number[]; blocks: readonly number[] }

const I32_MIN = -2147483648, I32_MAX = 2147483647, U32_MAX = 4294967295;

/** Drop the bounds checks of every kernel that ranges or dominating tests prove. */
export function dropProvenChecks(m: Module, limits: LaunchLimits): void {
  for (const f of m.functions) {
    if (f.kind !== "kernel") continue;
    const locals = localRanges(f, limits);
    f.body = strip(f, f.body, (h, facts) => range(f, h, limits, locals, facts), []);
  }
}

/**
 * The block without its proven checks; `facts` hold throughout it. Within the block, a local set
 * to an expression of locals (no load) is that expression until one of them is assigned again
 * (`defs`): a check of `u32(tmp)` after `tmp = t + s` is a check of t + s.
 */
function strip(f: Function, block: Block, rangeOf: (h: ExprHandle, facts: readonly Fact[]) => Range, facts: readonly Fact[]): Block {
  const out: Block = [];
  let known = facts;
  const defs = new Map<number, ExprHandle>();
  const readers = new Map<number, number[]>();   // local → the locals whose definition reads it
  for (let i = 0; i < block.length; i++) {
    const s = block[i];
    if (isProven(f, s, rangeOf, known, defs)) continue;
    // What the statement assigns ends the definitions of those locals and of those that read them.
    walkStmts([s], (x) => {
      const l = assignedLocal(x);
      if (l === null) return;
      defs.delete(l);
      for (const r of readers.get(l) ?? []) defs.delete(r);
      readers.delete(l);
    });
    if (s.k === "set") {
      const read = localsOf(f, s.value);
      if (read && !read.includes(s.local)) {
        defs.set(s.local, s.value);
        for (const l of read) { const list = readers.get(l); if (list) list.push(s.local); else readers.set(l, [s.local]); }
      }
    }
    switch (s.k) {
      case "if": {
        const then = strip(f, s.then, rangeOf, [...known, ...holding(f, testFacts(f, s.cond, true), s.then)]);
        const els = strip(f, s.else, rangeOf, [...known, ...holding(f, testFacts(f, s.cond, false), s.else)]);
        out.push(then !== s.then || els !== s.else ? { ...s, then, else: els } : s);
        // An early exit: the rest of the block runs only where the other branch was taken.
        const thenExits = !completesBlock(s.then), elseExits = !completesBlock(s.else);
        if (thenExits !== elseExits) known = [...known, ...holding(f, testFacts(f, s.cond, elseExits), block.slice(i + 1))];
        continue;
      }
      case "loop": {
        const body = strip(f, s.body, rangeOf, known), continuing = strip(f, s.continuing, rangeOf, known);
        out.push(body !== s.body || continuing !== s.continuing ? { ...s, body, continuing } : s);
        continue;
      }
      case "switch": {
        const bodies = s.cases.map((c) => strip(f, c.body, rangeOf, known));
        out.push(bodies.some((b, j) => b !== s.cases[j].body) ? { ...s, cases: s.cases.map((c, j) => ({ ...c, body: bodies[j] })) } : s);
        continue;
      }
      default: out.push(s);
    }
  }
  return out.length === block.length && out.every((s, i) => s === block[i]) ? block : out;
}

/** What a test being `truth` says: the comparisons it implies (through &&, || and !). */
function testFacts(f: Function, h: ExprHandle, truth: boolean): Fact[] {
  const e = f.exprs[h];
  if (e.k !== "op") return [];
  const [a, b] = e.args;
  const type = f.exprs[a]?.type;
  const fact = (lhs: ExprHandle, rhs: ExprHandle, strict: boolean): Fact[] =>
    type === T.i32 || type === T.u32 ? [{ lhs, rhs, strict, unsigned: type === T.u32 }] : [];
  switch (e.op) {
    // (On integers the negation of a < b is b <= a, and so on.)
    case "lt": return truth ? fact(a, b, true) : fact(b, a, false);
    case "le": return truth ? fact(a, b, false) : fact(b, a, true);
    case "gt": return truth ? fact(b, a, true) : fact(a, b, false);
    case "ge": return truth ? fact(b, a, false) : fact(a, b, true);
    case "land": return truth ? [...testFacts(f, a, true), ...testFacts(f, b, true)] : [];
    case "lor": return truth ? [] : [...testFacts(f, a, false), ...testFacts(f, b, false)];
    case "not": return testFacts(f, a, !truth);
    default: return [];
  }
}

/** The facts that hold throughout `block`: those that read no local the block assigns (and no memory). */
function holding(f: Function, facts: Fact[], block: Block): Fact[] {
  if (!facts.length) return facts;
  const assigned = new Set<number>();
  walkStmts(block, (s) => { const l = assignedLocal(s); if (l !== null) assigned.add(l); });
  const stable = (h: ExprHandle): boolean => localsOf(f, h)?.every((l) => !assigned.has(l)) ?? false;
  return facts.filter((x) => stable(x.lhs) && stable(x.rhs));
}

/** The local a statement assigns (a set, an init, a call's, atomic's or subgroup operation's result), or null. */
function assignedLocal(s: Stmt): number | null {
  return s.k === "set" || s.k === "init" ? s.local : stmtResult(s);
}

/** Whether two expressions compute the same value at the same point (neither reads memory). */
function sameExpr(f: Function, a: ExprHandle, b: ExprHandle): boolean {
  if (a === b) return true;
  const x = f.exprs[a], y = f.exprs[b];
  if (x.k !== y.k || x.type !== y.type) return false;
  switch (x.k) {
    case "const": return Object.is(x.value, (y as typeof x).value);
    case "local": return x.local === (y as typeof x).local;
    case "builtin": return x.name === (y as typeof x).name;
    case "length": return sameExpr(f, x.array, (y as typeof x).array);
    case "convert": return sameExpr(f, x.arg, (y as typeof x).arg);
    case "op": {
      const o = y as typeof x;
      return x.op === o.op && x.args.length === o.args.length && x.args.every((h, i) => sameExpr(f, h, o.args[i]));
    }
    default: return false;
  }
}

/** The locals an expression reads, or null where it reads memory (or anything but locals, constants, builtins, lengths and arithmetic). */
function localsOf(f: Function, h: ExprHandle): number[] | null {
  const out: number[] = [];
  const visit = (x: ExprHandle): boolean => {
    const e = f.exprs[x];
    if (e.k === "local") { out.push(e.local); return true; }
    if (e.k !== "const" && e.k !== "builtin" && e.k !== "length" && e.k !== "convert" && e.k !== "op") return false;
    return exprOperands(e).every(visit);
  };
  return visit(h) ? out : null;
}

/** A bounds check (index >= length as u32) that can never fire. */
function isProven(f: Function, s: Stmt, rangeOf: (h: ExprHandle, facts: readonly Fact[]) => Range, facts: readonly Fact[], defs: ReadonlyMap<number, ExprHandle>): boolean {
  if (s.k !== "check" || s.kind !== "bounds" || s.cond === null) return false;
  const c = f.exprs[s.cond];
  if (c.k !== "op" || c.op !== "ge" || f.exprs[c.args[0]].type !== T.u32) return false;
  const [index, length] = c.args;
  const len = rangeOf(length, facts);
  const inside = (r: Range) => r !== null && len !== null && r[0] >= 0 && r[1] < len[0];
  if (inside(rangeOf(index, facts))) return true;
  // u32(tmp) where tmp holds an i32 expression defined in this block: that expression's range.
  const e = f.exprs[index], arg = e.k === "convert" ? f.exprs[e.arg] : null;
  if (e.k === "convert" && arg?.k === "local" && arg.type === T.i32 && defs.has(arg.local) && inside(rangeOf(defs.get(arg.local)!, facts))) return true;
  // u32(i) < u32(n) where a test said so, or said i < n as i32 with i >= 0 by its range.
  const signed = (h: ExprHandle): ExprHandle | null => {
    const e = f.exprs[h];
    return e.k === "convert" && f.exprs[e.arg].type === T.i32 ? e.arg : null;
  };
  const i = signed(index), n = signed(length);
  if (facts.some((x) => x.unsigned && x.strict && sameExpr(f, x.lhs, index) && sameExpr(f, x.rhs, length))) return true;
  if (i === null || n === null || !facts.some((x) => !x.unsigned && x.strict && sameExpr(f, x.lhs, i) && sameExpr(f, x.rhs, n))) return false;
  // i < n as i32, and i >= 0: by its range, or by a test (0 <= i, or c < i with c >= -1).
  const low = (h: ExprHandle) => rangeOf(h, [])?.[0] ?? -Infinity;
  return low(i) >= 0 || facts.some((x) => !x.unsigned && sameExpr(f, x.rhs, i) && low(x.lhs) >= (x.strict ? -1 : 0));
}

/** Every local's range over all its assignments, to a fixed point (none if it does not settle). */
function localRanges(f: Function, limits: LaunchLimits): Map<number, Range> {
  const sets: { local: number; value: ExprHandle }[] = [];
  const opaque = new Set<number>(f.params);
  if (f.stateParam !== null) opaque.add(f.stateParam);
  walkStmts(f.body, (s) => {
    if (s.k === "set") sets.push({ local: s.local, value: s.value });
    const r = stmtResult(s);
    if (r !== null) opaque.add(r);
    if (s.k === "init") opaque.add(s.local);
  });
  const map = new Map<number, Range>();
  for (const l of opaque) map.set(l, null);
  // Rounds until nothing changes; a local still growing after a dozen rounds (a counter) has no
  // range, and the rounds start again with it as such (each restart adds one: this ends).
  for (;;) {
    let changed = new Set<number>();
    for (let round = 0; round < 12; round++) {
      changed = new Set();
      for (const { local, value } of sets) {
        const prev = map.get(local);
        if (prev === null) continue;
        const r = range(f, value, limits, map);
        const next: Range = prev === undefined ? r : r === null ? null : [Math.min(prev[0], r[0]), Math.max(prev[1], r[1])];
        if (prev === undefined || next === null || next[0] !== prev[0] || next[1] !== prev[1]) { map.set(local, next); changed.add(local); }
      }
      if (!changed.size) return map;
    }
    for (const l of changed) map.set(l, null);
  }
}

/**
 * An expression's range; under `facts`, narrowed where a fact bounds it or a part of it (`t + s`
 * under `t < s`: t <= s - 1, so t + s <= 2s - 1 — the reduction tree's index).
 */
function range(f: Function, h: ExprHandle, limits: LaunchLimits, locals: Map<number, Range>, facts: readonly Fact[] = []): Range {
  const own = ownRange(f, h, limits, locals, (x) => range(f, x, limits, locals, facts));
  if (!facts.length) return own;
  const type = f.exprs[h].type;
  if (type !== T.i32 && type !== T.u32) return own;
  let [lo, hi] = own ?? (type === T.u32 ? [0, U32_MAX] : [I32_MIN, I32_MAX]);
  for (const x of facts) {
    if (x.unsigned !== (type === T.u32)) continue;
    const gap = x.strict ? 1 : 0;
    // (The other side's range without facts: one level of narrowing, no cycles between facts.)
    if (sameExpr(f, x.lhs, h)) { const b = range(f, x.rhs, limits, locals); if (b) hi = Math.min(hi, b[1] - gap); }
    if (sameExpr(f, x.rhs, h)) { const a = range(f, x.lhs, limits, locals); if (a) lo = Math.max(lo, a[0] + gap); }
  }
  return lo > hi ? own : [lo, hi];
}

function ownRange(f: Function, h: ExprHandle, limits: LaunchLimits, locals: Map<number, Range>, r: (x: ExprHandle) => Range): Range {
  const e: Expr = f.exprs[h];
  const { threads, blocks } = limits;
  const fits = (lo: number, hi: number, unsigned: boolean): Range =>
    (unsigned ? lo >= 0 && hi <= U32_MAX : lo >= I32_MIN && hi <= I32_MAX) ? [lo, hi] : null;
  switch (e.k) {
    case "const": return typeof e.value === "number" && Number.isInteger(e.value) ? [e.value, e.value] : null;
    // A local not yet assigned in this round of the fixed point reads as nothing, which is sound
    // only inside localRanges' iteration; elsewhere every local has an entry.
    case "local": return locals.has(e.local) ? locals.get(e.local)! : null;
    case "builtin": {
      // Subgroups have at most 128 lanes on any target gpuc runs.
      if (e.name === "subgroupSize") return [1, 128];
      if (e.name === "subgroupLaneId") return [0, 127];
      const axis = e.name.endsWith(".x") ? 0 : e.name.endsWith(".y") ? 1 : 2;
      if (e.name.startsWith("threadIdx")) return [0, threads[axis] - 1];
      if (e.name.startsWith("blockDim")) return [1, threads[axis]];
      return e.name.startsWith("blockIdx") ? [0, blocks[axis] - 1] : [1, blocks[axis]];
    }
    case "length": {
      const t = f.exprs[e.array].type;
      return t.kind === "array" && t.size !== null ? [t.size, t.size] : null;
    }
    case "convert": {
      const from = f.exprs[e.arg].type, a = r(e.arg);
      if (a === null || (from !== T.i32 && from !== T.u32) || (e.type !== T.i32 && e.type !== T.u32)) return null;
      return a[0] >= 0 && a[1] <= I32_MAX ? a : null;
    }
    case "select": {
      const a = r(e.a), b = r(e.b);
      return a === null || b === null ? null : [Math.min(a[0], b[0]), Math.max(a[1], b[1])];
    }
    case "op": {
      if (e.type !== T.i32 && e.type !== T.u32) return null;
      const unsigned = e.type === T.u32;
      const [a, b] = e.args.map(r);
      if (a === null || (e.args.length > 1 && b === null)) return null;
      switch (e.op) {
        case "add": return fits(a[0] + b![0], a[1] + b![1], unsigned);
        case "sub": return fits(a[0] - b![1], a[1] - b![0], unsigned);
        case "mul": return a[0] >= 0 && b![0] >= 0 ? fits(a[0] * b![0], a[1] * b![1], unsigned) : null;
        case "shl": return b![0] === b![1] && b![0] >= 0 && b![0] < 31 && a[0] >= 0 ? fits(a[0] * 2 ** b![0], a[1] * 2 ** b![0], unsigned) : null;
        case "shr": return b![0] === b![1] && b![0] >= 0 && b![0] < 32 && a[0] >= 0 ? [Math.floor(a[0] / 2 ** b![0]), Math.floor(a[1] / 2 ** b![0])] : null;
        case "and": return a[0] >= 0 && b![0] >= 0 ? [0, Math.min(a[1], b![1])] : null;
        case "rem": return a[0] >= 0 && b![0] > 0 ? [0, Math.min(a[1], b![1] - 1)] : null;
        case "min": return [Math.min(a[0], b![0]), Math.min(a[1], b![1])];
        case "max": return [Math.max(a[0], b![0]), Math.max(a[1], b![1])];
        default: return null;
      }
    }
    default: return null;
  }
}
