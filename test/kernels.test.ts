// Execution tests: many small kernels, each compared with a plain-JavaScript reference computed
// here. f32 references round every operation with Math.fround; i32/u32 references wrap with
// `| 0` / `>>> 0` / Math.imul.
//
// Every test runs on each device of the matrix (helpers.ts: `dtest`): the CPU device (the JS
// target, the exact reference semantics) and WebGPU (the WGSL target), where integers must agree
// exactly and f32 values within F32_TOL relative unless a test says why not. Where WebGPU differs
// by design (no f64, no recursion), the test says so
// where it branches on `wgsl`.
//
// Outputs are poisoned (NaN or a sentinel) before each launch so unwritten elements show, and
// many outputs are "wide" (`wide`, `wideMixed`): Float64Array on the CPU, so that a missing
// in-kernel wrap or f32 rounding is not hidden by the conversion a narrower typed-array store
// would do; on WebGPU, which has no f64, arrays of the results' own types.
//
// Note: tsx transpiles this file with esbuild, which reprints kernel sources (whitespace removed,
// `1.0` printed as `1`, `1000` printed as `1e3` -- which gpuc reads as a float literal --, some
// constant expressions folded). Integer literals in these kernels therefore avoid multiples of
// 1000, and kernels that depend on the exact literal text are built from a source string with
// eval (see "float literal").

import { describe } from "node:test";
import assert from "node:assert/strict";
import { kernel, CompileError, KernelError, threadIdx, blockIdx, blockDim, gridDim } from "../src/index.ts";
import { randF32, randF64, randI32, randFullI32, randFullU32, poisonF32, poisonF64, poisonI32, poisonU32,
  dtest, openDevices, rejectsF64, rejectsRecursion, type Wide } from "./helpers.ts";

const F = Math.fround;
// Scope constants the kernels below name (bound through `scope`, never on the host).
declare const SCALE: number, OFFSET: number, BIAS: number, FLAG: boolean, RED: number, GREEN: number, FACTOR: number;
await openDevices();

// ---- helpers -------------------------------------------------------------------------------


/** Reference-side thread loop over a 1-D grid. */
function forThreads(total: number, f: (i: number) => void): void { for (let i = 0; i < total; i++) f(i); }

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
// Helpers with a side effect through an array parameter. The extra early `return` keeps them
// from being inlined (see "known compiler bugs": inlining a helper that reads an array parameter
// crashes), so the tests that use them check evaluation order, not the inliner.
function markNI(arr: Int32Array, j: number) { if (j < 0) return false; arr[j] = arr[j] + 1; return true; }
function bumpRetNI(arr: Int32Array, j: number, v: number) { if (j < 0) return v; arr[j] = arr[j] + 1; return v; }
function idxOnceNI(cnt: Int32Array, j: number) { if (j < 0) return 0; cnt[j] = cnt[j] + 1; return j; }
// The same helpers in their natural, inlinable form.
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

describe("grids and indices", () => {
  dtest("saxpy (1-D grid, guard past the end)", async ({ dev, same }) => {
    const saxpy = kernel(function saxpy(a: number, x: Float32Array, y: Float32Array) {
      const i = blockIdx.x * blockDim.x + threadIdx.x;
      if (i < y.length) y[i] = a * x[i] + y[i];
    });
    const n = 1000;
    const x = randF32(1, n, -10, 10), y = randF32(2, n, -10, 10);
    const want = y.map((v, i) => F(F(F(2.5) * x[i]) + v));
    await saxpy.launch(dev, { blocks: 4, threads: 256 }, 2.5, x, y);
    same(y, want);
  });

  dtest("1-D grid: every index builtin", async ({ dev, same }) => {
    const k = kernel(function grid1d(o: Int32Array, o2: Int32Array) {
      const i = blockIdx.x * blockDim.x + threadIdx.x;
      o[i] = blockIdx.x * 65536 + threadIdx.x * 256 + blockDim.x * 16 + gridDim.x;
      o2[i] = threadIdx.y + threadIdx.z * 2 + blockIdx.y * 4 + blockIdx.z * 8 + blockDim.y * 16 + blockDim.z * 64 + gridDim.y * 256 + gridDim.z * 1024;
    });
    const B = 3, T = 5;
    const o = poisonI32(B * T + 2), o2 = poisonI32(B * T + 2);
    await k.launch(dev, { blocks: B, threads: T }, o, o2);
    const want = poisonI32(B * T + 2), want2 = poisonI32(B * T + 2);
    for (let b = 0; b < B; b++) for (let t = 0; t < T; t++) { want[b * T + t] = b * 65536 + t * 256 + T * 16 + B; want2[b * T + t] = 16 + 64 + 256 + 1024; }
    same(o, want, "x");
    same(o2, want2, "y/z");
  });

  dtest("2-D grid: blocks [3,2], threads [4,5]", async ({ dev, same }) => {
    const k = kernel(function grid2d(o: Int32Array, meta: Int32Array) {
      const gx = blockIdx.x * blockDim.x + threadIdx.x;
      const gy = blockIdx.y * blockDim.y + threadIdx.y;
      const w = gridDim.x * blockDim.x;
      o[gy * w + gx] = gx * 256 + gy;
      meta[gy * w + gx] = blockDim.y * 100 + gridDim.y * 10 + threadIdx.z + blockIdx.z;
    });
    const W = 12, H = 10;
    const o = poisonI32(W * H), meta = poisonI32(W * H);
    await k.launch(dev, { blocks: [3, 2], threads: [4, 5] }, o, meta);
    const want = new Int32Array(W * H), wantMeta = new Int32Array(W * H).fill(520);
    for (let y = 0; y < H; y++) for (let x = 0; x < W; x++) want[y * W + x] = x * 256 + y;
    same(o, want);
    same(meta, wantMeta);
  });

  dtest("3-D grid: blocks [2,3,2], threads [3,2,4], all 12 builtins", async ({ dev, same }) => {
    const k = kernel(function grid3d(o: Int32Array) {
      const bl = (blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x + blockIdx.x;
      const tl = (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
      const lin = bl * (blockDim.x * blockDim.y * blockDim.z) + tl;
      o[lin * 4] = threadIdx.x + 10 * threadIdx.y + 100 * threadIdx.z;
      o[lin * 4 + 1] = blockIdx.x + 10 * blockIdx.y + 100 * blockIdx.z;
      o[lin * 4 + 2] = blockDim.x + 10 * blockDim.y + 100 * blockDim.z;
      o[lin * 4 + 3] = gridDim.x + 10 * gridDim.y + 100 * gridDim.z;
    });
    const G = [2, 3, 2], D = [3, 2, 4];
    const total = 12 * 24;
    const o = poisonI32(total * 4);
    await k.launch(dev, { blocks: G, threads: D }, o);
    const want = new Int32Array(total * 4);
    for (let bz = 0; bz < G[2]; bz++) for (let by = 0; by < G[1]; by++) for (let bx = 0; bx < G[0]; bx++)
      for (let tz = 0; tz < D[2]; tz++) for (let ty = 0; ty < D[1]; ty++) for (let tx = 0; tx < D[0]; tx++) {
        const lin = ((bz * G[1] + by) * G[0] + bx) * 24 + (tz * D[1] + ty) * D[0] + tx;
        want.set([tx + 10 * ty + 100 * tz, bx + 10 * by + 100 * bz, 3 + 20 + 400, 2 + 30 + 200], lin * 4);
      }
    same(o, want);
  });

  dtest("2-D transpose with a ragged edge (37 x 23, 8x8 blocks)", async ({ dev, same }) => {
    const k = kernel(function transpose(src: Float32Array, dst: Float32Array, w: number, h: number) {
      const x = blockIdx.x * blockDim.x + threadIdx.x;
      const y = blockIdx.y * blockDim.y + threadIdx.y;
      if (x < w && y < h) dst[x * h + y] = src[y * w + x];
    });
    const W = 37, H = 23;
    const src = randF32(7, W * H), dst = poisonF32(W * H);
    await k.launch(dev, { blocks: [5, 3], threads: [8, 8] }, src, dst, W, H);
    const want = new Float32Array(W * H);
    for (let y = 0; y < H; y++) for (let x = 0; x < W; x++) want[x * H + y] = src[y * W + x];
    same(dst, want);
  });

  dtest("grid-stride loop sum", async ({ dev, same }) => {
    const k = kernel(function gridStride(x: Float32Array, partial: Float32Array) {
      const tid = blockIdx.x * blockDim.x + threadIdx.x;
      const stride = blockDim.x * gridDim.x;
      let s = 0;
      for (let j = tid; j < x.length; j += stride) s += x[j];
      partial[tid] = s;
    });
    const x = randF32(8, 1000, -5, 5), partial = poisonF32(48);
    await k.launch(dev, { blocks: 3, threads: 16 }, x, partial);
    const want = new Float32Array(48);
    forThreads(48, (t) => { let s = 0; for (let j = t; j < x.length; j += 48) s = F(s + x[j]); want[t] = s; });
    same(partial, want);
  });
});

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
});

