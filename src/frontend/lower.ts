// Lowers an ESTree function (from oxc-parser) to the untyped IR: resolves names, keeps spans,
// and rejects everything outside the kernel language with a CompileError naming the construct.

import type { Diagnostic, Frame } from "../errors.js";
import { Diagnostics } from "./diagnostics.js";
import type { SourceText, Span } from "./source.js";
import { walkUBody, type ElemName, type ScalarName, type TypeName, type UCallee, type UExpr, type UFunction, type UStmt, type UTable, type UVar } from "./uir.js";

/** The methods of Arrays and typed arrays (kernels have subarray alone: lower.ts call). */
/** The arrays' methods kernels have, written out as loops (Lowerer.arrayMethod): their least and most arguments. */
const ARRAY_LOOPS: Readonly<Record<string, readonly [number, number]>> = {
  forEach: [1, 1], reduce: [1, 2], reduceRight: [1, 2], some: [1, 1], every: [1, 1], findIndex: [1, 1], findLastIndex: [1, 1],
  indexOf: [1, 1], lastIndexOf: [1, 1], includes: [1, 1], fill: [1, 3],
};

export const ARRAY_METHODS: ReadonlySet<string> = new Set([...Object.getOwnPropertyNames(Array.prototype), ...Object.getOwnPropertyNames(Object.getPrototypeOf(Int8Array.prototype))]
  .filter((n) => n !== "constructor" && n !== "length" && n !== "subarray"));

/** CUDA's spellings of what gpuc's intrinsics are, for the hint of an undefined name. */
const CUDA_NAMES: Record<string, string> = {
  __syncthreads: "syncthreads()", __threadfence: "threadfence()", __threadfence_block: "threadfenceBlock()",
  __syncwarp: "subgroupBarrier()", __shfl_sync: "subgroupShuffle(v, lane)", __shfl_down_sync: "subgroupShuffleDown(v, delta)",
  __shfl_up_sync: "subgroupShuffleUp(v, delta)", __shfl_xor_sync: "subgroupShuffleXor(v, mask)", __ballot_sync: "subgroupBallot(p)",
  __any_sync: "subgroupAny(p)", __all_sync: "subgroupAll(p)", warpSize: "subgroupSize()", __shared__: "shared(Float32Array, n) (a block's shared array)",
};

/** What the front end may ask of the method table (it knows nothing else of inference or targets). */
export interface GlobalNames {
  /** A callable intrinsic such as "Math.sqrt" or "syncthreads". */
  isFunction(path: string): boolean;
  /** A value such as "Math.PI" (a number) or "threadIdx.x" (a builtin). */
  value(path: string): { k: "num"; value: number; isFloat: boolean } | { k: "builtin"; name: string } | undefined;
  /** A namespace object ("Math", "threadIdx"): usable only through its members. */
  isNamespace(name: string): boolean;
}

/** How a free name in a helper or kernel resolves outside the function itself. */
export interface Environment {
  globals: GlobalNames;
  /** The kernel's `scope` option (or a file's top-level bindings for the CLI). */
  lookup(name: string): ScopeBinding | undefined;
}

export type ScopeBinding =
  | { k: "num"; value: number }
  /** A device function's host stub: the name of an intrinsic (overlay). */
  | { k: "intrinsic"; name: string }
  | { k: "generated"; gen: Function; name: string }
  | { k: "bool"; value: boolean }
  | { k: "table"; table: UTable }
  /** A helper; `captures`, for a function declared in a kernel or helper: the enclosing locals it reads (null while it is lowered). */
  | { k: "function"; get: () => UFunction; captures?: () => string[] | null }
  | { k: "invalid"; what: string };

// esbuild (tsx, bundlers with keepNames) inserts `__name(fn, "fn")` calls into function bodies.
const ESBUILD_KEEP_NAMES = "__name";

let nextFunctionId = 1;

interface FunctionNode {
  type: string;
  id?: { name: string } | null;
  params: any[];
  body: any;
  async?: boolean;
  generator?: boolean;
  expression?: boolean;
  returnType?: any;
  start: number;
  end: number;
}

/**
 * A block-scope frame: names → local slot or nested function. A nested function's `captures` are
 * the names of the enclosing function's locals it reads (null while it is being lowered).
 */
type Binding = { k: "var"; v: number } | { k: "function"; get: () => UFunction; captures?: () => string[] | null };

export function lowerFunction(node: FunctionNode, name: string, source: SourceText, env: Environment, outerLocals: Set<string> = new Set()): UFunction {
  return new Lowerer(source, env, outerLocals, name).function(node, name);
}

class Lowerer {
  private vars: UVar[] = [];
  /** Locals of an enclosing function this (nested) function reads: name → the parameter that brings it. */
  private captured = new Map<string, number>();
  /** The captured locals this function assigns (itself, or through a local function it calls). */
  private writtenCaptures = new Set<string>();
  private scopes: Map<string, Binding>[] = [];
  private diags = new Diagnostics();
  private loopDepth = 0;
  private switchDepth = 0;
  /** What is an error only where this function is a kernel (a parameter's default value). */
  private kernelOnly: { message: string; node: any }[] = [];
  /**
   * The loops and switches being lowered, innermost last: their labels, the flags of labeled jumps
   * to them, and the flags set inside them for targets further out (see labeledJump).
   */
  private breakables: { kind: "loop" | "switch"; labels: string[]; breaks?: number; continues?: number; exits: Map<number, { target: number; continues: boolean }> }[] = [];
  /** The labels of the statement being lowered (taken by the loop or switch they name). */
  private labels: string[] = [];

  constructor(private source: SourceText, private env: Environment, private outerLocals: Set<string>, private fnName: string) {}

  function(node: FunctionNode, name: string): UFunction & { diagnostics: Diagnostic[] } {
    if (node.async) this.error("unsupported-syntax", "async functions are not supported in kernels", node);
    if (node.generator) this.error("unsupported-syntax", "generator functions are not supported in kernels", node);
    this.scopes.push(new Map());
    const params: number[] = [];
    // Destructured parameters (`function f({ x, y })`): a parameter of its own, bound at the top of the body.
    const prologue: UStmt[] = [];
    let rest = false;
    for (const p of node.params) {
      const param = p.type === "TSParameterProperty" ? p.parameter : p;
      if (param.type === "ObjectPattern" || param.type === "ArrayPattern") {
        const v = this.declare(`(parameter ${params.length + 1})`, "param", param, null);
        params.push(v);
        this.declarePattern(param, { k: "var", v, span: spanOf(param) }, "const", prologue);
        continue;
      }
      // `b = 2` (a helper's default): the parameter, then `let b = b === undefined ? 2 : b` at the
      // top of the body — JavaScript's rule (the default where the argument is undefined or
      // missing, evaluated then, seeing the parameters before it). A call that passes fewer
      // arguments passes undefined for the rest (infer/calls.ts), so each arity is its own
      // specialization, and the test folds. A kernel's parameters take no defaults (kernelOnly).
      if (param.type === "AssignmentPattern" && param.left.type === "Identifier") {
        const name = param.left.name;
        const v = this.declare(name, "param", param.left, annotationType(param.left.typeAnnotation));
        params.push(v);
        const arg = (): UExpr => ({ k: "var", v, span: spanOf(param.left) });
        const fallback = this.expr(param.right);
        const init: UExpr = { k: "cond", c: { k: "binary", op: "===", a: arg(), b: { k: "null", undef: true, span: spanOf(param) }, span: spanOf(param) }, a: fallback, b: arg(), span: spanOf(param) };
        // (A const unless the body assigns it: an array is bound with const.)
        const kind = assigns(node.body, name) ? "let" : "const";
        prologue.push({ k: "decl", v: this.declare(name, kind, param.left, annotationType(param.left.typeAnnotation)), init, span: spanOf(param) });
        this.kernelOnly.push({ message: "a default value is not supported in a kernel's parameters; use plain names", node: param });
        continue;
      }
      // `...rest` (last): a tuple of the remaining arguments, each call's own length (infer/calls.ts).
      if (param.type === "RestElement" && param.argument.type === "Identifier" && p === node.params[node.params.length - 1]) {
        params.push(this.declare(param.argument.name, "param", param.argument, null));
        rest = true;
        this.kernelOnly.push({ message: "a rest parameter is not supported in a kernel's parameters; use plain names", node: param });
        continue;
      }
      if (param.type !== "Identifier") {
        this.error("unsupported-syntax", `${describe(param)} is not supported in a kernel's parameters; use plain names`, param);
        // Still a parameter, so that the kernel's arity is what the user wrote and this error,
        // not an argument count, is what a compile reports.
        const named = param.type === "RestElement" ? param.argument : param.type === "AssignmentPattern" ? param.left : null;
        params.push(this.declare(named?.type === "Identifier" ? named.name : `(parameter ${params.length + 1})`, "param", param, null));
        continue;
      }
      params.push(this.declare(param.name, "param", param, annotationType(param.typeAnnotation)));
    }
    let body: UStmt[];
    if (node.body.type === "BlockStatement") body = this.block(node.body.body);
    else body = [{ k: "return", e: this.expr(node.body), implicit: true, span: spanOf(node.body) }];
    if (prologue.length) body = [...prologue, ...body];
    this.scopes.pop();
    // Captured locals of the enclosing function: parameters after the declared ones (calls pass them).
    params.push(...this.captured.values());
    return {
      id: nextFunctionId++, name, source: this.source, span: spanOf(node), params, vars: this.vars, body,
      declaredReturn: annotationType(node.returnType), diagnostics: this.diags.list,
      ...(this.kernelOnly.length ? { kernelDiagnostics: this.kernelOnly.map((k): Diagnostic => ({
        kind: "unsupported-syntax", message: k.message, location: this.source.locate(k.node.start), frames: [{ function: this.fnName, location: this.source.locate(k.node.start) }] })) } : {}),
      ...(this.captured.size ? { captures: [...this.captured.keys()] } : {}),
      ...(rest ? { rest: true as const } : {}),
      ...(this.writtenCaptures.size ? { writtenCaptures: [...this.captured.keys()].filter((n) => this.writtenCaptures.has(n)) } : {}),
    };
  }

