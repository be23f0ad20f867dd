// The read-back check of JavaScript artifacts (ARCHITECTURE.md, "Caches"): code from a disk cache
// or a kernel image is the body the CPU device runs as `new Function(...bindings, code + "\nreturn
// " + entry + ";")`. It is parsed as a script (acorn, or oxc-parser where no compiler is loaded) and walked with JavaScript's scoping
// rules; each free name must be a binding or one of the few globals gpuc's JS back end emits
// (JS_GLOBALS). `import()`, `import.meta`, `with` and sloppy-mode `this` are refused. gpuc's back
// end never emits a reference to something undefined, so such code was made by something else or
// damaged.
//
// This is a consistency check on code, not a sandbox: JavaScript that reaches the global object
// through values it may use (`Math.constructor.constructor`) is beyond what is checked here.

import { JS_RESERVED_WORDS } from "../../js-reserved.js";
import type { ReadBack } from "../target.js";

/** A parse of JavaScript as a script, parentheses not kept: its ESTree program, or its errors. */
export type ScriptParser = (code: string) => { program: unknown; errors: readonly { message: string }[] };

/**
 * The compiler's parser of scripts (frontend/acorn.ts: part of gpuc's compiler script and of its
 * code cache), given when the compiler loads (compiler/compile.ts). Every check in a process that
 * compiles uses it: the check of each fresh output parses in-process, where oxc-parser's native
 * parse and the transfer of its AST as JSON were a fifth of a compile to JS (BENCHMARKS §u), and
 * loading its binding about 12 ms of the first one.
 */
let provided: ScriptParser | null = null;
export function provideScriptParser(p: ScriptParser): void { provided ??= p; }

/** oxc-parser, where no compiler is loaded: loaded on the first check (never at gpuc's import: a warm start loads no parser). */
let oxc: Promise<ScriptParser> | null = null;
const oxcParser = (): Promise<ScriptParser> => (oxc ??= import("../../frontend/oxc.js").then((m) => (code: string) => {
  const r = m.parseSync("artifact.js", code, { lang: "js", sourceType: "script", preserveParens: false, showSemanticErrors: true });
  return { program: r.program, errors: r.errors };
}));

export const jsReadBack: ReadBack = {
  layoutSchema: null,
  async checkCode(a) {
    if (typeof a.code !== "string") return "its code is not text";
    return checkJS(a.code, a.entry, a.bindings ?? [], provided ?? (await oxcParser()));
  },
};

/**
 * The globals gpuc's JS back end emits (src/targets/js/*.ts, src/ir/ops.ts): `Math.*` (fround,
 * imul, clz32, min/max, the f64 functions), `Number.isFinite`, the typed arrays of TYPED_ARRAY
 * (private and shared arrays, per-thread storage), `ArrayBuffer` (the bit-cast prelude),
 * `Array.from` (per-thread private arrays of region kernels), `Atomics` (atomics on the CPU
 * device's worker threads), and the constants `NaN`,
 * `Infinity` (and `undefined`, harmless). Nothing else: no `globalThis`, `process`, `eval`,
 * `Function`, `require`, `console`. A back end that starts emitting another global must add it
 * here (fresh code that fails this check is an internal error, so the tests would say so).
 */
const JS_GLOBALS: ReadonlySet<string> = new Set([
  "Math", "Number", "Array", "ArrayBuffer", "Atomics",
  "Uint8Array", "Int32Array", "Uint32Array", "Float32Array", "Float64Array", "Int8Array", "Uint8ClampedArray", "Int16Array", "Uint16Array",
  "NaN", "Infinity", "undefined",
]);

const PLAIN_NAME = /^[A-Za-z_$][\w$]*$/;

class Refusal {
  constructor(readonly reason: string) {}
}

interface Scope {
  parent: Scope | null;
  /** A function scope (var declarations, `arguments`, its own `this`) or a block scope. */
  fn: boolean;
  /** Whether its code is strict (in a plain function, `this` is then never the global object). */
  strict: boolean;
  /**
   * For a function scope, what `this` is in it: a plain function's own (the global object when
   * called plainly in sloppy code), the enclosing one (arrows), or bound (class field initializers
   * and static blocks: the instance or the class).
   */
  thisKind: "plain" | "lexical" | "bound";
  names: Set<string>;
}

interface Ref {
  name: string;
  scope: Scope;
  kind: "read" | "call" | "write";
}

/** Names no binding may have: `new Function(...bindings, code)` would not compile, or would bind what JavaScript reserves. */
const RESERVED = new Set(JS_RESERVED_WORDS);

