// Execution tests of expressions and their evaluation order (++/-- and compound assignments as
// values and on array elements, operands that assign, the value of an assignment): small kernels,
// each compared with a plain-JavaScript reference computed here. f32 references round every
// operation with Math.fround; i32/u32 references wrap with `| 0` / `>>> 0` / Math.imul.
//
// Every test runs on each device of the matrix (helpers.ts: `dtest`): the CPU device (the JS
// target, the exact reference semantics) and WebGPU (the WGSL target), where integers must agree
// exactly and f32 values within F32_TOL relative unless a test says why not.
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
import { kernel, shared, syncthreads, threadIdx } from "../src/index.ts";
import { randF32, randI32, poisonI32, F, forThreads, dtest, openDevices, rejectsCompile, kernelError, type Wide } from "./helpers.ts";

await openDevices();

// ---- scope helpers (module-level functions passed in `scope`) ------------------------------

// A helper with a side effect through an array parameter. The extra early `return` keeps it from
// being inlined (inlining a helper that reads an array parameter once crashed: see "inlined helper
// that reads an array parameter" in lang-functions.test.ts), so the test that uses it checks
// evaluation order, not the inliner.
function idxOnceNI(cnt: Int32Array, j: number) { if (j < 0) return 0; cnt[j] = cnt[j] + 1; return j; }

// =============================================================================================

