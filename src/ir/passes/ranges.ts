// Bounds checks proven by value ranges: a bounds check (`u32(index) >= u32(length)`)
// whose index lies in [0, length - 1] for every value it can take is dropped. Ranges come from
// constants, the thread and block indices (below the block size: the launch bounds when the
// kernel has them, else the largest block any launch may have; below the target's largest grid),
// array sizes known at compile time, shared arrays sized at launch (`shared(Float32Array,
// blockDim.x)`: the block's size where the launch bounds fix it, as WebGPU's launches do), and locals — flow-insensitively: a local's range covers every
// value any of its assignments can give it, so it holds wherever the local is read. Arithmetic
// that could wrap gives no range. Typical result: `s[threadIdx.x]` into a shared array sized for
// the block needs no check.
//
// Besides ranges, tests that dominate a check: under `if (i < n)` (or after `if (i >= n) return`,
// or a loop's `if (!(i < n)) break`), a check of `u32(i) >= u32(n)` of the same expressions can
// never fire where i >= 0, by its range or by a test too (`if (i >= 0 && i < n)`): then 0 <= i < n.
// Such a fact holds from the test until a statement assigns a local it reads (walkFacts), and it
// compares only expressions of locals, constants, builtins, lengths and arithmetic (never a load:
// memory may change). A fact b <= a (b < a) also bounds a − b below by 0 (1) where the
// subtraction cannot wrap (its range without facts fits its type): a scan's `buf[t - offset]`
// under `t >= offset` needs no check.
//
// Loop counters. Each assignment's value is taken under the facts that hold where it is made, and
// a loop's continuing block starts with its head test's facts (every way into it passed the test):
// `for (let k = 0; k < 16; k++)` gives k + 1 under k < 16, at most 16, so k's range over all its
// assignments is [0, 16], and in the body, under the test, k is in [0, 15]. Why it is sound: the
// range is a post-fixpoint (localRanges) — every value any assignment can give, computed from
// ranges that hold for every local and from facts that hold there, lies in the range — so no value
// the kernel computes falls outside it; nothing assumes how the loop is written. A counter assigned
// anywhere else (in the body, an inner loop, a branch) has those assignments in its range too, and
// one in the body ends the head test's fact before the continuing block: k + 1 then has no bound
// and k no range. Wrapping: k + 1 under k < n is at most n's largest value (2^31 - 1 for an
// unknown i32 n), so it never wraps; k + 16 under k < n may, and gives no range, as do k + 1 under
// k <= n and k - 1 under k >= n for an unknown n. A widened range (a counter still growing after a
// dozen rounds goes to its type's limit) is narrowed back by recomputing every assignment.
//
// A check that stays dominates the checks after it: past `u32(i) >= u32(n)` (kept), u32(i) < u32(n)
// is a fact while it holds (walkFacts: until a local either side reads is assigned; never where
// either reads memory; the 16 most recent such facts), so a later check of the same u32(i) against
// the same u32(n) is dropped (`s[t]` before a loop and again in it), and so is one that u32(i)'s
// range under the fact proves (range() narrows u32(i) below n's largest value). Why it is sound: on the targets whose checks stop the thread (JS, PTX, OpenCL,
// SPIR-V; WGSL in a kernel without barriers) the later check runs only where the earlier passed,
// and then it cannot fire; where a failed check goes on (WGSL in a kernel with barriers: the
// thread records its first exception, later ones are not kept, and robust buffer access bounds the
// accesses either way, checked or not) the later check could only fire after the earlier one had
// already recorded the thread's exception, so dropping it changes neither the record nor any
// access — whichever later check it is. Such facts serve dropping checks only: locals' ranges
// (localRanges) and foldDecidedTests never use them.
//
// Tests (foldDecidedTests, after hoist-checks.ts): a comparison in a versioned loop's test that the ranges
// and facts where the if stands decide is that constant there (sound as dropping a check is: the
// ranges hold every value each side can take at that point); new expressions replace the changed.
//
// Checks: only checks that can never fire are dropped (their index's range, over every value it
// can take at any point of the kernel, lies inside [0, length - 1], or a dominating test bounds
// it); so the first failure plain JavaScript would report is still reported, by a check that
// stays. The ranges are sound only if every launch keeps the block within `threads` and the grid
// within `blocks` (devices reject larger ones: device.ts, and the WebGPU device its own limit) and
// a local's every assignment is seen (calls and atomics make their result locals unknown).

