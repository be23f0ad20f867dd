// A kernel with barriers on the JS target's WebAssembly path: the per-block function runs its
// body split at the barriers into regions, each a loop over the block's threads, exactly as the
// JavaScript does (regions.ts; its top says what a region is and why): the same region tree, the
// same uniform values (uniformity.ts: evaluated once per block, kept across blocks), the same
// locals kept per thread (used in two regions, or read before assigned in a region inside a loop
// with a barrier), the same threads skipped (those that returned), the same conditions checked
// for agreement in thread order (`divergent`, the loader's, throws at the first thread that
// disagrees), the same end of the block when no thread runs a condition any more.
//
// Per-thread values live in linear memory, 8 bytes a thread (1,024 threads, the most a block has),
// loaded into locals at the start of each thread of a region that uses them and stored back at its
// end where the region assigns them; per-thread private arrays likewise, one slice a thread.
// Subgroup operations are not on this path (wasm.ts refuses them).

import type { ExprHandle, Loc, Stmt } from "../../ir/module.js";
import { isArray, type Elem } from "../../ir/types.js";
import { V } from "./wasm-binary.js";
import { BLOCK_THREADS, FC_FILL, FunctionEmitter, Refused, bytesOf, scalarOf, valType } from "./wasm-function.js";
import { analyzeValues, type ValueAnalysis } from "./uniformity.js";
import { RegionTree, type Region } from "./region-tree.js";
import { hasReturn } from "./function.js";

export class RegionKernelEmitter extends FunctionEmitter {
  private rt!: RegionTree;
  /** Locals kept per thread: where their storage starts. */
  private perThread = new Map<number, number>();
  private values!: ValueAnalysis;
  private usesDone = false;
  private doneAt = 0;
  private t = 0;
  private nt = 0;

