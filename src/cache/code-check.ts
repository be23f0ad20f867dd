// Code checks for artifacts read back from a disk cache or a kernel image (DESIGN §4): does the
// code define, or may it use, every function and name it refers to? gpuc's back ends never emit
// a reference to something undefined (an unresolvable call is a CompileError), so such code was
// made by something else or damaged: it is discarded and the kernel compiled afresh.
//
// This is a consistency check on code, not a sandbox: JavaScript that reaches the global object
// through values it may use (`Math.constructor.constructor`) is beyond what is checked here.
//
//  - js: the code is the body the CPU device runs as `new Function(...bindings, code + "\nreturn
//    " + entry + ";")`. It is parsed (oxc-parser) as a script and walked with JavaScript's
//    scoping rules; each free name must be a binding or one of the few globals gpuc's JS back end
//    emits (JS_GLOBALS). `import()`, `import.meta`, `with` and sloppy-mode `this` are refused.
//  - wgsl: comments stripped and the text tokenized; every call `f(` or `f<…>(` must name a
//    function of the module, a struct or alias, a WGSL built-in function or a built-in type.
//  - ptx: comments stripped and the text tokenized; every `call` must name a `.func` defined in
//    the module (a call through a register, and any `.extern`, is refused).

import { JS_RESERVED_WORDS } from "../js-reserved.js";

type ParseSync = typeof import("oxc-parser").parseSync;
let parser: Promise<ParseSync> | null = null;
/** oxc-parser, loaded on the first JavaScript check (never at gpuc's import: a warm start loads no parser). */
const jsParser = (): Promise<ParseSync> => (parser ??= import("../frontend/oxc.js").then((m) => m.parseSync));

export interface CheckedArtifact {
  target: string;
  code: string | Uint8Array;
  entry: string;
  bindings?: readonly string[];
}

/** Why the code of an artifact refers to something it neither defines nor is given, or null. */
export async function checkCode(a: CheckedArtifact): Promise<string | null> {
  switch (a.target) {
    case "js":
    case "wgsl":
    case "ptx":
      if (typeof a.code !== "string") return "its code is not text";
      if (a.target === "js") return checkJS(a.code, a.entry, a.bindings ?? [], await jsParser());
      return a.target === "wgsl" ? checkWGSL(a.code, a.entry) : checkPTX(a.code, a.entry);
    default:
      return null;
  }
}

// ---- JavaScript ---------------------------------------------------------------------------------

/**
 * The globals gpuc's JS back end emits (src/targets/js/*.ts, src/ir/ops.ts): `Math.*` (fround,
 * imul, clz32, min/max, the f64 functions), `Number.isFinite`, the typed arrays of TYPED_ARRAY
 * (private and shared arrays, per-thread storage), `ArrayBuffer` (the bit-cast prelude),
 * `Array.from` (per-thread private arrays of region kernels), and the constants `NaN`,
 * `Infinity` (and `undefined`, harmless). Nothing else: no `globalThis`, `process`, `eval`,
 * `Function`, `require`, `console`. A back end that starts emitting another global must add it
 * here (fresh code that fails this check is an internal error, so the tests would say so).
 */
