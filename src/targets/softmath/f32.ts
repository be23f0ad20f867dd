// Software Math for GPU targets whose instructions stop at f32 exp2/log2/sin/cos and square root
// (PTX: ex2/lg2/sin/cos approximations behind Math.exp, Math.log, Math.log2, Math.sin, Math.cos,
// sqrt.rn behind Math.sqrt; AMD GPUs have the same few, and no device library here): the f32
// functions such a target has no instruction for, written in the kernel language over those.
// A target description, not emission (ARCHITECTURE.md "How to add a target": a method overlay),
// shared by the targets that need it; the ptx target's overlay is softMathMethods(). They follow JavaScript's
// special cases exactly (signed zeros, infinities, NaN) and are accurate to about 1e-6 of
// max(1, |result|) elsewhere. Being kernel-language functions, they also run on the CPU target,
// where the tests check them against Math.* (test/ptx.test.ts). The f32 pow here has
// an error that grows with the size of its result's exponent (|y·log2 x|·2^-23 relative, about
// 4e-6 at 1e23), as with any f32 exp2(y·log2 x): the overlay computes f32 Math.pow with the f64
// version instead (rounded once to f32), and this one serves the CPU-side tests.
//
// f64 arguments go to the f64 versions (f64.ts) or, where the f32 version's constants are
// exact enough for f64 too, to the same function specialized on f64.

import { globalMethods } from "../../infer/overlays.js";
import type { Method, MethodTable, Val } from "../../infer/methods.js";
import { T } from "../../ir/types.js";
import { SOFT_MATH_F64, fmod } from "./f64.js";

// The implementations: plain functions (no annotations), compiled by gpuc like any helper.

function atan(x: number): number {
  const ax = Math.abs(x);
  if (ax === 0) return x;
  let base = 0;
  let z = ax;
  if (ax > 2.414213562373095) { base = 1.5707963267948966; z = -1 / ax; }
  else if (ax > 0.41421356237309503) { base = 0.7853981633974483; z = (ax - 1) / (ax + 1); }
  const zz = z * z;
  const r = base + ((((0.0805374449538 * zz - 0.138776856032) * zz + 0.199777106478) * zz - 0.333329491539) * zz * z + z);
  return x < 0 ? -r : r;
}

function atan2(y: number, x: number): number {
  if (y !== y || x !== x) return y + x;
  const ay = Math.abs(y), ax = Math.abs(x);
  const xneg = x < 0 || (x === 0 && 1 / x < 0);
  const yneg = y < 0 || (y === 0 && 1 / y < 0);
  let r = 0 * ay;
  if (ay === 0) { if (xneg) r = 3.141592653589793; }
  else if (ax === Infinity) {
    if (ay === Infinity) { if (xneg) r = 2.356194490192345; else r = 0.7853981633974483; }
    else if (xneg) r = 3.141592653589793;
    else r = 0;
  } else if (ay === Infinity || ax === 0) r = 1.5707963267948966;
  else {
    r = Math.atan(ay / ax);
    if (xneg) r = 3.141592653589793 - r;
  }
  return yneg ? -r : r;
}

function asin(x: number): number { return Math.atan2(x, Math.sqrt((1 - x) * (1 + x))); }

function acos(x: number): number { return Math.atan2(Math.sqrt((1 - x) * (1 + x)), x); }

function sinh(x: number): number {
  const a = Math.abs(x);
  let r = 0 * a;
  if (a < 0.5) {
    const z = a * a;
    r = a + a * z * (0.16666666666666666 + z * (0.008333333333333333 + z * 0.0001984126984126984));
  } else {
    const e = Math.exp(a - 0.6931471805599453);
    r = e - 0.25 / e;
  }
  return x < 0 ? -r : (x === 0 ? x : r);
}

function cosh(x: number): number {
  const a = Math.abs(x);
  if (a > 88) {
    const h = Math.exp(a * 0.5);
    return 0.5 * h * h;
  }
  const e = Math.exp(a);
  return 0.5 * e + 0.5 / e;
}

