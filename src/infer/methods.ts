// The method table: what the kernel language's global names mean (Math.*, Number.*, the thread
// indices, constants), and per-target overlays that replace or add implementations.
//
// A method receives typed values and builds IR through the small MethodBuilder interface; it
// never sees the builder's internals. Overlays are looked up before the global table, and only
// the overlay of the target being compiled for is consulted.

import { sizeText, type SizeExpr } from "../ir/size.js";
import type { CompileErrorKind } from "../errors.js";
import type { GlobalNames } from "../frontend/lower.js";
import type { Span } from "../frontend/source.js";
import type { AtomicOp, Builtin, ExprHandle, LocalHandle, SubgroupOp } from "../ir/module.js";
import type { OpName } from "../ir/ops.js";
import { T, isFloat, isInt, type Elem, type FnType, type ScalarType, type StructsType, type Type } from "../ir/types.js";

/** A value during inference: an IR expression of a type, an untyped constant, or a string. */
export type Val =
  | {
    k: "expr"; h: ExprHandle; t: Type;
    /**
     * `c ? 0.1 : 0.2`: a choice between two untyped constants, typed by default (like a lone
     * literal) but rebuilt at the type its context asks for — stored into a Float64Array or
     * combined with an f64 it keeps the constants' exact values, as JS does.
     */
    weakPair?: { cond: ExprHandle; a: number; b: number };
    /**
     * A read of a variable declared without a value that may not hold one yet (infer/unassigned.ts):
     * the local saying whether it does (false: JavaScript's `undefined`, which the value holds as
     * NaN, or false for a boolean) — what tests of undefined and equalities read.
     */
    defined?: LocalHandle;
  }
  /** A constant not yet given a type (literal, Math.PI, scope number): it takes its context's type. */
  | { k: "weak"; value: number; isFloat: boolean }
  /** A string: what console.log and Error take; from a template literal, with its substitutions' values. */
  | { k: "str"; value: string; template?: { quasis: string[]; values: Val[] } }
  /**
   * `null` or `undefined` (`undef`): an optional array argument that is absent, or the literal.
   * Known at specialization (the argument's type): tests of it are constants, and indexing it
   * raises a TypeError as JavaScript does (a KernelError at its line).
   */
  | { k: "null"; undef: boolean }
  /**
   * A function as a value (infer/function-values.ts): called, passed to a helper, bound to a const;
   * `env`, the values of the locals a local function captures (its calls pass them last).
   */
  | { k: "fn"; t: FnType; env?: Val[] }
  /**
   * An array of objects (a kernel's Array of `{ x, y }` argument): one array per leaf, in its
   * object type's order (`leaves`, structsLeaves), and the variable it was read from (for the
   * sharing rules). `at`: a fixed-length array inside an object (`a[i].nei`), its objects from
   * `offset` (i × its length) in the leaves, checked against its `length`.
   */
  | { k: "structs"; t: StructsType; leaves: ExprHandle[]; name: string; root?: number; at?: { offset: ExprHandle; length: ExprHandle } }
  /**
   * A row of a multi-dimensional shared array (`t[y]` of `shared(Float32Array, [16, 17])`):
   * the flat array, its shape, and the indices applied so far (each a constant or a temporary,
   * so that later evaluation cannot change them). Indexed to the end, it is an element.
   */
  | { k: "row"; array: ExprHandle; t: Extract<Type, { kind: "array" }>; shape: SharedShape; indices: ExprHandle[] }
  | ViewVal
  | AggVal;

/**
 * An object or tuple value (`{ x, y }`, `[lo, hi]`): its fields in source order, each a scalar
 * value or another aggregate. Inference-only: variables hold one IR local per leaf, helpers take
 * one parameter per leaf. `fresh`: this object is new (a literal, a copy, a helper's new object),
 * shared with no variable (its nested values say so for themselves); `root` and `path`: read from
 * that variable, at that path of fields ("*": any element), where the function assigns fields of
 * objects — JS would share the object read, so where it may go is restricted (aggregates.ts).
 */
export interface AggVal { k: "agg"; tuple: boolean; fields: { name: string; v: Val }[]; fresh: boolean; root?: number; path?: string[] }