import type { Block, Expr, ExprHandle, Function, Module, Stmt } from "../module.js";
import { assignedLocal, childBlocks, exprOperands, stmtOperands, stmtResult } from "../module.js";
import { completesBlock, continues } from "../module-info.js";
import type { SizeExpr } from "../size.js";
import { T } from "../types.js";

/** An inclusive integer interval; null: anything. */
type Range = readonly [number, number] | null;

/** `lhs < rhs` (strict) or `lhs <= rhs`, compared as i32 or as u32, known where a test that dominates it said so. */
interface Fact { lhs: ExprHandle; rhs: ExprHandle; strict: boolean; unsigned: boolean; /** The locals lhs and rhs read. */ reads: readonly number[]; /** Learnt from a check that stays (passedCheck), not from a test. */ check?: true }

/** `lhs < rhs` (or <=) as a fact, none where either side reads memory (or anything but locals, constants, builtins, lengths and arithmetic). */
function makeFact(f: Function, lhs: ExprHandle, rhs: ExprHandle, strict: boolean, unsigned: boolean): Fact[] {
  const a = localsOf(f, lhs), b = a && localsOf(f, rhs);
  return a && b ? [{ lhs, rhs, strict, unsigned, reads: [...a, ...b] }] : [];
}

/** How a walk over facts goes: what it visits, whether kept checks add facts, where it descends, and its memo of what statements assign. */
interface Walk {
  visit: (s: Stmt, facts: readonly Fact[], defs: ReadonlyMap<number, ExprHandle>) => boolean | Stmt;
  checks: boolean;
  descend?: ReadonlySet<Stmt>;
  assigned: Map<Stmt, ReadonlySet<number>>;
}

/** A walk with a fresh memo (nothing changes a statement while one pass walks it; dce.ts edits some in place later). */
function walk(visit: Walk["visit"], checks = false, descend?: ReadonlySet<Stmt>): Walk {
  return { visit, checks, descend, assigned: new Map() };
}

/**
 * The most threads per block, and blocks per grid, per dimension; `exactThreads`: every launch's
 * block is exactly this (launch bounds `requiredThreads`: launches of another size are refused).
 */
interface LaunchLimits { threads: readonly number[]; blocks: readonly number[]; exactThreads?: readonly number[] }

/** The limits, and the range of each shared array's length (its type's size, or its size at launch). */
interface Bounds extends LaunchLimits { sharedLengths: readonly Range[] }

const I32_MIN = -2147483648, I32_MAX = 2147483647, U32_MAX = 4294967295;

/** Every kernel's locals' ranges, as dropProvenChecks found them (for foldDecidedTests after hoisting). */
type KernelRanges = Map<Function, { limits: Bounds; locals: Map<number, Range> }>;

/** Drop the bounds checks of every kernel that ranges or dominating tests prove. */
export function dropProvenChecks(m: Module, launch: LaunchLimits): KernelRanges {
  const limits: Bounds = { ...launch, sharedLengths: m.shared.map((x) => (x.type.size !== null ? [x.type.size, x.type.size] : x.size ? sizeRange(x.size, launch) : null)) };
  const out: KernelRanges = new Map();
  for (const f of m.functions) {
    if (f.kind !== "kernel") continue;
    const locals = localRanges(f, limits);
    out.set(f, { limits, locals });
    const rangeOf = (h: ExprHandle, facts: readonly Fact[]) => range(f, h, limits, locals, facts);
    f.body = walkFacts(f, f.body, [], walk((s, facts, defs) => !isProven(f, s, rangeOf, facts, defs), true));
  }
  return out;
}

