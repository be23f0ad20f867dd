// A kernel on the JS target's WebAssembly path: the per-block function runs its body split at the
// barriers into regions, each a loop over the block's threads, exactly as the JavaScript of a
// kernel with barriers does (regions.ts; its top says what a region is and why; a kernel without
// barriers is one region, so that its threads can run four at a time): the same region tree, the
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

import type { ExprHandle, Loc, Stmt } from "../../ir/module.js";
import { isArray, type Elem, type Scalar, type Type } from "../../ir/types.js";
import { V, type Op } from "./wasm-binary.js";
import { BLOCK_THREADS, FC_FILL, Refused, bytesOf, scalarOf, valType, type Static } from "./wasm-function.js";
import { blockLevelTree, type Exchange, type Region } from "./region-tree.js";
import type { LanesForm } from "./wasm-lanes.js";
import { hasReturn } from "./function.js";
import { RowsEmitter } from "./wasm-rows.js";

export class RegionKernelEmitter extends RowsEmitter {
  /** Whether some region runs its threads four at a time in a loop with nothing to test (split, or a loop of fours). */
  fours = false;
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
  private exchangeAt = new Map<number, { xv: Static; xl: Static | null; bytes: 4 | 8 }>();
  /** A reduction's subgroup combined last and its result, by the operation's number. */
  private reduced = new Map<number, { xk: number; xr: number }>();

