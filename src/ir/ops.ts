// The op table: one row per IR operation. The builder's type rules, the validator, the constant
// folder and the passes read these rows instead of repeating them. Every op means what it means
// in JavaScript (`eval`); where a target's instruction does not on some inputs, its legality
// table (targets/<name>/legal.ts) says how passes/legalize.ts writes that meaning out, and each
// back end spells the ops in a table of its own keyed by OpName (the JS target's: js/ops.ts).

import type { Scalar } from "./types.js";

/** Operand classes: which scalar types an op accepts (all operands share one type). */
type OperandClass = "num" | "int" | "float" | "bool" | "numOrBool" | "i32" | "u32" | "f32" | "f64";

interface OpRow {
  arity: 1 | 2;
  operands: OperandClass;
  /** Result type: the operand type, bool, i32 or f32. */
  result: "same" | "bool" | "i32" | "f32";
  commutative: boolean;
  /** Exact semantics on JS numbers already of the operand type; the result is then wrapped to the result type. */
  eval(args: (number | boolean)[], t: Scalar): number | boolean;
}

type N = number;
// Little-endian scratch views for the bit-pattern ops (every platform Node runs on is little-endian).
const scratchBuffer = new ArrayBuffer(8);
const scratch = { f32: new Float32Array(scratchBuffer), f64: new Float64Array(scratchBuffer), i32: new Int32Array(scratchBuffer) };

function binary(eval_: (a: N, b: N) => N | boolean, operands: OperandClass = "num", commutative = false): OpRow {
  return { arity: 2, operands, result: "same", commutative, eval: (x) => eval_(x[0] as N, x[1] as N) };
}
function unary(eval_: (a: N) => N | boolean, operands: OperandClass = "float"): OpRow {
  return { arity: 1, operands, result: "same", commutative: false, eval: (x) => eval_(x[0] as N) };
}
function compare(eval_: (a: N, b: N) => boolean, commutative = false): OpRow {
  return { arity: 2, operands: "numOrBool", result: "bool", commutative, eval: (x) => eval_(x[0] as N, x[1] as N) };
}
function math(name: keyof Math & string): OpRow {
  const f = Math[name] as (x: number) => number;
  return unary((a) => f(a));
}