/**
 * Integer comparisons in the tests of versioned loops (`tests`: hoist-checks.ts's, per function;
 * a walk of its own for each function that has one) that ranges decide, under the facts that hold
 * at the test, become constants (foldConstants then drops what they decide): a versioned loop's test
 * (hoist-checks.ts) splits on the sign of a stride n, and under `if (row < n)` with row >= 0,
 * n >= 1, so `n == 0` and `n <= -1` are false and `n >= 1` true. Why it is sound: a comparison is
 * replaced only where every value each side can take there (range(), the same post-fixpoint and
 * facts that drop checks) gives it one outcome; new expressions replace the changed ones (a handle
 * may be shared by statements where other facts hold). The locals' ranges are dropProvenChecks':
 * hoisting copies a loop with the same assignments and adds none, so they still hold every value.
 */
export function foldDecidedTests(m: Module, ranges: KernelRanges, tests: ReadonlyMap<Function, ReadonlySet<Stmt>>): void {
  for (const f of m.functions) {
    const r = ranges.get(f), mine = tests.get(f);
    if (!r || !mine) continue;
    const rangeOf = (h: ExprHandle, facts: readonly Fact[]) => range(f, h, r.limits, r.locals, facts);
    // The walk goes only into the statements that hold a test (the loops' two copies are not walked).
    const holders = new Set<Stmt>();
    const holds = (block: Block): boolean => {
      let any = false;
      for (const s of block) if (childBlocks(s).reduce((found, b) => holds(b) || found, false)) { holders.add(s); any = true; } else if (mine.has(s)) any = true;
      return any;
    };
    holds(f.body);
    f.body = walkFacts(f, f.body, [], walk((s, facts) => {
      if (s.k !== "if" || !mine.has(s)) return true;
      const cond = decideTest(f, s.cond, (h) => rangeOf(h, facts));
      return cond === s.cond ? true : { ...s, cond };
    }, false, holders));
  }
}

/** `h` with the comparisons (through &&, || and !) that `rangeOf` decides replaced by constants; `h` itself where none is. */
function decideTest(f: Function, h: ExprHandle, rangeOf: (h: ExprHandle) => Range): ExprHandle {
  const e = f.exprs[h];
  if (e.k !== "op") return h;
  const add = (x: Expr): ExprHandle => { f.exprs.push(x); return (f.exprs.length - 1) as ExprHandle; };
  if (e.op === "land" || e.op === "lor" || e.op === "not") {
    const args = e.args.map((a) => decideTest(f, a, rangeOf));
    return args.every((a, i) => a === e.args[i]) ? h : add({ ...e, args });
  }
  const type = f.exprs[e.args[0]]?.type;
  if (e.args.length !== 2 || (type !== T.i32 && type !== T.u32)) return h;
  // Only comparisons of values two operations deep at most (the sign cases `n >= 1`, and `col + 0 * n
  // >= 0` as the test reads the counter's start): deeper operands would cost a range walk each on
  // every versioned test and are rarely decided.
  const shallow = (x: ExprHandle, depth: number): boolean => {
    const y = f.exprs[x];
    if (y.k === "local" || y.k === "const" || y.k === "builtin" || y.k === "length") return true;
    return depth > 0 && (y.k === "op" || y.k === "convert") && exprOperands(y).every((o) => shallow(o, depth - 1));
  };
  if (!shallow(e.args[0], 2) || !shallow(e.args[1], 2)) return h;
  const a = rangeOf(e.args[0]), b = rangeOf(e.args[1]);
  if (a === null || b === null) return h;
  const lt = a[1] < b[0] ? true : a[0] >= b[1] ? false : null;   // a < b
  const le = a[1] <= b[0] ? true : a[0] > b[1] ? false : null;   // a <= b
  const eq = a[0] === a[1] && b[0] === b[1] && a[0] === b[0] ? true : a[1] < b[0] || b[1] < a[0] ? false : null;
  const not = (x: boolean | null) => (x === null ? null : !x);
  const value = ({ lt, le, gt: not(le), ge: not(lt), eq, ne: not(eq) } as Record<string, boolean | null>)[e.op] ?? null;
  return value === null ? h : add({ k: "const", value, type: T.bool, loc: e.loc });
}