/**
 * A view of an array (`a.subarray(b, e)`, a row passed to a helper, a view parameter): its base
 * array, offset and length (constants or local reads: each use copies them), and a name for
 * messages.
 */
export interface ViewVal {
  k: "view"; base: ExprHandle; t: Extract<Type, { kind: "array" }>; offset: ExprHandle; length: ExprHandle; name: string;
  /** A bit cast (`new Uint32Array(f.buffer)`): the base's element type, read and written as `t`'s by their bits. */
  bits?: Elem;
}

/** The shape of a multi-dimensional shared array: its name and dimensions (row-major). */
export interface SharedShape { name: string; dims: readonly Dim[]; /** A table of tables from scope (`c_Table[dim][bit]`), not a shared array. */ table?: true }

/** "shared array 't'", "table 'c_Table'": a shaped array in messages. */
export function arrayWhat(s: SharedShape): string { return `${s.table ? "table" : "shared array"} '${s.name}'`; }

/** A dimension: a constant, or a size computed at launch (ir/size.ts). */
export type Dim = number | SizeExpr;

/** A shape as text: [16][17], [blockDim.y][(blockDim.x + 1)]. */
export function shapeText(dims: readonly Dim[], params: readonly string[] = []): string {
  return dims.map((d) => `[${typeof d === "number" ? d : sizeText(d, params)}]`).join("");
}

export interface MethodBuilder {
  /** syncthreads(): every thread of the block waits for the others. */
  barrier(span: Span): Val;
  /** threadfence(), threadfenceBlock(): a memory fence (ir/module.ts, `fence`). */
  fence(scope: "device" | "block", span: Span): Val;
  /** An atomic read-modify-write on args[0][args[1]]; returns the old value. */
  atomic(op: AtomicOp, args: Val[], span: Span, name: string): Val;
  /** A builtin value (the thread indices, subgroupSize(), subgroupLaneId()), an i32. */
  builtin(name: Builtin, span: Span): Val;
  /** A subgroup operation (ir/module.ts SubgroupOp) on the threads of this thread's subgroup. */
  subgroup(op: SubgroupOp, args: Val[], span: Span, name: string): Val;
  /** console.log(…) from the device. */
  print(args: Val[], span: Span): Val;
  /** Call a kernel-language function (an overlay's implementation) as a helper. */
  callImplementation(impl: Function, args: Val[], span: Span, name: string): Val;
  /** The value as a scalar of a definite type (weak constants take their default type); reports non-scalars. */
  scalarType(v: Val, span: Span): ScalarType | null;
  /** Convert to `t` with JS semantics. */
  convert(v: Val, t: ScalarType, span: Span): ExprHandle;
  op(op: OpName, args: ExprHandle[], t: Type, span: Span): Val;
  /** A value to use more than once (expressions are trees): each call gives a read of it, computed once. */
  reusable(h: ExprHandle, span: Span): () => ExprHandle;
  /** Math.min/max of an i32 and a u32 by mathematical value (min: an i32, max: a u32). */
  minMaxMixed(op: "min" | "max", a: Val, ta: ScalarType, b: Val, tb: ScalarType, span: Span): Val;
  error(kind: CompileErrorKind, message: string, span: Span, hint?: string): Val;
  readonly unknown: Val;
}

export type Method = (b: MethodBuilder, args: Val[], span: Span, name: string) => Val;

export class MethodTable implements GlobalNames {
  private methods = new Map<string, Method>();
  private values = new Map<string, { k: "num"; value: number; isFloat: boolean } | { k: "builtin"; name: Builtin }>();
  private namespaces = new Set<string>();

  constructor(protected parent: MethodTable | null = null) {}

  defineMethod(path: string, m: Method): void { this.methods.set(path, m); this.noteNamespace(path); }
  defineConstant(path: string, value: number): void {
    this.values.set(path, { k: "num", value, isFloat: !Number.isInteger(value) || !Number.isFinite(value) || path.startsWith("Math.") });
    this.noteNamespace(path);
  }
  defineBuiltin(path: Builtin): void { this.values.set(path, { k: "builtin", name: path }); this.noteNamespace(path); }

  private noteNamespace(path: string): void {
    const dot = path.indexOf(".");
    if (dot > 0) this.namespaces.add(path.slice(0, dot));
  }

