// Four threads at once: the four-lane form of a region group (wasm-regions.ts emits the regions).
//
// A region's threads run four at a time where they can (SIMD128, 32-bit lanes: threads x to
// x + 3 of one row of the block), and one at a time where they cannot: the four-lane form is
// tried at each thread (lanesTry, wasm-rows.ts), and gives way to the one-thread form for that
// thread when a condition for it does not hold at run time; a form in which nothing can give the
// threads back runs as a loop of its own over the row's fours instead (lanesLoop), or over each
// part of a row split where its conditions on the thread's index change (lanesSplit). Why the
// lanes leave what the threads one after another leave:
//  - Each lane computes what its thread computes: the same operations lane by lane (i32x4 and
//    f32x4 arithmetic is the scalar instructions' lane by lane; a bool is a lane mask, 0 or -1;
//    what SIMD lacks — integer division, Math's functions — the scalar instruction in each lane
//    in turn), a value the threads share computed once (uniformity.ts); nothing else is taken
//    (f64, calls, ToInt32: the group has no four-lane form).
//  - A loop runs its iterations for the four lanes together; it writes no memory (nor calls or
//    returns), so no lane reads in it what another wrote in it, whatever iteration each is in.
//    Where every way out of it is taken by all four lanes at once — its conditions of values
//    that are one in all four lanes (laneUniform: a counter from a constant by a constant to a
//    shared bound) — it is a plain loop; else the lanes still in it are a mask, each assignment
//    made in those only (the other lanes keep the values they left with), until none is left.
//  - Nothing is stored before every condition that could send the four threads back to one at a
//    time was evaluated: a check that fails in a lane that runs it, a test below that fails, an
//    `if` whose lanes disagree where it has no masked form, a thread that returned (they are
//    evaluated only before the first store; one after it: no four-lane form). Before its first
//    store the four-lane code changes nothing but its own locals, so the thread then runs as it
//    would have. A `select`'s sides and `&&`/`||`'s right side are evaluated in every lane, so
//    they may not load (an index another lane's condition guards).
//  - The statements run in order for all four lanes, not the four threads one after another:
//    the same only where no lane reads or writes an element another lane writes. Every access to
//    an array the group stores to is to four consecutive elements, lane i's the i-th (its index
//    threadIdx.x plus a value the threads share, or tested: lane i's index lane 0's plus i), or
//    a load of one element all four read (an index the threads share); two such accesses to one
//    array reach the same four elements or none of each other's (tested where their indices
//    differ: in one array the indices' difference 0 or four or more — one test for every array
//    the two indices reach —, in two parameters the byte addresses'; one element outside the
//    other's four).
//    Arrays that may be one another — the kernel's array parameters (views of one buffer) —
//    count as one array (their byte addresses compared); an array reached through a local that
//    is not a parameter (a view, a private array) bars every store. Each test is made once for an
//    index's value — its value number (`vn`): its form with each local's count of assignments,
//    so that two with one number have one value — on the path being emitted (an `if`'s sides
//    each add to a copy of what was tested before it, and a loop to a copy too: after either,
//    no statement may store to an array accessed inside it — keptAccesses). At the first store,
//    every later access and check whose index or condition the statements up to it do not change
//    is tested (a check evaluated in all four lanes: one that holds in none holds in none when it
//    comes, after the store); a test or check that would come after a store otherwise: no
//    four-lane form.
//  - An `if` whose lanes disagree runs both of its sides for all four lanes, each under a mask
//    of the lanes that take it (masked): a local assigned there keeps its old value in the other
//    lanes, a store writes their own elements back to them, a check raises only where its lane
//    is in the mask. Before the sides, every access in them whose index they do not assign is
//    tested as above, and also to lie inside its array in all four lanes (a lane outside the
//    mask may hold an index its condition guards, which must neither trap nor reach another
//    worker's memory) — or known to, from a bounds check of that index against that length
//    made in all four lanes: loads under a mask are only of such elements. (Not needed for a
//    shared array of fixed size, which has 16 unused bytes on each side, under the mask of a side
//    of an `if` outside any mask: one lane at least runs that side — laneIf tested so — and its
//    element lies inside the array, so the other lanes' lie at most three elements away: a v128
//    reads or writes back padding there, never another array's elements nor memory outside the
//    worker's fixed data. A mask inside a mask may hold no lane: tested.) An `if` on the thread's
//    index is masked so only where the group then has nothing that sends the threads back (it
//    runs as a loop of fours: lanesOf). Only shared memory
//    is stored under a mask: a block's shared arrays are its own, while an element a lane writes
//    back in global memory may be one another block writes at the same time — except the group's
//    one access to an array, a store through any index: lane by lane in lane order, only where
//    the lane runs (no other statement of the group touches that array, so only these stores'
//    order counts, and it is the threads').
//  - A test that fails sends the four threads back before any store: the four-lane form is a
//    way of running them, never a different answer. The fuzzers' barrier kernels (scripts/
//    fuzz.mjs, shared2) have the shapes each test is for, and races in thread order beside them.

