// TypeScript annotations of a function object whose source was transpiled (tsx, tsc, a bundler).
//
// fn.toString() has lost the annotations, and a transpiler may have renamed the function and its
// parameters (esbuild: saxpy → saxpy2, x → x2, where the module has another saxpy or x). So the
// declaration is found by position, never by name: V8 says where the function is in the code that
// runs (origin.ts), its source map says where that is in the .ts (source-map.ts), and the function
// declared there is the one; its parameters match by index, and messages use the names the user
// wrote. Where a function came from a .ts file and its declaration cannot be found, gpuc warns
// once (GPUC_ANNOTATIONS) with the reason, instead of typing its parameters by their arguments
// without a word.

import { readFileSync } from "node:fs";
import { tsParser } from "./ts-parser.js";
import { annotationType, isFloatLiteral } from "./lower.js";
import { functionOrigin } from "./origin.js";
import { isTypeScriptFile, sourceMapOf } from "./source-map.js";
import type { TypeName, UExpr, UFunction, UStmt } from "./uir.js";

interface OriginalFunction {
  name: string | null; params: string[]; paramTypes: (TypeName | null)[]; returns: TypeName | null; locals: Map<string, TypeName | null>;
  /** Numeric literals of the body in source order (nested functions excluded), as written. */
  literals: { value: number; raw: string }[];
  /** Its span in the file, and where its head (name and parameters) ends: the body's start. */
  start: number; headEnd: number;
}

interface OriginalFile { text: string; functions: OriginalFunction[] }

const files = new Map<string, OriginalFile | string>();

/** A .ts file's functions (cached), or why it has none to offer. */
function functionsOf(path: string): OriginalFile | string {
  const known = files.get(path);
  if (known !== undefined) return known;
  let found: OriginalFile | string;
  const parseSync = tsParser();
  if (!parseSync) return `no TypeScript parser was loaded to read ${path}`;
  try {
    const text = readFileSync(path, "utf8");
    const r = parseSync(path, text, { lang: path.endsWith("x") ? "tsx" : "ts", sourceType: "module" });
    if (r.errors.length) found = `${path} does not parse (${r.errors[0].message})`;
    else {
      const functions: OriginalFunction[] = [];
      const visit = (n: any, bindingName: string | null): void => {
        if (!n || typeof n !== "object") return;
        if (Array.isArray(n)) { for (const c of n) visit(c, null); return; }
        if (n.type === "FunctionDeclaration" || n.type === "FunctionExpression" || n.type === "ArrowFunctionExpression") {
          // (A TypeScript `this` parameter is not one at run time.)
          const declared = n.params.filter((p: any) => p.type !== "TSThisParameter" && !(p.type === "Identifier" && p.name === "this"));
          const params = declared.map((p: any) => (p.type === "Identifier" ? p.name : ""));
          const locals = new Map<string, TypeName | null>();
          collectLocals(n.body, locals);
          const literals: { value: number; raw: string }[] = [];
          collectLiterals(n.body, literals);
          literals.sort((a, b) => (a as any).start - (b as any).start);
          functions.push({
            name: n.id?.name ?? bindingName, params,
            paramTypes: declared.map((p: any) => annotationType(p.typeAnnotation)),
            returns: annotationType(n.returnType), locals, literals,
            start: n.start, headEnd: n.body?.start ?? n.end,
          });
        }
        for (const k in n) {
          if (k === "type" || k === "start" || k === "end") continue;
          visit(n[k], n.type === "VariableDeclarator" && k === "init" && n.id?.type === "Identifier" ? n.id.name : null);
        }
      };
      visit(r.program, null);
      found = { text, functions };
    }
  } catch (e) {
    found = `${path} cannot be read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`;
  }
  files.set(path, found);
  return found;
}

/**
 * The function declared at a position of a file: the innermost one whose head (from its start to
 * its body) holds it — a source map points at the name or the parameter list — else the first one
 * that starts after it on the same line (a map may point at `const` of `const k = (…) => …`).
 */
function functionAt(file: OriginalFile, line: number, column: number): OriginalFunction | null {
  let lineStart = 0;
  for (let l = 0; l < line && lineStart >= 0; l++) lineStart = file.text.indexOf("\n", lineStart) + 1 || -1;
  if (lineStart < 0) return null;
  const offset = lineStart + column;
  let best: OriginalFunction | null = null;
  for (const f of file.functions) if (f.start <= offset && offset < f.headEnd && (!best || f.start > best.start)) best = f;
  if (best) return best;
  const lineEnd = file.text.indexOf("\n", offset) < 0 ? file.text.length : file.text.indexOf("\n", offset);
  for (const f of file.functions) if (f.start >= offset && f.start < lineEnd && (!best || f.start < best.start)) best = f;
  return best;
}

