// TypeScript annotations of a function object whose source was transpiled at run time.
//
// Under a TS loader (tsx, ts-node, a bundler with source maps) fn.toString() has lost its type
// annotations. The call site of kernel() still names the original .ts file (stack traces are
// source-mapped), so we parse that file once and read the annotations of the function with the
// same name and parameter names: `function fmix32(h: u32): u32` keeps declaring h as u32.

import { readFileSync } from "node:fs";
import { parseSync } from "./oxc.js";
import { annotationType, isFloatLiteral } from "./lower.js";
import type { TypeName, UExpr, UFunction, UStmt } from "./uir.js";

interface OriginalFunction {
  name: string | null; params: string[]; paramTypes: (TypeName | null)[]; returns: TypeName | null; locals: Map<string, TypeName | null>;
  /** Numeric literals of the body in source order (nested functions excluded), as written. */
  literals: { value: number; raw: string }[];
}

const files = new Map<string, OriginalFunction[] | null>();



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
          const literals: { value: number; raw: string }[] = [];
          collectLiterals(n.body, literals);
          literals.sort((a, b) => (a as any).start - (b as any).start);
          found!.push({
            name: n.id?.name ?? bindingName, params,
            paramTypes: n.params.map((p: any) => annotationType(p.typeAnnotation)),
            returns: annotationType(n.returnType), locals, literals,
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

function collectLiterals(n: any, out: { value: number; raw: string }[]): void {
  if (!n || typeof n !== "object") return;
  if (Array.isArray(n)) { for (const c of n) collectLiterals(c, out); return; }
  if (n.type === "FunctionDeclaration" || n.type === "FunctionExpression" || n.type === "ArrowFunctionExpression") return;
  if (n.type?.startsWith("TS") && n.type !== "TSAsExpression" && n.type !== "TSNonNullExpression" && n.type !== "TSSatisfiesExpression") return;
  if (n.type === "Literal" && typeof n.value === "number") out.push({ value: n.value, raw: n.raw, start: n.start } as never);
  for (const k in n) if (k !== "type" && k !== "start" && k !== "end") collectLiterals(n[k], out);
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
  const sameParams = (f: OriginalFunction): boolean => f.params.length === names.length && f.params.every((p, i) => p === names[i]);
  // A loader may rename the function (esbuild: k → k2) or its parameters (o → o2) to avoid
  // shadowing; try the strictest unique match first.
  const candidates = [
    fns.filter((f) => f.name === fnName && sameParams(f)),
    fns.filter((f) => f.name === fnName && f.params.length === names.length),
    fns.filter(sameParams),
  ];
  const matches = candidates.find((c) => c.length === 1);
  if (!matches) return;
  const m = matches[0];
  u.params.forEach((p, i) => {
    u.vars[p].declared ??= m.paramTypes[i];
    // A loader may have renamed a parameter (o → o2): messages use the name the user wrote.
    u.vars[p].name = m.params[i] || u.vars[p].name;
  });
  u.declaredReturn ??= m.returns;
  for (const v of u.vars) if (v.kind !== "param") v.declared ??= m.locals.get(v.name) ?? null;
  // A loader may reprint literals (1.0 → 1, 1000 → 1e3): take float-ness from the original text
  // when the literals still correspond one to one.
  const lits: Extract<UExpr, { k: "num" }>[] = [];
  walkExprs(u.body, (e) => { if (e.k === "num" && e.literal) lits.push(e); });
  lits.sort((a, b) => a.span.start - b.span.start);
  if (lits.length === m.literals.length && lits.every((l, i) => Object.is(l.value, m.literals[i].value)))
    lits.forEach((l, i) => { l.isFloat = isFloatLiteral(m.literals[i].raw, l.value); });
}

/** Every expression of a statement list (nested functions are separate UFunctions). */
function walkExprs(list: UStmt[], f: (e: UExpr) => void): void {
  const expr = (e: UExpr | null): void => {
    if (!e) return;
    f(e);
    for (const v of Object.values(e)) {
      if (v && typeof v === "object" && "k" in (v as object) && "span" in (v as object)) expr(v as UExpr);
      if (Array.isArray(v)) for (const x of v) if (x && typeof x === "object" && "span" in x) expr(x as UExpr);
    }
  };
  const stmt = (s: UStmt): void => {
    switch (s.k) {
      case "expr": expr(s.e); break;
      case "decl": expr(s.init); break;
      case "if": expr(s.c); s.then.forEach(stmt); s.else.forEach(stmt); break;
      case "loop": s.init.forEach(stmt); expr(s.test); expr(s.update); s.body.forEach(stmt); break;
      case "return": expr(s.e); break;
      case "block": s.body.forEach(stmt); break;
      case "switch": expr(s.selector); for (const c of s.cases) { expr(c.test); c.body.forEach(stmt); } break;
      default: break;
    }
  };
  list.forEach(stmt);
}
