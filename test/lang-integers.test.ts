// Execution tests of integer semantics (i32/u32 wrap-around, division and modulo, bitwise ops and
// shifts, comparisons and Math.min/max across signedness, integer literals): small kernels, each
// compared with a plain-JavaScript reference computed here. f32 references round every operation
// with Math.fround; i32/u32 references wrap with `| 0` / `>>> 0` / Math.imul.
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
import assert from "node:assert/strict";
import { kernel, threadIdx, blockIdx, blockDim } from "../src/index.ts";
import { randI32, randFullI32, randFullU32, poisonI32, poisonU32, F, forThreads, dtest,
  openDevices, type Wide } from "./helpers.ts";

await openDevices();

// =============================================================================================

describe("integer semantics", () => {
  dtest("i32 wrap-around: + - * Math.imul and negation of -2^31", async ({ dev, same, wide }) => {
    const k = kernel(function i32wrap(a: Int32Array, b: Int32Array, o: Wide) {
      const i = threadIdx.x;
      o[i * 6] = a[i] + b[i];
      o[i * 6 + 1] = a[i] - b[i];
      o[i * 6 + 2] = a[i] * b[i];
      o[i * 6 + 3] = Math.imul(a[i], b[i]);
      o[i * 6 + 4] = -a[i];
      let v = a[i];
      v += b[i];
      v = v * 3;
      o[i * 6 + 5] = v;
    });
    const a = Int32Array.from([2147483647, -2147483648, -2147483648, 65537, 123456789, 46341, -7, 0, ...randFullI32(11, 8)]);
    const b = Int32Array.from([1, 1, -1, 65537, 987654321, 46341, 3, -2147483648, ...randFullI32(12, 8)]);
    const n = a.length;
    const o = wide(n * 6, "i32");
    await k.launch(dev, { blocks: 1, threads: n }, a, b, o);
    const want = new Float64Array(n * 6);
    forThreads(n, (i) => want.set([(a[i] + b[i]) | 0, (a[i] - b[i]) | 0, Math.imul(a[i], b[i]), Math.imul(a[i], b[i]), -a[i] | 0, Math.imul((a[i] + b[i]) | 0, 3)], i * 6));
    same(o, want);
    assert.equal(o[0], -2147483648);
    assert.equal(o[2 * 6 + 4], -2147483648, "-(-2^31) wraps to -2^31");
  });

  dtest("u32 wrap-around, >>> 0, and i32 op u32 -> u32", async ({ dev, same, wide }) => {
    const k = kernel(function u32wrap(a: Uint32Array, b: Uint32Array, s: Int32Array, o: Wide) {
      const i = threadIdx.x;
      o[i * 7] = a[i] + b[i];
      o[i * 7 + 1] = a[i] - b[i];
      o[i * 7 + 2] = a[i] * b[i];
      o[i * 7 + 3] = s[i] >>> 0;
      o[i * 7 + 4] = a[i] ^ b[i];
      o[i * 7 + 5] = s[i] + a[i];
      o[i * 7 + 6] = (a[i] | 0) + 1;
    });
    const a = Uint32Array.from([4294967295, 0, 2147483648, 3000000000, ...randFullU32(21, 8)]);
    const b = Uint32Array.from([1, 1, 2147483648, 3000000000, ...randFullU32(22, 8)]);
    const s = Int32Array.from([-1, -2147483648, 5, -5, ...randFullI32(23, 8)]);
    const n = a.length;
    const o = wide(n * 7, "u32");
    await k.launch(dev, { blocks: 1, threads: n }, a, b, s, o);
    const want = new Float64Array(n * 7);
    forThreads(n, (i) => want.set([(a[i] + b[i]) >>> 0, (a[i] - b[i]) >>> 0, Math.imul(a[i], b[i]) >>> 0, s[i] >>> 0, a[i] ^ b[i], (s[i] + a[i]) >>> 0, ((a[i] | 0) + 1) | 0], i * 7));
    same(o, want);
  });

  dtest("u32 scalar parameter via types", async ({ dev, same, wide }) => {
    const k = kernel(function u32param(u: number, o: Wide) {
      o[0] = u + 1;
      o[1] = u * 2;
      o[2] = u > 0 ? 1 : 0;
      o[3] = u | 0;
      o[4] = u >>> 28;
      o[5] = u >> 28;
    }, { types: { u: "u32" } });
    const o = wide(6, "u32");
    await k.launch(dev, { blocks: 1, threads: 1 }, 4294967295, o);
    same(o, [0, 4294967294, 1, -1, 15, -1]);
  });

  dtest("integer division and modulo: zero divisors, negative operands, -2^31 / -1", async ({ dev, same, wide }) => {
    const k = kernel(function idivmod(a: Int32Array, b: Int32Array, q: Wide, r: Wide, fq: Wide, q3: Wide) {
      const i = threadIdx.x;
      q[i] = (a[i] / b[i]) | 0;
      r[i] = a[i] % b[i];
      fq[i] = a[i] / b[i];
      q3[i] = (a[i] / 3) | 0;
    });
    const a = Int32Array.from([7, -7, 7, -7, 0, 7, -7, 0, -2147483648, 2147483647, -2147483648, 123456789, 1, -1, 100, 16777217]);
    const b = Int32Array.from([2, 2, -2, -2, 5, 0, 0, 0, -1, 7, 3, -1000, 1, 1, 7, 3]);
    const n = a.length;
    const q = wide(n, "i32"), r = wide(n, "i32"), fq = wide(n, "f32"), q3 = wide(n, "i32");
    await k.launch(dev, { blocks: 1, threads: n }, a, b, q, r, fq, q3);
    same(q, Array.from(a, (v, i) => (v / b[i]) | 0), "(a / b) | 0");
    same(r, Array.from(a, (v, i) => (v % b[i]) | 0), "a % b");
    same(fq, Array.from(a, (v, i) => F(F(v) / F(b[i]))), "a / b (f32)");
    same(q3, Array.from(a, (v) => (v / 3) | 0), "(a / 3) | 0");
  });

  dtest("u32 division and modulo", async ({ dev, same, wide }) => {
    const k = kernel(function udivmod(a: Uint32Array, b: Uint32Array, q: Wide, r: Wide) {
      const i = threadIdx.x;
      q[i] = (a[i] / b[i]) | 0;
      r[i] = a[i] % b[i];
    });
    const a = Uint32Array.from([4294967295, 4294967295, 3000000000, 7, 0, ...randFullU32(31, 6)]);
    const b = Uint32Array.from([2, 0, 7, 0, 3, 1, ...randFullU32(32, 5).map((v) => v % 1000)]);
    const n = a.length;
    const q = wide(n, "i32"), r = wide(n, "u32");
    await k.launch(dev, { blocks: 1, threads: n }, a, b, q, r);
    same(q, Array.from(a, (v, i) => (v / b[i]) | 0), "(a / b) | 0");
    same(r, Array.from(a, (v, i) => (v % b[i]) >>> 0), "a % b");
  });

  dtest("bitwise ops and shifts, counts >= 32 and negative", async ({ dev, same, wide }) => {
    const k = kernel(function bitops(a: Int32Array, b: Int32Array, u: Uint32Array, o: Wide) {
      const i = threadIdx.x;
      const k = i * 10;
      o[k] = a[i] & b[i];
      o[k + 1] = a[i] | b[i];
      o[k + 2] = a[i] ^ b[i];
      o[k + 3] = ~a[i];
      o[k + 4] = a[i] << b[i];
      o[k + 5] = a[i] >> b[i];
      o[k + 6] = a[i] >>> b[i];
      o[k + 7] = u[i] >> b[i];
      o[k + 8] = u[i] >>> b[i];
      o[k + 9] = u[i] << (b[i] & 7);
    });
    const a = Int32Array.from([-1, -2147483648, 0x12345678, -0x12345678, 1, ...randFullI32(41, 11)]);
    const b = Int32Array.from([32, 33, -1, -31, 64, 31, 0, -32, 65, 100, -100, 7, ...randI32(42, 4, -70, 70)]);
    const u = Uint32Array.from([0xffffffff, 0x80000000, 0xf0f0f0f0, 1, 0, ...randFullU32(43, 11)]);
    const n = a.length;
    const o = wide(n * 10, "u32");
    await k.launch(dev, { blocks: 1, threads: n }, a, b, u, o);
    const want = new Float64Array(n * 10);
    forThreads(n, (i) => want.set([a[i] & b[i], a[i] | b[i], a[i] ^ b[i], ~a[i], a[i] << b[i], a[i] >> b[i], a[i] >>> b[i], u[i] >> b[i], u[i] >>> b[i], u[i] << (b[i] & 7)], i * 10));
    same(o, want);
  });

  dtest("murmur3 fmix32 hash (Math.imul, >>>, ^=)", async ({ dev, same }) => {
    const k = kernel(function fmix(seed: Uint32Array, o: Uint32Array) {
      const i = blockIdx.x * blockDim.x + threadIdx.x;
      let h = seed[i] ^ i;
      h ^= h >>> 16;
      h = Math.imul(h, 0x85ebca6b);
      h ^= h >>> 13;
      h = Math.imul(h, 0xc2b2ae35);
      h ^= h >>> 16;
      o[i] = h >>> 0;
    });
    const seed = randFullU32(51, 128), o = poisonU32(128);
    await k.launch(dev, { blocks: 4, threads: 32 }, seed, o);
    const want = Uint32Array.from(seed, (s, i) => {
      let h = s ^ i; h ^= h >>> 16; h = Math.imul(h, 0x85ebca6b); h ^= h >>> 13; h = Math.imul(h, 0xc2b2ae35); h ^= h >>> 16; return h >>> 0;
    });
    same(o, want);
  });

  dtest("popcount loop, Math.clz32, bit reversal", async ({ dev, same }) => {
    const k = kernel(function bitsk(u: Uint32Array, o: Int32Array) {
      const i = threadIdx.x;
      let v = u[i];
      let c = 0;
      while (v !== 0) { v &= v - 1; c++; }
      o[i * 3] = c;
      o[i * 3 + 1] = Math.clz32(u[i]);
      let r = 0;
      let w = u[i];
      for (let b = 0; b < 32; b++) { r = (r << 1) | (w & 1); w >>>= 1; }
      o[i * 3 + 2] = r;
    });
    const u = Uint32Array.from([0, 1, 0xffffffff, 0x80000000, 0x12345678, ...randFullU32(61, 11)]);
    const n = u.length;
    const o = poisonI32(n * 3);
    await k.launch(dev, { blocks: 1, threads: n }, u, o);
    const want = new Int32Array(n * 3);
    forThreads(n, (i) => {
      let v = u[i], c = 0; while (v !== 0) { v = (v & (v - 1)) >>> 0; c++; }
      let r = 0, w = u[i]; for (let b = 0; b < 32; b++) { r = (r << 1) | (w & 1); w >>>= 1; }
      want.set([c, Math.clz32(u[i]), r], i * 3);
    });
    same(o, want);
  });

  dtest("i32 vs u32 comparisons compare mathematical values", async ({ dev, same }) => {
    const k = kernel(function cmpSU(s: Int32Array, u: Uint32Array, o: Int32Array) {
      const i = threadIdx.x;
      o[i * 2] = (s[i] < u[i] ? 1 : 0) | (s[i] <= u[i] ? 2 : 0) | (s[i] > u[i] ? 4 : 0) | (s[i] >= u[i] ? 8 : 0) | (s[i] === u[i] ? 16 : 0) | (s[i] !== u[i] ? 32 : 0);
      o[i * 2 + 1] = (u[i] < s[i] ? 1 : 0) | (u[i] <= s[i] ? 2 : 0) | (u[i] > s[i] ? 4 : 0) | (u[i] >= s[i] ? 8 : 0) | (u[i] == s[i] ? 16 : 0) | (u[i] != s[i] ? 32 : 0);
    });
    const s = Int32Array.from([-1, 5, -2147483648, 2147483647, 3, 0, -1, 7]);
    const u = Uint32Array.from([4294967295, 5, 0, 2147483648, 2, 0, 0, 4294967295]);
    const n = s.length;
    const o = poisonI32(n * 2);
    await k.launch(dev, { blocks: 1, threads: n }, s, u, o);
    const want = new Int32Array(n * 2);
    forThreads(n, (i) => {
      const x = s[i], y = u[i];
      want[i * 2] = (x < y ? 1 : 0) | (x <= y ? 2 : 0) | (x > y ? 4 : 0) | (x >= y ? 8 : 0) | (x === y ? 16 : 0) | (x !== y ? 32 : 0);
      want[i * 2 + 1] = (y < x ? 1 : 0) | (y <= x ? 2 : 0) | (y > x ? 4 : 0) | (y >= x ? 8 : 0) | (y === x ? 16 : 0) | (y !== x ? 32 : 0);
    });
    same(o, want);
    assert.equal(o[0] & 1, 1, "-1 < 4294967295");
  });

  dtest("Math.min/max of i32 and u32 values (and constants) are the mathematical ones: min an i32, max a u32", async ({ dev, same }) => {
    const k = kernel(function minMaxSU(s: Int32Array, u: Uint32Array, lo: Int32Array, hi: Uint32Array) {
      const i = threadIdx.x;
      lo[i * 4] = Math.min(s[i], u[i]);
      lo[i * 4 + 1] = Math.min(u[i], -1);
      lo[i * 4 + 2] = Math.min(s[i], u[i], 5);
      lo[i * 4 + 3] = Math.min(u[i], s[i]);
      hi[i * 3] = Math.max(s[i], u[i]);
      hi[i * 3 + 1] = Math.max(s[i], 3000000000);
      hi[i * 3 + 2] = Math.max(u[i], s[i], -7);
    });
    const s = Int32Array.from([-5, 0, 7, 2147483647, -2147483648, 100, -1, 3]);
    const u = Uint32Array.from([0, 4294967295, 3, 2147483648, 1, 100, 4294967295, 2]);
    const n = s.length;
    const lo = poisonI32(n * 4), hi = poisonU32(n * 3);
    await k.launch(dev, { blocks: 1, threads: n }, s, u, lo, hi);
    const wantLo = new Int32Array(n * 4), wantHi = new Uint32Array(n * 3);
    forThreads(n, (i) => {
      wantLo.set([Math.min(s[i], u[i]), Math.min(u[i], -1), Math.min(s[i], u[i], 5), Math.min(u[i], s[i])], i * 4);
      wantHi.set([Math.max(s[i], u[i]), Math.max(s[i], 3000000000), Math.max(u[i], s[i], -7)], i * 3);
    });
    same(lo, wantLo, "min");
    same(hi, wantHi, "max");
  });

  dtest("row-wise running sums in i32 (wrap-around)", async ({ dev, same }) => {
    const k = kernel(function rowPrefix(m: Int32Array, out: Int32Array, rows: number, cols: number) {
      const r = blockIdx.x * blockDim.x + threadIdx.x;
      if (r >= rows) return;
      let s = 0;
      for (let c = 0; c < cols; c++) { s += m[r * cols + c]; out[r * cols + c] = s; }
    });
    const R = 16, C = 50;
    const m = randFullI32(71, R * C), out = poisonI32(R * C);
    await k.launch(dev, { blocks: 2, threads: 10 }, m, out, R, C);
    const want = new Int32Array(R * C);
    for (let r = 0; r < R; r++) { let s = 0; for (let c = 0; c < C; c++) { s = (s + m[r * C + c]) | 0; want[r * C + c] = s; } }
    same(out, want);
  });

  dtest("histogram without atomics (one thread per bin)", async ({ dev, same, wide }) => {
    const k = kernel(function histo(data: Int32Array, bins: Int32Array, sums: Wide) {
      const b = threadIdx.x;
      let count = 0;
      let total = 0;
      for (let j = 0; j < data.length; j++) {
        const v = data[j];
        if ((v >> 4) !== b) continue;
        count++;
        total += v;
      }
      bins[b] = count;
      sums[b] = total;
    });
    const data = randI32(81, 2000, 0, 255), bins = poisonI32(16), sums = wide(16, "i32");
    await k.launch(dev, { blocks: 1, threads: 16 }, data, bins, sums);
    const want = new Int32Array(16), wantS = new Float64Array(16);
    for (const v of data) { want[v >> 4]++; wantS[v >> 4] += v; }
    same(bins, want);
    same(sums, wantS);
  });
});

