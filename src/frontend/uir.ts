// The untyped IR: the kernel's syntax tree after parsing and name resolution.
//
// Invariants: every name is resolved (a local slot, a scope value, a function, an intrinsic);
// every node keeps the span of the source it came from; nothing outside the kernel language
// survives (the lowering reports it as a CompileError). Types are not known yet: inference
// (src/infer) walks this tree per method instance.

import type { SourceText, Span } from "./source.js";
import type { Diagnostic } from "../errors.js";

export type ScalarName = "bool" | "i32" | "u32" | "f32" | "f64";
/** An array's element type: a scalar or a narrow integer (ir/types.ts `Elem`). */
export type ElemName = ScalarName | "i8" | "u8" | "u8c" | "i16" | "u16";
/** A declared type: from a TS annotation, the `types` option or the CLI's --types. */
export type TypeName = ScalarName | `${ElemName}[]`;

export interface UVar {
  name: string;
  kind: "param" | "let" | "const" | "var";
  span: Span;
  declared: TypeName | null;
}

/** A function the kernel language can call: the kernel itself, a helper from scope, or a nested declaration. */
export interface UFunction {
  id: number;
  name: string;
  source: SourceText;
  span: Span;
  params: number[];        // indices into vars
  vars: UVar[];
  body: UStmt[];
  declaredReturn: TypeName | null;
  /** For a function declared in another: the names of that function's locals it reads, passed after the declared parameters. */
  captures?: string[];
  /**
   * Those of `captures` it assigns (C++'s `[&]`), itself or through a local function it calls:
   * each call copies them back into the caller's locals when it returns (infer/calls.ts).
   */
  writtenCaptures?: string[];
  /** Errors only where the function is a kernel, not a helper (a parameter's default value, a rest parameter). */
  kernelDiagnostics?: Diagnostic[];
  /** `...rest`: its last declared parameter takes the call's remaining arguments, as a tuple. */
  rest?: true;
}

/**
 * A constant table from scope: its elements (a table of tables flattened row by row, with its
 * `dims`); `rewritable`: its values may be replaced between launches (never folded into the code).
 */
export interface UTable { name: string; value: Float32Array | Float64Array | Int32Array | Uint32Array; dims?: readonly number[]; rewritable?: boolean }

export type UCallee =
  | { k: "intrinsic"; name: string }        // Math.sqrt, Number.isNaN, ...
  | { k: "function"; fn: () => UFunction }  // a helper, lowered on first use
  /** A generated function: `gen` builds the function for the call's argument types. */
  | { k: "generated"; gen: Function; name: string }
  /** A variable holding a function value (a helper's parameter given one): resolved at inference. */
  | { k: "var"; v: number; name: string }
  /** Anything else: a CompileError at inference, unless the front end already reported why. */
  | { k: "dynamic"; name: string; reported?: boolean };

export type UExpr = { span: Span } & (
  /** A literal (`literal` set) or a scope number: weakly typed. */
  | { k: "num"; value: number; isFloat: boolean; literal?: boolean }
  | { k: "bool"; value: boolean }
  /** A string; a template literal with substitutions has them (`template`: its text pieces around them), its `value` then its source text. */
  | { k: "str"; value: string; template?: { quasis: string[]; exprs: UExpr[] } }
  /** `null`, or `undefined` (`undef`): what an optional array argument may be instead. */
  | { k: "null"; undef: boolean }
  | { k: "var"; v: number }
  /**
   * A function used as a value (passed to a helper, bound to a const): what it calls; `env`, a
   * local function's captured locals, read where the value is made (its calls pass them last).
   */
  | { k: "fn"; callee: Exclude<UCallee, { k: "var" } | { k: "dynamic" }>; name: string; env?: UExpr[] }
  | { k: "table"; table: UTable }
  | { k: "builtin"; name: string }                  // threadIdx.x, ...
  | { k: "length"; array: UExpr }
  /**
   * `{ x: a, ...p }`: an object value (scalarized by inference: no allocation). A field without a
   * name is a spread of another object value.
   */
  | { k: "object"; fields: { name: string | null; value: UExpr; span: Span }[] }
  /** `[a, b, ...t]`: a tuple value (a fixed-length array value; `spread`: the elements of another tuple). */
  | { k: "tuple"; elems: { value: UExpr; spread: boolean; span: Span }[] }
  /**
   * `p.x` of an object value; from destructuring also `t[0]` of a tuple (`element`), with the
   * pattern's default (`fallback`: used when the field is missing, as JS uses it for undefined).
   */
  | { k: "field"; object: UExpr; name: string; element?: boolean; fallback?: UExpr }
  | { k: "index"; array: UExpr; index: UExpr }
  /** `a.subarray(begin, end?)`: a view of an array. */
  | { k: "subarray"; array: UExpr; args: UExpr[] }
  | { k: "unary"; op: "-" | "+" | "!" | "~"; a: UExpr }
  /** `typeof a`: a string known when the kernel is compiled (its value's type). */
  | { k: "typeof"; a: UExpr }
  | { k: "binary"; op: string; a: UExpr; b: UExpr }
  | { k: "logical"; op: "&&" | "||" | "??"; a: UExpr; b: UExpr }
  | { k: "cond"; c: UExpr; a: UExpr; b: UExpr }
  /** `spread`: which arguments are spread (`f(...t)`, t a tuple: its elements). */
  | { k: "call"; callee: UCallee; args: UExpr[]; calleeSpan: Span; spread?: boolean[] }
  | { k: "assign"; op: string; target: UExpr; value: UExpr }   // target: var, index or field
  | { k: "update"; op: "++" | "--"; prefix: boolean; target: UExpr }
  | { k: "seq"; exprs: UExpr[] }
  /** Statements, then a value (an array's method written out as a loop: frontend/lower.ts, arrayMethod). */
  | { k: "stmts"; body: UStmt[]; value: UExpr }
  /** `new Float32Array(8)`: a private array of constant size. */
  /** `objects`: `new Array(n)` holding objects of one shape (an array of objects; `elem` unused). */
  | { k: "newArray"; elem: ElemName; size: UExpr; objects?: true }
  /** `new Uint32Array(f.buffer)`: the same memory as the array `f`, read as other elements (a bit cast). */
  | { k: "bitsView"; elem: ElemName; array: UExpr }
  /** `shared(Float32Array, 256)`: a shared-memory array of constant size. */
  /** `shared(Float32Array, 256)`, or with `dims`, `shared(Float32Array, [16, 17])` (size: the first dimension). */
  | { k: "sharedArray"; elem: ElemName; size: UExpr; dims?: UExpr[]; objects?: true }
);

