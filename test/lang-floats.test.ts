// Execution tests of float semantics (f32 rounding, f64, Math functions, promotion of integers, NaN
// and infinities, conversions, remainders, float literals): small kernels, each compared with a
// plain-JavaScript reference computed here. f32 references round every operation with Math.fround;
// i32/u32 references wrap with `| 0` / `>>> 0` / Math.imul.
//
// Every test runs on each device of the matrix (helpers.ts: `dtest`): the CPU device (the JS
// target, the exact reference semantics) and WebGPU (the WGSL target), where integers must agree
// exactly and f32 values within F32_TOL relative unless a test says why not. Where WebGPU differs
// by design (no f64), the test says so where it branches on `wgsl`.
//
// Outputs are poisoned (NaN or a sentinel) before each launch so unwritten elements show, and many
// outputs are "wide" (`wide`, `wideMixed`): Float64Array on the CPU, so that a missing in-kernel
// wrap or f32 rounding is not hidden by the conversion a narrower typed-array store would do; on
// WebGPU, which has no f64, arrays of the results' own types.
//
// Note: tsx transpiles this file with esbuild, which reprints kernel sources (whitespace removed,
// `1.0` printed as `1`, `1000` printed as `1e3` -- which gpuc reads as a float literal --, some
// constant expressions folded). Integer literals in these kernels therefore avoid multiples of
// 1000, and kernels that depend on the exact literal text are built from a source string with eval
// (see "float literal").

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { device, kernel, threadIdx, blockIdx, blockDim } from "../src/index.ts";
import { randF32, randF64, randI32, poisonF32, poisonF64, poisonI32, poisonU32, F, forThreads,
  dtest, openDevices, rejectsF64, type Wide } from "./helpers.ts";

await openDevices();

// =============================================================================================