// =============================================================================================
// Each test below is a compiler bug found while writing this suite (all fixed since): the kernel
// is in the kernel language and the expected values follow its rules (JS semantics unless a rule
// above says otherwise).

describe("regressions (compiler bugs found by this suite)", () => {
  dtest("i32 value compared with an integer literal above the i32 range", async ({ dev, same }) => {
    const k = kernel(function cmpBigLiteral(s: Int32Array, o: Int32Array) {
      const i = threadIdx.x;
      o[i * 4] = s[i] === 4294967295 ? 1 : 0;
      o[i * 4 + 1] = s[i] < 4294967295 ? 1 : 0;
      o[i * 4 + 2] = s[i] >= 2147483648 ? 1 : 0;
      o[i * 4 + 3] = 4294967295 > s[i] ? 1 : 0;
    });
    const s = Int32Array.from([-1, 5, -2147483648, 2147483647]), o = poisonI32(16);
    await k.launch(dev, { blocks: 1, threads: 4 }, s, o);
    const want: number[] = [];
    for (const v of s) want.push(v === 4294967295 ? 1 : 0, v < 4294967295 ? 1 : 0, v >= 2147483648 ? 1 : 0, 4294967295 > v ? 1 : 0);
    same(o, want);
  });

  dtest("integer literal 1000 in a kernel run through tsx (reprinted as 1e3) stays an integer", async ({ dev, same, wide }) => {
    const k = kernel(function literal1000(a: number, o: Wide) {
      o[0] = a * 1000 + 1;
      o[1] = a * 10000000;
    });
    const o = wide(2, "i32");
    await k.launch(dev, { blocks: 1, threads: 1 }, 2097152, o);
    same(o, [2097152001, Math.imul(2097152, 10000000)]);
  });
});
