// TypeScript annotations of a function object whose source was transpiled at run time.
//
// Under a TS loader (tsx, ts-node, a bundler with source maps) fn.toString() has lost its type
// annotations. The call site of kernel() still names the original .ts file (stack traces are
// source-mapped), so we parse that file once and read the annotations of the function with the
// same name and parameter names: `function fmix32(h: u32): u32` keeps declaring h as u32.

import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { parseSync } from "oxc-parser";
import { annotationType } from "./lower.js";
import type { TypeName, UFunction } from "./uir.js";

interface OriginalFunction { name: string | null; params: string[]; paramTypes: (TypeName | null)[]; returns: TypeName | null; locals: Map<string, TypeName | null> }

const files = new Map<string, OriginalFunction[] | null>();

/** The .ts file of the first stack frame outside gpuc (where kernel() was called), or null. */
export function callerSourceFile(): string | null {
  const saved = Error.stackTraceLimit;
  Error.stackTraceLimit = 8;
  const stack = new Error().stack ?? "";
  Error.stackTraceLimit = saved;
  for (const line of stack.split("\n").slice(1)) {
    const m = /\(?((?:file:\/\/)?[^\s()]+\.[cm]?tsx?):\d+:\d+\)?\s*$/.exec(line);
    if (!m) continue;
    const path = m[1].startsWith("file:") ? fileURLToPath(m[1]) : m[1];
    if (path.startsWith(ownRoot + "src/") || path.startsWith(ownRoot + "dist/")) continue;
    return path;
  }
  return null;
}
// gpuc's own frames: this file is <package>/src/frontend or <package>/dist/frontend, and stack
// traces through the built code are source-mapped back to src/.
const ownRoot = fileURLToPath(new URL("../../", import.meta.url));

function functionsOf(path: string): OriginalFunction[] | null {
  if (files.has(path)) return files.get(path)!;
  let found: OriginalFunction[] | null = null;
  try {
    const r = parseSync(path, readFileSync(path, "utf8"), { lang: path.endsWith("x") ? "tsx" : "ts", sourceType: "module" });
    if (!r.errors.length) {
      found = [];
      const visit = (n: any, bindingName: string | null): void => {
        if (!n || typeof n !== "object") return;
        if (Array.isArray(n)) { for (const c of n) visit(c, null); return; }
        if (n.type === "FunctionDeclaration" || n.type === "FunctionExpression" || n.type === "ArrowFunctionExpression") {
          const params = n.params.map((p: any) => (p.type === "Identifier" ? p.name : ""));
          const locals = new Map<string, TypeName | null>();
          collectLocals(n.body, locals);
          found!.push({
            name: n.id?.name ?? bindingName, params,
            paramTypes: n.params.map((p: any) => annotationType(p.typeAnnotation)),
            returns: annotationType(n.returnType), locals,
          });
        }
        for (const k in n) {
          if (k === "type" || k === "start" || k === "end") continue;
          visit(n[k], n.type === "VariableDeclarator" && k === "init" && n.id?.type === "Identifier" ? n.id.name : null);
        }
      };
      visit(r.program, null);
    }
  } catch {
    found = null;
  }
  files.set(path, found);
  return found;
}

/** Annotated local declarations by name (a name declared twice with different annotations is dropped). */
function collectLocals(n: any, out: Map<string, TypeName | null>): void {
  if (!n || typeof n !== "object") return;
  if (Array.isArray(n)) { for (const c of n) collectLocals(c, out); return; }
  if (n.type === "FunctionDeclaration" || n.type === "FunctionExpression" || n.type === "ArrowFunctionExpression") return;
  if (n.type === "VariableDeclarator" && n.id?.type === "Identifier") {
    const t = annotationType(n.id.typeAnnotation);
    if (out.has(n.id.name) && out.get(n.id.name) !== t) out.set(n.id.name, null);
    else out.set(n.id.name, t);
  }
  for (const k in n) if (k !== "type" && k !== "start" && k !== "end") collectLocals(n[k], out);
}

/**
 * Give a lowered function the annotations its original TypeScript source declares, when the
 * source names exactly one function of that name and parameter list. Declarations already
 * present (from the source text itself or the `types` option) are kept.
 */
export function applyOriginalAnnotations(u: UFunction, fnName: string, file: string | null): void {
  if (!file) return;
  const fns = functionsOf(file);
  if (!fns) return;
  const names = u.params.map((p) => u.vars[p].name);
  const sameParams = fns.filter((f) => f.params.length === names.length && f.params.every((p, i) => p === names[i]));
  // By name and parameters; a loader may have renamed the function (esbuild: k → k2), so a
  // unique match on the parameters alone will do too.
  let matches = sameParams.filter((f) => f.name === fnName);
  if (!matches.length) matches = sameParams;
  if (matches.length !== 1) return;
  const m = matches[0];
  u.params.forEach((p, i) => { u.vars[p].declared ??= m.paramTypes[i]; });
  u.declaredReturn ??= m.returns;
  for (const v of u.vars) if (v.kind !== "param") v.declared ??= m.locals.get(v.name) ?? null;
}
