// What the JavaScript target's code means per op: everything, natively — the IR's ops are
// JavaScript's (ops.ts spells each one, wrapped to its result type). Checks stay: the back end
// spells them where it emits them (its per-block bounds checks act on them).

import type { LegalTable } from "../../ir/passes/legalize.js";

export const JS_LEGAL: LegalTable = { target: "js", ops: {}, nanTestsByBits: false, checks: "keep", paramCopies: "assigned" };