function checkJS(code: string, entry: string, bindings: readonly string[], parse: ScriptParser): string | null {
  const seen = new Set<string>();
  for (const b of bindings) {
    if (!PLAIN_NAME.test(b) || RESERVED.has(b)) return `its binding '${b}' is not a plain name`;
    if (seen.has(b)) return `its binding '${b}' is given twice`;
    seen.add(b);
  }
  const r = parse(code);
  if (r.errors.length) return `it cannot be parsed: ${r.errors[0].message}`;
  const program = r.program as any;
  if (!program.body.some((s: any) => s.type === "FunctionDeclaration" && s.id?.name === entry)) return `its entry '${entry}' is not defined`;
  try {
    const free = new FreeNames(bindings).program(program);
    for (const ref of free) {
      if (ref.kind === "write") return JS_GLOBALS.has(ref.name) ? `it assigns to the global '${ref.name}'` : `it assigns to '${ref.name}', which it does not define`;
      if (JS_GLOBALS.has(ref.name)) continue;
      if (ref.kind === "call") return `it calls '${ref.name}', which it does not define`;
      return `it refers to '${ref.name}', which is neither defined in it nor given to it`;
    }
    return null;
  } catch (e) {
    if (e instanceof Refusal) return e.reason;
    throw e;
  }
}

const isStrictBody = (body: any[]): boolean => {
  for (const s of body) {
    if (s.type !== "ExpressionStatement" || typeof s.directive !== "string") return false;
    if (s.directive === "use strict") return true;
  }
  return false;
};

/** The free identifier references of a script run as a function body, in source order. */
class FreeNames {
  private refs: Ref[] = [];
  private scope: Scope;

  constructor(bindings: readonly string[]) {
    // The factory `new Function` makes: its parameters are the bindings, and it has `arguments`.
    this.scope = { parent: null, fn: true, strict: false, thisKind: "plain", names: new Set([...bindings, "arguments"]) };
  }

  program(p: any): Ref[] {
    this.scope.strict = isStrictBody(p.body);
    this.hoistBlock(p.body);
    this.statements(p.body);
    const free: Ref[] = [];
    for (const ref of this.refs) {
      let s: Scope | null = ref.scope;
      while (s && !s.names.has(ref.name)) s = s.parent;
      if (!s) free.push(ref);
    }
    return free;
  }

  // -- scopes

  private push(fn: boolean, strict = this.scope.strict, thisKind: Scope["thisKind"] = "plain"): Scope {
    this.scope = { parent: this.scope, fn, strict, thisKind, names: new Set() };
    return this.scope;
  }
  private pop(): void { this.scope = this.scope.parent!; }
  private functionScope(): Scope {
    let s = this.scope;
    while (!s.fn) s = s.parent!;
    return s;
  }

  /** Declares the lexical names of a statement list (let/const/class, and functions) in the current scope. */
  private hoistBlock(body: any[]): void {
    const strict = this.scope.strict;
    for (const s of body) {
      const d = s.type === "LabeledStatement" ? unlabel(s) : s;
      if (d.type === "FunctionDeclaration" && d.id) {
        this.scope.names.add(d.id.name);
        // Annex B: in sloppy code a function in a block is also a var of the enclosing function.
        if (!strict) this.functionScope().names.add(d.id.name);
      } else if (d.type === "ClassDeclaration" && d.id) this.scope.names.add(d.id.name);
      else if (d.type === "VariableDeclaration" && d.kind !== "var") for (const x of d.declarations) this.bindPattern(x.id, this.scope);
    }
  }

  /** Declares the names of a binding pattern in `target`; default values and computed keys are references. */
  private bindPattern(p: any, target: Scope): void {
    switch (p.type) {
      case "Identifier": target.names.add(p.name); return;
      case "ObjectPattern":
        for (const prop of p.properties) {
          if (prop.type === "RestElement") this.bindPattern(prop.argument, target);
          else {
            if (prop.computed) this.expr(prop.key);
            this.bindPattern(prop.value, target);
          }
        }
        return;
      case "ArrayPattern": for (const e of p.elements) if (e) this.bindPattern(e, target); return;
      case "RestElement": this.bindPattern(p.argument, target); return;
      case "AssignmentPattern": this.bindPattern(p.left, target); this.expr(p.right); return;
      default: throw new Refusal(`it has a binding pattern gpuc does not check (${p.type})`);
    }
  }

  private ref(name: string, kind: Ref["kind"]): void { this.refs.push({ name, scope: this.scope, kind }); }

  // -- statements

  private statements(body: any[]): void { for (const s of body) this.stmt(s); }

  private block(body: any[]): void {
    this.push(false);
    this.hoistBlock(body);
    this.statements(body);
    this.pop();
  }

