// Inlining: a call to a small helper whose only `return` is its last statement is replaced by
// the helper's body, with fresh locals, parameters assigned from the arguments and array
// parameters replaced by the array expressions passed.

import type { Block, Expr, ExprHandle, Function, LocalHandle, Module, Stmt } from "../module.js";
import { walkStmts } from "../module.js";
import { isArray } from "../types.js";
import { pruneFunctions } from "./dce.js";

export interface InlineOptions {
  /** Inline every eligible call regardless of size. */
  always: boolean;
  /** Callees with at most this many statements are inlined. */
  maxStatements: number;
}

export function inlineCalls(m: Module, opts: InlineOptions = { always: false, maxStatements: 40 }): void {
  // Callees precede callers, so by the time a caller is visited its callees are already flat.
  m.functions.forEach((f, i) => {
    f.body = inlineBlock(m, f, i, f.body, opts);
  });
  pruneFunctions(m);
}

function eligible(m: Module, caller: number, callee: number, opts: InlineOptions): boolean {
  if (callee >= caller) return false; // recursion
  const f = m.functions[callee];
  let count = 0, returns = 0, callsSelf = false;
  walkStmts(f.body, (s) => {
    count++;
    if (s.k === "return") returns++;
    if (s.k === "call" && s.fn >= callee) callsSelf = true;
  });
  if (callsSelf) return false;
  const last = f.body[f.body.length - 1];
  const returnsOnlyAtEnd = returns === 0 || (returns === 1 && last?.k === "return");
  return returnsOnlyAtEnd && (opts.always || count <= opts.maxStatements);
}

function inlineBlock(m: Module, f: Function, index: number, block: Block, opts: InlineOptions): Block {
  const out: Block = [];
  for (const s of block) {
    switch (s.k) {
      case "if": s.then = inlineBlock(m, f, index, s.then, opts); s.else = inlineBlock(m, f, index, s.else, opts); break;
      case "loop": s.body = inlineBlock(m, f, index, s.body, opts); s.continuing = inlineBlock(m, f, index, s.continuing, opts); break;
      case "switch": for (const c of s.cases) c.body = inlineBlock(m, f, index, c.body, opts); break;
      case "call":
        if (eligible(m, index, s.fn, opts)) { out.push(...expand(f, m.functions[s.fn], s)); continue; }
        break;
      default: break;
    }
    out.push(s);
  }
  return out;
}

/** The statements that replace `call`: parameter assignments, then the callee's body. */
function expand(caller: Function, callee: Function, call: Extract<Stmt, { k: "call" }>): Block {
  const localMap = new Map<number, LocalHandle>();
  const arrayArgs = new Map<number, ExprHandle>();
  const out: Block = [];
  callee.params.forEach((p, i) => {
    if (isArray(callee.locals[p].type)) { arrayArgs.set(p, call.args[i]); return; }
    const l = newLocal(caller, `${callee.name}.${callee.locals[p].name}`, callee.locals[p]);
    localMap.set(p, l);
    out.push({ k: "set", local: l, value: call.args[i], loc: call.loc });
  });
  const local = (l: number): LocalHandle => {
    let m = localMap.get(l);
    if (m === undefined) { m = newLocal(caller, `${callee.name}.${callee.locals[l].name}`, callee.locals[l]); localMap.set(l, m); }
    return m;
  };
  const copy = (h: ExprHandle): ExprHandle => {
    const e = callee.exprs[h];
    if (e.k === "local" && arrayArgs.has(e.local)) return copyFrom(caller, caller, arrayArgs.get(e.local)!, (x) => x as LocalHandle);
    return copyFrom(callee, caller, h, local);
  };
  const body = copyBlock(callee.body, copy, local);
  const last = body[body.length - 1];
  if (last?.k === "return") {
    body.pop();
    if (last.value !== null && call.result !== null) body.push({ k: "set", local: call.result, value: last.value, loc: last.loc });
  }
  out.push(...body);
  return out;
}

function newLocal(f: Function, name: string, like: { type: Function["locals"][number]["type"] }): LocalHandle {
  f.locals.push({ name, type: like.type });
  return (f.locals.length - 1) as LocalHandle;
}

/** Deep-copy an expression tree from one function's arena into another's. */
export function copyFrom(from: Function, to: Function, h: ExprHandle, local: (l: number) => LocalHandle): ExprHandle {
  const e = from.exprs[h];
  const c = (x: ExprHandle): ExprHandle => copyFrom(from, to, x, local);
  let n: Expr;
  switch (e.k) {
    case "const": case "global": case "builtin": n = { ...e }; break;
    case "local": n = { ...e, local: local(e.local) }; break;
    case "op": n = { ...e, args: e.args.map(c) }; break;
    case "convert": n = { ...e, arg: c(e.arg) }; break;
    case "select": n = { ...e, cond: c(e.cond), a: c(e.a), b: c(e.b) }; break;
    case "load": n = { ...e, array: c(e.array), index: c(e.index) }; break;
    case "length": n = { ...e, array: c(e.array) }; break;
  }
  to.exprs.push(n);
  return (to.exprs.length - 1) as ExprHandle;
}

function copyBlock(b: Block, copy: (h: ExprHandle) => ExprHandle, local: (l: number) => LocalHandle): Block {
  return b.map((s): Stmt => {
    switch (s.k) {
      case "set": return { ...s, local: local(s.local), value: copy(s.value) };
      case "store": return { ...s, array: copy(s.array), index: copy(s.index), value: copy(s.value) };
      case "call": return { ...s, args: s.args.map(copy), result: s.result === null ? null : local(s.result) };
      case "if": return { ...s, cond: copy(s.cond), then: copyBlock(s.then, copy, local), else: copyBlock(s.else, copy, local) };
      case "loop": return { ...s, body: copyBlock(s.body, copy, local), continuing: copyBlock(s.continuing, copy, local), breakIf: s.breakIf === null ? null : copy(s.breakIf) };
      case "switch": return { ...s, selector: copy(s.selector), cases: s.cases.map((c) => ({ ...c, body: copyBlock(c.body, copy, local) })) };
      case "return": return { ...s, value: s.value === null ? null : copy(s.value) };
      case "break": case "continue": return { ...s };
    }
  });
}
