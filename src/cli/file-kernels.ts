// Finds the kernels of a .ts/.js file statically (without running it), for `gpuc compile` and the
// bundler plugin (plugin/: it compiles them at build time and writes each call's id into it).
//
// Kernels are the `kernel(fn, options?)` calls of the file; a file with none offers its
// top-level function declarations. A kernel() call's free names resolve exactly as at run time:
// through its `scope: { … }` object only (a name it does not list is undefined there too), whose
// values are read from the file — top-level functions, and constants the file computes from
// literals (arithmetic, Math, other such constants; typed arrays of literals as tables). A value
// the file cannot give without running it (an import, a call) is said to be one. A file without
// kernel() calls resolves its functions' free names against its top-level declarations.

import { readFileSync } from "node:fs";
import { CompileError, quoteName } from "../errors.js";
import { sha256 } from "../sha256.js";
import { type Environment, type ScopeBinding, lowerFunction } from "../frontend/lower.js";
import { parseFile } from "../frontend/parse-file.js";
import type { SourceText } from "../frontend/source.js";
import type { UFunction, UTable } from "../frontend/uir.js";
import { globalMethods } from "../compiler/pipeline.js";
import { declareParams } from "../compiler/compile.js";
import type { LoweredKernel } from "../compiler/job.js";

export interface FileKernel {
  name: string;
  /** Lowers the kernel (errors are reported when it is compiled). */
  lower(): UFunction;
  /** `types: { a: "f32" }` from the kernel() call's options, if written as literals. */
  types: Record<string, string>;
  /** A kernel() call's: where it is and what else the file says of it (null for a file's plain functions). */
  call: KernelCall | null;
}

/** A kernel() call as the bundler plugin sees it. */
export interface KernelCall {
  /** Where the call starts and ends (offsets), and its start's line and column (1-based). */
  start: number;
  end: number;
  line: number;
  column: number;
  /** The end of the function argument; the options argument's start and end, if it is an object literal. */
  fnEnd: number;
  /**
   * Where the function's body is (its block, or an arrow's expression) when nothing but the call
   * can reach the function: written in the call (a function or arrow expression), or a top-level
   * function of the module that is not exported and whose name the module writes nowhere else.
   * Else null.
   */
  body: { start: number; end: number } | null;
  /**
   * The scope's helpers nothing but kernels reach: top-level functions of the module, not exported,
   * that it names nowhere but in their declarations, kernel() calls' scope objects and the bodies
   * of kernel functions nothing but their call reaches — each with where its body is. (Its body
   * goes only where every call naming it in its scope loses its own.)
   */
  helpers: { name: string; body: { start: number; end: number } }[];
  /** The names its scope object gives as values (`{ f }`, `{ g: f }`: f). */
  scopeValues: string[];
  options: { start: number; end: number } | null;
  /** The call names the kernel itself (`name: "…"`). */
  named: boolean;
  /** The call has a `types` option (even `{}`: the kernel's fingerprint at run time has it). */
  typed: boolean;
  /** The options written as literals: boundsCheck, debugLevel, fastMath, relocation. */
  literals: Record<string, unknown>;
  /** Why its code cannot be known from the file alone (options not written as literals; `id` given), or null. */
  dynamic: string | null;
  /**
   * Its identity (KernelOptions.id): a hash of the syntax trees of the kernel and of the functions
   * its scope names (positions, comments, parentheses and the kernel function's own name left
   * out), with which scope names hold other values. Scope values are not in it: entries record them.
   */
  id: string;
  /** Scope names whose values the file does not give (imports, calls): a kernel that reads one is compiled at run time. */
  unreadable: Set<string>;
  /** The scope names the lowered kernel read, with the values the file gives them (a function's stand-in for a function). */
  deps: Map<string, unknown>;
}

/** Options whose literal values the plugin compiles with; any other but name, scope and types makes a kernel dynamic. */
const LITERAL_OPTIONS = ["boundsCheck", "debugLevel", "fastMath", "relocation"];

/**
 * Whether the bundler plugin compiles a kernel() call at build time (and writes its id into the
 * call): its lowered kernel with every parameter's type declared; or why it leaves the kernel to
 * run time. `gpuc precompile` asks the same (cli/build-ids.ts): a kernel the plugin gives no id
 * has none in a bundled app either. Lowering errors are thrown (a CompileError in the file).
 */