/**
 * Walk `block`, `facts` holding at its start, calling `visit` on each statement with the facts that
 * hold when it starts and the block's definitions (below); a statement `visit` refuses is dropped
 * (it must assign nothing: a check), one it returns replaces it (the same statement with another
 * test: foldDecidedTests). Nested blocks are walked after their statement is visited.
 *
 * A fact holds from where it was learnt until a statement assigns a local it reads: after each
 * statement, the facts reading what it assigned (anywhere in it, both branches of an if) are gone.
 * A test's facts hold at the start of the branch it guards; after an if whose one branch exits
 * (return, break, continue, trap), the other's test facts hold after the if. A loop's body and
 * continuing block start with the facts that no statement of the loop changes; the continuing block
 * also with the facts of the loop's head test (the body's first statement, `if (!(k < n)) break`)
 * that no statement of the body changes: every way into the continuing block — the body's end, a
 * `continue` — passed that test (its exit leaves the loop: a break or return, never a continue).
 *
 * With `checks`, a bounds check the visit keeps adds its passing (passedCheck) to the facts after it.
 * With `descend`, only the nested blocks of the statements it holds are walked (the others are
 * kept as they are; what they assign still ends the facts that read it).
 *
 * Within the block, a local set to an expression of locals (no load) is that expression until one
 * of them is assigned again (`defs`): a check of `u32(tmp)` after `tmp = t + s` is a check of t + s.
 */
function walkFacts(f: Function, block: Block, facts: readonly Fact[], w: Walk): Block {
  const { visit, checks, descend, assigned } = w;
  const out: Block = [];
  let known = facts;
  const defs = new Map<number, ExprHandle>();
  const readers = new Map<number, number[]>();   // local → the locals whose definition reads it
  for (let i = 0; i < block.length; i++) {
    const v = visit(block[i], known, defs);
    if (v === false) continue;
    const s = v === true ? block[i] : v;
    // What the statement assigns ends the definitions of those locals and of those that read them.
    for (const l of assignedBy(s, assigned)) {
      defs.delete(l);
      for (const r of readers.get(l) ?? []) defs.delete(r);
      readers.delete(l);
    }
    if (s.k === "set") {
      const read = localsOf(f, s.value);
      if (read && !read.includes(s.local)) {
        defs.set(s.local, s.value);
        for (const l of read) { const list = readers.get(l); if (list) list.push(s.local); else readers.set(l, [s.local]); }
      }
    }
    if (descend && !descend.has(s)) out.push(s);
    else switch (s.k) {
      case "if": {
        const then = walkFacts(f, s.then, [...known, ...testFacts(f, s.cond, true)], w);
        const els = walkFacts(f, s.else, [...known, ...testFacts(f, s.cond, false)], w);
        out.push(then !== s.then || els !== s.else ? { ...s, then, else: els } : s);
        break;
      }
      case "loop": {
        const around = holding(known, [s], assigned);
        const body = walkFacts(f, s.body, around, w);
        const continuing = walkFacts(f, s.continuing, [...around, ...holding(headFacts(f, s), s.body, assigned)], w);
        out.push(body !== s.body || continuing !== s.continuing ? { ...s, body, continuing } : s);
        break;
      }
      case "switch": {
        // (A case may be entered by falling through from the one before: only what the switch keeps.)
        const inside = holding(known, [s], assigned);
        const bodies = s.cases.map((c) => walkFacts(f, c.body, inside, w));
        out.push(bodies.some((b, j) => b !== s.cases[j].body) ? { ...s, cases: s.cases.map((c, j) => ({ ...c, body: bodies[j] })) } : s);
        break;
      }
      default: out.push(s);
    }
    known = holding(known, [s], assigned);
    if (checks) {
      const passed = passedCheck(f, s);
      if (passed.length) known = keepRecentChecks([...known, ...passed]);
    }
    if (s.k === "if") {
      // An early exit: the rest of the block runs only where the other branch was taken (and finished).
      const thenExits = !completesBlock(s.then), elseExits = !completesBlock(s.else);
      if (thenExits !== elseExits) known = [...known, ...holding(testFacts(f, s.cond, elseExits), [s], assigned)];
    }
  }
  return out.length === block.length && out.every((s, i) => s === block[i]) ? block : out;
}

/**
 * What the statements after a bounds check that stays may take as said, for dropping checks
 * only: its index below its length, as u32 (`u32(i) >= u32(n)` fires, so past it u32(i) < u32(n)).
 * None where its index or length reads memory.
 */