describe("helpers", () => {
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

  dtest("recursive helpers (fib, gcd) on the JS target", async ({ dev, same, wgsl }) => {
    const k = kernel(function recursion(a: Int32Array, b: Int32Array, o: Int32Array) {
      const i = threadIdx.x;
      o[i * 2] = fib(i);
      o[i * 2 + 1] = gcd(a[i], b[i]);
    }, { scope: { fib, gcd } });
    const n = 20;
    const a = randI32(181, n, 1, 100000), b = randI32(182, n, 1, 100000), o = poisonI32(n * 2);
    if (wgsl) return rejectsRecursion(k.launch(dev, { blocks: 1, threads: n }, a, b, o));   // WGSL has no call stack
    await k.launch(dev, { blocks: 1, threads: n }, a, b, o);
    const want = new Int32Array(n * 2);
    forThreads(n, (i) => want.set([fib(i), gcd(a[i], b[i])], i * 2));
    same(o, want);
  });

  dtest("mutually recursive helpers returning bool", async ({ dev, same, wgsl }) => {
    const k = kernel(function mutual(o: Int32Array) {
      const i = threadIdx.x;
      o[i] = isEven(i) ? 10 : isOdd(i) ? 20 : 30;
    }, { scope: { isEven, isOdd } });
    const o = poisonI32(16);
    if (wgsl) return rejectsRecursion(k.launch(dev, { blocks: 1, threads: 16 }, o));   // WGSL has no call stack
    await k.launch(dev, { blocks: 1, threads: 16 }, o);
    same(o, Array.from({ length: 16 }, (_v, i) => (i % 2 === 0 ? 10 : 20)));
  });

  dtest("a cycle of three recursive helpers typed by arithmetic on each other's results", async ({ dev, same, wgsl }) => {
    const k = kernel(function cycle(o: Float32Array) {
      const i = threadIdx.x;
      o[i] = cycleA(i) + cycleB(i);
    }, { scope: { cycleA, cycleB, cycleC } });
    const o = poisonF32(8);
    if (wgsl) return rejectsRecursion(k.launch(dev, { blocks: 1, threads: 8 }, o));   // WGSL has no call stack
    await k.launch(dev, { blocks: 1, threads: 8 }, o);
    same(o, Array.from({ length: 8 }, (_v, i) => Math.fround(cycleA(i) + cycleB(i))));
  });
});