import type { Block, ExprHandle, Stmt } from "../../ir/module.js";
import { exprOperands, stmtResult, walkStmts } from "../../ir/module.js";
import { isArray, type Scalar } from "../../ir/types.js";
import { V } from "./wasm-binary.js";
import { Refused, bytesOf } from "./wasm-function.js";
import type { Exchange } from "./region-tree.js";
import { LaneExprs, copyTests, type Lanes, type LaneTests } from "./wasm-lane-exprs.js";

/**
 * The statements vstmt has a four-lane form for (besides a subgroup operation's halves: Exchange):
 * its switch's cases, which reachesRefused reads from here. (Out of step either way the forms stay
 * right — a kind listed here and refused there, or there and not here, is refused — only slower.)
 */
const LANE_STMTS: ReadonlySet<Stmt["k"]> = new Set(["set", "store", "check", "if", "fence", "loop", "break", "continue"]);
/** What vloop refuses anywhere in a loop (nothing in a lanes loop writes memory, calls or returns). */
const LOOP_REFUSED: ReadonlySet<Stmt["k"]> = new Set(["store", "atomic", "call", "return", "trap", "subgroup", "switch"]);

/** The four-lane form of region groups: its statements and tests (its expressions and state: wasm-lane-exprs.ts). */
export abstract class LanesEmitter extends LaneExprs {
  /**
   * The four-lane form of a group (four threads from x, of the current row), kept aside, where
   * it has one: its code (the per-thread values loaded, the statements, the values stored back),
   * whether it has tests (laneAccess) and whether anything in it can send the threads back to one
   * at a time (`bails`: a test, a check, an `if` without a masked form). Emitted inside a `lanes`
   * block (placed by lanesLoop or lanesTry).
   */
  protected lanesOf(group: number, stmts: Stmt[]): LanesForm | null {
    // An `if` on the thread's index whose lanes disagree runs its sides under masks where then
    // nothing sends the threads back, so that the group runs as a loop of fours (scan.ts's
    // `t >= offset ? buf[t - offset] : 0`: its block pass 9.3 → 7.5–8.0 ms, before rows split);
    // elsewhere one thread at a time (four neighbours seldom disagree on such a condition, and the
    // masked code only slows a try at each thread), as also where the masked form has none.
    this.triedMaskIndex = false;
    const masked = this.lanesForm(group, stmts, true);
    if (!this.triedMaskIndex || (masked && (!masked.maskedIndex || (!masked.bails && !this.usesDone)))) return masked;
    return this.lanesForm(group, stmts, false) ?? masked;
  }

  /** Whether the last lanesForm tried to mask an `if` on the thread's index. */
  private triedMaskIndex = false;

  protected lanesForm(group: number, stmts: Stmt[], maskIndex: boolean, known: Map<Stmt, boolean> = new Map(), disjoint = false, tail?: () => void): LanesForm | null {
    if (this.reachesRefused(stmts, known)) return null;
    const assigned = new Set<number>();
    walkStmts(stmts, (st) => { if (st.k === "set") assigned.add(st.local); else if ((st.k === "call" || st.k === "atomic") && st.result !== null) assigned.add(st.result); else if (st.k === "subgroup") assigned.add(st.result); });
    const used = this.arraysUsed(stmts, assigned);
    if (used === null) return null;
    const { stores, sole } = used;
    const f = this.f;
    let tested = false, bails = false, maskedIndex = false, usedDisjoint = false;
    let invariant: Lanes["invariant"] = new Map();
    this.labels.push("lanes");
    const code = this.capture(() => {
      const v = new Map<number, number>();
      this.lanes = { v, stored: false, assigned, forms: new Map(), stores, versions: new Map(), mask: null, top: false, maskIndex, maskedIndex: false, known, disjoint, usedDisjoint: false, invariant: new Map(), rest: [], tested: false, bails: false, tests: { done: new Set(), base: new Map(), at: new Map(), accesses: new Map() }, lu: new Set(), divergent: new Set(), agree: new Set(), loops: [], sole };
      this.laneUniform(group, stmts);
      try {
        const inGroup = (l: number) => this.rt.groupsOf.get(l)?.has(group) ?? false;
        const cached: number[] = [];
        f.locals.forEach((loc, l) => {
          if (!inGroup(l) || f.params.includes(l as never) || l === f.stateParam || this.values.remat.has(l) || this.values.uniform.has(l)) return;
          if (isArray(loc.type) || loc.type.kind !== "scalar" || loc.type.scalar === "f64") throw new Refused("lanes: a local of this type");
          const vl = this.local(V.v128);
          v.set(l, vl);
          const at = this.perThread.get(l);
          if (at === undefined) { this.vconst(0, loc.type.scalar); this.set(vl); return; }
          cached.push(l);
          if (this.rt.defines.get(group)?.has(l)) return;
          // Lane i: thread t + i's value (a bool 0 or 1 becomes its mask).
          this.slotAddress(at, 4); this.simd("v128.load").u32(0).u32(0);
          if (loc.type.scalar === "bool") this.simd("i32x4.neg");
          this.set(vl);
        });
        this.vblock(stmts);
        tail?.();
        for (const l of cached) {
          if (!this.rt.writtenIn.get(group)?.has(l)) continue;
          this.slotAddress(this.perThread.get(l)!, 4); this.get(v.get(l)!);
          if ((f.locals[l].type as { scalar: Scalar }).scalar === "bool") this.simd("i32x4.neg");
          this.simd("v128.store").u32(0).u32(0);
        }
        ({ tested, bails, maskedIndex, invariant, usedDisjoint } = this.lanes);
      } finally { this.lanes = null; }
    });
    this.labels.pop();
    const prologue = code && this.capture(() => { for (const { local, emit } of invariant.values()) { emit(); this.set(local); } });
    return code && prologue && { code, prologue, tested, bails, maskedIndex, usedDisjoint };
  }

