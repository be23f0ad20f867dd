// Lowering checks: every `check` becomes
//   if (cond) { call report(state, code, site, a, b); trap }
// (the call and the trap alone where the check always fires). legalize.ts lowers a module's
// checks so for the targets whose legality table asks for branches (WGSL, PTX, OpenCL C, SPIR-V);
// the JS back end keeps them to the end (its per-block bounds checks act on them) and spells each
// one this way where it emits it.
//
// Why it is sound: this is the check's definition (ir/module.ts) written out; nothing is dropped,
// moved or reordered, and the expressions are the check's own.

import type { Block, Stmt } from "../module.js";
import { rewriteBlock } from "../module.js";

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