  /** The block: its regions in order, between the uniform values loaded and stored back. */
  protected override threads(): void {
    const f = this.f;
    const rt = (this.rt = new RegionTree(f));
    const tree = rt.regions(f.body, false, null);
    if (rt.exchanges.size) throw new Refused("subgroup operations");
    this.values = analyzeValues(f, rt.groupStatements(tree));
    this.usesDone = hasReturn(f.body);
    for (const l of rt.perThreadLocals(this.values)) {
      const t = f.locals[l].type;
      this.perThread.set(l, this.mod.reserve(BLOCK_THREADS * (isArray(t) ? (t.size ?? 0) * bytesOf(t.elem) : 8), true));
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
      this.i32(saved + i * 8);
      if (store) { this.get(this.slots[l] as number); this.op(save).u32(0).u32(0); }
      else { this.op(load).u32(0).u32(0); this.set(this.slots[l] as number); }
    });
    each(false);
    if (this.usesDone) { this.i32(this.doneAt); this.i32(0); this.get(this.nt); FC_FILL(this.c); }
    this.open("block", "block");
    this.emitRegions(tree);
    this.close();
    each(true);
  }

  // ---- emission ------------------------------------------------------------------------------

  protected override kernelReturn(): void {
    this.i32(this.doneAt); this.get(this.t); this.op("i32.add"); this.i32(1); this.op("i32.store8").u32(0).u32(0);
    this.op("br").u32(this.depth("thread"));
  }

  /** A rematerialized local is its definition, where it is read; its one assignment is not emitted. */
  protected override readLocal(l: number): void {
    const def = this.values.remat.get(l);
    if (def !== undefined) this.expr(def); else super.readLocal(l);
  }

  protected override stmt(s: Stmt): void {
    if (s.k === "set" && this.values.remat.has(s.local)) return;
    super.stmt(s);
  }

  private emitRegions(regions: Region[]): void {
    for (const r of regions) {
      switch (r.k) {
        case "group": {
          // Uniform assignments at the start and end of a region run once, outside the thread loop.
          const hoisted = this.values.hoisted;
          let i = 0, j = r.stmts.length;
          while (i < j && hoisted.has(r.stmts[i])) i++;
          while (j > i && hoisted.has(r.stmts[j - 1])) j--;
          this.block(r.stmts.slice(0, i));
          if (i < j) this.threadLoop(r.id, () => this.block(r.stmts.slice(i, j)));
          this.block(r.stmts.slice(j));
          break;
        }
        case "if": {
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
          const temps: number[] = [];
          const breakIf = r.breakIf;
          this.loopOf(["rbreak", "rcontinue"], () => this.emitRegions(r.body), () => this.emitRegions(r.continuing), breakIf === null ? null : () => {
            const c = this.uniform(breakIf, r.group, r.loc);
            this.get(c); this.i32(1); this.op("i32.eq");
            temps.push(c);
          });
          for (const c of temps) this.release(V.i32, c);
          break;
        }
        case "break": this.op("br").u32(this.depth("rbreak")); break;
        case "continue": this.op("br").u32(this.depth("rcontinue")); break;
      }
    }
  }

  /**
   * One loop over the block's threads still running (z, y, x; x fastest): the group's plain
   * locals zeroed, its per-thread values loaded, `body`, the values it assigned stored back (a
   * thread that returns skips that: it is done).
   */
  private threadLoop(group: number, body: () => void): void {
    const f = this.f;
    const inGroup = (l: number) => this.rt.groupsOf.get(l)?.has(group) ?? false;
    const counted = (b: "threadIdx.x" | "threadIdx.y" | "threadIdx.z", n: "blockDim.x" | "blockDim.y" | "blockDim.z", inner: () => void) => {
      const v = this.builtinSlots.get(b)!;
      this.i32(0); this.set(v);
      this.open("block", "other"); this.open("loop", "other");
      this.get(v); this.get(this.builtinSlots.get(n)!); this.op("i32.ge_u"); this.op("br_if").u32(1);
      this.open("block", "other");
      inner();
      this.close();
      this.get(v); this.i32(1); this.op("i32.add"); this.set(v); this.op("br").u32(0);
      this.close(); this.close();
    };
    counted("threadIdx.z", "blockDim.z", () => counted("threadIdx.y", "blockDim.y", () => counted("threadIdx.x", "blockDim.x", () => {
      const s = (b: "threadIdx.x" | "threadIdx.y" | "threadIdx.z" | "blockDim.x" | "blockDim.y") => this.get(this.builtinSlots.get(b)!);
      s("threadIdx.z"); s("blockDim.y"); this.op("i32.mul"); s("threadIdx.y"); this.op("i32.add"); s("blockDim.x"); this.op("i32.mul"); s("threadIdx.x"); this.op("i32.add");
      this.set(this.t);
      if (this.usesDone) {
        // (A thread that returned: on to the next, out of the block around this body.)
        this.i32(this.doneAt); this.get(this.t); this.op("i32.add"); this.op("i32.load8_u").u32(0).u32(0);
        this.op("br_if").u32(0);
      }
      const cached: number[] = [];
      f.locals.forEach((loc, l) => {
        if (!inGroup(l) || f.params.includes(l as never) || l === f.stateParam || this.values.remat.has(l) || this.values.uniform.has(l)) return;
        const at = this.perThread.get(l);
        if (isArray(loc.type)) {
          if (at === undefined) return;
          const [ptr] = this.slots[l] as [number, number];
          this.i32(at); this.get(this.t); this.i32((loc.type.size ?? 0) * bytesOf(loc.type.elem)); this.op("i32.mul"); this.op("i32.add"); this.set(ptr);
          return;
        }
        const slot = this.slots[l] as number;
        if (at === undefined) { this.zero(slot, loc.type.kind === "scalar" ? loc.type.scalar : "i32"); return; }
        this.slotAddress(at); this.op(perThreadOps(scalarOf(loc.type))[0]).u32(0).u32(0); this.set(slot);
        cached.push(l);
      });
      this.open("block", "thread");
      body();
      for (const l of cached) {
        if (!this.rt.writtenIn.get(group)?.has(l)) continue;
        this.slotAddress(this.perThread.get(l)!); this.get(this.slots[l] as number); this.op(perThreadOps(scalarOf(f.locals[l].type))[1]).u32(0).u32(0);
      }
      this.close();
    })));
  }

  /** The address of this thread's 8 bytes in per-thread storage at `at`. */
  private slotAddress(at: number): void { this.i32(at); this.get(this.t); this.i32(3); this.op("i32.shl"); this.op("i32.add"); }

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

/** The load and store of a per-thread value of type `s`. */
function perThreadOps(s: Elem): ["i32.load" | "f32.load" | "f64.load", "i32.store" | "f32.store" | "f64.store"] {
  return s === "f32" ? ["f32.load", "f32.store"] : s === "f64" ? ["f64.load", "f64.store"] : ["i32.load", "i32.store"];
}