describe("control flow", () => {
  dtest("for loops with break/continue, nested loops", async ({ dev, same }) => {
    const k = kernel(function loopsBC(lim: Int32Array, o: Int32Array) {
      const i = threadIdx.x;
      let s = 0;
      for (let j = 0; j < 100; j++) {
        if (j % 3 === 0) continue;
        if (s > lim[i]) break;
        s += j;
      }
      let pairs = 0;
      for (let p = 0; p < 10; p++) {
        if (p === i % 10) continue;
        for (let q = 0; q < 10; q++) {
          if (q > p) break;
          if ((p + q) % 4 === 1) continue;
          pairs += p * 10 + q;
        }
      }
      o[i * 2] = s;
      o[i * 2 + 1] = pairs;
    });
    const n = 24;
    const lim = randI32(191, n, -5, 3000), o = poisonI32(n * 2);
    await k.launch(dev, { blocks: 1, threads: n }, lim, o);
    const want = new Int32Array(n * 2);
    forThreads(n, (i) => {
      let s = 0;
      for (let j = 0; j < 100; j++) { if (j % 3 === 0) continue; if (s > lim[i]) break; s += j; }
      let pairs = 0;
      for (let p = 0; p < 10; p++) { if (p === i % 10) continue; for (let q = 0; q < 10; q++) { if (q > p) break; if ((p + q) % 4 === 1) continue; pairs += p * 10 + q; } }
      want.set([s, pairs], i * 2);
    });
    same(o, want);
  });

  dtest("while and do-while (with continue and break)", async ({ dev, same }) => {
    const k = kernel(function whiles(a: Int32Array, o: Int32Array) {
      const i = threadIdx.x;
      let v = a[i];
      let steps = 0;
      while (v !== 1 && steps < 999) { v = (v & 1) ? 3 * v + 1 : v >> 1; steps++; }
      let d = 0;
      let w = a[i];
      do { d++; w = (w / 10) | 0; } while (w > 0);
      let z = i;
      do { z += 2; if (z === 6) continue; if (z > 10) break; z++; } while (z < 20);
      o[i * 3] = steps;
      o[i * 3 + 1] = d;
      o[i * 3 + 2] = z;
    });
    const n = 27;
    const a = Int32Array.from({ length: n }, (_v, i) => i + 1);
    const o = poisonI32(n * 3);
    await k.launch(dev, { blocks: 1, threads: n }, a, o);
    const want = new Int32Array(n * 3);
    forThreads(n, (i) => {
      let v = a[i], steps = 0; while (v !== 1 && steps < 999) { v = (v & 1) ? 3 * v + 1 : v >> 1; steps++; }
      let d = 0, w = a[i]; do { d++; w = (w / 10) | 0; } while (w > 0);
      let z = i; do { z += 2; if (z === 6) continue; if (z > 10) break; z++; } while (z < 20);
      want.set([steps, d, z], i * 3);
    });
    same(o, want);
  });

  dtest("early return from the kernel (guard, branch, and inside a loop)", async ({ dev, same }) => {
    const k = kernel(function earlyRet(x: Float32Array, o: Float32Array, n: number) {
      const i = blockIdx.x * blockDim.x + threadIdx.x;
      if (i >= n) return;
      if (x[i] < 0) { o[i] = -1; return; }
      for (let k = 0; k < 8; k++) {
        if (x[i] < k * 0.125) { o[i] = k; return; }
      }
      o[i] = 100;
    });
    const n = 70;
    const x = randF32(201, n, -0.3, 1.2), o = poisonF32(96);
    await k.launch(dev, { blocks: 3, threads: 32 }, x, o, n);
    const want = poisonF32(96);
    forThreads(n, (i) => {
      if (x[i] < 0) { want[i] = -1; return; }
      for (let k = 0; k < 8; k++) if (x[i] < k * 0.125) { want[i] = k; return; }
      want[i] = 100;
    });
    same(o, want);
  });

  dtest("switch with fallthrough, default in the middle, continue/break in a loop", async ({ dev, same }) => {
    const k = kernel(function switchFall(a: Int32Array, o: Int32Array) {
      const i = threadIdx.x;
      let v = 0;
      switch (a[i] % 5) {
        case 0: v += 1;
        case 1: v += 10; break;
        case 2:
        case 3: v += 100;
        default: v += 512;
        case 4: v += 8192;
      }
      let w = 0;
      for (let j = 0; j < 6; j++) {
        switch (j) {
          case 1: continue;
          case 3: w += 100; break;
          default: w += j;
        }
        w += 512;
      }
      o[i * 2] = v;
      o[i * 2 + 1] = w;
    });
    const a = Int32Array.from([0, 1, 2, 3, 4, 5, -1, -2, -3, -4, 9, 13, 100, 101]);
    const n = a.length;
    const o = poisonI32(n * 2);
    await k.launch(dev, { blocks: 1, threads: n }, a, o);
    const want = new Int32Array(n * 2);
    forThreads(n, (i) => {
      let v = 0;
      switch (a[i] % 5) { case 0: v += 1; case 1: v += 10; break; case 2: case 3: v += 100; default: v += 512; case 4: v += 8192; }
      let w = 0;
      for (let j = 0; j < 6; j++) { switch (j) { case 1: continue; case 3: w += 100; break; default: w += j; } w += 512; }
      want.set([v, w], i * 2);
    });
    same(o, want);
  });

  dtest("short-circuit && / || skip side effects on the right", async ({ dev, same }) => {
    const k = kernel(function shortCirc(x: Float32Array, hitA: Int32Array, hitO: Int32Array, o: Int32Array, n: number) {
      const i = threadIdx.x;
      let r = 0;
      if (i < n && x[i] > 0) r += 1;
      if (x[i] > 0 && markNI(hitA, i)) r += 2;
      if (x[i] > 0 || markNI(hitO, i)) r += 4;
      let c = 0;
      if (x[i] < 0.5 && (c = i * 2) > 10) r += 8;
      let d = 0;
      if (x[i] >= 0.5 || (d = i + 100) < 0) r += 16;
      o[i] = (r << 16) | (c << 8) | d;
    }, { scope: { markNI } });
    const n = 24;
    const x = randF32(211, n, -1, 1);
    const hitA = new Int32Array(n), hitO = new Int32Array(n), o = poisonI32(n);
    await k.launch(dev, { blocks: 1, threads: n }, x, hitA, hitO, o, n);
    const wantA = new Int32Array(n), wantO = new Int32Array(n), want = new Int32Array(n);
    forThreads(n, (i) => {
      let r = 0;
      if (x[i] > 0) r += 1;
      if (x[i] > 0) { wantA[i]++; r += 2; }
      if (x[i] > 0) r += 4; else { wantO[i]++; r += 4; }
      let c = 0;
      if (x[i] < 0.5 && (c = i * 2) > 10) r += 8;
      let d = 0;
      if (x[i] >= 0.5 || (d = i + 100) < 0) r += 16;
      want[i] = (r << 16) | (c << 8) | d;
    });
    same(hitA, wantA, "&& right side called only when left is true");
    same(hitO, wantO, "|| right side called only when left is false");
    same(o, want);
  });

  dtest("&& and || as values, and reading past the end behind a guard", async ({ dev, same }) => {
    const k = kernel(function logicalVals(a: Int32Array, b: Int32Array, x: Float32Array, o: Int32Array, n: number) {
      const i = threadIdx.x;
      o[i * 4] = a[i] && b[i];
      o[i * 4 + 1] = a[i] || 7;
      o[i * 4 + 2] = (a[i] > 0 && b[i] > 0) || a[i] === -1 ? 1 : 0;
      let j = i;
      while (j < n && x[j] > 0) j++;
      o[i * 4 + 3] = j;
    });
    const a = Int32Array.from([0, 1, -1, 5, 0, 3, -4, 2]);
    const b = Int32Array.from([9, 0, 2, 6, 0, -3, 4, 8]);
    const x = Float32Array.from([1, 2, -1, 3, 4, 5, 0, 6]);
    const o = poisonI32(32);
    await k.launch(dev, { blocks: 1, threads: 8 }, a, b, x, o, 8);
    const want = new Int32Array(32);
    forThreads(8, (i) => {
      let j = i; while (j < 8 && x[j] > 0) j++;
      want.set([a[i] && b[i], a[i] || 7, (a[i] > 0 && b[i] > 0) || a[i] === -1 ? 1 : 0, j], i * 4);
    });
    same(o, want);
  });

  dtest("?: evaluates side effects only in the chosen arm", async ({ dev, same }) => {
    const k = kernel(function ternSide(a: Int32Array, ca: Int32Array, cb: Int32Array, o: Int32Array) {
      const i = threadIdx.x;
      let k = 10;
      const v = a[i] > 0 ? bumpRetNI(ca, i, a[i] * 2) : bumpRetNI(cb, i, -a[i]);
      const w = a[i] % 2 === 0 ? (k += 5) : (k -= 3);
      const z = a[i] > 5 ? (a[i] > 10 ? k++ : ++k) : k--;
      o[i * 4] = v;
      o[i * 4 + 1] = w;
      o[i * 4 + 2] = z;
      o[i * 4 + 3] = k;
    }, { scope: { bumpRetNI } });
    const a = Int32Array.from([-5, 0, 1, 2, 6, 7, 11, 12, -6, 100]);
    const n = a.length;
    const ca = new Int32Array(n), cb = new Int32Array(n), o = poisonI32(n * 4);
    await k.launch(dev, { blocks: 1, threads: n }, a, ca, cb, o);
    const wa = new Int32Array(n), wb = new Int32Array(n), want = new Int32Array(n * 4);
    forThreads(n, (i) => {
      let k = 10;
      const v = a[i] > 0 ? (wa[i]++, a[i] * 2) : (wb[i]++, -a[i]);
      const w = a[i] % 2 === 0 ? (k += 5) : (k -= 3);
      const z = a[i] > 5 ? (a[i] > 10 ? k++ : ++k) : k--;
      want.set([v, w, z, k], i * 4);
    });
    same(ca, wa, "then-arm calls");
    same(cb, wb, "else-arm calls");
    same(o, want);
  });

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
});