describe("expressions and evaluation order", () => {
  dtest("prefix/postfix ++ and -- as values (locals, f32, array elements, i32 max)", async ({ dev, same, wideMixed }) => {
    const k = kernel(function incDec(a: Int32Array, x: Float32Array, arr: Int32Array, o: Wide) {
      const i = threadIdx.x;
      let j = a[i];
      const p = j++;
      const q = ++j;
      const r = j--;
      const s = --j;
      let f = x[i];
      const fp = f++;
      const fq = --f;
      const t = arr[i]++;
      const u = ++arr[i];
      const w = arr[i]--;
      const k = i * 11;
      o[k] = p; o[k + 1] = q; o[k + 2] = r; o[k + 3] = s; o[k + 4] = j;
      o[k + 5] = fp; o[k + 6] = fq; o[k + 7] = f;
      o[k + 8] = t; o[k + 9] = u; o[k + 10] = w;
    });
    const a = Int32Array.from([2147483647, -2147483648, 0, 5, -1, 2147483646]);
    const x = Float32Array.from([0.1, 16777216, -0.5, 3.3, 1e-8, 2]);
    const arr0 = Int32Array.from([2147483647, -2147483648, 0, 9, -9, 40]);
    let arr = arr0;
    const n = a.length;
    const floats = (j: number) => j % 11 >= 5 && j % 11 <= 7;
    const o = await wideMixed(n * 11, floats, async (o) => {
      arr = arr0.slice();   // (wideMixed may launch twice)
      await k.launch(dev, { blocks: 1, threads: n }, a, x, arr, o);
    });
    const want = new Float64Array(n * 11);
    const wantArr = arr0.slice();
    forThreads(n, (i) => {
      let j = a[i];
      const p = j; j = (j + 1) | 0;
      j = (j + 1) | 0; const q = j;
      const r = j; j = (j - 1) | 0;
      j = (j - 1) | 0; const s = j;
      let f = x[i];
      const fp = f; f = F(f + 1);
      f = F(f - 1); const fq = f;
      const t = wantArr[i]; wantArr[i] = (wantArr[i] + 1) | 0;
      wantArr[i] = (wantArr[i] + 1) | 0; const u = wantArr[i];
      const w = wantArr[i]; wantArr[i] = (wantArr[i] - 1) | 0;
      want.set([p, q, r, s, j, fp, fq, f, t, u, w], i * 11);
    });
    same(o, want, "values", { floats });
    same(arr, wantArr, "array after ++/--");
  });

  dtest("compound assignments on array elements evaluate the index once", async ({ dev, same }) => {
    const k = kernel(function compound(x: Float32Array, y: Float32Array, ia: Int32Array, cnt: Int32Array) {
      const i = threadIdx.x;
      y[i] += x[i];
      y[idxOnceNI(cnt, i)] *= 2;
      y[i] -= 0.25;
      y[i] /= 3;
      y[i] **= 2;
      let k = i * 10;
      ia[k++] += 5;
      ia[k++] -= 7;
      ia[k++] *= -3;
      ia[k++] %= 4;
      ia[k++] <<= 3;
      ia[k++] >>= 1;
      ia[k++] >>>= 1;
      ia[k++] &= 0xff0;
      ia[k++] |= 0x100;
      ia[k++] ^= 0xff;
      cnt[i] += k - i * 10;
    }, { scope: { idxOnceNI } });
    const n = 16;
    const x = randF32(221, n, -2, 2), y = randF32(222, n, -2, 2);
    const ia = randI32(223, n * 10, -100000, 100000), cnt = new Int32Array(n);
    const wy = y.slice(), wia = ia.slice(), wcnt = new Int32Array(n);
    await k.launch(dev, { blocks: 1, threads: n }, x, y, ia, cnt);
    forThreads(n, (i) => {
      wy[i] += x[i]; wy[i] *= 2; wy[i] -= 0.25; wy[i] /= 3; wy[i] **= 2;
      let k = i * 10;
      wia[k++] += 5; wia[k++] -= 7; wia[k++] *= -3; wia[k++] %= 4; wia[k++] <<= 3;
      wia[k++] >>= 1; wia[k++] >>>= 1; wia[k++] &= 0xff0; wia[k++] |= 0x100; wia[k++] ^= 0xff;
      wcnt[i] = 1 + 10;
    });
    same(y, wy, "f32 compound");
    same(ia, wia, "i32 compound");
    same(cnt, wcnt, "index evaluated once; k advanced 10 times");
  });

  dtest("operand evaluation order with assignments and ++/-- inside expressions", async ({ dev, same }) => {
    const k = kernel(function evalOrder(o: Int32Array) {
      let k = 1;
      o[0] = k + (k = 5);
      let m = 1;
      o[1] = (m = 2) + m;
      let p = 1;
      o[2] = p++ + p++;
      o[3] = p;
      let q = 3;
      o[4] = q * ++q;
      let r = 10;
      o[5] = r - r--;
      o[6] = r;
      o[8] = 6;
      o[7] = o[8] + (o[8] = 100);
    });
    const o = poisonI32(9);
    await k.launch(dev, { blocks: 1, threads: 1 }, o);
    const w = new Int32Array(9);
    let k1 = 1; w[0] = k1 + (k1 = 5);
    let m = 1; w[1] = (m = 2) + m;
    let p = 1; w[2] = p++ + p++; w[3] = p;
    let q = 3; w[4] = q * ++q;
    let r = 10; w[5] = r - r--; w[6] = r;
    w[8] = 6; w[7] = w[8] + (w[8] = 100);
    same(o, w);
  });

  dtest("Boolean(x): JavaScript's truthiness (0, -0 and NaN are false)", async ({ dev, same }) => {
    const k = kernel(function toBoolean(x: Float32Array, o: Int32Array, n: number) {
      const i = threadIdx.x;
      o[i] = (Boolean(x[i]) ? 1 : 0) + (Boolean(i) ? 10 : 0) + (Boolean(x[i] > 1) ? 100 : 0) + (Boolean(n) ? 1000 : 0);
    });
    const x = Float32Array.from([0, -0, NaN, 1, -2.5, 3]), n = x.length;
    const o = poisonI32(n);
    await k.launch(dev, { blocks: 1, threads: n }, x, o, 0);
    same(o, Array.from(x, (v, i) => (Boolean(v) ? 1 : 0) + (Boolean(i) ? 10 : 0) + (Boolean(v > 1) ? 100 : 0)));
  });

  dtest("Number(x): a number as it is, a boolean as 1 or 0", async ({ dev, same }) => {
    const k = kernel(function toNumber(x: Float32Array, o: Float32Array, n: number) {
      const i = threadIdx.x;
      o[i * 4] = Number(x[i] > 1) + Number(x[i]);
      o[i * 4 + 1] = Number(i) * 0.5;
      o[i * 4 + 2] = Number(n) + Number(true);
      o[i * 4 + 3] = Number(x[i] > 1) * 3;
    });
    const x = Float32Array.from([0.5, 2, -3.25]), n = 3;
    const o = new Float32Array(n * 4).fill(NaN);
    await k.launch(dev, { blocks: 1, threads: n }, x, o, 7);
    const w = new Float32Array(n * 4);
    forThreads(n, (i) => w.set([Number(x[i] > 1) + Number(x[i]), Number(i) * 0.5, 7 + Number(true), Number(x[i] > 1) * 3], i * 4));
    same(o, w);
  });

  dtest("Number.isInteger and Number.isSafeInteger: finite and whole (and below 2^53), never a boolean", async ({ dev, same }) => {
    const k = kernel(function integerTests(x: Float32Array, o: Int32Array, n: Int32Array) {
      const i = threadIdx.x;
      o[i] = (Number.isInteger(x[i]) ? 1 : 0) + (Number.isSafeInteger(x[i]) ? 2 : 0) + (Number.isInteger(n[i]) ? 4 : 0) +
        (Number.isInteger(n[i] > 0) ? 8 : 0) + (Number.isInteger(2.5) ? 16 : 0) + (Number.isSafeInteger(3) ? 32 : 0);
    });
    const x = Float32Array.from([0, -0, 1.5, -3, NaN, Infinity, -Infinity, 2 ** 53, 2 ** 40, 1e30, 16777217, 0.1]);
    const n = Int32Array.from(x, (v) => v | 0), o = poisonI32(x.length);
    await k.launch(dev, { blocks: 1, threads: x.length }, x, o, n);
    same(o, Array.from(x, (v) => (Number.isInteger(v) ? 1 : 0) + (Number.isSafeInteger(v) ? 2 : 0) + 4 + 32));
  });

  dtest("const { length } = a destructures an array's, a view's and a tuple's length", async ({ dev, same }) => {
    const k = kernel(function lengths(o: Int32Array, x: Float32Array) {
      const { length } = x;
      const { length: n } = x.subarray(1);
      const { length: m } = [1, 2, 3];
      o[threadIdx.x] = length * 100 + n * 10 + m;
    });
    const o = poisonI32(2);
    await k.launch(dev, { blocks: 1, threads: 2 }, o, new Float32Array(5));
    same(o, [543, 543]);
  });

  dtest("a.at(i): a negative index counts from the end; past either end a bounds KernelError", async ({ dev, same }) => {
    const k = kernel(function atIndex(o: Float32Array, x: Float32Array) {
      const i = threadIdx.x;
      const t = [1, 2, x[0]];
      const v = x.subarray(1);
      o[i] = x.at(-1)! + x.at(i)! * 10 + x.at(-1 - i)! * 100 + t.at(-1)! * 1000 + v.at(-2)! * 10000;
    });
    const x = Float32Array.from([1, 2, 3, 4]), o = new Float32Array(4).fill(NaN);
    await k.launch(dev, { blocks: 1, threads: 4 }, o, x);
    same(o, Array.from({ length: 4 }, (_, i) => x.at(-1)! + x.at(i)! * 10 + x.at(-1 - i)! * 100 + x[0] * 1000 + x.subarray(1).at(-2)! * 10000));
    await kernelError(k.launch(dev, { blocks: 1, threads: 5 }, new Float32Array(5), x), "bounds");
  });

  dtest("logical assignment: a ||= b, a &&= b, a ??= b on variables and elements, as values too", async ({ dev, same }) => {
    const k = kernel(function logicalAssign(x: Float32Array, o: Float32Array) {
      const i = threadIdx.x;
      let a = x[i], b = i & 1, c = x[i] - 1;
      a ||= 7;
      b &&= 5;
      const v = (c ||= 0.25);
      let d = b;
      d ??= 9;
      o[i * 5] = 0;
      o[i * 5] ||= a + 1;
      o[i * 5 + 1] = a;
      o[i * 5 + 2] = b * 10 + d;
      o[i * 5 + 3] = c + v;
      o[i * 5 + 4] = 2;
      o[i * 5 + 4] &&= c;
    });
    const x = Float32Array.from([0, 1, -0.5, 2]), o = new Float32Array(20).fill(NaN);
    await k.launch(dev, { blocks: 1, threads: 4 }, x, o);
    const w = new Float32Array(20);
    forThreads(4, (i) => {
      let a = x[i], b = i & 1, c = F(x[i] - 1);
      a ||= 7;
      b &&= 5;
      const v = (c ||= 0.25);
      w.set([a + 1, a, b * 10 + b, c + v, c], i * 5);
    });
    same(o, w);
    await rejectsCompile(kernel(function twice(o: Float32Array) { let k = 0; o[k++] ||= 1; }).launch(dev, { blocks: 1, threads: 1 }, o),
      "unsupported-syntax", /'\|\|=' on a target whose operands have effects is not supported in kernels/);
  });
});

