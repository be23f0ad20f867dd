// Parses kernel sources with oxc-parser: a function object (its toString()) or a whole .ts file.

import { parseSync } from "./oxc.js";
import { CompileError } from "../errors.js";
import { functionOrigin, type FunctionOrigin } from "./origin.js";
import { SourceText } from "./source.js";

interface ParsedFunction {
  node: any;          // ESTree FunctionExpression / ArrowFunctionExpression / FunctionDeclaration
  source: SourceText;
  name: string;
}

/**
 * Parse a function object's source. `fn.toString()` gives a declaration or expression
 * (`function f(…) {…}`), an arrow (`(a) => …`) or a method (`f(…) {…}`); each is wrapped so it
 * parses as an expression, and locations are shifted back past the wrapper.
 */
export function parseFunctionSource(fn: Function, name: string): ParsedFunction {
  const text = fn.toString();
  const origin = (): FunctionOrigin | null => functionOrigin(fn);
  if (/\{\s*\[native code\]\s*\}\s*$/.test(text))
    throw CompileError.single("unsupported-value", `'${name}' is a native function; kernels and helpers must be JavaScript functions`);
  if (/^class\b/.test(text))
    throw CompileError.single("unsupported-syntax", `'${name}' is a class; kernels and helpers must be functions`);
  for (const [prefix, suffix, pick] of WRAPPERS) {
    const source = new SourceText(prefix + text + suffix, name, prefix.length, suffix.length, origin);
    const r = parseSync(`${name}.js`, source.text, { lang: "js", sourceType: "module" });
    if (r.errors.length) continue;
    const node = pick(r.program);
    if (node) return { node, source, name: node.id?.name ?? name };
  }
  // Report the parser's own error for the plain expression form.
  const source = new SourceText("(" + text + ")", name, 1, 1, origin);
  const r = parseSync(`${name}.js`, source.text, { lang: "js", sourceType: "module" });
  const e = r.errors[0];
  const at = e?.labels?.[0]?.start ?? 0;
  throw CompileError.single("syntax", `cannot parse the source of '${name}': ${e?.message ?? "not a function"}`, source.locate(at));
}

type Wrapper = [string, string, (program: any) => any];
const unparen = (n: any): any => (n?.type === "ParenthesizedExpression" ? unparen(n.expression) : n);
const WRAPPERS: Wrapper[] = [
  ["(", ")", (p) => {
    const e = unparen(p.body[0]?.expression);
    return e && (e.type === "FunctionExpression" || e.type === "ArrowFunctionExpression") ? e : null;
  }],
  ["({", "})", (p) => {
    const prop = unparen(p.body[0]?.expression)?.properties?.[0];
    return prop?.method ? prop.value : null;
  }],
];

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
