// Lowering checks: every `check` becomes
//   if (cond) { call report(state, code, site, a, b); trap }
// (the call and the trap alone where the check always fires). The WGSL and PTX back ends lower a
// module's checks as they start; the JS back end keeps them to the end (its per-block bounds
// checks act on them) and spells each one this way where it emits it.
//
// Why it is sound: this is the check's definition (ir/module.ts) written out; nothing is dropped,
// moved or reordered, and the expressions are the check's own.

import type { Block, Module, Stmt } from "../module.js";
import { rewriteBlock } from "../module.js";

export function lowerChecks(m: Module): void {
  for (const f of m.functions) f.body = lowerBlock(f.body);
}

/** One check, lowered. */
export function lowerCheck(s: Extract<Stmt, { k: "check" }>): Stmt[] {
  const raise: Stmt[] = [
    { k: "call", fn: s.report, args: [s.state, s.code, s.site, s.a, s.b], result: null, loc: s.loc },
    { k: "trap", loc: s.loc },
  ];
  return s.cond === null ? raise : [{ k: "if", cond: s.cond, then: raise, else: [], loc: s.loc }];
}

/** A block with its checks (nested ones too) lowered. */
export function lowerBlock(block: Block): Block {
  return rewriteBlock(block, (s) => (s.k === "check" ? lowerCheck(s) : s));
}