  /**
   * Whether a four-lane form of `stmts` (under `known`) reaches a statement that vstmt refuses
   * whatever the lanes hold: one of a kind it has no form for (a return, a call, a trap, an
   * atomic…), or a loop holding one of what vloop refuses in a loop. Asked before the form is
   * emitted, it gives the null that emitting it would give (a Refused that escapes its capture:
   * `attempt` catches one only to emit both sides of that `if` again, which reach it again) without
   * emitting the form up to that statement, where a group has one (a kernel's early return, a
   * helper called in a loop: a fifth of a compile to JS of bench/kernels.mjs's mandelbrot went to
   * forms refused so). It reaches what vblock emits: every statement of a block, both sides of an
   * `if` but the side of one `known` leaves out, a loop's body and continuing. With `known` null,
   * neither side of any `if`: what every form reaches, whatever it knows (wasm-rows.ts asks so
   * before it finds a row's conditions).
   */
  protected reachesRefused(stmts: Block, known: ReadonlyMap<Stmt, boolean> | null): boolean {
    for (const s of stmts) {
      if (this.rt.exchanges.has(s)) continue;
      if (!LANE_STMTS.has(s.k)) return true;
      if (s.k === "if") {
        if (known === null) continue;
        const side = known.get(s);
        if ((side !== false && this.reachesRefused(s.then, known)) || (side !== true && this.reachesRefused(s.else, known))) return true;
      } else if (s.k === "loop") {
        if (this.refusedInLoop(s)) return true;
        if (this.reachesRefused(s.body, known) || this.reachesRefused(s.continuing, known)) return true;
      }
    }
    return false;
  }

  /** Whether a loop holds what vloop refuses in one (nothing in a lanes loop writes memory, calls or returns). */
  private refusedInLoop(st: Extract<Stmt, { k: "loop" }>): boolean {
    let refused = false;
    walkStmts([st], (s) => { if (LOOP_REFUSED.has(s.k) || this.rt.exchanges.has(s)) refused = true; });
    return refused;
  }

  /**
   * The group's locals that hold one value in all four lanes wherever they are read (Lanes.lu),
   * and its loops whose lanes may leave at different iterations (Lanes.divergent): a local is so
   * where the group assigns it before any read (its value never flows in from the thread's own
   * storage), always from such values, never under a condition the lanes may disagree on nor in
   * a loop they may leave apart. From all such candidates, dropping those that break a rule until
   * none does (a loop counter `k` from 0 by 1 to a shared bound stays).
   */
  private laneUniform(group: number, stmts: Stmt[]): void {
    const ln = this.lanes!;
    const exposed = this.rt.exposed.get(group) ?? new Set<number>();
    ln.lu.clear();
    walkStmts(stmts, (s) => { if (s.k === "set" && !exposed.has(s.local) && !this.values.remat.has(s.local) && this.f.locals[s.local].type.kind === "scalar") ln.lu.add(s.local); });
    walkStmts(stmts, (s) => { const r = stmtResult(s); if (r !== null) ln.lu.delete(r); });
    for (let changed = true; changed;) {
      changed = false;
      ln.divergent.clear();
      ln.agree.clear();
      const drop = (l: number) => { if (ln.lu.delete(l)) changed = true; };
      /** Whether a break or continue of the loop `body` belongs to lies under a condition the lanes may disagree on. */
      const exitsApart = (b: Stmt[], apart: boolean): boolean => b.some((s) => {
        if (s.k === "break" || s.k === "continue") return apart;
        if (s.k === "if") return exitsApart(s.then, apart || !this.laneUni(s.cond)) || exitsApart(s.else, apart || !this.laneUni(s.cond));
        return false;
      });
      const visit = (b: Stmt[], apart: boolean): void => {
        for (const s of b) {
          if (s.k === "set" && (apart || !this.laneUni(s.value))) drop(s.local);
          // (`let k;` zeroes k: the same in all four lanes unless they may disagree there.)
          else if (s.k === "init" && apart) drop(s.local);
          else if (s.k === "if") {
            // (An if the lanes may disagree on whose sides assign such a local or hold a loop runs
            // unmasked — the four threads one at a time where they disagree —, so that in a side
            // all four lanes took it; else it may be masked, and its sides are apart.)
            let a = apart;
            if (!this.laneUni(s.cond)) {
              let holds = false;
              walkStmts([...s.then, ...s.else], (x) => { if (x.k === "loop" || (x.k === "set" && ln.lu.has(x.local))) holds = true; });
              if (holds && !apart) ln.agree.add(s); else a = true;
            }
            visit(s.then, a); visit(s.else, a);
          }
          else if (s.k === "loop") {
            const a = apart || exitsApart(s.body, false) || exitsApart(s.continuing, false) || (s.breakIf !== null && !this.laneUni(s.breakIf));
            if (a) ln.divergent.add(s);
            visit(s.body, a); visit(s.continuing, a);
          } else if (s.k === "switch") for (const c of s.cases) visit(c.body, true);
        }
      };
      visit(stmts, false);
    }
  }