export function buildPlan(k: FileKernel, call: KernelCall): { lowered: LoweredKernel } | { why: string } {
  if (call.dynamic) return { why: call.dynamic };
  const ufn = k.lower();
  // (Lowering records the scope names it read; a value the file does not give is an error only when compiled.)
  if (call.unreadable.size) return { why: `its scope's ${[...call.unreadable].map((n) => quoteName(n)).join(", ")} ${call.unreadable.size === 1 ? "is" : "are"} not a value the file gives without running it` };
  const lowered = declareParams(ufn, k.name, Object.keys(k.types).length ? k.types : undefined);
  const untyped = lowered.paramNames.filter((_, i) => !lowered.declared[i]);
  if (untyped.length) return { why: `${untyped.map((n) => `'${n}'`).join(", ")} ${untyped.length === 1 ? "has" : "have"} no declared type (annotate it, a: f32, or name it in types: { ${untyped[0]}: "f32" })` };
  return { lowered };
}

type TopLevel = Map<string, any>; // name → FunctionDeclaration | literal expression

export function readFileKernels(path: string): FileKernel[] {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (e) {
    throw CompileError.single("invalid-argument", `cannot read '${path}': ${(e as NodeJS.ErrnoException).code === "ENOENT" ? "no such file" : (e as Error).message}`);
  }
  return fileKernels(path, text);
}

/** The kernels of a file's text (`path` names it in locations and says its language). */
export function fileKernels(path: string, text: string): FileKernel[] {
  const { program, source } = parseFile(path, text);
  const top: TopLevel = new Map();
  const exported = new Set<string>();
  for (const stmt of program.body) {
    const s = stmt.type === "ExportNamedDeclaration" || stmt.type === "ExportDefaultDeclaration" ? stmt.declaration : stmt;
    if (!s) continue;
    const names: string[] = [];
    if (s.type === "FunctionDeclaration" && s.id) { top.set(s.id.name, s); names.push(s.id.name); }
    if (s.type === "VariableDeclaration" && s.kind === "const")
      for (const d of s.declarations) if (d.id.type === "Identifier" && d.init) { top.set(d.id.name, d.init); names.push(d.id.name); }
    if (s !== stmt) for (const n of names) exported.add(n);
  }
  // How often the module writes each name (declarations, references, exports, types alike): a
  // top-level function written twice — where it is declared and where kernel() is given it — is
  // reached by nothing else (KernelCall.body).
  const written = new Map<string, number>();
  walk(program, (node) => { if (node.type === "Identifier") written.set(node.name, (written.get(node.name) ?? 0) + 1); });
  const onlyTheCall = (name: string) => !exported.has(name) && written.get(name) === 2;
  const calls: FileKernel[] = [];
  /** What of each call's tree only the kernel uses: its scope object, and its function's body where nothing else reaches it. */
  const kernelOnly: any[] = [];
  walk(program, (node) => {
    if (node.type !== "CallExpression" || node.callee.type !== "Identifier" || node.callee.name !== "kernel") return;
    const found = kernelFromCall(node, top, source, onlyTheCall);
    if (!found) return;
    calls.push(found.kernel);
    kernelOnly.push(found.scopeObj, found.body);
  });
  // The scope helpers nothing but kernels reach (KernelCall.helpers): top-level functions the
  // module names only in their declarations and in what only its recognized kernels use (a
  // shorthand `{ f }` writes f twice). A kernel() call this file does not make out counts as any
  // other use.
  const inKernels = new Map<string, number>();
  walk(kernelOnly, (n) => { if (n.type === "Identifier") inKernels.set(n.name, (inKernels.get(n.name) ?? 0) + 1); });
  for (const k of calls) {
    for (const v of k.call!.scopeValues) {
      const f = top.get(v);
      if (f && ["FunctionDeclaration", "FunctionExpression", "ArrowFunctionExpression"].includes(f.type) && !exported.has(v) && written.get(v) === 1 + (inKernels.get(v) ?? 0))
        k.call!.helpers.push({ name: v, body: { start: f.body.start, end: f.body.end } });
    }
  }
  if (calls.length) return calls;
  // No kernel() calls: every top-level function declaration is a candidate.
  return [...top.entries()].filter(([, n]) => n.type === "FunctionDeclaration").map(([name, fn]) => ({
    name, types: {}, call: null, lower: memo(() => lowerFunction(fn, name, source, fileEnvironment(top, new Map(), source))),
  }));
}

