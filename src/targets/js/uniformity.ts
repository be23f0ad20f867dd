// Which values of a kernel with barriers are the same for every thread of a block (uniform),
// and which locals can be recomputed where they are read instead of stored per thread: those
// assigned once from integer arithmetic without division (an index like `blockIdx.x * blockDim.x
// + t`), which costs less to recompute at each read, a loop's included, than to store and load.
// A float, a division or a Math function is computed once, where the program computes it (a
// Mandelbrot's `cx`, read in its loop, cost two divisions an iteration when recomputed).
//
// The region emitter uses this to evaluate uniform conditions and assignments once per block
// instead of once per thread, and to keep `const t = threadIdx.x`-style locals out of the
// per-thread arrays. Neither holds for a local a thread may read before it assigns it (it reads
// 0 there, as `let x = 0`, in every thread of every block): such a local is neither.

import type { ExprHandle, Function, Stmt } from "../../ir/module.js";
import { exprOperands, stmtResult, threadVarying, walkStmts } from "../../ir/module.js";
import { exposedReads } from "../../ir/module-info.js";
import { isFloat } from "../../ir/types.js";

export interface ValueAnalysis {
  /** Locals assigned once, from a pure, cheap expression of thread-invariant inputs (integer arithmetic, no division): local → that expression. */
  remat: Map<number, ExprHandle>;
  /** Locals whose every assignment is uniform and sits at the start or end of a region. */
  uniform: Set<number>;
  isUniform(h: ExprHandle): boolean;
  /** The assignments that run once per block (the prefix or suffix of their region). */
  hoisted: Set<Stmt>;
  /** Locals a thread may read before it assigns it (they read 0 there, as `let x = 0`): neither of the above. */
  early: Set<number>;
}

/**
 * @param groups the statement lists of the kernel's regions (each runs once per thread)
 * @param perSubgroup locals assigned where control flow runs once per subgroup (never uniform)
 */
export function analyzeValues(f: Function, groups: Stmt[][], perSubgroup: ReadonlySet<number> = new Set()): ValueAnalysis {
  const params = new Set<number>(f.params);
  if (f.stateParam !== null) params.add(f.stateParam);
  const defs = new Map<number, Stmt[]>();
  const otherWrites = new Set<number>();
  walkStmts(f.body, (s) => {
    if (s.k === "set") { const d = defs.get(s.local) ?? []; d.push(s); defs.set(s.local, d); }
    if (s.k === "init") otherWrites.add(s.local);
    const r = stmtResult(s);
    if (r !== null) otherWrites.add(r);
  });
  const assigned = (l: number): boolean => defs.has(l) || otherWrites.has(l);
  // A local a thread may read before it assigns it reads 0 there (JavaScript's `let x = 0`), so it
  // is neither recomputed from its assignment nor kept once per block.
  const early = exposedReads(f, f.body).exposed;
  const stableParam = (l: number): boolean => params.has(l) && !assigned(l);

  // Rematerializable: one definition, pure, no loads, built from thread-invariant inputs, cheap.
  const remat = new Map<number, ExprHandle>();
  const pure = (h: ExprHandle, seen: Set<number>): boolean => {
    const e = f.exprs[h];
    switch (e.k) {
      case "load": return false;
      case "op": if (e.op === "div" || e.op === "rem" || isFloat(f.exprs[e.args[0]].type)) return false; break;
      case "local":
        if (stableParam(e.local)) return true;
        if (seen.has(e.local)) return false; // a cycle through reads before definitions
        return candidate(e.local, seen);
    }
    return exprOperands(e).every((o) => pure(o, seen));
  };
  const candidate = (l: number, seen: Set<number>): boolean => {
    if (remat.has(l)) return true;
    const d = defs.get(l);
    if (!d || d.length !== 1 || otherWrites.has(l) || params.has(l) || early.has(l) || f.locals[l].type.kind !== "scalar") return false;
    const value = (d[0] as Extract<Stmt, { k: "set" }>).value;
    if (!pure(value, new Set([...seen, l]))) return false;
    remat.set(l, value);
    return true;
  };
  f.locals.forEach((_, l) => candidate(l, new Set()));

  // Uniform: start from every assigned scalar local, drop those that break a rule, until stable.
  const uniform = new Set<number>();
  f.locals.forEach((loc, l) => { if (!remat.has(l) && loc.type.kind === "scalar" && !otherWrites.has(l) && !params.has(l) && !perSubgroup.has(l) && !early.has(l)) uniform.add(l); });
  const isUniform = (h: ExprHandle): boolean => {
    const e = f.exprs[h];
    switch (e.k) {
      case "builtin": return !threadVarying(e.name);
      case "load": return false;
      case "local": return stableParam(e.local) || uniform.has(e.local) || (remat.has(e.local) && isUniform(remat.get(e.local)!));
      default: return exprOperands(e).every(isUniform);
    }
  };
  const hoisted = new Set<Stmt>();
  for (let changed = true; changed;) {
    changed = false;
    hoisted.clear();
    for (const g of groups) {
      const ok = (s: Stmt): boolean => s.k === "set" && uniform.has(s.local) && isUniform(s.value);
      let i = 0;
      while (i < g.length && ok(g[i])) hoisted.add(g[i++]);
      let j = g.length - 1;
      while (j >= i && ok(g[j])) hoisted.add(g[j--]);
    }
    for (const l of [...uniform]) {
      if (!(defs.get(l) ?? []).every((s) => hoisted.has(s))) { uniform.delete(l); changed = true; }
    }
  }
  return { remat, uniform, isUniform, hoisted, early };
}