  /** The block: its regions in order, between the uniform values loaded and stored back. */
  protected override threads(): void {
    const f = this.f;
    const { rt, tree, values } = blockLevelTree(f);
    this.rt = rt;
    this.values = values;
    // Each subgroup operation's values (4 bytes a thread, 8 for an f64: side by side, four threads'
    // 32-bit values are one v128) and lane operands (4), allocated per launch in the JavaScript:
    // zeroed per launch.
    // (The values with 32 unused slots either side: four lanes read threads t ± d side by side,
    // d clamped to 32. A lane operand the threads share is not stored: collect computes it again,
    // nothing between the halves assigning what it reads.)
    for (const [st, { s: x, n, half }] of rt.exchanges) {
      if (half !== "publish") continue;
      const bytes = slotBytes(f.exprs[(st as Extract<Stmt, { k: "subgroup" }>).args[0]].type) as 4 | 8;
      const xv = { at: this.mod.reserve((BLOCK_THREADS + 64) * bytes, true).at + 32 * bytes };
      this.exchangeAt.set(n, { xv, xl: x.args.length > 1 && !this.values.isUniform(x.args[1]) ? this.mod.reserve(BLOCK_THREADS * 4, true) : null, bytes });
    }
    this.usesDone = hasReturn(f.body);
    this.firstGroup = tree[0]?.k === "group" ? tree[0].id : -1;
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
    for (const l of rt.zeroedPerBlock(new Set(this.perThread.keys()), this.values)) { this.addr(this.perThread.get(l)!); this.i32(0); this.get(this.nt); this.i32(slotBytes(f.locals[l].type)); this.op("i32.mul"); FC_FILL(this.c); }
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
      this.slotAddress(at.xv, at.bytes); this.expr(s.args[0]); this.op(perThreadOps(t)[1]).u32(0).u32(0);
      if (at.xl) { this.addr(at.xl); this.get(this.t); this.i32(2); this.op("i32.shl"); this.op("i32.add"); this.expr(s.args[1]); this.op("i32.store").u32(2).u32(0); }
      return;
    }
    const vt = this.exchangeType(x);
    const S = this.builtinSlots.get("subgroupSize")!;
    const l = this.temp(V.i32), b = this.temp(V.i32), nn = this.temp(V.i32), j = this.temp(V.i32);
    this.get(this.t); this.laneOf(); this.set(l);
    this.get(this.t); this.get(l); this.op("i32.sub"); this.set(b);
    this.subgroupLanes(b); this.set(nn);
    const read = (index: () => void) => { this.addr(at.xv); index(); this.i32(at.bytes === 8 ? 3 : 2); this.op("i32.shl"); this.op("i32.add"); this.op(perThreadOps(vt)[0]).u32(0).u32(0); };
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
      if (at.xl) { this.addr(at.xl); this.get(this.t); this.i32(2); this.op("i32.shl"); this.op("i32.add"); this.op("i32.load").u32(2).u32(0); } else this.expr(s.args[1]);
      this.set(lane);
      switch (s.op) {
        case "shuffle": this.get(lane); this.laneOf(); break;
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

  /**
   * Half of a subgroup operation in four lanes (threads t … t + 3 together), as exchange() does it
   * thread by thread: publish stores the four operands side by side; a shuffle reads, in each
   * lane, the lane it names where that is in the subgroup (else the reader's own value); a
   * reduction is combined once per subgroup, in lane order, where the first of its lanes gets
   * here, and each lane takes its subgroup's result. Every lane of the subgroup takes part: at
   * block level the kernel has no `return`; per subgroup, four lanes run together only where the
   * subgroup's mask holds all its lanes (laneLoop).
   */
  protected override laneExchange(x: Exchange): void {
    const { s, n } = x;
    const at = this.exchangeAt.get(n)!;
    if (at.bytes !== 4) throw new Refused("lanes: an f64 subgroup operation");
    if (this.usesDone && this.sgb < 0) throw new Refused("lanes: a subgroup operation where threads may have returned");
    const vt = this.exchangeType(x);
    if (x.half === "publish") {
      this.slotAddress(at.xv, 4); this.vexpr(s.args[0]); if (vt === "bool") this.simd("i32x4.neg"); this.simd("v128.store").u32(0).u32(0);
      if (at.xl) { this.slotAddress(at.xl, 4); this.vexpr(s.args[1]); this.simd("v128.store").u32(0).u32(0); }
      return;
    }
    const S = this.builtinSlots.get("subgroupSize")!;
    const T = this.local(V.v128), L = this.local(V.v128), B = this.local(V.v128), NN = this.local(V.v128);
    const splatS = (minus: number) => { this.get(S); if (minus) { this.i32(minus); this.op("i32.sub"); } this.simd("i32x4.splat"); };
    // Each lane's thread, its lane in its subgroup, the subgroup's first thread and its lanes (min(S, nt - b)).
    this.get(this.t); this.laneSteps(); this.set(T);
    this.get(T); splatS(1); this.simd("v128.and"); this.set(L);
    this.get(T); this.get(L); this.simd("i32x4.sub"); this.set(B);
    splatS(0); this.get(this.nt); this.simd("i32x4.splat"); this.get(B); this.simd("i32x4.sub"); this.simd("i32x4.min_u"); this.set(NN);
    const out = this.laneLocal(s.result);
    const result = scalarOf(this.f.locals[s.result].type);
    const float = (t: Scalar) => t === "f32";
    if (s.op.startsWith("shuffle")) {
      const lane = this.local(V.v128), J = this.local(V.v128);
      if (!at.xl && (s.op === "shuffleDown" || s.op === "shuffleUp")) {
        // A delta the threads share: the four lanes' sources side by side, t ± d (d clamped to
        // S: a lane that far reads its own value), where they are in the subgroup.
        const d = this.local(V.i32);
        this.expr(s.args[1]); this.get(S); this.expr(s.args[1]); this.get(S); this.op("i32.lt_u"); this.op("select"); this.set(d);
        this.slotAddress(at.xv, 4); this.get(d); this.i32(2); this.op("i32.shl"); this.op(s.op === "shuffleDown" ? "i32.add" : "i32.sub"); this.simd("v128.load").u32(0).u32(0);
        this.slotAddress(at.xv, 4); this.simd("v128.load").u32(0).u32(0);
        if (s.op === "shuffleDown") { this.get(L); this.get(d); this.simd("i32x4.splat"); this.simd("i32x4.add"); this.get(NN); this.simd("i32x4.lt_u"); }
        else { this.get(d); this.simd("i32x4.splat"); this.get(L); this.simd("i32x4.le_u"); }
        this.simd("v128.bitselect");
        if (vt === "bool") this.simd("i32x4.neg");
        this.set(out);
        return;
      }
      if (at.xl) { this.slotAddress(at.xl, 4); this.simd("v128.load").u32(0).u32(0); } else { this.expr(s.args[1]); this.simd("i32x4.splat"); }
      this.set(lane);
      switch (s.op) {
        case "shuffle": this.get(lane); splatS(1); this.simd("v128.and"); break;
        // (l + lane where lane < S - l, else S: past the subgroup.)
        case "shuffleDown": this.get(L); this.get(lane); this.simd("i32x4.add"); splatS(0); this.get(lane); splatS(0); this.get(L); this.simd("i32x4.sub"); this.simd("i32x4.lt_u"); this.simd("v128.bitselect"); break;
        case "shuffleUp": this.get(L); this.get(lane); this.simd("i32x4.sub"); splatS(0); this.get(lane); this.get(L); this.simd("i32x4.le_u"); this.simd("v128.bitselect"); break;
        default: this.get(L); this.get(lane); this.simd("v128.xor"); break;
      }
      this.set(J);
      // The thread each lane reads: b + j where j is in the subgroup, else its own.
      this.get(B); this.get(J); this.simd("i32x4.add"); this.get(T); this.get(J); this.get(NN); this.simd("i32x4.lt_u"); this.simd("v128.bitselect"); this.set(J);
      // Four threads side by side (a shuffle down or up by the same delta, mostly): their four
      // values at once; else lane by lane.
      const j0 = this.local(V.i32);
      this.get(J); this.simd("i32x4.extract_lane").byte(0); this.set(j0);
      this.get(J); this.get(j0); this.laneSteps(); this.simd("i32x4.eq"); this.simd("i32x4.all_true");
      this.open("if", "other");
      this.addr(at.xv); this.get(j0); this.i32(2); this.op("i32.shl"); this.op("i32.add"); this.simd("v128.load").u32(0).u32(0); this.set(out);
      this.op("else");
      for (let k = 0; k < 4; k++) {
        if (k) this.get(out);
        this.addr(at.xv); this.get(J); this.simd("i32x4.extract_lane").byte(k); this.i32(2); this.op("i32.shl"); this.op("i32.add");
        this.op(float(vt) ? "f32.load" : "i32.load").u32(2).u32(0);
        if (k) this.simd(float(vt) ? "f32x4.replace_lane" : "i32x4.replace_lane").byte(k); else this.simd(float(vt) ? "f32x4.splat" : "i32x4.splat");
        this.set(out);
      }
      this.close();
      if (vt === "bool") { this.get(out); this.simd("i32x4.neg"); this.set(out); }
      return;
    }
    // A reduction: lane k's subgroup combined where it is not the one combined last.
    const { xk, xr } = this.reduction(x);
    const acc = this.local(valType(result)), bk = this.local(V.i32), nk = this.local(V.i32), j = this.local(V.i32);
    for (let k = 0; k < 4; k++) {
      this.get(B); this.simd("i32x4.extract_lane").byte(k); this.set(bk);
      this.get(xk); this.get(bk); this.op("i32.ne");
      this.open("if", "other");
      this.get(NN); this.simd("i32x4.extract_lane").byte(k); this.set(nk);
      this.combineInit(s.op, result, vt); this.set(acc);
      this.i32(0); this.set(j);
      this.open("block", "other"); this.open("loop", "other");
      this.get(j); this.get(nk); this.op("i32.ge_u"); this.op("br_if").u32(1);
      this.combineStep(s.op, vt, acc, () => { this.addr(at.xv); this.get(bk); this.get(j); this.op("i32.add"); this.i32(2); this.op("i32.shl"); this.op("i32.add"); this.op(float(vt) ? "f32.load" : "i32.load").u32(2).u32(0); }, j);
      this.get(j); this.i32(1); this.op("i32.add"); this.set(j); this.op("br").u32(0);
      this.close(); this.close();
      this.get(bk); this.set(xk); this.get(acc); this.set(xr);
      this.close();
      if (k) this.get(out);
      this.get(xr);
      if (k) this.simd(float(result) ? "f32x4.replace_lane" : "i32x4.replace_lane").byte(k); else this.simd(float(result) ? "f32x4.splat" : "i32x4.splat");
      this.set(out);
    }
    if (result === "bool") { this.get(out); this.simd("i32x4.neg"); this.set(out); }
  }

  /** The lanes of the subgroup whose first thread is in local `b`: min(S, nt - b), onto the stack. */
  private subgroupLanes(b: number): void {
    const S = this.builtinSlots.get("subgroupSize")!;
    this.get(S); this.get(this.nt); this.get(b); this.op("i32.sub"); this.get(S); this.get(this.nt); this.get(b); this.op("i32.sub"); this.op("i32.lt_u"); this.op("select");
  }

  /** The i32 on the stack modulo the subgroup size (a power of two: devices/cpu.ts takes no other). */
  private laneOf(): void { this.get(this.builtinSlots.get("subgroupSize")!); this.i32(1); this.op("i32.sub"); this.op("i32.and"); }

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
    this.subgroupLanes(sgb); this.set(n);
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
    const body = () => {
      this.expr(cond);
      this.open("if", "other");
      this.get(v); this.laneBit(); this.op("i32.or"); this.set(v);
      this.close();
    };
    if (this.sgb < 0) { this.threadLoop(group, body); return v; }
    // (Four lanes at a time: their bits of the condition, at t - sgb.)
    const form = this.lanesForm(group, [], false, new Map(), false, () => {
      this.get(v); this.vexpr(cond); this.simd("i32x4.bitmask"); this.get(this.t); this.get(this.sgb); this.op("i32.sub"); this.op("i32.shl"); this.op("i32.or"); this.set(v);
    });
    this.laneLoop(group, body, form);
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
    if (this.sgb >= 0) return this.laneLoop(group, body, stmts ? this.lanesOf(group, stmts) : null);
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
      // Four threads at once where they can run so (wasm-lanes.ts): in a loop of
      // their own from the row's start, or tried at each thread.
      this.i32(0); this.set(this.builtinSlots.get("threadIdx.x")!);
      const split = stmts ? this.lanesSplit(group, stmts) : null;
      if (split) { this.fours = true; return this.splitLoop(split, () => { this.threadIndex(); this.threadBody(group, body); }); }
      const form = stmts ? this.lanesOf(group, stmts) : null;
      if (form) this.place(form.prologue);
      const loop = form !== null && !form.bails && !this.usesDone;
      if (loop) { this.fours = true; this.lanesLoop(form); }
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


  /**
   * The lanes of the current subgroup in its current mask (those that returned left it), lowest
   * first: four at a time where the group has a form that nothing in can give the threads back,
   * the mask holds every lane of the subgroup and the block is one row (x is t, so four lanes are
   * four threads of a row), the last lanes (fewer than four) one at a time.
   */
  private laneLoop(group: number, body: () => void, form: LanesForm | null): void {
    const tm = this.local(V.i32);
    const b = (x: "threadIdx.x" | "threadIdx.y" | "threadIdx.z" | "blockDim.x" | "blockDim.y") => this.builtinSlots.get(x)!;
    this.get(this.masks.at(-1)!); this.set(tm);
    if (form && !form.bails) {
      const end = this.local(V.i32), d = this.local(V.i32);
      // end: the subgroup's first thread plus its lanes, min(S, nt - sgb).
      this.subgroupLanes(this.sgb);
      this.set(d);
      this.get(this.sgb); this.get(d); this.op("i32.add"); this.set(end);
      // (All of them: the mask is the d low bits.)
      this.get(tm); this.i32(-1); this.i32(32); this.get(d); this.op("i32.sub"); this.op("i32.shr_u"); this.op("i32.eq");
      this.get(b("blockDim.x")); this.get(this.nt); this.op("i32.eq"); this.op("i32.and");
      this.open("if", "other");
      this.place(form.prologue);
      this.get(this.sgb); this.set(b("threadIdx.x"));
      this.i32(0); this.set(b("threadIdx.y"));
      this.i32(0); this.set(b("threadIdx.z"));
      this.fours = true;
      this.lanesLoop(form, end);
      // The lanes it left: those from x on.
      this.get(b("threadIdx.x")); this.get(this.sgb); this.op("i32.sub"); this.set(d);
      this.i32(0); this.get(tm); this.i32(-1); this.get(d); this.op("i32.shl"); this.op("i32.and"); this.get(d); this.i32(32); this.op("i32.ge_u"); this.op("select"); this.set(tm);
      this.close();
    }
    this.open("block", "other"); this.open("loop", "other");
    this.get(tm); this.op("i32.eqz"); this.op("br_if").u32(1);
    this.open("block", "other");
    this.get(this.sgb); this.get(tm); this.op("i32.ctz"); this.op("i32.add"); this.set(this.t);
    // (A block of one row, the usual one: x is t, without the divisions.)
    this.get(this.t); this.set(b("threadIdx.x"));
    this.i32(0); this.set(b("threadIdx.y"));
    this.i32(0); this.set(b("threadIdx.z"));
    this.get(b("blockDim.x")); this.get(this.nt); this.op("i32.ne");
    this.open("if", "other");
    this.get(this.t); this.get(b("blockDim.x")); this.op("i32.rem_u"); this.set(b("threadIdx.x"));
    this.get(this.t); this.get(b("threadIdx.x")); this.op("i32.sub"); this.get(b("blockDim.x")); this.op("i32.div_u"); this.get(b("blockDim.y")); this.op("i32.rem_u"); this.set(b("threadIdx.y"));
    this.get(this.t); this.get(b("threadIdx.x")); this.op("i32.sub"); this.get(b("threadIdx.y")); this.get(b("blockDim.x")); this.op("i32.mul"); this.op("i32.sub");
    this.get(b("blockDim.x")); this.get(b("blockDim.y")); this.op("i32.mul"); this.op("i32.div_u"); this.set(b("threadIdx.z"));
    this.close();
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
      if (this.mod.o.builtins[this.fi].includes("subgroupLaneId")) { this.get(this.t); this.laneOf(); this.set(this.builtinSlots.get("subgroupLaneId")!); }
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
        cached.push(l);
        // (A value the group assigns before any read, on every way through it, is not loaded.)
        if (this.rt.defines.get(group)?.has(l)) return;
        this.slotAddress(at, slotBytes(loc.type)); this.op(perThreadOps(scalarOf(loc.type))[0]).u32(0).u32(0); this.set(slot);
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

}

/** Bytes a thread's slot of a per-thread scalar of type `t` takes. */
function slotBytes(t: Type): number { return t.kind === "scalar" && t.scalar === "f64" ? 8 : 4; }

/** The load and store of a per-thread value of type `s`. */
function perThreadOps(s: Elem): ["i32.load" | "f32.load" | "f64.load", "i32.store" | "f32.store" | "f64.store"] {
  return s === "f32" ? ["f32.load", "f32.store"] : s === "f64" ? ["f64.load", "f64.store"] : ["i32.load", "i32.store"];
}
