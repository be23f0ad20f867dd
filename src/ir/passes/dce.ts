// Dead-code elimination: statements after a jump, assignments to locals nothing reads, empty
// branches, and functions no longer called.
//
// Checks (the rule every pass that may drop or move a bounds check or an exception states): dead
// code elimination never drops a check that can run. A check is a statement of its own (`check`)
// and an effect, so it is never an assignment nothing reads nor an empty branch; it goes only
// when it follows a jump (or a check that always fires, or a statement no path leaves at its end)
// in its block, where JavaScript would never reach it either. Removing a dead assignment removes
// only side-effect-free expressions (a load's check is the statement before it, and stays). A
// check keeps its report function.

import type { Block, Function, FunctionHandle, LocalHandle, Module } from "../module.js";
import { exprOperands, rewriteBlock, stmtOperands, stmtResult, walkStmts } from "../module.js";
import { completesBlock } from "../module-info.js";

export function eliminateDeadCode(m: Module): void {
  for (const f of m.functions) {
    f.body = dropUnreachable(f.body);
    for (;;) {
      const read = readLocals(f);
      let removed = false;
      f.body = dropDeadSets(f.body, read, () => { removed = true; });
      if (!removed) break;
    }
    compactLocals(f);
  }
  pruneFunctions(m);
}

/** Drop locals nothing refers to any more, renumbering the rest (parameters keep their slots). */
function compactLocals(f: Function): void {
  const used = new Set<number>(f.params);
  if (f.stateParam !== null) used.add(f.stateParam);
  const visit = (h: number): void => {
    const e = f.exprs[h];
    if (e.k === "local") used.add(e.local);
    for (const o of exprOperands(e)) visit(o);
  };
  walkStmts(f.body, (s) => {
    for (const h of stmtOperands(s)) visit(h);
    if (s.k === "set" || s.k === "init") used.add(s.local);
    const r = stmtResult(s);
    if (r !== null) used.add(r);
  });
  if (used.size === f.locals.length) return;
  const remap = new Map<number, number>();
  const locals: Function["locals"] = [];
  f.locals.forEach((l, i) => { if (used.has(i)) { remap.set(i, locals.length); locals.push(l); } });
  const map = (l: number): LocalHandle => remap.get(l)! as LocalHandle;
  // Every expression reachable from the body is rewritten; unreachable arena entries are left as they are.
  const seen = new Set<number>();
  const rewrite = (h: number): void => {
    if (seen.has(h)) return;
    seen.add(h);
    const e = f.exprs[h];
    if (e.k === "local") f.exprs[h] = { ...e, local: map(e.local) };
    for (const o of exprOperands(e)) rewrite(o);
  };
  walkStmts(f.body, (s) => {
    for (const h of stmtOperands(s)) rewrite(h);
    if (s.k === "set" || s.k === "init") s.local = map(s.local);
    if ((s.k === "call" || s.k === "atomic" || s.k === "subgroup") && s.result !== null) s.result = map(s.result);
  });
  f.params = f.params.map(map);
  if (f.stateParam !== null) f.stateParam = map(f.stateParam);
  f.locals = locals;
}

/**
 * Statements after return/break/continue/trap (or a check that always fires), or after a statement
 * that no path leaves at its end (an `if` whose branches both jump, a loop with no way out),
 * never run.
 */
function dropUnreachable(block: Block): Block {
  const out: Block = [];
  for (const s of block) {
    if (s.k === "if") { s.then = dropUnreachable(s.then); s.else = dropUnreachable(s.else); }
    if (s.k === "loop") { s.body = dropUnreachable(s.body); s.continuing = dropUnreachable(s.continuing); }
    if (s.k === "switch") for (const c of s.cases) c.body = dropUnreachable(c.body);
    out.push(s);
    if (!completesBlock([s])) break;   // (a jump too: completesBlock says so of it)
  }
  return out;
}

function readLocals(f: Function): Set<number> {
  const read = new Set<number>(f.params);
  if (f.stateParam !== null) read.add(f.stateParam);
  const visit = (h: number): void => {
    const e = f.exprs[h];
    if (e.k === "local") read.add(e.local);
    for (const o of exprOperands(e)) visit(o);
  };
  walkStmts(f.body, (s) => { for (const h of stmtOperands(s)) visit(h); });
  return read;
}

function dropDeadSets(block: Block, read: Set<number>, removed: () => void): Block {
  return rewriteBlock(block, (s) => {
    // Expressions are side-effect free, so an unread assignment can go, and so can a branch
    // left with nothing to do.
    if ((s.k === "set" && !read.has(s.local)) || (s.k === "if" && !s.then.length && !s.else.length)) { removed(); return []; }
    return s;
  });
}

/** Drop functions unreachable from the entry, keeping callees before callers. */
export function pruneFunctions(m: Module): void {
  const reachable = new Set<number>();
  // A call that records a frame (debug level 2) uses the runtime's frame recorder, though no
  // statement calls it: back ends call it when a trap passes through the call.
  const frameFn = m.functions.findIndex((f) => f.kind === "runtime" && f.name === "gpuc_report_exception_frame");
  const visit = (h: number): void => {
    if (reachable.has(h)) return;
    reachable.add(h);
    walkStmts(m.functions[h].body, (s) => {
      if (s.k === "call") { visit(s.fn); if (s.frame && frameFn >= 0) visit(frameFn); }
      if (s.k === "check") visit(s.report);
    });
  };
  visit(m.entry);
  if (reachable.size === m.functions.length) return;
  const remap = new Map<number, number>();
  const kept: Function[] = [];
  m.functions.forEach((f, i) => { if (reachable.has(i)) { remap.set(i, kept.length); kept.push(f); } });
  for (const f of kept) walkStmts(f.body, (s) => {
    if (s.k === "call") s.fn = remap.get(s.fn)! as FunctionHandle;
    if (s.k === "check") s.report = remap.get(s.report)! as FunctionHandle;
  });
  m.entry = remap.get(m.entry)! as FunctionHandle;
  m.functions = kept;
}
