// Inlining: a call to a small helper is replaced by the helper's body, with fresh locals,
// parameters assigned from the arguments and array parameters replaced by the array
// expressions passed. A helper whose only `return` is its last statement inlines as it is; with
// `multiReturn`, any non-recursive helper does: its body runs in a one-pass loop that a
// `return` leaves (setting the result and a flag checked after each inner loop or switch).
//
// Checks: inlining moves a helper's statements, its checks included, to the call site in their
// own order; arguments are evaluated once, before the body, as the call evaluated them. Each
// location is seen through the call site it was inlined at (`inlinedAt`), so an exception reports
// the same location and call chain as the call would have. No check is dropped or reordered.

import type { Block, Expr, ExprHandle, Function, LocalHandle, Loc, Module, Stmt } from "../module.js";
import { rewriteBlock, walkStmts } from "../module.js";
import { T, isArray } from "../types.js";
import { completesBlock } from "../module-info.js";
import { pruneFunctions } from "./dce.js";

export interface InlineOptions {
  /** Inline every eligible call regardless of size. */
  always: boolean;
  /** Callees with at most this many statements are inlined. */
  maxStatements: number;
  /** Also inline helpers that return early (targets without functions taking arrays, e.g. WGSL). */
  multiReturn?: boolean;
  /** Inline runtime-library functions too (their kernel state is a module binding there). */
  runtime?: boolean;
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
  if (f.kind === "runtime" && !opts.runtime) return false; // the runtime library is cold code: keep it out of line
  let count = 0, returns = 0, callsSelf = false;
  walkStmts(f.body, (s) => {
    // A check is emitted as an if, a call and a trap: it weighs what it will be.
    count += s.k === "check" ? (s.cond === null ? 2 : 3) : 1;
    if (s.k === "return") returns++;
    if (s.k === "call" && s.fn >= callee) callsSelf = true;
  });
  if (callsSelf) return false;
  const last = f.body[f.body.length - 1];
  const returnsOnlyAtEnd = returns === 0 || (returns === 1 && last?.k === "return");
  return (returnsOnlyAtEnd || !!opts.multiReturn) && (opts.always || count <= opts.maxStatements || containsBarrier(f.body));
}

function returnsOnlyAtEnd(f: Function): boolean {
  let returns = 0;
  walkStmts(f.body, (s) => { if (s.k === "return") returns++; });
  return returns === 0 || (returns === 1 && f.body[f.body.length - 1]?.k === "return");
}

/**
 * Whether a block holds a point where threads wait for each other: a barrier, or a subgroup
 * operation (the barrier of a subgroup); with `blockOnly`, a barrier of the block. Helpers
 * holding one are inlined into the kernel.
 */
export function containsBarrier(b: Block, blockOnly = false): boolean {
  let found = false;
  walkStmts(b, (s) => { if (s.k === "barrier" || (s.k === "subgroup" && !blockOnly)) found = true; });
  return found;
}

function inlineBlock(m: Module, f: Function, index: number, block: Block, opts: InlineOptions): Block {
  return rewriteBlock(block, (s) => (s.k === "call" && eligible(m, index, s.fn, opts) ? expand(f, m.functions[s.fn], s) : s));
}

/**
 * The statements that replace `call` (a call inference inlines: of a helper returning an object
 * value, or handing values back): the callee's locals in `bound` become the given locals of the
 * caller (its result leaves, the parameters' values it hands back), every other one a fresh local.
 */
export function inlineCall(caller: Function, callee: Function, call: Extract<Stmt, { k: "call" }>, bound: Map<number, LocalHandle>): Block {
  return expand(caller, callee, call, bound);
}

