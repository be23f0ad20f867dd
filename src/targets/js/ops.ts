// The JS target's spelling of each IR op (ir/ops.ts): JavaScript's own operators and Math
// functions, and for each the operand types where the raw JS result is already the exact value of
// the result type — elsewhere the back end wraps it (`|0`, `>>>0`, `Math.fround`). Keyed by every
// OpName: a new op fails to compile here until it has a spelling.

import type { OpName } from "../../ir/ops.js";
import type { Scalar } from "../../ir/types.js";

interface JSSpelling {
  /** The unwrapped result of the op on operands spelled `args`, of type `t`. */
  js(args: string[], t: Scalar): string;
  /** Operand types for which `js` already yields the exact result-type value (no `|0`, `>>>0` or `Math.fround`). */
  exact: readonly Scalar[];
}

const ALL: Scalar[] = ["bool", "i32", "u32", "f32", "f64"];
const INT_EXACT: Scalar[] = ["bool", "i32", "f64"];
const infix = (op: string, exact: Scalar[]): JSSpelling => ({ js: (x) => `(${x[0]} ${op} ${x[1]})`, exact });
const call = (f: string, exact: Scalar[]): JSSpelling => ({ js: (x) => `${f}(${x.join(", ")})`, exact });
const math = (name: string): JSSpelling => call(`Math.${name}`, ["f64"]);

export const JS_OPS: Record<OpName, JSSpelling> = {
  add: infix("+", ["f64"]),
  sub: infix("-", ["f64"]),
  mul: { js: (x, t) => (t === "i32" || t === "u32" ? `Math.imul(${x[0]}, ${x[1]})` : `(${x[0]} * ${x[1]})`), exact: ["i32", "f64"] },
  div: infix("/", ["f64"]),
  rem: infix("%", ["f64"]),
  min: call("Math.min", ALL),
  max: call("Math.max", ALL),
  pow: call("Math.pow", ["f64"]),
  atan2: call("Math.atan2", ["f64"]),
  hypot: call("Math.hypot", ["f64"]),
  neg: { js: (x) => `(-${x[0]})`, exact: ["f32", "f64"] },
  abs: call("Math.abs", ["u32", "f32", "f64"]),
  sign: call("Math.sign", ALL),
  and: infix("&", INT_EXACT),
  or: infix("|", INT_EXACT),
  xor: infix("^", INT_EXACT),
  shl: infix("<<", INT_EXACT),
  shr: { js: (x, t) => (t === "u32" ? `(${x[0]} >>> ${x[1]})` : `(${x[0]} >> ${x[1]})`), exact: ALL },
  bitnot: { js: (x) => `(~${x[0]})`, exact: INT_EXACT },
  clz32: call("Math.clz32", ALL),
  eq: infix("===", ALL),
  ne: infix("!==", ALL),
  lt: infix("<", ALL),
  le: infix("<=", ALL),
  gt: infix(">", ALL),
  ge: infix(">=", ALL),
  land: infix("&&", ALL),
  lor: infix("||", ALL),
  not: { js: (x) => `(!${x[0]})`, exact: ALL },
  floor: call("Math.floor", ["f32", "f64"]),
  ceil: call("Math.ceil", ["f32", "f64"]),
  round: call("Math.round", ["f32", "f64"]),
  trunc: call("Math.trunc", ["f32", "f64"]),
  sqrt: math("sqrt"), cbrt: math("cbrt"), exp: math("exp"), expm1: math("expm1"),
  log: math("log"), log2: math("log2"), log10: math("log10"), log1p: math("log1p"),
  sin: math("sin"), cos: math("cos"), tan: math("tan"), asin: math("asin"), acos: math("acos"), atan: math("atan"),
  sinh: math("sinh"), cosh: math("cosh"), tanh: math("tanh"), asinh: math("asinh"), acosh: math("acosh"), atanh: math("atanh"),
  isnan: { js: (x) => `(${x[0]} !== ${x[0]})`, exact: ALL },
  isfinite: call("Number.isFinite", ALL),
  f32bits: call("$f32bits", ALL),
  f32frombits: call("$f32frombits", ALL),
  f64hi: call("$f64hi", ALL),
  f64lo: call("$f64lo", ALL),
};
