// Code checks for artifacts read back from a disk cache or a kernel image (ARCHITECTURE.md,
// "Caches"): does the code define, or may it use, every function and name it refers to? gpuc's back
// ends never emit a reference to something undefined (an unresolvable call is a CompileError), so
// such code was made by something else or damaged: it is discarded and the kernel compiled afresh.
// Each target checks its own code (targets/<name>/read-back.ts: JS by a parse and JavaScript's
// scoping rules, WGSL and PTX by their symbol tables and call forms). Loaded by checks.ts only.

import type { CheckedArtifact } from "../targets/target.js";
import { readBackOf } from "./read-backs.js";

export type { CheckedArtifact };

/** Why the code of an artifact refers to something it neither defines nor is given, or null. */
export async function checkCode(a: CheckedArtifact): Promise<string | null> {
  const readBack = readBackOf(a.target);
  return readBack ? (await readBack).checkCode(a) : null;
}