/** A kernel() call's kernel, with what of its tree only the kernel uses (its scope object; its function's body where nothing else reaches it); null where the call is not one the file can make out. */
function kernelFromCall(call0: any, top: TopLevel, source: SourceText, onlyTheCall: (name: string) => boolean): { kernel: FileKernel; scopeObj: any; body: any } | null {
  let fn = unparen(call0.arguments[0]);
  if (!fn) return null;
  // (Nothing but the call reaches the function: see KernelCall.body.)
  const alone = fn.type === "FunctionExpression" || fn.type === "ArrowFunctionExpression" || (fn.type === "Identifier" && onlyTheCall(fn.name));
  if (fn.type === "Identifier") fn = top.get(fn.name);
  if (!fn || !["FunctionExpression", "ArrowFunctionExpression", "FunctionDeclaration"].includes(fn.type)) return null;
  const opts = unparen(call0.arguments[1]);
  const props = new Map<string, any>();
  if (opts?.type === "ObjectExpression")
    for (const p of opts.properties) if (p.type === "Property" && !p.computed && p.key.type === "Identifier") props.set(p.key.name, unparen(p.value));
  const nameProp = props.get("name");
  const name = nameProp?.type === "Literal" && typeof nameProp.value === "string" ? nameProp.value : fn.id?.name ?? "kernel";
  const scope = new Map<string, any>();
  const scopeObj = props.get("scope");
  if (scopeObj?.type === "ObjectExpression")
    for (const p of scopeObj.properties) if (p.type === "Property" && !p.computed && p.key.type === "Identifier") scope.set(p.key.name, unparen(p.value));
  const types: Record<string, string> = {};
  const typesObj = props.get("types");
  if (typesObj?.type === "ObjectExpression")
    for (const p of typesObj.properties)
      if (p.type === "Property" && p.key.type === "Identifier" && p.value.type === "Literal" && typeof p.value.value === "string") types[p.key.name] = p.value.value;
  const call = kernelCall(call0, fn, opts, props, scope, top, source, alone);
  const kernel: FileKernel = { name, types, call, lower: memo(() => lowerFunction(fn, name, source, fileEnvironment(top, scope, source, true, call))) };
  return { kernel, scopeObj: scopeObj?.type === "ObjectExpression" ? scopeObj : null, body: alone ? fn.body : null };
}

/** What the plugin needs of a kernel() call (KernelCall), read from its syntax tree. */
function kernelCall(node: any, fn: any, opts: any, props: Map<string, any>, scope: Map<string, any>, top: TopLevel, source: SourceText, alone: boolean): KernelCall {
  const literals: Record<string, unknown> = {};
  let dynamic: string | null = null;
  if (opts && opts.type !== "ObjectExpression") dynamic = "its options are not an object literal";
  else if (opts) {
    for (const p of opts.properties) {
      const key = p.type === "Property" && !p.computed && p.key.type === "Identifier" ? p.key.name : null;
      const v = key ? props.get(key) : null;
      if (key === "name" && v?.type === "Literal" && typeof v.value === "string") continue;
      if (key === "scope" && v?.type === "ObjectExpression" && v.properties.every((q: any) => q.type === "Property" && !q.computed && q.key.type === "Identifier")) continue;
      if (key === "types" && v?.type === "ObjectExpression" && v.properties.every((q: any) => q.type === "Property" && q.value.type === "Literal" && typeof q.value.value === "string")) continue;
      if (key && LITERAL_OPTIONS.includes(key) && v?.type === "Literal") { literals[key] = v.value; continue; }
      dynamic ??= key === "id" ? "it has an id already" : `its option ${key ? `'${key}'` : sourceOf(source, p)} is not one the build can read (name, scope, types as literals; ${LITERAL_OPTIONS.join(", ")} as literal values)`;
    }
  }
  const resolved = (v: any) => (v?.type === "Identifier" ? top.get(v.name) : v);
  const isFunction = (v: any) => ["FunctionDeclaration", "FunctionExpression", "ArrowFunctionExpression"].includes(v?.type);
  const scopeTrees = [...scope].sort(([a], [b]) => (a < b ? -1 : 1)).map(([name, v]) => [name, isFunction(resolved(v)) ? canonicalTree(resolved(v)) : "value"]);
  const id = sha256(JSON.stringify([canonicalTree({ ...fn, id: null }), scopeTrees])).slice(0, 32);
  const at = source.locate(node.start);
  return {
    start: node.start, end: node.end, line: at.line, column: at.column, fnEnd: node.arguments[0].end, body: alone ? { start: fn.body.start, end: fn.body.end } : null, helpers: [],
    scopeValues: [...scope.values()].flatMap((v) => (v?.type === "Identifier" ? [v.name] : [])),
    options: opts?.type === "ObjectExpression" ? { start: opts.start, end: opts.end } : null,
    named: props.get("name")?.type === "Literal", typed: props.has("types"), literals, dynamic, id, unreadable: new Set(), deps: new Map(),
  };
}