  // ---- names -------------------------------------------------------------------------------

  private declare(name: string, kind: UVar["kind"], node: any, declared: TypeName | null): number {
    const v = this.vars.length;
    this.vars.push({ name, kind, span: spanOf(node), declared });
    const scope = kind === "var" ? this.scopes[0] : this.scopes[this.scopes.length - 1];
    scope.set(name, { k: "var", v });
    return v;
  }

  private lookupLocal(name: string): Binding | undefined {
    for (let i = this.scopes.length - 1; i >= 0; i--) {
      const b = this.scopes[i].get(name);
      if (b) return b;
    }
    return undefined;
  }

  /** Hoist `var` declarations and nested function declarations of a function-level block. */
  private hoist(stmts: any[]): void {
    const scope = this.scopes[this.scopes.length - 1];
    for (const s of stmts) {
      if (s.type === "FunctionDeclaration" && s.id) scope.set(s.id.name, this.nestedFunction(s, s.id.name));
    }
  }

  /**
   * A function declared in this one (a declaration, or `const f = (…) => …`): a helper of its own,
   * lowered on its first call. It sees its sibling functions and the kernel's scope; a local of
   * an enclosing function it reads is captured: an extra parameter of its own, which each call
   * passes (the local's value at the call, which is what it reads during the call).
   */
  private nestedFunction(node: any, name: string): Binding {
    // The enclosing scopes as they are now; they fill up as the enclosing function is lowered,
    // and the helper itself is lowered later, on its first call.
    const chain = this.scopes.slice();
    const find = (n: string): Binding | undefined => {
      for (let i = chain.length - 1; i >= 0; i--) { const b = chain[i].get(n); if (b) return b; }
      return undefined;
    };
    let lowered: (UFunction & { captures?: string[] }) | null = null, lowering = false;
    const env: Environment = {
      globals: this.env.globals,
      lookup: (n) => {
        const b = find(n);
        if (b?.k === "function") return { k: "function", get: b.get, ...(b.captures ? { captures: b.captures } : {}) };
        if (b?.k === "var") return undefined;
        return this.env.lookup(n);
      },
    };
    const get = (): UFunction => {
      if (lowered) return lowered;
      const outer = new Set(this.outerLocals);
      for (const m of chain) for (const [n, b] of m) if (b.k === "var") outer.add(n);
      lowering = true;
      try { lowered = lowerFunction(node, name, this.source, env, outer); } finally { lowering = false; }
      return lowered;
    };
    return { k: "function", get, captures: () => (lowering ? null : ((get() as { captures?: string[] }).captures ?? [])) };
  }

  // ---- statements --------------------------------------------------------------------------

  private block(stmts: any[]): UStmt[] {
    this.scopes.push(new Map());
    this.hoist(stmts);
    const out: UStmt[] = [];
    for (const s of stmts) this.stmt(s, out);
    this.scopes.pop();
    return out;
  }

  private body(node: any): UStmt[] {
    return node.type === "BlockStatement" ? this.block(node.body) : this.block([node]);
  }

  private stmt(s: any, out: UStmt[]): void {
    const span = spanOf(s);
    switch (s.type) {
      case "EmptyStatement":
      case "FunctionDeclaration": // hoisted
      case "TSTypeAliasDeclaration":
      case "TSInterfaceDeclaration":
        return;
      case "ExpressionStatement": {
        const e = s.expression;
        if (e.type === "CallExpression" && e.callee.type === "Identifier" && e.callee.name === ESBUILD_KEEP_NAMES && !this.lookupLocal(ESBUILD_KEEP_NAMES)) return;
        if (e.type === "Literal" && typeof e.value === "string") return; // "use strict" and other directives
        out.push({ k: "expr", e: this.expr(e), span });
        return;
      }
      case "VariableDeclaration": {
        if (s.kind !== "let" && s.kind !== "const" && s.kind !== "var") {
          this.error("unsupported-syntax", `'${s.kind}' declarations are not supported in kernels`, s);
          return;
        }
        for (const d of s.declarations) {
          if ((d.id.type === "ObjectPattern" || d.id.type === "ArrayPattern") && d.init) {
            this.declarePattern(d.id, this.expr(d.init), s.kind, out);
            continue;
          }
          if (d.id.type !== "Identifier") {
            this.error("unsupported-syntax", `${describe(d.id)} declarations are not supported; declare one name at a time`, d.id);
            continue;
          }
          // `const f = (…) => …` / `const f = function (…) {…}`: a local function (nestedFunction).
          // (esbuild's keepNames wraps it: `__name((…) => …, "f")`.)
          let fnInit = d.init;
          while (fnInit?.type === "ParenthesizedExpression") fnInit = fnInit.expression;
          if (fnInit?.type === "CallExpression" && fnInit.callee.type === "Identifier" && fnInit.callee.name === ESBUILD_KEEP_NAMES && !this.lookupLocal(ESBUILD_KEEP_NAMES)) fnInit = fnInit.arguments[0];
          if (s.kind === "const" && (fnInit?.type === "ArrowFunctionExpression" || fnInit?.type === "FunctionExpression")) {
            this.scopes[this.scopes.length - 1].set(d.id.name, this.nestedFunction(fnInit, d.id.name));
            continue;
          }
          // The initializer is resolved before the name is declared: `let x = x` names the outer x.
          const init = d.init ? this.expr(d.init) : null;
          if (!init && s.kind === "const") this.error("syntax", `const '${d.id.name}' must be initialized`, d);
          const v = this.declare(d.id.name, s.kind, d.id, annotationType(d.id.typeAnnotation));
          out.push({ k: "decl", v, init, span: spanOf(d) });
        }
        return;
      }
      case "IfStatement":
        out.push({ k: "if", c: this.expr(s.test), then: this.body(s.consequent), else: s.alternate ? this.body(s.alternate) : [], span });
        return;
      case "ForStatement": {
        this.scopes.push(new Map());
        const init: UStmt[] = [];
        if (s.init) {
          if (s.init.type === "VariableDeclaration") this.stmt(s.init, init);
          else init.push({ k: "expr", e: this.expr(s.init), span: spanOf(s.init) });
        }
        const test = s.test ? this.expr(s.test) : null;
        const update = s.update ? this.expr(s.update) : null;
        this.enter("loop");
        const body = this.body(s.body);
        this.scopes.pop();
        out.push({ k: "loop", init, test, update, body, testFirst: true, span });
        this.leave(out);
        return;
      }
      case "ForOfStatement": return this.forOf(s, out);
      case "WhileStatement":
      case "DoWhileStatement": {
        const test = this.expr(s.test);
        this.enter("loop");
        const body = this.body(s.body);
        out.push({ k: "loop", init: [], test, update: null, body, testFirst: s.type === "WhileStatement", span });
        this.leave(out);
        return;
      }
      case "LabeledStatement": {
        let target = s;
        const labels: string[] = [];
        while (target.type === "LabeledStatement") { labels.push(target.label.name); target = target.body; }
        if (!/^(For|ForOf|While|DoWhile|Switch)Statement$/.test(target.type))
          return this.error("unsupported-syntax", `a label on ${target.type === "BlockStatement" ? "a block" : describe(target)} is not supported in kernels, only on a loop or a switch`, s,
            "leave the block through a flag, or make it a loop that ends in `break` (`name: for (;;) { …; break; }`)");
        this.labels = labels;
        this.stmt(target, out);
        this.labels = [];   // (taken by the loop or switch, unless its lowering stopped before it)
        return;
      }
      case "BlockStatement":
        out.push({ k: "block", body: this.block(s.body), span });
        return;
      case "BreakStatement":
        if (s.label) return this.labeledJump(s, false, out);
        if (this.loopDepth === 0 && this.switchDepth === 0) return this.error("syntax", "'break' outside of a loop or switch", s);
        out.push({ k: "break", span });
        return;
      case "ContinueStatement":
        if (s.label) return this.labeledJump(s, true, out);
        if (this.loopDepth === 0) return this.error("syntax", "'continue' outside of a loop", s);
        out.push({ k: "continue", span });
        return;
      case "ReturnStatement":
        out.push({ k: "return", e: s.argument ? this.expr(s.argument) : null, span });
        return;
      case "ThrowStatement": {
        const arg = s.argument;
        const isError = (n: any): boolean => (n.type === "NewExpression" || n.type === "CallExpression") && n.callee.type === "Identifier" && /Error$/.test(n.callee.name);
        let message: string | null = null;
        if (arg.type === "Literal" && typeof arg.value === "string") message = arg.value;
        else if (isError(arg) && arg.arguments.length === 0) message = "";
        else if (isError(arg) && arg.arguments[0]?.type === "Literal" && typeof arg.arguments[0].value === "string") message = arg.arguments[0].value;
        else if (isError(arg) && arg.arguments[0]?.type === "TemplateLiteral" && arg.arguments[0].expressions.length === 0) message = arg.arguments[0].quasis[0].value.cooked;
        // A message built from values (`index ${i} out of range`, "bad " + v): inference puts
        // up to two numbers in the exception record (infer/statements.ts).
        else if (isError(arg) && arg.arguments.length >= 1 && (arg.arguments[0].type === "TemplateLiteral" || arg.arguments[0].type === "BinaryExpression")) {
          out.push({ k: "throw", message: "", template: this.expr(arg.arguments[0]), span });
          return;
        }
        if (message === null) return this.error("unsupported-syntax", "a device exception needs a constant message, or one built from values: throw new Error(\"…\"), throw new Error(`… ${x}`)", s,
          "print values with console.log before throwing");
        out.push({ k: "throw", message, span });
        return;
      }
      case "SwitchStatement": {
        const selector = this.expr(s.discriminant);
        this.enter("switch");
        this.scopes.push(new Map());
        for (const c of s.cases) this.hoist(c.consequent);
        const cases = s.cases.map((c: any) => {
          const body: UStmt[] = [];
          for (const st of c.consequent) this.stmt(st, body);
          return { test: c.test ? this.expr(c.test) : null, body, span: spanOf(c) };
        });
        this.scopes.pop();
        out.push({ k: "switch", selector, cases, span });
        this.leave(out);
        return;
      }
      default:
        this.error("unsupported-syntax", `${describe(s)} is not supported in kernels`, s);
    }
  }