function tanh(x: number): number {
  const a = Math.abs(x);
  let r = 0 * a;
  if (a > 9) r = 1;
  else if (a < 0.125) {
    const z = a * a;
    r = a - a * z * (0.3333333333333333 - z * (0.13333333333333333 - z * 0.05396825396825397));
  } else {
    const e = Math.exp(2 * a);
    r = 1 - 2 / (e + 1);
  }
  return x < 0 ? -r : (x === 0 ? x : r);
}

function asinh(x: number): number {
  const a = Math.abs(x);
  let r = 0 * a;
  if (a < 0.125) {
    const z = a * a;
    r = a - a * z * (0.16666666666666666 - z * 0.075);
  } else if (a > 1e18) r = Math.log(a) + 0.6931471805599453;
  else r = Math.log(a + Math.sqrt(a * a + 1));
  return x < 0 ? -r : (x === 0 ? x : r);
}

function acosh(x: number): number {
  if (x < 1) return NaN;
  if (x > 1e18) return Math.log(x) + 0.6931471805599453;
  const t = x - 1;
  return Math.log1p(t + Math.sqrt(2 * t + t * t));
}

function atanh(x: number): number {
  const a = Math.abs(x);
  let r = 0 * a;
  if (a < 0.125) {
    const z = a * a;
    r = a + a * z * (0.3333333333333333 + z * (0.2 + z * 0.14285714285714285));
  } else r = 0.5 * Math.log((1 + a) / (1 - a));
  return x < 0 ? -r : (x === 0 ? x : r);
}

function cbrt(x: number): number {
  const a = Math.abs(x);
  if (a === 0 || a === Infinity || x !== x) return x;
  let r = Math.exp(Math.log(a) * 0.3333333333333333);
  r = r + (a / (r * r) - r) * 0.3333333333333333;
  return x < 0 ? -r : r;
}

function expm1(x: number): number {
  if (Math.abs(x) < 0.5)
    return x * (1 + x * (0.5 + x * (0.16666666666666666 + x * (0.041666666666666664 + x * (0.008333333333333333 + x * (0.001388888888888889 + x * 0.0001984126984126984))))));
  return Math.exp(x) - 1;
}

function log1p(x: number): number {
  const u = 1 + x;
  if (u === 1) return x;
  if (u === Infinity || x !== x) return Math.log(u);
  // log(u) * x / (u - 1) corrects for the rounding of 1 + x.
  return Math.log(u) * (x / (u - 1));
}

function hypot(x: number, y: number): number {
  const a = Math.abs(x), b = Math.abs(y);
  if (a === Infinity || b === Infinity) return Infinity;
  if (a !== a || b !== b) return a + b;
  const m = Math.max(a, b), n = Math.min(a, b);
  if (m === 0) return m;
  const q = n / m;
  return m * Math.sqrt(1 + q * q);
}

function pow(x: number, y: number): number {
  if (y === 0) return 1;
  if (y !== y || x !== x) return x + y;
  const ax = Math.abs(x), ay = Math.abs(y);
  if (ay === Infinity) {
    if (ax === 1) return y - y;
    return (ax > 1) === (y > 0) ? Infinity : 0;
  }
  const yint = Math.floor(y) === y;
  const odd = yint && Math.floor(y * 0.5) !== y * 0.5;
  if (ax === 0) {
    if (y > 0) return odd ? x : 0;
    return odd ? 1 / x : Infinity;
  }
  if (ax === Infinity) {
    if (x > 0) return y > 0 ? Infinity : 0;
    if (y > 0) return odd ? -Infinity : Infinity;
    return odd ? -0 : 0;
  }
  if (x < 0 && !yint) return NaN;
  const r = Math.exp(y * Math.log2(ax) * 0.6931471805599453);
  return x < 0 && odd ? -r : r;
}

/**
 * The implementations by Math name, with their arity (exported for the CPU-side tests). Those
 * marked `generic` are right in f64 too (their constants are weak: they take the argument's
 * type) and serve both; the others are f32 only, and SOFT_MATH_F64 has their f64 versions.
 */
