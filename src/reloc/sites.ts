// The relocation sites of a module, before emission: the constant tables its code still refers
// to, in name order. Tables no reachable code reads any more (dead code, reads folded into
// constants) are pruned, so they never reach a manifest.

import type { ExprHandle, GlobalHandle, Module } from "../ir/module.js";
import { exprOperands, stmtOperands, walkStmts } from "../ir/module.js";

/** Prune the module's unreferenced globals and sort the rest by name (the manifest's order), renumbering references. */
export function finalizeSites(m: Module): void {
  const used = new Set<number>();
  const refs: { f: number; h: ExprHandle }[] = [];
  m.functions.forEach((f, fi) => {
    const visit = (h: ExprHandle): void => {
      const e = f.exprs[h];
      if (e.k === "global") { used.add(e.global); refs.push({ f: fi, h }); }
      for (const o of exprOperands(e)) visit(o);
    };
    walkStmts(f.body, (s) => { for (const h of stmtOperands(s)) visit(h); });
  });
  const order = [...used].sort((a, b) => (m.globals[a].name < m.globals[b].name ? -1 : m.globals[a].name > m.globals[b].name ? 1 : a - b));
  const remap = new Map(order.map((old, i) => [old, i]));
  for (const { f, h } of refs) {
    const e = m.functions[f].exprs[h] as Extract<Module["functions"][number]["exprs"][number], { k: "global" }>;
    m.functions[f].exprs[h] = { ...e, global: remap.get(e.global)! as GlobalHandle };
  }
  m.globals = order.map((i) => m.globals[i]);
}