  method(path: string): Method | undefined { return this.methods.get(path) ?? this.parent?.method(path); }
  isFunction(path: string): boolean { return this.method(path) !== undefined; }
  value(path: string): { k: "num"; value: number; isFloat: boolean } | { k: "builtin"; name: Builtin } | undefined { return this.values.get(path) ?? this.parent?.value(path); }
  isNamespace(name: string): boolean { return this.namespaces.has(name) || (this.parent?.isNamespace(name) ?? false); }

  /** An overlay: a table consulted before this one, for one target (or one user library). */
  overlay(): MethodTable { return new MethodTable(this); }

  /** The table at the bottom of the overlay chain: the global one. */
  root(): MethodTable { return this.parent ? this.parent.root() : this; }
}

// ---- the global table ----------------------------------------------------------------------

/**
 * A constant computed at compile time (from literals, scope numbers and Math on them): an
 * integral result in i32 range is an integer, like the literal it equals (`BLOCK / 2`,
 * `Math.log2(256)` index arrays); any other result keeps `isFloat`.
 */
export function computedConstant(value: number, isFloat: boolean): Extract<Val, { k: "weak" }> {
  return { k: "weak", value, isFloat: isFloat && !(Number.isInteger(value) && value >= -0x80000000 && value <= 0x7fffffff) };
}

/** Weak constants fold at compile time with JS semantics. */
function allWeak(args: Val[]): args is Extract<Val, { k: "weak" }>[] {
  return args.every((a) => a.k === "weak");
}

/** Math functions of one float argument: integers are converted to f32 first. */
function floatUnary(op: OpName, fold: (x: number) => number): Method {
  return (b, args, span, name) => {
    if (args.length !== 1) return b.error("type", `${name} takes 1 argument, got ${args.length}`, span);
    if (allWeak(args)) return computedConstant(fold(args[0].value), true);
    const t = b.scalarType(args[0], span);
    if (!t) return b.unknown;
    const ft = isFloat(t) ? t : T.f32;
    return b.op(op, [b.convert(args[0], ft, span)], ft, span);
  };
}

/** Math functions of two float arguments. */
function floatBinary(op: OpName, fold: (x: number, y: number) => number): Method {
  return (b, args, span, name) => {
    if (args.length !== 2) return b.error("type", `${name} takes 2 arguments in kernels, got ${args.length}`, span);
    if (allWeak(args)) return computedConstant(fold(args[0].value, args[1].value), true);
    const ta = b.scalarType(args[0], span), tb = b.scalarType(args[1], span);
    if (!ta || !tb) return b.unknown;
    const ft = ta === T.f64 || tb === T.f64 ? T.f64 : T.f32;
    return b.op(op, [b.convert(args[0], ft, span), b.convert(args[1], ft, span)], ft, span);
  };
}

/** floor/ceil/round/trunc: identity on integers. */
function rounding(op: OpName, fold: (x: number) => number): Method {
  return (b, args, span, name) => {
    if (args.length !== 1) return b.error("type", `${name} takes 1 argument, got ${args.length}`, span);
    const a = args[0];
    if (a.k === "weak") return computedConstant(fold(a.value), a.isFloat);
    const t = b.scalarType(a, span);
    if (!t) return b.unknown;
    if (t === T.bool) return { k: "expr", h: b.convert(a, T.i32, span), t: T.i32 };
    if (isInt(t)) return a;
    return b.op(op, [b.convert(a, t, span)], t, span);
  };
}

/** abs/sign: on the argument's own numeric type. */
function numericUnary(op: OpName, fold: (x: number) => number): Method {
  return (b, args, span, name) => {
    if (args.length !== 1) return b.error("type", `${name} takes 1 argument, got ${args.length}`, span);
    const a = args[0];
    if (a.k === "weak") return computedConstant(fold(a.value), a.isFloat);
    let t = b.scalarType(a, span);
    if (!t) return b.unknown;
    if (t === T.bool) t = T.i32;
    return b.op(op, [b.convert(a, t, span)], t, span);
  };
}

