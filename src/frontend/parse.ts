// Parses a function object's source (its toString(), JavaScript: acorn, acorn.ts says why).
// Whole files (TypeScript) are parse-file.ts's.

import { parseJS } from "./acorn.js";
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
    const r = parseJS(source.text);
    if (r.errors.length) continue;
    const node = pick(r.program);
    if (node) return { node, source, name: node.id?.name ?? name };
  }
  // Report the parser's own error for the plain expression form.
  const source = new SourceText("(" + text + ")", name, 1, 1, origin);
  const r = parseJS(source.text);
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