  // ---- expressions -------------------------------------------------------------------------

  private expr(e: any): UExpr {
    const span = spanOf(e);
    switch (e.type) {
      case "ParenthesizedExpression":
      case "TSAsExpression":
      case "TSSatisfiesExpression":
      case "TSNonNullExpression":
      case "TSTypeAssertion":
        return this.expr(e.expression);
      case "Literal":
        if (typeof e.value === "number") return { k: "num", value: e.value, isFloat: isFloatLiteral(e.raw, e.value), literal: true, span };
        if (typeof e.value === "boolean") return { k: "bool", value: e.value, span };
        if (typeof e.value === "string") return { k: "str", value: e.value, span };
        if (e.value === null && !e.regex && e.bigint === undefined) return { k: "null", undef: false, span };
        return this.bad(`${e.regex ? "a regular expression" : e.bigint !== undefined ? "a BigInt literal" : "this literal"} is not supported in kernels`, e);
      case "Identifier":
        return this.identifier(e);
      case "MemberExpression":
        return this.member(e);
      case "UnaryExpression":
        if (e.operator === "-" || e.operator === "+" || e.operator === "!" || e.operator === "~")
          return { k: "unary", op: e.operator, a: this.expr(e.argument), span };
        if (e.operator === "typeof") return { k: "typeof", a: this.expr(e.argument), span };
        // `void 0` is undefined (what TypeScript and bundlers write for `undefined`); `void f()` calls f.
        if (e.operator === "void")
          return e.argument.type === "Literal" ? { k: "null", undef: true, span } : { k: "seq", exprs: [this.expr(e.argument), { k: "null", undef: true, span }], span };
        return this.bad(`the '${e.operator}' operator is not supported in kernels`, e);
      case "BinaryExpression":
        if (e.operator === "in" || e.operator === "instanceof") return this.bad(`the '${e.operator}' operator is not supported in kernels`, e);
        if (e.left.type === "PrivateIdentifier") return this.bad("private names are not supported in kernels", e);
        return { k: "binary", op: e.operator, a: this.expr(e.left), b: this.expr(e.right), span };
      case "LogicalExpression":
        return { k: "logical", op: e.operator, a: this.expr(e.left), b: this.expr(e.right), span };
      case "ConditionalExpression":
        return { k: "cond", c: this.expr(e.test), a: this.expr(e.consequent), b: this.expr(e.alternate), span };
      case "AssignmentExpression": {
        // `a ||= b` is `a || (a = b)`, its target read once: a variable, or an element or field
        // whose operands have no effects (which would run twice).
        if (e.operator === "&&=" || e.operator === "||=" || e.operator === "??=") {
          const target = this.lvalue(e.left);
          if (hasEffects(target)) return this.bad(`'${e.operator}' on a target whose operands have effects is not supported in kernels (the target is read, then assigned)`, e.left, "unsupported-syntax", "compute the index into a const first");
          return { k: "logical", op: e.operator.slice(0, 2) as "&&" | "||" | "??", a: target, b: { k: "assign", op: "=", target: this.lvalue(e.left), value: this.expr(e.right), span }, span };
        }
        if (e.left.type === "ObjectPattern" || e.left.type === "ArrayPattern") {
          if (e.operator !== "=") return this.bad(`the '${e.operator}' operator cannot assign to a destructuring pattern`, e);
          return this.destructuringAssignment(e);
        }
        const target = this.lvalue(e.left);
        return { k: "assign", op: e.operator, target, value: this.expr(e.right), span };
      }
      case "UpdateExpression":
        return { k: "update", op: e.operator, prefix: e.prefix, target: this.lvalue(e.argument), span };
      case "SequenceExpression":
        return { k: "seq", exprs: e.expressions.map((x: any) => this.expr(x)), span };
      case "CallExpression":
        return this.call(e);
      case "ThisExpression":
        return this.bad("'this' is not supported in kernels", e);
      case "ArrowFunctionExpression":
      case "FunctionExpression": {
        // A function written where it is passed (`reduce(v, (a, b) => a + b)`).
        const name = e.id?.name ?? `(function at line ${this.source.locate(e.start).line})`;
        return this.fnValue(name, this.nestedFunction(e, name) as Extract<Binding, { k: "function" }>, e);
      }
      case "ObjectExpression":
        return this.objectLiteral(e);
      case "ArrayExpression":
        return this.arrayLiteral(e);
      case "NewExpression": {
        const ctor = e.callee.type === "Identifier" && !this.lookupLocal(e.callee.name) && !this.env.lookup(e.callee.name) ? e.callee.name : null;
        if (ctor && UNSUPPORTED_ARRAYS.has(ctor)) {
          this.error("unsupported-type", `${ctor} is not supported in kernels: arrays hold i32, u32, f32, f64 or narrow integers (Int32Array, Uint32Array, Float32Array, Float64Array, Int8Array, Uint8Array, Uint8ClampedArray, Int16Array, Uint16Array)`, e);
          // Go on as if it were a Float32Array, so its uses do not report follow-on errors.
          return { k: "newArray", elem: "f32", size: this.expr(e.arguments[0] ?? e), span };
        }
        // new Array(n): a private array of objects of one shape.
        if (ctor === "Array" && e.arguments.length === 1) return { k: "newArray", elem: "f32", size: this.expr(e.arguments[0]), objects: true, span };
        if (ctor && ctor in ARRAY_TYPES) {
          if (e.arguments.length !== 1) return this.bad(`'new ${ctor}(size)' takes one argument, a constant size`, e);
          // new Uint32Array(f.buffer): f's memory read as other elements (__float_as_uint's JavaScript).
          const a0 = e.arguments[0];
          if (a0.type === "MemberExpression" && !a0.computed && !a0.optional && a0.property?.type === "Identifier" && a0.property.name === "buffer")
            return { k: "bitsView", elem: ARRAY_TYPES[ctor], array: this.expr(a0.object), span };
          return { k: "newArray", elem: ARRAY_TYPES[ctor], size: this.expr(e.arguments[0]), span };
        }
        return this.bad(`'new ${ctor ?? "…"}(…)' is not supported in kernels (no allocation on the device; private arrays are \`new Float32Array(N)\` with a constant N)`, e);
      }
      case "TemplateLiteral": {
        // A string (what console.log and Error take): its text pieces and substitutions.
        const quasis: string[] = e.quasis.map((q: any) => q.value.cooked);
        if (!e.expressions.length) return { k: "str", value: quasis[0], span };
        return { k: "str", value: sourceOf(this.source, e), template: { quasis, exprs: e.expressions.map((x: any) => this.expr(x)) }, span };
      }
      case "AwaitExpression":
        return this.bad("'await' is not supported in kernels", e);
      case "YieldExpression":
        return this.bad("'yield' is not supported in kernels", e);
      case "ChainExpression": {
        // `a?.[i]`, `a?.length` on a name (an optional array): `a == null ? undefined : a[i]`.
        const m = e.expression;
        if (m.type === "MemberExpression" && m.optional && m.object.type === "Identifier")
          return { k: "cond", c: { k: "binary", op: "==", a: this.expr(m.object), b: { k: "null", undef: false, span }, span }, a: { k: "null", undef: true, span }, b: this.member({ ...m, optional: false }), span };
        return this.bad("optional chaining is supported in kernels only on a name (`a?.[i]`, `a?.length`)", e);
      }
      default:
        return this.bad(`${describe(e)} is not supported in kernels`, e);
    }
  }