/** Where a function's annotations are: its declaration in a .ts file; or why not (it came from one); or null (it did not). */
type Lookup = { decl: OriginalFunction } | { reason: string } | null;

/**
 * Whether the program may run transpiled code, so that finding a function's origin (the inspector:
 * a few milliseconds) is worth it: source maps on (tsx, --enable-source-maps), or kernel() called
 * from a .ts file or from generated code with a source map.
 */
function mayBeTranspiled(callerFile: string | null): boolean {
  if (typeof process !== "undefined" && (process as { sourceMapsEnabled?: boolean }).sourceMapsEnabled) return true;
  return callerFile !== null && (isTypeScriptFile(callerFile) || sourceMapOf(callerFile) !== null);
}

/** Where a function was declared in a .ts file (0-based line and column); or why it cannot be found (it came from one); or null (it did not). */
type Position = { file: string; line: number; column: number } | { reason: string } | null;
const positions = new WeakMap<Function, { callerFile: string | null; p: Position }>();

function originalPosition(fn: Function, callerFile: string | null): Position {
  const known = positions.get(fn);
  if (known && known.callerFile === callerFile) return known.p;
  let p: Position = null;
  const o = mayBeTranspiled(callerFile) ? functionOrigin(fn) : null;
  // No location: not transpiled, code made by eval or new Function (its text is all there is), or no inspector.
  if (o) {
    const map = sourceMapOf(o.path);
    const at = map?.original(o.line, o.column);
    if (!map) p = isTypeScriptFile(o.path) ? { reason: `${o.path} was transpiled without a source map` } : null;
    else if (!at) p = map.sources.some(isTypeScriptFile) ? { reason: `the source map of ${o.path} does not map the function's position (${o.line + 1}:${o.column + 1})` } : null;
    else p = isTypeScriptFile(at.file) ? at : null;
  }
  positions.set(fn, { callerFile, p });
  return p;
}

/** Whether reading a function's annotations needs the TypeScript parser (ts-parser.ts), which is not loaded. */
export function annotationsNeedParser(fn: Function, callerFile: string | null): boolean {
  const at = originalPosition(fn, callerFile);
  return at !== null && "file" in at && !files.has(at.file) && tsParser() === null;
}

function lookUp(fn: Function, paramCount: number, callerFile: string | null): Lookup {
  const at = originalPosition(fn, callerFile);
  if (at === null || "reason" in at) return at;
  const file = functionsOf(at.file);
  if (typeof file === "string") return { reason: file };
  const where = `${at.file}:${at.line + 1}:${at.column + 1}`;
  const decl = functionAt(file, at.line, at.column);
  if (!decl) return { reason: `its source map points at ${where}, where no function is declared` };
  if (decl.params.length !== paramCount)
    return { reason: `the function declared at ${where} has ${decl.params.length} parameter${decl.params.length === 1 ? "" : "s"}, the one that runs ${paramCount}` };
  return { decl };
}

/** The functions warned about (once each). */
const warned = new WeakSet<Function>();

function warn(fn: Function, name: string, reason: string): void {
  if (warned.has(fn) || typeof process === "undefined" || typeof process.emitWarning !== "function") return;
  warned.add(fn);
  process.emitWarning(
    `gpuc: the TypeScript annotations of '${name}' were not found (${reason}); its parameters are typed by their arguments. ` +
    `Declare them with kernel(fn, { types: { … } }), or see README, "Using gpuc from TypeScript".`,
    { code: "GPUC_ANNOTATIONS" });
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
 * Give a lowered function the annotations its original TypeScript declaration has (found by
 * position: see the top of this file). Declarations already present (from the source text itself
 * or the `types` option) are kept. `callerFile` is the file kernel() was called from.
 */
export function applyOriginalAnnotations(u: UFunction, fn: Function, callerFile: string | null): void {
  const found = lookUp(fn, u.params.length, callerFile);
  if (!found) return;
  if ("reason" in found) { warn(fn, u.name, found.reason); return; }
  const m = found.decl;
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