export const SOFT_MATH_F32: Readonly<Record<string, { arity: 1 | 2; impl: Function; generic: boolean }>> = {
  atan: { arity: 1, impl: atan, generic: false }, atan2: { arity: 2, impl: atan2, generic: true },
  asin: { arity: 1, impl: asin, generic: true }, acos: { arity: 1, impl: acos, generic: true },
  sinh: { arity: 1, impl: sinh, generic: false }, cosh: { arity: 1, impl: cosh, generic: true }, tanh: { arity: 1, impl: tanh, generic: false },
  asinh: { arity: 1, impl: asinh, generic: false }, acosh: { arity: 1, impl: acosh, generic: true }, atanh: { arity: 1, impl: atanh, generic: false },
  cbrt: { arity: 1, impl: cbrt, generic: false }, expm1: { arity: 1, impl: expm1, generic: false }, log1p: { arity: 1, impl: log1p, generic: true },
  hypot: { arity: 2, impl: hypot, generic: true }, pow: { arity: 2, impl: pow, generic: true },
};

const ARITY: Record<string, number> = { atan2: 2, hypot: 2, pow: 2 };

/**
 * Math.<name> on such a target: f64 arguments go to the f64 version (SOFT_MATH_F64, or the generic
 * one), f32 ones (integers convert to f32, as Math.* does) to the f32 software version where
 * there is one; everything else — f32 exp/log/sin/cos/tan (instructions), constants — to the
 * global method.
 */
function overlaid(name: string): Method {
  const base = globalMethods.method(`Math.${name}`)!;
  const f32 = SOFT_MATH_F32[name];
  const f64 = SOFT_MATH_F64[name] ?? (f32?.generic ? { impl: f32.impl } : undefined);
  const arity = ARITY[name] ?? 1;
  return (b, args, span, full) => {
    if (args.length !== arity || args.every((a) => a.k === "weak")) return base(b, args, span, full);
    const types = args.map((a) => (a.k === "weak" ? null : b.scalarType(a, span)));
    if (args.some((a, i) => a.k !== "weak" && types[i] === null)) return b.unknown;
    const wide = types.some((t) => t === T.f64);
    if (name === "pow" && !wide && f64) {
      // f32 pow in f64, rounded once to f32, as JavaScript rounds its f64 Math.pow: the f32
      // version's error (|y·log2 x|·2^-23) would miss the f32 result of an exact power (4097 ** 2).
      const r = b.callImplementation(f64.impl, args.map((a) => ({ k: "expr", h: b.convert(a, T.f64, span), t: T.f64 })), span, full);
      return { k: "expr", h: b.convert(r, T.f32, span), t: T.f32 };
    }
    const impl = wide ? f64 : f32 ? { impl: f32.impl } : undefined;
    if (!impl) return base(b, args, span, full);
    const t = wide ? T.f64 : T.f32;
    const typed: Val[] = args.map((a) => ({ k: "expr", h: b.convert(a, t, span), t }));
    const extra = (impl as { extra?: number }).extra;
    if (extra !== undefined) typed.push({ k: "weak", value: extra, isFloat: false });
    return b.callImplementation(impl.impl, typed, span, full);
  };
}

/**
 * A float `%` (values.ts gives both operands its type, f32 or f64): fmod (f64.ts) in f64, the f32
 * result narrowed back, which is exact.
 */
const remainder: Method = (b, args, span, full) => {
  const wide = b.scalarType(args[0], span) === T.f64;
  const r = b.callImplementation(fmod, args.map((a) => ({ k: "expr", h: b.convert(a, T.f64, span), t: T.f64 })), span, full);
  return wide ? r : { k: "expr", h: b.convert(r, T.f32, span), t: T.f32 };
};

/**
 * The method table of such a target (ptx, llvm): the global table with the software Math
 * functions over it, and float `%` (the method "%", values.ts) as fmod.
 */
export function softMathMethods(): MethodTable {
  const t = globalMethods.overlay();
  for (const name of new Set([...Object.keys(SOFT_MATH_F32), ...Object.keys(SOFT_MATH_F64)])) t.defineMethod(`Math.${name}`, overlaid(name));
  t.defineMethod("%", remainder);
  return t;
}