  private identifier(e: any): UExpr {
    const span = spanOf(e);
    const name: string = e.name;
    const local = this.lookupLocal(name);
    if (local?.k === "var") return { k: "var", v: local.v, span };
    if (!local && this.outerLocals.has(name)) return { k: "var", v: this.capture(name, e), span };
    if (local?.k === "function") return this.fnValue(name, local, e);
    if (name === "arguments") return this.bad("'arguments' is not supported in kernels", e);
    if (name === "undefined") return { k: "null", undef: true, span };
    const bound = this.scopeValue(name, e);
    if (bound) return bound;
    const v = this.env.globals.value(name);
    if (v) return { ...v, span };
    // threadIdx, blockIdx, blockDim, gridDim as values: objects of their x, y and z
    // (`const { x, y } = threadIdx`, a helper passed blockDim).
    const dims = ["x", "y", "z"].map((d) => this.env.globals.value(`${name}.${d}`));
    if (dims.every((d) => d?.k === "builtin"))
      return { k: "object", fields: dims.map((d, i) => ({ name: "xyz"[i], value: { ...d!, span }, span })), span };
    if (this.env.globals.isNamespace(name) || this.env.globals.isFunction(name))
      return this.bad(`'${name}' cannot be used as a value; use its members or call it`, e);
    return this.undefinedName(name, e);
  }

  /**
   * A function used as a value (passed to a helper, bound to a const, written where it is passed):
   * what a call of it calls, known when the function given it is specialized. A local function's
   * captured locals are read here, as a call by its name reads them (nothing can assign them
   * before the value is called: a function that assigns what it captures is refused where it is
   * called through the value, infer/calls.ts).
   */
  private fnValue(name: string, b: { k: "function"; get: () => UFunction; captures?: () => string[] | null } | { k: "intrinsic"; name: string } | { k: "generated"; gen: Function; name: string }, node: any): UExpr {
    const span = spanOf(node);
    if (b.k === "intrinsic") return { k: "fn", callee: { k: "intrinsic", name: b.name }, name, span };
    if (b.k === "generated") return { k: "fn", callee: { k: "generated", gen: b.gen, name: b.name }, name, span };
    const captures = b.captures?.();
    if (captures === null) return this.bad(`'${name}' is used as a value inside itself; a local function is not recursive`, node);
    const env = captures?.map((n) => this.identifier({ type: "Identifier", name: n, start: node.start, end: node.end }));
    return { k: "fn", callee: { k: "function", fn: b.get }, name, ...(env?.length ? { env } : {}), span };
  }

  private scopeValue(name: string, node: any): UExpr | null {
    const b = this.env.lookup(name);
    if (!b) return null;
    const span = spanOf(node);
    switch (b.k) {
      case "num": return { k: "num", value: b.value, isFloat: !Number.isInteger(b.value), span };
      case "bool": return { k: "bool", value: b.value, span };
      case "table": return { k: "table", table: b.table, span };
      case "function": case "intrinsic": case "generated":
        return this.fnValue(name, b, node);
      case "invalid": return this.bad(`'${name}' from scope is ${b.what}; kernels can use numbers, booleans, typed arrays (and tables: Arrays of numbers or of typed arrays) and functions`, node, "unsupported-value");
    }
  }

  /** A local of an enclosing function, read here: a parameter of this function that each call passes. */
  private capture(name: string, node: any): number {
    let v = this.captured.get(name);
    if (v === undefined) {
      v = this.vars.length;
      this.vars.push({ name, kind: "param", span: spanOf(node), declared: null });
      this.scopes[0].set(name, { k: "var", v });
      this.captured.set(name, v);
    }
    return v;
  }

  private undefinedName(name: string, node: any): UExpr {
    if (this.outerLocals.has(name))
      return this.bad(`helper '${this.fnName}' cannot capture '${name}', a local of the enclosing function; pass it as an argument`, node, "unsupported-syntax");
    const cuda = Object.prototype.hasOwnProperty.call(CUDA_NAMES, name) ? CUDA_NAMES[name] : null;
    return this.bad(`use of undefined name '${name}'`, node, "undefined-name",
      cuda ? `CUDA's ${name} is ${cuda} in gpuc` : "kernels see their own locals, the `scope` option of kernel(), and gpuc's intrinsics");
  }

  private member(e: any): UExpr {
    const span = spanOf(e);
    if (e.optional) return this.bad("optional chaining is not supported in kernels", e);
    if (e.object.type === "ThisExpression") return this.bad("'this' is not supported in kernels", e.object);
    if (e.computed) return { k: "index", array: this.expr(e.object), index: this.expr(e.property), span };
    const prop: string = e.property.name;
    const path = this.intrinsicPath(e);
    if (path) {
      const v = this.env.globals.value(path);
      if (v) return { ...v, span };
      if (this.env.globals.isFunction(path)) return this.fnValue(path, { k: "intrinsic", name: path }, e);
      return this.bad(`use of undefined name '${path}'`, e, "undefined-name");
    }
    if (prop === "length") return { k: "length", array: this.expr(e.object), span };
    if (e.property.type === "PrivateIdentifier") return this.bad("private names are not supported in kernels", e);
    // A field of an object value; inference reports a property of anything else.
    return { k: "field", object: this.expr(e.object), name: prop, span };
  }

  /**
   * "Math.sqrt" for `Math.sqrt`, also when reached through a namespace import (`gpuc.threadIdx.x`),
   * or null when the member expression does not name an intrinsic.
   */
  private intrinsicPath(e: any): string | null {
    const parts: string[] = [];
    let n = e;
    for (;;) {
      if (n.type === "MemberExpression" && !n.computed) { parts.unshift(n.property.name); n = n.object; }
      // (0, ns.x).y, as transpilers write members of imported bindings.
      else if (n.type === "ParenthesizedExpression" && n.expression.type === "SequenceExpression") n = n.expression.expressions.at(-1);
      else if (n.type === "ParenthesizedExpression") n = n.expression;
      else break;
    }
    if (n.type !== "Identifier") return null;
    if (this.lookupLocal(n.name) || this.env.lookup(n.name)) return null;
    parts.unshift(n.name);
    // Longest suffix that starts at a known namespace or function: gpuc.threadIdx.x → threadIdx.x.
    for (let i = 0; i < parts.length; i++) {
      const path = parts.slice(i).join(".");
      if (this.env.globals.isNamespace(parts[i]) || this.env.globals.isFunction(path) || this.env.globals.value(path)) return path;
    }
    return null;
  }