  /**
   * A loop in the four lanes (nothing in it writes memory, calls or returns: the lanes then read
   * nothing another lane wrote in it, whichever iteration each is in). Where every way out is
   * taken by all four lanes at once (laneUniform), a plain loop; else under masks: `lm` the lanes
   * still in it, `cm` those in this iteration (a `continue` leaves it), each assignment made in
   * those only; it ends when no lane is left. The locals it assigns have new values in it and
   * after it (their forms dropped, their value numbers new); what it tests counts in it only (it
   * may run no iteration).
   */
  private vloop(st: Extract<Stmt, { k: "loop" }>): void {
    const ln = this.lanes!;
    walkStmts([st], (s) => { if (LOOP_REFUSED.has(s.k) || this.rt.exchanges.has(s)) throw new Refused(`lanes: a ${s.k} in a loop`); });
    const changes = () => walkStmts([st], (s) => { if (s.k === "set") { this.forget(s.local); ln.versions.set(s.local, (ln.versions.get(s.local) ?? 0) + 1); } });
    changes();
    const tests = copyTests(ln.tests), outer = ln.mask, top = ln.top;
    const masked = ln.divergent.has(st) || outer !== null;
    const lm = this.local(V.v128), cm = this.local(V.v128);
    if (masked) { if (outer !== null) this.get(outer); else { this.i32(-1); this.simd("i32x4.splat"); } this.set(lm); }
    ln.loops.push({ masked, lm, cm });
    this.open("block", "vbreak"); this.open("loop", "vloop");
    if (masked) { this.get(lm); this.set(cm); ln.mask = cm; ln.top = false; }
    this.open("block", "vcontinue");
    this.vblock(st.body);
    this.close();
    if (masked) ln.mask = lm;
    this.vblock(st.continuing);
    if (st.breakIf !== null) {
      if (masked) { this.get(lm); this.vexpr(st.breakIf); this.simd("v128.andnot"); this.set(lm); }
      else { this.scalarCond(st.breakIf); this.op("br_if").u32(this.depth("vbreak")); }
    }
    if (masked) { this.get(lm); this.simd("v128.any_true"); this.op("br_if").u32(this.depth("vloop")); }
    else this.op("br").u32(this.depth("vloop"));
    this.close(); this.close();
    ln.loops.pop();
    const inner = ln.tests;
    ln.mask = outer; ln.top = top; ln.tests = tests;
    this.keptAccesses(tests, [inner]);
    changes();
  }

  /**
   * After an `if` or a loop, whose accesses the tests forget (its sides' tests hold on their own
   * paths only; a loop may run no iteration): no later statement of the group may store to an
   * array one of them accessed — that store would be tested against none of them (a thread's
   * `v = s[0]` in a side, then `s[t] = …`: thread 1 reads what thread 0 stored, the lanes would
   * not), so such a group has no four-lane form.
   */
  private keptAccesses(before: LaneTests, inner: LaneTests[]): void {
    const ln = this.lanes!;
    const seen: { k: string; va: string }[] = [];
    for (const t of inner) for (const [k, list] of t.accesses) for (const a of list.slice(before.accesses.get(k)?.length ?? 0)) seen.push({ k, va: a.va });
    if (!seen.length) return;
    walkStmts(ln.rest.flat(), (s) => {
      if (s.k !== "store" && s.k !== "atomic") return;
      const k = this.arrayKey(s.array, ln.assigned), va = this.vn(s.array);
      for (const a of seen) {
        if (a.k !== k) continue;
        // (Two parameters a split row found apart in memory: not one array.)
        if (k === "p" && ln.disjoint && va !== null && va !== a.va) { ln.usedDisjoint = true; continue; }
        throw new Refused("lanes: a store after an if or loop that accessed its array");
      }
    });
  }