/** The statements that replace `call`: parameter assignments, then the callee's body. */
function expand(caller: Function, callee: Function, call: Extract<Stmt, { k: "call" }>, bound?: Map<number, LocalHandle>): Block {
  const localMap = new Map<number, LocalHandle>(bound);
  const arrayArgs = new Map<number, ExprHandle>();
  const out: Block = [];
  // The callee's kernel state is the caller's (calls pass it implicitly).
  if (callee.stateParam !== null && caller.stateParam !== null) localMap.set(callee.stateParam, caller.stateParam);
  callee.params.forEach((p, i) => {
    if (isArray(callee.locals[p].type)) { arrayArgs.set(p, call.args[i]); return; }
    // (A parameter bound to a caller's local is where the caller reads it back after the body.)
    const l = localMap.get(p) ?? newLocal(caller, `${callee.name}.${callee.locals[p].name}`, callee.locals[p]);
    localMap.set(p, l);
    out.push({ k: "set", local: l, value: call.args[i], loc: call.loc });
  });
  const local = (l: number): LocalHandle => {
    let m = localMap.get(l);
    if (m === undefined) { m = newLocal(caller, `${callee.name}.${callee.locals[l].name}`, callee.locals[l]); localMap.set(l, m); }
    return m;
  };
  const at = (l: Loc | null): Loc | null => inlinedAt(l, call.loc);
  // Array parameters are replaced by the array expression passed, wherever they are read.
  const substitute = (l: number): ExprHandle | null => (arrayArgs.has(l) ? copyFrom(caller, caller, arrayArgs.get(l)!, (x) => x as LocalHandle) : null);
  const copy = (h: ExprHandle): ExprHandle => copyFrom(callee, caller, h, local, substitute, at);
  const body = copyBlock(callee.body, copy, local, at);
  if (returnsOnlyAtEnd(callee)) {
    const last = body[body.length - 1];
    if (last?.k === "return") {
      body.pop();
      if (last.value !== null && call.result !== null) body.push({ k: "set", local: call.result, value: last.value, loc: last.loc });
    }
    out.push(...body);
    return out;
  }
  // Early returns: loop { body; break } where `return v` is `result = v; returned = true; break`,
  // and a `returned` check follows every inner loop or switch that contains a return.
  const flag = newLocal(caller, `${callee.name}.returned`, { type: T.bool });
  const bool = (v: boolean): ExprHandle => { caller.exprs.push({ k: "const", value: v, type: T.bool, loc: null }); return (caller.exprs.length - 1) as ExprHandle; };
  const readFlag = (): ExprHandle => { caller.exprs.push({ k: "local", local: flag, type: T.bool, loc: null }); return (caller.exprs.length - 1) as ExprHandle; };
  const hasReturn = (b: Block): boolean => { let r = false; walkStmts(b, (x) => { if (x.k === "return") r = true; }); return r; };
  const rewrite = (b: Block): Block => b.flatMap((st): Stmt[] => {
    switch (st.k) {
      case "return": {
        const setResult: Stmt[] = st.value !== null && call.result !== null ? [{ k: "set", local: call.result, value: st.value, loc: st.loc }] : [];
        return [...setResult, { k: "set", local: flag, value: bool(true), loc: st.loc }, { k: "break", loc: st.loc }];
      }
      case "if": return [{ ...st, then: rewrite(st.then), else: rewrite(st.else) }];
      case "loop": case "switch": {
        const had = st.k === "loop" ? hasReturn(st.body) || hasReturn(st.continuing) : st.cases.some((c) => hasReturn(c.body));
        const inner: Stmt = st.k === "loop"
          ? { ...st, body: rewrite(st.body), continuing: rewrite(st.continuing) }
          : { ...st, cases: st.cases.map((c) => ({ ...c, body: rewrite(c.body) })) };
        return had ? [inner, { k: "if", cond: readFlag(), then: [{ k: "break", loc: null }], else: [], loc: null }] : [inner];
      }
      default: return [st];
    }
  });
  out.push({ k: "set", local: flag, value: bool(false), loc: call.loc });
  // The loop's closing break where the body can reach its end: after a body whose every path
  // returns (already a break) it would be unreachable code (which WGSL's compiler warns of).
  const inner = rewrite(body);
  out.push({ k: "loop", body: completesBlock(inner) ? [...inner, { k: "break", loc: null }] : inner, continuing: [], breakIf: null, loc: call.loc });
  return out;
}