  private call(e: any): UExpr {
    const span = spanOf(e);
    if (e.optional) return this.bad("optional calls are not supported in kernels", e);
    // shared(Float32Array, 256): the first argument names an element type, not a value.
    const sharedPath = e.callee.type === "Identifier" ? e.callee.name : e.callee.type === "MemberExpression" ? this.intrinsicPath(e.callee) : null;
    if (sharedPath === "shared" && !this.lookupLocal("shared") && !this.env.lookup("shared")) {
      const [ctorNode, sizeNode] = e.arguments;
      const ctor = ctorNode?.type === "Identifier" ? ctorNode.name : null;
      // shared(Array, 100): an array of objects of one shape (lavaMD's `__shared__ FOUR_VECTOR rA_shared[100]`).
      if (ctor === "Array" && e.arguments.length === 2 && sizeNode.type !== "ArrayExpression") return { k: "sharedArray", elem: "f32", size: this.expr(sizeNode), objects: true, span };
      if (ctor && UNSUPPORTED_ARRAYS.has(ctor)) return this.bad(`${ctor} is not supported in kernels: arrays hold i32, u32, f32, f64 or narrow integers (Int32Array, Uint32Array, Float32Array, Float64Array, Int8Array, Uint8Array, Uint8ClampedArray, Int16Array, Uint16Array)`, ctorNode, "unsupported-type");
      if (!ctor || !(ctor in ARRAY_TYPES) || e.arguments.length !== 2)
        return this.bad("shared() takes a typed-array constructor and a constant size, e.g. shared(Float32Array, 256)", e, "unsupported-syntax");
      // shared(Float32Array, [16, 17]): a multi-dimensional array, indexed t[y][x].
      if (sizeNode.type === "ArrayExpression") {
        const els = sizeNode.elements as any[];
        if (els.length < 1 || els.length > 3 || els.some((d) => !d || d.type === "SpreadElement"))
          return this.bad("a shared array has one to three dimensions, each a constant, e.g. shared(Float32Array, [16, 17])", sizeNode, "unsupported-syntax");
        const dims = els.map((d) => this.expr(d));
        return { k: "sharedArray", elem: ARRAY_TYPES[ctor], size: dims[0], dims, span };
      }
      return { k: "sharedArray", elem: ARRAY_TYPES[ctor], size: this.expr(sizeNode), span };
    }
    const mc = e.callee;
    if (mc.type === "MemberExpression" && !mc.computed && Object.prototype.hasOwnProperty.call(ARRAY_LOOPS, mc.property?.name) && !this.intrinsicPath(mc) && !e.arguments.some((a: any) => a.type === "SpreadElement"))
      return this.arrayMethod(e, mc.property.name);
    // (A callback given to an array's method, `a.map((x) => …)`: the call is the error, which says
    // so in inference, not the function value too.)
    const arrayMethod = e.callee.type === "MemberExpression" && !e.callee.computed && ARRAY_METHODS.has(e.callee.property?.name) && !this.intrinsicPath(e.callee);
    const spread = e.arguments.map((a: any) => a.type === "SpreadElement");
    const args = e.arguments.map((a: any) => {
      if (a.type === "SpreadElement") return this.expr(a.argument);
      if (arrayMethod && (a.type === "ArrowFunctionExpression" || a.type === "FunctionExpression")) return { k: "num", value: 0, isFloat: false, span: spanOf(a) };
      return this.expr(a);
    });
    const calleeSpan = spanOf(e.callee);
    // a.subarray(begin, end?): a view (an intrinsic path such as Math.x is never an array).
    const m = e.callee;
    // a.at(i): a[i], a negative i counting from the end (as JavaScript's at; where it is past
    // either end, a bounds check fires where JavaScript reads undefined). The array and the index
    // are read twice: a name and an index without effects.
    if (m.type === "MemberExpression" && !m.computed && m.property?.name === "at" && m.object.type === "Identifier" && !this.intrinsicPath(m) && args.length === 1 && !spread[0]) {
      if (hasEffects(args[0])) return this.bad("at's index has effects, and gpuc reads it twice", e.arguments[0], "unsupported-syntax", "compute it into a const first");
      const array = (): UExpr => this.expr(m.object), i = args[0], again = (): UExpr => this.expr(e.arguments[0]);
      const zero: UExpr = { k: "num", value: 0, isFloat: false, literal: true, span };
      const index: UExpr = { k: "cond", c: { k: "binary", op: "<", a: i, b: zero, span }, a: { k: "binary", op: "+", a: again(), b: { k: "length", array: array(), span }, span }, b: again(), span };
      return { k: "index", array: array(), index, span };
    }
    if (m.type === "MemberExpression" && !m.computed && m.property?.name === "subarray" && !this.intrinsicPath(m)) {
      if (args.length < 1 || args.length > 2 || spread.includes(true)) return this.bad("subarray takes one or two arguments in kernels: a.subarray(begin, end?)", e, "unsupported-syntax");
      return { k: "subarray", array: this.expr(m.object), args, span };
    }
    let c = e.callee;
    while (c.type === "ParenthesizedExpression" || c.type === "TSNonNullExpression") c = c.expression;
    // (0, ns.f)(…), as transpilers write calls of imported functions.
    if (c.type === "SequenceExpression") c = c.expressions.at(-1);
    const callee: UCallee = this.callee(c);
    // A function declared in this one (or a sibling's) that reads locals around it: they follow the arguments.
    if (c.type === "Identifier" && callee.k === "function") {
      const b = this.lookupLocal(c.name) ?? this.env.lookup(c.name);
      const captures = b?.k === "function" ? b.captures?.() : undefined;
      if (captures === null) return this.bad(`'${c.name}' calls itself while it is declared; a local function is not recursive`, e, "unsupported-syntax");
      if (captures) for (const n of captures) args.push(this.identifier({ type: "Identifier", name: n, start: c.start, end: c.end }));
      // What it assigns of them, this function assigns too where they are its own captures.
      const written = captures?.length && b?.k === "function" ? (b.get() as UFunction).writtenCaptures ?? [] : [];
      for (const n of written) if (this.captured.has(n) || (!this.lookupLocal(n) && this.outerLocals.has(n))) this.writtenCaptures.add(n);
    }
    return { k: "call", callee, args, calleeSpan, span, ...(spread.includes(true) ? { spread: [...spread, ...args.slice(spread.length).map(() => false)] } : {}) };
  }

  private callee(c: any): UCallee {
    if (c.type === "Identifier") {
      const local = this.lookupLocal(c.name);
      if (local?.k === "function") return { k: "function", fn: local.get };
      if (local?.k === "var") return { k: "var", v: local.v, name: c.name };
      const b = this.env.lookup(c.name);
      if (b?.k === "function") return { k: "function", fn: b.get };
      if (b?.k === "intrinsic") return { k: "intrinsic", name: b.name };
      if (b?.k === "generated") return { k: "generated", gen: b.gen, name: b.name };
      if (b) return { k: "dynamic", name: c.name };
      if (this.env.globals.isFunction(c.name)) return { k: "intrinsic", name: c.name };
      this.undefinedName(c.name, c);
      return { k: "dynamic", name: c.name, reported: true };
    }
    if (c.type === "MemberExpression" && !c.computed) {
      const path = this.intrinsicPath(c);
      if (path && this.env.globals.isFunction(path)) return { k: "intrinsic", name: path };
      if (path) { this.bad(`use of undefined name '${path}'`, c, "undefined-name"); return { k: "dynamic", name: path, reported: true }; }
      return { k: "dynamic", name: sourceOf(this.source, c) };
    }
    return { k: "dynamic", name: sourceOf(this.source, c) };
  }

  private lvalue(e: any): UExpr {
    while (e.type === "ParenthesizedExpression" || e.type === "TSNonNullExpression" || e.type === "TSAsExpression") e = e.expression;
    if (e.type === "Identifier") {
      const local = this.lookupLocal(e.name);
      // A local of the function this one is declared in, assigned as C++'s `[&]` captures are:
      // each call copies it back when it returns.
      if ((local?.k === "var" && [...this.captured.values()].includes(local.v)) || (!local && this.outerLocals.has(e.name))) {
        this.writtenCaptures.add(e.name);
        return { k: "var", v: local?.k === "var" ? local.v : this.capture(e.name, e), span: spanOf(e) };
      }
      if (local?.k === "var") {
        if (this.vars[local.v].kind === "const") this.error("invalid-assignment", `cannot assign to const '${e.name}'`, e);
        return { k: "var", v: local.v, span: spanOf(e) };
      }
      if (this.env.lookup(e.name)) return this.bad(`cannot assign to '${e.name}', a value captured from scope (scope values are constants)`, e, "invalid-assignment");
      return this.undefinedName(e.name, e);
    }
    if (e.type === "MemberExpression" && e.computed) return this.expr(e);
    if (e.type === "MemberExpression" && !e.optional && !this.intrinsicPath(e) && e.property.type === "Identifier" && e.property.name !== "length")
      return this.member(e);
    if (e.type === "MemberExpression") return this.bad(`cannot assign to '${sourceOf(this.source, e)}'`, e, "invalid-assignment");
    return this.bad(`${describe(e)} cannot be assigned to in kernels`, e, "unsupported-syntax");
  }

