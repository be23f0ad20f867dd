// The checks of records and code that nothing authenticated (ARCHITECTURE.md, "Caches" and
// "Shipping"): the schemas of what is read back (schema.ts, which carries valibot), each target's
// layout schema and code check (read-backs.ts, code-check.ts: the JS check parses, with acorn).
// The validator (validate.ts) and the check of fresh output (poison.ts) reach them through this
// module alone, loaded on first use, so that it is the one seam a bundle can leave out: gpuc/plugin
// resolves it to no-checks.ts (same exports, each refusing), since an app's bundle pins its own
// image — whose entries, like a tagged disk file's or a signed image's, are then this build's
// output and need no checks — and an app carries neither a parser nor the schema library.
// Unpinned, unsigned images are checked in full wherever this module is the real one.

import type { CacheEntry } from "./entry.js";
import type { CheckedArtifact } from "../targets/target.js";
import { parseEntry as parseWithLayout, parseImageDocument, parseSignature, type Verdict } from "./schema.js";
import { readBackOf } from "./read-backs.js";

export { parseImageDocument, parseSignature };
export type { Verdict };

/** Why the checks are not here (no-checks.ts says), or null: they are. */
export const unavailable: string | null = null;

/** The record as a typed cache entry of `target` (its layout checked by the target's schema), or its first schema problem. */
export async function parseEntry(raw: unknown, target: string | undefined): Promise<Verdict<CacheEntry>> {
  const readBack = target === undefined ? undefined : readBackOf(target);
  return parseWithLayout(raw, readBack ? (await readBack).layoutSchema : null);
}

let codeCheck: Promise<typeof import("./code-check.js")> | null = null;
/** The code checker, loaded once (its own module: the schemas alone do not load it). */
const checker = () => (codeCheck ??= import("./code-check.js"));

/** Why an artifact's code refers to something it neither defines nor is given, or null. */
export async function checkCode(a: CheckedArtifact): Promise<string | null> {
  return (await checker()).checkCode(a);
}

/** Load the code check of `target`'s code (and the checker) ahead of its first use. */
export function prefetchCodeCheck(target: string | null): void {
  checker().catch(() => {});
  if (target !== null) readBackOf(target)?.catch(() => {});
}