describe("float semantics", () => {
  dtest("f32 accumulation of 0.1 rounds every step", async ({ dev, same, wide }) => {
    const k = kernel(function accum(step: number, n: number, o: Wide) {
      let acc = 0;
      for (let k = 0; k < n; k++) acc += step;
      o[threadIdx.x] = acc;
    });
    const o = wide(1, "f32");
    await k.launch(dev, { blocks: 1, threads: 1 }, 0.1, 1000, o);
    let acc32 = 0, acc64 = 0;
    for (let j = 0; j < 1000; j++) { acc32 = F(acc32 + F(0.1)); acc64 += 0.1; }
    assert.notEqual(acc32, acc64);
    assert.notEqual(acc32, F(acc64));
    same(o, [acc32], "sum", { tol: 0 });   // exact on WebGPU too: the sum has one order, and 100 would pass 1e-5
  });

  dtest("f64 arrays use f64 arithmetic (no f32 rounding)", async ({ dev, same, wgsl }) => {
    const k = kernel(function f64math(x: Float64Array, y: Float64Array, o: Float64Array) {
      const i = blockIdx.x * blockDim.x + threadIdx.x;
      if (i >= o.length) return;
      let acc = 0;
      for (let k = 0; k <= i; k++) acc += x[k] * 0.1;
      o[i] = Math.sqrt(x[i] * x[i] + y[i] * y[i]) / 3 + acc - Math.exp(y[i]) * Math.PI;
    });
    const n = 100;
    const x = randF64(91, n, -3, 3), y = randF64(92, n, -3, 3), o = poisonF64(n);
    if (wgsl) return rejectsF64(k.launch(dev, { blocks: 2, threads: 64 }, x, y, o));   // WGSL has no f64
    await k.launch(dev, { blocks: 2, threads: 64 }, x, y, o);
    const want = new Float64Array(n);
    forThreads(n, (i) => { let acc = 0; for (let k = 0; k <= i; k++) acc += x[k] * 0.1; want[i] = Math.sqrt(x[i] * x[i] + y[i] * y[i]) / 3 + acc - Math.exp(y[i]) * Math.PI; });
    same(o, want);
    assert.ok(Array.from(want).some((v) => v !== F(v)), "sanity: the reference is not f32-representable");
  });

  dtest("f64 scalar parameter via types", async ({ dev, same, wgsl }) => {
    const k = kernel(function f64param(s: number, x: Float64Array, o: Float64Array) {
      const i = threadIdx.x;
      o[i] = s * 3 + x[i] / s;
    }, { types: { s: "f64" } });
    const x = randF64(93, 8), o = poisonF64(8);
    if (wgsl) return rejectsF64(k.launch(dev, { blocks: 1, threads: 8 }, 0.1, x, o));   // WGSL has no f64
    await k.launch(dev, { blocks: 1, threads: 8 }, 0.1, x, o);
    same(o, Array.from(x, (v) => 0.1 * 3 + v / 0.1));
  });

  dtest("Math functions on f32 round to f32", async ({ dev, same, wide }) => {
    const k = kernel(function mathF32(x: Float32Array, y: Float32Array, o: Wide) {
      const i = threadIdx.x;
      const k = i * 20;
      const a = x[i], b = y[i];
      o[k] = Math.sqrt(a); o[k + 1] = Math.exp(a); o[k + 2] = Math.log(a); o[k + 3] = Math.pow(a, b);
      o[k + 4] = Math.sin(a); o[k + 5] = Math.cos(a); o[k + 6] = Math.atan2(a, b); o[k + 7] = Math.tanh(a);
      o[k + 8] = Math.abs(a); o[k + 9] = Math.min(a, b); o[k + 10] = Math.max(a, b); o[k + 11] = Math.floor(a);
      o[k + 12] = Math.ceil(a); o[k + 13] = Math.round(a); o[k + 14] = Math.trunc(a); o[k + 15] = Math.sign(a);
      o[k + 16] = Math.hypot(a, b); o[k + 17] = Math.cbrt(a); o[k + 18] = Math.log2(a); o[k + 19] = a ** b;
    });
    const x = Float32Array.from([2.5, -2.5, 0.5, -0.5, 1e-3, 3.75, -1.25, 2, -0.4, -0, ...randF32(101, 8, -4, 4)]);
    const y = Float32Array.from([1.5, 2, -0.5, 3, 0.25, -1, 2, 0.5, 0.75, -0, ...randF32(102, 8, -3, 3)]);
    const n = x.length;
    const o = wide(n * 20, "f32");
    await k.launch(dev, { blocks: 1, threads: n }, x, y, o);
    const want = new Float64Array(n * 20);
    forThreads(n, (i) => {
      const a = x[i], b = y[i];
      want.set([Math.sqrt(a), Math.exp(a), Math.log(a), Math.pow(a, b), Math.sin(a), Math.cos(a), Math.atan2(a, b), Math.tanh(a),
        Math.abs(a), Math.min(a, b), Math.max(a, b), Math.floor(a), Math.ceil(a), Math.round(a), Math.trunc(a), Math.sign(a),
        Math.hypot(a, b), Math.cbrt(a), Math.log2(a), a ** b].map(F), i * 20);
    });
    same(o, want);
  });

  dtest("Math functions on integers (floor is identity, sqrt gives f32)", async ({ dev, same, wideMixed }) => {
    const k = kernel(function mathInt(a: Int32Array, b: Int32Array, o: Wide) {
      const i = threadIdx.x;
      const k = i * 11;
      o[k] = Math.floor(a[i]); o[k + 1] = Math.ceil(a[i]); o[k + 2] = Math.round(a[i]); o[k + 3] = Math.trunc(a[i]);
      o[k + 4] = Math.abs(a[i]); o[k + 5] = Math.min(a[i], b[i]); o[k + 6] = Math.max(a[i], b[i], 7); o[k + 7] = Math.sign(a[i]);
      o[k + 8] = Math.sqrt(a[i]); o[k + 9] = Math.clz32(a[i]); o[k + 10] = Math.floor(a[i] / 2);
    });
    const a = Int32Array.from([2147483647, -2147483647, 16777217, -5, 0, 2, 123, 7, ...randI32(111, 8, -1000000, 1000000)]);
    const b = Int32Array.from([0, 5, -16777217, -6, 0, 3, 200, 8, ...randI32(112, 8, -1000000, 1000000)]);
    const n = a.length;
    const floats = (j: number) => j % 11 === 8 || j % 11 === 10;
    const o = await wideMixed(n * 11, floats, (o) => k.launch(dev, { blocks: 1, threads: n }, a, b, o));
    const want = new Float64Array(n * 11);
    forThreads(n, (i) => {
      const v = a[i];
      want.set([v, v, v, v, Math.abs(v), Math.min(v, b[i]), Math.max(v, b[i], 7), Math.sign(v), F(Math.sqrt(F(v))), Math.clz32(v), Math.floor(F(F(v) / 2))], i * 11);
    });
    same(o, want, "results", { floats });
    assert.equal(o[0], 2147483647, "Math.floor(2147483647) stays exact");
    assert.equal(o[5 * 11 + 8], F(Math.SQRT2), "Math.sqrt(2) is f32");
  });

  dtest("mixed i32/f32 promotion and common variable types", async ({ dev, same, wideMixed }) => {
    const k = kernel(function mixedPromo(a: Int32Array, x: Float32Array, o: Wide) {
      const i = threadIdx.x;
      const k = i * 5;
      o[k] = a[i] + x[i];
      o[k + 1] = a[i] * 0.5;
      o[k + 2] = a[i] / 3;
      let acc = 0;
      acc += x[i];
      acc += a[i];
      o[k + 3] = acc;
      let c = 0;
      c += a[i];
      c += a[i];
      o[k + 4] = c;
    });
    const a = Int32Array.from([1073741825, 16777217, -3, 7, 2147483647, ...randI32(121, 5, -100000, 100000)]);
    const x = Float32Array.from([0.5, 1, -0.25, 0.1, 1, ...randF32(122, 5)]);
    const n = a.length;
    const floats = (j: number) => j % 5 !== 4;
    const o = await wideMixed(n * 5, floats, (o) => k.launch(dev, { blocks: 1, threads: n }, a, x, o));
    const want = new Float64Array(n * 5);
    forThreads(n, (i) => {
      const fa = F(a[i]);
      want.set([F(fa + x[i]), F(fa * 0.5), F(fa / 3), F(F(0 + x[i]) + fa), (a[i] + a[i]) | 0], i * 5);
    });
    same(o, want, "results", { floats });
  });

  dtest("a variable assigned i32 and f32 values is f32", async ({ dev, same, wide }) => {
    const k = kernel(function commonVar(a: Int32Array, x: Float32Array, c: Int32Array, o: Wide) {
      const i = threadIdx.x;
      let v = 0;
      if (c[i] > 0) v = a[i]; else v = x[i];
      o[i * 2] = v;
      let w = a[i];
      w = w / 2;
      o[i * 2 + 1] = w;
    });
    const a = Int32Array.from([16777217, 3, -16777219, 5]);
    const x = Float32Array.from([0.1, 0.2, 0.3, 0.4]);
    const c = Int32Array.from([1, 0, 1, 0]);
    const o = wide(8, "f32");
    await k.launch(dev, { blocks: 1, threads: 4 }, a, x, c, o);
    const want: number[] = [];
    for (let i = 0; i < 4; i++) want.push(c[i] > 0 ? F(a[i]) : x[i], F(F(a[i]) / 2));
    same(o, want);
  });

  dtest("NaN, Infinity, Number.isNaN/isFinite, Math.PI constants", async ({ dev, same, wide }) => {
    const k = kernel(function specials(x: Float32Array, o: Wide) {
      const i = threadIdx.x;
      const v = x[i];
      const k = i * 6;
      o[k] = Number.isNaN(v) ? 1 : 0;
      o[k + 1] = Number.isFinite(v) ? 1 : 0;
      o[k + 2] = v === Infinity ? 1 : v === -Infinity ? -1 : 0;
      o[k + 3] = Math.PI * v;
      o[k + 4] = v > 0 ? NaN : v;
      o[k + 5] = v !== v ? 7 : Math.max(v, 0);
    });
    const x = Float32Array.from([NaN, Infinity, -Infinity, 1.5, -2, 0, 3.25, -0.75]);
    const n = x.length;
    const o = wide(n * 6, "f32");   // the flags (0, 1, -1, 7) are exact in f32
    await k.launch(dev, { blocks: 1, threads: n }, x, o);
    const want = new Float64Array(n * 6);
    forThreads(n, (i) => {
      const v = x[i];
      want.set([Number.isNaN(v) ? 1 : 0, Number.isFinite(v) ? 1 : 0, v === Infinity ? 1 : v === -Infinity ? -1 : 0, F(F(Math.PI) * v), v > 0 ? NaN : v, v !== v ? 7 : Math.max(v, 0)], i * 6);
    });
    same(o, want);
  });

  dtest("every comparison of a NaN computed in the kernel: only !== is true", async ({ dev, same }) => {
    // (The NaN comes from 0 / 0 at run time, so no compiler sees a constant. WGSL's != was
    // ordered on Dawn with lavapipe: NaN != 3 was false there.)
    const k = kernel(function nanCompare(x: Float32Array, o: Int32Array) {
      const i = threadIdx.x;
      const q = x[0] / x[0], c = x[i + 1];
      const k = i * 10;
      o[k] = q !== c ? 1 : 0;
      o[k + 1] = c !== q ? 1 : 0;
      o[k + 2] = q === c ? 1 : 0;
      o[k + 3] = q < c ? 1 : 0;
      o[k + 4] = q <= c ? 1 : 0;
      o[k + 5] = q > c ? 1 : 0;
      o[k + 6] = q >= c ? 1 : 0;
      o[k + 7] = q !== 3 ? 1 : 0;
      o[k + 8] = !(q === c) ? 1 : 0;
      o[k + 9] = q !== q ? 1 : 0;
    });
    const x = Float32Array.from([0, 3, NaN, -Infinity]);
    const n = 3;
    const o = poisonI32(n * 10);
    await k.launch(dev, { blocks: 1, threads: n }, x, o);
    const want = new Int32Array(n * 10);
    forThreads(n, (i) => {
      const q = x[0] / x[0], c = x[i + 1];
      want.set([q !== c, c !== q, q === c, q < c, q <= c, q > c, q >= c, q !== 3, !(q === c), q !== q].map(Number), i * 10);
    });
    same(o, want);
  });

  dtest("conversions on typed-array stores (f32 -> i32/u32, f64 -> f32)", async ({ dev, same, wgsl }) => {
    const k = kernel(function storeConv(x: Float32Array, d: Wide, oi: Int32Array, ou: Uint32Array, of: Float32Array) {
      const i = threadIdx.x;
      oi[i] = x[i];
      ou[i] = x[i];
      of[i] = d[i];
    });
    // Out-of-range values, NaN and infinities wrap as JS's ToInt32 does on every device (WGSL's
    // own conversion would saturate: gpuc's WGSL wraps explicitly). WGSL has no f64, so there d is
    // a Float32Array.
    const x = Float32Array.from([-3.75, 3.75, 1e10, -1e10, NaN, Infinity, -0.5, 4294967296, 2147483648, -1]);
    const d64 = Float64Array.from([0.1, 1 / 3, 1e40, -1e-50, NaN, 16777217, Math.PI, -2.5, 3e38, 1 + 2 ** -30]);
    const d = wgsl ? Float32Array.from(d64) : d64;
    const n = x.length;
    const oi = poisonI32(n), ou = poisonU32(n), of = poisonF32(n);
    await k.launch(dev, { blocks: 1, threads: n }, x, d, oi, ou, of);
    const wi = new Int32Array(n), wu = new Uint32Array(n), wf = new Float32Array(n);
    forThreads(n, (i) => { wi[i] = x[i]; wu[i] = x[i]; wf[i] = d[i]; });
    same(oi, wi, "i32 store");
    same(ou, wu, "u32 store");
    same(of, wf, "f32 store");
  });

  dtest("float -> int with | 0, >>> 0 and ~~", async ({ dev, same, wide }) => {
    const k = kernel(function intConv(x: Float32Array, o: Wide) {
      const i = threadIdx.x;
      o[i * 3] = (x[i] * 1000) | 0;
      o[i * 3 + 1] = x[i] >>> 0;
      o[i * 3 + 2] = ~~x[i];
    });
    // Out-of-range values and NaN wrap as in JS on every device (see the store test above).
    const x = Float32Array.from([1.2345, -1.2345, 3e9, -3e9, NaN, -0.9, 5e9, 1e30, -Infinity, ...randF32(131, 5, -1e6, 1e6)]);
    const n = x.length;
    const o = wide(n * 3, "u32");
    await k.launch(dev, { blocks: 1, threads: n }, x, o);
    const want = new Float64Array(n * 3);
    forThreads(n, (i) => want.set([F(x[i] * 1000) | 0, x[i] >>> 0, ~~x[i]], i * 3));
    same(o, want);
  });

  dtest("exponent operator on ints and floats", async ({ dev, same, wide }) => {
    const k = kernel(function powk(a: Int32Array, x: Float32Array, o: Wide) {
      const i = threadIdx.x;
      o[i * 3] = a[i] ** 2;
      o[i * 3 + 1] = x[i] ** 0.5;
      o[i * 3 + 2] = 2 ** a[i];
    });
    const a = Int32Array.from([4097, -3, 0, 20, 5, 1, -1, 12]);
    const x = Float32Array.from([2, 0.1, 9, -4, 1e-3, 100, 0, 3]);
    const o = wide(24, "f32");
    await k.launch(dev, { blocks: 1, threads: 8 }, a, x, o);
    const want = new Float64Array(24);
    forThreads(8, (i) => want.set([F(Math.pow(F(a[i]), 2)), F(Math.pow(x[i], 0.5)), F(Math.pow(2, F(a[i])))], i * 3));
    same(o, want);
    assert.equal(o[0], 16785408, "4097 ** 2 is f32");
  });

  dtest("Math.pow of negative bases: odd and even integer exponents, fractions, infinite exponents", async ({ dev, same }) => {
    // (WGSL: gpuc_pow tests the exponent's finiteness by its bits, so an infinite one is no
    // fraction whichever way the driver's != takes a NaN.)
    const k = kernel(function powNeg(x: Float32Array, y: Float32Array, o: Float32Array) {
      const i = threadIdx.x;
      o[i] = Math.pow(x[i], y[i]);
    });
    const x = Float32Array.from([-2, -2, -0.5, -0.5, -1, 2, -3, -3, -3, -2]);
    const y = Float32Array.from([Infinity, -Infinity, Infinity, -Infinity, Infinity, Infinity, 3, 2, 0.5, -1]);
    const o = poisonF32(x.length);
    await k.launch(dev, { blocks: 1, threads: x.length }, x, y, o);
    same(o, Array.from(x, (v, i) => F(Math.pow(v, y[i]))));
  });

  dtest("3-point stencil with ternary boundaries", async ({ dev, same }) => {
    const k = kernel(function stencil3(x: Float32Array, o: Float32Array, n: number) {
      const i = blockIdx.x * blockDim.x + threadIdx.x;
      if (i >= n) return;
      const l = i > 0 ? x[i - 1] : x[i];
      const r = i < n - 1 ? x[i + 1] : x[i];
      o[i] = l * 0.25 + x[i] * 0.5 + r * 0.25;
    });
    const n = 200;
    const x = randF32(141, n, -100, 100), o = poisonF32(n + 8);
    await k.launch(dev, { blocks: 7, threads: 32 }, x, o, n);
    const want = poisonF32(n + 8);
    forThreads(n, (i) => {
      const l = i > 0 ? x[i - 1] : x[i], r = i < n - 1 ? x[i + 1] : x[i];
      want[i] = F(F(F(l * 0.25) + F(x[i] * 0.5)) + F(r * 0.25));
    });
    same(o, want);
  });

  dtest("float literal 1.0 is f32 (kernel built from source text)", async ({ dev, same, wide }) => {
    // eval keeps the literal text; esbuild would print `1.0` as `1`.
    const fn = (0, eval)("(function floatLit(o) { const a = 1.0; const b = 1; let big = 2147483647; o[0] = a + big; o[1] = b + big; o[2] = big + 0.5; })");
    const k = kernel(fn);
    const o = wide(3, "f32");   // o[1] is the i32 -2^31, exact in f32
    await k.launch(dev, { blocks: 1, threads: 1 }, o);
    same(o, [2147483648, -2147483648, 2147483648]);
  });

  dtest("f32 remainder with negative operands", async ({ dev, same, wide }) => {
    const k = kernel(function fmodk(x: Float32Array, y: Float32Array, o: Wide) {
      const i = threadIdx.x;
      o[i * 3] = x[i] % 1.5;
      o[i * 3 + 1] = x[i] % y[i];
      o[i * 3 + 2] = -x[i] % 2;
    });
    const x = Float32Array.from([-4.7, 5.3, 0, -0, 7.25, ...randF32(301, 5, -20, 20)]);
    const y = Float32Array.from([-1.1, 1.1, 3, 2, 0, ...randF32(302, 5, -3, 3)]);
    const n = x.length;
    const o = wide(n * 3, "f32");
    await k.launch(dev, { blocks: 1, threads: n }, x, y, o);
    const want = new Float64Array(n * 3);
    forThreads(n, (i) => want.set([F(x[i] % 1.5), F(x[i] % y[i]), F(-x[i] % 2)], i * 3));
    same(o, want);
  });

  dtest("exact JS results where WGSL's built-ins differ: f32 % with large quotients, sign/round of NaN and signed zeros, min/max of ±0, integer ÷ a constant 0", async ({ dev, same }) => {
    const k = kernel(function jsExact(x: Float32Array, y: Float32Array, z: Float32Array, o: Float32Array, n: Int32Array, q: Int32Array) {
      const i = threadIdx.x;
      o[i * 7] = x[i] % y[i];
      o[i * 7 + 1] = -x[i] % y[i];
      o[i * 7 + 2] = Math.sign(z[i]);
      o[i * 7 + 3] = Math.round(z[i]);
      o[i * 7 + 4] = Math.min(z[i], -z[i]);
      o[i * 7 + 5] = Math.max(z[i], -z[i]);
      o[i * 7 + 6] = Math.cbrt(z[i]);
      q[i * 2] = (n[i] / 0) | 0;
      q[i * 2 + 1] = n[i] % 0;
    });
    // x / y up to 2^151 (WGSL's x - y * trunc(x / y) loses every bit there); no subnormals
    // (WGSL may flush them).
    const x = Float32Array.from([1e10, 16777215, 3.4e38, -7.25, 0.1, 5, 123456.7, 1e-30]);
    const y = Float32Array.from([3, 0.1, 1.5e-38, 2, 1e-7, -0.75, 0.001, 3e-31]);
    const z = Float32Array.from([NaN, -0, 0, -0.3, -0.5, 0.5, 2.5, -2.5]);
    const n = Int32Array.from([7, -7, 0, 2147483647, -2147483648, 1, -1, 12345]);
    const len = x.length;
    const o = poisonF32(len * 7), q = poisonI32(len * 2);
    await k.launch(dev, { blocks: 1, threads: len }, x, y, z, o, n, q);
    const want = new Float32Array(len * 7), wantQ = new Int32Array(len * 2);
    forThreads(len, (i) => {
      want.set([x[i] % y[i], -x[i] % y[i], Math.sign(z[i]), Math.round(z[i]), Math.min(z[i], -z[i]), Math.max(z[i], -z[i]), Math.cbrt(z[i])], i * 7);
      wantQ.set([0, 0], i * 2);
    });
    // Every element exactly, signed zeros and NaN included (cbrt to within f32 rounding).
    same(o, want, "f32 results", { floats: (j) => j % 7 === 6 });
    same(q, wantQ, "integer ÷ 0 and % 0");
  });

  dtest("u32 values in float arithmetic and Math.abs", async ({ dev, same, wideMixed }) => {
    const k = kernel(function u32float(u: Uint32Array, v: Uint32Array, o: Wide) {
      const i = threadIdx.x;
      o[i * 3] = u[i] / 2;
      o[i * 3 + 1] = Math.abs(u[i]);
      o[i * 3 + 2] = u[i] / v[i];
    });
    const u = Uint32Array.from([4294967295, 3, 2147483648, 0]), v = Uint32Array.from([3, 2, 7, 0]);
    const floats = (j: number) => j % 3 !== 1;
    const o = await wideMixed(12, floats, (o) => k.launch(dev, { blocks: 1, threads: 4 }, u, v, o));
    const want = new Float64Array(12);
    forThreads(4, (i) => want.set([F(F(u[i]) / 2), u[i], F(F(u[i]) / F(v[i]))], i * 3));
    same(o, want, "results", { floats });
  });
});

