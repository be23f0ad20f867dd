// WGSL statements and structured control flow: loops with `continuing` and `break if` (a trap
// there leaves through a flag), the exit tests made opaque to Mesa's loop analysis, switches
// without fallthrough, workgroupUniformLoad for a workgroup value every thread reads, barriers,
// and calls of the runtime functions.

import type { Block, Expr, ExprHandle, Stmt } from "../../ir/module.js";
import { assertNeverIR, exprOperands } from "../../ir/module.js";
import { completesBlock, someStmt } from "../../ir/module-info.js";
import { T } from "../../ir/types.js";
import { InternalCompilerError } from "../../errors.js";
import { REPORT, type ShaderContext } from "./context.js";
import type { Arrays } from "./arrays.js";
import type { Expressions } from "./expressions.js";
import type { Subgroups } from "./subgroups.js";

export class Statements {
  /** Depth of `continuing` blocks being emitted (WGSL forbids `return` in them). */
  private inContinuing = 0;
  /**
   * Depth of control flow being emitted that holds no barrier (an `if`, `loop` or `switch`): where
   * it is 0, every enclosing statement holds a barrier, so (the kernel language's rule for
   * barriers) every thread of the block gets here.
   */
  private divergent = 0;
  /** Whether a trap in a `continuing` block set `gpuc_trapped` (then the kernel declares it). */
  trapsInContinuing = false;
  /**
   * Loops being emitted, innermost last: each one's own exit test (its head `if`), and whether it
   * repeats at all (an inlined helper's body is a loop that always ends in `break`: a block).
   */
  private loops: { head: Stmt | null; repeats: boolean }[] = [];
  /** Whether some exit test was made opaque (then the params block has the `gpuc_zero` field). */
  opaqueExits = false;

  constructor(private readonly ctx: ShaderContext, private readonly expressions: Expressions, private readonly arrays: Arrays, private readonly subgroups: Subgroups) {}

  // (In a kernel with barriers a thread that returns or traps goes on through them, done: the
  // done guards are the IR's by now, ir/passes/done-guards.ts; such a kernel has no return or
  // trap left.)
  block(b: Block, d: number): void {
    for (const s of b) this.stmt(s, d);
  }