  // ---- object and tuple values -------------------------------------------------------------

  private objectLiteral(e: any): UExpr {
    const fields: Extract<UExpr, { k: "object" }>["fields"] = [];
    for (const p of e.properties) {
      if (p.type === "SpreadElement") { fields.push({ name: null, value: this.expr(p.argument), span: spanOf(p) }); continue; }
      if (p.kind !== "init" || p.method) { this.error("unsupported-syntax", `${p.method ? "methods" : "getters and setters"} are not supported in object values in kernels (an object value holds numbers, booleans and other object values)`, p); continue; }
      const name = this.propertyName(p);
      if (name === null) continue;
      fields.push({ name, value: this.expr(p.value), span: spanOf(p) });
    }
    return { k: "object", fields, span: spanOf(e) };
  }

  /** A property's key as a name (identifier, string or number), or null after reporting a computed one. */
  private propertyName(p: any): string | null {
    if (!p.computed && p.key.type === "Identifier") return p.key.name;
    if (p.key.type === "Literal" && (typeof p.key.value === "string" || typeof p.key.value === "number")) return String(p.key.value);
    this.error("unsupported-syntax", "computed property names are not supported in kernels (an object value's fields are known when it is compiled)", p.key);
    return null;
  }

  private arrayLiteral(e: any): UExpr {
    const elems: Extract<UExpr, { k: "tuple" }>["elems"] = [];
    for (const el of e.elements) {
      if (!el) { this.error("unsupported-syntax", "holes are not supported in array values in kernels", e); continue; }
      if (el.type === "SpreadElement") elems.push({ value: this.expr(el.argument), spread: true, span: spanOf(el) });
      else elems.push({ value: this.expr(el), spread: false, span: spanOf(el) });
    }
    return { k: "tuple", elems, span: spanOf(e) };
  }

  /**
   * A source that a destructuring may read again for each name it binds: a variable, or a chain of
   * fields and constant indices of one (reading it again is reading the same object, as JS does).
   * Anything else is evaluated once into a hidden variable first.
   */
  private rereadable(x: UExpr): boolean {
    if (x.k === "var") return true;
    if (x.k === "field") return this.rereadable(x.object);
    if (x.k === "index") return x.index.k === "num" && this.rereadable(x.array);
    return false;
  }

  /**
   * `for (const v of a) body`, a loop over an array's elements (typed arrays, views, shared and
   * private arrays, a table's rows, an Array of numbers or objects): JavaScript's array iterator
   * reads `a[i]` for i from 0 while i < a.length, `a` evaluated once. So:
   * `{ const it = a; for (let i = 0; i < it.length; i++) { const v = it[i]; body } }` — `it` is `a`
   * itself where `a` is a variable the loop never assigns (a rebinding inside would change what
   * is iterated), else a hidden const, whose sharing rules are a binding's (an Array whose elements
   * the body assigns is then refused, as `const b = a` would be). The element is declared as the
   * loop's variable (a pattern destructures it), or assigned to the variable or pattern named.
   */
  private forOf(s: any, out: UStmt[]): void {
    const span = spanOf(s);
    if (s.await) { this.error("unsupported-syntax", "a for await…of loop is not supported in kernels", s); return; }
    const left = s.left;
    if (left.type === "VariableDeclaration" && (left.declarations.length !== 1 || left.declarations[0].init)) {
      this.error("syntax", "a for…of loop declares one variable, without an initializer", left);
      return;
    }
    this.scopes.push(new Map());
    const init: UStmt[] = [];
    const right = this.expr(s.right);
    let array: () => UExpr;
    if (right.k === "var" && !assigns(s.body, this.vars[right.v].name)) array = () => ({ ...right });
    else {
      // (Its name, not an identifier, cannot be named by the code.)
      const it = this.declare(`${this.source.text.slice(s.right.start, s.right.end)} (iterated)`, "const", s.right, null);
      init.push({ k: "decl", v: it, init: right, span: right.span });
      array = () => ({ k: "var", v: it, span: right.span });
    }
    const i = this.declare(`(index ${++this.hidden})`, "let", s.right, null);
    init.push({ k: "decl", v: i, init: { k: "num", value: 0, isFloat: false, literal: true, span: right.span }, span: right.span });
    const index = (): UExpr => ({ k: "var", v: i, span: right.span });
    const test: UExpr = { k: "binary", op: "<", a: index(), b: { k: "length", array: array(), span: right.span }, span: right.span };
    const update: UExpr = { k: "update", op: "++", prefix: false, target: index(), span: right.span };
    this.enter("loop");
    this.scopes.push(new Map());
    const body: UStmt[] = [];
    const element: UExpr = { k: "index", array: array(), index: index(), span: spanOf(left) };
    if (left.type === "VariableDeclaration") {
      const id = left.declarations[0].id;
      if (id.type === "ObjectPattern" || id.type === "ArrayPattern") this.declarePattern(id, element, left.kind, body);
      else if (id.type !== "Identifier") this.error("unsupported-syntax", `${describe(id)} declarations are not supported; declare one name at a time`, id);
      else body.push({ k: "decl", v: this.declare(id.name, left.kind, id, annotationType(id.typeAnnotation)), init: element, span: spanOf(left) });
    } else if (left.type === "ObjectPattern" || left.type === "ArrayPattern") {
      body.push({ k: "expr", e: this.destructuringAssignment({ type: "AssignmentExpression", operator: "=", left, right: null, start: left.start, end: left.end }, element), span: spanOf(left) });
    } else {
      body.push({ k: "expr", e: { k: "assign", op: "=", target: this.lvalue(left), value: element, span: spanOf(left) }, span: spanOf(left) });
    }
    body.push({ k: "block", body: this.body(s.body), span: spanOf(s.body) });
    this.scopes.pop();
    this.scopes.pop();
    out.push({ k: "block", body: [...init, { k: "loop", init: [], test, update, body, testFirst: true, span }], span });
    this.leave(out);
  }