describe("scope, types and parameters", () => {
  const LUT = new Float32Array([0.5, 1.25, -2, 3.75, 0.1]);
  const ILUT = new Int32Array([7, -3, 100000, 2147483647]);
  const DLUT = new Float64Array([0.1, 0.2, 0.3]);
  const F32LUT = Float32Array.from(DLUT);   // WGSL has no f64: WebGPU gets the f64 table as an f32 one

  dtest("scope constants (numbers, bool) and constant tables (f32, i32, f64)", async ({ dev, same, wide, wgsl }) => {
    const k = kernel(function scoped(o: Wide, oi: Int32Array, od: Wide) {
      const i = threadIdx.x;
      o[i] = LUT[i % LUT.length] * SCALE + OFFSET;
      oi[i] = ILUT[i % ILUT.length] + BIAS;
      if (FLAG) oi[i] = oi[i] * 2;
      od[i] = DLUT[i % 3] + DLUT[(i + 1) % 3];
    }, { scope: { LUT, ILUT, DLUT: wgsl ? F32LUT : DLUT, SCALE: 3, OFFSET: 0.25, BIAS: 1, FLAG: true } });
    const n = 12;
    const o = wide(n, "f32"), oi = poisonI32(n), od = wide(n, "f32");
    await k.launch(dev, { blocks: 1, threads: n }, o, oi, od);
    same(o, Array.from({ length: n }, (_v, i) => F(F(LUT[i % 5] * 3) + 0.25)));
    same(oi, Array.from({ length: n }, (_v, i) => Math.imul((ILUT[i % 4] + 1) | 0, 2)));
    if (wgsl) same(od, Array.from({ length: n }, (_v, i) => F(F32LUT[i % 3] + F32LUT[(i + 1) % 3])));
    else same(od, Array.from({ length: n }, (_v, i) => DLUT[i % 3] + DLUT[(i + 1) % 3]));
  });

  dtest("Horner polynomial with a scope coefficient table", async ({ dev, same }) => {
    const COEF = new Float32Array([1, -0.5, 0.25, -0.125, 0.0625, 0.3]);
    const k = kernel(function horner(x: Float32Array, o: Float32Array) {
      const i = blockIdx.x * blockDim.x + threadIdx.x;
      if (i >= x.length) return;
      let r = 0;
      for (let k = COEF.length - 1; k >= 0; k--) r = r * x[i] + COEF[k];
      o[i] = r;
    }, { scope: { COEF } });
    const x = randF32(231, 100, -2, 2), o = poisonF32(100);
    await k.launch(dev, { blocks: 4, threads: 32 }, x, o);
    same(o, Array.from(x, (v) => { let r = 0; for (let k = 5; k >= 0; k--) r = F(F(r * v) + COEF[k]); return r; }));
  });

  dtest("3x3 convolution with scope weights on a 2-D grid", async ({ dev, same }) => {
    const W3 = new Float32Array([0.0625, 0.125, 0.0625, 0.125, 0.25, 0.125, 0.0625, 0.125, 0.0625]);
    const k = kernel(function conv3x3(src: Float32Array, dst: Float32Array, w: number, h: number) {
      const x = blockIdx.x * blockDim.x + threadIdx.x;
      const y = blockIdx.y * blockDim.y + threadIdx.y;
      if (x >= w || y >= h) return;
      let acc = 0;
      for (let dy = -1; dy <= 1; dy++) {
        for (let dx = -1; dx <= 1; dx++) {
          const sx = Math.min(Math.max(x + dx, 0), w - 1);
          const sy = Math.min(Math.max(y + dy, 0), h - 1);
          acc += src[sy * w + sx] * W3[(dy + 1) * 3 + dx + 1];
        }
      }
      dst[y * w + x] = acc;
    }, { scope: { W3 } });
    const Wd = 21, Hd = 13;
    const src = randF32(241, Wd * Hd, 0, 10), dst = poisonF32(Wd * Hd);
    await k.launch(dev, { blocks: [3, 2], threads: [8, 8] }, src, dst, Wd, Hd);
    const want = new Float32Array(Wd * Hd);
    for (let y = 0; y < Hd; y++) for (let x = 0; x < Wd; x++) {
      let acc = 0;
      for (let dy = -1; dy <= 1; dy++) for (let dx = -1; dx <= 1; dx++) {
        const sx = Math.min(Math.max(x + dx, 0), Wd - 1), sy = Math.min(Math.max(y + dy, 0), Hd - 1);
        acc = F(acc + F(src[sy * Wd + sx] * W3[(dy + 1) * 3 + dx + 1]));
      }
      want[y * Wd + x] = acc;
    }
    same(dst, want);
  });

  dtest("types: a declared f32 parameter receiving an integer", async ({ dev, same, wide }) => {
    function typedParam(a: number, o: Wide) {
      o[0] = a + 2147483647;
      o[1] = a / 2;
      o[2] = (a * 3) | 0;
    }
    const asF32 = kernel(typedParam, { types: { a: "f32" } });
    const asDefault = kernel(typedParam);
    const o = wide(3, "f32"), o2 = wide(3, "f32");   // (o2[0], an i32 -2^31, is exact in f32)
    await asF32.launch(dev, { blocks: 1, threads: 1 }, 1, o);
    await asDefault.launch(dev, { blocks: 1, threads: 1 }, 1, o2);
    same(o, [2147483648, 0.5, 3], "a: f32");
    same(o2, [-2147483648, 0.5, 3], "a: i32 (by value)");
  });

  dtest("types: a declared i32 parameter receiving 2.5 is a CompileError (argument)", async ({ dev }) => {
    const k = kernel(function typedI32(n: number, o: Float32Array) { o[0] = n; }, { types: { n: "i32" } });
    await assert.rejects(k.launch(dev, { blocks: 1, threads: 1 }, 2.5, new Float32Array(1)), (e: unknown) => {
      assert.ok(e instanceof CompileError, `expected CompileError, got ${e}`);
      assert.equal(e.kind, "invalid-argument");
      assert.match(e.message, /'n'/);
      assert.match(e.message, /2\.5/);
      return true;
    });
  });

  dtest("bool parameters", async ({ dev, same }) => {
    const k = kernel(function boolParam(flag: boolean, x: Float32Array, o: Float32Array, oi: Int32Array) {
      const i = threadIdx.x;
      o[i] = flag ? x[i] : -x[i];
      if (!flag) o[i] += 1;
      oi[i * 3] = flag ? 1 : 0;
      oi[i * 3 + 1] = flag && x[i] > 0 ? 2 : 3;
      oi[i * 3 + 2] = flag === true ? 4 : 5;
    });
    const x = randF32(251, 8);
    for (const flag of [true, false]) {
      const o = poisonF32(8), oi = poisonI32(24);
      await k.launch(dev, { blocks: 1, threads: 8 }, flag, x, o, oi);
      same(o, Array.from(x, (v) => (flag ? v : F(-v + 1))), `flag=${flag}`);
      const wi: number[] = [];
      for (let i = 0; i < 8; i++) wi.push(flag ? 1 : 0, flag && x[i] > 0 ? 2 : 3, flag ? 4 : 5);
      same(oi, wi, `flag=${flag}`);
    }
  });

  dtest("same kernel, two argument type tuples (i32 vs f32 scalar)", async ({ dev, same, wideMixed }) => {
    const k = kernel(function twoSpecs(s: number, x: Float32Array, o: Wide) {
      const i = threadIdx.x;
      o[i * 3] = x[i] * s;
      o[i * 3 + 1] = s + 2147483647;
      o[i * 3 + 2] = (s / 2) | 0;
    });
    const x = randF32(261, 4, -3, 3);
    const ref = (s: number, sIsInt: boolean) => {
      const out: number[] = [];
      for (let i = 0; i < 4; i++) out.push(F(x[i] * F(s)), sIsInt ? (s + 2147483647) | 0 : F(F(s) + F(2147483647)), (F(s) / 2) | 0);
      return out;
    };
    for (const [s, isInt] of [[3, true], [2.5, false], [-7, true], [-7.5, false]] as const) {
      const floats = (j: number) => j % 3 === 0 || (j % 3 === 1 && !isInt);
      const o = await wideMixed(12, floats, (o) => k.launch(dev, { blocks: 1, threads: 4 }, s, x, o));
      same(o, ref(s, isInt), `s = ${s}`, { floats });
    }
  });

  dtest("compile() specializes by example args or by type names", async ({ dev }) => {
    const k = kernel(function axpyCompile(a: number, x: Float32Array, y: Float32Array) {
      const i = threadIdx.x;
      if (i < y.length) y[i] = a * x[i] + y[i];
    });
    const target = dev.target;   // "js" for the CPU device, "wgsl" for WebGPU
    const byTypes = await k.compile({ target, types: ["f32", "f32[]", "f32[]"] });
    const byArgs = await k.compile({ target, args: [2.5, new Float32Array(1), new Float32Array(1)] });
    const byIntArg = await k.compile({ target, args: [3, new Float32Array(1), new Float32Array(1)] });
    assert.deepEqual(byTypes.params.map((p) => [p.name, p.type]), [["a", "f32"], ["x", "f32[]"], ["y", "f32[]"]]);
    assert.deepEqual(byArgs.params.map((p) => p.type), ["f32", "f32[]", "f32[]"]);
    assert.deepEqual(byIntArg.params.map((p) => p.type), ["i32", "f32[]", "f32[]"]);
    assert.equal(typeof byTypes.code, "string");
    assert.ok((byTypes.code as string).includes(byTypes.entry), "the code defines its entry");
    assert.equal(byTypes.code, byArgs.code);
  });

  dtest("device arrays: dev.array, launches on resident data, read, write", async ({ dev, same }) => {
    const k = kernel(function axpbyDev(a: number, x: Float32Array, y: Float32Array) {
      const i = blockIdx.x * blockDim.x + threadIdx.x;
      if (i < y.length) y[i] = a * x[i] + y[i];
    });
    const n = 300;
    const x = randF32(271, n), y = randF32(272, n);
    const x0 = x.slice(), y0 = y.slice();
    const dx = dev.array(x), dy = dev.array(y);
    await k.launch(dev, { blocks: [2, 1, 1], threads: [256, 1, 1] }, 1.5, dx, dy);
    await k.launch(dev, { blocks: [2, 1, 1], threads: [256, 1, 1] }, 1.5, dx, dy);
    const once = y0.map((v, i) => F(F(F(1.5) * x0[i]) + v));
    const twice = once.map((v, i) => F(F(F(1.5) * x0[i]) + v));
    const got = await dy.read();
    assert.ok(got instanceof Float32Array);
    same(got, twice, "two launches on resident data");
    same(y, y0, "host array untouched");
    same(await dx.read(), x0, "x unchanged");
    await dy.write(y0);
    await k.launch(dev, { blocks: 2, threads: 256 }, 1.5, dx, dy);
    same(await dy.read(), once, "after write()");
  });
});

