// The values of the four-lane form (wasm-lanes.ts says what the form is, and why it leaves what the
// threads one after another leave): each expression as a v128 of its four lanes, constants and
// lane steps as splats set once in the form's prologue, what is the same in all four lanes, an
// index's value number and its steps from threadIdx.x, the arrays a group stores to; and the
// state of the form being emitted (Lanes) and of what it has tested on the path (LaneTests).

import type { Expr, ExprHandle, Stmt } from "../../ir/module.js";
import { exprOperands, stmtOperands, walkStmts } from "../../ir/module.js";
import type { Scalar } from "../../ir/types.js";
import { SIMD, V, type SimdOp } from "./wasm-binary.js";
import { FunctionEmitter, Refused, bytesOf, type Static } from "./wasm-function.js";
import type { ValueAnalysis } from "./uniformity.js";
import type { RegionTree } from "./region-tree.js";

/** Expressions of the four-lane form, under its statements (LanesEmitter); the region emitter sets the state below. */
export abstract class LaneExprs extends FunctionEmitter {
  protected rt!: RegionTree;
  /** Locals kept per thread: where their storage starts. */
  protected perThread = new Map<number, Static>();
  protected values!: ValueAnalysis;
  protected usesDone = false;
  /** The first region's group where the kernel starts with one (no thread has returned before it), else -1. */
  protected firstGroup = -1;
  protected doneAt!: Static;
  /** The current thread's index in its block (threadIndex). */
  protected t = 0;

  /** The address of this thread's 8 bytes in per-thread storage at `at`. */
  protected slotAddress(at: Static, bytes: number): void { this.addr(at); this.get(this.t); this.i32(bytes === 8 ? 3 : 2); this.op("i32.shl"); this.op("i32.add"); }

  /** The thread's index in its block, t: (z · dy + y) · dx + x. */
  protected threadIndex(): void {
    const s = (b: "threadIdx.x" | "threadIdx.y" | "threadIdx.z" | "blockDim.x" | "blockDim.y") => this.get(this.builtinSlots.get(b)!);
    s("threadIdx.z"); s("blockDim.y"); this.op("i32.mul"); s("threadIdx.y"); this.op("i32.add"); s("blockDim.x"); this.op("i32.mul"); s("threadIdx.x"); this.op("i32.add");
    this.set(this.t);
  }

  /** Where the four-lane form of a group is being emitted. */
  protected lanes: Lanes | null = null;

  /**
   * Outside a four-lane form, while a split row's group is analysed and its parts' conditions are
   * evaluated (wasm-rows.ts): its locals assigned once from x plus shared values (`tmp = t -
   * offset`, an index the front end spilled for its check), each read only where that assignment
   * has certainly run — local → that value. (In a form, its own forms: Lanes.forms.)
   */
  protected rowForms: Map<number, ExprHandle> | null = null;

  /** The form of local `l`: its definition where rematerialized, else its value of x plus shared values where known. */
  private formOf(l: number): ExprHandle | undefined {
    return this.values.remat.get(l) ?? (this.lanes ? this.lanes.forms.get(l) : this.rowForms?.get(l));
  }


  /** The v128 local holding four lanes of what `emit` leaves, set in the form's prologue (Lanes.invariant). */
  private invariant(key: string, emit: () => void): void {
    const inv = this.lanes!.invariant;
    let x = inv.get(key);
    if (!x) inv.set(key, (x = { local: this.local(V.v128), emit }));
    this.get(x.local);
  }

  /** A condition the four lanes agree on (laneUni, or shared by the threads) as an i32 for `if`/`br_if`: lane 0's. */
  protected scalarCond(h: ExprHandle): void {
    if (this.values.isUniform(h)) return this.expr(h);
    this.vexpr(h); this.simd("i32x4.extract_lane").byte(0);
  }