export type UStmt = { span: Span } & (
  | { k: "expr"; e: UExpr }
  | { k: "decl"; v: number; init: UExpr | null }
  | { k: "if"; c: UExpr; then: UStmt[]; else: UStmt[] }
  /** for/while/do-while: init; loop { [test]; body; update } (test after the body for do-while). */
  | { k: "loop"; init: UStmt[]; test: UExpr | null; update: UExpr | null; body: UStmt[]; testFirst: boolean }
  | { k: "break" }
  | { k: "continue" }
  /** `implicit`: the expression body of an arrow function (a kernel discards its value). */
  | { k: "return"; e: UExpr | null; implicit?: boolean }
  | { k: "block"; body: UStmt[] }
  | { k: "switch"; selector: UExpr; cases: { test: UExpr | null; body: UStmt[]; span: Span }[] }
  /** `throw new Error("message")`: a device exception. */
  /** `template`: a message built from values (a template literal, or strings joined with +), a string UExpr. */
  | { k: "throw"; message: string; template?: UExpr }
);

/** The operands of an untyped expression, in evaluation order. */
function uexprOperands(e: UExpr): UExpr[] {
  switch (e.k) {
    case "length": return [e.array];
    case "object": return e.fields.map((f) => f.value);
    case "tuple": return e.elems.map((x) => x.value);
    case "field": return e.fallback ? [e.object, e.fallback] : [e.object];
    case "index": return [e.array, e.index];
    case "subarray": return [e.array, ...e.args];
    case "unary": case "typeof": return [e.a];
    case "binary": case "logical": return [e.a, e.b];
    case "cond": return [e.c, e.a, e.b];
    case "call": return e.args;
    case "fn": return e.env ?? [];
    case "assign": return [e.target, e.value];
    case "update": return [e.target];
    case "seq": return e.exprs;
    case "stmts": return [e.value];
    case "newArray": return [e.size];
    case "bitsView": return [e.array];
    case "sharedArray": return e.dims ?? [e.size];
    default: return [];
  }
}

/**
 * Visit every statement of a function body and every expression in it (a statement before its
 * expressions, an expression before its operands). `stop()` ends the walk early.
 */
export function walkUBody(body: UStmt[], onExpr: (e: UExpr) => void, onStmt: (s: UStmt) => void = () => {}, stop: () => boolean = () => false): void {
  function expr(e: UExpr | null): void {
    if (!e || stop()) return;
    onExpr(e);
    if (e.k === "stmts") stmts(e.body);
    for (const o of uexprOperands(e)) expr(o);
  }
  function stmts(list: UStmt[]): void {
    for (const s of list) {
      if (stop()) return;
      onStmt(s);
      switch (s.k) {
        case "expr": expr(s.e); break;
        case "decl": expr(s.init); break;
        case "if": expr(s.c); stmts(s.then); stmts(s.else); break;
        case "loop": stmts(s.init); expr(s.test); expr(s.update); stmts(s.body); break;
        case "return": expr(s.e); break;
        case "block": stmts(s.body); break;
        case "switch": expr(s.selector); for (const c of s.cases) { expr(c.test); stmts(c.body); } break;
        default: break;
      }
    }
  }
  stmts(body);
}