  /** Half of a subgroup operation in the four lanes (the region emitter's, where it has one). */
  protected laneExchange(_x: Exchange): void { throw new Refused("lanes: a subgroup operation"); }

  /** The v128 local of the group's local `l` in the form being emitted. */
  protected laneLocal(l: number): number {
    const vl = this.lanes!.v.get(l);
    if (vl === undefined) throw new Refused("lanes: a local outside the group");
    return vl;
  }

  /** Where the four-lane form lets the threads run one at a time (`br_if` out of it). */
  private bail(): void {
    this.lanes!.bails = true;
    this.op("br_if").u32(this.depth("lanes"));
  }

  private vstmt(st: Stmt): void {
    const ln = this.lanes!;
    const x = this.rt.exchanges.get(st);
    if (x) {
      if (ln.mask !== null) throw new Refused("lanes: a subgroup operation under a mask");
      return this.laneExchange(x);
    }
    switch (st.k) {
      case "set": {
        if (this.values.remat.has(st.local)) return;
        const vl = ln.v.get(st.local);
        if (vl === undefined) throw new Refused("lanes: a local the threads share");
        this.vexpr(st.value);
        if (ln.mask !== null) { this.get(vl); this.get(ln.mask); this.simd("v128.bitselect"); }
        this.set(vl);
        // Its value's form, where it is threadIdx.x plus a shared value (see xSteps); none for those
        // that read it. (Under a mask, the form of its value in the lanes that run, which are those
        // whose accesses count: it holds until the side ends — see maskedSides.)
        const form = this.xSteps(st.value) === 1 && !this.reads(st.value, st.local) ? st.value : null;
        this.forget(st.local);
        ln.versions.set(st.local, (ln.versions.get(st.local) ?? 0) + 1);
        if (form !== null) ln.forms.set(st.local, form);
        return;
      }
      case "store": {
        const a = this.arrayOf(st.array);
        if (bytesOf(a.elem) !== 4) throw new Refused("lanes: a narrow array");
        if (this.xSteps(st.index) !== 1 && ln.sole.has(this.arrayKey(st.array, ln.assigned))) {
          // The group's one access to its array (a warp's `if (lane === 0) partials[warp] = v`):
          // lane by lane in lane order, each where its lane runs — no other statement of the group
          // reads or writes that array, so only these stores' order counts, and it is the threads'.
          const idx = this.local(V.v128), val = this.local(V.v128), fl = a.elem === "f32";
          this.vexpr(st.index); this.set(idx); this.vexpr(st.value); this.set(val);
          for (let k = 0; k < 4; k++) {
            if (ln.mask !== null) { this.get(ln.mask); this.simd("i32x4.extract_lane").byte(k); this.open("if", "other"); }
            a.ptr(); this.get(idx); this.simd("i32x4.extract_lane").byte(k); this.i32(2); this.op("i32.shl"); this.op("i32.add");
            this.get(val); this.simd(fl ? "f32x4.extract_lane" : "i32x4.extract_lane").byte(k);
            this.op(fl ? "f32.store" : "i32.store").u32(2).u32(0);
            if (ln.mask !== null) this.close();
          }
          ln.stored = true;
          return;
        }
        if (ln.mask !== null && this.f.exprs[st.array].k !== "shared") throw new Refused("lanes: a store under a condition the lanes disagree on, outside shared memory");
        const { at } = this.laneAccess(st.array, st.index, ln.mask !== null, true);
        this.get(at); this.vexpr(st.value);
        // (Under a mask: the other lanes' elements as they are.)
        if (ln.mask !== null) { this.get(at); this.simd("v128.load").u32(0).u32(0); this.get(ln.mask); this.simd("v128.bitselect"); }
        this.simd("v128.store").u32(0).u32(0);
        ln.stored = true;
        return;
      }
      case "check": {
        if (st.cond === null) throw new Refused("lanes: a check that always raises");
        // (Known to hold in none of the four lanes: a part of a split row.)
        if (ln.known.get(st) === false) return;
        // (One whose condition has the value of one checked before in all four lanes: it holds in none.)
        const vc = this.vn(st.cond), name = `k${vc}`;
        if (vc !== null && ln.tests.done.has(name)) return;
        if (ln.stored) throw new Refused("lanes: a check after a store");
        // Any lane that would raise: its thread runs alone, and raises there.
        this.vexpr(st.cond);
        if (ln.mask !== null) { this.get(ln.mask); this.simd("v128.and"); }
        this.simd("v128.any_true"); this.bail();
        if (vc !== null && ln.mask === null) this.checked(st, vc);
        return;
      }
      case "if": {
        const known = ln.known.get(st);
        if (known !== undefined) return this.block(known ? st.then : st.else);
        if (ln.mask !== null) {
          const c = this.local(V.v128);
          this.vexpr(st.cond); this.set(c);
          return this.maskedSides(st, c);
        }
        // Where the lanes disagree: both sides under masks, or (where that form is refused, or the
        // condition is one of the thread's index and shared values, on which four neighbours
        // seldom disagree: the masked code would only slow the loop) one thread at a time.
        if (this.values.isUniform(st.cond) || this.laneUni(st.cond) || ln.agree.has(st)) return this.laneIf(st, false);
        const saved = { stored: ln.stored, forms: new Map(ln.forms), tests: copyTests(ln.tests) };
        const onData = this.onData(st.cond);
        if (!onData && ln.maskIndex) this.triedMaskIndex = true;
        if ((onData || ln.maskIndex) && this.attempt(() => this.laneIf(st, true))) { if (!onData) ln.maskedIndex = true; return; }
        ln.stored = saved.stored; ln.forms = saved.forms; ln.tests = saved.tests;
        return this.laneIf(st, false);
      }
      case "fence": return;
      case "loop": return this.vloop(st);
      case "break": case "continue": {
        const lp = ln.loops.at(-1);
        if (!lp) throw new Refused(`lanes: a ${st.k} out of the group's loop`);
        if (!lp.masked) { this.op("br").u32(this.depth(st.k === "break" ? "vbreak" : "vcontinue")); return; }
        // (The lanes running it leave the loop, or this iteration: its masks lose them.)
        const m = ln.mask!;
        for (const x of st.k === "break" ? [lp.lm, lp.cm] : [lp.cm]) { this.get(x); this.get(m); this.simd("v128.andnot"); this.set(x); }
        return;
      }
      // (The cases above are LANE_STMTS: a new one goes there too, or reachesRefused refuses it first.)
      default: throw new Refused(`lanes: a ${st.k}`);
    }
  }