  /**
   * Whether expression `h` has one value in all four lanes: a constant, a value the threads
   * share, a local of the group's that is so (Lanes.lu), an element all four load at one such
   * index of an array the group does not store to, and what is computed from such values.
   */
  protected laneUni(h: ExprHandle): boolean {
    const ln = this.lanes;
    if (!ln) return false;
    if (this.values.isUniform(h)) return true;
    const e = this.f.exprs[h];
    switch (e.k) {
      case "const": return true;
      case "local": { const d = this.values.remat.get(e.local); return d !== undefined ? this.laneUni(d) : ln.lu.has(e.local); }
      case "op": case "convert": case "select": return exprOperands(e).every((o) => this.laneUni(o));
      case "load": return this.values.isUniform(e.array) && this.laneUni(e.index) && !ln.stores.has(this.arrayKey(e.array, ln.assigned));
      default: return false;
    }
  }

  protected simd(o: SimdOp) { return this.c.byte(0xfd).u32(SIMD[o]); }

  /** A v128 of four lanes of the constant `k` of type `s` (a bool as its mask). */
  protected vconst(k: number | boolean, s: Scalar): void {
    if (s === "f32") return this.invariant(`f${Object.is(k, -0) ? "-0" : Number(k)}`, () => { this.op("f32.const").f32(Number(k)); this.simd("f32x4.splat"); });
    const v = s === "bool" ? (k ? -1 : 0) : Number(k) | 0;
    this.invariant(`i${v}`, () => { this.i32(v); this.simd("i32x4.splat"); });
  }

  /** The i32 on the stack plus 0, 1, 2, 3 in the four lanes. */
  protected laneSteps(): void {
    this.simd("i32x4.splat");
    this.invariant("steps", () => this.simd("v128.const").raw([0, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0]));
    this.simd("i32x4.add");
  }

  /** The scalar of type `s` on the stack as four lanes of it (a bool 0 or 1 as its mask). */
  private splat(s: Scalar): void {
    if (s === "f32") { this.simd("f32x4.splat"); return; }
    if (s === "f64") throw new Refused("lanes: f64");
    this.simd("i32x4.splat");
    if (s === "bool") this.simd("i32x4.neg");
  }

  /** The scalar type of expression `h` (four lanes of it: i32/u32 as i32x4, f32 as f32x4, bool as a mask). */
  private laneType(h: ExprHandle): Scalar {
    const t = this.f.exprs[h].type;
    if (t.kind !== "scalar" || t.scalar === "f64") throw new Refused("lanes: a value of this type");
    return t.scalar;
  }

