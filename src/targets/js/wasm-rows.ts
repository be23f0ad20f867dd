// A region's threads by rows (under wasm-regions.ts, over the four-lane forms of wasm-lanes.ts):
// a group's form in a loop of fours (lanesLoop), tried at each thread (lanesTry), or — where the
// group's conditions on the thread's index change at most a few times along a row — the row split
// into parts, each part's fours running a form with those conditions known (lanesSplit). Why a
// split row leaves what the threads one after another leave: in a part, every such condition has
// the value it has in each of the part's threads (it is x plus a shared value compared with a
// shared value, computed without wrapping, and the part lies between the points where it
// changes), so the form's known sides are the sides each thread takes; a check known to hold in no
// thread holds in none of the part's threads (the part runs one thread at a time where it would
// raise); the array parameters are apart in memory where the form takes them so.

import type { ExprHandle, Stmt } from "../../ir/module.js";
import { assignedLocal, walkStmts } from "../../ir/module.js";
import { exposedReads } from "../../ir/module-info.js";
import { isArray, type Scalar } from "../../ir/types.js";
import { V } from "./wasm-binary.js";
import { bytesOf } from "./wasm-function.js";
import { LanesEmitter, type LanesForm } from "./wasm-lanes.js";

/**
 * A split row (lanesSplit): its `if`s and checks, the conditions that give its parts' boundaries,
 * the group's form for each way the `if`s go (bit i: the i-th's condition; null: none), and the
 * group's locals of x plus shared values its conditions read (LanesEmitter.rowForms).
 */
export interface Split { ifs: Extract<Stmt, { k: "if" }>[]; checks: Extract<Stmt, { k: "check" }>[]; conds: SplitCond[]; forms: (LanesForm | null)[]; disjoint: boolean; locals: Map<number, ExprHandle> }
/** `x op u`; `signedX`: x an i32 compared as u32 (a bounds check's `u32(i) >= n`), which wraps where x is 0. */
interface SplitCond { op: "lt" | "le" | "gt" | "ge" | "eq"; x: ExprHandle; u: ExprHandle; unsigned: boolean; signedX: boolean }

export abstract class RowsEmitter extends LanesEmitter {
  /**
   * A group whose `if`s on the thread's index (at most two) compare x plus a value the threads
   * share with such a value (`i < n`, `t >= offset`, `t === u`): each such condition changes at
   * most twice along a row, so the row splits into parts on each of which every one is the same in
   * all threads, and each part's fours run the group's form with those `if`s' sides known (one form
   * for each way they can go) — no compare, test or mask in the loop (splitLoop). Its checks whose
   * conditions are of that kind too, or the same for all threads, split the row alike: the forms
   * have them known to hold in no thread, and a part where one raises runs one thread at a time
   * (where it raises). Where a way's form gives the threads back (a test or check of its own that
   * fails), the rest of that part runs one thread at a time. Null where the group has no such
   * `if` or check, more than two such `if`s, or no form.
   */
  protected lanesSplit(group: number, stmts: Stmt[]): Split | null {
    // (Where a thread may have returned before the group: it runs one thread at a time, its done
    // flag tested. In the kernel's first region none has; one that returns in it runs alone.)
    if (this.usesDone && group !== this.firstGroup) return null;
    // (No form where each would reach a statement it is refused at, outside every `if`.)
    if (this.reachesRefused(stmts, null)) return null;
    const locals = this.rowForms = this.groupForms(stmts);
    try {
      const ifs: Extract<Stmt, { k: "if" }>[] = [], checks: Extract<Stmt, { k: "check" }>[] = [];
      walkStmts(stmts, (s) => {
        if (s.k === "if" && this.splitConds(s.cond)?.length) ifs.push(s);
        if (s.k === "check" && s.cond !== null && this.splitConds(s.cond)) checks.push(s);
      });
      if (ifs.length > 2 || ifs.length + checks.length === 0) return null;
      const forms: (LanesForm | null)[] = [];
      for (let v = 0; v < 1 << ifs.length; v++) {
        const known = new Map<Stmt, boolean>(checks.map((c) => [c, false]));
        ifs.forEach((st, i) => known.set(st, ((v >> i) & 1) === 1));
        forms.push(this.lanesForm(group, stmts, false, known, true));
      }
      if (forms.every((f) => f === null)) return null;
      const conds = [...ifs, ...checks].flatMap((st) => this.splitConds(st.cond!)!);
      return { ifs, checks, conds, forms, disjoint: forms.some((f) => f?.usedDisjoint), locals };
    } finally { this.rowForms = null; }
  }