export const OPS = {
  // Arithmetic. Integer div/rem are JS's `(a / b) | 0` and `(a % b) | 0` (so x / 0 and x % 0 are 0).
  add: binary((a, b) => a + b, "num", true),
  sub: binary((a, b) => a - b),
  mul: {
    arity: 2, operands: "num", result: "same", commutative: true,
    eval: (x, t) => (t === "i32" || t === "u32" ? Math.imul(x[0] as N, x[1] as N) : (x[0] as N) * (x[1] as N)),
  } as OpRow,
  div: binary((a, b) => a / b),
  rem: binary((a, b) => a % b),
  min: binary((a, b) => Math.min(a, b), "num", true),
  max: binary((a, b) => Math.max(a, b), "num", true),
  pow: binary((a, b) => Math.pow(a, b), "float"),
  atan2: binary((a, b) => Math.atan2(a, b), "float"),
  hypot: binary((a, b) => Math.hypot(a, b), "float", true),
  neg: unary((a) => -a, "num"),
  abs: unary((a) => Math.abs(a), "num"),
  sign: unary((a) => Math.sign(a), "num"),

  // Bitwise, on 32-bit integers; shift counts are taken modulo 32; `shr` is arithmetic on i32, logical on u32.
  and: binary((a, b) => a & b, "int", true),
  or: binary((a, b) => a | b, "int", true),
  xor: binary((a, b) => a ^ b, "int", true),
  shl: binary((a, b) => a << b, "int"),
  shr: {
    arity: 2, operands: "int", result: "same", commutative: false,
    eval: (x, t) => (t === "u32" ? (x[0] as N) >>> (x[1] as N) : (x[0] as N) >> (x[1] as N)),
  } as OpRow,
  bitnot: unary((a) => ~a, "int"),
  /** Leading zeros of a u32; result i32. */
  clz32: { arity: 1, operands: "u32", result: "i32", commutative: false, eval: (x) => Math.clz32(x[0] as N) } as OpRow,

  // Comparisons (numbers compare by value; NaN compares unequal to everything).
  eq: compare((a, b) => a === b, true),
  ne: compare((a, b) => a !== b, true),
  lt: compare((a, b) => a < b),
  le: compare((a, b) => a <= b),
  gt: compare((a, b) => a > b),
  ge: compare((a, b) => a >= b),

  // Logic on bools. `land`/`lor` short-circuit: the right operand is evaluated only when needed.
  land: { arity: 2, operands: "bool", result: "same", commutative: false, eval: (x) => Boolean(x[0]) && Boolean(x[1]) } as OpRow,
  lor: { arity: 2, operands: "bool", result: "same", commutative: false, eval: (x) => Boolean(x[0]) || Boolean(x[1]) } as OpRow,
  not: { arity: 1, operands: "bool", result: "same", commutative: false, eval: (x) => !x[0] } as OpRow,

  // Float math (JS Math semantics, rounded to the operand type).
  floor: unary(Math.floor),
  ceil: unary(Math.ceil),
  round: unary(Math.round),
  trunc: unary(Math.trunc),
  sqrt: math("sqrt"), cbrt: math("cbrt"), exp: math("exp"), expm1: math("expm1"),
  log: math("log"), log2: math("log2"), log10: math("log10"), log1p: math("log1p"),
  sin: math("sin"), cos: math("cos"), tan: math("tan"), asin: math("asin"), acos: math("acos"), atan: math("atan"),
  sinh: math("sinh"), cosh: math("cosh"), tanh: math("tanh"), asinh: math("asinh"), acosh: math("acosh"), atanh: math("atanh"),
  isnan: { arity: 1, operands: "float", result: "bool", commutative: false, eval: (x) => x[0] !== x[0] } as OpRow,
  isfinite: { arity: 1, operands: "float", result: "bool", commutative: false, eval: (x) => Number.isFinite(x[0]) } as OpRow,

  // Bit patterns: an f32's bits as an i32 and back (the print buffer, passes/cas-loops.ts), an
  // f64's high and low words.
  f32bits: { arity: 1, operands: "f32", result: "i32", commutative: false, eval: (x) => { scratch.f32[0] = x[0] as N; return scratch.i32[0]; } } as OpRow,
  /** The f32 whose bits an i32 holds (a NaN's payload kept as the target keeps it). */
  f32frombits: { arity: 1, operands: "i32", result: "f32", commutative: false, eval: (x) => { scratch.i32[0] = x[0] as N; return scratch.f32[0]; } } as OpRow,
  f64hi: { arity: 1, operands: "f64", result: "i32", commutative: false, eval: (x) => { scratch.f64[0] = x[0] as N; return scratch.i32[1]; } } as OpRow,
  f64lo: { arity: 1, operands: "f64", result: "i32", commutative: false, eval: (x) => { scratch.f64[0] = x[0] as N; return scratch.i32[0]; } } as OpRow,
} satisfies Record<string, OpRow>;

export type OpName = keyof typeof OPS;

export function acceptsOperand(cls: OperandClass, t: Scalar): boolean {
  switch (cls) {
    case "num": return t !== "bool";
    case "int": return t === "i32" || t === "u32";
    case "float": return t === "f32" || t === "f64";
    case "bool": return t === "bool";
    case "numOrBool": return true;
    case "i32": return t === "i32";
    case "u32": return t === "u32";
    case "f32": return t === "f32";
    case "f64": return t === "f64";
  }
}

export function resultScalar(name: OpName, operand: Scalar): Scalar {
  const r = OPS[name].result;
  return r === "same" ? operand : r;
}
