// A kernel with barriers on the JS target's WebAssembly path: the per-block function runs its
// body split at the barriers into regions, each a loop over the block's threads, exactly as the
// JavaScript does (regions.ts; its top says what a region is and why): the same region tree, the
// same uniform values (uniformity.ts: evaluated once per block, kept across blocks), the same
// locals kept per thread (used in two regions, or read before assigned in a region inside a loop
// with a barrier), the same threads skipped (those that returned), the same conditions checked
// for agreement in thread order (`divergent`, the loader's, throws at the first thread that
// disagrees), the same end of the block when no thread runs a condition any more.
//
// Per-thread values live in linear memory, 4 bytes a thread (8 for an f64; 1,024 threads, the most a block has),
// loaded into locals at the start of each thread of a region that uses them and stored back at its
// end where the region assigns them; per-thread private arrays likewise, one slice a thread.
// Subgroup operations are regions.ts's too: each one's operands left in per-thread exchange
// storage at the end of one region, the lanes of the thread's subgroup read at the start of the
// next (a reduction combined once per subgroup, in lane order); control flow holding them but no
// barrier run once per subgroup, over the lanes of a mask of those still active (a local: lane i
// its bit i), an `if` that the lanes disagree on running its sides for the lanes of each, a loop
// until none of its lanes goes on.

import type { Block, Expr, ExprHandle, Loc, Stmt } from "../../ir/module.js";
import { exprOperands, walkStmts } from "../../ir/module.js";
import { isArray, type Elem, type Scalar, type Type } from "../../ir/types.js";
import { SIMD, V, type Op, type SimdOp } from "./wasm-binary.js";
import { BLOCK_THREADS, FC_FILL, FunctionEmitter, Refused, bytesOf, scalarOf, valType, type Static } from "./wasm-function.js";
import { analyzeValues, type ValueAnalysis } from "./uniformity.js";
import { RegionTree, type Exchange, type Region } from "./region-tree.js";
import { hasReturn } from "./function.js";

export class RegionKernelEmitter extends FunctionEmitter {
  private rt!: RegionTree;
  /** Locals kept per thread: where their storage starts. */
  private perThread = new Map<number, Static>();
  private values!: ValueAnalysis;
  private usesDone = false;
  private doneAt!: Static;
  private t = 0;
  private nt = 0;
  /**
   * Inside control flow that runs per subgroup (`sgb` its first thread): the mask locals that
   * enclose the code being emitted, outermost first (the last is the current one).
   */
  private masks: number[] = [];
  private sgb = -1;
  /** For each enclosing region loop: where its lanes' mask is in `masks` (-1: a loop of the block). */
  private loopMasks: number[] = [];
  /** Each subgroup operation's exchange storage (values, and lane operands), by its number. */
  private exchangeAt = new Map<number, { xv: Static; xl: Static | null }>();
  /** A reduction's subgroup combined last and its result, by the operation's number. */
  private reduced = new Map<number, { xk: number; xr: number }>();

  /** The block: its regions in order, between the uniform values loaded and stored back. */
  protected override threads(): void {
    const f = this.f;
    const rt = (this.rt = new RegionTree(f));
    const tree = rt.regions(f.body, false, null);
    this.values = analyzeValues(f, rt.groupStatements(tree), rt.perSubgroup);
    // Each subgroup operation's values (8 bytes a thread) and lane operands (4), allocated per
    // launch in the JavaScript: zeroed per launch.
    for (const { s: x, n, half } of rt.exchanges.values()) {
      if (half === "publish") this.exchangeAt.set(n, { xv: this.mod.reserve(BLOCK_THREADS * 8, true), xl: x.args.length > 1 ? this.mod.reserve(BLOCK_THREADS * 4, true) : null });
    }
    this.usesDone = hasReturn(f.body);
    for (const l of rt.perThreadLocals(this.values)) {
      const t = f.locals[l].type;
      // (A scalar's slots side by side, 4 or 8 bytes each: four threads' 32-bit values are one v128.)
      this.perThread.set(l, this.mod.reserve(BLOCK_THREADS * (isArray(t) ? (t.size ?? 0) * bytesOf(t.elem) : slotBytes(t)), true));
    }
    // Uniform locals are the block's (the JavaScript's `let` around its blocks: they keep their
    // values from one block to the next, zero at the launch's start).
    const uniform = [...this.values.uniform];
    const saved = this.mod.reserve(uniform.length * 8, true);
    this.doneAt = this.mod.reserve(BLOCK_THREADS, false);
    this.t = this.local(V.i32);
    this.nt = this.local(V.i32);
    const dim = (b: "blockDim.x" | "blockDim.y" | "blockDim.z") => this.get(this.builtinSlots.get(b)!);
    dim("blockDim.x"); dim("blockDim.y"); this.op("i32.mul"); dim("blockDim.z"); this.op("i32.mul"); this.set(this.nt);
    const each = (store: boolean) => uniform.forEach((l, i) => {
      const vt = valType(scalarOf(f.locals[l].type));
      const [load, save] = vt === V.f32 ? ["f32.load", "f32.store"] as const : vt === V.f64 ? ["f64.load", "f64.store"] as const : ["i32.load", "i32.store"] as const;
      this.addr(saved, i * 8);
      if (store) { this.get(this.slots[l] as number); this.op(save).u32(0).u32(0); }
      else { this.op(load).u32(0).u32(0); this.set(this.slots[l] as number); }
    });
    each(false);
    if (this.usesDone) { this.addr(this.doneAt); this.i32(0); this.get(this.nt); FC_FILL(this.c); }
    this.open("block", "block");
    this.emitRegions(tree);
    this.close();
    each(true);
  }

  // ---- emission ------------------------------------------------------------------------------

  protected override kernelReturn(): void {
    this.addr(this.doneAt); this.get(this.t); this.op("i32.add"); this.i32(1); this.op("i32.store8").u32(0).u32(0);
    // (Per subgroup: the lane leaves every active mask around it, so no later region, loop test or exchange counts it.)
    for (const m of this.masks) { this.get(m); this.laneBit(); this.i32(-1); this.op("i32.xor"); this.op("i32.and"); this.set(m); }
    this.op("br").u32(this.depth("thread"));
  }

  /** `1 << (t - sgb)`: this thread's bit in its subgroup's masks. */
  private laneBit(): void { this.i32(1); this.get(this.t); this.get(this.sgb); this.op("i32.sub"); this.op("i32.shl"); }

  protected override rematerialized(l: number): boolean { return this.values.remat.has(l); }

  /** A rematerialized local is its definition, where it is read; its one assignment is not emitted. */
  protected override readLocal(l: number): void {
    const def = this.values.remat.get(l);
    if (def !== undefined) this.expr(def); else super.readLocal(l);
  }

  protected override stmt(s: Stmt): void {
    if (s.k === "set" && this.values.remat.has(s.local)) return;
    const x = this.rt.exchanges.get(s);
    if (x) return this.exchange(x);
    super.stmt(s);
  }

  private reduction(x: Exchange): { xk: number; xr: number } {
    let r = this.reduced.get(x.n);
    if (!r) this.reduced.set(x.n, (r = { xk: this.local(V.i32), xr: this.local(valType(scalarOf(this.f.locals[x.s.result].type))) }));
    return r;
  }

