// Partial shuffles: where a target's shuffle gives an undefined value when the lane it reads does
// not take part (WGSL's subgroupShuffle from an inactive invocation), a shuffle that part of a
// subgroup may reach reads that lane's bit in a ballot of the lanes that reached it, and keeps the
// reader's own value where the bit is clear (the meaning of ir/module.ts SubgroupOp). One
// implementation for every such target (legal.ts `partialShuffles`), before legalize:
//
//     v' = v; n' = n                      (each operand evaluated once, in order)
//     act = ballot(true)                  (the lanes here, together)
//     r' = shuffle…(v', n')
//     src = the lane read: n' & (size - 1), lane + n', lane - n', lane ^ n'
//     r = (src >= 32 || ((act >>> src) & 1) != 0) ? r' : v'
//
// Only shuffles the analysis below cannot prove are reached by the whole subgroup are rewritten, so
// a kernel whose shuffles all are (every one outside divergent control flow, as in warp
// reductions) compiles as before.
//
// Why it is sound: the ballot is met by exactly the lanes that meet the shuffle (the statement just
// before it, in the same block: no branch between them), so bit j is set iff lane j takes part in
// the shuffle. Where the shuffle's own rule reads lane j (j in the subgroup), the select keeps r' iff
// lane j took part, else the reader's own value, as the meaning says; where the rule gives the
// reader's own value (j past the subgroup: r' is v' already), either side is v'. A u32 ballot names
// lanes 0-31 only: a lane past 31 (subgroups of 64) is taken as taking part, what the shuffle gave
// before. The proof that a shuffle is reached by the whole subgroup (then nothing changes):
//
//  - a value is the same for every lane of a subgroup (uniform) if it is a constant, a builtin
//    other than threadIdx and subgroupLaneId, an array's length, or a local whose every assignment
//    is of a uniform value where the whole subgroup is (a reduction's or vote's result is uniform;
//    a shuffle's, a call's, an atomic's and memory are not);
//  - the whole subgroup is at the kernel's start; inside an `if` or `switch` whose condition is
//    uniform; after an `if` or `switch` (its lanes meet again) unless a lane may leave through it
//    (a return, or a break or continue out of it) under a condition that is not uniform; inside a
//    loop entered by the whole subgroup whose exit test is uniform and out of which (or out of whose
//    iterations) no lane leaves under a condition that is not uniform; after a loop without returns.
//    A trap ends the launch with an error: it is not a way out here.
//  Locals start uniform and are dropped until nothing changes (a dropped local makes only more
//  code partial, which drops only more locals).

import type { Block, Expr, ExprHandle, Function, LocalHandle, Module, Stmt } from "../module.js";
import { exprOperands, threadVarying } from "../module.js";
import { leavesStmt, someStmt } from "../module-info.js";
import { T, type Scalar } from "../types.js";
import type { OpName } from "../ops.js";

/** How a target learns which lanes take part in a shuffle: "ballot" (a ballot of `true` met with it). */
export type PartialShuffles = "ballot";

type Subgroup = Extract<Stmt, { k: "subgroup" }>;

const isShuffle = (s: Stmt): s is Subgroup => s.k === "subgroup" && s.op.startsWith("shuffle");

/** Rewrite the kernel's shuffles that part of a subgroup may reach (subgroup operations appear only in kernels). */
export function guardPartialShuffles(m: Module, _policy: PartialShuffles): void {
  const f = m.functions[m.entry];
  if (!someStmt(f.body, isShuffle)) return;
  const whole = reachedByWholeSubgroup(f);
  const rewrite = (b: Block): Block => b.flatMap((s): Stmt[] => {
    switch (s.k) {
      case "if": return [{ ...s, then: rewrite(s.then), else: rewrite(s.else) }];
      case "loop": return [{ ...s, body: rewrite(s.body), continuing: rewrite(s.continuing) }];
      case "switch": return [{ ...s, cases: s.cases.map((c) => ({ ...c, body: rewrite(c.body) })) }];
      default: return isShuffle(s) && !whole.has(s) ? guarded(f, s) : [s];
    }
  });
  f.body = rewrite(f.body);
}