describe("larger kernels", () => {
  dtest("matrix multiply 64x48 * 48x32 on a 2-D grid", async ({ dev, same }) => {
    const k = kernel(function matmul(A: Float32Array, B: Float32Array, C: Float32Array, M: number, N: number, K: number) {
      const row = blockIdx.y * blockDim.y + threadIdx.y;
      const col = blockIdx.x * blockDim.x + threadIdx.x;
      if (row >= M || col >= N) return;
      let acc = 0;
      for (let k = 0; k < K; k++) acc += A[row * K + k] * B[k * N + col];
      C[row * N + col] = acc;
    });
    const M = 64, N = 32, K = 48;
    const A = randF32(281, M * K, -1, 1), B = randF32(282, K * N, -1, 1), C = poisonF32(M * N);
    await k.launch(dev, { blocks: [4, 8], threads: [8, 8] }, A, B, C, M, N, K);
    const want = new Float32Array(M * N);
    for (let r = 0; r < M; r++) for (let c = 0; c < N; c++) {
      let acc = 0;
      for (let j = 0; j < K; j++) acc = F(acc + F(A[r * K + j] * B[j * N + c]));
      want[r * N + c] = acc;
    }
    same(C, want);
  });

  dtest("mandelbrot escape times in f32 on a 2-D grid", async ({ dev, same }) => {
    const k = kernel(function mandel(out: Int32Array, w: number, h: number, x0: number, y0: number, dx: number, dy: number, maxIter: number) {
      const px = blockIdx.x * blockDim.x + threadIdx.x;
      const py = blockIdx.y * blockDim.y + threadIdx.y;
      if (px >= w || py >= h) return;
      const cr = x0 + px * dx;
      const ci = y0 + py * dy;
      let zr = 0;
      let zi = 0;
      let k = 0;
      while (k < maxIter) {
        const zr2 = zr * zr;
        const zi2 = zi * zi;
        if (zr2 + zi2 > 4) break;
        zi = 2 * zr * zi + ci;
        zr = zr2 - zi2 + cr;
        k++;
      }
      out[py * w + px] = k;
    });
    const W = 48, H = 40, X0 = -2.25, Y0 = -1.25, DX = 0.0523, DY = 0.0617, MAXI = 64;
    const out = poisonI32(W * H);
    await k.launch(dev, { blocks: [6, 5], threads: [8, 8] }, out, W, H, X0, Y0, DX, DY, MAXI);
    const want = new Int32Array(W * H);
    for (let py = 0; py < H; py++) for (let px = 0; px < W; px++) {
      const cr = F(F(X0) + F(px * F(DX))), ci = F(F(Y0) + F(py * F(DY)));
      let zr = 0, zi = 0, it = 0;
      while (it < MAXI) {
        const zr2 = F(zr * zr), zi2 = F(zi * zi);
        if (F(zr2 + zi2) > 4) break;
        zi = F(F(F(2 * zr) * zi) + ci);
        zr = F(F(zr2 - zi2) + cr);
        it++;
      }
      want[py * W + px] = it;
    }
    same(out, want);
    assert.ok(new Set(want).size > 10, "sanity: varied escape times");
  });

  dtest("n-body step (~100 lines): f64 physics, integrator switch, helpers, integer cell hash", async ({ dev, same, wgsl }) => {
    function speed3(vx: number, vy: number, vz: number) { return Math.sqrt(vx * vx + vy * vy + vz * vz); }
    function wrapCoord(c: number) {
      while (c >= BOX) c -= 2 * BOX;
      while (c < -BOX) c += 2 * BOX;
      return c;
    }
    function cellOf(c: number) { return Math.floor((c + BOX) * 4) | 0; }
    const k = kernel(function nbody(pos: Float64Array, vel: Float64Array, mass: Float64Array, outPos: Float64Array, outVel: Float64Array,
                                    stats: Int32Array, hashes: Uint32Array, energy: Float64Array, n: number, dt: number, mode: number) {
      const i = blockIdx.x * blockDim.x + threadIdx.x;
      if (i >= n) return;
      const px = pos[i * 3];
      const py = pos[i * 3 + 1];
      const pz = pos[i * 3 + 2];
      let ax = 0;
      let ay = 0;
      let az = 0;
      let pot = 0;
      let close = 0;
      let far = 0;
      let minD2 = Infinity;
      let nearest = -1;
      for (let j = 0; j < n; j++) {
        if (j === i) continue;
        const dx = pos[j * 3] - px;
        const dy = pos[j * 3 + 1] - py;
        const dz = pos[j * 3 + 2] - pz;
        const d2 = dx * dx + dy * dy + dz * dz + SOFT;
        if (d2 < minD2) {
          minD2 = d2;
          nearest = j;
        }
        if (d2 < 0.25) close++;
        else if (d2 > 4) {
          far++;
          if (far > FAR_LIMIT) break;
        }
        const inv = 1 / Math.sqrt(d2);
        const inv3 = inv * inv * inv;
        const s = mass[j] * inv3;
        ax += dx * s;
        ay += dy * s;
        az += dz * s;
        pot -= mass[j] * inv;
      }
      let vx = vel[i * 3];
      let vy = vel[i * 3 + 1];
      let vz = vel[i * 3 + 2];
      let nx = px;
      let ny = py;
      let nz = pz;
      switch (mode) {
        case 0:
          nx = px + vx * dt;
          ny = py + vy * dt;
          nz = pz + vz * dt;
          vx += ax * dt;
          vy += ay * dt;
          vz += az * dt;
          break;
        case 1:
          vx += ax * dt;
          vy += ay * dt;
          vz += az * dt;
          nx = px + vx * dt;
          ny = py + vy * dt;
          nz = pz + vz * dt;
          break;
        default: {
          const hx = vx + 0.5 * ax * dt;
          const hy = vy + 0.5 * ay * dt;
          const hz = vz + 0.5 * az * dt;
          nx = px + hx * dt;
          ny = py + hy * dt;
          nz = pz + hz * dt;
          vx = hx + 0.5 * ax * dt;
          vy = hy + 0.5 * ay * dt;
          vz = hz + 0.5 * az * dt;
        }
      }
      const sp = speed3(vx, vy, vz);
      let clamped = 0;
      if (sp > MAXV) {
        const f = MAXV / sp;
        vx *= f;
        vy *= f;
        vz *= f;
        clamped = 1;
      }
      nx = wrapCoord(nx);
      ny = wrapCoord(ny);
      nz = wrapCoord(nz);
      outPos[i * 3] = nx;
      outPos[i * 3 + 1] = ny;
      outPos[i * 3 + 2] = nz;
      outVel[i * 3] = vx;
      outVel[i * 3 + 1] = vy;
      outVel[i * 3 + 2] = vz;
      stats[i * 4] = close;
      stats[i * 4 + 1] = far;
      stats[i * 4 + 2] = nearest;
      stats[i * 4 + 3] = clamped;
      const cx = cellOf(nx);
      const cy = cellOf(ny);
      const cz = cellOf(nz);
      let h = Math.imul(cx, 73856093) ^ Math.imul(cy, 19349663) ^ Math.imul(cz, 83492791);
      h ^= h >>> 13;
      h = Math.imul(h, 0x5bd1e995);
      h ^= h >>> 15;
      hashes[i] = h >>> 0;
      energy[i] = 0.5 * mass[i] * (vx * vx + vy * vy + vz * vz) + 0.5 * mass[i] * pot;
    }, { types: { dt: "f64" }, scope: { speed3, wrapCoord, cellOf, SOFT: 1e-3, FAR_LIMIT: 20, MAXV: 1.2, BOX: 3 } });

    const N = 40;
    const pos = randF64(291, N * 3, -3, 3), vel = randF64(292, N * 3, -1, 1), mass = randF64(293, N, 0.1, 2);
    const SOFT = 1e-3, FAR_LIMIT = 20, MAXV = 1.2, BOX = 3;
    const refWrap = (c: number) => { while (c >= BOX) c -= 2 * BOX; while (c < -BOX) c += 2 * BOX; return c; };
    const refCell = (c: number) => Math.floor((c + BOX) * 4) | 0;
    for (const mode of [0, 1, 2]) {
      const dt = 0.05;
      const outPos = poisonF64(N * 3), outVel = poisonF64(N * 3), stats = poisonI32(N * 4), hashes = poisonU32(N), energy = poisonF64(N);
      // WGSL has no f64: the WebGPU device rejects this f64 kernel.
      if (wgsl) return rejectsF64(k.launch(dev, { blocks: 2, threads: 32 }, pos, vel, mass, outPos, outVel, stats, hashes, energy, N, dt, mode));
      await k.launch(dev, { blocks: 2, threads: 32 }, pos, vel, mass, outPos, outVel, stats, hashes, energy, N, dt, mode);
      const wPos = new Float64Array(N * 3), wVel = new Float64Array(N * 3), wStats = new Int32Array(N * 4), wHash = new Uint32Array(N), wEn = new Float64Array(N);
      for (let i = 0; i < N; i++) {
        const px = pos[i * 3], py = pos[i * 3 + 1], pz = pos[i * 3 + 2];
        let ax = 0, ay = 0, az = 0, pot = 0, close = 0, far = 0, minD2 = Infinity, nearest = -1;
        for (let j = 0; j < N; j++) {
          if (j === i) continue;
          const dx = pos[j * 3] - px, dy = pos[j * 3 + 1] - py, dz = pos[j * 3 + 2] - pz;
          const d2 = dx * dx + dy * dy + dz * dz + SOFT;
          if (d2 < minD2) { minD2 = d2; nearest = j; }
          if (d2 < 0.25) close++;
          else if (d2 > 4) { far++; if (far > FAR_LIMIT) break; }
          const inv = 1 / Math.sqrt(d2), inv3 = inv * inv * inv, s = mass[j] * inv3;
          ax += dx * s; ay += dy * s; az += dz * s; pot -= mass[j] * inv;
        }
        let vx = vel[i * 3], vy = vel[i * 3 + 1], vz = vel[i * 3 + 2], nx = px, ny = py, nz = pz;
        if (mode === 0) {
          nx = px + vx * dt; ny = py + vy * dt; nz = pz + vz * dt; vx += ax * dt; vy += ay * dt; vz += az * dt;
        } else if (mode === 1) {
          vx += ax * dt; vy += ay * dt; vz += az * dt; nx = px + vx * dt; ny = py + vy * dt; nz = pz + vz * dt;
        } else {
          const hx = vx + 0.5 * ax * dt, hy = vy + 0.5 * ay * dt, hz = vz + 0.5 * az * dt;
          nx = px + hx * dt; ny = py + hy * dt; nz = pz + hz * dt;
          vx = hx + 0.5 * ax * dt; vy = hy + 0.5 * ay * dt; vz = hz + 0.5 * az * dt;
        }
        const sp = Math.sqrt(vx * vx + vy * vy + vz * vz);
        let clamped = 0;
        if (sp > MAXV) { const f = MAXV / sp; vx *= f; vy *= f; vz *= f; clamped = 1; }
        nx = refWrap(nx); ny = refWrap(ny); nz = refWrap(nz);
        wPos.set([nx, ny, nz], i * 3);
        wVel.set([vx, vy, vz], i * 3);
        wStats.set([close, far, nearest, clamped], i * 4);
        let h = Math.imul(refCell(nx), 73856093) ^ Math.imul(refCell(ny), 19349663) ^ Math.imul(refCell(nz), 83492791);
        h ^= h >>> 13; h = Math.imul(h, 0x5bd1e995); h ^= h >>> 15;
        wHash[i] = h >>> 0;
        wEn[i] = 0.5 * mass[i] * (vx * vx + vy * vy + vz * vz) + 0.5 * mass[i] * pot;
      }
      same(outPos, wPos, `mode ${mode}: positions`);
      same(outVel, wVel, `mode ${mode}: velocities`);
      same(stats, wStats, `mode ${mode}: stats`);
      same(hashes, wHash, `mode ${mode}: hashes`);
      same(energy, wEn, `mode ${mode}: energy`);
      if (mode === 0) assert.ok(wStats.some((v, idx) => idx % 4 === 3 && v === 1), "sanity: some velocity is clamped");
    }
  });
});

