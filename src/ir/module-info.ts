// Facts about a module that back ends need per function and that flow along the call graph: what
// a function does itself, or through any function it calls (directly, through any chain,
// recursion included). A check calls its report function as a call statement would.

import type { Block, ExprHandle, Function, FunctionHandle, Module, Stmt } from "./module.js";
import { endsBlock, exprOperands, stmtOperands, stmtResult, walkStmts } from "./module.js";

/** The functions a statement calls (a call's callee; a check's report function). */
function callees(s: Stmt): FunctionHandle[] {
  return s.k === "call" ? [s.fn] : s.k === "check" ? [s.report] : [];
}

/**
 * For each function, the union of `own(f)` over it and every function it reaches by calls (the
 * least fixed point over the call graph: callees first is not assumed, recursion is fine).
 */
export function reachingSets<T>(m: Module, own: (f: Function) => Iterable<T>): Set<T>[] {
  const sets = m.functions.map((f) => new Set(own(f)));
  const calls = m.functions.map((f) => {
    const out = new Set<number>();
    walkStmts(f.body, (s) => { for (const c of callees(s)) out.add(c); });
    return [...out];
  });
  for (let changed = true; changed;) {
    changed = false;
    sets.forEach((set, i) => {
      for (const c of calls[i]) for (const x of sets[c]) if (!set.has(x)) { set.add(x); changed = true; }
    });
  }
  return sets;
}

/**
 * For each function, which of its parameters it may write through (an array it stores to or
 * uses atomically, itself or by passing it to a helper that does; recursion included). A view is
 * its base array (ir/module.ts), so writing through a view writes its base.
 */
export function writtenParams(m: Module): boolean[][] {
  const written = m.functions.map((f) => f.params.map(() => false));
  const paramIndex = (f: Function, h: ExprHandle): number => {
    const e = f.exprs[h];
    return e.k === "local" ? f.params.indexOf(e.local as never) : -1;
  };
  for (let changed = true; changed;) {
    changed = false;
    m.functions.forEach((f, fi) => {
      const mark = (i: number) => { if (i >= 0 && !written[fi][i]) { written[fi][i] = true; changed = true; } };
      walkStmts(f.body, (s) => {
        if (s.k === "store" || s.k === "atomic") mark(paramIndex(f, s.array));
        else if (s.k === "call" && m.functions[s.fn].kind !== "runtime") s.args.forEach((a, j) => { if (written[s.fn][j]) mark(paramIndex(f, a)); });
      });
    });
  }
  return written;
}

/** For each function, whether it or a function it reaches by calls has property `has`. */
export function reaching(m: Module, has: (f: Function) => boolean): boolean[] {
  return reachingSets(m, (f) => (has(f) ? [true] : [])).map((s) => s.size > 0);
}

/** Whether any expression a function's statements use (operands included) satisfies `p`. */
export function usesExpr(f: Function, p: (e: Function["exprs"][number]) => boolean): boolean {
  let found = false;
  const visit = (h: ExprHandle): void => {
    if (found) return;
    const e = f.exprs[h];
    if (p(e)) { found = true; return; }
    for (const o of exprOperands(e)) visit(o);
  };
  walkStmts(f.body, (s) => { for (const h of stmtOperands(s)) visit(h); });
  return found;
}

/** Every expression a function's statements use, with its operands. */
export function exprsUsed(f: Function, each: (e: Function["exprs"][number]) => void): void {
  const visit = (h: ExprHandle): void => { const e = f.exprs[h]; each(e); for (const o of exprOperands(e)) visit(o); };
  walkStmts(f.body, (s) => { for (const h of stmtOperands(s)) visit(h); });
}

/**
 * Whether a barrier is inside an `if` or a `switch` (on a value the block's threads share): PoCL
 * 3.1's optimizer miscompiles some such kernels (OpenCL C and SPIR alike; found by the fuzzer), so
 * their layouts say so (`conditionalBarriers`) and they are built unoptimized.
 */
export function barrierUnderBranch(b: Block): boolean {
  return someStmt(b, (x) => (x.k === "if" || x.k === "switch") && someStmt([x], (y) => y.k === "barrier"));
}

/** Whether some statement of a block tree (nested ones included) satisfies `p`. */
export function someStmt(b: Block, p: (s: Stmt) => boolean): boolean {
  // (Stops at the first: passes ask this of each statement at each level of nesting.)
  for (const s of b) {
    if (p(s)) return true;
    switch (s.k) {
      case "if": if (someStmt(s.then, p) || someStmt(s.else, p)) return true; break;
      case "loop": if (someStmt(s.body, p) || someStmt(s.continuing, p)) return true; break;
      case "switch": for (const c of s.cases) if (someStmt(c.body, p)) return true; break;
      default: break;
    }
  }
  return false;
}

/**
 * Whether a statement holds a barrier, a break, a continue or a return: the done guards
 * (passes/done-guards.ts: every thread must reach every barrier) cannot skip such a statement as a
 * whole, only what it holds.
 */