/** The shuffle, with the reader's own value where the lane it reads is not in a ballot taken with it. */
function guarded(f: Function, s: Subgroup): Stmt[] {
  const loc = s.loc;
  const add = (e: Expr): ExprHandle => { f.exprs.push(e); return (f.exprs.length - 1) as ExprHandle; };
  const local = (name: string, t: Scalar): LocalHandle => { f.locals.push({ name, type: T.scalar(t) }); return (f.locals.length - 1) as LocalHandle; };
  const read = (l: LocalHandle): ExprHandle => add({ k: "local", local: l, type: f.locals[l].type, loc: null });
  const u32 = (value: number): ExprHandle => add({ k: "const", value, type: T.u32, loc: null });
  const op = (name: OpName, args: ExprHandle[], t: Scalar): ExprHandle => add({ k: "op", op: name, args, type: T.scalar(t), loc: null });
  const builtin = (name: "subgroupLaneId" | "subgroupSize"): ExprHandle =>
    add({ k: "convert", arg: add({ k: "builtin", name, type: T.i32, loc: null }), type: T.u32, loc: null });
  const vt = (f.exprs[s.args[0]].type as { scalar: Scalar }).scalar;
  const v = local("sg_value", vt), n = local("sg_lane", "u32"), act = local("sg_active", "u32"), got = local("sg_read", vt);
  const src = {
    shuffle: () => op("and", [read(n), op("sub", [builtin("subgroupSize"), u32(1)], "u32")], "u32"),
    shuffleDown: () => op("add", [builtin("subgroupLaneId"), read(n)], "u32"),
    shuffleUp: () => op("sub", [builtin("subgroupLaneId"), read(n)], "u32"),
    shuffleXor: () => op("xor", [builtin("subgroupLaneId"), read(n)], "u32"),
  }[s.op as "shuffle"]();
  const srcLocal = local("sg_source", "u32");
  const inBallot = op("ne", [op("and", [op("shr", [read(act), read(srcLocal)], "u32"), u32(1)], "u32"), u32(0)], "bool");
  const taking = op("lor", [op("ge", [read(srcLocal), u32(32)], "bool"), inBallot], "bool");
  return [
    { k: "set", local: v, value: s.args[0], loc },
    { k: "set", local: n, value: s.args[1], loc },
    { k: "subgroup", op: "ballot", args: [add({ k: "const", value: true, type: T.bool, loc: null })], result: act, loc },
    { k: "subgroup", op: s.op, args: [read(v), read(n)], result: got, loc },
    { k: "set", local: srcLocal, value: src, loc },
    { k: "set", local: s.result, value: add({ k: "select", cond: taking, a: read(got), b: read(v), type: T.scalar(vt), loc: null }), loc },
  ];
}

/** The subgroup operations of a kernel that every lane of its subgroup provably reaches together (see the header). */
export function reachedByWholeSubgroup(f: Function): Set<Stmt> {
  const r = new Reach(f);
  do { r.changed = false; r.whole.clear(); r.block(f.body, true); } while (r.changed);
  return r.whole;
}

class Reach {
  readonly whole = new Set<Stmt>();
  changed = false;
  /** Locals not (yet) shown to differ between the lanes of a subgroup. */
  private readonly uniform = new Set<number>();
  /** While > 0, a trial walk: subgroup operations are not recorded (locals are still dropped: the trial is the more optimistic). */
  private dry = 0;
  /** Per enclosing loop: whether a lane may leave it, or an iteration, apart from the others; and the switches inside it. */
  private readonly loops: { partialExit: boolean; switches: number }[] = [];

  constructor(private readonly f: Function) {
    f.locals.forEach((l, i) => { if (l.type.kind === "scalar") this.uniform.add(i); });
  }

  private isUniform(h: ExprHandle): boolean {
    const e = this.f.exprs[h];
    switch (e.k) {
      case "builtin": return !threadVarying(e.name);
      case "local": return this.uniform.has(e.local);
      case "load": case "bitOffset": return false;
      case "length": return true;
      default: return exprOperands(e).every((o) => this.isUniform(o));
    }
  }

  private assign(local: number, uniformValue: boolean, whole: boolean): void {
    if (!(uniformValue && whole) && this.uniform.delete(local)) this.changed = true;
  }

  /** Walk a block entered by the whole subgroup or not; whether the lanes that entered it are all together at its end. */
  block(b: Block, whole: boolean): boolean {
    for (const s of b) whole = this.stmt(s, whole);
    return whole;
  }

  private stmt(s: Stmt, whole: boolean): boolean {
    switch (s.k) {
      case "set": this.assign(s.local, this.isUniform(s.value), whole); return whole;
      case "init": this.assign(s.local, false, whole); return whole;
      case "call": case "atomic": if (s.result !== null) this.assign(s.result, false, whole); return whole;
      case "subgroup":
        if (whole && this.dry === 0) this.whole.add(s);
        this.assign(s.result, !s.op.startsWith("shuffle"), whole);
        return whole;
      case "if": {
        const u = this.isUniform(s.cond);
        const t = this.block(s.then, whole && u), e = this.block(s.else, whole && u);
        return whole && (u ? t && e : !leavesStmt(s, true));
      }
      case "switch": {
        const u = this.isUniform(s.selector);
        for (const l of this.loops) l.switches++;
        let all = true;
        for (const c of s.cases) all = this.block(c.body, whole && u) && all;
        for (const l of this.loops) l.switches--;
        return whole && (u ? all : !leavesStmt(s, true));
      }
      case "loop": {
        let inside = whole && (s.breakIf === null || this.isUniform(s.breakIf));
        if (inside) {
          // A trial: does a lane leave the loop, or an iteration, apart from the others?
          this.dry++;
          inside = !this.loopBody(s, true);
          this.dry--;
        }
        this.loopBody(s, inside);
        return whole && !someStmt([s], (x) => x.k === "return");
      }
      case "break": case "continue": {
        const l = this.loops.at(-1);
        if (!whole && l && (s.k === "continue" || l.switches === 0)) l.partialExit = true;
        return whole;
      }
      case "return":
        if (!whole) for (const l of this.loops) l.partialExit = true;
        return whole;
      default: return whole;
    }
  }

  /** Walk a loop's body and continuing; whether a lane left it (or an iteration) apart from the others. */
  private loopBody(s: Extract<Stmt, { k: "loop" }>, whole: boolean): boolean {
    this.loops.push({ partialExit: false, switches: 0 });
    // (An iteration whose lanes are not all together leaves the next one partial: the body's end counts.)
    const end = this.block(s.body, whole);
    this.block(s.continuing, whole && end);
    const l = this.loops.pop()!;
    return l.partialExit || (whole && !end);
  }
}

