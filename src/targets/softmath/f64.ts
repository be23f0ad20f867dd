// f64 Math functions in the kernel language, for GPU targets with f64 add, multiply, fma,
// division and square root and nothing transcendental (PTX; AMD GPUs without a device library). These follow fdlibm's methods
// (Cody–Waite argument reduction, then series on the reduced argument) with JavaScript's special
// cases; accuracy is a few ulp for arguments below about 1e6 (sine and cosine reduce mod π/2 with
// a three-part π/2, exact for |x| < 2^20·π/2) and pow's error grows with |y·log2 x| like the f32
// one. Powers of two are made by multiplication (exact), exponents found by scaling: no bit
// casts, so the functions run, and are tested, on the CPU target too (test/ptx.test.ts).
//
// The constants are the fdlibm splits: ln 2 = LN2_HI (32 bits) + LN2_LO, π/2 = P1 + P2 + P3 (33
// bits each) + P3T; test/ptx.test.ts recomputes them from the decimal expansions.

/** e^x (which 0), or e^x − 1 (which 1). */
function exp(x: number): number {
  if (x !== x) return x;
  if (x > 709.782712893384) return Infinity;
  if (x < -745.1332191019412) return 0;
  // x = k·ln2 + r, |r| <= ln2/2
  const k = Math.round(x * 1.4426950408889634);
  const r = (x - k * 0.69314718036912381649) - k * 1.90821492927058770002e-10;
  // e^r by its series to r^13 (the next term is below 2^-60 of the sum)
  let p = 1 / 6227020800;
  p = p * r + 1 / 479001600; p = p * r + 1 / 39916800; p = p * r + 1 / 3628800; p = p * r + 1 / 362880;
  p = p * r + 1 / 40320; p = p * r + 1 / 5040; p = p * r + 1 / 720; p = p * r + 1 / 120; p = p * r + 1 / 24;
  p = p * r + 1 / 6; p = p * r + 0.5; p = p * r + 1; p = p * r + 1;
  // times 2^k, in two halves (2^k alone may overflow where the result does not)
  // (A constant alone is an i32 or an f32 in the kernel language: `+ 0 * k` makes these f64.)
  const k1 = Math.floor(k * 0.5);
  let s1 = 1 + 0 * k, s2 = 1 + 0 * k;
  let b = (k1 < 0 ? 0.5 : 2) + 0 * k;
  for (let n = Math.abs(k1); n > 0; n = Math.floor(n * 0.5)) { if (Math.floor(n * 0.5) * 2 !== n) s1 = s1 * b; b = b * b; }
  b = (k - k1 < 0 ? 0.5 : 2) + 0 * k;
  for (let n = Math.abs(k - k1); n > 0; n = Math.floor(n * 0.5)) { if (Math.floor(n * 0.5) * 2 !== n) s2 = s2 * b; b = b * b; }
  return p * s1 * s2;
}

function expm1(x: number): number {
  if (Math.abs(x) < 0.5) {
    // the series to x^17/17!
    let p = 1 / 355687428096000;
    p = p * x + 1 / 20922789888000; p = p * x + 1 / 1307674368000; p = p * x + 1 / 87178291200; p = p * x + 1 / 6227020800;
    p = p * x + 1 / 479001600; p = p * x + 1 / 39916800; p = p * x + 1 / 3628800; p = p * x + 1 / 362880;
    p = p * x + 1 / 40320; p = p * x + 1 / 5040; p = p * x + 1 / 720; p = p * x + 1 / 120; p = p * x + 1 / 24;
    p = p * x + 1 / 6; p = p * x + 0.5;
    return x + x * x * p;
  }
  return Math.exp(x) - 1;
}

