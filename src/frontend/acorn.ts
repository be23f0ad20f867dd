// The parser of kernel and helper sources (`fn.toString()`, JavaScript): acorn. Pure JavaScript,
// so in the built compiler script it is part of gpuc's code cache (ARCHITECTURE.md, "gpuc's own
// code cache"), where oxc-parser's native binding took about 12 ms to load in each new process
// (its platform detection, module and dlopen) before a first compile could parse anything.
// oxc-parser stays the parser of whole files (TypeScript: the CLI, the bundler plugin, the
// annotation reader) and of the check of JavaScript read back where no compiler is loaded
// (targets/js/read-back.ts: a process that compiles checks with acorn, parseScript). The
// browser build also puts this module in the place of oxc-parser's two entry points (parseSync and
// wrap, src/frontend/oxc.ts), which no code of a browser's compile path reaches.

import { parse } from "acorn";

/** What the front end reads of a parse: the program (ESTree, parentheses kept), or the errors. */
export interface JSParse { program: any; errors: { message: string; labels: { start: number }[] }[] }

/** Parse JavaScript as a module (strict), with parenthesized expressions as nodes. */
export function parseJS(text: string): JSParse {
  return parseWith(text, "module", true);
}

/**
 * Parse JavaScript as a script (sloppy unless it says otherwise), parentheses not kept: the code
 * check of JavaScript artifacts (targets/js/read-back.ts), which the compiler gives this parser
 * (compiler/compile.ts), so that its check of fresh output parses in-process.
 */
export function parseScript(text: string): JSParse {
  return parseWith(text, "script", false);
}

function parseWith(text: string, sourceType: "module" | "script", preserveParens: boolean): JSParse {
  try {
    return { program: parse(text, { ecmaVersion: "latest", sourceType, preserveParens }), errors: [] };
  } catch (e) {
    const err = e as SyntaxError & { pos?: number };
    return { program: null, errors: [{ message: err.message.replace(/ \(\d+:\d+\)$/, ""), labels: [{ start: err.pos ?? 0 }] }] };
  }
}

/** oxc-parser's parseSync, in the browser build (a script where the caller asks for one: the code check). */
export function parseSync(_filename: string, text: string, options?: { sourceType?: string }): JSParse {
  return options?.sourceType === "script" ? parseScript(text) : parseJS(text);
}
/** oxc-parser's wrapper of its binding's result, in the browser build: acorn's result is the AST already. */
export function wrap<R>(result: R): R { return result; }