/** Math.min / Math.max: any number of arguments, folded pairwise in their common type. */
function minmax(op: "min" | "max"): Method {
  const fold = op === "min" ? Math.min : Math.max;
  return (b, args, span) => {
    if (args.length === 0) return { k: "weak", value: fold(), isFloat: true };
    if (allWeak(args)) return computedConstant(fold(...args.map((a) => a.value)), args.some((a) => a.isFloat));
    let t: ScalarType | null = null;
    for (const a of args) {
      if (a.k === "weak") continue;
      const at = b.scalarType(a, span);
      if (!at) return b.unknown;
      t = !t ? at : joinForMath(t, at);
    }
    if (!t) return b.unknown;
    if (t === T.bool) t = T.i32;
    // A weak float among integer operands makes the operation float.
    if (isInt(t) && args.some((a) => a.k === "weak" && (a.isFloat || !Number.isInteger(a.value)))) t = T.f32;
    if (isInt(t)) {
      // Integers pairwise in their own types: an i32 with a u32 (or a constant only the other
      // integer type holds) is compared by mathematical value, as in JS (minMaxMixed).
      const intType = (a: Val): ScalarType => {
        if (a.k !== "weak") { const at = b.scalarType(a, span)!; return at === T.bool ? T.i32 : at; }
        const fits = (u: ScalarType) => (u === T.i32 ? a.value >= -0x80000000 && a.value <= 0x7fffffff : a.value >= 0 && a.value <= 0xffffffff);
        return fits(t!) ? t! : fits(T.i32) ? T.i32 : fits(T.u32) ? T.u32 : t!;
      };
      let accT = intType(args[0]);
      let acc: Val = { k: "expr", h: b.convert(args[0], accT, span), t: accT };
      for (const a of args.slice(1)) {
        const at = intType(a);
        if (at === accT) acc = b.op(op, [b.convert(acc, accT, span), b.convert(a, accT, span)], accT, span);
        else { acc = b.minMaxMixed(op, acc, accT, a, at, span); accT = op === "min" ? T.i32 : T.u32; }
      }
      return acc;
    }
    let acc: Val = { k: "expr", h: b.convert(args[0], t, span), t };
    for (const a of args.slice(1)) acc = b.op(op, [b.convert(acc, t, span), b.convert(a, t, span)], t, span);
    return acc;
  };
}

function joinForMath(a: ScalarType, b: ScalarType): ScalarType {
  const rank = { bool: 0, i32: 1, u32: 2, f32: 3, f64: 4 } as const;
  return rank[a.scalar] >= rank[b.scalar] ? a : b;
}