/** log of x in base e (base 0), 2 (base 1) or 10 (base 2). */
function log(x: number, base: number): number {
  if (x !== x || x < 0) return NaN;
  if (x === 0) return -Infinity;
  if (x === Infinity) return x;
  // x = m·2^e with m in [√½, √2)
  let m = x, e = 0 * x;    // e: an f64 (x is finite here)
  if (m < 2.2250738585072014e-308) { m = m * 18014398509481984; e = -54; }
  while (m >= 1.157920892373162e77) { m = m * 8.636168555094445e-78; e = e + 256; }
  while (m >= 18446744073709552000) { m = m * 5.421010862427522e-20; e = e + 64; }
  while (m >= 256) { m = m * 0.00390625; e = e + 8; }
  while (m >= 1.4142135623730951) { m = m * 0.5; e = e + 1; }
  while (m < 8.636168555094445e-78) { m = m * 1.157920892373162e77; e = e - 256; }
  while (m < 5.421010862427522e-20) { m = m * 18446744073709552000; e = e - 64; }
  while (m < 0.00390625) { m = m * 256; e = e - 8; }
  while (m < 0.7071067811865476) { m = m * 2; e = e - 1; }
  // log m = 2·atanh(s), s = (m − 1)/(m + 1), |s| <= 0.1716: the series to s^23
  const f = m - 1;
  const s = f / (2 + f);
  const z = s * s;
  let p = 1 / 23;
  p = p * z + 1 / 21; p = p * z + 1 / 19; p = p * z + 1 / 17; p = p * z + 1 / 15; p = p * z + 1 / 13; p = p * z + 1 / 11;
  p = p * z + 1 / 9; p = p * z + 1 / 7; p = p * z + 1 / 5; p = p * z + 1 / 3;
  const lm = 2 * s + 2 * s * z * p;
  if (base === 1) return e + lm * 1.4426950408889634;
  if (base === 2) return e * 0.30102999566398120 + lm * 0.4342944819032518;
  return e * 0.69314718036912381649 + (lm + e * 1.90821492927058770002e-10);
}

/** sin (which 0), cos (which 1) or tan (which 2). */
function trig(x: number, which: number): number {
  if (!(Math.abs(x) < Infinity)) return x - x;
  // x = n·π/2 + r, |r| <= π/4
  const n = Math.round(x * 0.6366197723675814);
  const r = ((x - n * 1.57079632673412561417) - n * 6.07710050630396597660e-11) - n * 2.02226624871116645580e-21;
  const z = r * r;
  let ps = 1 / 355687428096000;
  ps = ps * z - 1 / 1307674368000; ps = ps * z + 1 / 6227020800; ps = ps * z - 1 / 39916800; ps = ps * z + 1 / 362880;
  ps = ps * z - 1 / 5040; ps = ps * z + 1 / 120; ps = ps * z - 1 / 6;
  const s = r + r * z * ps;
  let pc = 1 / 20922789888000;
  pc = pc * z - 1 / 87178291200; pc = pc * z + 1 / 479001600; pc = pc * z - 1 / 3628800; pc = pc * z + 1 / 40320;
  pc = pc * z - 1 / 720; pc = pc * z + 1 / 24;
  const c = 1 - 0.5 * z + z * z * pc;
  const q = n - Math.floor(n * 0.25) * 4;    // n mod 4
  if (which === 2) return q === 0 || q === 2 ? s / c : -c / s;
  const k = which === 1 ? q + 1 : q;
  if (k === 0 || k === 4) return s;
  if (k === 1) return c;
  if (k === 2) return -s;
  return -c;
}

function atan(x: number): number {
  if (x !== x) return x;
  const a = Math.abs(x);
  if (a < 1e-8) return x;    // atan x = x − x³/3 + …: x itself to 2^-56 (and subnormals are kept)
  // atan(a) = π/2 − atan(1/a) above 1; two half-angle steps, t/(1 + √(1 + t²)), bring t under tan(π/16)
  let t = a > 1 ? 1 / a : a;
  t = t / (1 + Math.sqrt(1 + t * t));
  t = t / (1 + Math.sqrt(1 + t * t));
  const z = t * t;
  let p = 1 / 25;
  p = p * z - 1 / 23; p = p * z + 1 / 21; p = p * z - 1 / 19; p = p * z + 1 / 17; p = p * z - 1 / 15; p = p * z + 1 / 13;
  p = p * z - 1 / 11; p = p * z + 1 / 9; p = p * z - 1 / 7; p = p * z + 1 / 5; p = p * z - 1 / 3;
  let r = 4 * (t + t * z * p);
  if (a > 1) r = (1.57079632673412561417 - r) + 6.077100506506192e-11;
  return x < 0 ? -r : r;
}

