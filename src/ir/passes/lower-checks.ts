// Lowering checks, the last pass before emission: every `check` becomes
//   if (cond) { call report(state, code, site, a, b); trap }
// (the call and the trap alone where the check always fires), the form the back ends spell.
//
// Why it is sound: this is the check's definition (ir/module.ts) written out; nothing is dropped,
// moved or reordered, and the expressions are the check's own. Passes before this one see checks
// as checks (what they test, what they report); the back ends see the runtime call and the trap.

import type { Block, Module, Stmt } from "../module.js";

export function lowerChecks(m: Module): void {
  for (const f of m.functions) f.body = lowerBlock(f.body);
}

function lowerBlock(block: Block): Block {
  const out: Block = [];
  for (const s of block) {
    switch (s.k) {
      case "if": out.push({ ...s, then: lowerBlock(s.then), else: lowerBlock(s.else) }); break;
      case "loop": out.push({ ...s, body: lowerBlock(s.body), continuing: lowerBlock(s.continuing) }); break;
      case "switch": out.push({ ...s, cases: s.cases.map((c) => ({ ...c, body: lowerBlock(c.body) })) }); break;
      case "check": {
        const raise: Stmt[] = [
          { k: "call", fn: s.report, args: [s.state, s.code, s.site, s.a, s.b], result: null, loc: s.loc },
          { k: "trap", loc: s.loc },
        ];
        if (s.cond === null) out.push(...raise);
        else out.push({ k: "if", cond: s.cond, then: raise, else: [], loc: s.loc });
        break;
      }
      default: out.push(s);
    }
  }
  return out;
}