/** The global method table every target starts from. */
export function createGlobalMethodTable(): MethodTable {
  const t = new MethodTable();
  for (const [ns, fields] of [["threadIdx", "xyz"], ["blockIdx", "xyz"], ["blockDim", "xyz"], ["gridDim", "xyz"]] as const)
    for (const f of fields) t.defineBuiltin(`${ns}.${f}` as Builtin);

  for (const name of ["PI", "E", "LN2", "LN10", "LOG2E", "LOG10E", "SQRT2", "SQRT1_2"] as const) t.defineConstant(`Math.${name}`, Math[name]);
  for (const name of ["MAX_VALUE", "MIN_VALUE", "EPSILON", "MAX_SAFE_INTEGER", "MIN_SAFE_INTEGER", "POSITIVE_INFINITY", "NEGATIVE_INFINITY", "NaN"] as const)
    t.defineConstant(`Number.${name}`, Number[name]);
  t.defineConstant("Infinity", Infinity);
  t.defineConstant("NaN", NaN);

  const unaryFloat = ["sqrt", "cbrt", "exp", "expm1", "log", "log2", "log10", "log1p", "sin", "cos", "tan",
    "asin", "acos", "atan", "sinh", "cosh", "tanh", "asinh", "acosh", "atanh"] as const;
  for (const name of unaryFloat) t.defineMethod(`Math.${name}`, floatUnary(name, Math[name]));
  for (const name of ["floor", "ceil", "round", "trunc"] as const) t.defineMethod(`Math.${name}`, rounding(name, Math[name]));
  t.defineMethod("Math.abs", numericUnary("abs", Math.abs));
  t.defineMethod("Math.sign", numericUnary("sign", Math.sign));
  t.defineMethod("Math.pow", floatBinary("pow", Math.pow));
  t.defineMethod("Math.atan2", floatBinary("atan2", Math.atan2));
  t.defineMethod("Math.hypot", floatBinary("hypot", Math.hypot));
  t.defineMethod("Math.min", minmax("min"));
  t.defineMethod("Math.max", minmax("max"));

  t.defineMethod("Math.fround", (b, args, span) => {
    if (args.length !== 1) return b.error("type", `Math.fround takes 1 argument, got ${args.length}`, span);
    return { k: "expr", h: b.convert(args[0], T.f32, span), t: T.f32 };
  });
  t.defineMethod("Math.imul", (b, args, span) => {
    if (args.length !== 2) return b.error("type", `Math.imul takes 2 arguments, got ${args.length}`, span);
    if (allWeak(args)) return { k: "weak", value: Math.imul(args[0].value, args[1].value), isFloat: false };
    return b.op("mul", [b.convert(args[0], T.i32, span), b.convert(args[1], T.i32, span)], T.i32, span);
  });
  t.defineMethod("Math.clz32", (b, args, span) => {
    if (args.length !== 1) return b.error("type", `Math.clz32 takes 1 argument, got ${args.length}`, span);
    if (allWeak(args)) return { k: "weak", value: Math.clz32(args[0].value), isFloat: false };
    return b.op("clz32", [b.convert(args[0], T.u32, span)], T.i32, span);
  });
  // Number(x): a number as it is, a boolean as 1 or 0 (the values kernels have; a string or a
  // BigInt is none).
  t.defineMethod("Number", (b, args, span) => {
    if (args.length !== 1) return b.error("type", `Number() takes 1 argument in kernels, got ${args.length}`, span);
    const a = args[0];
    if (a.k === "weak") return a;
    const ty = b.scalarType(a, span);
    if (!ty) return b.unknown;
    return ty.scalar === "bool" ? { k: "expr", h: b.convert(a, T.i32, span), t: T.i32 } : { k: "expr", h: b.convert(a, ty, span), t: ty };
  });
  // Boolean(x): JavaScript's truthiness (0, -0 and NaN are false), as an if's test takes it.
  t.defineMethod("Boolean", (b, args, span) => {
    if (args.length !== 1) return b.error("type", `Boolean() takes 1 argument in kernels, got ${args.length}`, span);
    if (!b.scalarType(args[0], span)) return b.unknown;
    return { k: "expr", h: b.convert(args[0], T.bool, span), t: T.bool };
  });
  t.defineMethod("Math.random", (b, _args, span) =>
    b.error("unsupported-syntax", "Math.random() is not supported in kernels (no random state on the device)", span, "pass random numbers in an array"));

  const floatPredicate = (op: "isnan" | "isfinite", fold: (x: number) => boolean, onInt: boolean): Method => (b, args, span, name) => {
    if (args.length !== 1) return b.error("type", `${name} takes 1 argument, got ${args.length}`, span);
    const a = args[0];
    if (a.k === "weak") return { k: "expr", h: b.convert({ k: "weak", value: fold(a.value) ? 1 : 0, isFloat: false }, T.bool, span), t: T.bool };
    const ty = b.scalarType(a, span);
    if (!ty) return b.unknown;
    if (!isFloat(ty)) return { k: "expr", h: b.convert({ k: "weak", value: onInt ? 1 : 0, isFloat: false }, T.bool, span), t: T.bool };
    return b.op(op, [b.convert(a, ty, span)], T.bool, span);
  };
  t.defineMethod("Number.isNaN", floatPredicate("isnan", Number.isNaN, false));
  t.defineMethod("Number.isFinite", floatPredicate("isfinite", Number.isFinite, true));
  t.defineMethod("isNaN", floatPredicate("isnan", isNaN, false));
  t.defineMethod("isFinite", floatPredicate("isfinite", isFinite, true));
  // Number.isInteger(x), Number.isSafeInteger(x): a finite number equal to its truncation (and at
  // most 2^53 - 1 in magnitude); an integer type always is one, a boolean never.
  const integerTest = (fold: (x: number) => boolean, safe: boolean): Method => (b, args, span, name) => {
    if (args.length !== 1) return b.error("type", `${name} takes 1 argument, got ${args.length}`, span);
    const a = args[0];
    const constant = (v: boolean): Val => ({ k: "expr", h: b.convert({ k: "weak", value: v ? 1 : 0, isFloat: false }, T.bool, span), t: T.bool });
    if (a.k === "weak") return constant(fold(a.value));
    const ty = b.scalarType(a, span);
    if (!ty) return b.unknown;
    if (!isFloat(ty)) return constant(ty.scalar !== "bool");
    const handle = (v: Val): ExprHandle => (v.k === "expr" ? v.h : b.convert(v, T.bool, span));
    const x = b.reusable(b.convert(a, ty, span), span);
    const whole = b.op("land", [handle(b.op("isfinite", [x()], T.bool, span)), handle(b.op("eq", [handle(b.op("trunc", [x()], ty, span)), x()], T.bool, span))], T.bool, span);
    if (!safe) return whole;
    // (|x| < 2^53, which f32 holds exactly: 2^53 - 1 rounds up to it.)
    const bound = b.convert({ k: "weak", value: 2 ** 53, isFloat: true }, ty, span);
    return b.op("land", [handle(whole), handle(b.op("lt", [handle(b.op("abs", [x()], ty, span)), bound], T.bool, span))], T.bool, span);
  };
  t.defineMethod("Number.isInteger", integerTest(Number.isInteger, false));
  t.defineMethod("Number.isSafeInteger", integerTest(Number.isSafeInteger, true));

  t.defineMethod("syncthreads", (b, args, span) => (args.length ? b.error("type", "syncthreads() takes no arguments", span) : b.barrier(span)));
  t.defineMethod("threadfence", (b, args, span) => (args.length ? b.error("type", "threadfence() takes no arguments", span) : b.fence("device", span)));
  t.defineMethod("threadfenceBlock", (b, args, span) => (args.length ? b.error("type", "threadfenceBlock() takes no arguments", span) : b.fence("block", span)));
  t.defineMethod("console.log", (b, args, span) => b.print(args, span));
  const atomics: [string, AtomicOp][] = [["add", "add"], ["sub", "sub"], ["and", "and"], ["or", "or"], ["xor", "xor"],
    ["exchange", "exchange"], ["compareExchange", "compareExchange"], ["load", "load"], ["store", "store"]];
  // Each returns the old value, except Atomics.store, which returns the value stored.
  for (const [name, op] of atomics) t.defineMethod(`Atomics.${name}`, (b, args, span, n) => b.atomic(op, args, span, n));
  for (const name of ["subgroupSize", "subgroupLaneId"] as const)
    t.defineMethod(name, (b, args, span) => (args.length ? b.error("type", `${name}() takes no arguments`, span) : b.builtin(name, span)));
  // subgroupBroadcast(v, lane) is a shuffle whose lane every thread agrees on: the same operation.
  const subgroupOps: [string, SubgroupOp][] = [["Shuffle", "shuffle"], ["Broadcast", "shuffle"], ["ShuffleDown", "shuffleDown"], ["ShuffleUp", "shuffleUp"],
    ["ShuffleXor", "shuffleXor"], ["Add", "add"], ["Min", "min"], ["Max", "max"], ["Any", "any"], ["All", "all"], ["Ballot", "ballot"]];
  for (const [name, op] of subgroupOps) t.defineMethod(`subgroup${name}`, (b, args, span, n) => b.subgroup(op, args, span, n));
  // subgroupBarrier(): CUDA's __syncwarp(), a subgroup operation that exchanges nothing.
  t.defineMethod("subgroupBarrier", (b, args, span, n) => (args.length ? b.error("type", "subgroupBarrier() takes no arguments", span) : b.subgroup("barrier", [{ k: "weak", value: 1, isFloat: false }], span, n)));
  t.defineMethod("atomicAdd", (b, args, span, n) => b.atomic("add", args, span, n));
  t.defineMethod("atomicMin", (b, args, span, n) => b.atomic("min", args, span, n));
  t.defineMethod("atomicMax", (b, args, span, n) => b.atomic("max", args, span, n));
  t.defineMethod("atomicInc", (b, args, span, n) => b.atomic("inc", args, span, n));
  t.defineMethod("atomicDec", (b, args, span, n) => b.atomic("dec", args, span, n));
  return t;
}