// =============================================================================================
// Each test below is a compiler bug found while writing this suite (all fixed since): the kernel
// is in the kernel language and the expected values follow its rules (JS semantics unless a rule
// above says otherwise).

describe("regressions (compiler bugs found by this suite)", () => {
  dtest("a choice between two literals takes its context's type (c ? 0.1 : 0.2 stored into f64 is exact)", async ({ dev, same, wgsl }) => {
    const k = kernel(function literalChoice(o: Float64Array, x: Float64Array, f: Float32Array) {
      const i = threadIdx.x;
      o[i] = x[i] > 0 ? 0.1 : 0.2;
      let r = x[i] * 0;
      r = x[i] > 0 ? 0.3 : 0.7;
      o[i + 2] = r;
      o[i + 4] = x[i] * (x[i] > 0 ? 0.1 : 3);
      f[i] = x[i] > 0 ? 0.1 : 0.2;
    });
    const o = new Float64Array(6), f = new Float32Array(2);
    if (wgsl) return rejectsF64(k.launch(dev, { blocks: 1, threads: 2 }, o, Float64Array.from([1, -1]), f));   // WGSL has no f64
    await k.launch(dev, { blocks: 1, threads: 2 }, o, Float64Array.from([1, -1]), f);
    same(o, [0.1, 0.2, 0.3, 0.7, 0.1, -3]);
    same(f, [Math.fround(0.1), Math.fround(0.2)]);
  });
});