export function holdsControl(s: Stmt): boolean {
  return someStmt([s], (x) => x.k === "barrier" || x.k === "break" || x.k === "continue" || x.k === "return");
}

/**
 * Whether evaluating an expression reads memory (a load anywhere in its tree). Such an expression
 * may be protected by a guard (`i < n && x[i] > 0`): a back end never evaluates it where the IR
 * does not (a select's other side, the right of `&&`).
 */
export function readsMemory(f: Function, h: ExprHandle): boolean {
  const e = f.exprs[h];
  return e.k === "load" || exprOperands(e).some((o) => readsMemory(f, o));
}

/** Whether a statement may `continue` the loop it is in (a nested loop's continues are its own). */
export function continues(s: Stmt): boolean {
  switch (s.k) {
    case "continue": return true;
    case "if": return s.then.some(continues) || s.else.some(continues);
    case "switch": return s.cases.some((c) => c.body.some(continues));
    default: return false;
  }
}

/**
 * Whether control may leave a statement other than by its end: a break or continue out of it (to
 * an enclosing loop), and with `returns` a return too.
 */
export function leavesStmt(s: Stmt, returns: boolean): boolean {
  const visit = (x: Stmt, loops: number, switches: number): boolean => {
    switch (x.k) {
      case "return": return returns;
      case "break": return loops === 0 && switches === 0;
      case "continue": return loops === 0;
      case "if": return x.then.some((y) => visit(y, loops, switches)) || x.else.some((y) => visit(y, loops, switches));
      case "loop": return x.body.some((y) => visit(y, loops + 1, switches)) || x.continuing.some((y) => visit(y, loops + 1, switches));
      case "switch": return x.cases.some((c) => c.body.some((y) => visit(y, loops, switches + 1)));
      default: return false;
    }
  };
  return visit(s, 0, 0);
}

/** Whether control can reach the end of a block (the validator's invariant 5; back ends spell a fallthrough's end by it). */
export function completesBlock(block: Block): boolean {
  for (const s of block) {
    if (endsBlock(s)) return false;
    if (s.k === "if" && !completesBlock(s.then) && !completesBlock(s.else)) return false;
    if (s.k === "loop" && s.breakIf === null && !loopBreaks(s.body) && !loopBreaks(s.continuing)) return false;
    // A switch with a default whose every case returns (or falls through to one that does).
    if (s.k === "switch" && s.cases.some((c) => c.isDefault) &&
        s.cases.every((c, i) => (c.fallthrough && i < s.cases.length - 1) || (!completesBlock(c.body) && !loopBreaks(c.body)))) return false;
  }
  return true;
}

function loopBreaks(block: Block): boolean {
  for (const s of block) {
    if (s.k === "break") return true;
    if (s.k === "if" && (loopBreaks(s.then) || loopBreaks(s.else))) return true;
    // A break inside a switch or a nested loop leaves that, not this loop.
  }
  return false;
}

/**
 * Locals a statement list may read before it has certainly assigned them (`exposed`), and those it
 * has certainly assigned where it ends without leaving early (`defined`: a `return`, `break` or
 * `continue` ends a way through it, which then assigns everything).
 */
export function exposedReads(f: Function, stmts: Stmt[]): { exposed: Set<number>; defined: Set<number> } {
  const out = new Set<number>();
  // One set of what is certainly assigned at the point walked; what a side of an `if`, a loop's
  // body or a switch's case adds is logged and taken back after it (instead of a copy of the set
  // for each: the walk is asked of every region and group a back end splits a kernel into).
  const defined = new Set<number>();
  const define = (l: number, log: number[]): void => { if (!defined.has(l)) { defined.add(l); log.push(l); } };
  const undo = (log: number[]): void => { for (const l of log) defined.delete(l); };
  const reads = (h: ExprHandle): void => {
    const e = f.exprs[h];
    if (e.k === "local" && !defined.has(e.local)) out.add(e.local);
    for (const o of exprOperands(e)) reads(o);
  };
  /** Whether `list` always leaves early (every local then counts as assigned after it); what it assigns is logged in `log`. */
  const block = (list: Stmt[], log: number[]): boolean => {
    for (const s of list) {
      for (const h of stmtOperands(s)) reads(h);
      switch (s.k) {
        case "set": case "init": define(s.local, log); break;
        case "call": case "atomic": case "subgroup": if (s.result !== null) define(s.result, log); break;
        case "if": {
          const a: number[] = [], b: number[] = [];
          const leftA = block(s.then, a);
          undo(a);
          const leftB = block(s.else, b);
          undo(b);
          if (leftA && leftB) return true;
          // (Past the `if`, only the ways through a side that does not leave come: what the
          // other side assigned, or what both did.)
          if (leftA) for (const l of b) define(l, log);
          else if (leftB) for (const l of a) define(l, log);
          else if (a.length && b.length) { const both = new Set(b); for (const l of a) if (both.has(l)) define(l, log); }
          break;
        }
        // A loop body may run again after it assigned something: reads in it see only what was defined before.
        case "loop": { const x: number[] = []; block(s.body, x); undo(x); const y: number[] = []; block(s.continuing, y); undo(y); break; }
        case "switch": for (const c of s.cases) { const x: number[] = []; block(c.body, x); undo(x); } break;
        default: if (endsBlock(s)) return true;
      }
    }
    return false;
  };
  block(stmts, []);
  return { exposed: out, defined };
}