  private stmt(s: Stmt, d: number): void {
    const ctx = this.ctx;
    const { expressions } = this;
    ctx.stmtLoc = s.loc ?? ctx.stmtLoc;
    switch (s.k) {
      case "set": {
        // A workgroup value read at a constant index where every thread of the block reads it
        // (every enclosing statement holds a barrier: `divergent` is 0) is uniform:
        // workgroupUniformLoad says so to WGSL's uniformity analysis (a barrier that depends on it
        // is then in uniform control flow). It is itself a barrier, which every thread reaches here.
        const v = ctx.f.exprs[s.value];
        if (ctx.hasBarrier && this.divergent === 0 && this.inContinuing === 0 && ctx.f === ctx.m.functions[ctx.m.entry] && v.k === "load") {
          const key = ctx.arrayKey(v.array), idx = ctx.f.exprs[v.index];
          if (key.startsWith("s") && !ctx.atomicArrays.has(key) && !ctx.narrowOf(v.array) && idx.k === "const") {
            ctx.line(d, `${ctx.names[s.local]} = workgroupUniformLoad(&${this.arrays.element(v.array, v.index)});`);
            return;
          }
        }
        ctx.line(d, `${ctx.names[s.local]} = ${expressions.expr(s.value)};`);
        return;
      }
      case "store": return this.arrays.store(s, d);
      case "if": {
        const loads = this.uniformLoads(s, d);
        ctx.line(d, `if (${this.exitTest(s, expressions.expr(s.cond))}) {`);
        for (const h of loads) ctx.uniformLoads.delete(h);
        const uniform = !ctx.hasBarrier || this.holdsBarrier(s);
        if (!uniform) this.divergent++;
        this.block(s.then, d + 1);
        if (s.else.length) { ctx.line(d, "} else {"); this.block(s.else, d + 1); }
        if (!uniform) this.divergent--;
        ctx.line(d, "}");
        return;
      }
      case "loop": {
        const uniform = !ctx.hasBarrier || this.holdsBarrier(s);
        if (!uniform) this.divergent++;
        ctx.line(d, "loop {");
        const head = s.body[0]?.k === "if" && isBreak(s.body[0]) ? s.body[0] : null;
        this.loops.push({ head, repeats: repeats(s) });
        this.block(s.body, d + 1);
        const traps = someStmt(s.continuing, isTrap);
        if (s.continuing.length || s.breakIf !== null) {
          ctx.line(d + 1, "continuing {");
          this.inContinuing++;
          this.block(s.continuing, d + 2);
          this.inContinuing--;
          // A loop with a head test exits at `break if` too: then that one is a second exit test.
          const breakIf = s.breakIf === null ? [] : [head ? this.opaque(expressions.expr(s.breakIf)) : expressions.expr(s.breakIf)];
          const exit = [...(traps ? ["gpuc_trapped"] : []), ...breakIf];
          if (exit.length) ctx.line(d + 2, `break if ${exit.join(" || ")};`);
          ctx.line(d + 1, "}");
        }
        this.loops.pop();
        ctx.line(d, "}");
        if (!uniform) this.divergent--;
        if (traps && !ctx.hasBarrier && this.inContinuing === 0) ctx.line(d, "if (gpuc_trapped) { return; }");
        return;
      }
      case "switch": this.divergent++; this.switchStmt(s, d); this.divergent--; return;
      case "break": ctx.line(d, "break;"); return;
      case "continue": ctx.line(d, "continue;"); return;
      case "return":
        ctx.line(d, s.value !== null ? `return ${expressions.expr(s.value)};` : "return;");
        return;
      // A trapping thread stops (in a kernel with barriers it is done instead: the IR's guards).
      case "trap":
        // WGSL forbids `return` in a continuing block: flag it, end the loop, return after it.
        if (this.inContinuing > 0) { this.trapsInContinuing = true; ctx.line(d, "gpuc_trapped = true;"); return; }
        ctx.line(d, "return;");
        return;
      // syncthreads() orders shared memory, and global memory too: storageBarrier() (a second full
      // barrier in WGSL) only when some storage array is both written and read by the kernel.
      case "barrier": ctx.line(d, "workgroupBarrier();"); if (ctx.storageShared) ctx.line(d, "storageBarrier();"); return;
      case "fence": throw new InternalCompilerError("a fence reached the WGSL back end (validation refuses it)");
      case "init": ctx.line(d, `${ctx.names[s.local]} = ${ctx.typeText(ctx.f.locals[s.local].type)}();`); return;
      case "atomic": return this.arrays.atomic(s, d);
      case "call": {
        // Only runtime functions stay out of line; their state parameter is the module's binding.
        const callee = ctx.m.functions[s.fn];
        if (callee.name === REPORT) {
          // (Helpers are inlined, and no runtime function raises: the kernel is the only caller.)
          if (ctx.f !== ctx.m.functions[ctx.m.entry]) throw new InternalCompilerError(`'${ctx.f.name}' calls ${REPORT} (only the kernel raises on WGSL)`);
          ctx.line(d, `gpuc_raise(${s.args.slice(1).map((a) => expressions.expr(a)).join(", ")});`);
          return;
        }
        const call = `${callee.name}(${["lid", "wid", ...s.args.slice(1).map((a) => expressions.expr(a))].join(", ")})`;
        ctx.line(d, s.result !== null ? `${ctx.names[s.result]} = ${call};` : `${call};`);
        return;
      }
      case "subgroup": return this.subgroups.subgroup(s, d);
      case "check": throw new InternalCompilerError("a check reached the back end unlowered (legalize lowers them before emission)");
      default: assertNeverIR(s);
    }
  }