// =============================================================================================
// Each test below is a compiler bug found while writing this suite (all fixed since): the kernel
// is in the kernel language and the expected values follow its rules (JS semantics unless a rule
// above says otherwise).

describe("regressions (compiler bugs found by this suite)", () => {
  dtest("compound assignment to a variable whose right side also assigns it", async ({ dev, same }) => {
    const k = kernel(function compoundSelf(o: Int32Array) {
      let s = 2;
      s += (s = 3);
      o[0] = s;
      let t = 2;
      t += t++;
      o[1] = t;
      let u = 10;
      u -= (u = 1);
      o[2] = u;
      let w = 5;
      w *= ++w;
      o[3] = w;
    });
    const o = poisonI32(4);
    await k.launch(dev, { blocks: 1, threads: 1 }, o);
    same(o, [5, 4, 9, 30]);
  });

  dtest("statements as a minifier writes them: a && (b, c), a || b, c ? a : b, whose values nobody reads", async ({ dev, same }) => {
    const k = kernel(function minified(o: Int32Array, x: Float32Array) {
      const t = threadIdx.x;
      let n = 0;
      t === 1 && (o[0] = 7, o[1] = x[0] * 2, n++);
      t === 1 || (o[2] = t, n += 10);
      t === 0 ? (o[3] = 1, n--) : (o[4] = 5, o[5] = x[1]);
      x[0] > 100 && (o[6] = 1);   // never: its right side never runs
      o[7 + t] = n;
    });
    const o = poisonI32(10).fill(0);
    await k.launch(dev, { blocks: 1, threads: 2 }, o, Float32Array.from([3, 4]));
    same(o, [7, 6, 0, 1, 5, 4, 0, 9, 1, 0]);
  });

  dtest("array store whose right side changes the index variable", async ({ dev, same }) => {
    const k = kernel(function storeOrder(a: Int32Array, b: Int32Array, c: Int32Array, o: Int32Array) {
      let k = 0;
      a[k] = (k = 2);
      let m = 0;
      b[m] = m++;
      let n = 1;
      c[n] = c[n] + (n = 2);
      o[0] = k + m * 10 + n * 100;
    });
    const a = Int32Array.from([0, 0, 0]), b = Int32Array.from([9, 9, 9]), c = Int32Array.from([10, 20, 30]), o = poisonI32(1);
    await k.launch(dev, { blocks: 1, threads: 1 }, a, b, c, o);
    same(a, [2, 0, 0], "a[k] = (k = 2)");
    same(b, [0, 9, 9], "b[m] = m++");
    same(c, [10, 22, 30], "c[n] = c[n] + (n = 2)");
    same(o, [212]);
  });

  dtest("postfix ++/-- on an array element with a side-effecting index, value used", async ({ dev, same }) => {
    const k = kernel(function postfixElemIdx(a: Int32Array, o: Int32Array) {
      let k = 0;
      const t = a[k++]--;
      let m = 0;
      const u = a[2 + m++]++;
      o[0] = k;
      o[1] = t;
      o[2] = m;
      o[3] = u;
    });
    const a = Int32Array.from([5, 6, 7, 8]), o = poisonI32(4);
    await k.launch(dev, { blocks: 1, threads: 1 }, a, o);
    same(a, [4, 6, 8, 8]);
    same(o, [1, 5, 1, 7]);
  });

  dtest("the value of an assignment to a typed-array element is the right side, not the stored value", async ({ dev, same, wide }) => {
    const k = kernel(function chainValue(x: Float32Array, oi: Int32Array, o: Wide) {
      o[0] = oi[0] = x[0] * 2;
      o[1] = (oi[1] = x[1]) + 0.5;
    });
    const x = Float32Array.from([1.3, -2.75]), oi = poisonI32(2), o = wide(2, "f32");
    await k.launch(dev, { blocks: 1, threads: 1 }, x, oi, o);
    same(oi, [2, -2]);
    same(o, [F(x[0] * 2), F(x[1] + 0.5)]);
  });
});