  /**
   * One half of a subgroup operation: publish leaves this thread's operands in the exchange
   * storage; collect reads the lanes of its subgroup (b its first thread, n its lanes, l this
   * thread's lane). A lane that returned early, or is not in the current mask, takes no part.
   */
  private exchange(x: Exchange): void {
    const { s, n } = x;
    const at = this.exchangeAt.get(n)!;
    if (x.half === "publish") {
      const t = scalarOf(this.f.exprs[s.args[0]].type);
      this.slotAddress(at.xv, 8); this.expr(s.args[0]); this.op(perThreadOps(t)[1]).u32(0).u32(0);
      if (at.xl) { this.addr(at.xl); this.get(this.t); this.i32(2); this.op("i32.shl"); this.op("i32.add"); this.expr(s.args[1]); this.op("i32.store").u32(2).u32(0); }
      return;
    }
    const vt = this.exchangeType(x);
    const S = this.builtinSlots.get("subgroupSize")!;
    const l = this.temp(V.i32), b = this.temp(V.i32), nn = this.temp(V.i32), j = this.temp(V.i32);
    this.get(this.t); this.get(S); this.op("i32.rem_u"); this.set(l);
    this.get(this.t); this.get(l); this.op("i32.sub"); this.set(b);
    this.get(S); this.get(this.nt); this.get(b); this.op("i32.sub"); this.get(S); this.get(this.nt); this.get(b); this.op("i32.sub"); this.op("i32.lt_u"); this.op("select"); this.set(nn);
    const read = (index: () => void) => { this.addr(at.xv); index(); this.i32(3); this.op("i32.shl"); this.op("i32.add"); this.op(perThreadOps(vt)[0]).u32(0).u32(0); };
    /** Whether lane j takes part (on the stack, an i32): in the current mask, else not returned. */
    const active = (): boolean => {
      const mask = this.masks.at(-1);
      if (mask !== undefined) { this.get(mask); this.get(j); this.op("i32.shr_u"); this.i32(1); this.op("i32.and"); return true; }
      if (this.usesDone) { this.addr(this.doneAt); this.get(b); this.op("i32.add"); this.get(j); this.op("i32.add"); this.op("i32.load8_u").u32(0).u32(0); this.op("i32.eqz"); return true; }
      return false;
    };
    const out = this.slots[s.result] as number;
    if (s.op.startsWith("shuffle")) {
      const lane = this.temp(V.i32);
      this.addr(at.xl!); this.get(this.t); this.i32(2); this.op("i32.shl"); this.op("i32.add"); this.op("i32.load").u32(2).u32(0); this.set(lane);
      switch (s.op) {
        case "shuffle": this.get(lane); this.get(S); this.op("i32.rem_u"); break;
        case "shuffleDown": this.get(l); this.get(lane); this.op("i32.add"); this.get(S); this.get(lane); this.get(S); this.get(l); this.op("i32.sub"); this.op("i32.lt_u"); this.op("select"); break;
        case "shuffleUp": this.get(l); this.get(lane); this.op("i32.sub"); this.get(S); this.get(lane); this.get(l); this.op("i32.le_u"); this.op("select"); break;
        default: this.get(l); this.get(lane); this.op("i32.xor"); break;
      }
      this.set(j);
      this.release(V.i32, lane);
      // (The lane's value where it is in the subgroup and takes part, else the reader's own.)
      this.get(j); this.get(nn); this.op("i32.lt_u");
      if (active()) this.op("i32.and");
      this.open("if", "other", valType(vt));
      read(() => { this.get(b); this.get(j); this.op("i32.add"); });
      this.op("else");
      read(() => this.get(this.t));
      this.close();
      this.set(out);
    } else {
      // Combined once per subgroup (its first lane to get here), in lane order.
      const { xk, xr } = this.reduction(x);
      const acc = this.temp(valType(scalarOf(this.f.locals[s.result].type)));
      this.get(xk); this.get(b); this.op("i32.ne");
      this.open("if", "other");
      this.combineInit(s.op, scalarOf(this.f.locals[s.result].type), vt); this.set(acc);
      this.i32(0); this.set(j);
      this.open("block", "other"); this.open("loop", "other");
      this.get(j); this.get(nn); this.op("i32.ge_u"); this.op("br_if").u32(1);
      const gated = active();
      if (gated) this.open("if", "other");
      this.combineStep(s.op, vt, acc, () => read(() => { this.get(b); this.get(j); this.op("i32.add"); }), j);
      if (gated) this.close();
      this.get(j); this.i32(1); this.op("i32.add"); this.set(j); this.op("br").u32(0);
      this.close(); this.close();
      this.get(b); this.set(xk); this.get(acc); this.set(xr);
      this.close();
      this.get(xr); this.set(out);
      this.release(valType(scalarOf(this.f.locals[s.result].type)), acc);
    }
    for (const x of [l, b, nn, j]) this.release(V.i32, x);
  }

  /** The type of the values a subgroup operation exchanges (its operand's). */
  private exchangeType(x: Exchange): Scalar {
    const pub = [...this.rt.exchanges.entries()].find(([, y]) => y.n === x.n && y.half === "publish")!;
    return scalarOf(this.f.exprs[(pub[0] as Extract<Stmt, { k: "subgroup" }>).args[0]].type);
  }

  /** A reduction's start (regions.ts's `combine`): 0 for sums (-0 for floats), the identity of min and max, true for all. */
  private combineInit(op: string, result: Scalar, v: Scalar): void {
    const f = (x: number) => (v === "f32" ? this.op("f32.const").f32(x) : this.op("f64.const").f64(x));
    const float = v === "f32" || v === "f64";
    switch (op) {
      case "add": if (float) f(-0); else this.i32(0); return;
      // (Math.min from Infinity over the lanes, at least this one: for integers, their identity.)
      case "min": if (float) f(Infinity); else this.i32(v === "u32" ? -1 : 0x7fffffff); return;
      case "max": if (float) f(-Infinity); else this.i32(v === "u32" ? 0 : -0x80000000); return;
      case "any": this.i32(0); return;
      case "all": case "barrier": this.i32(1); return;
      case "ballot": this.i32(0); return;
      default: throw new Refused(`subgroup ${op} as a reduction (${result})`);
    }
  }

  /** acc = step(acc, lane j's value), exact in the type (regions.ts's `combine`). */
  private combineStep(op: string, v: Scalar, acc: number, value: () => void, j: number): void {
    const float = v === "f32" || v === "f64";
    const p = v === "f64" ? "f64" : "f32";
    switch (op) {
      case "add": this.get(acc); value(); this.op(float ? `${p}.add` as Op : "i32.add"); break;
      case "min": case "max": {
        if (float) { this.get(acc); value(); this.op(`${p}.${op}` as Op); break; }
        const w = this.temp(V.i32);
        value(); this.set(w);
        this.get(acc); this.get(w); this.get(acc); this.get(w);
        this.op(op === "min" ? (v === "u32" ? "i32.lt_u" : "i32.lt_s") : (v === "u32" ? "i32.gt_u" : "i32.gt_s"));
        this.op("select");
        this.release(V.i32, w);
        break;
      }
      case "any": this.get(acc); value(); this.op("i32.or"); break;
      case "all": case "barrier": this.get(acc); value(); this.op("i32.and"); break;
      case "ballot":
        this.get(acc); this.i32(1); this.get(j); this.op("i32.shl"); this.op("i32.or");
        this.get(acc); value(); this.op("select");
        break;
      default: throw new Refused(`subgroup ${op}`);
    }
    this.set(acc);
  }