  /**
   * An array's method that reads or fills it in place (ARRAY_LOOPS), written out as the loop
   * JavaScript's specification describes: the array bound once, its elements read live in order
   * (from the end for reduceRight, findLastIndex, lastIndexOf), the callback called with (element,
   * index, array) — a function written here is a local function, so it may assign what it captures
   * (`a.forEach((v) => { sum += v; })`) — stopping where some, every and the finds stop; the
   * result the statements leave (UIR `stmts`). reduce without an initial value on an empty array is
   * JavaScript's TypeError (a KernelError); fill's start and end count from the end when negative.
   */
  private arrayMethod(e: any, name: string): UExpr {
    const span = spanOf(e), n = ++this.hidden, args: any[] = e.arguments;
    const [least, most] = ARRAY_LOOPS[name];
    if (args.length < least || args.length > most)
      return this.bad(`${name} takes ${least === most ? least : `${least} to ${most}`} argument${most === 1 ? "" : "s"} in kernels${name === "indexOf" || name === "lastIndexOf" || name === "includes" ? " (a start index is not supported)" : ""}`, e);
    this.scopes.push(new Map());
    const body: UStmt[] = [];
    const num = (value: number): UExpr => ({ k: "num", value, isFloat: false, literal: true, span });
    const hidden = (label: string, kind: "const" | "let", init: UExpr, at: any): number => {
      const v = this.declare(`(${label} ${n})`, kind, at, null);
      body.push({ k: "decl", v, init, span });
      return v;
    };
    const read = (v: number): UExpr => ({ k: "var", v, span });
    const id = (v: number): any => ({ type: "Identifier", name: this.vars[v].name, start: e.start, end: e.end });
    // The array: a variable as it is (an array of objects has no other binding), else bound once.
    const object = this.expr(e.callee.object);
    const array = object.k === "var" ? object.v : hidden("array", "const", object, e.callee.object);
    const length = (): UExpr => ({ k: "length", array: read(array), span });
    // The callback: one written here is a local function, called by its name; a name is called as it is.
    let callback: any = null;
    if (name !== "fill" && name !== "indexOf" && name !== "lastIndexOf" && name !== "includes") {
      const f = args[0];
      if (f.type === "ArrowFunctionExpression" || f.type === "FunctionExpression") {
        const fname = `(${name} callback ${n})`;
        this.scopes[this.scopes.length - 1].set(fname, this.nestedFunction(f, fname));
        callback = { type: "Identifier", name: fname, start: f.start, end: f.end };
      } else if (f.type === "Identifier") callback = f;
      else callback = id(hidden("callback", "const", this.expr(f), f));
    }
    const backwards = name === "reduceRight" || name === "findLastIndex" || name === "lastIndexOf";
    const index = hidden("index", "let", backwards ? { k: "binary", op: "-", a: length(), b: num(1), span } : num(0), e);
    const call = (...first: any[]): UExpr => this.expr({ type: "CallExpression", callee: callback, arguments: [...first, id(index), id(array)], optional: false, start: e.start, end: e.end });
    const element = (): any => ({ type: "MemberExpression", object: id(array), property: id(index), computed: true, optional: false, start: e.start, end: e.end });
    const elementU = (): UExpr => ({ k: "index", array: read(array), index: read(index), span });
    const set = (v: number, value: UExpr): UStmt => ({ k: "expr", e: { k: "assign", op: "=", target: read(v), value, span }, span });
    let result: UExpr = { k: "null", undef: true, span };
    let before: UStmt[] = [], step: UStmt[] = [];
    let end: UExpr | null = null;
    switch (name) {
      case "forEach": step = [{ k: "expr", e: call(element()), span }]; break;
      case "reduce": case "reduceRight": {
        let acc: number;
        if (args.length === 2) acc = hidden("accumulator", "let", this.expr(args[1]), args[1]);
        else {
          body.push({ k: "if", c: { k: "binary", op: "===", a: length(), b: num(0), span }, then: [{ k: "throw", message: "TypeError: Reduce of empty array with no initial value", span }], else: [], span });
          acc = hidden("accumulator", "let", elementU(), e);
          before = [{ k: "expr", e: { k: "update", op: backwards ? "--" : "++", prefix: false, target: read(index), span }, span }];
        }
        step = [set(acc, call(id(acc), element()))];
        result = read(acc);
        break;
      }
      case "some": case "every": case "findIndex": case "findLastIndex": {
        const found = name === "some" ? { k: "bool", value: true, span } as UExpr : name === "every" ? { k: "bool", value: false, span } as UExpr : read(index);
        const r = hidden("result", "let", name === "some" ? { k: "bool", value: false, span } : name === "every" ? { k: "bool", value: true, span } : { k: "unary", op: "-", a: num(1), span }, e);
        const test = call(element());
        step = [{ k: "if", c: name === "every" ? { k: "unary", op: "!", a: test, span } : test, then: [set(r, found), { k: "break", span }], else: [], span }];
        result = read(r);
        break;
      }
      case "indexOf": case "lastIndexOf": case "includes": {
        const x = hidden("value", "const", this.expr(args[0]), args[0]);
        const r = hidden("result", "let", name === "includes" ? { k: "bool", value: false, span } : { k: "unary", op: "-", a: num(1), span }, e);
        // indexOf and lastIndexOf compare with ===; includes with SameValueZero (NaN finds NaN).
        let test: UExpr = { k: "binary", op: "===", a: elementU(), b: read(x), span };
        if (name === "includes") test = { k: "logical", op: "||", a: test, b: { k: "logical", op: "&&", a: { k: "binary", op: "!==", a: elementU(), b: elementU(), span }, b: { k: "binary", op: "!==", a: read(x), b: read(x), span }, span }, span };
        step = [{ k: "if", c: test, then: [set(r, name === "includes" ? { k: "bool", value: true, span } : read(index)), { k: "break", span }], else: [], span }];
        result = read(r);
        break;
      }
      case "fill": {
        const value = hidden("value", "const", this.expr(args[0]), args[0]);
        const len = hidden("length", "const", length(), e);
        // A relative position: from the end where negative, clamped to [0, length].
        const relative = (a: any): UExpr => {
          const p = hidden("position", "const", this.expr(a), a);
          const intrinsic = (fn: string, ...xs: UExpr[]): UExpr => ({ k: "call", callee: { k: "intrinsic", name: fn }, args: xs, calleeSpan: span, span });
          return { k: "cond", c: { k: "binary", op: "<", a: read(p), b: num(0), span }, a: intrinsic("Math.max", { k: "binary", op: "+", a: read(len), b: read(p), span }, num(0)), b: intrinsic("Math.min", read(p), read(len)), span };
        };
        if (args.length > 1) body.push(set(index, relative(args[1])));
        end = args.length > 2 ? read(hidden("end", "const", relative(args[2]), args[2])) : read(len);
        step = [{ k: "expr", e: { k: "assign", op: "=", target: elementU(), value: read(value), span }, span }];
        result = read(array);
        break;
      }
    }
    const test: UExpr = backwards ? { k: "binary", op: ">=", a: read(index), b: num(0), span } : { k: "binary", op: "<", a: read(index), b: end ?? length(), span };
    body.push(...before, { k: "loop", init: [], test, update: { k: "update", op: backwards ? "--" : "++", prefix: false, target: read(index), span }, body: step, testFirst: true, span });
    this.scopes.pop();
    return { k: "stmts", body, value: result, span };
  }

  /**
   * Labeled jumps (`break outer`, `continue outer`), in the IR's one-level break and continue: a
   * jump to the innermost loop or switch is the plain one (a `continue` past switches too); one
   * further out sets a flag of its target and breaks, and after each loop or switch it leaves,
   * `if (flag) break;` goes on out — or, in the target loop's own body, `if (flag) { flag =
   * false; continue; }` for a continue. A target's flags are declared false before it each time
   * it is reached. What runs is JavaScript's: nothing between the jump and its target runs.
   */
  private labeledJump(s: any, continues: boolean, out: UStmt[]): void {
    const span = spanOf(s), name = s.label.name;
    let t = this.breakables.length - 1;
    while (t >= 0 && !this.breakables[t].labels.includes(name)) t--;
    if (t < 0) return this.error("syntax", `undefined label '${name}'`, s.label);
    const target = this.breakables[t];
    if (continues && target.kind !== "loop") return this.error("syntax", `'continue ${name}' names a switch, not a loop`, s);
    const inner = this.breakables.slice(t + 1);
    if (!inner.length || (continues && inner.every((b) => b.kind === "switch"))) { out.push({ k: continues ? "continue" : "break", span }); return; }
    const key = continues ? "continues" : "breaks";
    const flag = (target[key] ??= this.declare(`(${continues ? "continue" : "break"} ${name})`, "let", s, null));
    out.push({ k: "expr", e: { k: "assign", op: "=", target: { k: "var", v: flag, span }, value: { k: "bool", value: true, span }, span }, span });
    out.push({ k: "break", span });
    for (const b of inner) b.exits.set(flag, { target: t, continues });
  }

  /** A loop or switch starts: it takes the labels just read. */
  private enter(kind: "loop" | "switch"): void {
    if (kind === "loop") this.loopDepth++; else this.switchDepth++;
    this.breakables.push({ kind, labels: this.labels, exits: new Map() });
    this.labels = [];
  }

  /**
   * The loop or switch last pushed to `out` ends: after it, the tests of the flags that jumps
   * inside it set for targets further out; before it, its own flags' declarations.
   */
  private leave(out: UStmt[]): void {
    const b = this.breakables.pop()!;
    if (b.kind === "loop") this.loopDepth--; else this.switchDepth--;
    const span = out[out.length - 1].span, parent = this.breakables.length - 1;
    const read = (v: number): UExpr => ({ k: "var", v, span });
    for (const [flag, { target, continues }] of b.exits) {
      const then: UStmt[] = continues && target === parent
        ? [{ k: "expr", e: { k: "assign", op: "=", target: read(flag), value: { k: "bool", value: false, span }, span }, span }, { k: "continue", span }]
        : [{ k: "break", span }];
      out.push({ k: "if", c: read(flag), then, else: [], span });
    }
    const flags = [b.breaks, b.continues].filter((v): v is number => v !== undefined);
    const at = out.length - 1 - b.exits.size;
    out.splice(at, 0, ...flags.map((v): UStmt => ({ k: "decl", v, init: { k: "bool", value: false, span }, span })));
  }

  private hidden = 0;

  /** A hidden local holding a destructured value (its name cannot clash with a JS name). */
  private hiddenVar(node: any, kind: UVar["kind"]): number {
    return this.declare(`(destructured ${++this.hidden})`, kind, node, null);
  }

