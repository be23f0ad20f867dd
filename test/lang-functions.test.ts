// Execution tests of helpers, the functions a kernel calls (nested, specialized per argument types,
// early returns, declared inside the kernel, recursive, reading the thread indices, with array
// parameters): small kernels, each compared with a plain-JavaScript reference computed here. f32
// references round every operation with Math.fround; i32/u32 references wrap with `| 0` / `>>> 0` /
// Math.imul.
//
// Every test runs on each device of the matrix (helpers.ts: `dtest`): the CPU device (the JS
// target, the exact reference semantics) and WebGPU (the WGSL target), where integers must agree
// exactly and f32 values within F32_TOL relative unless a test says why not. Where WebGPU differs
// by design (no recursion), the test says so where it branches on `wgsl`.
//
// Outputs are poisoned (NaN or a sentinel) before each launch so unwritten elements show, and many
// outputs are "wide" (`wide`, `wideMixed`): Float64Array on the CPU, so that a missing in-kernel
// wrap or f32 rounding is not hidden by the conversion a narrower typed-array store would do; on
// WebGPU, which has no f64, arrays of the results' own types.
//
// Note: tsx transpiles this file with esbuild, which reprints kernel sources (whitespace removed,
// `1.0` printed as `1`, `1000` printed as `1e3` -- which gpuc reads as a float literal --, some
// constant expressions folded). Integer literals in these kernels therefore avoid multiples of
// 1000.

import { describe } from "node:test";
import { kernel, threadIdx, blockIdx, blockDim, gridDim } from "../src/index.ts";
import { randF32, randI32, poisonF32, poisonF64, poisonI32, F, forThreads, dtest, openDevices,
  rejectsRecursion, rejectsCompile, type Wide } from "./helpers.ts";

await openDevices();

// ---- scope helpers (module-level functions passed in `scope`) ------------------------------