  /**
   * The group's locals assigned once in it, from x plus shared values (xSteps 1), where no read of
   * them in it can come before that assignment (exposedReads): in each thread, every read of one
   * in the group sees that value. (Its operands keep their values through the group: shared
   * values are the block's, and a local of this kind it reads is one too, assigned before.)
   */
  private groupForms(stmts: Stmt[]): Map<number, ExprHandle> {
    const writes = new Map<number, number>();
    walkStmts(stmts, (s) => {
      const l = assignedLocal(s);
      if (l !== null) writes.set(l, (writes.get(l) ?? 0) + 1);
    });
    const { exposed } = exposedReads(this.f, stmts);
    const forms = new Map<number, ExprHandle>();
    this.rowForms = forms;
    walkStmts(stmts, (s) => {
      if (s.k !== "set" || writes.get(s.local) !== 1 || exposed.has(s.local) || this.values.remat.has(s.local) || this.values.uniform.has(s.local)) return;
      if (this.xSteps(s.value) === 1 && !this.reads(s.value, s.local)) forms.set(s.local, s.value);
    });
    return forms;
  }

  /** Where a split row's parts begin: its conditions there read the group's locals as their values (rowForms). */
  private partStart = false;

  protected override readLocal(l: number): void {
    const d = this.partStart ? this.rowForms?.get(l) : undefined;
    if (d !== undefined) this.expr(d); else super.readLocal(l);
  }

  /**
   * The comparisons `x + s op u` (splitCond) that a condition is the same between the boundaries
   * of: it is one, a value the threads share (none), or `&&`, `||` or `!` of such; null where not.
   */
  private splitConds(h: ExprHandle): SplitCond[] | null {
    const one = this.splitCond(h);
    if (one) return [one];
    if (this.values.isUniform(h) || this.xSteps(h) === 0) return this.loads(h) ? null : [];
    const e = this.f.exprs[h];
    if (e.k === "op" && (e.op === "land" || e.op === "lor" || e.op === "not")) {
      const parts = e.args.map((a) => this.splitConds(a));
      return parts.includes(null) ? null : parts.flatMap((p) => p!);
    }
    return null;
  }

  /** `x + s op u` (s, u shared by the threads; i32 or u32; op <, <=, >, >= or ===), with x's side first. */
  private splitCond(h: ExprHandle): SplitCond | null {
    const e = this.f.exprs[h];
    const swap = { lt: "gt", le: "ge", gt: "lt", ge: "le", eq: "eq" } as const;
    if (e.k !== "op" || e.args.length !== 2 || !(e.op in swap)) return null;
    const op = e.op as keyof typeof swap;
    const [a, b] = e.args, t = this.f.exprs[a].type;
    if (t.kind !== "scalar" || (t.scalar !== "i32" && t.scalar !== "u32")) return null;
    const unsigned = t.scalar === "u32";
    const signedX = (h: ExprHandle) => { const x = this.f.exprs[h], from = x.k === "convert" ? this.f.exprs[x.arg].type : null; return unsigned && from?.kind === "scalar" && from.scalar === "i32"; };
    // (u one value along the row — shared by the threads, or of its y and z —: the split is the row's.)
    if (this.xSteps(a) === 1 && this.xSteps(b) === 0) return { op, x: a, u: b, unsigned, signedX: signedX(a) };
    if (this.xSteps(b) === 1 && this.xSteps(a) === 0) return { op: swap[op], x: b, u: a, unsigned, signedX: signedX(b) };
    return null;
  }