/**
 * Which array parameters of the entry kernel it fills: it reads no element of one (only its
 * length: no load, atomic, helper or assignment takes it), and every thread whose x index
 * `blockIdx.x * blockDim.x + threadIdx.x` is below the array's length stores to that element from
 * the top level of the kernel's body (unguarded, or under `if (index < p.length)`), where no
 * statement before it can leave the kernel. A launch whose threads along x cover the array
 * (gridDim.x · blockDim.x at least its length, below 2^31, so the index does not wrap) writes each
 * of its elements, and what it held before is never seen — unless the launch ends early (an
 * exception), leaving the elements not yet written as they were. The index may be a local
 * assigned once and never read before (then its one value is the expression's).
 */
export function filledParams(m: Module): boolean[] {
  const f = m.functions[m.entry];
  const once = new Map<number, ExprHandle | null>();
  walkStmts(f.body, (s) => {
    if (s.k === "set") once.set(s.local, once.has(s.local) ? null : s.value);
    else if (s.k === "init") once.set(s.local, null);
    const r = stmtResult(s);
    if (r !== null) once.set(r, null);
  });
  const early = exposedReads(f, f.body).exposed;
  const resolve = (h: ExprHandle): Function["exprs"][number] => {
    for (let seen = 0; seen < 16; seen++) {
      const e = f.exprs[h];
      const v = e.k === "local" && !early.has(e.local) ? once.get(e.local) : undefined;
      if (v === undefined || v === null) return e;
      h = v;
    }
    return f.exprs[h];
  };
  const builtin = (h: ExprHandle, name: string) => { const e = resolve(h); return e.k === "builtin" && e.name === name; };
  const isOp = (e: Function["exprs"][number], op: string): e is Extract<Function["exprs"][number], { k: "op" }> => e.k === "op" && e.op === op && e.args.length === 2;
  const either = (a: ExprHandle, b: ExprHandle, p: (h: ExprHandle) => boolean, q: (h: ExprHandle) => boolean) => (p(a) && q(b)) || (p(b) && q(a));
  const globalX = (h: ExprHandle): boolean => {
    const e = resolve(h);
    if (!isOp(e, "add") || e.type.kind !== "scalar" || (e.type.scalar !== "i32" && e.type.scalar !== "u32")) return false;
    const scaled = (x: ExprHandle) => { const m2 = resolve(x); return isOp(m2, "mul") && either(m2.args[0], m2.args[1], (y) => builtin(y, "blockIdx.x"), (y) => builtin(y, "blockDim.x")); };
    return either(e.args[0], e.args[1], scaled, (y) => builtin(y, "threadIdx.x"));
  };
  const paramOf = (h: ExprHandle): number => { const e = f.exprs[h]; return e.k === "local" ? f.params.indexOf(e.local as never) : -1; };
  // Reads: any use of a parameter's local other than as a store's array or a length's.
  const read = new Set<number>();
  for (const e of f.exprs) for (const o of exprOperands(e)) if (e.k !== "length" && paramOf(o) >= 0) read.add(paramOf(o));
  walkStmts(f.body, (s) => {
    stmtOperands(s).forEach((o, j) => { if (paramOf(o) >= 0 && !(s.k === "store" && j === 0)) read.add(paramOf(o)); });
    if (s.k === "set" && f.params.includes(s.local as never)) read.add(f.params.indexOf(s.local as never));
  });
  const filled = f.params.map(() => false);
  const storesAll = (list: Stmt[], p: number): boolean => {
    for (const s of list) {
      if (s.k === "store" && paramOf(s.array) === p && globalX(s.index)) return true;
      if (leavesStmt(s, true)) return false;
    }
    return false;
  };
  for (const s of f.body) {
    f.params.forEach((l, p) => {
      if (filled[p] || read.has(p) || f.locals[l].type.kind !== "array") return;
      if (s.k === "store") filled[p] = storesAll([s], p);
      else if (s.k === "if") {
        const c = resolve(s.cond);
        const bound = (h: ExprHandle) => { const e = resolve(h); return e.k === "length" && paramOf(e.array) === p; };
        if (isOp(c, "lt") && globalX(c.args[0]) && bound(c.args[1])) filled[p] = storesAll(s.then, p);
      }
    });
    if (leavesStmt(s, true)) break;
  }
  return filled;
}