function sq(v: number) { return v * v; }
function sumsq(a: number, b: number) { return sq(a) + sq(b); }
function norm2(a: number, b: number) { return Math.sqrt(sumsq(a, b)); }
function add2(p: number, q: number) { return p + q; }
function classify(v: number) {
  if (v < 0) return -1;
  if (v === 0) return 0;
  for (let k = 1; k < 5; k++) {
    if (v < k * 10) return k;
  }
  return 99;
}
function firstNeg(arr: Float32Array, start: number, n: number) {
  for (let k = start; k < n; k++) if (arr[k] < 0) return k;
  return -1;
}
// Helpers that read or update an array parameter, in their natural, inlinable form (see the
// regressions below).
function mark(arr: Int32Array, j: number) { arr[j] = arr[j] + 1; return true; }
function getAt(arr: Int32Array, j: number) { return arr[j]; }
function fib(n: number): number { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
function gcd(a: number, b: number): number { if (b === 0) return a; return gcd(b, a % b); }
function isEven(n: number): boolean { if (n === 0) return true; return isOdd(n - 1); }
function isOdd(n: number): boolean { if (n === 0) return false; return isEven(n - 1); }
// A three-function cycle whose only base case is in the first: the others' types come from the
// first one's fixed point (they were once reported as "cannot infer the return type").
function cycleA(n: number): number { return n <= 0 ? 0.5 : cycleB(n - 1); }
function cycleB(n: number): number { return cycleC(n) * 2; }
function cycleC(n: number): number { return cycleA(n) - 1; }

// =============================================================================================

describe("helpers", () => {
  // Functions as values: passed to helpers (a scope function, an intrinsic, a local one, one written
  // where it is passed), bound to a const, passed on; each helper specialized per function given.
  const addF = (x: number, y: number) => x + y;
  function foldWith(a: Float32Array, n: number, op: (x: number, y: number) => number) { let acc = a[0]; for (let i = 1; i < n; i++) acc = op(acc, a[i]); return acc; }
  function passOn(f: (x: number, y: number) => number, x: number) { return selfApply(f, x); }
  function selfApply(f: (x: number, y: number) => number, x: number) { return f(x, x); }
  dtest("functions as values: passed to helpers, bound to a const, passed on (SHOC MD5Hash's ROUND(w, r, k, F))", async ({ dev, same }) => {
    const k = kernel(function higherOrder(a: Float32Array, o: Float32Array, n: number) {
      const t = threadIdx.x;
      const mul = (x: number, y: number) => x * y;
      const op = Math.min;
      const r = [foldWith(a, n, addF), foldWith(a, n, Math.max), foldWith(a, n, (x, y) => x - y), foldWith(a, n, mul), op(a[0], a[1]), passOn(addF, a[2]),
        foldWith(a, n, function (x, y) { return x * 0.5 + y; }), typeof addF === "function" ? 1 : 0];
      o[t] = r[t];
    }, { scope: { addF, foldWith, passOn, selfApply } });
    const a = Float32Array.from([3, 1.5, 4, 0.5, 2]), o = poisonF32(8);
    await k.launch(dev, { blocks: 1, threads: 8 }, a, o, 5);
    const fold = (op: (x: number, y: number) => number) => { let acc = a[0]; for (let i = 1; i < 5; i++) acc = F(op(acc, a[i])); return acc; };
    same(o, [fold((x, y) => x + y), fold(Math.max), fold((x, y) => x - y), fold((x, y) => x * y), Math.min(a[0], a[1]), F(a[2] + a[2]), fold((x, y) => F(x * 0.5) + y), 1]);
    // A local function that assigns what it captures, given a function (MD5's ROUND and F, G).
    const rot = (x: number, c: number) => (x << c) | (x >>> (32 - c));
    const Fm = (x: number, y: number, z: number) => (x & y) | (~x & z), Gm = (x: number, y: number, z: number) => (x & z) | (~z & y);
    const md = kernel(function rounds(o: Uint32Array, w: number) {
      let a = 0x67452301, b = 0xefcdab89, c = 0x98badcfe, d = 0x10325476;
      const ROUND = (x: number, r: number, kk: number, func: (x: number, y: number, z: number) => number) => { a = (a + func(b, c, d) + kk + x) >>> 0; const temp = d; d = c; c = b; b = (b + rot(a, r)) >>> 0; a = temp; };
      ROUND(w, 7, 0xd76aa478, Fm); ROUND(0, 12, 0xe8c7b756, Fm); ROUND(w, 5, 0xf61e2562, Gm); ROUND(0, 9, 0xc040b340, Gm);
      o[0] = a; o[1] = b; o[2] = c; o[3] = d;
    }, { scope: { rot, Fm, Gm } });
    const out = new Uint32Array(4);
    await md.launch(dev, { blocks: 1, threads: 1 }, out, 12345);
    let A = 0x67452301, B = 0xefcdab89, C = 0x98badcfe, D = 0x10325476;
    const R = (x: number, r: number, kk: number, func: (x: number, y: number, z: number) => number) => { A = (A + func(B, C, D) + kk + x) >>> 0; const temp = D; D = C; C = B; B = (B + rot(A, r)) >>> 0; A = temp; };
    R(12345, 7, 0xd76aa478, Fm); R(0, 12, 0xe8c7b756, Fm); R(12345, 5, 0xf61e2562, Gm); R(0, 9, 0xc040b340, Gm);
    same(out, [A, B, C, D]);
  });

  // SHOC Spmv's texture reader functor: the kernel's vector read through a function a helper is given.
  function spmvRow(rows: Int32Array, cols: Int32Array, val: Float32Array, out: Float32Array, row: number, read: (i: number) => number) {
    let t = 0;
    for (let j = rows[row]; j < rows[row + 1]; j++) t += val[j] * read(cols[j]);
    out[row] = t;
  }
  dtest("functions as values: local functions that read the locals around them (numbers, objects, arrays, views) take them along", async ({ dev, same }) => {
    const k = kernel(function closures(a: Float32Array, o: Float32Array, n: number, vec: Float32Array, rows: Int32Array, cols: Int32Array, val: Float32Array, out: Float32Array) {
      const s = a[0] * 2;
      const scale = (x: number, y: number) => x + y * s;
      const p = { w: 3, b: -1 };
      const sub = a.subarray(1);
      const h = scale;
      // (Two functions written on one line have one name: each is still its own specialization.)
      const r = [foldWith(a, n, scale), foldWith(a, n, (x, y) => x * p.w + y + p.b), h(1, 2), foldWith(a, n, (x, y) => x + y * sub[0] + sub.length), foldWith(a, n, (x, y) => x - y) - foldWith(a, n, (x, y) => x * y)];
      const t = threadIdx.x;
      o[t] = r[t];
      if (t < 4) spmvRow(rows, cols, val, out, t, (i) => vec[i]);
    }, { scope: { foldWith, spmvRow } });
    const a = Float32Array.from([3, 1.5, 4, 0.5, 2]), o = poisonF32(5), out = poisonF32(4);
    const vec = Float32Array.from([1, 2, 3, 4]), rows = Int32Array.from([0, 2, 3, 5, 6]), cols = Int32Array.from([0, 3, 1, 0, 2, 3]), val = Float32Array.from([1, 2, 3, 4, 5, 6]);
    await k.launch(dev, { blocks: 1, threads: 5 }, a, o, 5, vec, rows, cols, val, out);
    const s = F(a[0] * 2);
    const fold = (op: (x: number, y: number) => number) => { let acc = a[0]; for (let i = 1; i < 5; i++) acc = F(op(acc, a[i])); return acc; };
    same(o, [fold((x, y) => F(x + F(y * s))), fold((x, y) => F(F(F(x * 3) + y) - 1)), F(1 + F(2 * s)), fold((x, y) => F(F(x + F(y * a[1])) + 4)), F(fold((x, y) => x - y) - fold((x, y) => x * y))]);
    same(out, [0, 1, 2, 3].map((r) => { let t = 0; for (let j = rows[r]; j < rows[r + 1]; j++) t = F(t + F(val[j] * vec[cols[j]])); return t; }));
  });

  dtest("functions as values: what is refused (one that assigns what it captures, a function as a number, two functions in one variable, a call of a number)", async ({ dev }) => {
    const c = (fn: Function) => kernel(fn as never, { scope: { addF, foldWith } }).compile({ target: dev.target, types: ["f32[]", "f32[]", "i32"] });
    await rejectsCompile(c(function assigns(a: Float32Array, o: Float32Array, n: number) { let cnt = 0; const bump = (x: number, y: number) => { cnt++; return x + y; }; o[0] = foldWith(a, n, bump) + cnt; }),
      "unsupported-syntax", /'bump' assigns what it captures of the function it is declared in \('cnt'\): called through a value, it cannot give them back there/);
    await rejectsCompile(c(function asNumber(_a: Float32Array, o: Float32Array, _n: number) { o[0] = (addF as unknown as number) + 1; }), "type", /expected a number or boolean, got function 'addF'/);
    await rejectsCompile(c(function two(_a: Float32Array, o: Float32Array, n: number) { let f = addF; if (n > 2) f = Math.max; o[0] = f(1, 2); }), "type", /'f' holds function 'addF' and, here, function 'Math.max'/);
    await rejectsCompile(c(function callsNumber(_a: Float32Array, o: Float32Array, n: number) { const f = n as unknown as (x: number) => number; o[0] = f(1); }), "dynamic-call", /unsupported dynamic function invocation \(call to 'f'\)/);
  });

  dtest("nested helpers: helper calling helper calling helper", async ({ dev, same }) => {
    const k = kernel(function nestedHelpers(x: Float32Array, y: Float32Array, o: Float32Array) {
      const i = threadIdx.x;
      o[i] = norm2(x[i], y[i]) + sq(i);
    }, { scope: { sq, sumsq, norm2 } });
    const x = randF32(151, 32, -10, 10), y = randF32(152, 32, -10, 10), o = poisonF32(32);
    await k.launch(dev, { blocks: 1, threads: 32 }, x, y, o);
    same(o, Array.from(x, (v, i) => F(F(Math.sqrt(F(F(v * v) + F(y[i] * y[i])))) + i * i)));
  });

  dtest("one helper specialized on (i32,i32), (f32,f32) and (f32,i32) in one kernel", async ({ dev, same, wide }) => {
    const k = kernel(function twoTuples(x: Float32Array, big: Int32Array, oi: Wide, of: Wide) {
      const i = threadIdx.x;
      oi[i * 2] = add2(i, 1);
      oi[i * 2 + 1] = add2(big[i], 1);
      of[i * 2] = add2(x[i], 0.5);
      of[i * 2 + 1] = add2(x[i], i);
    }, { scope: { add2 } });
    const n = 8;
    const x = randF32(161, n, -100, 100), big = Int32Array.from([2147483647, -1, 0, 5, 16777216, -2147483648, 100, 2147483646]);
    const oi = wide(n * 2, "i32"), of = wide(n * 2, "f32");
    await k.launch(dev, { blocks: 1, threads: n }, x, big, oi, of);
    const wi = new Float64Array(n * 2), wf = new Float64Array(n * 2);
    forThreads(n, (i) => { wi.set([i + 1, (big[i] + 1) | 0], i * 2); wf.set([F(x[i] + 0.5), F(x[i] + i)], i * 2); });
    same(oi, wi, "integer specialization");
    same(of, wf, "float specialization");
  });

  dtest("helpers with early returns (in a loop too) and an array parameter", async ({ dev, same }) => {
    const k = kernel(function earlyHelpers(x: Float32Array, o: Int32Array, p: Int32Array) {
      const i = threadIdx.x;
      o[i] = classify(x[i]);
      p[i] = firstNeg(x, i, x.length);
    }, { scope: { classify, firstNeg } });
    const x = Float32Array.from([-1, 0, 5, 9.99, 10, 25, 39.5, 40, 1000, -0.5, 12, 3]);
    const n = x.length;
    const o = poisonI32(n), p = poisonI32(n);
    await k.launch(dev, { blocks: 1, threads: n }, x, o, p);
    same(o, Array.from(x, (v) => classify(v)));
    same(p, Array.from(x, (_v, i) => firstNeg(x, i, n)));
  });

  dtest("helpers declared inside the kernel body (hoisted, calling each other)", async ({ dev, same }) => {
    const k = kernel(function innerFns(x: Float32Array, o: Float32Array) {
      function lerp(a: number, b: number, t: number) { return a + (b - a) * t; }
      function smooth(t: number) { const c = clamp01(t); return c * c * (3 - 2 * c); }
      function clamp01(t: number) { return t < 0 ? 0 : t > 1 ? 1 : t; }
      const i = threadIdx.x;
      o[i] = lerp(-1, 2, smooth(x[i]));
    });
    const x = Float32Array.from([-0.5, 0, 0.1, 0.25, 0.5, 0.75, 0.9, 1, 1.5, ...randF32(171, 7, -0.2, 1.2)]);
    const n = x.length;
    const o = poisonF32(n);
    await k.launch(dev, { blocks: 1, threads: n }, x, o);
    same(o, Array.from(x, (t) => {
      const c = t < 0 ? 0 : t > 1 ? 1 : t;
      const s = F(F(c * c) * F(3 - F(2 * c)));
      return F(-1 + F(3 * s));
    }));
  });

  dtest("recursive helpers (fib, gcd) on the JS target", async ({ dev, same, recursion }) => {
    const k = kernel(function recursion(a: Int32Array, b: Int32Array, o: Int32Array) {
      const i = threadIdx.x;
      o[i * 2] = fib(i);
      o[i * 2 + 1] = gcd(a[i], b[i]);
    }, { scope: { fib, gcd } });
    const n = 20;
    const a = randI32(181, n, 1, 100000), b = randI32(182, n, 1, 100000), o = poisonI32(n * 2);
    if (!recursion) return rejectsRecursion(k.launch(dev, { blocks: 1, threads: n }, a, b, o));   // WGSL and OpenCL C have no call stack
    await k.launch(dev, { blocks: 1, threads: n }, a, b, o);
    const want = new Int32Array(n * 2);
    forThreads(n, (i) => want.set([fib(i), gcd(a[i], b[i])], i * 2));
    same(o, want);
  });

  dtest("mutually recursive helpers returning bool", async ({ dev, same, recursion }) => {
    const k = kernel(function mutual(o: Int32Array) {
      const i = threadIdx.x;
      o[i] = isEven(i) ? 10 : isOdd(i) ? 20 : 30;
    }, { scope: { isEven, isOdd } });
    const o = poisonI32(16);
    if (!recursion) return rejectsRecursion(k.launch(dev, { blocks: 1, threads: 16 }, o));   // WGSL and OpenCL C have no call stack
    await k.launch(dev, { blocks: 1, threads: 16 }, o);
    same(o, Array.from({ length: 16 }, (_v, i) => (i % 2 === 0 ? 10 : 20)));
  });

  dtest("a cycle of three recursive helpers typed by arithmetic on each other's results", async ({ dev, same, recursion }) => {
    const k = kernel(function cycle(o: Float32Array) {
      const i = threadIdx.x;
      o[i] = cycleA(i) + cycleB(i);
    }, { scope: { cycleA, cycleB, cycleC } });
    const o = poisonF32(8);
    if (!recursion) return rejectsRecursion(k.launch(dev, { blocks: 1, threads: 8 }, o));   // WGSL and OpenCL C have no call stack
    await k.launch(dev, { blocks: 1, threads: 8 }, o);
    same(o, Array.from({ length: 8 }, (_v, i) => Math.fround(cycleA(i) + cycleB(i))));
  });

  dtest("helpers that read the thread indices themselves", async ({ dev, same }) => {
    function lin3() {
      return ((blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x + blockIdx.x) * (blockDim.x * blockDim.y * blockDim.z)
        + (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
    }
    function twiceLin(z: number) { return lin3() * 2 + z; }
    const k = kernel(function builtinHelpers(o: Int32Array) {
      const g = lin3();
      o[g * 2] = g;
      o[g * 2 + 1] = twiceLin(1);
    }, { scope: { lin3, twiceLin } });
    const total = 2 * 2 * 3 * 2 * 2;
    const o = poisonI32(total * 2);
    await k.launch(dev, { blocks: [2, 2], threads: [3, 2, 2] }, o);
    same(o, Array.from({ length: total * 2 }, (_v, j) => (j % 2 === 0 ? j / 2 : ((j - 1) / 2) * 2 + 1)));
  });

  dtest("recursive helper specialized on f32 and i32", async ({ dev, same, recursion }) => {
    function powRec(b: number, e: number): number { return e === 0 ? 1 : b * powRec(b, e - 1); }
    const k = kernel(function recPow(x: Float32Array, o: Float64Array) {
      const i = threadIdx.x;
      o[i * 2] = powRec(x[i], i);
      o[i * 2 + 1] = powRec(2, i);
    }, { scope: { powRec } });
    const n = 12;
    const x = randF32(311, n, 0.5, 1.5), o = poisonF64(n * 2);
    if (!recursion) return rejectsRecursion(k.launch(dev, { blocks: 1, threads: n }, x, o));   // WGSL and OpenCL C have no call stack
    await k.launch(dev, { blocks: 1, threads: n }, x, o);
    const want = new Float64Array(n * 2);
    forThreads(n, (i) => { let r = 1; for (let e = 0; e < i; e++) r = F(x[i] * r); want.set([r, 2 ** i], i * 2); });
    same(o, want);
  });

  dtest("helper with a switch returning from its cases", async ({ dev, same }) => {
    function swv(v: number) {
      switch (v) {
        case 0: return 10;
        case 1:
        case 2: return 20;
        default: break;
      }
      return 30;
    }
    const k = kernel(function helperSwitch(o: Int32Array) {
      const i = threadIdx.x;
      o[i] = swv(i % 4) + i;
    }, { scope: { swv } });
    const o = poisonI32(8);
    await k.launch(dev, { blocks: 1, threads: 8 }, o);
    same(o, [10, 21, 22, 33, 14, 25, 26, 37]);
  });

  // Local functions (issue #32, item 4): SHOC's spmv reads its vector through a lambda
  // (`auto read = [&](int i) { … }`), cuda-samples' kernels through small helpers declared in
  // place. In JavaScript: `const read = (i) => …` in the kernel, closing over its locals.
  dtest("local functions: arrows and function expressions declared in a kernel and in a helper, reading the locals around them", async ({ dev, same }) => {
    function rowSum(x: Float32Array, row: number, n: number) {
      const at = (j: number) => x[row * n + j];
      let s = 0;
      for (let j = 0; j < n; j++) s += at(j);
      return s;
    }
    const k = kernel(function localFns(o: Float32Array, x: Float32Array, n: number) {
      const t = threadIdx.x;
      const base = blockIdx.x * blockDim.x;
      const read = (i: number) => (i < n ? x[base + i] : 0);
      function twice(i: number) { return read(i) * 2 + t; }
      const add = function (a: number, b: number) { return a + b + base; };
      let s = 0;
      for (let j = 0; j < 3; j++) s += twice(t + j);
      o[base + t] = add(s, read(t)) + rowSum(x, blockIdx.x, 4);
    }, { scope: { rowSum } });
    const x = randF32(191, 16, -4, 4), o = poisonF32(16);
    await k.launch(dev, { blocks: 2, threads: 8 }, o, x, 8);
    same(o, Array.from({ length: 16 }, (_, i) => {
      const b = Math.floor(i / 8), t = i % 8, base = b * 8;
      const read = (j: number) => (j < 8 ? x[base + j] : 0);
      let s = 0;
      for (let j = 0; j < 3; j++) s = F(s + F(F(read(t + j) * 2) + t));
      let r = 0;
      for (let j = 0; j < 4; j++) r = F(r + x[b * 4 + j]);
      return F(F(F(F(s + read(t)) + base)) + r);
    }));
  });

  dtest("a local function assigns a local around it as C++'s [&] captures do: the caller sees the new value", async ({ dev, same }) => {
    const k = kernel(function assigns(o: Int32Array) { let c = 0; const inc = () => { c = c + 1; return c; }; o[0] = inc(); o[1] = inc() + c; o[2] = c; });
    const o = new Int32Array(3);
    await k.launch(dev, { blocks: 1, threads: 1 }, o);
    same(o, [1, 4, 2]);
  });
});

// =============================================================================================
// Each test below is a compiler bug found while writing this suite (all fixed since): the kernel
// is in the kernel language and the expected values follow its rules (JS semantics unless a rule
// above says otherwise).

describe("regressions (compiler bugs found by this suite)", () => {
  dtest("inlined helper that reads an array parameter", async ({ dev, same }) => {
    const k = kernel(function inlArrRead(c: Int32Array, o: Int32Array) {
      const i = threadIdx.x;
      o[i] = getAt(c, i) * 2;
    }, { scope: { getAt } });
    const c = Int32Array.from([3, -4, 5, 6]), o = poisonI32(4);
    await k.launch(dev, { blocks: 1, threads: 4 }, c, o);
    same(o, [6, -8, 10, 12]);
  });

  dtest("inlined helper that updates an array parameter, as the right side of && and ||", async ({ dev, same }) => {
    const k = kernel(function inlArrWrite(x: Float32Array, hitA: Int32Array, hitO: Int32Array, o: Int32Array) {
      const i = threadIdx.x;
      let r = 0;
      if (x[i] > 0 && mark(hitA, i)) r += 1;
      if (x[i] > 0 || mark(hitO, i)) r += 2;
      o[i] = r;
    }, { scope: { mark } });
    const x = Float32Array.from([1, -1, 2, 0]);
    const hitA = new Int32Array(4), hitO = new Int32Array(4), o = poisonI32(4);
    await k.launch(dev, { blocks: 1, threads: 4 }, x, hitA, hitO, o);
    same(hitA, [1, 0, 1, 0], "&& calls");
    same(hitO, [0, 1, 0, 1], "|| calls");
    same(o, [3, 2, 3, 2]);
  });

  dtest("zero-parameter helper that uses another helper's result", async ({ dev, same }) => {
    function oneC() { return 1; }
    function twoC() { return oneC() * 2; }
    const k = kernel(function zeroParamHelpers(o: Int32Array) {
      function a() { return 10; }
      function b() { return a() + 1; }
      o[threadIdx.x] = twoC() + b() + threadIdx.x;
    }, { scope: { oneC, twoC } });
    const o = poisonI32(3);
    await k.launch(dev, { blocks: 1, threads: 3 }, o);
    same(o, [13, 14, 15]);
  });

  dtest("parameters with defaults, and arguments not passed (undefined, as JavaScript passes them)", async ({ dev, same }) => {
    // The helpers run as plain JavaScript for the reference.
    function scaled(a: number, b = a * 2, c = b + 1) { return a + b * 10 + c * 100; }
    function pick(v: number, w?: number) { return w === undefined ? v : v * w; }
    function lookup(i: number, table: Float32Array | null = null) { if (table == null) return -1; return table[i]; }
    const k = kernel(function defaults(o: Float32Array, x: Float32Array) {
      const i = threadIdx.x;
      const step = (v: number, by = 0.5) => v + by;
      o[i * 6] = scaled(x[i]);
      o[i * 6 + 1] = scaled(x[i], 2);
      o[i * 6 + 2] = scaled(x[i], undefined, 3);
      o[i * 6 + 3] = pick(x[i]) + pick(x[i], 3);
      o[i * 6 + 4] = lookup(i) + lookup(i, x);
      o[i * 6 + 5] = step(x[i]) + step(x[i], 2);
    }, { scope: { scaled, pick, lookup } });
    const x = Float32Array.from([0.5, -2, 3]), o = poisonF32(18);
    await k.launch(dev, { blocks: 1, threads: 3 }, o, x);
    const step = (v: number, by = 0.5) => v + by;
    const want = new Float32Array(18);
    forThreads(3, (i) => want.set([scaled(x[i]), scaled(x[i], 2), scaled(x[i], undefined, 3), pick(x[i]) + pick(x[i], 3), lookup(i) + lookup(i, x), step(x[i]) + step(x[i], 2)].map(F), i * 6));
    same(o, want);
  });

  dtest("typeof: known where the function is specialized (a parameter not passed, an absent optional array)", async ({ dev, same }) => {
    function scale(v: number, by?: number) { return typeof by === "undefined" ? v : v * by; }
    function kind(v: unknown) { return typeof v === "number" ? 1 : typeof v === "boolean" ? 2 : typeof v === "object" ? 3 : typeof v === "undefined" ? 4 : 5; }
    const k = kernel(function typeofs(o: Float32Array, x: Float32Array, y?: Float32Array | null) {
      const i = threadIdx.x;
      o[i] = scale(x[i]) + scale(x[i], 3) * 10 + kind(x[i]) * 100 + kind(x[i] > 1) * 1000 + kind(x) * 10000 + kind(y) * 100000 + (typeof y !== "undefined" ? 1000000 : 0);
    }, { scope: { scale, kind } });
    const x = Float32Array.from([0.5, 2]);
    for (const y of [undefined, null, Float32Array.from([1, 2])]) {
      const o = poisonF32(2);
      await k.launch(dev, { blocks: 1, threads: 2 }, o, x, y);
      same(o, Array.from({ length: 2 }, (_, i) => F(scale(x[i]) + scale(x[i], 3) * 10 + kind(x[i]) * 100 + kind(x[i] > 1) * 1000 + kind(x) * 10000 + kind(y) * 100000 + (typeof y !== "undefined" ? 1000000 : 0))));
    }
  });

  dtest("rest parameters and spread arguments: a tuple of each call's own length", async ({ dev, same }) => {
    // The helpers run as plain JavaScript for the reference.
    function sum(...v: number[]) { let s = 0; for (const e of v) s += e; return s * 10 + v.length; }
    function weigh(a: number, b: number, ...more: number[]) { return a - b + more.length * 100 + (more.length ? more[more.length - 1] : 0); }
    function tag(v: number, w = v + 1, ...more: number[]) { return v * 10 + w + more.length * 1000; }
    const k = kernel(function restSpread(o: Float32Array, x: Float32Array) {
      const i = threadIdx.x;
      const t: [number, number, number] = [x[i], 4, -1];
      o[i * 6] = sum();
      o[i * 6 + 1] = sum(x[i]) + sum(1, 2, x[i]);
      o[i * 6 + 2] = sum(...t, 5);
      o[i * 6 + 3] = weigh(1, 2) + weigh(...t) + weigh(x[i], ...t);
      o[i * 6 + 4] = Math.max(...t) + Math.min(...t, 0.25);
      o[i * 6 + 5] = Math.hypot(...[3, x[i]]) + tag(x[i]) + tag(x[i], 2, 7);
    }, { scope: { sum, weigh, tag } });
    const x = Float32Array.from([0.5, -2, 3]), o = poisonF32(18);
    await k.launch(dev, { blocks: 1, threads: 3 }, o, x);
    const want = new Float32Array(18);
    forThreads(3, (i) => {
      const t = [x[i], 4, -1];
      want.set([sum(), sum(x[i]) + sum(1, 2, x[i]), sum(...t, 5), weigh(1, 2) + weigh(t[0], t[1], t[2]) + weigh(x[i], t[0], t[1], t[2]),
        Math.max(...t) + Math.min(...t, 0.25), Math.hypot(3, x[i]) + tag(x[i]) + tag(x[i], 2, 7)].map(F), i * 6);
    });
    same(o, want);
  });
});