  /**
   * Control flow that runs per subgroup: once for each subgroup of the block, from the mask of its
   * lanes still running (sgb its first thread).
   */
  private perSubgroup(r: Region): void {
    const S = this.builtinSlots.get("subgroupSize")!;
    const sg = this.local(V.i32), m = this.local(V.i32);
    this.sgb = this.local(V.i32);
    const sgb = this.sgb;
    this.i32(0); this.set(sg);
    this.open("block", "other"); this.open("loop", "other");
    this.get(sg); this.get(S); this.op("i32.mul"); this.get(this.nt); this.op("i32.ge_u"); this.op("br_if").u32(1);
    this.open("block", "other");
    this.get(sg); this.get(S); this.op("i32.mul"); this.set(sgb);
    const n = this.temp(V.i32);
    this.get(S); this.get(this.nt); this.get(sgb); this.op("i32.sub"); this.get(S); this.get(this.nt); this.get(sgb); this.op("i32.sub"); this.op("i32.lt_u"); this.op("select"); this.set(n);
    if (this.usesDone) {
      const j = this.temp(V.i32);
      this.i32(0); this.set(m); this.i32(0); this.set(j);
      this.open("block", "other"); this.open("loop", "other");
      this.get(j); this.get(n); this.op("i32.ge_u"); this.op("br_if").u32(1);
      this.addr(this.doneAt); this.get(sgb); this.op("i32.add"); this.get(j); this.op("i32.add"); this.op("i32.load8_u").u32(0).u32(0); this.op("i32.eqz");
      this.open("if", "other");
      this.get(m); this.i32(1); this.get(j); this.op("i32.shl"); this.op("i32.or"); this.set(m);
      this.close();
      this.get(j); this.i32(1); this.op("i32.add"); this.set(j); this.op("br").u32(0);
      this.close(); this.close();
      this.release(V.i32, j);
    } else { this.i32(-1); this.i32(32); this.get(n); this.op("i32.sub"); this.op("i32.shr_u"); this.set(m); }
    this.release(V.i32, n);
    this.get(m); this.op("i32.eqz"); this.op("br_if").u32(0);
    this.masks.push(m);
    this.emitRegions([r]);
    this.masks.pop();
    this.close();
    this.get(sg); this.i32(1); this.op("i32.add"); this.set(sg); this.op("br").u32(0);
    this.close(); this.close();
    this.sgb = -1;
  }

  /**
   * An `if` that runs per subgroup on a condition that may differ between its lanes: the lanes
   * where it holds run the then-side, then the others the else-side (each side only where it has lanes).
   */
  private maskedIf(r: Extract<Region, { k: "if" }>): void {
    const m = this.masks.at(-1)!;
    const yes = this.laneMask(r.cond, r.group);
    const no = this.local(V.i32);
    if (r.else.length) { this.get(m); this.get(yes); this.i32(-1); this.op("i32.xor"); this.op("i32.and"); this.set(no); }
    for (const [mask, side] of [[yes, r.then], [no, r.else]] as const) {
      if (!side.length) continue;
      this.get(mask); this.open("if", "other");
      this.masks.push(mask);
      this.emitRegions(side);
      this.masks.pop();
      this.close();
    }
  }

  /** A loop that runs per subgroup: `lm` the lanes still in it, `cm` those in this iteration's body; it ends when no lane is left in it. */
  private maskedLoop(r: Extract<Region, { k: "loop" }>): void {
    const lm = this.local(V.i32), cm = this.local(V.i32);
    this.get(this.masks.at(-1)!); this.set(lm);
    this.open("block", "rbreak"); this.open("loop", "other");
    this.get(lm); this.set(cm);
    this.loopMasks.push(this.masks.length);
    this.masks.push(lm, cm);
    this.emitRegions(r.body);
    this.masks.pop();
    this.emitRegions(r.continuing);
    if (r.breakIf !== null) {
      if (this.values.isUniform(r.breakIf)) { this.expr(r.breakIf); this.op("br_if").u32(this.depth("rbreak")); }
      else { const c = this.laneMask(r.breakIf, r.group); this.get(lm); this.get(c); this.i32(-1); this.op("i32.xor"); this.op("i32.and"); this.set(lm); }
    }
    this.get(lm); this.op("i32.eqz"); this.op("br_if").u32(this.depth("rbreak"));
    this.masks.pop();
    this.loopMasks.pop();
    this.op("br").u32(0);
    this.close(); this.close();
  }

  /** A condition evaluated by the current lanes of a subgroup: the mask (a new local) of those where it holds. */
  private laneMask(cond: ExprHandle, group: number): number {
    const v = this.local(V.i32);
    this.i32(0); this.set(v);
    this.threadLoop(group, () => {
      this.expr(cond);
      this.open("if", "other");
      this.get(v); this.laneBit(); this.op("i32.or"); this.set(v);
      this.close();
    });
    return v;
  }

  private emitRegions(regions: Region[]): void {
    for (const r of regions) {
      const sub = (r.k === "if" || r.k === "loop") && r.sub;
      if (sub && this.sgb < 0) { this.perSubgroup(r); continue; }
      if ((r.k === "if" || r.k === "loop") && !r.sub && this.sgb >= 0) throw new Refused("control flow with a barrier inside control flow that runs per subgroup");
      switch (r.k) {
        case "group": {
          // A reduction's result, combined once per subgroup, is kept for the rest of its lanes.
          const first = this.rt.exchanges.get(r.stmts[0]);
          if (first?.half === "collect" && !first.s.op.startsWith("shuffle")) { this.i32(-1); this.set(this.reduction(first).xk); }
          // Uniform assignments at the start and end of a region run once, outside the thread loop.
          const hoisted = this.values.hoisted;
          let i = 0, j = r.stmts.length;
          while (i < j && hoisted.has(r.stmts[i])) i++;
          while (j > i && hoisted.has(r.stmts[j - 1])) j--;
          this.block(r.stmts.slice(0, i));
          if (i < j) this.threadLoop(r.id, () => this.block(r.stmts.slice(i, j)), r.stmts.slice(i, j));
          this.block(r.stmts.slice(j));
          break;
        }
        case "if": {
          if (r.sub && !this.values.isUniform(r.cond)) { this.maskedIf(r); break; }
          const c = this.uniform(r.cond, r.group, r.loc);
          this.get(c); this.i32(1); this.op("i32.eq");
          this.open("if", "other");
          this.emitRegions(r.then);
          if (r.else.length) { this.op("else"); this.emitRegions(r.else); }
          this.close();
          this.release(V.i32, c);
          break;
        }
        case "loop": {
          if (r.sub) { this.maskedLoop(r); break; }
          const temps: number[] = [];
          this.loopMasks.push(-1);
          const breakIf = r.breakIf;
          this.loopOf(["rbreak", "rcontinue"], () => this.emitRegions(r.body), () => this.emitRegions(r.continuing), breakIf === null ? null : () => {
            const c = this.uniform(breakIf, r.group, r.loc);
            this.get(c); this.i32(1); this.op("i32.eq");
            temps.push(c);
          });
          for (const c of temps) this.release(V.i32, c);
          this.loopMasks.pop();
          break;
        }
        case "break": case "continue": {
          const at = this.loopMasks.at(-1) ?? -1;
          if (at < 0) { this.op("br").u32(this.depth(r.k === "break" ? "rbreak" : "rcontinue")); break; }
          // Per subgroup: the current lanes leave the loop (its mask and every one inside it), or
          // this iteration (the iteration's mask and those inside it), until its end.
          const cur = this.masks.at(-1)!;
          for (const m of this.masks.slice(r.k === "break" ? at : at + 1, -1)) { this.get(m); this.get(cur); this.i32(-1); this.op("i32.xor"); this.op("i32.and"); this.set(m); }
          this.i32(0); this.set(cur);
          // (The last lanes out of the loop: nothing in it is left to run.)
          if (r.k === "break") { this.get(this.masks[at]); this.op("i32.eqz"); this.op("br_if").u32(this.depth("rbreak")); }
          break;
        }
      }
    }
  }