// fastMath on the CPU device: f32 arithmetic carried in f64 between stores (JavaScript has no f32
// arithmetic: rounding each step costs a dependency chain two conversions a step).
test("fastMath on the CPU device: f32 sums in f64 between stores, rounded where stored; exact f32 without it", async () => {
  const sum = function sum(o: Float32Array, x: Float32Array) {
    let acc = 0;
    for (let k = 0; k < x.length; k++) acc += x[k] * 1;
    o[threadIdx.x] = acc;
  };
  const x = Float32Array.from([1, 2 ** -24, 2 ** -24]);
  const dev = await device("cpu", { threads: 1 });
  const exact = new Float32Array(1), fast = new Float32Array(1);
  await kernel(sum).launch(dev, { blocks: 1, threads: 1 }, exact, x);
  await kernel(sum, { fastMath: true }).launch(dev, { blocks: 1, threads: 1 }, fast, x);
  dev.close();
  assert.equal(exact[0], 1, "f32: 1 + 2^-24 rounds to 1, twice");
  assert.equal(fast[0], Math.fround(1 + 2 ** -23), "f64: 1 + 2^-23, rounded once where stored");
  const code = (await kernel(sum, { fastMath: true }).compile({ target: "js", types: ["f32[]", "f32[]"] })).code as string;
  assert.doesNotMatch(code, /acc = Math\.fround/);
});