  /**
   * The row's threads (x from 0) by the parts of a split: in each, its fours with the form for
   * the way its `if`s go (their conditions and the checks' evaluated once, at the part's first
   * thread), its last threads one at a time (`thread`: one thread at x) — all of them where a
   * check raises there or that way has no form. Where the row's x + s of some condition could
   * wrap, every thread one at a time.
   */
  protected splitLoop(sp: Split, thread: () => void): void {
    const x = this.builtinSlots.get("threadIdx.x")!, dx = this.builtinSlots.get("blockDim.x")!;
    const e = this.local(V.i32), ok = this.local(V.i32), dxf = this.local(V.f64), d = this.local(V.f64);
    for (const f of sp.forms) if (f) this.place(f.prologue);
    this.get(dx); this.op("f64.convert_i32_u"); this.set(dxf);
    this.i32(1); this.set(ok);
    this.rowForms = sp.locals;
    this.partStart = true;
    // Each condition's boundaries, clamped to [0, dx]: it is the same on [0, b1), [b1, b2), [b2, dx).
    const bounds: number[] = [];
    for (const { op, x: xs, u, unsigned, signedX } of sp.conds) {
      const conv = unsigned && !signedX ? "f64.convert_i32_u" : "f64.convert_i32_s";
      const clamped = (plusOne: boolean, minus = 0) => {
        const b = this.local(V.i32);
        this.get(d); if (plusOne || minus) { this.op("f64.const").f64((plusOne ? 1 : 0) - minus); this.op("f64.add"); }
        this.op("f64.const").f64(0); this.op("f64.max"); this.get(dxf); this.op("f64.min"); this.op("i32.trunc_f64_s"); this.set(b);
        bounds.push(b);
      };
      // (x is 0: x + s is s.) In f64, exactly: d = u - s, where x + s op u changes.
      this.expr(u); this.op(unsigned ? "f64.convert_i32_u" : "f64.convert_i32_s"); this.xScalar(xs); this.op(conv); this.op("f64.sub"); this.set(d);
      // No wrap: s + dx - 1 fits the type (an i32 compared as u32: fits i32).
      this.get(ok); this.xScalar(xs); this.op(conv); this.get(dxf); this.op("f64.add");
      this.op("f64.const").f64(unsigned && !signedX ? 2 ** 32 : 2 ** 31); this.op("f64.le"); this.op("i32.and"); this.set(ok);
      // (x < d, x >= d: changes at d; x <= d, x > d: at d + 1; x === d: at d and d + 1.)
      const at = (minus: number) => { clamped(op === "le" || op === "gt" || op === "eq", minus); if (op === "eq") clamped(false, minus); };
      at(0);
      // An i32 x + s as u32 also jumps by 2^32 where x + s is 0 (at u - s - 2^32 it meets u from below the jump).
      if (signedX) {
        at(2 ** 32);
        this.op("f64.const").f64(0); this.xScalar(xs); this.op(conv); this.op("f64.sub"); this.set(d);
        clamped(false);
      }
    }
    // Where the forms take the array parameters to be apart: whether each two are (their bytes).
    const dj = sp.disjoint ? this.disjointParams() : null;
    this.open("block", "other"); this.open("loop", "other");
    this.get(x); this.get(dx); this.op("i32.ge_u"); this.op("br_if").u32(1);
    // This part's end: the first boundary after x.
    this.get(dx); this.set(e);
    for (const b of bounds) {
      this.get(x); this.get(b); this.op("i32.lt_u"); this.get(b); this.get(e); this.op("i32.lt_u"); this.op("i32.and");
      this.open("if", "other"); this.get(b); this.set(e); this.close();
    }
    this.get(ok);
    this.open("if", "other");
    // (A check that raises here: the part one thread at a time.)
    this.i32(0);
    for (const c of sp.checks) { this.expr(c.cond!); this.op("i32.or"); }
    if (dj !== null) { this.get(dj); this.op("i32.eqz"); this.op("i32.or"); }
    this.op("i32.eqz");
    this.open("if", "other");
    // The way the ifs go: form v.
    this.i32(0);
    sp.ifs.forEach((st, i) => { this.expr(st.cond); if (i) { this.i32(i); this.op("i32.shl"); } this.op("i32.or"); });
    const v = this.local(V.i32);
    this.set(v);
    this.partStart = false;
    sp.forms.forEach((f, j) => {
      if (!f) return;
      this.get(v); this.i32(j); this.op("i32.eq");
      this.open("if", "other"); this.lanesLoop(f, e); this.close();
    });
    this.close();
    this.op("else"); this.get(dx); this.set(e);
    this.close();
    // The part's last threads (fewer than four; the whole part where it has no fours).
    this.open("block", "other"); this.open("loop", "other");
    this.get(x); this.get(e); this.op("i32.ge_u"); this.op("br_if").u32(1);
    this.open("block", "other"); thread(); this.close();
    this.get(x); this.i32(1); this.op("i32.add"); this.set(x); this.op("br").u32(0);
    this.close(); this.close();
    this.op("br").u32(0);
    this.close(); this.close();
    this.rowForms = null;
  }