function sinh(x: number): number {
  const a = Math.abs(x);
  let r = 0;
  if (a > 709) {
    const e = Math.exp(a * 0.5);
    r = 0.5 * e * e;
  } else {
    const e = Math.expm1(a);
    r = 0.5 * (e + e / (e + 1));
  }
  return x < 0 ? -r : (x === 0 ? x : r);
}

function tanh(x: number): number {
  const a = Math.abs(x);
  let r = 0;
  if (a > 22) r = 1;
  else {
    const e = Math.expm1(2 * a);
    r = e / (e + 2);
  }
  return x < 0 ? -r : (x === 0 ? x : r);
}

function asinh(x: number): number {
  const a = Math.abs(x);
  let r = 0;
  if (a > 1e18) r = Math.log(a) + 0.6931471805599453;
  else r = Math.log1p(a + a * a / (1 + Math.sqrt(1 + a * a)));
  return x < 0 ? -r : (x === 0 ? x : r);
}

function atanh(x: number): number {
  const a = Math.abs(x);
  const r = 0.5 * Math.log1p(2 * a / (1 - a));
  return x < 0 ? -r : (x === 0 ? x : r);
}

function cbrt(x: number): number {
  const a = Math.abs(x);
  if (a === 0 || a === Infinity || x !== x) return x;
  let r = Math.exp(Math.log(a) * 0.3333333333333333);
  r = r + (a / (r * r) - r) * 0.3333333333333333;
  r = r + (a / (r * r) - r) * 0.3333333333333333;
  return x < 0 ? -r : r;
}

/**
 * JavaScript's `%` on floats (C's fmod), exactly: NaN for a NaN operand, an infinite x or a zero
 * y; x where |x| < |y| (an infinite y and ±0 included); otherwise |x| reduced by |y|·2^k for k from
 * the largest with |y|·2^k ≤ |x| down to 0, with x's sign. Exact throughout: |y|·2^k is a power of
 * two times |y| (doubling and halving back to it round nothing), and each subtraction has its
 * operands within a factor of two (r < 2t is the loop's invariant: Sterbenz), so the result is
 * the exact remainder, which is representable. At most the exponents' difference steps (about
 * 2,100 in f64). f32 operands are widened (exact) and the result narrowed back (exact).
 */
export function fmod(x: number, y: number): number {
  const ay = Math.abs(y);
  let r = Math.abs(x);
  if (x !== x || ay !== ay || ay === 0 || r === Infinity) return NaN;
  if (r < ay) return x;
  let t = ay;
  while (t + t <= r) t = t + t;
  while (t >= ay) {
    if (r >= t) r = r - t;
    t = t * 0.5;
  }
  return x < 0 ? -r : r;
}

/** The f64 implementations by Math name; `extra` is a constant last argument (log's base, trig's function). */
export const SOFT_MATH_F64: Readonly<Record<string, { impl: Function; extra?: number }>> = {
  exp: { impl: exp }, expm1: { impl: expm1 },
  log: { impl: log, extra: 0 }, log2: { impl: log, extra: 1 }, log10: { impl: log, extra: 2 },
  sin: { impl: trig, extra: 0 }, cos: { impl: trig, extra: 1 }, tan: { impl: trig, extra: 2 },
  atan: { impl: atan }, sinh: { impl: sinh }, tanh: { impl: tanh }, asinh: { impl: asinh }, atanh: { impl: atanh }, cbrt: { impl: cbrt },
};