  private stmt(s: any): void {
    switch (s.type) {
      case "ExpressionStatement": this.expr(s.expression); return;
      case "BlockStatement": this.block(s.body); return;
      case "EmptyStatement": case "DebuggerStatement": case "BreakStatement": case "ContinueStatement": return;
      case "ReturnStatement": if (s.argument) this.expr(s.argument); return;
      case "ThrowStatement": this.expr(s.argument); return;
      case "LabeledStatement": this.stmt(s.body); return;
      case "IfStatement": this.expr(s.test); this.stmt(s.consequent); if (s.alternate) this.stmt(s.alternate); return;
      case "WhileStatement": this.expr(s.test); this.stmt(s.body); return;
      case "DoWhileStatement": this.stmt(s.body); this.expr(s.test); return;
      case "ForStatement": {
        const scoped = s.init?.type === "VariableDeclaration" && s.init.kind !== "var";
        if (scoped) { this.push(false); for (const d of s.init.declarations) this.bindPattern(d.id, this.scope); }
        if (s.init) { if (s.init.type === "VariableDeclaration") this.varDecl(s.init, scoped); else this.expr(s.init); }
        if (s.test) this.expr(s.test);
        if (s.update) this.expr(s.update);
        this.stmt(s.body);
        if (scoped) this.pop();
        return;
      }
      case "ForInStatement": case "ForOfStatement": {
        const left = s.left;
        const scoped = left.type === "VariableDeclaration" && left.kind !== "var";
        if (scoped) { this.push(false); for (const d of left.declarations) this.bindPattern(d.id, this.scope); }
        if (left.type === "VariableDeclaration") this.varDecl(left, scoped);
        else this.target(left);
        this.expr(s.right);
        this.stmt(s.body);
        if (scoped) this.pop();
        return;
      }
      case "SwitchStatement":
        this.expr(s.discriminant);
        this.push(false);
        for (const c of s.cases) this.hoistBlock(c.consequent);
        for (const c of s.cases) { if (c.test) this.expr(c.test); this.statements(c.consequent); }
        this.pop();
        return;
      case "TryStatement":
        this.stmt(s.block);
        if (s.handler) {
          this.push(false);
          if (s.handler.param) this.bindPattern(s.handler.param, this.scope);
          this.stmt(s.handler.body);
          this.pop();
        }
        if (s.finalizer) this.stmt(s.finalizer);
        return;
      case "VariableDeclaration": this.varDecl(s, s.kind !== "var"); return;
      case "FunctionDeclaration": this.fn(s, false); return;
      case "ClassDeclaration": this.cls(s); return;
      case "WithStatement": throw new Refusal("it has a 'with' statement, which makes every name it uses unresolvable");
      default: throw new Refusal(`it has a statement gpuc does not check (${s.type})`);
    }
  }

  /** A declaration's initializers; `var` names go to the function scope (lexical ones are already hoisted). */
  private varDecl(d: any, lexical: boolean): void {
    for (const x of d.declarations) {
      if (!lexical) this.bindPattern(x.id, this.functionScope());
      else this.patternDefaults(x.id);
      if (x.init) this.expr(x.init);
    }
  }

  /** The references inside an already-declared pattern (default values, computed keys). */
  private patternDefaults(p: any): void {
    switch (p.type) {
      case "Identifier": return;
      case "ObjectPattern": for (const prop of p.properties) {
        if (prop.type === "RestElement") this.patternDefaults(prop.argument);
        else { if (prop.computed) this.expr(prop.key); this.patternDefaults(prop.value); }
      } return;
      case "ArrayPattern": for (const e of p.elements) if (e) this.patternDefaults(e); return;
      case "RestElement": this.patternDefaults(p.argument); return;
      case "AssignmentPattern": this.patternDefaults(p.left); this.expr(p.right); return;
      default: throw new Refusal(`it has a binding pattern gpuc does not check (${p.type})`);
    }
  }

  /** A function: its name (for expressions, seen only inside), parameters, `arguments` and body. */
  private fn(f: any, expression: boolean): void {
    const arrow = f.type === "ArrowFunctionExpression";
    const body = f.body?.type === "BlockStatement" ? f.body.body : null;
    const strict = this.scope.strict || (body !== null && isStrictBody(body));
    // An arrow has no `this` or `arguments` of its own; it is a function scope for its
    // parameters and declarations that keeps the enclosing `this`.
    const s = this.push(true, strict, arrow ? "lexical" : "plain");
    if (!arrow) s.names.add("arguments");
    if (expression && f.id) s.names.add(f.id.name);
    for (const p of f.params) this.bindPattern(p, s);
    if (body) { this.hoistBlock(body); this.statements(body); }
    else if (f.body) this.expr(f.body);
    this.pop();
  }