// Constants computed from literals, scope numbers and Math on them (issue #16, item 10).
const BLOCK = 64;

describe("constant expressions are values", () => {
  dtest("an integral constant expression in i32 range is an integer: it indexes, sizes shared memory, starts a loop", async ({ dev, same }) => {
    const k = kernel(function constExprs(x: Float32Array, o: Float32Array, oi: Int32Array) {
      const s = shared(Float32Array, BLOCK / 2);
      const t = threadIdx.x;
      const half = BLOCK / 2;
      if (t < half) s[t] = x[t];
      syncthreads();
      for (let st = BLOCK / 4; st > 0; st >>= 1) {
        if (t < st) s[t] += s[t + st];
        syncthreads();
      }
      if (t === 0) {
        o[0] = s[0];
        o[1] = x[Math.log2(BLOCK)] + x[Math.sqrt(BLOCK / 4)] + x[Math.floor(BLOCK / 3)] + x[BLOCK ** 0.5];
        o[2] = half / 3;          // division still gives a float: 32 / 3
        o[3] = BLOCK / 5;         // a fraction stays a float: 12.8
        oi[0] = half;
        oi[1] = Math.max(BLOCK / 8, 3) + Math.min(BLOCK * 2, 7);
      }
    }, { scope: { BLOCK } });
    const x = randF32(31, BLOCK), o = new Float32Array(4).fill(NaN), oi = poisonI32(2);
    await k.launch(dev, { blocks: 1, threads: BLOCK }, x, o, oi);
    let sum = 0;
    const partial = Array.from(x.slice(0, 32));
    for (let st = 16; st > 0; st >>= 1) for (let t = 0; t < st; t++) partial[t] = F(partial[t] + partial[t + st]);
    sum = partial[0];
    same(o, [sum, F(F(F(x[6] + x[4]) + x[21]) + x[8]), F(32 / 3), F(12.8)]);
    same(oi, [32, 15]);
  });

  dtest("a constant expression with a fraction is an f32: as an index it is a CompileError", async ({ dev }) => {
    const k = kernel(function constFraction(o: Float32Array) { o[BLOCK / 5] = 1; }, { scope: { BLOCK } });
    await rejectsCompile(k.compile({ target: dev.target, types: ["f32[]"] }), "type", /array index 12\.8 is not a non-negative integer/);
  });
});