  /**
   * One loop over the block's threads still running (z, y, x; x fastest): the group's plain
   * locals zeroed, its per-thread values loaded, `body`, the values it assigned stored back (a
   * thread that returns skips that: it is done).
   */
  private threadLoop(group: number, body: () => void, stmts?: Stmt[]): void {
    if (this.sgb >= 0) return this.laneLoop(group, body);
    const counted = (b: "threadIdx.x" | "threadIdx.y" | "threadIdx.z", n: "blockDim.x" | "blockDim.y" | "blockDim.z", inner: () => void, from0 = true) => {
      const v = this.builtinSlots.get(b)!;
      if (from0) { this.i32(0); this.set(v); }
      this.open("block", "other"); this.open("loop", "other");
      this.get(v); this.get(this.builtinSlots.get(n)!); this.op("i32.ge_u"); this.op("br_if").u32(1);
      this.open("block", "other");
      inner();
      this.close();
      this.get(v); this.i32(1); this.op("i32.add"); this.set(v); this.op("br").u32(0);
      this.close(); this.close();
    };
    counted("threadIdx.z", "blockDim.z", () => counted("threadIdx.y", "blockDim.y", () => {
      // Four threads at once where they can run so (four threads at once, below): in a loop of
      // their own from the row's start, or tried at each thread.
      this.i32(0); this.set(this.builtinSlots.get("threadIdx.x")!);
      const form = stmts ? this.lanesOf(group, stmts) : null;
      const loop = form !== null && !form.bails && !this.usesDone;
      if (loop) this.lanesLoop(form);
      counted("threadIdx.x", "blockDim.x", () => {
        this.threadIndex();
        if (form && !loop) this.lanesTry(form);
        if (this.usesDone) {
          // (A thread that returned: on to the next, out of the block around this body.)
          this.addr(this.doneAt); this.get(this.t); this.op("i32.add"); this.op("i32.load8_u").u32(0).u32(0);
          this.op("br_if").u32(0);
        }
        this.threadBody(group, body);
      }, false);
    }));
  }

  /** The thread's index in its block, t: (z · dy + y) · dx + x. */
  private threadIndex(): void {
    const s = (b: "threadIdx.x" | "threadIdx.y" | "threadIdx.z" | "blockDim.x" | "blockDim.y") => this.get(this.builtinSlots.get(b)!);
    s("threadIdx.z"); s("blockDim.y"); this.op("i32.mul"); s("threadIdx.y"); this.op("i32.add"); s("blockDim.x"); this.op("i32.mul"); s("threadIdx.x"); this.op("i32.add");
    this.set(this.t);
  }

  /** The lanes of the current subgroup in its current mask (those that returned left it), lowest first. */
  private laneLoop(group: number, body: () => void): void {
    const tm = this.local(V.i32);
    const b = (x: "threadIdx.x" | "threadIdx.y" | "threadIdx.z" | "blockDim.x" | "blockDim.y") => this.builtinSlots.get(x)!;
    this.get(this.masks.at(-1)!); this.set(tm);
    this.open("block", "other"); this.open("loop", "other");
    this.get(tm); this.op("i32.eqz"); this.op("br_if").u32(1);
    this.open("block", "other");
    this.get(this.sgb); this.get(tm); this.op("i32.ctz"); this.op("i32.add"); this.set(this.t);
    this.get(this.t); this.get(b("blockDim.x")); this.op("i32.rem_u"); this.set(b("threadIdx.x"));
    this.get(this.t); this.get(b("threadIdx.x")); this.op("i32.sub"); this.get(b("blockDim.x")); this.op("i32.div_u"); this.get(b("blockDim.y")); this.op("i32.rem_u"); this.set(b("threadIdx.y"));
    this.get(this.t); this.get(b("threadIdx.x")); this.op("i32.sub"); this.get(b("threadIdx.y")); this.get(b("blockDim.x")); this.op("i32.mul"); this.op("i32.sub");
    this.get(b("blockDim.x")); this.get(b("blockDim.y")); this.op("i32.mul"); this.op("i32.div_u"); this.set(b("threadIdx.z"));
    this.threadBody(group, body);
    this.close();
    this.get(tm); this.get(tm); this.i32(1); this.op("i32.sub"); this.op("i32.and"); this.set(tm); this.op("br").u32(0);
    this.close(); this.close();
  }

  /** A thread of a region: its plain locals zeroed, its per-thread values loaded, `body`, those it assigned stored back. */
  private threadBody(group: number, body: () => void): void {
    const f = this.f;
    const inGroup = (l: number) => this.rt.groupsOf.get(l)?.has(group) ?? false;
    {
      if (this.mod.o.builtins[this.fi].includes("subgroupLaneId")) { this.get(this.t); this.get(this.builtinSlots.get("subgroupSize")!); this.op("i32.rem_u"); this.set(this.builtinSlots.get("subgroupLaneId")!); }
      const cached: number[] = [];
      f.locals.forEach((loc, l) => {
        if (!inGroup(l) || f.params.includes(l as never) || l === f.stateParam || this.values.remat.has(l) || this.values.uniform.has(l)) return;
        const at = this.perThread.get(l);
        if (isArray(loc.type)) {
          if (at === undefined) return;
          const [ptr] = this.slots[l] as [number, number];
          this.addr(at); this.get(this.t); this.i32((loc.type.size ?? 0) * bytesOf(loc.type.elem)); this.op("i32.mul"); this.op("i32.add"); this.set(ptr);
          return;
        }
        const slot = this.slots[l] as number;
        if (at === undefined) { this.zero(slot, loc.type.kind === "scalar" ? loc.type.scalar : "i32"); return; }
        this.slotAddress(at, slotBytes(loc.type)); this.op(perThreadOps(scalarOf(loc.type))[0]).u32(0).u32(0); this.set(slot);
        cached.push(l);
      });
      this.open("block", "thread");
      body();
      for (const l of cached) {
        if (!this.rt.writtenIn.get(group)?.has(l)) continue;
        this.slotAddress(this.perThread.get(l)!, slotBytes(f.locals[l].type)); this.get(this.slots[l] as number); this.op(perThreadOps(scalarOf(f.locals[l].type))[1]).u32(0).u32(0);
      }
      this.close();
    }
  }

  /** The address of this thread's 8 bytes in per-thread storage at `at`. */
  private slotAddress(at: Static, bytes: number): void { this.addr(at); this.get(this.t); this.i32(bytes === 8 ? 3 : 2); this.op("i32.shl"); this.op("i32.add"); }

  private zero(slot: number, s: Elem): void {
    if (s === "f32") this.op("f32.const").f32(0); else if (s === "f64") this.op("f64.const").f64(0); else this.i32(0);
    this.set(slot);
  }

  /**
   * A condition of control flow holding a barrier, 1 or 0 in a temporary: once where it is the
   * same for every thread by construction; else evaluated by every running thread in order, each
   * compared with the first (`divergent` throws at one that differs), the block ended where no
   * thread runs any more.
   */
  private uniform(cond: ExprHandle, group: number, loc: Loc | null): number {
    const c = this.temp(V.i32);
    if (this.values.isUniform(cond)) { this.expr(cond); this.set(c); return c; }
    this.i32(-1); this.set(c);
    this.threadLoop(group, () => {
      const v = this.temp(V.i32);
      this.expr(cond); this.set(v);
      this.get(c); this.i32(-1); this.op("i32.eq");
      this.open("if", "other");
      this.get(v); this.set(c);
      this.op("else");
      this.get(c); this.get(v); this.op("i32.ne");
      this.open("if", "other");
      this.i32(this.mod.o.locations.id(loc));
      for (const b of ["threadIdx.x", "threadIdx.y", "threadIdx.z", "blockIdx.x", "blockIdx.y", "blockIdx.z"] as const) this.get(this.builtinSlots.get(b)!);
      this.op("call").u32(this.mod.importOf("divergent"));
      this.close();
      this.close();
      this.release(V.i32, v);
    });
    this.get(c); this.i32(-1); this.op("i32.eq"); this.op("br_if").u32(this.depth("block"));
    return c;
  }