  /**
   * An `if` outside a mask: its then-side where all four lanes take it, its else-side where none
   * does, and where they disagree both sides masked (`masked`) or the threads one at a time.
   */
  private laneIf(st: Extract<Stmt, { k: "if" }>, masked: boolean): void {
    const ln = this.lanes!;
    // (A condition the threads share, or all four lanes: they never disagree, also after a store.)
    const uniform = this.values.isUniform(st.cond) || this.laneUni(st.cond);
    if (!masked && !uniform && ln.stored) throw new Refused("lanes: an if after a store");
    const m = this.local(V.v128);
    if (!uniform) { this.vexpr(st.cond); this.set(m); }
    const before = { stored: ln.stored, forms: ln.forms, tests: ln.tests };
    const enter = () => { ln.stored = before.stored; ln.forms = new Map(before.forms); ln.tests = copyTests(before.tests); };
    let stored = false;
    const inner: LaneTests[] = [];
    const side = (b: Block) => { enter(); this.block(b); stored ||= ln.stored; inner.push(ln.tests); };
    if (uniform) this.scalarCond(st.cond); else { this.get(m); this.simd("i32x4.all_true"); }
    this.open("if", "other");
    side(st.then);
    this.op("else");
    if (uniform) side(st.else);
    else if (masked) {
      this.get(m); this.simd("v128.any_true");
      this.open("if", "other");
      enter(); this.maskedSides(st, m); stored ||= ln.stored; inner.push(ln.tests);
      this.op("else");
      side(st.else);
      this.close();
    } else {
      // (Lanes that disagree: their threads run one at a time.)
      this.get(m); this.simd("v128.any_true"); this.bail();
      side(st.else);
    }
    this.close();
    // (After it: what was tested before it, and no form of a local either side assigns.)
    ln.stored = stored; ln.forms = before.forms; ln.tests = before.tests;
    this.keptAccesses(before.tests, inner);
    walkStmts([st], (s) => { if (s.k === "set") this.forget(s.local); });
  }

  /** Both sides of `if` `st` for the lanes running (all four outside a mask): the then-side where mask `c` holds, the else-side where it does not. */
  private maskedSides(st: Extract<Stmt, { k: "if" }>, c: number): void {
    const ln = this.lanes!, outer = ln.mask, top = ln.top;
    if (outer === null) this.testAccesses([st], true, undefined, true);
    const mt = this.local(V.v128), me = this.local(V.v128);
    this.get(c); if (outer !== null) { this.get(outer); this.simd("v128.and"); } this.set(mt);
    if (outer !== null) { this.get(outer); this.get(c); this.simd("v128.andnot"); } else { this.get(c); this.simd("v128.not"); }
    this.set(me);
    const forms = ln.forms;
    try {
      ln.top = outer === null;
      ln.mask = mt; ln.forms = new Map(forms); this.block(st.then);
      ln.mask = me; ln.forms = new Map(forms); this.block(st.else);
    } finally { ln.mask = outer; ln.top = top; ln.forms = forms; }
    // (After it, a local either side assigns holds the lanes' values of both: no form.)
    walkStmts([st], (s) => { if (s.k === "set") this.forget(s.local); });
  }