  /**
   * An `if` that decides whether a barrier is reached — it holds one, or a jump out of a loop that
   * holds one — and whose condition reads workgroup memory at a constant index: each such value
   * is read with workgroupUniformLoad first (`let gpuc_uN = workgroupUniformLoad(&s[0]);`), so that
   * WGSL's uniformity analysis sees the condition as uniform; the condition then names it. Only
   * where every thread gets here (every enclosing statement holds a barrier: `divergent` is 0),
   * as workgroupUniformLoad is itself a barrier. A value that in fact differs between threads
   * there breaks the kernel language's rule for barriers, which the CPU device reports.
   * Returns the loads given names (their expressions), for the caller to forget after the test.
   */
  private uniformLoads(s: Extract<Stmt, { k: "if" }>, d: number): ExprHandle[] {
    const ctx = this.ctx;
    if (!ctx.hasBarrier || this.divergent > 0 || this.inContinuing > 0 || ctx.f !== ctx.m.functions[ctx.m.entry]) return [];
    if (!(this.contents(s) & (HOLDS_BARRIER | HOLDS_JUMP))) return [];
    const found: ExprHandle[] = [];
    const visit = (h: ExprHandle): void => {
      const e = ctx.f.exprs[h];
      if (e.k === "load") {
        const key = ctx.arrayKey(e.array);
        if (key.startsWith("s") && !ctx.atomicArrays.has(key) && !ctx.narrowOf(e.array) && ctx.f.exprs[e.index].k === "const") { found.push(h); return; }
      }
      for (const o of exprOperands(e)) visit(o);
    };
    visit(s.cond);
    for (const h of found) {
      const e = ctx.f.exprs[h] as Extract<Expr, { k: "load" }>;
      const name = `gpuc_u${this.uniformNames++}`;
      ctx.line(d, `let ${name} = workgroupUniformLoad(&${this.arrays.element(e.array, e.index)});`);
      ctx.uniformLoads.set(h, name);
    }
    return found;
  }

  private uniformNames = 0;

  /** Whether a statement holds a barrier. */
  private holdsBarrier(s: Stmt): boolean {
    return (this.contents(s) & HOLDS_BARRIER) !== 0;
  }

  /**
   * What a statement holds, at any depth: a barrier (HOLDS_BARRIER), a break, continue or return
   * (HOLDS_JUMP). Memoized: nested statements are asked again from each level.
   */
  private contents(s: Stmt): number {
    let r = this.held.get(s);
    if (r === undefined) {
      const of = (b: Block) => { let f = 0; for (const x of b) f |= this.contents(x); return f; };
      switch (s.k) {
        case "barrier": r = HOLDS_BARRIER; break;
        case "break": case "continue": case "return": r = HOLDS_JUMP; break;
        case "if": r = of(s.then) | of(s.else); break;
        case "loop": r = of(s.body) | of(s.continuing); break;
        case "switch": r = 0; for (const c of s.cases) r |= of(c.body); break;
        default: r = 0;
      }
      this.held.set(s, r);
    }
    return r;
  }
  private readonly held = new Map<Stmt, number>();

  /**
   * The condition of an `if` that can leave the loop around it (a `break`, a `return`),
   * other than the loop's own head test, made opaque to the driver's loop analysis.
   *
   * Why: Mesa's NIR loop analysis (lavapipe, RADV, ANV — every Vulkan driver built on Mesa,
   * measured on Mesa 25.0.7) skips an exit test that compares an induction variable whose start or
   * step is not a constant (`r = n - 1; … r = r + 1; if (r > 8) break;`) without marking it as
   * of unknown trip count (`find_trip_count` in nir_loop_analyze.c `continue`s before setting
   * `exact_trip_count_unknown`), so when another exit test of the same loop has a constant trip
   * count (`q < 4`) the loop is treated as running exactly that many times: the `break` is never
   * taken (or the shader compiler crashes). The SPIR-V Dawn hands over is right; SwiftShader runs
   * it right. An exit test that is `(select(0u, 1u, c) ^ params.gpuc_zero) != 0u` compares no
   * induction variable, so the analysis marks it unknown as it should; `gpuc_zero` is a params
   * field the device always fills with 0, so the test is `c`. The head test stays as it is (the
   * loop can still be unrolled by its trip count); with every other test opaque, no loop has both
   * a counted test and a skipped one. Cost: a select and a xor per exit test taken.
   */
  private exitTest(s: Extract<Stmt, { k: "if" }>, cond: string): string {
    const inner = this.loops[this.loops.length - 1];
    if (!inner || inner.head === s || !this.loops.some((l) => l.repeats)) return cond;
    // In a block (no back edge, nothing to analyse) only a return leaves a loop around it.
    return leavesLoop(s, inner.repeats) ? this.opaque(cond) : cond;
  }