  /**
   * `const { a, b: [c, d] = e } = init`: declarations of each name from fields of the source (a
   * default is used when the field is missing, as JS uses it for an undefined property).
   */
  private declarePattern(pattern: any, init: UExpr, kind: "let" | "const" | "var", out: UStmt[]): void {
    let source = init;
    if (!this.rereadable(init)) {
      const v = this.hiddenVar(pattern, "const");
      out.push({ k: "decl", v, init, span: init.span });
      source = { k: "var", v, span: init.span };
    }
    this.patternTargets(pattern, source, (target, value, node) => {
      if (target.type === "ObjectPattern" || target.type === "ArrayPattern") { this.declarePattern(target, value, kind, out); return; }
      if (target.type !== "Identifier") { this.error("unsupported-syntax", `${describe(target)} is not supported in a destructuring declaration`, target); return; }
      const v = this.declare(target.name, kind, target, annotationType(target.typeAnnotation));
      out.push({ k: "decl", v, init: value, span: spanOf(node) });
    });
  }

  /** Each target of a pattern with the field of `source` it receives (its default folded in). */
  private patternTargets(pattern: any, source: UExpr, each: (target: any, value: UExpr, node: any) => void): void {
    const withDefault = (target: any, field: Extract<UExpr, { k: "field" }>) => {
      if (target.type === "AssignmentPattern") each(target.left, { ...field, fallback: this.expr(target.right) }, target);
      else each(target, field, target);
    };
    if (pattern.type === "ObjectPattern") {
      for (const p of pattern.properties) {
        if (p.type === "RestElement") { this.error("unsupported-syntax", "a rest element ('...rest') is not supported in destructuring in kernels", p); continue; }
        const name = this.propertyName(p);
        if (name === null) continue;
        // `const { length } = a`: an array's (or tuple's, or object's field) length, as `a.length` reads it.
        if (name === "length") { each(p.value.type === "AssignmentPattern" ? p.value.left : p.value, { k: "length", array: source, span: spanOf(p) }, p); continue; }
        withDefault(p.value, { k: "field", object: source, name, span: spanOf(p) });
      }
      return;
    }
    pattern.elements.forEach((el: any, i: number) => {
      if (!el) return;
      if (el.type === "RestElement") { this.error("unsupported-syntax", "a rest element ('...rest') is not supported in destructuring in kernels", el); return; }
      withDefault(el, { k: "field", object: source, name: String(i), element: true, span: spanOf(el) });
    });
  }

  /**
   * `[a, b] = [b, a]`: the right side is evaluated whole into a hidden variable first (all of it
   * before any target is assigned, as JS does), then each target is assigned its field. The
   * expression's value is the right side.
   */
  private destructuringAssignment(e: any, right?: UExpr): UExpr {
    const span = spanOf(e);
    const value = right ?? this.expr(e.right);
    const v = this.hiddenVar(e.left, "let");
    const source: UExpr = { k: "var", v, span: value.span };
    const exprs: UExpr[] = [{ k: "assign", op: "=", target: { k: "var", v, span: value.span }, value, span }];
    const assignTo = (pattern: any, from: UExpr) => this.patternTargets(pattern, from, (target, field, node) => {
      if (target.type === "ObjectPattern" || target.type === "ArrayPattern") {
        const inner = this.hiddenVar(target, "let");
        exprs.push({ k: "assign", op: "=", target: { k: "var", v: inner, span: field.span }, value: field, span: spanOf(node) });
        assignTo(target, { k: "var", v: inner, span: field.span });
        return;
      }
      exprs.push({ k: "assign", op: "=", target: this.lvalue(target), value: field, span: spanOf(node) });
    });
    assignTo(e.left, source);
    exprs.push({ ...source });
    return { k: "seq", exprs, span };
  }

  // ---- errors ------------------------------------------------------------------------------

  private error(kind: Diagnostic["kind"], message: string, node: any, hint?: string): void {
    const frames: Frame[] = [{ function: this.fnName, location: this.source.locate(node.start) }];
    this.diags.error(kind, message, this.source, spanOf(node), frames, hint);
  }

  /** Report and return a placeholder expression so lowering can go on and find more problems. */
  private bad(message: string, node: any, kind: Diagnostic["kind"] = "unsupported-syntax", hint?: string): UExpr {
    this.error(kind, message, node, hint);
    return { k: "num", value: 0, isFloat: false, span: spanOf(node) };
  }
}

/** Whether evaluating an expression could change something (an assignment, an update, a call): it may not be read twice. */
function hasEffects(e: UExpr): boolean {
  let effects = false;
  walkUBody([{ k: "expr", e, span: e.span }], (x) => { if (x.k === "assign" || x.k === "update" || x.k === "call") effects = true; });
  return effects;
}

/** Whether a statement assigns the variable `name` anywhere in it (`name = …`, `name += …`, `name++`). */
function assigns(node: any, name: string): boolean {
  if (!node || typeof node !== "object") return false;
  if ((node.type === "AssignmentExpression" && node.left.type === "Identifier" && node.left.name === name) ||
      (node.type === "UpdateExpression" && node.argument.type === "Identifier" && node.argument.name === name)) return true;
  for (const key in node) {
    if (key === "parent") continue;
    const c = node[key];
    if (Array.isArray(c) ? c.some((x) => assigns(x, name)) : c && typeof c === "object" && typeof c.type === "string" && assigns(c, name)) return true;
  }
  return false;
}

function spanOf(n: { start: number; end: number }): Span {
  return { start: n.start, end: n.end };
}

function sourceOf(source: SourceText, n: { start: number; end: number }): string {
  return source.text.slice(n.start, n.end);
}

/** `1.0`, `1e3`, `.5` are float literals even when integral; `0x10`, `7` are integers. */
export function isFloatLiteral(raw: string | undefined, value: number): boolean {
  if (!Number.isInteger(value)) return true;
  if (!raw) return false;
  if (/^0[xXoObB]/.test(raw)) return false;
  return /[.eE]/.test(raw);
}

const SCALARS = new Set(["bool", "i32", "u32", "f32", "f64"]);
const UNSUPPORTED_ARRAYS = new Set(["Float16Array", "BigInt64Array", "BigUint64Array"]);
const ARRAY_TYPES: Record<string, ElemName> = {
  Float32Array: "f32", Float64Array: "f64", Int32Array: "i32", Uint32Array: "u32",
  Int8Array: "i8", Uint8Array: "u8", Uint8ClampedArray: "u8c", Int16Array: "i16", Uint16Array: "u16",
};

/** A TS annotation as a gpuc type name, or null when it says nothing gpuc can use (`number`). */
export function annotationType(a: any): TypeName | null {
  if (!a) return null;
  const t = a.type === "TSTypeAnnotation" ? a.typeAnnotation : a;
  if (t.type === "TSBooleanKeyword") return "bool";
  if (t.type === "TSTypeReference" && t.typeName.type === "Identifier") {
    const n = t.typeName.name;
    if (SCALARS.has(n)) return n as ScalarName;
    if (n in ARRAY_TYPES) return `${ARRAY_TYPES[n]}[]`;
  }
  if (t.type === "TSUnionType") {
    // `Float32Array | null | undefined`: an optional array is declared by its array type.
    const rest = t.types.filter((x: any) => x.type !== "TSNullKeyword" && x.type !== "TSUndefinedKeyword");
    const one = rest.length === 1 && rest.length < t.types.length ? annotationType(rest[0]) : null;
    return one?.endsWith("[]") ? one : null;
  }
  if (t.type === "TSArrayType") {
    const el = annotationType(t.elementType);
    if (el && !el.endsWith("[]")) return `${el as ScalarName}[]`;
  }
  return null;
}

/** "a class declaration", "a for…of loop": the construct's name for messages. */
function describe(n: any): string {
  const names: Record<string, string> = {
    ClassDeclaration: "a class declaration", ClassExpression: "a class expression",
    ForInStatement: "a for…in loop", ForOfStatement: "a for…of loop", TryStatement: "try/catch",
    WithStatement: "'with'", ExpressionStatement: "an expression", IfStatement: "an if",
    DebuggerStatement: "'debugger'", ObjectPattern: "destructuring", ArrayPattern: "destructuring",
    AssignmentPattern: "a default value", RestElement: "a rest parameter", TaggedTemplateExpression: "a tagged template",
    ImportExpression: "import()", MetaProperty: "import.meta / new.target", Super: "'super'",
    ImportDeclaration: "an import", ExportNamedDeclaration: "an export",
  };
  return names[n.type] ?? `'${n.type}'`;
}