  /** Whether `this` at the current point cannot be the global object. */
  private thisIsBound(): boolean {
    for (let s: Scope | null = this.scope; s; s = s.parent) {
      if (!s.fn || s.thisKind === "lexical") continue;
      return s.thisKind === "bound" || s.strict;
    }
    return false;
  }

  private cls(c: any): void {
    if (c.type === "ClassDeclaration" && c.id) this.scope.names.add(c.id.name);
    if (c.superClass) this.expr(c.superClass);
    // Class code is strict; `this` in field initializers and static blocks is the instance or the class.
    this.push(false, true);
    if (c.id) this.scope.names.add(c.id.name);
    for (const m of c.body.body) {
      if (m.type === "StaticBlock") {
        this.push(true, true, "bound");
        this.hoistBlock(m.body);
        this.statements(m.body);
        this.pop();
        continue;
      }
      if (m.computed) this.expr(m.key);
      if (m.type === "MethodDefinition") this.fn(m.value, false);
      else if (m.type === "PropertyDefinition" || m.type === "AccessorProperty") {
        if (m.value) { this.push(true, true, "bound"); this.expr(m.value); this.pop(); }
      } else throw new Refusal(`it has a class member gpuc does not check (${m.type})`);
    }
    this.pop();
  }

  /** An assignment target: a name written, or a member expression, or a destructuring pattern. */
  private target(t: any): void {
    switch (t.type) {
      case "Identifier": this.ref(t.name, "write"); return;
      case "MemberExpression": this.expr(t); return;
      case "ObjectPattern":
        for (const prop of t.properties) {
          if (prop.type === "RestElement") this.target(prop.argument);
          else { if (prop.computed) this.expr(prop.key); this.target(prop.value); }
        }
        return;
      case "ArrayPattern": for (const e of t.elements) if (e) this.target(e); return;
      case "RestElement": this.target(t.argument); return;
      case "AssignmentPattern": this.target(t.left); this.expr(t.right); return;
      case "ParenthesizedExpression": this.target(t.expression); return;
      default: throw new Refusal(`it assigns to something gpuc does not check (${t.type})`);
    }
  }

  // -- expressions

  private expr(e: any): void {
    switch (e.type) {
      case "Identifier": this.ref(e.name, "read"); return;
      case "Literal": case "Super": return;
      case "ThisExpression":
        if (!this.thisIsBound()) throw new Refusal("it uses 'this' in sloppy-mode code, where it is the global object");
        return;
      case "TemplateLiteral": for (const x of e.expressions) this.expr(x); return;
      case "TaggedTemplateExpression": this.expr(e.tag); this.expr(e.quasi); return;
      case "ArrayExpression": for (const x of e.elements) if (x) this.expr(x); return;
      case "ObjectExpression":
        for (const p of e.properties) {
          if (p.type === "SpreadElement") { this.expr(p.argument); continue; }
          if (p.computed) this.expr(p.key);
          this.expr(p.value); // a method's function, or (shorthand too) the value it reads
        }
        return;
      case "FunctionExpression": case "ArrowFunctionExpression": this.fn(e, true); return;
      case "ClassExpression": this.cls(e); return;
      case "UnaryExpression": case "AwaitExpression": case "SpreadElement": this.expr(e.argument); return;
      case "YieldExpression": if (e.argument) this.expr(e.argument); return;
      case "UpdateExpression": this.target(e.argument); return;
      case "BinaryExpression": case "LogicalExpression":
        if (e.left.type !== "PrivateIdentifier") this.expr(e.left);
        this.expr(e.right);
        return;
      case "AssignmentExpression":
        this.target(e.left);
        this.expr(e.right);
        return;
      case "ConditionalExpression": this.expr(e.test); this.expr(e.consequent); this.expr(e.alternate); return;
      case "CallExpression": case "NewExpression":
        if (e.callee.type === "Identifier") this.ref(e.callee.name, "call");
        else this.expr(e.callee);
        for (const x of e.arguments) this.expr(x);
        return;
      case "MemberExpression":
        this.expr(e.object);
        if (e.computed) this.expr(e.property);
        return;
      case "ChainExpression": case "ParenthesizedExpression": this.expr(e.expression); return;
      case "SequenceExpression": for (const x of e.expressions) this.expr(x); return;
      case "MetaProperty":
        if (e.meta.name === "import") throw new Refusal("it uses 'import.meta'");
        return;
      case "ImportExpression": throw new Refusal("it imports a module (import())");
      default: throw new Refusal(`it has an expression gpuc does not check (${e.type})`);
    }
  }
}

function unlabel(s: any): any {
  while (s.type === "LabeledStatement") s = s.body;
  return s;
}
