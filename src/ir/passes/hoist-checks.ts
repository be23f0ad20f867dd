// Bounds checks in counted loops, tested once for the whole loop. A loop
//   loop { if (!(k < N)) break; …check of a[k*S + B]…; … } continuing { k = k + 1 }
// with N, B and the arrays the same on every iteration becomes
//   if (every such index stays in range for k from its current value to N - 1) { the loop without those checks }
//   else { the loop as it was }
// so an out-of-range access still reports exactly what it reported before (the original loop
// runs), and the in-range case runs no per-iteration checks.

import type { Block, Expr, ExprHandle, Function, LocalHandle, Module, Stmt } from "../module.js";
import { exprOperands, walkStmts } from "../module.js";
import { T } from "../types.js";
import { copyBlock, copyFrom } from "./inline.js";

export function hoistBoundsChecks(m: Module): void {
  for (const f of m.functions) f.body = visitBlock(f, f.body);
}

function visitBlock(f: Function, block: Block): Block {
  return block.map((s): Stmt => {
    switch (s.k) {
      case "if": return { ...s, then: visitBlock(f, s.then), else: visitBlock(f, s.else) };
      case "switch": return { ...s, cases: s.cases.map((c) => ({ ...c, body: visitBlock(f, c.body) })) };
      case "loop": {
        const inner = { ...s, body: visitBlock(f, s.body) };
        return version(f, inner) ?? inner;
      }
      default: return s;
    }
  });
}

/** index = k * scale + Σ terms (i32, wrapping), with scale and terms the same on every iteration. */
interface Affine { scale: ExprHandle[]; terms: ExprHandle[] }

