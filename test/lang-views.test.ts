// Views of arrays (issue #16, item 3): `a.subarray(begin, end?)` on global, shared and private
// arrays inside kernels, with JavaScript's meaning (negative positions count from the end, both
// clamped to the array, an empty view when end ≤ begin), its own `.length`, usable wherever an
// array is (indexing, stores, compound assignment, helpers, Atomics, views of views), and
// bounds-checked against the view. Each result is compared with plain JavaScript running the same
// function over typed arrays.
//
// Every test runs on each device of the matrix (helpers.ts: `dtest`: the CPU device and WebGPU;
// the CPU run also compiles each kernel to PTX and assembles it with ptxas).

import { describe } from "node:test";
import assert from "node:assert/strict";
import { kernel, shared, syncthreads, threadIdx, blockIdx, blockDim } from "../src/index.ts";
import { randF32, randI32, poisonF32, poisonI32, F, dtest, openDevices, kernelError, rejectsCompile } from "./helpers.ts";

await openDevices();

function total(v: Float32Array) { let s = 0; for (let i = 0; i < v.length; i++) s += v[i]; return s; }
function bump(v: Int32Array, by: number) { for (let i = 0; i < v.length; i++) v[i] += by; }

describe("views (subarray)", () => {
  dtest("subarray's begin and end as JavaScript defines them: negative, clamped, empty", async ({ dev, same }) => {
    const k = kernel(function spans(o: Int32Array, x: Int32Array, b: number, e: number) {
      const v = x.subarray(b, e);
      const w = x.subarray(b);
      o[0] = v.length; o[1] = w.length;
      o[2] = v.length > 0 ? v[0] : -1;
      o[3] = w.length > 0 ? w[w.length - 1] : -1;
    });
    const x = Int32Array.from({ length: 10 }, (_, i) => i * 3 + 1);
    for (const [b, e] of [[2, 5], [-3, -1], [-20, 4], [3, 100], [7, 2], [0, 0], [10, 12], [-1, 10]]) {
      const o = poisonI32(4);
      await k.launch(dev, { blocks: 1, threads: 1 }, o, x, b, e);
      const v = x.subarray(b, e), w = x.subarray(b);
      same(o, [v.length, w.length, v.length > 0 ? v[0] : -1, w.length > 0 ? w[w.length - 1] : -1], `subarray(${b}, ${e})`);
    }
  });

  dtest("views in helpers, stores and compound assignment through views, a view of a view", async ({ dev, same }) => {
    const k = kernel(function viewsAtWork(sums: Float32Array, x: Float32Array, counts: Int32Array, n: number) {
      const i = threadIdx.x;
      const mine = x.subarray(i * n, (i + 1) * n);
      sums[i] = total(mine) + total(mine.subarray(1, -1));
      const c = counts.subarray(i * 2, i * 2 + 2);
      bump(c, i + 1);
      c[1] *= 3;
      mine[0] = -mine[0];
    }, { scope: { total, bump } });
    const n = 6, x = randF32(4, 4 * n, -3, 3), counts = randI32(2, 8, -5, 5), sums = poisonF32(4);
    const x0 = Float32Array.from(x), c0 = Int32Array.from(counts);
    await k.launch(dev, { blocks: 1, threads: 4 }, sums, x, counts, n);
    const tot = (v: Float32Array) => { let s = 0; for (const e of v) s = F(s + e); return s; };
    same(sums, Array.from({ length: 4 }, (_, i) => F(tot(x0.subarray(i * n, (i + 1) * n)) + tot(x0.subarray(i * n + 1, (i + 1) * n - 1)))));
    same(counts, Array.from(c0, (v, j) => (j % 2 ? (v + (j >> 1) + 1) * 3 : v + (j >> 1) + 1)));
    same(x, Array.from(x0, (v, j) => (j % n === 0 ? -v : v)));
  });

  dtest("views of shared and private arrays; Atomics on a view", async ({ dev, same }) => {
    const k = kernel(function viewKinds(o: Int32Array, data: Int32Array) {
      const s = shared(Int32Array, 64);
      const p = new Int32Array(4);
      const t = threadIdx.x;
      if (t < 64) s[t] = 0;
      syncthreads();
      const half = s.subarray(32);
      Atomics.add(half, data[t] & 31, 1);
      const q = p.subarray(1, 3);
      q[0] = t; q[1] = q.length;
      syncthreads();
      if (t < 32) o[t] = s[32 + t] + p[1] * 0 + p[2] * 100 + p[3];
    });
    const data = randI32(8, 64, 0, 1000), o = poisonI32(32);
    await k.launch(dev, { blocks: 1, threads: 64 }, o, data);
    const want = new Int32Array(32);
    for (const d of data) want[d & 31]++;
    same(o, Array.from(want, (v) => v + 200));
  });

  dtest("an index out of a view is a bounds KernelError against the view's length", async ({ dev }) => {
    const k = kernel(function viewOut(o: Float32Array, x: Float32Array, i: number) { const v = x.subarray(2, 5); o[0] = v[i]; });
    const err = await kernelError(k.launch(dev, { blocks: 1, threads: 1 }, poisonF32(1), randF32(1, 10), 3), "bounds");
    assert.match(err.message, /index 3 out of bounds for view 'x' of length 3/);
  });

  dtest("misuse is a CompileError", async ({ dev }) => {
    const types = ["f32[]"];
    await rejectsCompile(kernel(function viewArith(o: Float32Array) { o[0] = (o.subarray(1) as unknown as number) + 1; }).compile({ target: dev.target, types }),
      "type", /got a view of an array \('o'\)/);
    await rejectsCompile(kernel(function floatBegin(o: Float32Array) { o[0] = o.subarray(0.5)[0]; }).compile({ target: dev.target, types }),
      "type", /subarray's begin must be an integer, got f32/);
    await rejectsCompile(kernel(function letView(o: Float32Array) { let v = o.subarray(1); o[0] = v[0]; }).compile({ target: dev.target, types }),
      "invalid-assignment", /a view must be bound with const \('v'\), or rebound to a view of its array/);
    await rejectsCompile(kernel(function otherArray(o: Float32Array, x: Float32Array) { let v = o.subarray(1); v = x; o[0] = v[0]; }).compile({ target: dev.target, types: ["f32[]", "f32[]"] }),
      "invalid-assignment", /'v' may be rebound only to a view of the same array \(v = v.subarray\(k\)\), not of another/);
    await rejectsCompile(kernel(function toNumber(o: Float32Array) { o = 3 as unknown as Float32Array; o[0] = 1; }).compile({ target: dev.target, types }),
      "invalid-assignment", /'o' is an array: it may be rebound to a view of itself \(o = o.subarray\(k\)\), not to another value/);
  });

  // CUDA's pointer bump, `d_SrcKey += …`, is `d_SrcKey = d_SrcKey.subarray(…)` in JavaScript: a
  // parameter rebound to a view of itself. cuda-samples' bitonicSortShared, written so, is
  // examples/bitonic-sort.ts (test/examples.test.ts runs it on every device).
  dtest("a let view rebound in a loop walks its array (p = p.subarray(1)); checks follow the view", async ({ dev, same }) => {
    const k = kernel(function walk(d_Dst: Int32Array, d_Src: Int32Array, n: number) {
      d_Src = d_Src.subarray(blockIdx.x * n);
      d_Dst = d_Dst.subarray(blockIdx.x * n);
      let p = d_Src;
      let s = 0;
      for (let i = 0; i < n; i++) { s += p[0]; p = p.subarray(1); }
      d_Dst[threadIdx.x] = d_Src[threadIdx.x] * 10 + s + p.length;
    });
    const src = Int32Array.from({ length: 32 }, (_, i) => i), dst = poisonI32(32);
    await k.launch(dev, { blocks: 4, threads: 8 }, dst, src, 8);
    same(dst, Array.from({ length: 32 }, (_, i) => {
      const b = Math.floor(i / 8), t = i % 8;
      let s = 0;
      for (let j = 0; j < 8; j++) s += b * 8 + j;
      return (b * 8 + t) * 10 + s + (32 - b * 8 - 8);
    }));
    const err = await kernelError(k.launch(dev, { blocks: 4, threads: 9 }, poisonI32(32), src, 8), "bounds");
    assert.match(err.message, /index 8 out of bounds for view 'd_Src' of length 8/);
  });

  dtest("a const binding of a view that is rebound later keeps the view it was given", async ({ dev, same }) => {
    // JavaScript binds the object: `a` is x's view as it was, whatever x is rebound to after.
    const k = kernel(function keep(o: Int32Array, x: Int32Array) {
      const a = x;
      x = x.subarray(1);
      let p = x.subarray(1);
      const b = p;
      for (let i = 0; i < 2; i++) p = p.subarray(1);
      o[threadIdx.x] = a.length * 1000000 + x.length * 10000 + b.length * 100 + p.length + a[0] + b[0];
    });
    const x = Int32Array.from([5, 6, 7, 8, 9]), o = poisonI32(2);
    await k.launch(dev, { blocks: 1, threads: 2 }, o, x);
    same(o, [5040301 + 5 + 7, 5040301 + 5 + 7]);   // 5, 4, 3 and 1 long; a[0] 5, b[0] 7
  });
});

// ---- ports with pointer bumps, as written ----------------------------------------------------
// cuda-samples sortingNetworks/oddEvenMergeSort.cu (both kernels) and dct8x8/dct8x8_kernel2.cuh
// (CUDAkernel2DCT with its in-place vector DCT over shared memory). `d_SrcKey += k` is
// `d_SrcKey = d_SrcKey.subarray(k)`; `float *bl_ptr = block + k` a view of the shared array;
// `float *Vect1 = Vect0 + Step` a view of a view. Comparator's references to two shared
// elements are the arrays and the positions; to four locals, the values it returns.

const SHARED_SIZE_LIMIT = 512;

function Comparator(key: Uint32Array, val: Uint32Array, a: number, b: number, dir: number) {
  if ((key[a] > key[b] ? 1 : 0) === dir) {
    let t = key[a]; key[a] = key[b]; key[b] = t;
    t = val[a]; val[a] = val[b]; val[b] = t;
  }
}

function ComparatorValues(keyA: number, valA: number, keyB: number, valB: number, dir: number) {
  if ((keyA > keyB ? 1 : 0) === dir) return [keyB, valB, keyA, valA];
  return [keyA, valA, keyB, valB];
}

const oddEvenMergeSortShared = kernel(function oddEvenMergeSortShared(d_DstKey: Uint32Array, d_DstVal: Uint32Array, d_SrcKey: Uint32Array, d_SrcVal: Uint32Array, arrayLength: number, dir: number) {
  // Shared memory storage for one or more small vectors
  const s_key = shared(Uint32Array, SHARED_SIZE_LIMIT);
  const s_val = shared(Uint32Array, SHARED_SIZE_LIMIT);
  // Offset to the beginning of subbatch and load data
  d_SrcKey = d_SrcKey.subarray(blockIdx.x * SHARED_SIZE_LIMIT + threadIdx.x);
  d_SrcVal = d_SrcVal.subarray(blockIdx.x * SHARED_SIZE_LIMIT + threadIdx.x);
  d_DstKey = d_DstKey.subarray(blockIdx.x * SHARED_SIZE_LIMIT + threadIdx.x);
  d_DstVal = d_DstVal.subarray(blockIdx.x * SHARED_SIZE_LIMIT + threadIdx.x);
  s_key[threadIdx.x + 0] = d_SrcKey[0];
  s_val[threadIdx.x + 0] = d_SrcVal[0];
  s_key[threadIdx.x + (SHARED_SIZE_LIMIT / 2)] = d_SrcKey[(SHARED_SIZE_LIMIT / 2)];
  s_val[threadIdx.x + (SHARED_SIZE_LIMIT / 2)] = d_SrcVal[(SHARED_SIZE_LIMIT / 2)];
  for (let size = 2; size <= arrayLength; size <<= 1) {
    let stride = size >> 1;
    const offset = threadIdx.x & (stride - 1);
    {
      syncthreads();
      const pos = 2 * threadIdx.x - (threadIdx.x & (stride - 1));
      Comparator(s_key, s_val, pos + 0, pos + stride, dir);
      stride >>= 1;
    }
    for (; stride > 0; stride >>= 1) {
      syncthreads();
      const pos = 2 * threadIdx.x - (threadIdx.x & (stride - 1));
      if (offset >= stride) Comparator(s_key, s_val, pos - stride, pos + 0, dir);
    }
  }
  syncthreads();
  d_DstKey[0] = s_key[threadIdx.x + 0];
  d_DstVal[0] = s_val[threadIdx.x + 0];
  d_DstKey[(SHARED_SIZE_LIMIT / 2)] = s_key[threadIdx.x + (SHARED_SIZE_LIMIT / 2)];
  d_DstVal[(SHARED_SIZE_LIMIT / 2)] = s_val[threadIdx.x + (SHARED_SIZE_LIMIT / 2)];
}, { scope: { SHARED_SIZE_LIMIT, Comparator } });

const oddEvenMergeGlobal = kernel(function oddEvenMergeGlobal(d_DstKey: Uint32Array, d_DstVal: Uint32Array, d_SrcKey: Uint32Array, d_SrcVal: Uint32Array, _arrayLength: number, size: number, stride: number, dir: number) {
  const global_comparatorI = blockIdx.x * blockDim.x + threadIdx.x;
  // Odd-even merge
  const pos = 2 * global_comparatorI - (global_comparatorI & (stride - 1));
  if (stride < size / 2) {
    const offset = global_comparatorI & ((size / 2) - 1);
    if (offset >= stride) {
      let keyA = d_SrcKey[pos - stride];
      let valA = d_SrcVal[pos - stride];
      let keyB = d_SrcKey[pos + 0];
      let valB = d_SrcVal[pos + 0];
      [keyA, valA, keyB, valB] = ComparatorValues(keyA, valA, keyB, valB, dir);
      d_DstKey[pos - stride] = keyA;
      d_DstVal[pos - stride] = valA;
      d_DstKey[pos + 0] = keyB;
      d_DstVal[pos + 0] = valB;
    }
  } else {
    let keyA = d_SrcKey[pos + 0];
    let valA = d_SrcVal[pos + 0];
    let keyB = d_SrcKey[pos + stride];
    let valB = d_SrcVal[pos + stride];
    [keyA, valA, keyB, valB] = ComparatorValues(keyA, valA, keyB, valB, dir);
    d_DstKey[pos + 0] = keyA;
    d_DstVal[pos + 0] = valA;
    d_DstKey[pos + stride] = keyB;
    d_DstVal[pos + stride] = valB;
  }
}, { scope: { ComparatorValues } });

const C_a = 1.387039845322148, C_b = 1.306562964876377, C_c = 1.175875602419359, C_d = 0.785694958387102, C_e = 0.541196100146197, C_f = 0.275899379282943;
const C_norm = 0.3535533905932737;
const BLOCK_SIZE = 8, KER2_BLOCK_WIDTH = 32, KER2_BLOCK_HEIGHT = 16, KER2_SMEMBLOCK_STRIDE = KER2_BLOCK_WIDTH + 1;
const FMUL = (x: number, y: number) => x * y;

function CUDAsubroutineInplaceDCTvector(Vect0: Float32Array, Step: number) {
  const Vect1 = Vect0.subarray(Step);
  const Vect2 = Vect1.subarray(Step);
  const Vect3 = Vect2.subarray(Step);
  const Vect4 = Vect3.subarray(Step);
  const Vect5 = Vect4.subarray(Step);
  const Vect6 = Vect5.subarray(Step);
  const Vect7 = Vect6.subarray(Step);
  const X07P = Vect0[0] + Vect7[0];
  const X16P = Vect1[0] + Vect6[0];
  const X25P = Vect2[0] + Vect5[0];
  const X34P = Vect3[0] + Vect4[0];
  const X07M = Vect0[0] - Vect7[0];
  const X61M = Vect6[0] - Vect1[0];
  const X25M = Vect2[0] - Vect5[0];
  const X43M = Vect4[0] - Vect3[0];
  const X07P34PP = X07P + X34P;
  const X07P34PM = X07P - X34P;
  const X16P25PP = X16P + X25P;
  const X16P25PM = X16P - X25P;
  Vect0[0] = C_norm * (X07P34PP + X16P25PP);
  Vect2[0] = C_norm * (C_b * X07P34PM + C_e * X16P25PM);
  Vect4[0] = C_norm * (X07P34PP - X16P25PP);
  Vect6[0] = C_norm * (C_e * X07P34PM - C_b * X16P25PM);
  Vect1[0] = C_norm * (C_a * X07M - C_c * X61M + C_d * X25M - C_f * X43M);
  Vect3[0] = C_norm * (C_c * X07M + C_f * X61M - C_a * X25M + C_d * X43M);
  Vect5[0] = C_norm * (C_d * X07M + C_a * X61M + C_f * X25M - C_c * X43M);
  Vect7[0] = C_norm * (C_f * X07M + C_d * X61M + C_c * X25M + C_a * X43M);
}

const CUDAkernel2DCT = kernel(function CUDAkernel2DCT(dst: Float32Array, src: Float32Array, ImgStride: number) {
  const block = shared(Float32Array, KER2_BLOCK_HEIGHT * KER2_SMEMBLOCK_STRIDE);
  const OffsThreadInRow = threadIdx.y * BLOCK_SIZE + threadIdx.x;
  const OffsThreadInCol = threadIdx.z * BLOCK_SIZE;
  src = src.subarray(FMUL(blockIdx.y * KER2_BLOCK_HEIGHT + OffsThreadInCol, ImgStride) + blockIdx.x * KER2_BLOCK_WIDTH + OffsThreadInRow);
  dst = dst.subarray(FMUL(blockIdx.y * KER2_BLOCK_HEIGHT + OffsThreadInCol, ImgStride) + blockIdx.x * KER2_BLOCK_WIDTH + OffsThreadInRow);
  const bl_ptr = block.subarray(OffsThreadInCol * KER2_SMEMBLOCK_STRIDE + OffsThreadInRow);
  for (let i = 0; i < BLOCK_SIZE; i++) bl_ptr[i * KER2_SMEMBLOCK_STRIDE] = src[i * ImgStride];
  syncthreads();
  // process rows
  CUDAsubroutineInplaceDCTvector(block.subarray((OffsThreadInCol + threadIdx.x) * KER2_SMEMBLOCK_STRIDE + OffsThreadInRow - threadIdx.x), 1);
  syncthreads();
  // process columns
  CUDAsubroutineInplaceDCTvector(bl_ptr, KER2_SMEMBLOCK_STRIDE);
  syncthreads();
  for (let i = 0; i < BLOCK_SIZE; i++) dst[i * ImgStride] = bl_ptr[i * KER2_SMEMBLOCK_STRIDE];
}, { scope: { BLOCK_SIZE, KER2_BLOCK_WIDTH, KER2_BLOCK_HEIGHT, KER2_SMEMBLOCK_STRIDE, FMUL, CUDAsubroutineInplaceDCTvector, C_a, C_b, C_c, C_d, C_e, C_f, C_norm } });

describe("ports with pointer bumps", () => {
  dtest("cuda-samples oddEvenMergeSort: the shared-memory sort, then the global merge steps", async ({ dev }) => {
    const arrayLength = 2048, n = 2 * arrayLength;
    const keys = Uint32Array.from(randI32(7, n, 0, 1_000_000_000)), vals = Uint32Array.from({ length: n }, (_, i) => i);
    const dk = new Uint32Array(n), dv = new Uint32Array(n);
    await oddEvenMergeSortShared.launch(dev, { blocks: n / SHARED_SIZE_LIMIT, threads: SHARED_SIZE_LIMIT / 2 }, dk, dv, keys, vals, SHARED_SIZE_LIMIT, 1);
    for (let size = 2 * SHARED_SIZE_LIMIT; size <= arrayLength; size <<= 1)
      for (let stride = size / 2; stride > 0; stride >>= 1)
        await oddEvenMergeGlobal.launch(dev, { blocks: n / 512, threads: 256 }, dk, dv, dk, dv, arrayLength, size, stride, 1);
    for (let b = 0; b < n; b += arrayLength) {
      const want = keys.slice(b, b + arrayLength).sort();
      assert.deepEqual(Array.from(dk.subarray(b, b + arrayLength)), Array.from(want), `batch ${b / arrayLength}`);
    }
    assert.ok(Array.from(dv).every((v, i) => keys[v] === dk[i]), "each value follows its key");
  });

  dtest("cuda-samples dct8x8 CUDAkernel2DCT: views of shared memory and views of views, the DCT in place", async ({ dev }) => {
    const W = 64, H = 32;
    const src = Float32Array.from({ length: W * H }, (_, i) => (i * 37) % 256);
    const dst = new Float32Array(W * H);
    await CUDAkernel2DCT.launch(dev, { blocks: [W / KER2_BLOCK_WIDTH, H / KER2_BLOCK_HEIGHT], threads: [8, KER2_BLOCK_WIDTH / 8, KER2_BLOCK_HEIGHT / 8] }, dst, src, W);
    // The 8×8 DCT by its definition, in f64 (the kernel's separable f32 form agrees to f32 rounding).
    let worst = 0;
    for (let by = 0; by < H; by += 8) for (let bx = 0; bx < W; bx += 8) for (let v = 0; v < 8; v++) for (let u = 0; u < 8; u++) {
      let s = 0;
      for (let y = 0; y < 8; y++) for (let x = 0; x < 8; x++) s += src[(by + y) * W + bx + x] * Math.cos((2 * x + 1) * u * Math.PI / 16) * Math.cos((2 * y + 1) * v * Math.PI / 16);
      s *= (u ? 1 : Math.SQRT1_2) * (v ? 1 : Math.SQRT1_2) / 4;
      worst = Math.max(worst, Math.abs(s - dst[(by + v) * W + bx + u]));
    }
    assert.ok(worst < 1e-3, `largest difference from the DCT's definition: ${worst}`);
  });
});