  /** Whether an expression keeps its value through `stmts`: it reads no local they assign (a rematerialized one keeps its value everywhere). */
  private stableIn(stmts: Stmt[]): (h: ExprHandle) => boolean {
    const changed: number[] = [];
    walkStmts(stmts, (s) => { if (s.k === "set" && !this.values.remat.has(s.local)) changed.push(s.local); });
    return (h) => !changed.some((l) => this.reads(h, l));
  }

  /**
   * Evaluate now, in all four lanes, every check in `stmts` whose condition they do not change
   * (it does not load, nor read a local they assign): where one would raise in any lane, the
   * threads run one at a time (where it raises, and in the order it raises there); else it is
   * known not to raise when it comes, after a store.
   */
  private testChecks(stmts: Stmt[], stable = this.stableIn(stmts)): void {
    const T = this.lanes!.tests;
    walkStmts(stmts, (s) => {
      if (s.k !== "check" || s.cond === null || !stable(s.cond)) return;
      const vc = this.vn(s.cond);
      if (vc === null || T.done.has(`k${vc}`)) return;
      this.vexpr(s.cond); this.simd("v128.any_true"); this.bail();
      this.checked(s, vc);
    });
  }

  /**
   * Check `st` (condition value number `vc`) was made in all four lanes and holds in none: it
   * need not be made again, and a bounds check's index is inside its array (laneAccess's `b` test).
   */
  private checked(st: Extract<Stmt, { k: "check" }>, vc: string): void {
    const T = this.lanes!.tests;
    T.done.add(`k${vc}`);
    const i = this.vn(st.a), n = this.vn(st.b);
    if (st.kind === "bounds" && i !== null && n !== null) T.done.add(`b${i} ${n}`);
  }

  /**
   * Test now every access in `stmts` whose array and index they do not assign (see the top of
   * this file): to an array the group stores to, or any (and inside its array) where `inside`.
   */
  private testAccesses(stmts: Stmt[], inside: boolean, stable = this.stableIn(stmts), sides = false): void {
    const ln = this.lanes!;
    // (`sides`: `stmts` is an `if` whose sides run under the masks of its lanes, one lane at least
    // in each: an access of its own or its sides' statements may lie in a padded array's padding.)
    const nested = new Set<Stmt>();
    if (sides) for (const st of stmts) if (st.k === "if") walkStmts([...st.then, ...st.else], (s) => { if (s.k === "if") walkStmts([...s.then, ...s.else], (x) => nested.add(x)); });
    let top = false;
    const access = (a: ExprHandle, i: ExprHandle, store: boolean) => {
      if (!stable(a) || !stable(i) || this.vn(i) === null || this.vn(a) === null) return;
      // (The group's one access to an array, stored lane by lane: nothing to test it against.)
      if (store && this.xSteps(i) !== 1 && ln.sole.has(this.arrayKey(a, ln.assigned))) return;
      if (inside || ln.stores.has(this.arrayKey(a, ln.assigned))) this.laneAccess(a, i, inside, store, top);
    };
    const visit = (h: ExprHandle) => {
      if (this.values.isUniform(h)) return;
      const e = this.f.exprs[h];
      if (e.k === "load") access(e.array, e.index, false);
      if (e.k === "local") { const d = this.values.remat.get(e.local); if (d !== undefined) visit(d); }
      for (const o of exprOperands(e)) visit(o);
    };
    walkStmts(stmts, (s) => {
      top = sides && !nested.has(s);
      if (s.k === "store") { access(s.array, s.index, true); visit(s.index); visit(s.value); }
      else if (s.k === "set") visit(s.value);
      else if (s.k === "if") visit(s.cond);
      else if (s.k === "check" && s.cond !== null) visit(s.cond);
    });
  }