/** A syntax tree as canonical text: no positions, no parentheses (comments and whitespace are not in it). */
function canonicalTree(n: any): string {
  return JSON.stringify(n, function (key, v) {
    if (key === "start" || key === "end" || key === "range" || key === "loc") return undefined;
    return v?.type === "ParenthesizedExpression" ? v.expression : v;
  });
}

function sourceOf(source: SourceText, n: any): string {
  return source.text.slice(n.start, n.end);
}

/**
 * @param scopeOnly a kernel() call's kernel: names resolve through its scope object only, as at run time
 * @param call the call's record: the scope names read and their values go into its deps, those the file cannot give into unreadable
 */
function fileEnvironment(top: TopLevel, scope: Map<string, any>, source: SourceText, scopeOnly = false, call: KernelCall | null = null): Environment {
  const lowered = new Map<any, UFunction>();
  const tables = new Map<any, UTable>();
  const env: Environment = {
    globals: globalMethods,
    lookup(name: string): ScopeBinding | undefined {
      let node = scope.get(name);
      if (node?.type === "Identifier") {
        const named = top.get(node.name);
        if (!named) { call?.unreadable.add(name); return { k: "invalid", what: `'${node.name}', which is not a function or constant declared in this file (an import, or a value gpuc compile cannot read without running the file)` }; }
        node = named;
      }
      if (!node && !scopeOnly) node = top.get(name);
      if (!node) return undefined;
      const b = bindingOf(node, name);
      if (call && scope.has(name)) {
        if (b.k === "invalid") call.unreadable.add(name);
        else call.deps.set(name, b.k === "function" ? functionStandIn : b.k === "table" ? b.table.value : (b as { value: number | boolean }).value);
      }
      return b;
    },
  };
  const bindingOf = (node: any, name: string): ScopeBinding => {
    if (["FunctionDeclaration", "FunctionExpression", "ArrowFunctionExpression"].includes(node.type)) {
      return {
        k: "function",
        get: () => {
          let u = lowered.get(node);
          if (!u) { u = lowerFunction(node, node.id?.name ?? name, source, env); lowered.set(node, u); }
          return u;
        },
      };
    }
    const v = constantValue(node, top, new Set());
    if (typeof v === "number") return { k: "num", value: v };
    if (typeof v === "boolean") return { k: "bool", value: v };
    if (v instanceof Float32Array || v instanceof Float64Array || v instanceof Int32Array || v instanceof Uint32Array) {
      let t = tables.get(node);
      if (!t) { t = { name, value: v }; tables.set(node, t); }
      return { k: "table", table: t };
    }
    return { k: "invalid", what: "not a value gpuc compile can read from the file without running it (a function, or a constant computed from literals, Math and other such constants)" };
  };
  return env;
}

/** A scope function's value in a call's deps: its source is in the call's id (IN_ID, cache/fingerprint.ts), so any function says it. */
function functionStandIn(): void {}

const TABLES: Record<string, new (values: number[]) => Float32Array | Float64Array | Int32Array | Uint32Array> = { Float32Array, Float64Array, Int32Array, Uint32Array };