  // ---- four threads at once ------------------------------------------------------------------
  //
  // A region's threads run four at a time where they can (SIMD128, 32-bit lanes: threads x to
  // x + 3 of one row of the block), and one at a time where they cannot: the four-lane form is
  // tried at each thread, and gives way to the one-thread form for that thread when a condition
  // for it does not hold at run time. Why the lanes leave what the threads one after another
  // leave:
  //  - Each lane computes what its thread computes: the same operations lane by lane (i32x4 and
  //    f32x4 arithmetic is the scalar instructions' lane by lane; a bool is a lane mask, 0 or -1),
  //    a value the threads share computed once (uniformity.ts); nothing else is taken (f64, calls,
  //    loops, integer division, Math imports, ToInt32: the group has no four-lane form).
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
  //    each add to a copy of what was tested before it). At the first store, every later access
  //    and check whose index or condition the statements up to it do not change is tested (a check
  //    evaluated in all four lanes: one that holds in none holds in none when it comes, after the
  //    store); a test or check that would come after a store otherwise: no four-lane form.
  //  - An `if` whose lanes disagree runs both of its sides for all four lanes, each under a mask
  //    of the lanes that take it (masked): a local assigned there keeps its old value in the other
  //    lanes, a store writes their own elements back to them, a check raises only where its lane
  //    is in the mask. Before the sides, every access in them whose index they do not assign is
  //    tested as above, and also to lie inside its array in all four lanes (a lane outside the
  //    mask may hold an index its condition guards, which must neither trap nor reach another
  //    worker's memory) — or known to, from a bounds check of that index against that length
  //    made in all four lanes: loads under a mask are only of such elements. Only shared memory
  //    is stored under a mask: a block's shared arrays are its own, while an element a lane writes
  //    back in global memory may be one another block writes at the same time.
  //  - A test that fails sends the four threads back before any store: the four-lane form is a
  //    way of running them, never a different answer. The fuzzers' barrier kernels (scripts/
  //    fuzz.mjs, shared2) have the shapes each test is for, and races in thread order beside them.

  /** Where the four-lane form of a group is being emitted. */
  private lanes: Lanes | null = null;