function newLocal(f: Function, name: string, like: { type: Function["locals"][number]["type"] }): LocalHandle {
  f.locals.push({ name, type: like.type });
  return (f.locals.length - 1) as LocalHandle;
}

/** Deep-copy an expression tree from one function's arena into another's. */
export function copyFrom(from: Function, to: Function, h: ExprHandle, local: (l: number) => LocalHandle,
                         substitute: (l: number) => ExprHandle | null = () => null, at: (l: Loc | null) => Loc | null = (l) => l): ExprHandle {
  const e = from.exprs[h];
  const c = (x: ExprHandle): ExprHandle => copyFrom(from, to, x, local, substitute, at);
  let n: Expr;
  switch (e.k) {
    case "const": case "global": case "builtin": n = { ...e }; break;
    case "location": n = { ...e, site: at(e.site) ?? e.site }; break;
    case "local": {
      const sub = substitute(e.local);
      if (sub !== null) return sub;
      n = { ...e, local: local(e.local) };
      break;
    }
    case "op": n = { ...e, args: e.args.map(c) }; break;
    case "convert": n = { ...e, arg: c(e.arg) }; break;
    case "select": n = { ...e, cond: c(e.cond), a: c(e.a), b: c(e.b) }; break;
    case "load": n = { ...e, array: c(e.array), index: c(e.index) }; break;
    case "length": n = { ...e, array: c(e.array) }; break;
    case "bitOffset": n = { ...e, array: c(e.array), index: c(e.index) }; break;
    case "shared": n = { ...e }; break;
  }
  to.exprs.push(n);
  return (to.exprs.length - 1) as ExprHandle;
}

/** A callee's location seen through the call site it was inlined at. */
function inlinedAt(l: Loc | null, site: Loc | null): Loc | null {
  if (!l || !site) return l;
  return { ...l, inlinedAt: l.inlinedAt ? inlinedAt(l.inlinedAt, site)! : site };
}

export function copyBlock(b: Block, copy: (h: ExprHandle) => ExprHandle, local: (l: number) => LocalHandle, at: (l: Loc | null) => Loc | null): Block {
  return b.map((s0): Stmt => {
    const s = { ...s0, loc: at(s0.loc) } as Stmt;
    switch (s.k) {
      case "set": return { ...s, local: local(s.local), value: copy(s.value) };
      case "store": return { ...s, array: copy(s.array), index: copy(s.index), value: copy(s.value) };
      case "call": return { ...s, args: s.args.map(copy), result: s.result === null ? null : local(s.result), ...(s.frame ? { frame: at(s.frame) ?? s.frame } : {}) };
      case "if": return { ...s, cond: copy(s.cond), then: copyBlock(s.then, copy, local, at), else: copyBlock(s.else, copy, local, at) };
      case "loop": return { ...s, body: copyBlock(s.body, copy, local, at), continuing: copyBlock(s.continuing, copy, local, at), breakIf: s.breakIf === null ? null : copy(s.breakIf) };
      case "switch": return { ...s, selector: copy(s.selector), cases: s.cases.map((c) => ({ ...c, body: copyBlock(c.body, copy, local, at) })) };
      case "return": return { ...s, value: s.value === null ? null : copy(s.value) };
      case "atomic": return { ...s, array: copy(s.array), index: copy(s.index), args: s.args.map(copy), result: s.result === null ? null : local(s.result) };
      case "subgroup": return { ...s, args: s.args.map(copy), result: local(s.result) };
      case "init": return { ...s, local: local(s.local) };
      case "break": case "continue": case "barrier": case "fence": case "trap": return { ...s };
      case "check": return { ...s, cond: s.cond === null ? null : copy(s.cond), state: copy(s.state), code: copy(s.code), site: copy(s.site), a: copy(s.a), b: copy(s.b) };
    }
  });
}
