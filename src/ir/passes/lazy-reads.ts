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

import type { Block, ExprHandle, LocalHandle, Loc, Module, Stmt } from "../module.js";
import { exprOperands, rewriteBlock, stmtOperands } from "../module.js";
import { readsMemory } from "../module-info.js";
import type { Scalar } from "../types.js";
import { Builder } from "./legalize.js";

export function lazyReads(m: Module): void {
  for (const f of m.functions) {
    const b = new Builder(f, false);
    b.current = "lazy";
    f.body = rewriteBlock(f.body, (s) => {
      const before: Stmt[] = [];
      for (const h of stmtOperands(s)) lazify(b, h, before, s.loc);
      if (!before.length) return s;
      return s.k === "loop" ? { ...s, continuing: [...s.continuing, ...before] } : [...before, s];
    });
  }
}

/** Rewrite the lazy expressions of a tree (outermost first, in evaluation order) into branches appended to `out`. */
function lazify(b: Builder, h: ExprHandle, out: Stmt[], loc: Loc | null): void {
  const f = b.f, e = f.exprs[h];
  const set = (local: LocalHandle, value: ExprHandle): Stmt => ({ k: "set", local, value, loc });
  const branch = (x: ExprHandle, local: LocalHandle): Block => { const side: Stmt[] = []; lazify(b, x, side, loc); side.push(set(local, x)); return side; };
  if (e.k === "select" && (readsMemory(f, e.a) || readsMemory(f, e.b))) {
    lazify(b, e.cond, out, loc);
    const t = b.local((e.type as { scalar: Scalar }).scalar, "select");
    out.push({ k: "if", cond: e.cond, then: branch(e.a, t), else: branch(e.b, t), loc });
    f.exprs[h] = { k: "local", local: t, type: e.type, loc: e.loc };
    return;
  }
  if (e.k === "op" && (e.op === "land" || e.op === "lor") && readsMemory(f, e.args[1])) {
    lazify(b, e.args[0], out, loc);
    const t = b.local("bool", e.op);
    out.push(set(t, e.args[0]));
    const cond = e.op === "lor" ? b.op("not", [b.read(t)]) : b.read(t);
    out.push({ k: "if", cond, then: branch(e.args[1], t), else: [], loc });
    f.exprs[h] = { k: "local", local: t, type: e.type, loc: e.loc };
    return;
  }
  for (const o of exprOperands(e)) lazify(b, o, out, loc);
}