  private opaque(cond: string): string {
    this.opaqueExits = true;
    return `((select(0u, 1u, ${cond}) ^ params.gpuc_zero) != 0u)`;
  }

  /** WGSL cases do not fall through: a case that would falls into a copy of the next case's body. */
  private switchStmt(s: Extract<Stmt, { k: "switch" }>, d: number): void {
    this.switchCases(s, d);
  }

  private switchCases(s: Extract<Stmt, { k: "switch" }>, d: number): void {
    const ctx = this.ctx;
    const sel = this.expressions.expr(s.selector);
    const t = ctx.f.exprs[s.selector].type;
    const suffix = t === T.u32 ? "u" : "i";
    ctx.line(d, `switch (${sel}) {`);
    let sawDefault = false;
    s.cases.forEach((c, i) => {
      const labels = [...c.values.map((v) => `${v}${suffix}`), ...(c.isDefault ? ["default"] : [])];
      sawDefault ||= c.isDefault;
      ctx.line(d + 1, `case ${labels.join(", ")}: {`);
      let j = i;
      for (;;) {
        const body = s.cases[j].body;
        this.block(body, d + 2);
        if (!s.cases[j].fallthrough || j + 1 >= s.cases.length || !completesBlock(body)) break;
        j++;
      }
      ctx.line(d + 1, "}");
    });
    if (!sawDefault) ctx.line(d + 1, "default: {}");
    ctx.line(d, "}");
  }
}

/** A loop's head test: `if (c) { break; }` (or its else form) as the first statement of its body. */
function isBreak(s: Extract<Stmt, { k: "if" }>): boolean {
  const only = (b: Block) => b.length === 1 && b[0].k === "break";
  return (only(s.then) && !s.else.length) || (!s.then.length && only(s.else));
}

/**
 * Whether an `if` holds a plain way out of the loop around it: a break (not of an inner loop) or a
 * return. A trap is not one: its branch records the exception with atomics first, and Mesa analyses
 * no loop with an exit branch that does anything but leave (`nir_is_trivial_loop_if`).
 */
function leavesLoop(s: Stmt, breaks: boolean): boolean {
  const visit = (b: Block, inner: boolean): boolean => b.some((x) => {
    if (x.k === "return" || (x.k === "break" && breaks && !inner)) return true;
    if (x.k === "if") return visit(x.then, inner) || visit(x.else, inner);
    if (x.k === "switch") return x.cases.some((c) => visit(c.body, inner));
    if (x.k === "loop") return visit(x.body, true) || visit(x.continuing, true);
    return false;
  });
  return visit([s], false);
}

/** Whether a loop can run its body again: not a block that never reaches its end (it breaks or returns) with no `continue` to it. */
function repeats(s: Extract<Stmt, { k: "loop" }>): boolean {
  if (s.breakIf !== null || s.continuing.length || completesBlock(s.body)) return true;
  const visit = (b: Block): boolean => b.some((x) =>
    x.k === "continue" || (x.k === "if" && (visit(x.then) || visit(x.else))) || (x.k === "switch" && x.cases.some((c) => visit(c.body))));
  return visit(s.body);
}

const isTrap = (s: Stmt): boolean => s.k === "trap";
/** What Statements.contents reports a statement holds. */
const HOLDS_BARRIER = 1, HOLDS_JUMP = 2;