function version(f: Function, loop: Extract<Stmt, { k: "loop" }>): Stmt | null {
  const E = (h: ExprHandle): Expr => f.exprs[h];
  // continuing { k = k + 1 }, no break-if.
  if (loop.breakIf !== null || loop.continuing.length !== 1) return null;
  const inc = loop.continuing[0];
  if (inc.k !== "set") return null;
  const k = inc.local;
  const incValue = E(inc.value);
  if (incValue.k !== "op" || incValue.op !== "add" || incValue.type !== T.i32) return null;
  const isK = (h: ExprHandle) => { const x = E(h); return x.k === "local" && x.local === k; };
  const isOne = (h: ExprHandle) => { const x = E(h); return x.k === "const" && x.value === 1; };
  if (!((isK(incValue.args[0]) && isOne(incValue.args[1])) || (isOne(incValue.args[0]) && isK(incValue.args[1])))) return null;
  // body[0]: if (!(k < N)) break
  const test = loop.body[0];
  if (test?.k !== "if" || test.else.length || test.then.length !== 1 || test.then[0].k !== "break") return null;
  const not = E(test.cond);
  if (not.k !== "op" || not.op !== "not") return null;
  const lt = E(not.args[0]);
  if (lt.k !== "op" || lt.op !== "lt" || !isK(lt.args[0])) return null;
  const bound = lt.args[1];

  // What the loop assigns (k only in its continuing), and whether it holds a barrier.
  const assigned = new Map<number, number>();
  let barrier = false;
  walkStmts(loop.body, (s) => {
    if (s.k === "set" || s.k === "init") assigned.set(s.local, (assigned.get(s.local) ?? 0) + 1);
    if ((s.k === "call" || s.k === "atomic") && s.result !== null) assigned.set(s.result, 99);
    if (s.k === "barrier") barrier = true;
  });
  if (barrier || assigned.has(k)) return null;
  const invariant = (h: ExprHandle): boolean => {
    const x = E(h);
    if (x.k === "local") return x.local !== k && !assigned.has(x.local);
    if (x.k === "load") return false;
    return exprOperands(x).every(invariant);
  };
  if (!invariant(bound)) return null;
  // Temporaries defined once at the top level of the body (index spills), by value.
  const defs = new Map<number, ExprHandle>();
  for (const s of loop.body) if (s.k === "set" && assigned.get(s.local) === 1) defs.set(s.local, s.value);
  const affine = (h: ExprHandle): Affine | null => {
    const x = E(h);
    if (isK(h)) return { scale: [], terms: [] };
    if (x.k === "local" && defs.has(x.local)) return affine(defs.get(x.local)!);
    if (x.k !== "op" || x.type !== T.i32) return null;
    const [a, b] = x.args;
    if (x.op === "add") {
      const fa = affine(a), fb = affine(b);
      if (fa && invariant(b)) return { scale: fa.scale, terms: [...fa.terms, b] };
      if (fb && invariant(a)) return { scale: fb.scale, terms: [...fb.terms, a] };
      return null;
    }
    if (x.op === "mul") {
      const fa = affine(a), fb = affine(b);
      if (fa && !fa.terms.length && invariant(b)) return { scale: [...fa.scale, b], terms: [] };
      if (fb && !fb.terms.length && invariant(a)) return { scale: [...fb.scale, a], terms: [] };
      return null;
    }
    return null;
  };

  // The checks of the body (anywhere in it) on affine indices into loop-invariant arrays.
  const hoisted = new Set<Stmt>();
  const ranges: { index: Affine; length: ExprHandle }[] = [];
  walkStmts(loop.body, (s) => {
    if (s.k !== "if" || s.else.length || s.then.at(-1)?.k !== "trap") return;
    const c = E(s.cond);
    if (c.k !== "op" || c.op !== "ge") return;
    const unwrap = (h: ExprHandle) => (E(h).k === "convert" ? (E(h) as Extract<Expr, { k: "convert" }>).arg : h);
    const idx = unwrap(c.args[0]), len = unwrap(c.args[1]);
    if (E(idx).type !== T.i32 || !invariant(len)) return;
    const a = affine(idx);
    if (!a) return;
    hoisted.add(s);
    ranges.push({ index: a, length: len });
  });
  if (!ranges.length) return null;

  // The condition, built fresh in the arena. With S = scale, lo = k*S + ΣB (the first index the
  // loop computes, in its own wrapping arithmetic) and C = N - 1 - k (iterations after the first):
  // k >= 0, S >= 1, 0 <= lo < len and C <= (len - 1 - lo) / S. Then no index wraps, and every
  // index lo + j*S (j <= C) is in range.
  const add = (x: unknown): ExprHandle => { f.exprs.push({ ...(x as object), loc: null } as Expr); return (f.exprs.length - 1) as ExprHandle; };
  const i32 = (v: number) => add({ k: "const", value: v, type: T.i32 });
  const copy = (h: ExprHandle) => copyFrom(f, f, h, (l) => l as LocalHandle);
  const kk = () => add({ k: "local", local: k, type: T.i32 });
  const op = (o: "add" | "sub" | "mul" | "div" | "ge" | "lt" | "le" | "land", a: ExprHandle, b: ExprHandle) =>
    add({ k: "op", op: o, args: [a, b], type: o === "add" || o === "sub" || o === "mul" || o === "div" ? T.i32 : T.bool });
  const scale = (r: Affine) => r.scale.reduce((acc: ExprHandle | null, s) => (acc === null ? copy(s) : op("mul", acc, copy(s))), null) ?? i32(1);
  const lo = (r: Affine) => r.terms.reduce((e, t) => op("add", e, copy(t)), op("mul", kk(), scale(r)));
  const len = (h: ExprHandle) => (E(h).type === T.i32 ? copy(h) : add({ k: "convert", arg: copy(h), type: T.i32 }));
  let cond: ExprHandle = op("ge", kk(), i32(0));
  for (const r of ranges) {
    const iterations = op("sub", op("sub", copy(bound), i32(1)), kk());
    const room = op("div", op("sub", op("sub", len(r.length), i32(1)), lo(r.index)), scale(r.index));
    const ok = op("land", op("land", op("ge", scale(r.index), i32(1)), op("ge", lo(r.index), i32(0))),
      op("land", op("lt", lo(r.index), len(r.length)), op("le", iterations, room)));
    cond = op("land", cond, ok);
  }
  const strip = (b: Block): Block => b.filter((s) => !hoisted.has(s)).map((s): Stmt => {
    switch (s.k) {
      case "if": return { ...s, then: strip(s.then), else: strip(s.else) };
      case "loop": return { ...s, body: strip(s.body), continuing: strip(s.continuing) };
      case "switch": return { ...s, cases: s.cases.map((c) => ({ ...c, body: strip(c.body) })) };
      default: return s;
    }
  });
  const fast = copyBlock([{ ...loop, body: strip(loop.body) }], copy, (l) => l as LocalHandle, (l) => l);
  return { k: "if", cond, then: fast, else: [loop], loc: loop.loc };
}