  /** Expression `h`, lane by lane, onto the stack as a v128. */
  protected vexpr(h: ExprHandle): void {
    const e: Expr = this.f.exprs[h];
    const ts = this.laneType(h);
    const ln = this.lanes!;
    // A value the threads share: once, for all four.
    if (this.values.isUniform(h)) return this.invariant(`u${h} ${ts}`, () => { this.expr(h); this.splat(ts); });
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
        // (Lane i is thread t + i's: its lane in its subgroup, t + i modulo the subgroup's size, a power of two.)
        if (e.name === "subgroupLaneId") { this.get(this.t); this.laneSteps(); this.get(this.builtinSlots.get("subgroupSize")!); this.i32(1); this.op("i32.sub"); this.simd("i32x4.splat"); this.simd("v128.and"); return; }
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
      case "op": return this.vop(e as Extract<Expr, { k: "op" }>, ts, h);
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

  private vop(e: Extract<Expr, { k: "op" }>, ts: Scalar, h: ExprHandle): void {
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
    if (t === "bool" || ts === "f64" || (e.op === "land" || e.op === "lor")) throw new Refused(`lanes: ${e.op}`);
    // Lane by lane where SIMD has no such instruction (an integer division, a shift by counts
    // that differ, Math's functions): each lane's operands out of their vectors, the scalar op
    // as the thread computes it, its result into its lane (a bool as its mask).
    const vs = e.args.map((a) => { const l = this.local(V.v128); this.vexpr(a); this.set(l); return l; });
    const out = this.local(V.v128), fl = ts === "f32";
    // (An integer division or remainder by a divisor the threads share that is a power of two —
    // `t / subgroupSize()` — as shifts, exact as JavaScript's truncating (a / b) | 0 and a % b:
    // q = (a + (a < 0 ? b - 1 : 0)) >> k; a % b = a - (q << k), or a & (b - 1) unsigned.)
    const pow2 = (e.op === "div" || e.op === "rem") && this.values.isUniform(e.args[1]);
    if (pow2) {
      const b = this.local(V.i32), m = this.local(V.v128);
      this.expr(e.args[1]); this.set(b);
      this.get(b); this.i32(1); this.op("i32.sub"); this.simd("i32x4.splat"); this.set(m);
      this.get(b); this.i32(0); this.op(t === "u32" ? "i32.ne" : "i32.gt_s");
      this.get(b); this.get(b); this.i32(1); this.op("i32.sub"); this.op("i32.and"); this.op("i32.eqz"); this.op("i32.and");
      this.open("if", "other");
      const k = () => { this.get(b); this.op("i32.ctz"); };
      if (t === "u32") {
        this.get(vs[0]);
        if (e.op === "div") { k(); this.simd("i32x4.shr_u"); } else { this.get(m); this.simd("v128.and"); }
      } else {
        const q = this.local(V.v128);
        this.get(vs[0]); this.get(vs[0]); this.i32(31); this.simd("i32x4.shr_s"); this.get(m); this.simd("v128.and"); this.simd("i32x4.add"); k(); this.simd("i32x4.shr_s"); this.set(q);
        if (e.op === "div") this.get(q); else { this.get(vs[0]); this.get(q); k(); this.simd("i32x4.shl"); this.simd("i32x4.sub"); }
      }
      this.set(out);
      this.op("else");
    }
    for (let k = 0; k < 4; k++) {
      this.operandOverride = new Map(e.args.map((a, i) => [a, () => { this.get(vs[i]); this.simd(f ? "f32x4.extract_lane" : "i32x4.extract_lane").byte(k); }]));
      if (k) this.get(out);
      try { this.expr(h); } finally { this.operandOverride = null; }
      this.simd(k ? (fl ? "f32x4.replace_lane" : "i32x4.replace_lane") : (fl ? "f32x4.splat" : "i32x4.splat"));
      if (k) this.c.byte(k);
      this.set(out);
    }
    if (pow2) this.close();
    this.get(out);
    if (ts === "bool") this.simd("i32x4.neg");
  }

  /** Lane 0's value of index `h`, one of xSteps' form, as a scalar. */
  protected xScalar(h: ExprHandle): void {
    if (this.values.isUniform(h)) return this.expr(h);
    if (this.lanes && this.laneUni(h)) { this.vexpr(h); this.simd("i32x4.extract_lane").byte(0); return; }
    const e = this.f.exprs[h];
    switch (e.k) {
      case "builtin": this.get(this.builtinSlots.get(e.name === "threadIdx.y" || e.name === "threadIdx.z" ? e.name : "threadIdx.x")!); return;
      case "local": { const d = this.formOf(e.local); if (d === undefined) return this.expr(h); return this.xScalar(d); }
      case "convert": return this.xScalar(e.arg);
      case "op":
        if (e.op !== "add" && e.op !== "sub") return this.expr(h);
        this.xScalar(e.args[0]); this.xScalar(e.args[1]); this.op(e.op === "add" ? "i32.add" : "i32.sub"); return;
      default: return this.expr(h);
    }
  }

  /** Whether expression `h` reads local `l` (through rematerialized locals and forms too). */
  protected reads(h: ExprHandle, l: number): boolean {
    const e = this.f.exprs[h];
    if (e.k === "local") {
      if (e.local === l) return true;
      const d = this.formOf(e.local);
      return d !== undefined && this.reads(d, l);
    }
    return exprOperands(e).some((o) => this.reads(o, l));
  }

  /** Local `l` is assigned: its form, and every form that reads it, no longer hold. */
  protected forget(l: number): void {
    const forms = this.lanes!.forms;
    forms.delete(l);
    for (const [m, h] of [...forms]) if (this.reads(h, l)) forms.delete(m);
  }

  /** Whether expression `h` depends on data: it loads, or reads a local of the group (not a value of the thread's index and shared values). */
  protected onData(h: ExprHandle): boolean {
    const e = this.f.exprs[h];
    if (this.values.isUniform(h) || e.k === "load") return e.k === "load";
    if (e.k === "local") { const d = this.values.remat.get(e.local); return d === undefined ? this.lanes!.v.has(e.local) : this.onData(d); }
    return exprOperands(e).some((o) => this.onData(o));
  }

  /** Whether expression `h` loads (or reads a local defined by one). */
  protected loads(h: ExprHandle): boolean {
    const e = this.f.exprs[h];
    if (e.k === "load") return true;
    if (e.k === "local") { const d = this.values.remat.get(e.local); return d !== undefined && this.loads(d); }
    return exprOperands(e).some((o) => this.loads(o));
  }

  /** How many steps index `h` takes from one thread to the next along x: threadIdx.x times it plus a shared value; null where it is not of that form. */
  protected xSteps(h: ExprHandle): number | null {
    if (this.values.isUniform(h) || (this.lanes && this.laneUni(h))) return 0;
    const e = this.f.exprs[h];
    switch (e.k) {
      // (y and z: one value along a row, which a split row's parts and four lanes lie in.)
      case "builtin": return e.name === "threadIdx.x" ? 1 : e.name === "threadIdx.y" || e.name === "threadIdx.z" ? 0 : null;
      case "local": {
        const d = this.formOf(e.local);
        return d === undefined ? null : this.xSteps(d);
      }
      case "convert": {
        const from = this.f.exprs[e.arg].type;
        return from.kind === "scalar" && (from.scalar === "i32" || from.scalar === "u32") ? this.xSteps(e.arg) : null;
      }
      case "op": {
        const steps = e.args.map((a) => this.xSteps(a));
        if (steps.includes(null)) return null;
        // (Anything of values one along the row is one along it.)
        if (steps.every((x) => x === 0)) return exprOperands(e).length && !this.loads(h) ? 0 : null;
        if (e.op !== "add" && e.op !== "sub") return null;
        return e.op === "add" ? steps[0]! + steps[1]! : steps[0]! - steps[1]!;
      }
      default: return null;
    }
  }

  /** The value number of array `a`'s length (vn): a constant's for a shared array or a table, else its `length`'s. */
  protected lengthVn(a: ExprHandle): string {
    const e = this.f.exprs[a];
    if (e.k === "shared" && !this.mod.layout.dynamicShared[e.shared]) return `${this.mod.m.shared[e.shared].type.size ?? 0}:i32`;
    if (e.k === "global") return `${this.mod.m.globals[e.global].value.length}:i32`;
    return `(length ${this.vn(a)})`;
  }

  /**
   * The keys of the arrays the group stores to (see arrayKey), and of those it accesses by one
   * store and nothing else (`sole`: no load, atomic or other store; a "?" never) — from every
   * expression its statements use, a loop's condition too. Null where it has no four-lane form:
   * it stores to an array reached through a local that is not a parameter, or stores and reads one.
   */
  protected arraysUsed(stmts: Stmt[], assigned: Set<number>): { stores: Set<string>; sole: Set<string> } | null {
    const uses = new Map<string, number>(), stores = new Set<string>();
    const use = (k: string, n: number) => uses.set(k, (uses.get(k) ?? 0) + n);
    const inExpr = (h: ExprHandle) => {
      const e = this.f.exprs[h];
      if (e.k === "load") use(this.arrayKey(e.array, assigned), 2);
      if (e.k === "local") { const d = this.values.remat.get(e.local); if (d !== undefined) inExpr(d); }
      for (const o of exprOperands(e)) inExpr(o);
    };
    walkStmts(stmts, (st) => {
      if (st.k === "store") { const k = this.arrayKey(st.array, assigned); stores.add(k); use(k, 1); }
      if (st.k === "atomic") use(this.arrayKey(st.array, assigned), 2);
      for (const h of stmtOperands(st)) inExpr(h);
    });
    if (stores.has("?") || (stores.size && uses.has("?"))) return null;
    return { stores, sole: new Set([...uses].filter(([k, n]) => n === 1 && k !== "?").map(([k]) => k)) };
  }

  /** Which array `a` is for the tests: a shared array, a table, the parameters (any of them may be any other), or "?" (a local the group assigns, a view, a private array). */
  protected arrayKey(a: ExprHandle, assigned: Set<number>): string {
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
  protected vn(h: ExprHandle): string | null {
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

  /** An access in the four lanes, tested as the form's statements test them (LanesEmitter). */
  protected abstract laneAccess(array: ExprHandle, index: ExprHandle, inside: boolean, store: boolean, top?: boolean): { at: number; one: boolean };
}

export interface Lanes {
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
  /** Whether `mask` is a side's of an `if` outside any mask: one lane at least runs (laneIf tested so). */
  top: boolean;
  /** Whether an `if` on the thread's index runs its sides under masks where its lanes disagree (lanesOf). */
  maskIndex: boolean;
  /** Whether one did. */
  maskedIndex: boolean;
  /** `if`s whose condition is known for all four lanes (a part of a split row: lanesSplit), and its value. */
  known: Map<Stmt, boolean>;
  /** Whether the kernel's array parameters are known not to overlap (a split row tests so), and whether an access relied on it. */
  disjoint: boolean;
  usedDisjoint: boolean;
  /**
   * Four lanes of a value that does not change while the row's threads run (a constant, one the
   * threads share, lane steps), by key: its v128 local, set once before the row (the form's
   * prologue) — V8 does not move such splats out of the loop itself.
   */
  invariant: Map<string, { local: number; emit: () => void }>;
  /** The statements after the one being emitted, in each enclosing block (vblock). */
  rest: Stmt[][];
  /** Whether a test (laneAccess) was emitted: one that may fail for four threads at a time. */
  tested: boolean;
  /** Whether anything in it can send the threads back to one at a time (bail). */
  bails: boolean;
  tests: LaneTests;
  /** Locals of the group whose value is the same in all four lanes wherever it is read (laneUniform). */
  lu: Set<number>;
  /** The group's loops whose lanes may leave at different iterations (laneUniform): they run under masks. */
  divergent: Set<Stmt>;
  /** `if`s the lanes may disagree on that run unmasked, so that in each side all four lanes took it (laneUniform). */
  agree: Set<Stmt>;
  /** The enclosing loops of the form, innermost last: under masks, the v128 locals of the lanes in it and in this iteration. */
  loops: { masked: boolean; lm: number; cm: number }[];
  /** The keys of the arrays the group accesses by one store and nothing else (arraysUsed): stored lane by lane. */
  sole: Set<string>;
}

/** What the four-lane form has tested on the path being emitted (each side of an `if` adds to a copy). */
export interface LaneTests {
  /** The tests made: `c<index>` consecutive, `b<access>` inside its array, `o<access> <access>` apart, `k<condition>` a check's (false in all four lanes). */
  done: Set<string>;
  /** An index's value number → the i32 local holding lane 0's index. */
  base: Map<string, number>;
  /** An access (`array[index]` in value numbers) → the i32 local holding lane 0's byte address. */
  at: Map<string, number>;
  /** An array key stored to → the accesses to it tested so far (`one`: the lanes' one element; the array's and the index's value numbers). */
  accesses: Map<string, { key: string; one: boolean; va: string; vi: string }[]>;
}

export function copyTests(t: LaneTests): LaneTests {
  return { done: new Set(t.done), base: new Map(t.base), at: new Map(t.at), accesses: new Map([...t.accesses].map(([k, v]) => [k, [...v]])) };
}
