// The browser build's parser: acorn, behind the two names gpuc uses of oxc-parser (parseSync and
// wrap, src/frontend/oxc.ts; oxc-parser is a native Node addon). Kernels in a browser are
// JavaScript functions, so no TypeScript syntax.

import { parse } from "acorn";

/** oxc-parser's wrapper of its binding's result (src/frontend/oxc.ts): acorn's result is the AST already. */
export function wrap<R>(result: R): R { return result; }

export function parseSync(_filename: string, text: string, _options: { lang?: string; sourceType?: string }) {
  try {
    const program = parse(text, { ecmaVersion: "latest", sourceType: "module", preserveParens: true });
    return { program, errors: [] as { message: string; labels: { start: number }[] }[] };
  } catch (e) {
    const err = e as SyntaxError & { pos?: number };
    return { program: null, errors: [{ message: err.message.replace(/ \(\d+:\d+\)$/, ""), labels: [{ start: err.pos ?? 0 }] }] };
  }
}