  /**
   * Element `index` of `array` for the four lanes, tested as the top of this file says: the i32
   * local holding lane 0's byte address, lane i's the i-th element after it — or, where the index
   * is one the lanes share (`one`), every lane's (a load only). Tested: consecutive; apart from the
   * group's other accesses to an array it stores to; inside the array where `inside`.
   */
  protected laneAccess(array: ExprHandle, index: ExprHandle, inside: boolean, store: boolean, top = this.lanes!.top): { at: number; one: boolean } {
    const ln = this.lanes!, T = ln.tests;
    const vi = this.vn(index), va = this.vn(array);
    if (vi === null || va === null) throw new Refused("lanes: an index that loads");
    const one = this.xSteps(index) === 0;
    if (one && store) throw new Refused("lanes: a store through an index the lanes share");
    const a = this.arrayOf(array);
    const test = (name: string, emit: () => void) => {
      if (T.done.has(name)) return;
      if (ln.stored) throw new Refused("lanes: a test after a store");
      emit();
      ln.tested = true;
      this.bail();
      T.done.add(name);
    };
    // Lane 0's index; the others' lane 0's plus 1, 2, 3 (or the same).
    let base = T.base.get(vi);
    if (base === undefined) {
      const b = this.local(V.i32);
      const steps = this.xSteps(index);
      if (steps === 1 || steps === 0) { this.xScalar(index); this.set(b); }
      else {
        const idx = this.local(V.v128);
        this.vexpr(index); this.set(idx);
        this.get(idx); this.simd("i32x4.extract_lane").byte(0); this.set(b);
        test(`c${vi}`, () => { this.get(idx); this.get(b); this.laneSteps(); this.simd("i32x4.eq"); this.simd("i32x4.all_true"); this.op("i32.eqz"); });
      }
      T.base.set(vi, (base = b));
    }
    const key = `${va}[${vi}]`;
    let at = T.at.get(key);
    if (at === undefined) {
      at = this.local(V.i32);
      a.ptr(); this.get(base); this.i32(2); this.op("i32.shl"); this.op("i32.add"); this.set(at);
      T.at.set(key, at);
    }
    // (Inside the array: also known from a bounds check of this index against its length, made in
    // all four lanes. Or not needed: under a mask with one lane at least, whose access is inside
    // the array, the others' lie at most three elements from it — in a padded array's padding.)
    if (inside && !(top && this.padded(array))) {
      test(`b${vi} ${this.lengthVn(array)}`, () => {
        this.get(base); a.len(); this.op("i32.ge_u");
        if (!one) { this.get(base); this.i32(3); this.op("i32.add"); a.len(); this.op("i32.ge_u"); this.op("i32.or"); }
      });
    }
    const k = this.arrayKey(array, ln.assigned);
    if (ln.stores.has(k)) {
      const seen = T.accesses.get(k) ?? [];
      if (!seen.some((x) => x.key === key)) {
        for (const other of seen) {
          // (Two loads of one element each: nothing to test.)
          if (one && other.one) continue;
          // In one array, the indices' difference d (one test for every array they index);
          // in two (parameters: views of one buffer, maybe), the byte addresses'.
          const same = other.va === va, unit = same ? 1 : 4;
          // (Two parameters whose memory the row has tested apart: splitLoop.)
          if (!same && ln.disjoint) { ln.usedDisjoint = true; continue; }
          test(same ? `d${[vi, other.vi].sort().join(" ")}` : `o${key} ${other.key}`, () => {
            const d = this.temp(V.i32), x = same ? base! : at!, y = same ? T.base.get(other.vi)! : T.at.get(other.key)!;
            if (one || other.one) {
              // (One element at x, four from y: apart where x - y, unsigned, is four elements or more.)
              if (one) { this.get(x); this.get(y); } else { this.get(y); this.get(x); }
              this.op("i32.sub"); this.i32(4 * unit); this.op("i32.lt_u");
            } else {
              // (Four and four: d is 0, or |d| is four elements or more.)
              this.get(x); this.get(y); this.op("i32.sub"); this.set(d);
              this.get(d); this.i32(3 * unit); this.op("i32.add"); this.i32(7 * unit); this.op("i32.lt_u");
              this.get(d); this.i32(0); this.op("i32.ne"); this.op("i32.and");
            }
            this.release(V.i32, d);
          });
        }
        T.accesses.set(k, [...seen, { key, one, va, vi }]);
      }
    }
    return { at: at!, one };
  }

  /** Whether `array` is a shared array with a fixed place, its 16 bytes before and after unused (wasm.ts, ModuleEmitter). */
  private padded(array: ExprHandle): boolean {
    const e = this.f.exprs[array];
    return e.k === "shared" && !this.mod.layout.dynamicShared[e.shared];
  }

  /** Its block's statements in the four-lane form (while one is emitted). */
  protected override block(b: Block): void {
    if (!this.lanes) return super.block(b);
    this.vblock(b);
  }

  /**
   * Statements in the four-lane form, in order. Before the first store, the accesses to arrays
   * the group stores to from there on (in these statements and after them in the enclosing
   * blocks, `rest`) whose array and index none of them assigns are tested, and the checks whose
   * condition none of them changes evaluated (see the top of this file).
   */
  private vblock(b: Stmt[]): void {
    const ln = this.lanes!;
    b.forEach((st, i) => {
      ln.rest.push(b.slice(i + 1));
      try {
        if (st.k === "store" && !ln.stored) { const rest = [st, ...ln.rest.flat()], stable = this.stableIn(rest); this.testAccesses(rest, false, stable); this.testChecks(rest, stable); }
        this.vstmt(st);
      } finally { ln.rest.pop(); }
    });
  }

}

/** What the four-lane form of a group (wasm-regions.ts, four threads at once) is emitting. */
/** A group's four-lane form: `prologue` before the row's threads (its invariant values), `code` for four of them. */
export type LanesForm = { code: { bytes: Uint8Array; relocs: number[] }; prologue: { bytes: Uint8Array; relocs: number[] }; tested: boolean; bails: boolean; maskedIndex: boolean; usedDisjoint: boolean };