// Constant folding: operations on constants become constants (with each type's exact
// semantics, from the op table), and branches on constants keep only the branch taken.
//
// Checks: a check whose condition folds to false could never fire and is dropped; one that folds
// to true stays (with its branch, unconditionally). Folding evaluates with each type's exact
// semantics (the op table's `eval`, wrapped to the result type), so it decides a condition
// exactly as the unfolded code would at run time; nothing is reordered.

import type { Block, Expr, ExprHandle, Function, Module } from "../module.js";
import { exprOperands, rewriteBlock, stmtOperands } from "../module.js";
import { OPS, resultScalar } from "../ops.js";
import { wrapValue } from "../types.js";

export function foldConstants(m: Module): void {
  for (const f of m.functions) {
    // (Each expression folded once: folding adds none, so the handles so far are all there are.)
    const done = new Uint8Array(f.exprs.length);
    const fold = (h: ExprHandle): void => foldExpr(m, f, h, done, fold);
    f.body = foldBlock(f, f.body, fold);
  }
}

function foldExpr(m: Module, f: Function, h: ExprHandle, done: Uint8Array, fold: (h: ExprHandle) => void): void {
  if (done[h]) return;
  done[h] = 1;
  const e = f.exprs[h];
  for (const o of exprOperands(e)) fold(o);
  switch (e.k) {
    case "op": {
      if (e.args.every((a) => constantAt(f, a))) {
        const operand = f.exprs[e.args[0]].type as { scalar: "i32" };
        replaceWithConstant(f, h, e, wrapValue(resultScalar(e.op, operand.scalar), OPS[e.op].eval(e.args.map((x) => valueAt(f, x)), operand.scalar)));
        return;
      }
      // Integer identities: x + 0, x - 0, x | 0, x ^ 0, x << 0, x >> 0 (and 0 + x, 0 | x, 0 ^ x), x * 1, 1 * x, x * 0, x & 0.
      if (e.args.length === 2 && (e.type.kind === "scalar" && (e.type.scalar === "i32" || e.type.scalar === "u32"))) {
        const [a, b] = e.args;
        const isConst = (x: ExprHandle, v: number): boolean => constantAt(f, x) !== null && valueAt(f, x) === v;
        const zeroRight = ZERO_RIGHT.has(e.op) && isConst(b, 0);
        const zeroLeft = ZERO_LEFT.has(e.op) && isConst(a, 0);
        const oneRight = (e.op === "mul" || e.op === "div") && isConst(b, 1), oneLeft = e.op === "mul" && isConst(a, 1);
        if (zeroRight || oneRight) { f.exprs[h] = { ...f.exprs[a], loc: e.loc }; return; }
        if (zeroLeft || oneLeft) { f.exprs[h] = { ...f.exprs[b], loc: e.loc }; return; }
        // Integer x / 0 and x % 0 are 0 (JS: (x / 0) | 0, and the language's x % 0); WGSL also
        // rejects a constant zero divisor outright. Expressions are pure, so x can go.
        if ((e.op === "div" || e.op === "rem") && isConst(b, 0)) { replaceWithConstant(f, h, e, 0); return; }
        // 0 * x and x & 0 are 0 for integers (wrapping multiplication; no NaN): x is pure.
        if ((e.op === "mul" || e.op === "and") && (isConst(a, 0) || isConst(b, 0))) { replaceWithConstant(f, h, e, 0); return; }
      }
      // Short-circuit ops with a constant side: x && true and x || false are x; x && false is
      // false and x || true is true (x is pure: not evaluating it changes nothing).
      if ((e.op === "land" || e.op === "lor") && (constantAt(f, e.args[0]) || constantAt(f, e.args[1]))) {
        const [k, other] = constantAt(f, e.args[0]) ? [valueAt(f, e.args[0]) as boolean, e.args[1]] : [valueAt(f, e.args[1]) as boolean, e.args[0]];
        if ((e.op === "land") === k) f.exprs[h] = { ...f.exprs[other], loc: f.exprs[other].loc ?? e.loc };
        else replaceWithConstant(f, h, e, k);
      }
      return;
    }
    case "convert":
      if (constantAt(f, e.arg)) replaceWithConstant(f, h, e, valueAt(f, e.arg));
      return;
    case "select":
      if (constantAt(f, e.cond)) f.exprs[h] = { ...f.exprs[valueAt(f, e.cond) ? e.a : e.b], loc: e.loc };
      return;
    case "load": {
      // A constant table read at a constant index (in range) is a constant: no relocation site
      // remains for a table read only so. The code then depends on that element's value, which
      // the module records (m.folded → the manifest's `folded`): a launch checks that the table
      // still holds it, as JavaScript would read the table then (kernel.ts, captured tables).
      const a = f.exprs[e.array];
      if (a.k !== "global" || !constantAt(f, e.index) || m.globals[a.global].rewritable) return;
      const i = valueAt(f, e.index) as number, g = m.globals[a.global];
      if (!(Number.isInteger(i) && i >= 0 && i < g.value.length)) return;
      m.folded ??= new Map();
      let at = m.folded.get(g.name);
      if (!at) m.folded.set(g.name, (at = new Map()));
      at.set(i, g.value[i]);
      replaceWithConstant(f, h, e, g.value[i]);
      return;
    }
    default:
      return;
  }
}

/** Integer ops whose right operand 0 (or left: ZERO_LEFT) leaves the other operand. */
const ZERO_RIGHT: ReadonlySet<string> = new Set(["add", "sub", "or", "xor", "shl", "shr"]), ZERO_LEFT: ReadonlySet<string> = new Set(["add", "or", "xor"]);
const constantAt = (f: Function, x: ExprHandle): Expr | null => (f.exprs[x].k === "const" ? f.exprs[x] : null);
const valueAt = (f: Function, x: ExprHandle): number | boolean => (f.exprs[x] as Extract<Expr, { k: "const" }>).value;
function replaceWithConstant(f: Function, h: ExprHandle, e: Expr, value: number | boolean): void {
  f.exprs[h] = { k: "const", value: wrapValue((e.type as { scalar: "bool" }).scalar, value), type: e.type, loc: e.loc };
}

function foldBlock(f: Function, block: Block, fold: (h: ExprHandle) => void): Block {
  return rewriteBlock(block, (s) => {
    for (const h of stmtOperands(s)) fold(h);
    const constant = (h: ExprHandle | null) => { const e = h === null ? null : f.exprs[h]; return e?.k === "const" ? e.value : undefined; };
    switch (s.k) {
      case "if": {
        const cond = constant(s.cond);
        return cond === undefined ? s : cond ? s.then : s.else;
      }
      case "loop":
        return constant(s.breakIf) === false ? { ...s, breakIf: null } : s;
      case "check": {
        // A check that cannot fire goes; one that always fires ends its block (dce drops what follows).
        const cond = constant(s.cond);
        return cond === undefined ? s : cond ? { ...s, cond: null } : [];
      }
      default: return s;
    }
  });
}

