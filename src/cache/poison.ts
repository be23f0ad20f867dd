// Poison detection (ARCHITECTURE.md, "Caches"): code that falls back to dynamic dispatch — a call
// to something the module does not define, which the runtime would have to resolve by name — must
// never be linked or launched. gpuc's compiler never emits it (an unresolvable call is a
// CompileError), so poison in a cache means the entry was made by something else or damaged: it is
// discarded and the kernel compiled afresh; poison in fresh output is an internal error, never
// cached. The check itself (a parse of JS, the symbol tables and call forms of WGSL and PTX) is
// code-check.ts, reached through checks.ts (loaded on the first check, not at gpuc's import).

import type { CheckedArtifact } from "../targets/target.js";

let checks: Promise<typeof import("./checks.js")> | null = null;

/** Why an artifact's code is poisoned, or null when everything it refers to is defined in it or given to it. */
export async function findPoison(a: CheckedArtifact): Promise<string | null> {
  return (await (checks ??= import("./checks.js"))).checkCode(a);
}
