// The parser of TypeScript files for the annotation reader (annotations.ts): oxc-parser (oxc.ts),
// loaded only when a kernel's annotations are read from a .ts file. The compiler cannot import it
// itself: in a build the compiler is one classic script (ARCHITECTURE.md, "gpuc's own code
// cache"), which may not import lazily, and importing oxc-parser with the compiler cost every
// first compile its native binding's load (about 12 ms). So whoever provides the compiler provides
// this too (index.ts: a lazy import of oxc.ts), and the compiler awaits it before lowering a
// kernel whose annotations need it (compile.ts, lowerKernel).

import type { parseSync } from "oxc-parser";

type ParseSync = typeof parseSync;
let load: (() => Promise<{ parseSync: ParseSync }>) | null = null;
let parser: ParseSync | null = null;

export function provideTSParser(loader: () => Promise<{ parseSync: ParseSync }>): void { load ??= loader; }

/** Load the parser (once; nothing where none was provided: then no annotations can be read). */
export async function loadTSParser(): Promise<void> {
  if (!parser && load) parser = (await load()).parseSync;
}

/** The parser, or null where it was not loaded (loadTSParser) or provided. */
export function tsParser(): ParseSync | null { return parser; }