  /**
   * The four-lane form of a group (four threads from x, of the current row), kept aside, where
   * it has one: its code (the per-thread values loaded, the statements, the values stored back),
   * whether it has tests (laneAccess) and whether anything in it can send the threads back to one
   * at a time (`bails`: a test, a check, an `if` without a masked form). Emitted inside a `lanes`
   * block (placed by lanesLoop or lanesTry).
   */
  private lanesOf(group: number, stmts: Stmt[]): { code: { bytes: Uint8Array; relocs: number[] }; tested: boolean; bails: boolean } | null {
    if (this.mod.o.builtins[this.fi].includes("subgroupLaneId")) return null;
    const assigned = new Set<number>();
    walkStmts(stmts, (st) => { if (st.k === "set") assigned.add(st.local); else if ((st.k === "call" || st.k === "atomic") && st.result !== null) assigned.add(st.result); else if (st.k === "subgroup") assigned.add(st.result); });
    const stores = this.storedArrays(stmts, assigned);
    if (stores === null) return null;
    const f = this.f;
    let tested = false, bails = false;
    this.labels.push("lanes");
    const code = this.capture(() => {
      const v = new Map<number, number>();
      this.lanes = { v, stored: false, assigned, forms: new Map(), stores, versions: new Map(), mask: null, rest: [], tested: false, bails: false, tests: { done: new Set(), base: new Map(), at: new Map(), accesses: new Map() } };
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
          // Lane i: thread t + i's value (a bool 0 or 1 becomes its mask).
          this.slotAddress(at, 4); this.simd("v128.load").u32(0).u32(0);
          if (loc.type.scalar === "bool") this.simd("i32x4.neg");
          this.set(vl);
          cached.push(l);
        });
        this.vblock(stmts);
        for (const l of cached) {
          if (!this.rt.writtenIn.get(group)?.has(l)) continue;
          this.slotAddress(this.perThread.get(l)!, 4); this.get(v.get(l)!);
          if ((f.locals[l].type as { scalar: Scalar }).scalar === "bool") this.simd("i32x4.neg");
          this.simd("v128.store").u32(0).u32(0);
        }
        ({ tested, bails } = this.lanes);
      } finally { this.lanes = null; }
    });
    this.labels.pop();
    return code && { code, tested, bails };
  }

  /**
   * A group's four-lane form in a loop of its own over the row's fours, from x = 0 (x left at the
   * first thread it did not run): where nothing in it can give the threads back and no thread
   * returned. The loop costs a third of what the try in each thread's iteration does.
   */
  private lanesLoop(form: { code: { bytes: Uint8Array; relocs: number[] } }): void {
    const x = this.builtinSlots.get("threadIdx.x")!;
    this.open("block", "other"); this.open("loop", "other");
    this.get(x); this.i32(4); this.op("i32.add"); this.get(this.builtinSlots.get("blockDim.x")!); this.op("i32.gt_u"); this.op("br_if").u32(1);
    this.threadIndex();
    this.open("block", "lanes");
    this.place(form.code);
    this.close();
    this.get(x); this.i32(4); this.op("i32.add"); this.set(x);
    this.op("br").u32(0);
    this.close(); this.close();
  }

  /** A group's four-lane form tried at thread x: taken where four threads are left in the row from it, none returned, and nothing in it gives them back. */
  private lanesTry(form: { code: { bytes: Uint8Array; relocs: number[] }; tested: boolean }): void {
    const x = this.builtinSlots.get("threadIdx.x")!;
    this.open("block", "lanes");
    // (From a multiple of four where the group has tests: after four threads that ran one at a
    // time because a test failed, the next four try again — not each thread, each try costing up
    // to its first failed test. Elsewhere not: three more instructions in a scan's loop of thirty
    // were a tenth of its time.)
    if (form.tested) { this.get(x); this.i32(3); this.op("i32.and"); this.op("br_if").u32(0); }
    this.get(x); this.i32(4); this.op("i32.add"); this.get(this.builtinSlots.get("blockDim.x")!); this.op("i32.gt_u"); this.op("br_if").u32(0);
    if (this.usesDone) { this.addr(this.doneAt); this.get(this.t); this.op("i32.add"); this.op("i32.load").u32(0).u32(0); this.op("br_if").u32(0); }
    this.place(form.code);
    // Past the four threads: x + 3 here, the thread loop's step the fourth.
    this.get(x); this.i32(3); this.op("i32.add"); this.set(x);
    this.op("br").u32(1);
    this.close();
  }

  /** Where the four-lane form lets the threads run one at a time (`br_if` out of it). */
  private bail(): void {
    this.lanes!.bails = true;
    this.op("br_if").u32(this.depth("lanes"));
  }

  private simd(o: SimdOp) { return this.c.byte(0xfd).u32(SIMD[o]); }

  /** A v128 of four lanes of the constant `k` of type `s` (a bool as its mask). */
  private vconst(k: number | boolean, s: Scalar): void {
    if (s === "f32") { this.op("f32.const").f32(Number(k)); this.simd("f32x4.splat"); return; }
    this.i32(s === "bool" ? (k ? -1 : 0) : Number(k) | 0); this.simd("i32x4.splat");
  }

  /** The i32 on the stack plus 0, 1, 2, 3 in the four lanes. */
  private laneSteps(): void {
    this.simd("i32x4.splat");
    this.simd("v128.const").raw([0, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0]); this.simd("i32x4.add");
  }

  /** The scalar of type `s` on the stack as four lanes of it (a bool 0 or 1 as its mask). */
  private splat(s: Scalar): void {
    if (s === "f32") { this.simd("f32x4.splat"); return; }
    if (s === "f64") throw new Refused("lanes: f64");
    this.simd("i32x4.splat");
    if (s === "bool") this.simd("i32x4.neg");
  }

  private vstmt(st: Stmt): void {
    const ln = this.lanes!;
    if (this.rt.exchanges.has(st)) throw new Refused("lanes: a subgroup operation");
    switch (st.k) {
      case "set": {
        if (this.values.remat.has(st.local)) return;
        const vl = ln.v.get(st.local);
        if (vl === undefined) throw new Refused("lanes: a local the threads share");
        this.vexpr(st.value);
        if (ln.mask !== null) { this.get(vl); this.get(ln.mask); this.simd("v128.bitselect"); }
        this.set(vl);
        // Its value's form, where it is threadIdx.x plus a shared value (see xSteps); none for those that read it.
        const form = ln.mask === null && this.xSteps(st.value) === 1 && !this.reads(st.value, st.local) ? st.value : null;
        this.forget(st.local);
        ln.versions.set(st.local, (ln.versions.get(st.local) ?? 0) + 1);
        if (form !== null) ln.forms.set(st.local, form);
        return;
      }
      case "store": {
        if (bytesOf(this.arrayOf(st.array).elem) !== 4) throw new Refused("lanes: a narrow array");
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
        if (ln.mask !== null) {
          const c = this.local(V.v128);
          this.vexpr(st.cond); this.set(c);
          return this.maskedSides(st, c);
        }
        // Where the lanes disagree: both sides under masks, or (where that form is refused, or the
        // condition is one of the thread's index and shared values, on which four neighbours
        // seldom disagree: the masked code would only slow the loop) one thread at a time.
        const saved = { stored: ln.stored, forms: new Map(ln.forms), tests: copyTests(ln.tests) };
        if (this.onData(st.cond) && this.attempt(() => this.laneIf(st, true))) return;
        ln.stored = saved.stored; ln.forms = saved.forms; ln.tests = saved.tests;
        return this.laneIf(st, false);
      }
      case "fence": return;
      default: throw new Refused(`lanes: a ${st.k}`);
    }
  }

  /**
   * An `if` outside a mask: its then-side where all four lanes take it, its else-side where none
   * does, and where they disagree both sides masked (`masked`) or the threads one at a time.
   */
  private laneIf(st: Extract<Stmt, { k: "if" }>, masked: boolean): void {
    const ln = this.lanes!;
    if (!masked && ln.stored) throw new Refused("lanes: an if after a store");
    const m = this.local(V.v128);
    this.vexpr(st.cond); this.set(m);
    const before = { stored: ln.stored, forms: ln.forms, tests: ln.tests };
    const enter = () => { ln.stored = before.stored; ln.forms = new Map(before.forms); ln.tests = copyTests(before.tests); };
    let stored = false;
    const side = (b: Block) => { enter(); this.block(b); stored ||= ln.stored; };
    this.get(m); this.simd("i32x4.all_true");
    this.open("if", "other");
    side(st.then);
    this.op("else");
    if (masked) {
      this.get(m); this.simd("v128.any_true");
      this.open("if", "other");
      enter(); this.maskedSides(st, m); stored ||= ln.stored;
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
    walkStmts([st], (s) => { if (s.k === "set") this.forget(s.local); });
  }

  /** Both sides of `if` `st` for the lanes running (all four outside a mask): the then-side where mask `c` holds, the else-side where it does not. */
  private maskedSides(st: Extract<Stmt, { k: "if" }>, c: number): void {
    const ln = this.lanes!, outer = ln.mask;
    if (outer === null) this.testAccesses([st], true);
    const mt = this.local(V.v128), me = this.local(V.v128);
    this.get(c); if (outer !== null) { this.get(outer); this.simd("v128.and"); } this.set(mt);
    if (outer !== null) { this.get(outer); this.get(c); this.simd("v128.andnot"); } else { this.get(c); this.simd("v128.not"); }
    this.set(me);
    try {
      ln.mask = mt; this.block(st.then);
      ln.mask = me; this.block(st.else);
    } finally { ln.mask = outer; }
  }

  /**
   * Evaluate now, in all four lanes, every check in `stmts` whose condition they do not change
   * (it does not load, nor read a local they assign): where one would raise in any lane, the
   * threads run one at a time (where it raises, and in the order it raises there); else it is
   * known not to raise when it comes, after a store.
   */
  private testChecks(stmts: Stmt[]): void {
    const changed = new Set<number>();
    walkStmts(stmts, (s) => { if (s.k === "set" && !this.values.remat.has(s.local)) changed.add(s.local); });
    const T = this.lanes!.tests;
    walkStmts(stmts, (s) => {
      if (s.k !== "check" || s.cond === null || [...changed].some((l) => this.reads(s.cond!, l))) return;
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
   * this part): to an array the group stores to, or any (and inside its array) where `inside`.
   */
  private testAccesses(stmts: Stmt[], inside: boolean): void {
    const changed = new Set<number>();
    walkStmts(stmts, (s) => { if (s.k === "set" && !this.values.remat.has(s.local)) changed.add(s.local); });
    const stable = (h: ExprHandle) => ![...changed].some((l) => this.reads(h, l));
    const ln = this.lanes!;
    const access = (a: ExprHandle, i: ExprHandle, store: boolean) => {
      if (!stable(a) || !stable(i) || this.vn(i) === null || this.vn(a) === null) return;
      if (inside || ln.stores.has(this.arrayKey(a, ln.assigned))) this.laneAccess(a, i, inside, store);
    };
    const visit = (h: ExprHandle) => {
      if (this.values.isUniform(h)) return;
      const e = this.f.exprs[h];
      if (e.k === "load") access(e.array, e.index, false);
      if (e.k === "local") { const d = this.values.remat.get(e.local); if (d !== undefined) visit(d); }
      for (const o of exprOperands(e)) visit(o);
    };
    walkStmts(stmts, (s) => {
      if (s.k === "store") { access(s.array, s.index, true); visit(s.index); visit(s.value); }
      else if (s.k === "set") visit(s.value);
      else if (s.k === "if") visit(s.cond);
      else if (s.k === "check" && s.cond !== null) visit(s.cond);
    });
  }

  /**
   * Element `index` of `array` for the four lanes, tested as the top of this part says: the i32
   * local holding lane 0's byte address, lane i's the i-th element after it — or, where the index
   * is one the lanes share (`one`), every lane's (a load only). Tested: consecutive; apart from the
   * group's other accesses to an array it stores to; inside the array where `inside`.
   */
  private laneAccess(array: ExprHandle, index: ExprHandle, inside: boolean, store: boolean): { at: number; one: boolean } {
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
    // (Inside the array: also known from a bounds check of this index against its length, made in all four lanes.)
    if (inside) {
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

  /** Its block's statements in the four-lane form (while one is emitted). */
  protected override block(b: Block): void {
    if (!this.lanes) return super.block(b);
    this.vblock(b);
  }

  /**
   * Statements in the four-lane form, in order. Before the first store, the accesses to arrays
   * the group stores to from there on (in these statements and after them in the enclosing
   * blocks, `rest`) whose array and index none of them assigns are tested, and the checks whose
   * condition none of them changes evaluated (see the top of this part).
   */
  private vblock(b: Stmt[]): void {
    const ln = this.lanes!;
    b.forEach((st, i) => {
      ln.rest.push(b.slice(i + 1));
      try {
        if (st.k === "store" && !ln.stored) { const rest = [st, ...ln.rest.flat()]; this.testAccesses(rest, false); this.testChecks(rest); }
        this.vstmt(st);
      } finally { ln.rest.pop(); }
    });
  }

  /** The scalar type of expression `h` (four lanes of it: i32/u32 as i32x4, f32 as f32x4, bool as a mask). */
  private laneType(h: ExprHandle): Scalar {
    const t = this.f.exprs[h].type;
    if (t.kind !== "scalar" || t.scalar === "f64") throw new Refused("lanes: a value of this type");
    return t.scalar;
  }

  /** Expression `h`, lane by lane, onto the stack as a v128. */
  private vexpr(h: ExprHandle): void {
    const e: Expr = this.f.exprs[h];
    const ts = this.laneType(h);
    const ln = this.lanes!;
    // A value the threads share: once, for all four.
    if (this.values.isUniform(h)) { this.expr(h); this.splat(ts); return; }
    switch (e.k) {
      case "const": return this.vconst(e.value, ts);
      case "local": {
        const def = this.values.remat.get(e.local);
        if (def !== undefined) return this.vexpr(def);
        const vl = ln.v.get(e.local);
        if (vl === undefined) throw new Refused("lanes: a local outside the group");
        this.get(vl);
        return;
      }
      case "builtin":
        // (The four threads are of one row: y and z theirs alike.)
        if (e.name === "threadIdx.y" || e.name === "threadIdx.z") { this.get(this.builtinSlots.get(e.name)!); this.simd("i32x4.splat"); return; }
        if (e.name !== "threadIdx.x") throw new Refused(`lanes: ${e.name}`);
        this.get(this.builtinSlots.get("threadIdx.x")!); this.laneSteps();
        return;
      case "convert": return this.vconvert(e.arg, ts);
      case "select":
        if (this.loads(e.a) || this.loads(e.b)) throw new Refused("lanes: a load on one side of a select");
        this.vexpr(e.a); this.vexpr(e.b); this.vexpr(e.cond); this.simd("v128.bitselect");
        return;
      case "load": {
        const a = this.arrayOf(e.array);
        if (bytesOf(a.elem) !== 4) throw new Refused("lanes: a narrow array");
        // An array the group stores to, or under a mask: four tested elements.
        if (ln.mask !== null || ln.stores.has(this.arrayKey(e.array, ln.assigned))) {
          const { at, one } = this.laneAccess(e.array, e.index, ln.mask !== null, false);
          this.get(at); this.simd(one ? "v128.load32_splat" : "v128.load").u32(0).u32(0);
          return;
        }
        if (this.xSteps(e.index) === 1) {
          a.ptr(); this.xScalar(e.index); this.i32(2); this.op("i32.shl"); this.op("i32.add");
          this.simd("v128.load").u32(0).u32(0);
          return;
        }
        const idx = this.local(V.v128);
        this.vexpr(e.index); this.set(idx);
        this.vconst(0, "i32");
        for (let i = 0; i < 4; i++) {
          a.ptr(); this.get(idx); this.simd("i32x4.extract_lane").byte(i); this.i32(2); this.op("i32.shl"); this.op("i32.add");
          this.op("i32.load").u32(2).u32(0);
          this.simd("i32x4.replace_lane").byte(i);
        }
        return;
      }
      case "op": return this.vop(e as Extract<Expr, { k: "op" }>, ts);
      default: throw new Refused(`lanes: a ${e.k}`);
    }
  }

  private vconvert(arg: ExprHandle, to: Scalar): void {
    const from = this.laneType(arg);
    this.vexpr(arg);
    if (from === to || ((from === "i32" || from === "u32") && (to === "i32" || to === "u32"))) return;
    if (from === "bool") {
      this.simd("i32x4.neg");
      if (to === "f32") this.simd("f32x4.convert_i32x4_u");
      return;
    }
    if (to === "bool") {
      if (from === "f32") { this.simd("f32x4.abs"); this.vconst(0, "f32"); this.simd("f32x4.gt"); }
      else { this.vconst(0, "i32"); this.simd("i32x4.ne"); }
      return;
    }
    if (to === "f32") { this.simd(from === "i32" ? "f32x4.convert_i32x4_s" : "f32x4.convert_i32x4_u"); return; }
    throw new Refused("lanes: a float to an integer");
  }

  private vop(e: Extract<Expr, { k: "op" }>, ts: Scalar): void {
    const t = this.laneType(e.args[0]);
    const f = t === "f32";
    const both = (o: SimdOp) => { this.vexpr(e.args[0]); this.vexpr(e.args[1]); this.simd(o); };
    const one = (o: SimdOp) => { this.vexpr(e.args[0]); this.simd(o); };
    const cmp = (s: SimdOp, u: SimdOp, fl: SimdOp) => both(f ? fl : t === "u32" ? u : s);
    // A bool is a mask here: only what keeps masks masks (and bool results of bools).
    if (t === "bool" && !((["eq", "ne", "and", "or", "xor", "not", "land", "lor"] as string[]).includes(e.op) && (ts === "bool"))) throw new Refused(`lanes: ${e.op} of bools`);
    if (t !== "bool" && (e.op === "not" || e.op === "land" || e.op === "lor")) throw new Refused(`lanes: ${e.op}`);
    switch (e.op) {
      case "add": return both(f ? "f32x4.add" : "i32x4.add");
      case "sub": return both(f ? "f32x4.sub" : "i32x4.sub");
      case "mul": return both(f ? "f32x4.mul" : "i32x4.mul");
      case "div": if (f) return both("f32x4.div"); break;
      case "min": return both(f ? "f32x4.min" : t === "u32" ? "i32x4.min_u" : "i32x4.min_s");
      case "max": return both(f ? "f32x4.max" : t === "u32" ? "i32x4.max_u" : "i32x4.max_s");
      case "neg": if (f) return one("f32x4.neg"); return one("i32x4.neg");
      case "abs": if (f) return one("f32x4.abs"); if (t === "u32") return this.vexpr(e.args[0]); return one("i32x4.abs");
      case "floor": case "ceil": case "trunc": case "sqrt": if (f) return one(`f32x4.${e.op}`); break;
      case "and": return both("v128.and");
      case "or": return both("v128.or");
      case "xor": return both("v128.xor");
      case "bitnot": case "not": return one("v128.not");
      case "shl": case "shr": {
        // (WebAssembly shifts four lanes by one count, modulo 32 as JavaScript's shifts: one the threads share.)
        if (!this.values.isUniform(e.args[1])) break;
        this.vexpr(e.args[0]); this.expr(e.args[1]);
        this.simd(e.op === "shl" ? "i32x4.shl" : t === "u32" ? "i32x4.shr_u" : "i32x4.shr_s");
        return;
      }
      case "eq": return both(f ? "f32x4.eq" : "i32x4.eq");
      case "ne": return both(f ? "f32x4.ne" : "i32x4.ne");
      case "lt": return cmp("i32x4.lt_s", "i32x4.lt_u", "f32x4.lt");
      case "le": return cmp("i32x4.le_s", "i32x4.le_u", "f32x4.le");
      case "gt": return cmp("i32x4.gt_s", "i32x4.gt_u", "f32x4.gt");
      case "ge": return cmp("i32x4.ge_s", "i32x4.ge_u", "f32x4.ge");
      case "land": case "lor":
        // (Both sides in every lane: the right one may not load what the left one guards.)
        if (this.loads(e.args[1])) break;
        return both(e.op === "land" ? "v128.and" : "v128.or");
      default: break;
    }
    throw new Refused(`lanes: ${e.op}`);
  }

  /** Lane 0's value of index `h`, one of xSteps' form, as a scalar. */
  private xScalar(h: ExprHandle): void {
    if (this.values.isUniform(h)) return this.expr(h);
    const e = this.f.exprs[h];
    switch (e.k) {
      case "builtin": this.get(this.builtinSlots.get("threadIdx.x")!); return;
      case "local": return this.xScalar((this.values.remat.get(e.local) ?? this.lanes!.forms.get(e.local))!);
      case "convert": return this.xScalar(e.arg);
      case "op": this.xScalar(e.args[0]); this.xScalar(e.args[1]); this.op(e.op === "add" ? "i32.add" : "i32.sub"); return;
      default: throw new Refused("lanes: an index not of its form");
    }
  }

  /** Whether expression `h` reads local `l` (through rematerialized locals and forms too). */
  private reads(h: ExprHandle, l: number): boolean {
    const e = this.f.exprs[h];
    if (e.k === "local") {
      if (e.local === l) return true;
      const d = this.values.remat.get(e.local) ?? this.lanes?.forms.get(e.local);
      return d !== undefined && this.reads(d, l);
    }
    return exprOperands(e).some((o) => this.reads(o, l));
  }

  /** Local `l` is assigned: its form, and every form that reads it, no longer hold. */
  private forget(l: number): void {
    const forms = this.lanes!.forms;
    forms.delete(l);
    for (const [m, h] of [...forms]) if (this.reads(h, l)) forms.delete(m);
  }

  /** Whether expression `h` depends on data: it loads, or reads a local of the group (not a value of the thread's index and shared values). */
  private onData(h: ExprHandle): boolean {
    const e = this.f.exprs[h];
    if (this.values.isUniform(h) || e.k === "load") return e.k === "load";
    if (e.k === "local") { const d = this.values.remat.get(e.local); return d === undefined ? this.lanes!.v.has(e.local) : this.onData(d); }
    return exprOperands(e).some((o) => this.onData(o));
  }

  /** Whether expression `h` loads (or reads a local defined by one). */
  private loads(h: ExprHandle): boolean {
    const e = this.f.exprs[h];
    if (e.k === "load") return true;
    if (e.k === "local") { const d = this.values.remat.get(e.local); return d !== undefined && this.loads(d); }
    return exprOperands(e).some((o) => this.loads(o));
  }

  /** How many steps index `h` takes from one thread to the next along x: threadIdx.x times it plus a shared value; null where it is not of that form. */
  private xSteps(h: ExprHandle): number | null {
    if (this.values.isUniform(h)) return 0;
    const e = this.f.exprs[h];
    switch (e.k) {
      case "builtin": return e.name === "threadIdx.x" ? 1 : null;
      case "local": {
        const d = this.values.remat.get(e.local) ?? this.lanes?.forms.get(e.local);
        return d === undefined ? null : this.xSteps(d);
      }
      case "convert": {
        const from = this.f.exprs[e.arg].type;
        return from.kind === "scalar" && (from.scalar === "i32" || from.scalar === "u32") ? this.xSteps(e.arg) : null;
      }
      case "op": {
        if (e.op !== "add" && e.op !== "sub") return null;
        const a = this.xSteps(e.args[0]), b = this.xSteps(e.args[1]);
        return a === null || b === null ? null : e.op === "add" ? a + b : a - b;
      }
      default: return null;
    }
  }

  /** The value number of array `a`'s length (vn): a constant's for a shared array or a table, else its `length`'s. */
  private lengthVn(a: ExprHandle): string {
    const e = this.f.exprs[a];
    if (e.k === "shared" && !this.mod.layout.dynamicShared[e.shared]) return `${this.mod.m.shared[e.shared].type.size ?? 0}:i32`;
    if (e.k === "global") return `${this.mod.m.globals[e.global].value.length}:i32`;
    return `(length ${this.vn(a)})`;
  }

  /**
   * The keys of the arrays the group stores to (see arrayKey), or null where it has no four-lane
   * form: it stores to an array reached through a local that is not a parameter, or stores and
   * reads one.
   */
  private storedArrays(stmts: Stmt[], assigned: Set<number>): Set<string> | null {
    const keys: string[] = [], stored = new Set<string>();
    const inExpr = (h: ExprHandle) => {
      const e = this.f.exprs[h];
      if (e.k === "load") keys.push(this.arrayKey(e.array, assigned));
      if (e.k === "local") { const d = this.values.remat.get(e.local); if (d !== undefined) inExpr(d); }
      for (const o of exprOperands(e)) inExpr(o);
    };
    walkStmts(stmts, (st) => {
      if (st.k === "store") { stored.add(this.arrayKey(st.array, assigned)); inExpr(st.index); inExpr(st.value); }
      else if (st.k === "set") inExpr(st.value);
      else if (st.k === "if") inExpr(st.cond);
      else if (st.k === "check" && st.cond !== null) inExpr(st.cond);
    });
    if (stored.has("?") || (stored.size && keys.includes("?"))) return null;
    return stored;
  }

  /** Which array `a` is for the tests: a shared array, a table, the parameters (any of them may be any other), or "?" (a local the group assigns, a view, a private array). */
  private arrayKey(a: ExprHandle, assigned: Set<number>): string {
    const e = this.f.exprs[a];
    if (e.k === "shared") return `s${e.shared}`;
    if (e.k === "global") return `g${e.global}`;
    if (e.k === "local" && this.f.params.includes(e.local as never) && !assigned.has(e.local)) return "p";
    return "?";
  }

  /**
   * The value number of expression `h` where the four-lane form is: its form, each local in it
   * with its count of assignments so far (a local defined once, by its definition), so that two
   * expressions with one number have one value; null where it loads (memory changes).
   */
  private vn(h: ExprHandle): string | null {
    const e = this.f.exprs[h];
    const t = e.type.kind === "scalar" ? e.type.scalar : JSON.stringify(e.type);
    const all = (hs: ExprHandle[]) => { const xs = hs.map((x) => this.vn(x)); return xs.includes(null) ? null : xs.join(" "); };
    switch (e.k) {
      case "const": return `${Object.is(e.value, -0) ? "-0" : String(e.value)}:${t}`;
      case "local": {
        const d = this.values.remat.get(e.local);
        return d !== undefined ? this.vn(d) : `l${e.local}.${this.lanes!.versions.get(e.local) ?? 0}`;
      }
      case "builtin": return e.name;
      case "shared": return `s${e.shared}`;
      case "global": return `g${e.global}`;
      case "length": { const a = this.vn(e.array); return a === null ? null : `(length ${a})`; }
      case "op": case "convert": case "select": { const xs = all(exprOperands(e)); return xs === null ? null : `(${e.k === "op" ? e.op : e.k}:${t} ${xs})`; }
      default: return null;
    }
  }
}

/** What the four-lane form of a group (wasm-regions.ts, four threads at once) is emitting. */
interface Lanes {
  /** Each local of the group: the v128 holding its four lanes. */
  v: Map<number, number>;
  /** Whether a store was emitted on the path: after it nothing may send the threads back to one at a time. */
  stored: boolean;
  /** The locals the group assigns. */
  assigned: Set<number>;
  /** Locals whose value is threadIdx.x plus a shared value: that expression (see xSteps). */
  forms: Map<number, ExprHandle>;
  /** The keys of the arrays the group stores to (arrayKey). */
  stores: Set<string>;
  /** Each local's count of assignments so far (vn). */
  versions: Map<number, number>;
  /** Under a mask: the v128 local of the lanes that run (-1 in each). */
  mask: number | null;
  /** The statements after the one being emitted, in each enclosing block (vblock). */
  rest: Stmt[][];
  /** Whether a test (laneAccess) was emitted: one that may fail for four threads at a time. */
  tested: boolean;
  /** Whether anything in it can send the threads back to one at a time (bail). */
  bails: boolean;
  tests: LaneTests;
}

/** What the four-lane form has tested on the path being emitted (each side of an `if` adds to a copy). */
interface LaneTests {
  /** The tests made: `c<index>` consecutive, `b<access>` inside its array, `o<access> <access>` apart, `k<condition>` a check's (false in all four lanes). */
  done: Set<string>;
  /** An index's value number → the i32 local holding lane 0's index. */
  base: Map<string, number>;
  /** An access (`array[index]` in value numbers) → the i32 local holding lane 0's byte address. */
  at: Map<string, number>;
  /** An array key stored to → the accesses to it tested so far (`one`: the lanes' one element; the array's and the index's value numbers). */
  accesses: Map<string, { key: string; one: boolean; va: string; vi: string }[]>;
}

function copyTests(t: LaneTests): LaneTests {
  return { done: new Set(t.done), base: new Map(t.base), at: new Map(t.at), accesses: new Map([...t.accesses].map(([k, v]) => [k, [...v]])) };
}

/** Bytes a thread's slot of a per-thread scalar of type `t` takes. */
function slotBytes(t: Type): number { return t.kind === "scalar" && t.scalar === "f64" ? 8 : 4; }

/** The load and store of a per-thread value of type `s`. */
function perThreadOps(s: Elem): ["i32.load" | "f32.load" | "f64.load", "i32.store" | "f32.store" | "f64.store"] {
  return s === "f32" ? ["f32.load", "f32.store"] : s === "f64" ? ["f64.load", "f64.store"] : ["i32.load", "i32.store"];
}