/**
 * A constant the file computes from literals: numbers and booleans, arithmetic, comparisons and
 * bit operations on them, Math's constants and functions, other top-level constants (`seen`
 * guards cycles), and typed arrays of them (`new Float32Array([…])`). JavaScript itself computes
 * each step, so the value is the one the module would have.
 */
function constantValue(n: any, top: TopLevel, seen: Set<string>): number | boolean | Float32Array | Float64Array | Int32Array | Uint32Array | undefined {
  n = unparen(n);
  const num = (x: any): number | boolean | undefined => { const v = constantValue(x, top, seen); return typeof v === "number" || typeof v === "boolean" ? v : undefined; };
  switch (n?.type) {
    case "Literal": return typeof n.value === "number" || typeof n.value === "boolean" ? n.value : undefined;
    case "Identifier": {
      if (seen.has(n.name)) return undefined;
      const d = top.get(n.name);
      return d && d.type !== "FunctionDeclaration" ? constantValue(d, top, new Set([...seen, n.name])) : n.name === "Infinity" ? Infinity : n.name === "NaN" ? NaN : undefined;
    }
    case "UnaryExpression": {
      const v = num(n.argument);
      if (v === undefined) return undefined;
      const ops: Record<string, (x: any) => number | boolean> = { "-": (x) => -x, "+": (x) => +x, "!": (x) => !x, "~": (x) => ~x };
      return ops[n.operator]?.(v);
    }
    case "BinaryExpression": {
      const a = num(n.left), b = num(n.right);
      if (a === undefined || b === undefined) return undefined;
      const ops: Record<string, (x: any, y: any) => number | boolean> = {
        "+": (x, y) => x + y, "-": (x, y) => x - y, "*": (x, y) => x * y, "/": (x, y) => x / y, "%": (x, y) => x % y, "**": (x, y) => x ** y,
        "&": (x, y) => x & y, "|": (x, y) => x | y, "^": (x, y) => x ^ y, "<<": (x, y) => x << y, ">>": (x, y) => x >> y, ">>>": (x, y) => x >>> y,
        "<": (x, y) => x < y, "<=": (x, y) => x <= y, ">": (x, y) => x > y, ">=": (x, y) => x >= y, "===": (x, y) => x === y, "!==": (x, y) => x !== y,
      };
      return ops[n.operator]?.(a, b);
    }
    case "MemberExpression": {
      if (n.computed || n.object?.type !== "Identifier" || n.object.name !== "Math" || top.has("Math")) return undefined;
      const v = (Math as unknown as Record<string, unknown>)[n.property.name];
      return typeof v === "number" ? v : undefined;
    }
    case "CallExpression": {
      const c = n.callee;
      if (c?.type !== "MemberExpression" || c.computed || c.object?.type !== "Identifier" || c.object.name !== "Math" || top.has("Math")) return undefined;
      const f = (Math as unknown as Record<string, unknown>)[c.property.name];
      const args = n.arguments.map(num);
      return typeof f === "function" && args.every((x: unknown) => typeof x === "number") ? (f as (...a: number[]) => number)(...args) : undefined;
    }
    case "NewExpression": {
      const ctor = n.callee?.type === "Identifier" && !top.has(n.callee.name) ? TABLES[n.callee.name] : undefined;
      const list = unparen(n.arguments[0]);
      if (!ctor || n.arguments.length !== 1 || list?.type !== "ArrayExpression") return undefined;
      const values = list.elements.map((e: any) => (e && e.type !== "SpreadElement" ? num(e) : undefined));
      return values.every((x: unknown) => typeof x === "number") ? new ctor(values) : undefined;
    }
    default: return undefined;
  }
}

function unparen(n: any): any {
  while (n && (n.type === "ParenthesizedExpression" || n.type === "TSAsExpression" || n.type === "TSSatisfiesExpression")) n = n.expression;
  return n;
}

function walk(n: any, f: (n: any) => void): void {
  if (!n || typeof n !== "object") return;
  if (Array.isArray(n)) { for (const c of n) walk(c, f); return; }
  if (typeof n.type === "string") f(n);
  for (const k in n) if (k !== "type" && k !== "start" && k !== "end") walk(n[k], f);
}

function memo<T>(f: () => T): () => T {
  let v: T | undefined;
  return () => (v ??= f());
}
