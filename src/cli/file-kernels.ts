// Finds the kernels of a .ts/.js file statically (without running it), for `gpuc compile`.
//
// Kernels are the `kernel(fn, options?)` calls of the file; a file with none offers its
// top-level function declarations. Free names resolve, as a `scope` would at run time, against
// the call's `scope: { … }` object and the file's top-level functions and literal constants.

import { readFileSync } from "node:fs";
import { CompileError } from "../errors.js";
import { type Environment, type ScopeBinding, lowerFunction } from "../frontend/lower.js";
import { parseFile } from "../frontend/parse.js";
import type { SourceText } from "../frontend/source.js";
import type { UFunction } from "../frontend/uir.js";
import { globalMethods } from "../compiler/pipeline.js";

export interface FileKernel {
  name: string;
  /** Lowers the kernel (errors are reported when it is compiled). */
  lower(): UFunction;
  /** `types: { a: "f32" }` from the kernel() call's options, if written as literals. */
  types: Record<string, string>;
}

type TopLevel = Map<string, any>; // name → FunctionDeclaration | literal expression

export function readFileKernels(path: string): FileKernel[] {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (e) {
    throw CompileError.single("invalid-argument", `cannot read '${path}': ${(e as NodeJS.ErrnoException).code === "ENOENT" ? "no such file" : (e as Error).message}`);
  }
  const { program, source } = parseFile(path, text);
  const top: TopLevel = new Map();
  for (const stmt of program.body) {
    const s = stmt.type === "ExportNamedDeclaration" || stmt.type === "ExportDefaultDeclaration" ? stmt.declaration : stmt;
    if (!s) continue;
    if (s.type === "FunctionDeclaration" && s.id) top.set(s.id.name, s);
    if (s.type === "VariableDeclaration" && s.kind === "const")
      for (const d of s.declarations) if (d.id.type === "Identifier" && d.init) top.set(d.id.name, d.init);
  }
  const calls: FileKernel[] = [];
  walk(program, (node) => {
    if (node.type !== "CallExpression" || node.callee.type !== "Identifier" || node.callee.name !== "kernel") return;
    const k = kernelFromCall(node, top, source);
    if (k) calls.push(k);
  });
  if (calls.length) return calls;
  // No kernel() calls: every top-level function declaration is a candidate.
  return [...top.entries()].filter(([, n]) => n.type === "FunctionDeclaration").map(([name, fn]) => ({
    name, types: {}, lower: memo(() => lowerFunction(fn, name, source, fileEnvironment(top, new Map(), source))),
  }));
}

function kernelFromCall(call: any, top: TopLevel, source: SourceText): FileKernel | null {
  let fn = unparen(call.arguments[0]);
  if (!fn) return null;
  if (fn.type === "Identifier") fn = top.get(fn.name);
  if (!fn || !["FunctionExpression", "ArrowFunctionExpression", "FunctionDeclaration"].includes(fn.type)) return null;
  const opts = unparen(call.arguments[1]);
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
  return { name, types, lower: memo(() => lowerFunction(fn, name, source, fileEnvironment(top, scope, source))) };
}

function fileEnvironment(top: TopLevel, scope: Map<string, any>, source: SourceText): Environment {
  const lowered = new Map<any, UFunction>();
  const env: Environment = {
    globals: globalMethods,
    lookup(name: string): ScopeBinding | undefined {
      let node = scope.get(name);
      if (node?.type === "Identifier") node = top.get(node.name);
      node ??= top.get(name);
      if (!node) return undefined;
      return bindingOf(node, name);
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
    const v = constantValue(node);
    if (typeof v === "number") return { k: "num", value: v };
    if (typeof v === "boolean") return { k: "bool", value: v };
    return { k: "invalid", what: "not a constant the compiler can read from the file (a number or boolean literal, or a function)" };
  };
  return env;
}

function constantValue(n: any): number | boolean | undefined {
  n = unparen(n);
  if (n.type === "Literal" && (typeof n.value === "number" || typeof n.value === "boolean")) return n.value;
  if (n.type === "UnaryExpression" && n.operator === "-") {
    const v = constantValue(n.argument);
    return typeof v === "number" ? -v : undefined;
  }
  return undefined;
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