describe("more language features", () => {
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

  dtest("block scoping and shadowing with different types", async ({ dev, same, wide }) => {
    const k = kernel(function shadowing(x: Float32Array, o: Wide) {
      let v = 1;
      {
        let v = x[0];
        o[0] = v;
      }
      o[1] = v;
      for (let v = 0; v < 3; v++) o[2] = v;
      o[3] = v + 2147483647;
    });
    const x = Float32Array.from([2.7]), o = wide(4, "f32");   // (o[3], an i32 -2^31, is exact in f32)
    await k.launch(dev, { blocks: 1, threads: 1 }, x, o);
    same(o, [x[0], 1, 2, -2147483648]);
  });

  dtest("a scalar parameter assigned a wider type", async ({ dev, same, wide }) => {
    const k = kernel(function paramWiden(a: number, o: Wide) {
      o[0] = a;
      a = a + 0.5;
      o[1] = a;
      a *= 3;
      o[2] = a;
    });
    for (const a of [3, 7, -2]) {
      const o = wide(3, "f32");
      await k.launch(dev, { blocks: 1, threads: 1 }, a, o);
      same(o, [a, a + 0.5, F((a + 0.5) * 3)], `a = ${a}`);
    }
  });

  dtest("for-loop forms: comma init/update, for(;;), a call in the update with continue, an element update", async ({ dev, same }) => {
    function stepNext(j: number) { return j * 2 + 1; }
    const k = kernel(function forForms(a: Int32Array, o: Int32Array) {
      let s = 0;
      for (let p = 0, q = 10; p < q; p++, q--) s += p * q;
      o[0] = s;
      let t = 0;
      for (;;) { t++; if (t > 5) break; }
      o[1] = t;
      let u = 0;
      for (let j = 0; j < 100; j = stepNext(j)) { if (j === 3) continue; u += j; }
      o[2] = u;
      let w = 0;
      let k = 0;
      for (let j = 0; j < 10; a[k++] += j++) { if (j % 3 === 0) continue; w += j; }
      o[3] = w;
      o[4] = k;
    }, { scope: { stepNext } });
    const a = new Int32Array(12), o = poisonI32(5);
    await k.launch(dev, { blocks: 1, threads: 1 }, a, o);
    const wa = new Int32Array(12), wo = new Int32Array(5);
    let s = 0; for (let p = 0, q = 10; p < q; p++, q--) s += p * q; wo[0] = s;
    let t = 0; for (;;) { t++; if (t > 5) break; } wo[1] = t;
    let u = 0; for (let j = 0; j < 100; j = stepNext(j)) { if (j === 3) continue; u += j; } wo[2] = u;
    let w = 0, kk = 0; for (let j = 0; j < 10; wa[kk++] += j++) { if (j % 3 === 0) continue; w += j; } wo[3] = w; wo[4] = kk;
    same(o, wo);
    same(a, wa, "element updates");
  });

  dtest("while with an assignment in the condition, while(true), do-while with a side-effecting condition", async ({ dev, same }) => {
    const k = kernel(function whileForms(a: Int32Array, o: Int32Array) {
      const i = threadIdx.x;
      let v = a[i];
      let c = 0;
      while ((v = v >> 1) > 0) c++;
      o[i * 3] = c;
      let j = 0;
      let s = 0;
      do {
        if (j === 2) continue;
        s += j;
      } while (j++ < 5);
      o[i * 3 + 1] = s * 100 + j;
      let n = a[i];
      let steps = 0;
      while (true) {
        if (n <= 1) break;
        n = n % 2 === 0 ? (n / 2) | 0 : n + 1;
        steps++;
      }
      o[i * 3 + 2] = steps;
    });
    const a = Int32Array.from([1000, 1, 0, 7, 65536, 12345, 3, 2]);
    const n = a.length;
    const o = poisonI32(n * 3);
    await k.launch(dev, { blocks: 1, threads: n }, a, o);
    const want = new Int32Array(n * 3);
    forThreads(n, (i) => {
      let v = a[i], c = 0; while ((v = v >> 1) > 0) c++;
      let j = 0, s = 0; do { if (j === 2) continue; s += j; } while (j++ < 5);
      let m = a[i], steps = 0; while (true) { if (m <= 1) break; m = m % 2 === 0 ? (m / 2) | 0 : m + 1; steps++; }
      want.set([c, s * 100 + j, steps], i * 3);
    });
    same(o, want);
  });

  dtest("return from the kernel inside a switch inside a loop", async ({ dev, same }) => {
    const k = kernel(function retSwitchLoop(o: Int32Array) {
      const i = threadIdx.x;
      for (let j = 0; j < 10; j++) {
        switch (j) {
          case 3:
            if (i === 1) { o[i] = 33; return; }
            break;
          case 5:
            if (i === 2) { o[i] = 55; return; }
        }
      }
      o[i] = 99;
    });
    const o = poisonI32(4);
    await k.launch(dev, { blocks: 1, threads: 4 }, o);
    same(o, [99, 33, 55, 99]);
  });

  dtest("switch on scope-constant labels, negative labels and a u32 selector", async ({ dev, same }) => {
    const k = kernel(function switchLabels(a: Int32Array, u: Uint32Array, o: Int32Array) {
      const i = threadIdx.x;
      switch (a[i]) {
        case RED: o[i * 2] = 1; break;
        case GREEN: o[i * 2] = 2; break;
        case -1: o[i * 2] = 4; break;
        default: o[i * 2] = 3;
      }
      switch (u[i]) {
        case 4294967295: o[i * 2 + 1] = 10; break;
        case 0: o[i * 2 + 1] = 20; break;
        default: o[i * 2 + 1] = 30;
      }
    }, { scope: { RED: 5, GREEN: 7 } });
    const a = Int32Array.from([5, 7, 9, -1]), u = Uint32Array.from([4294967295, 0, 9, 2147483648]);
    const o = poisonI32(8);
    await k.launch(dev, { blocks: 1, threads: 4 }, a, u, o);
    same(o, [1, 10, 2, 20, 3, 30, 4, 30]);
  });

  dtest("bool values in arithmetic and comparisons", async ({ dev, same }) => {
    const k = kernel(function boolArith(x: Float32Array, o: Int32Array) {
      const i = threadIdx.x;
      const pos = x[i] > 0;
      o[i * 5] = ((x[i] > 0) as unknown as number) + ((x[i] > 1) as unknown as number);
      o[i * 5 + 1] = (pos as unknown as number) * 3;
      o[i * 5 + 2] = (pos as unknown as number) == 1 ? 1 : 0;
      o[i * 5 + 3] = !x[i] ? 1 : 0;
      o[i * 5 + 4] = pos !== x[i] < -1 ? 1 : 0;
    });
    const x = Float32Array.from([2, 0.5, 0, -0.5, -2, NaN]);
    const n = x.length;
    const o = poisonI32(n * 5);
    await k.launch(dev, { blocks: 1, threads: n }, x, o);
    const want = new Int32Array(n * 5);
    forThreads(n, (i) => {
      const v = x[i], pos = v > 0;
      want.set([Number(v > 0) + Number(v > 1), Number(pos) * 3, pos ? 1 : 0, !v ? 1 : 0, pos !== v < -1 ? 1 : 0], i * 5);
    });
    same(o, want);
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

  dtest("recursive helper specialized on f32 and i32", async ({ dev, same, wgsl }) => {
    function powRec(b: number, e: number): number { return e === 0 ? 1 : b * powRec(b, e - 1); }
    const k = kernel(function recPow(x: Float32Array, o: Float64Array) {
      const i = threadIdx.x;
      o[i * 2] = powRec(x[i], i);
      o[i * 2 + 1] = powRec(2, i);
    }, { scope: { powRec } });
    const n = 12;
    const x = randF32(311, n, 0.5, 1.5), o = poisonF64(n * 2);
    if (wgsl) return rejectsRecursion(k.launch(dev, { blocks: 1, threads: n }, x, o));   // WGSL has no call stack
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

  dtest("one helper under two scopes with different constants", async ({ dev, same }) => {
    function scaleBy(v: number) { return v * FACTOR; }
    const k2 = kernel(function scaled2(o: Int32Array) { o[threadIdx.x] = scaleBy(threadIdx.x + 5); }, { scope: { scaleBy, FACTOR: 2 } });
    const k3 = kernel(function scaled3(o: Int32Array) { o[threadIdx.x] = scaleBy(threadIdx.x + 5); }, { scope: { scaleBy, FACTOR: 3 } });
    const o2 = poisonI32(3), o3 = poisonI32(3);
    await k2.launch(dev, { blocks: 1, threads: 3 }, o2);
    await k3.launch(dev, { blocks: 1, threads: 3 }, o3);
    same(o2, [10, 12, 14]);
    same(o3, [15, 18, 21]);
  });

  dtest("row softmax in f32 (Math.exp, Math.max, -Infinity)", async ({ dev, same }) => {
    const k = kernel(function softmax(x: Float32Array, o: Float32Array, cols: number) {
      const r = blockIdx.x * blockDim.x + threadIdx.x;
      if (r * cols >= x.length) return;
      let m = -Infinity;
      for (let c = 0; c < cols; c++) m = Math.max(m, x[r * cols + c]);
      let s = 0;
      for (let c = 0; c < cols; c++) {
        const e = Math.exp(x[r * cols + c] - m);
        o[r * cols + c] = e;
        s += e;
      }
      for (let c = 0; c < cols; c++) o[r * cols + c] = o[r * cols + c] / s;
    });
    const R = 9, C = 20;
    const x = randF32(321, R * C, -6, 6), o = poisonF32(R * C);
    await k.launch(dev, { blocks: 2, threads: 8 }, x, o, C);
    const want = new Float32Array(R * C);
    for (let r = 0; r < R; r++) {
      let m = -Infinity; for (let c = 0; c < C; c++) m = Math.max(m, x[r * C + c]);
      let s = 0; const e: number[] = [];
      for (let c = 0; c < C; c++) { e[c] = F(Math.exp(F(x[r * C + c] - m))); s = F(s + e[c]); }
      for (let c = 0; c < C; c++) want[r * C + c] = F(e[c] / s);
    }
    same(o, want);
  });

  dtest("number arguments are typed by value (i32 range -> i32, else f32, -0 -> f32)", async ({ dev, same, wide }) => {
    const k = kernel(function argsByValue(a: number, o: Wide) {
      o[0] = a + 1;
      o[1] = a * 1;
    });
    const cases: [number, number[]][] = [
      [2147483647, [-2147483648, 2147483647]],
      [2147483648, [2147483648, 2147483648]],
      [-2147483648, [-2147483647, -2147483648]],
      [-2147483649, [-2147483648, -2147483648]],
      [0.5, [1.5, 0.5]],
      [-0, [1, -0]],
    ];
    for (const [a, want] of cases) {
      const o = wide(2, Number.isInteger(a) && (a | 0) === a && !Object.is(a, -0) ? "i32" : "f32");
      await k.launch(dev, { blocks: 1, threads: 1 }, a, o);
      same(o, want, `a = ${Object.is(a, -0) ? "-0" : a}`);
    }
  });
});

describe("launch configuration and argument errors", () => {
  const k = kernel(function launchErr(a: number, x: Float32Array, y: Float32Array) {
    const i = threadIdx.x;
    if (i < y.length) y[i] = a * x[i];
  });
  const x = new Float32Array(4), y = new Float32Array(4);

  const rejectsLaunch = (p: Promise<void>, re: RegExp) => assert.rejects(p, (e: unknown) => {
    assert.ok(e instanceof KernelError, `expected KernelError, got ${e}`);
    assert.equal(e.kind, "launch");
    assert.match(e.message, re);
    return true;
  });
  const rejectsArgument = (p: Promise<void>, re: RegExp) => assert.rejects(p, (e: unknown) => {
    assert.ok(e instanceof CompileError, `expected CompileError, got ${e}`);
    assert.equal(e.kind, "invalid-argument");
    assert.match(e.message, re);
    return true;
  });

  dtest("blocks: 0", ({ dev }) => rejectsLaunch(k.launch(dev, { blocks: 0, threads: 4 }, 1, x, y), /blocks.*positive integer.*0/));
  dtest("threads: 2000 (over 1024 per block)", ({ dev }) => rejectsLaunch(k.launch(dev, { blocks: 1, threads: 2000 }, 1, x, y), /2000.*1024/));
  dtest("threads: [1,1,65] (z over 64)", ({ dev }) => rejectsLaunch(k.launch(dev, { blocks: 1, threads: [1, 1, 65] }, 1, x, y), /threads\.z.*65.*64/));
  dtest("threads: [32,32,2] (2048 per block)", ({ dev }) => rejectsLaunch(k.launch(dev, { blocks: 1, threads: [32, 32, 2] }, 1, x, y), /2048.*1024/));
  dtest("wrong argument count", ({ dev }) => rejectsArgument(k.launch(dev, { blocks: 1, threads: 4 }, 1, x), /takes 3 arguments.*got 2/));
  dtest("a string argument", ({ dev }) => rejectsArgument(k.launch(dev, { blocks: 1, threads: 4 }, "2" as unknown as number, x, y), /'a'.*string/));
  dtest("launches still work after the errors", async ({ dev, same }) => {
    const yy = poisonF32(4), xx = Float32Array.from([1, 2, 3, 4]);
    await k.launch(dev, { blocks: 1, threads: 4 }, 2, xx, yy);
    same(yy, [2, 4, 6, 8]);
  });
});

// =============================================================================================
// Each test below is a compiler bug found while writing this suite: the kernel is in the kernel
// language and the expected values follow its rules (JS semantics unless a rule above says
// otherwise). They are marked todo so the run stays green; remove the todo once fixed.

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

  dtest("integer literal 1000 in a kernel run through tsx (reprinted as 1e3) stays an integer", async ({ dev, same, wide }) => {
    const k = kernel(function literal1000(a: number, o: Wide) {
      o[0] = a * 1000 + 1;
      o[1] = a * 10000000;
    });
    const o = wide(2, "i32");
    await k.launch(dev, { blocks: 1, threads: 1 }, 2097152, o);
    same(o, [2097152001, Math.imul(2097152, 10000000)]);
  });

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