function passedCheck(f: Function, s: Stmt): Fact[] {
  if (s.k !== "check" || s.kind !== "bounds" || s.cond === null) return [];
  const c = f.exprs[s.cond];
  if (c.k !== "op" || c.op !== "ge" || f.exprs[c.args[0]].type !== T.u32) return [];
  return makeFact(f, c.args[0], c.args[1], true, true).map((x) => ({ ...x, check: true as const }));
}

/**
 * The most facts from checks a walk keeps at once; older ones are dropped (fewer facts prove
 * less: sound). Without a bound they pile up — each check of an index through a temporary
 * assigned once is a fact nothing ends — and every statement's holding() and every range() scan
 * them all: quadratic in the kernel's size (a 5,000-statement kernel kept a thousand).
 */
const MAX_CHECK_FACTS = 16;

function keepRecentChecks(facts: Fact[]): Fact[] {
  let extra = facts.reduce((n, x) => n + (x.check ? 1 : 0), 0) - MAX_CHECK_FACTS;
  return extra <= 0 ? facts : facts.filter((x) => !(x.check && extra-- > 0));
}

/**
 * The facts of a loop's head test: its body's first statement is an if of which one branch exits
 * the loop without a `continue` of it, the other finishes; the facts of the test taking the other.
 */
function headFacts(f: Function, loop: Extract<Stmt, { k: "loop" }>): Fact[] {
  const s = loop.body[0];
  if (s?.k !== "if") return [];
  const thenExits = !completesBlock(s.then), elseExits = !completesBlock(s.else);
  if (thenExits === elseExits || (thenExits ? s.then : s.else).some(continues)) return [];
  return testFacts(f, s.cond, elseExits);
}

