// Parses a whole TypeScript or JavaScript file with oxc-parser (the CLI and the bundler plugin
// read the kernel() calls of a module with it: cli/file-kernels.ts).

import { parseSync } from "./oxc.js";
import { CompileError } from "../errors.js";
import { SourceText } from "./source.js";

/** Parse a whole TypeScript or JavaScript file (for the CLI and ahead-of-time builds). */
export function parseFile(path: string, text: string): { program: any; source: SourceText } {
  const source = new SourceText(text, path, 0, 0, path);
  const lang = /\.(ts|mts|cts)$/.test(path) ? "ts" : /\.tsx$/.test(path) ? "tsx" : "js";
  const r = parseSync(path, text, { lang, sourceType: "module" });
  if (r.errors.length) {
    const diags = r.errors.map((e: any) => ({
      kind: "syntax" as const, message: e.message, location: source.locate(e.labels?.[0]?.start ?? 0), frames: [],
    }));
    throw new CompileError(diags);
  }
  return { program: r.program, source };
}