  /** An i32 local: 1 where no two of the kernel's array parameters share a byte of memory. */
  private disjointParams(): number {
    const dj = this.local(V.i32);
    const arrays = this.f.params.filter((l) => isArray(this.f.locals[l].type) && l !== this.f.stateParam);
    const end = (l: number) => { const [ptr, len] = this.slots[l] as [number, number]; this.get(ptr); this.get(len); this.i32(Math.log2(bytesOf((this.f.locals[l].type as { elem: Scalar }).elem))); this.op("i32.shl"); this.op("i32.add"); };
    this.i32(1);
    arrays.forEach((a, i) => arrays.slice(i + 1).forEach((b) => {
      // (Apart: a ends at or before b's start, or b at or before a's.)
      end(a); this.get((this.slots[b] as [number, number])[0]); this.op("i32.le_u");
      end(b); this.get((this.slots[a] as [number, number])[0]); this.op("i32.le_u");
      this.op("i32.or"); this.op("i32.and");
    }));
    this.set(dj);
    return dj;
  }

  /**
   * A group's four-lane form in a loop of its own over the row's fours, from x (x left at the
   * first thread it did not run) while four threads are left before `end` (an i32 local; the
   * row's end, blockDim.x, where none is given), where no thread returned; where the form gives
   * the threads back, the loop ends there (x at those four: the caller runs the rest one at a
   * time). The loop costs a third of what the try in each thread's iteration does.
   */
  protected lanesLoop(form: { code: { bytes: Uint8Array; relocs: number[] } }, end = this.builtinSlots.get("blockDim.x")!): void {
    const x = this.builtinSlots.get("threadIdx.x")!;
    this.open("block", "other"); this.open("loop", "other");
    this.get(x); this.i32(4); this.op("i32.add"); this.get(end); this.op("i32.gt_u"); this.op("br_if").u32(1);
    this.threadIndex();
    this.open("block", "lanes");
    this.place(form.code);
    this.get(x); this.i32(4); this.op("i32.add"); this.set(x);
    this.op("br").u32(1);
    this.close();
    this.op("br").u32(1);
    this.close(); this.close();
  }

  /** A group's four-lane form tried at thread x: taken where four threads are left in the row from it, none returned, and nothing in it gives them back. */
  protected lanesTry(form: { code: { bytes: Uint8Array; relocs: number[] }; tested: boolean; bails: boolean }): void {
    const x = this.builtinSlots.get("threadIdx.x")!;
    this.open("block", "lanes");
    // (From a multiple of four where the form may give the threads back — a test, a check, an if
    // whose lanes disagree: after four threads that ran one at a time because it did, the next four
    // try again — not each thread, each try costing up to where it gave them back (a warp's
    // `if (lane === 0)` gave back at every thread up to the next multiple of four: subgroupAdd sums
    // 2.3x slower). Elsewhere not: three more instructions in a scan's loop of thirty were a tenth
    // of its time.)
    if (form.tested || form.bails) { this.get(x); this.i32(3); this.op("i32.and"); this.op("br_if").u32(0); }
    this.get(x); this.i32(4); this.op("i32.add"); this.get(this.builtinSlots.get("blockDim.x")!); this.op("i32.gt_u"); this.op("br_if").u32(0);
    if (this.usesDone) { this.addr(this.doneAt); this.get(this.t); this.op("i32.add"); this.op("i32.load").u32(0).u32(0); this.op("br_if").u32(0); }
    this.place(form.code);
    // Past the four threads: x + 3 here, the thread loop's step the fourth.
    this.get(x); this.i32(3); this.op("i32.add"); this.set(x);
    this.op("br").u32(1);
    this.close();
  }
}
