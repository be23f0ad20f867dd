// Parameters each thread owns: where a target runs a block's threads inside one call of the
// kernel's function (the JS target's thread loops, and its WebAssembly) or holds the parameters
// where the kernel cannot assign them (WGSL's uniform block) — legal.ts `paramCopies` — a scalar
// parameter the kernel assigns becomes a fresh local, set from the parameter at the start of the
// kernel's body — each thread's start — and used wherever the parameter was:
//
//   kernel k(p) { …p = 7…; …p… }   →   kernel k(p) { p' = p; …p' = 7…; …p'… }
//
// Why it is sound: in JavaScript each thread is a call of the kernel with its own arguments, so an
// assignment to a parameter is seen by that thread alone; on GPUs each thread's parameters are its
// own too. With the copy, each thread starts from the argument (the statement is first in the
// body the thread loops run) and every read and write of the parameter in the kernel is one of
// the copy, which nothing else writes; the parameter itself is then never assigned, so it keeps
// the launch's argument for every thread. Helpers are functions with their own parameters (or
// inlined, their parameters locals already): only the kernel's need it. Array parameters are not
// assigned as values (a rebound view is a local of its own: infer/arrays.ts).

import type { LocalHandle, Module, Stmt } from "../module.js";
import { assignedLocal, walkStmts } from "../module.js";
import { Builder } from "./legalize.js";

export function copyAssignedParams(m: Module): void {
  const f = m.functions[m.entry];
  const assigned = new Set<LocalHandle>();
  walkStmts(f.body, (s) => {
    const l = assignedLocal(s);
    if (l !== null) assigned.add(l);
  });
  const copies = new Map<LocalHandle, LocalHandle>();
  const b = new Builder(f, false);
  for (const p of f.params) {
    const t = f.locals[p].type;
    if (!assigned.has(p) || t.kind !== "scalar") continue;
    const copy = f.locals.length as LocalHandle;
    f.locals.push({ name: f.locals[p].name, type: t });
    copies.set(p, copy);
  }
  if (!copies.size) return;
  for (const e of f.exprs) if (e.k === "local" && copies.has(e.local)) e.local = copies.get(e.local)!;
  walkStmts(f.body, (s: Stmt) => {
    if (s.k === "set" && copies.has(s.local)) s.local = copies.get(s.local)!;
    if ((s.k === "call" || s.k === "atomic" || s.k === "subgroup") && s.result !== null && copies.has(s.result)) s.result = copies.get(s.result)!;
  });
  f.body = [...[...copies].map(([p, copy]): Stmt => ({ k: "set", local: copy, value: b.read(p), loc: null })), ...f.body];
}