/** What a test being `truth` says: the comparisons it implies (through &&, || and !). */
function testFacts(f: Function, h: ExprHandle, truth: boolean): Fact[] {
  const e = f.exprs[h];
  if (e.k !== "op") return [];
  const [a, b] = e.args;
  const type = f.exprs[a]?.type;
  const fact = (lhs: ExprHandle, rhs: ExprHandle, strict: boolean): Fact[] =>
    type === T.i32 || type === T.u32 ? makeFact(f, lhs, rhs, strict, type === T.u32) : [];
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
function holding(facts: readonly Fact[], block: Block, memo: Map<Stmt, ReadonlySet<number>>): Fact[] {
  if (!facts.length) return [];
  const sets = block.map((s) => assignedBy(s, memo)).filter((x) => x.size);
  return sets.length ? facts.filter((x) => x.reads.every((l) => sets.every((set) => !set.has(l)))) : [...facts];
}

/** The locals a statement assigns, anywhere in it (memoized, nested statements too). */
function assignedBy(s: Stmt, memo: Map<Stmt, ReadonlySet<number>>): ReadonlySet<number> {
  let set = memo.get(s);
  if (set) return set;
  const out = new Set<number>();
  const own = assignedLocal(s);
  if (own !== null) out.add(own);
  for (const b of childBlocks(s)) for (const x of b) for (const l of assignedBy(x, memo)) out.add(l);
  set = out;
  memo.set(s, set);
  return set;
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

/**
 * Every local's range over all its assignments, each assignment's value taken under the facts that
 * hold where it is made (walkFacts: `k = k + 1` in a loop's continuing block under its head test
 * `k < 16`, so k + 1 <= 16), to a fixed point.
 *
 * Rounds until nothing changes, each range the union of what it was and what every assignment can
 * give it. A local still growing after a dozen rounds (a counter) is widened: the end that moves
 * goes to 0 (a lower end that stays >= 0) or to the type's limit; arithmetic that could then wrap
 * gives no range (null), so each local moves a bounded number of times more and the rounds end.
 * The result is a post-fixpoint: every assignment's value, computed from ranges holding every
 * local, lies in its local's range, so (by induction over the kernel's run) every value every local
 * takes lies in its range. Then a few rounds of narrowing: each range replaced by the union of what
 * its assignments give under the ranges so far (sound for the same reason), which brings a widened
 * counter back to its bound ([0, 16] for `k < 16; k++`); not for a local that takes values besides
 * its assignments' (a parameter, a call's result), which stays unknown.
 */
function localRanges(f: Function, limits: Bounds): Map<number, Range> {
  const sets: { local: number; value: ExprHandle; facts: readonly Fact[] }[] = [];
  const opaque = new Set<number>(f.params);
  if (f.stateParam !== null) opaque.add(f.stateParam);
  // (The walk visits every statement, nested ones too.)
  walkFacts(f, f.body, [], walk((s, facts) => {
    const r = stmtResult(s);
    if (r !== null) opaque.add(r);
    if (s.k === "init") opaque.add(s.local);
    if (s.k === "set") sets.push({ local: s.local, value: s.value, facts });
    return true;
  }));
  const map = new Map<number, Range>();
  for (const l of opaque) map.set(l, null);
  // A local a read may see before any assignment holds its initial value, 0, too.
  const zero = initialValueSeen(f);
  for (const l of zero) if (!opaque.has(l)) map.set(l, [0, 0]);
  const widen = (l: number, prev: readonly [number, number], next: readonly [number, number]): Range => {
    const unsigned = f.locals[l]?.type === T.u32;
    const lo = next[0] >= prev[0] ? prev[0] : next[0] >= 0 ? 0 : unsigned ? 0 : I32_MIN;
    const hi = next[1] <= prev[1] ? prev[1] : unsigned ? U32_MAX : I32_MAX;
    return [lo, hi];
  };
  // A set's range reads the map only at the locals its value and its facts read (`deps`). One
  // whose locals kept their ranges since it was last evaluated would give the same range again,
  // which its local's range already holds (a range here only grows, by union or widening, or
  // becomes null, which stops it), so it is not evaluated again: every round sees the map it would
  // see if it were, and the fixed point is the same, with fewer walks of the expressions.
  const deps = sets.map(({ value, facts }) => {
    const out = new Set<number>();
    const visit = (h: ExprHandle): void => {
      const e = f.exprs[h];
      if (e.k === "local") out.add(e.local);
      for (const o of exprOperands(e)) visit(o);
    };
    visit(value);
    for (const x of facts) for (const l of x.reads) out.add(l);
    return [...out];
  });
  /** When each local's range last changed, when each set was last evaluated (steps of the iteration), and the range it gave. */
  const changedAt = new Map<number, number>(), evaluatedAt: number[] = sets.map(() => -1), last: Range[] = sets.map(() => null);
  let step = 0;
  let settled = false;
  for (let round = 0; round < 16 + 4 * sets.length && !settled; round++) {
    settled = true;
    sets.forEach(({ local, value, facts }, i) => {
      const prev = map.get(local);
      if (prev === null) return;
      const since = evaluatedAt[i];
      if (since >= 0 && deps[i].every((l) => (changedAt.get(l) ?? -1) < since)) return;
      evaluatedAt[i] = step++;
      const r = (last[i] = range(f, value, limits, map, facts));
      let next: Range = prev === undefined ? r : r === null ? null : [Math.min(prev[0], r[0]), Math.max(prev[1], r[1])];
      if (prev !== undefined && next !== null && next[0] === prev[0] && next[1] === prev[1]) return;
      if (round >= 12 && prev !== undefined && next !== null) next = widen(local, prev, next);
      map.set(local, next);
      changedAt.set(local, step++);
      settled = false;
    });
  }
  if (!settled) for (const { local } of sets) map.set(local, null);
  if (!settled) for (const { local } of sets) changedAt.set(local, step++);
  for (let round = 0; round < 3; round++) {
    const narrowed = new Map<number, Range>();
    for (const l of zero) if (!opaque.has(l)) narrowed.set(l, [0, 0]);
    sets.forEach(({ local, value, facts }, i) => {
      // (A parameter, a call's or atomic's result, an init: values besides its assignments.)
      if (opaque.has(local)) return;
      // (A set whose locals kept their ranges since it was evaluated gives the range it gave then.)
      const since = evaluatedAt[i];
      if (since < 0 || deps[i].some((l) => (changedAt.get(l) ?? -1) >= since)) { evaluatedAt[i] = step++; last[i] = range(f, value, limits, map, facts); }
      const prev = narrowed.get(local), r = last[i];
      narrowed.set(local, prev === undefined ? r : prev === null || r === null ? null : [Math.min(prev[0], r[0]), Math.max(prev[1], r[1])]);
    });
    for (const [l, r] of narrowed) {
      const was = map.get(l);
      if (was === undefined || (was === null) !== (r === null) || (was !== null && r !== null && (was[0] !== r[0] || was[1] !== r[1]))) changedAt.set(l, step++);
      map.set(l, r);
    }
  }
  return map;
}

/**
 * The locals whose initial value (0) a read may see: all but those first set by a statement S
 * (whose value does not read them) and mentioned nowhere but after S in S's block, which every
 * path to a mention then passes (`let k; if (c) k = 5; s[k - 1]` reads 0 where c fails).
 */
function initialValueSeen(f: Function): Set<number> {
  // One pre-order walk: each local's first and last mention, and the block its first one is in
  // (whose statements after it, with all they hold, are the walk's next indices up to its end).
  const first = new Map<number, { set: boolean; block: { end: number } }>();
  const last = new Map<number, number>();
  let at = 0;
  const note = (l: number | null, set: boolean, block: { end: number }): void => {
    if (l === null) return;
    if (!first.has(l)) first.set(l, { set, block });
    last.set(l, at);
  };
  const reads = (h: ExprHandle, block: { end: number }): void => {
    const e = f.exprs[h];
    if (e.k === "local") note(e.local, false, block);
    for (const o of exprOperands(e)) reads(o, block);
  };
  const walk = (b: Block): void => {
    const block = { end: 0 };
    for (const s of b) {
      // (A statement's operands are read before it writes: `k = k + 1` reads k first.)
      for (const h of stmtOperands(s)) reads(h, block);
      note(assignedLocal(s), s.k === "set", block);
      at++;
      childBlocks(s).forEach(walk);
    }
    block.end = at - 1;
  };
  walk(f.body);
  const out = new Set<number>();
  for (const [l, m] of first) if (!(m.set && last.get(l)! <= m.block.end) && !f.params.includes(l as never)) out.add(l);
  return out;
}

/**
 * An expression's range; under `facts`, narrowed where a fact bounds it or a part of it (`t + s`
 * under `t < s`: t <= s - 1, so t + s <= 2s - 1 — the reduction tree's index).
 */
function range(f: Function, h: ExprHandle, limits: Bounds, locals: Map<number, Range>, facts: readonly Fact[] = []): Range {
  const own = ownRange(f, h, limits, locals, facts);
  if (!facts.length) return own;
  const type = f.exprs[h].type;
  if (type !== T.i32 && type !== T.u32) return own;
  const unsigned = type === T.u32;
  let lo = own ? own[0] : unsigned ? 0 : I32_MIN, hi = own ? own[1] : unsigned ? U32_MAX : I32_MAX;
  const e = f.exprs[h];
  for (const x of facts) {
    if (x.unsigned !== unsigned) continue;
    const gap = x.strict ? 1 : 0;
    // (The other side's range without facts: one level of narrowing, no cycles between facts. An
    // other side of no known range is still a value of the type: under k < n, k <= I32_MAX - 1.)
    const any = x.unsigned ? ANY_U32 : ANY_I32;
    if (sameExpr(f, x.lhs, h)) hi = Math.min(hi, (range(f, x.rhs, limits, locals) ?? any)[1] - gap);
    if (sameExpr(f, x.rhs, h)) lo = Math.max(lo, (range(f, x.lhs, limits, locals) ?? any)[0] + gap);
    // (a − b under b <= a, or b < a: at least 0, or 1 — where it cannot wrap, its own range
    // fitting its type: then it is the difference of the integers, which the test orders.)
    if (own !== null && e.k === "op" && e.op === "sub" && sameExpr(f, x.lhs, e.args[1]) && sameExpr(f, x.rhs, e.args[0])) lo = Math.max(lo, gap);
  }
  if (lo > hi) return own;
  // (Ranges are values, never changed in place: an unchanged one is returned as it is.)
  return own !== null && lo === own[0] && hi === own[1] ? own : [lo, hi];
}

/** Every value of u32, and of i32. */
const ANY_U32: readonly [number, number] = [0, U32_MAX], ANY_I32: readonly [number, number] = [I32_MIN, I32_MAX];

/** The values a narrow array's element holds. */
const NARROW_RANGES = { u8: [0, 255], u8c: [0, 255], i8: [-128, 127], u16: [0, 65535], i16: [-32768, 32767] } as const;

/** An expression's range from its operands' (each under `facts`: range). */
function ownRange(f: Function, h: ExprHandle, limits: Bounds, locals: Map<number, Range>, facts: readonly Fact[]): Range {
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
      const a = f.exprs[e.array], t = a.type;
      if (a.k === "shared") return limits.sharedLengths[a.shared] ?? null;
      return t.kind === "array" && t.size !== null ? [t.size, t.size] : null;
    }
    case "convert": {
      const from = f.exprs[e.arg].type, a = range(f, e.arg, limits, locals, facts);
      if (a === null || (from !== T.i32 && from !== T.u32) || (e.type !== T.i32 && e.type !== T.u32)) return null;
      return a[0] >= 0 && a[1] <= I32_MAX ? a : null;
    }
    case "select": {
      const a = range(f, e.a, limits, locals, facts), b = range(f, e.b, limits, locals, facts);
      return a === null || b === null ? null : [Math.min(a[0], b[0]), Math.max(a[1], b[1])];
    }
    // An element of a narrow array: what its type holds (a histogram's bin from a byte).
    case "load": {
      const t = f.exprs[e.array].type;
      if (t.kind !== "array" || (e.type !== T.i32 && e.type !== T.u32)) return null;
      return NARROW_RANGES[t.elem as keyof typeof NARROW_RANGES] ?? null;
    }
    case "op": {
      if (e.type !== T.i32 && e.type !== T.u32) return null;
      const unsigned = e.type === T.u32;
      const a = range(f, e.args[0], limits, locals, facts), b = e.args.length > 1 ? range(f, e.args[1], limits, locals, facts) : null;
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

/**
 * A launch-time size's range (a dynamic shared array's length): blockDim is the launch's block,
 * exact under `exactThreads`, else 1 up to the largest; parameters are unknown. Arithmetic as in
 * evalSize (i32), none that could wrap.
 */
function sizeRange(e: SizeExpr, limits: LaunchLimits): Range {
  switch (e.k) {
    case "param": return null;
    case "const": return [e.value | 0, e.value | 0];
    case "blockDim": return limits.exactThreads ? [limits.exactThreads[e.axis], limits.exactThreads[e.axis]] : [1, limits.threads[e.axis]];
    case "select": {
      // Either arm (the comparison is not tracked).
      const a = sizeRange(e.a, limits), b = sizeRange(e.b, limits);
      return a === null || b === null ? null : [Math.min(a[0], b[0]), Math.max(a[1], b[1])];
    }
    case "op": {
      const a = sizeRange(e.args[0], limits), b = sizeRange(e.args[1], limits);
      if (a === null || b === null) return null;
      const fits = (lo: number, hi: number): Range => (lo >= I32_MIN && hi <= I32_MAX ? [lo, hi] : null);
      switch (e.op) {
        case "add": return fits(a[0] + b[0], a[1] + b[1]);
        case "sub": return fits(a[0] - b[1], a[1] - b[0]);
        case "mul": return a[0] >= 0 && b[0] >= 0 ? fits(a[0] * b[0], a[1] * b[1]) : null;
        case "div": return a[0] >= 0 && b[0] > 0 ? [Math.floor(a[0] / b[1]), Math.floor(a[1] / b[0])] : null;
        case "shr": return b[0] === b[1] && b[0] >= 0 && b[0] < 32 && a[0] >= 0 ? [Math.floor(a[0] / 2 ** b[0]), Math.floor(a[1] / 2 ** b[0])] : null;
        case "min": return [Math.min(a[0], b[0]), Math.min(a[1], b[1])];
        case "max": return [Math.max(a[0], b[0]), Math.max(a[1], b[1])];
        default: return null;
      }
    }
  }
}