export const JS_GLOBALS: ReadonlySet<string> = new Set([
  "Math", "Number", "Array", "ArrayBuffer",
  "Uint8Array", "Int32Array", "Uint32Array", "Float32Array", "Float64Array",
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

function checkJS(code: string, entry: string, bindings: readonly string[], parseSync: ParseSync): string | null {
  const seen = new Set<string>();
  for (const b of bindings) {
    if (!PLAIN_NAME.test(b) || RESERVED.has(b)) return `its binding '${b}' is not a plain name`;
    if (seen.has(b)) return `its binding '${b}' is given twice`;
    seen.add(b);
  }
  const r = parseSync("artifact.js", code, { lang: "js", sourceType: "script", preserveParens: false, showSemanticErrors: true });
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

// ---- Tokens (WGSL and PTX) ----------------------------------------------------------------------

// A hand-written scanner (several times faster than a sticky regular expression per token).
// Names: PTX `[.%$A-Za-z_][\w$.]*` (directives, dotted opcodes and registers are one token);
// WGSL `[A-Za-z_][\w]*` and any non-ASCII character (WGSL's XID names). Numbers: a digit and
// then letters, digits, `.` and an exponent's sign. Operators: the comparisons, shifts, `&&`,
// `||` as one token (templates need them); anything else one character per token.

type Lang = "wgsl" | "ptx";

const isDigit = (c: number): boolean => c >= 48 && c <= 57;
const isAlpha = (c: number): boolean => (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
/** Whether a token (non-empty) is a name: WGSL `[A-Za-z_]…` or non-ASCII; PTX also `.`, `%`, `$`. */
function isNameToken(t: string): boolean {
  const c = t.charCodeAt(0);
  return isAlpha(c) || c >= 128;
}
function isNameStart(c: number, lang: Lang): boolean {
  return isAlpha(c) || (lang === "wgsl" ? c >= 128 : c === 46 || c === 37 || c === 36);
}
function isNamePart(c: number, lang: Lang): boolean {
  return isAlpha(c) || isDigit(c) || (lang === "wgsl" ? c >= 128 : c === 46 || c === 36);
}

/** The comment-free tokens of a text, or why it cannot be split into them. */
function tokenize(code: string, lang: Lang): { tokens: string[] } | { error: string } {
  const tokens: string[] = [];
  const n = code.length;
  let i = 0;
  while (i < n) {
    const c = code.charCodeAt(i);
    if (c === 32 || c === 10 || c === 9 || c === 13 || c === 12 || c === 11) { i++; continue; }
    if (c === 47 /* / */) {
      const d = code.charCodeAt(i + 1);
      if (d === 47) { const e = code.indexOf("\n", i + 2); i = e < 0 ? n : e + 1; continue; }
      if (d === 42) {
        // WGSL's block comments nest; PTX's (C's) do not.
        let depth = 1;
        let j = i + 2;
        while (j < n && depth > 0) {
          const x = code.charCodeAt(j);
          if (x === 42 && code.charCodeAt(j + 1) === 47) { depth--; j += 2; }
          else if (lang === "wgsl" && x === 47 && code.charCodeAt(j + 1) === 42) { depth++; j += 2; }
          else j++;
        }
        if (depth > 0) return { error: "a /* comment does not end" };
        i = j;
        continue;
      }
    }
    let j = i + 1;
    if (isNameStart(c, lang)) {
      while (j < n && isNamePart(code.charCodeAt(j), lang)) j++;
    } else if (isDigit(c) || (c === 46 && isDigit(code.charCodeAt(j)))) {
      for (; j < n; j++) {
        const x = code.charCodeAt(j);
        if (isAlpha(x) || isDigit(x) || x === 46) continue;
        // An exponent's sign: 1e-3, 0x1p+4.
        const e = code.charCodeAt(j - 1) | 32;
        if ((x === 43 || x === 45) && (e === 101 || e === 112) && isDigit(code.charCodeAt(j + 1))) continue;
        break;
      }
    } else if (c === 34 /* " */ && lang === "ptx") {
      while (j < n && code.charCodeAt(j) !== 34 && code.charCodeAt(j) !== 10) j += code.charCodeAt(j) === 92 ? 2 : 1;
      if (code.charCodeAt(j) !== 34) return { error: "a string does not end" };
      j++;
    } else if (c === 60 || c === 62) {
      // < <= << <<=  and  > >= >> >>=
      const d = code.charCodeAt(j);
      if (d === c) { j++; if (code.charCodeAt(j) === 61) j++; }
      else if (d === 61) j++;
    } else if ((c === 61 || c === 33) && code.charCodeAt(j) === 61) j++; // == !=
    else if ((c === 38 || c === 124) && code.charCodeAt(j) === c) j++; // && ||
    tokens.push(j === i + 1 ? code[i] : code.slice(i, j));
    i = j;
  }
  return { tokens };
}

/** Index just past the group opened at `open` (`(`/`)` or `[`/`]`, nesting both), or -1. */
function skipGroup(t: string[], open: number): number {
  let depth = 0;
  for (let j = open; j < t.length; j++) {
    const x = t[j];
    if (x === "(" || x === "[") depth++;
    else if (x === ")" || x === "]") { if (--depth === 0) return j + 1; }
  }
  return -1;
}

// ---- WGSL -----------------------------------------------------------------------------------------

/** The built-in functions of WGSL (the W3C specification, §17), besides the type constructors below. */
const WGSL_BUILTIN_FUNCTIONS = [
  // Bit reinterpretation, logical, array.
  "bitcast", "all", "any", "select", "arrayLength",
  // Numeric.
  "abs", "acos", "acosh", "asin", "asinh", "atan", "atanh", "atan2", "ceil", "clamp", "cos", "cosh",
  "countLeadingZeros", "countOneBits", "countTrailingZeros", "cross", "degrees", "determinant", "distance", "dot",
  "dot4U8Packed", "dot4I8Packed", "exp", "exp2", "extractBits", "faceForward", "firstLeadingBit", "firstTrailingBit",
  "floor", "fma", "fract", "frexp", "insertBits", "inverseSqrt", "ldexp", "length", "log", "log2", "max", "min", "mix",
  "modf", "normalize", "pow", "quantizeToF16", "radians", "reflect", "refract", "reverseBits", "round", "saturate",
  "sign", "sin", "sinh", "smoothstep", "sqrt", "step", "tan", "tanh", "transpose", "trunc",
  // Derivatives (fragment stage only, but built in all the same).
  "dpdx", "dpdxCoarse", "dpdxFine", "dpdy", "dpdyCoarse", "dpdyFine", "fwidth", "fwidthCoarse", "fwidthFine",
  // Textures.
  "textureDimensions", "textureGather", "textureGatherCompare", "textureLoad", "textureNumLayers", "textureNumLevels",
  "textureNumSamples", "textureSample", "textureSampleBias", "textureSampleCompare", "textureSampleCompareLevel",
  "textureSampleGrad", "textureSampleLevel", "textureSampleBaseClampToEdge", "textureStore",
  // Atomics.
  "atomicLoad", "atomicStore", "atomicAdd", "atomicSub", "atomicMax", "atomicMin", "atomicAnd", "atomicOr", "atomicXor",
  "atomicExchange", "atomicCompareExchangeWeak",
  // Data packing and unpacking.
  "pack4x8snorm", "pack4x8unorm", "pack4xI8", "pack4xU8", "pack4xI8Clamp", "pack4xU8Clamp", "pack2x16snorm",
  "pack2x16unorm", "pack2x16float", "unpack4x8snorm", "unpack4x8unorm", "unpack4xI8", "unpack4xU8",
  "unpack2x16snorm", "unpack2x16unorm", "unpack2x16float",
  // Synchronization.
  "storageBarrier", "textureBarrier", "workgroupBarrier", "workgroupUniformLoad",
  // Subgroups and quads (the `subgroups` extension).
  "subgroupAdd", "subgroupExclusiveAdd", "subgroupInclusiveAdd", "subgroupAll", "subgroupAnd", "subgroupAny",
  "subgroupBallot", "subgroupBroadcast", "subgroupBroadcastFirst", "subgroupElect", "subgroupMax", "subgroupMin",
  "subgroupMul", "subgroupExclusiveMul", "subgroupInclusiveMul", "subgroupOr", "subgroupShuffle", "subgroupShuffleDown",
  "subgroupShuffleUp", "subgroupShuffleXor", "subgroupXor",
  "quadBroadcast", "quadSwapDiagonal", "quadSwapX", "quadSwapY",
];

/** Built-in types a call may name (value constructors and conversions; `atomic` and `ptr` never construct, but are no unknown name). */
const WGSL_BUILTIN_TYPES = (() => {
  const out = ["bool", "f16", "f32", "i32", "u32", "array", "atomic", "ptr"];
  for (const n of [2, 3, 4]) {
    out.push(`vec${n}`, ...["f", "h", "i", "u"].map((s) => `vec${n}${s}`));
    for (const m of [2, 3, 4]) out.push(`mat${n}x${m}`, `mat${n}x${m}f`, `mat${n}x${m}h`);
  }
  return out;
})();

const WGSL_CALLABLE_BUILTINS: ReadonlySet<string> = new Set([...WGSL_BUILTIN_FUNCTIONS, ...WGSL_BUILTIN_TYPES]);

/** Keywords that may be followed by `(` without being a call. */
const WGSL_KEYWORDS: ReadonlySet<string> = new Set([
  "alias", "break", "case", "const", "const_assert", "continue", "continuing", "default", "diagnostic", "discard", "else",
  "enable", "false", "fn", "for", "if", "let", "loop", "override", "requires", "return", "struct", "switch", "true", "var", "while",
]);


/** Index of the `(` after a template list opened at `lt` (`f<…>(`), or -1 when it is no template list before a call. */
function wgslTemplateCall(t: string[], lt: number): number {
  let depth = 0;
  for (let j = lt; j < t.length; j++) {
    const x = t[j];
    if (x === "<") {
      if (j !== lt && !isNameToken(t[j - 1])) return -1;
      depth++;
    } else if (x === ">" || x === ">>") {
      depth -= x.length;
      if (depth === 0) return t[j + 1] === "(" ? j + 1 : -1;
      if (depth < 0) return -1;
    } else if (x === "(" || x === "[") {
      const k = skipGroup(t, j);
      if (k < 0) return -1;
      j = k - 1;
    } else if (x === ";" || x === "{" || x === "}" || x === ")" || x === "]" || x === "=" || x === ":" || x === "&&" || x === "||" || x === "<=" || x === ">=" || x === "<<" || x === "<<=" || x === ">>=") return -1;
  }
  return -1;
}

function checkWGSL(code: string, entry: string): string | null {
  const tk = tokenize(code, "wgsl");
  if ("error" in tk) return `it cannot be parsed: ${tk.error}`;
  const t = tk.tokens;
  const fns = new Map<string, string[]>(); // name → its attributes
  const types = new Set<string>();
  const values = new Set<string>();
  let attrs: string[] = [];
  for (let i = 0; i < t.length; i++) {
    const x = t[i];
    if (x === "@" && i + 1 < t.length) {
      attrs.push(t[i + 1]);
      if (t[i + 2] === "(") { const k = skipGroup(t, i + 2); if (k > 0) i = k - 1; else i++; }
      else i++;
      continue;
    }
    const next = t[i + 1];
    if (x === "fn" && next !== undefined) { fns.set(next, attrs); }
    else if ((x === "struct" || x === "alias") && next !== undefined) types.add(next);
    else if (x === "let" || x === "const" || x === "override") { if (next !== undefined) values.add(next); }
    else if (x === "var") {
      let j = i + 1;
      if (t[j] === "<") { while (j < t.length && t[j] !== ">") j++; j++; }
      if (j < t.length) values.add(t[j]);
    } else if (x === "(" || x === ",") {
      // A function parameter (`name: type`, after its attributes), or a struct member: a value either way.
      let j = i + 1;
      while (t[j] === "@") { j += 2; if (t[j] === "(") { const k = skipGroup(t, j); if (k < 0) break; j = k; } }
      if (t[j + 1] === ":" && t[j] !== undefined && isNameToken(t[j])) values.add(t[j]);
    }
    attrs = [];
  }
  const entryAttrs = fns.get(entry);
  if (!entryAttrs) return `its entry '${entry}' is not defined`;
  if (!entryAttrs.includes("compute")) return `its entry '${entry}' is not a @compute function`;
  for (let i = 0; i < t.length; i++) {
    const x = t[i];
    if (!isNameToken(x) || WGSL_KEYWORDS.has(x)) continue;
    const prev = t[i - 1];
    if (prev === "@" || prev === "fn") continue;
    const next = t[i + 1];
    if (next !== "(" && !(next === "<" && wgslTemplateCall(t, i + 1) > 0)) continue;
    if (fns.has(x) || types.has(x) || WGSL_CALLABLE_BUILTINS.has(x)) continue;
    return values.has(x) ? `it calls '${x}', which is not a function` : `it calls '${x}', which it does not define`;
  }
  return null;
}

// ---- PTX ------------------------------------------------------------------------------------------

const PTX_NAME = /^[A-Za-z_$%][\w$]*$/;

function checkPTX(code: string, entry: string): string | null {
  const tk = tokenize(code, "ptx");
  if ("error" in tk) return `it cannot be parsed: ${tk.error}`;
  const t = tk.tokens;
  const entries = new Set<string>();
  const funcs = new Set<string>();
  const declared = new Set<string>();
  const calls: string[] = [];
  let depth = 0;
  let start = true; // at the start of an instruction (inside a body)
  for (let i = 0; i < t.length; i++) {
    const x = t[i];
    if (x === ".extern") {
      // The symbol: the first name after the directives and any parameter list.
      let j = i + 1;
      while (j < t.length && (t[j][0] === "." || t[j] === "(" || /^\d/.test(t[j]))) {
        if (t[j] === "(") { const k = skipGroup(t, j); if (k < 0) break; j = k; } else j++;
      }
      const name = t[j] !== undefined && PTX_NAME.test(t[j]) ? t[j] : "?";
      return `it declares an external symbol '${name}' (.extern)`;
    }
    if (x === "{") { depth++; start = true; continue; }
    if (x === "}") {
      if (--depth < 0) return "it cannot be parsed: a '}' closes nothing";
      start = true;
      continue;
    }
    if (x === ";") { start = true; continue; }
    if (depth === 0) {
      if (x !== ".entry" && x !== ".func") continue;
      let j = i + 1;
      if (x === ".func" && t[j] === "(") { j = skipGroup(t, j); if (j < 0) return "it cannot be parsed: a .func return parameter list does not end"; }
      const name = t[j];
      if (name === undefined || !PTX_NAME.test(name)) return `it cannot be parsed: a ${x} without a name`;
      j++;
      if (t[j] === "(") { j = skipGroup(t, j); if (j < 0) return `it cannot be parsed: the parameter list of '${name}' does not end`; }
      while (j < t.length && t[j] !== "{" && t[j] !== ";") j++;
      if (t[j] === "{") (x === ".entry" ? entries : funcs).add(name);
      else declared.add(name);
      i = j - 1;
      continue;
    }
    if (!start) continue;
    // Labels (`name:`) and predicate guards (`@%p`, `@!%p`) precede an instruction.
    if (t[i + 1] === ":" && PTX_NAME.test(x)) { i++; continue; }
    if (x === "@") { i += t[i + 1] === "!" ? 2 : 1; continue; }
    start = false;
    if (x !== "call" && !x.startsWith("call.")) continue;
    let j = i + 1;
    if (t[j] === "(") {
      j = skipGroup(t, j);
      if (j < 0 || t[j] !== ",") return "it cannot be parsed: a call's return parameter list is malformed";
      j++;
    }
    const target = t[j];
    if (target === undefined || !PTX_NAME.test(target)) return `it cannot be parsed: a call without a target`;
    if (target[0] === "%") return `it makes an indirect call (call through register ${target})`;
    calls.push(target);
  }
  if (depth !== 0) return "it cannot be parsed: a '{' is not closed";
  if (!entries.has(entry)) return funcs.has(entry) ? `its entry '${entry}' is a .func, not an .entry` : `its entry '${entry}' is not defined`;
  for (const target of calls) {
    if (funcs.has(target)) continue;
    if (entries.has(target)) return `it calls '${target}', which is a kernel entry, not a function`;
    return declared.has(target) ? `it calls '${target}', which it declares but does not define` : `it calls '${target}', which it does not define`;
  }
  return null;
}
