// Lazy reads: where a target's select, `&&` and `||` compute both operands (PTX's selp and
// predicate and/or, SPIR-V's OpSelect and OpLogicalAnd, LLVM's select and `and i1`), a select
// whose side reads memory, and a `&&` or `||` whose right operand does, become branches, so that
// the side is computed only where it is chosen, as JavaScript computes it: a load on the side not
// taken may be out of its array's range (its check, if any, is under the same condition) or read
// a value another thread is writing. The target's table asks for it (`eagerSelects`); OpenCL C's
// `?:`, `&&` and `||` are lazy already, and WGSL's loads cannot fault.
//
//   x = e + (c ? a[i] : b)    →   if (c) { t = a[i] } else { t = b }   x = e + t
//   x = p && a[i] > 0         →   t = p; if (t) { t = a[i] > 0 }       x = t      (||: if (!t))
//
// Why it is sound: the branches compute what JavaScript computes for the expression — the
// condition, then only the chosen side (`&&`: the left, then the right only where the left is
// true) — into a fresh local that the expression then reads. They run just before the statement
// that held the expression, which computes it at that point anyway: expressions are pure and the
// statement's other operands hold no effect, so computing this one first changes no value. A
// loop's exit test is evaluated after its `continuing` block: its branches go at that block's
// end. A lazy expression on a chosen side goes into that side's branch, innermost last.

import type { Block, ExprHandle, Function, LocalHandle, Loc, Module, Stmt } from "../module.js";
import { exprOperands, rewriteBlock, stmtOperands } from "../module.js";
import { readsMemory } from "../module-info.js";
import { T } from "../types.js";

export function lazyReads(m: Module): void {
  for (const f of m.functions) {
    f.body = rewriteBlock(f.body, (s) => {
      const before: Stmt[] = [];
      for (const h of stmtOperands(s)) lazify(f, h, before, s.loc);
      if (!before.length) return s;
      return s.k === "loop" ? { ...s, continuing: [...s.continuing, ...before] } : [...before, s];
    });
  }
}

/** Rewrite the lazy expressions of a tree (outermost first, in evaluation order) into branches appended to `out`. */
function lazify(f: Function, h: ExprHandle, out: Stmt[], loc: Loc | null): void {
  const e = f.exprs[h];
  const set = (local: LocalHandle, value: ExprHandle): Stmt => ({ k: "set", local, value, loc });
  const branch = (x: ExprHandle, local: LocalHandle): Block => { const b: Stmt[] = []; lazify(f, x, b, loc); b.push(set(local, x)); return b; };
  if (e.k === "select" && (readsMemory(f, e.a) || readsMemory(f, e.b))) {
    lazify(f, e.cond, out, loc);
    const t = fresh(f, e.type, "select");
    out.push({ k: "if", cond: e.cond, then: branch(e.a, t), else: branch(e.b, t), loc });
    f.exprs[h] = { k: "local", local: t, type: e.type, loc: e.loc };
    return;
  }
  if (e.k === "op" && (e.op === "land" || e.op === "lor") && readsMemory(f, e.args[1])) {
    lazify(f, e.args[0], out, loc);
    const t = fresh(f, T.bool, e.op);
    out.push(set(t, e.args[0]));
    let cond = add(f, { k: "local", local: t, type: T.bool, loc: null });
    if (e.op === "lor") cond = add(f, { k: "op", op: "not", args: [cond], type: T.bool, loc: null });
    out.push({ k: "if", cond, then: branch(e.args[1], t), else: [], loc });
    f.exprs[h] = { k: "local", local: t, type: T.bool, loc: e.loc };
    return;
  }
  for (const o of exprOperands(e)) lazify(f, o, out, loc);
}

function add(f: Function, e: Function["exprs"][number]): ExprHandle {
  f.exprs.push(e);
  return (f.exprs.length - 1) as ExprHandle;
}

function fresh(f: Function, type: Function["locals"][number]["type"], name: string): LocalHandle {
  f.locals.push({ name: `lazy_${name}`, type });
  return (f.locals.length - 1) as LocalHandle;
}
