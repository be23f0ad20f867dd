// Execution tests of shared memory and barriers, kernel-language features of issue #3. Each result
// is compared with a plain-JavaScript reference computed here; f32 references round every operation
// with Math.fround.
//
// Every test runs on each device of the matrix (helpers.ts: `dtest`): the CPU device (the JS
// target, the exact reference semantics) and WebGPU (the WGSL target). Where WebGPU differs by
// design, the test says so where it branches on `wgsl`: no f64, no recursion, and WGSL's uniformity
// rule for barriers (checked when the shader is compiled, not at run time).
//
// Outputs are poisoned (NaN or a sentinel) before each launch so unwritten elements show.
//
// Note: tsx reprints kernel sources (`1000` becomes `1e3`, comments vanish). Locations are checked
// against the original file: `lineOf("NAME")` (helpers.ts: `lineOfIn`) is the line of this file
// that carries the marker comment `// @NAME`.
//
// Every assert.ok has a message: without one, node's assert re-parses the (one-line, reprinted)
// source to describe the failure, which takes minutes.

import { describe } from "node:test";
import assert from "node:assert/strict";
import { kernel, KernelError, threadIdx, blockIdx, blockDim, gridDim } from "../src/index.ts";
import { randF32, randF64, randI32, randFullI32, randFullU32, poisonF32, poisonF64, poisonI32,
  poisonU32, F, dtest, openDevices, kernelError, lineOfIn, rejectsCompile, rejectsF64,
  rejectsRecursion } from "./helpers.ts";

// Compiler intrinsics inside kernel bodies (declared for TypeScript only; never called on the host).
declare function shared<T extends Float32Array | Float64Array | Int32Array | Uint32Array>(ctor: new (n: number) => T, n: number): T;
declare function syncthreads(): void;

await openDevices();

const lineOf = lineOfIn(import.meta.url);

/**
 * WGSL requires every barrier to be in uniform control flow, which it checks when it compiles the
 * shader: the WebGPU device rejects a kernel whose barriers only some threads of a block may
 * reach (after an early return, under a condition that may differ) with a CompileError.
 */
const rejectsNonUniformBarrier = (p: Promise<unknown>) =>
  rejectsCompile(p, "unsupported-syntax", /syncthreads\(\) is reached under a condition that may differ between threads/);

/** CUDA neither rejects nor detects a barrier that threads reach under different conditions (undefined behaviour there). */
const CUDA_DIVERGENT_BARRIER = "CUDA does not detect divergent barriers: bar.sync under a condition that differs between threads is undefined behaviour in CUDA";
const AMDGPU_DIVERGENT_BARRIER = "AMD GPUs do not detect divergent barriers: s_barrier under a condition that differs between the waves of a work-group is undefined behaviour (it may hang)";
const OPENCL_DIVERGENT_BARRIER = "OpenCL does not detect divergent barriers: a barrier some work-items of a work-group skip is undefined behaviour in OpenCL C (PoCL may hang)";

// ---- references ----------------------------------------------------------------------------

/** The block-level pairwise tree reduction of the treeReduce kernel, in f32 arithmetic. */
function treeReduceRef(x: Float32Array, n: number, bs: number, nblocks: number): Float32Array {
  const out = new Float32Array(nblocks);
  for (let b = 0; b < nblocks; b++) {
    const s = new Float32Array(bs);
    for (let t = 0; t < bs; t++) { const i = b * bs + t; s[t] = i < n ? x[i] : 0; }
    for (let stride = bs >> 1; stride > 0; stride >>= 1) for (let t = 0; t < stride; t++) s[t] = F(s[t] + s[t + stride]);
    out[b] = s[0];
  }
  return out;
}

// ---- module-level helpers (passed through `scope`) -----------------------------------------

/** Rotates values one thread to the left through shared memory (contains barriers). */
function rotateLeft(s: Int32Array, tid: number, bs: number, v: number) {
  s[tid] = v;
  syncthreads();
  const r = s[(tid + 1) % bs];
  syncthreads();
  return r;
}

/** A block-wide sum through a shared array the helper declares itself. */
function blockSum(v: number) {
  const s = shared(Int32Array, 64);
  const tid = threadIdx.x;
  s[tid] = v;
  syncthreads();
  for (let stride = 32; stride > 0; stride >>= 1) {
    if (tid < stride && tid + stride < blockDim.x) s[tid] += s[tid + stride];
    syncthreads();
  }
  const r = s[0];
  syncthreads();
  return r;
}

// =============================================================================================

describe("shared memory and barriers", () => {
  const reduce = kernel(function treeReduce(x: Float32Array, partial: Float32Array, n: number) {
    const s = shared(Float32Array, 1024);
    const bs = blockDim.x * blockDim.y;
    const tid = threadIdx.y * blockDim.x + threadIdx.x;
    const b = blockIdx.y * gridDim.x + blockIdx.x;
    const i = b * bs + tid;
    s[tid] = i < n ? x[i] : 0;
    syncthreads();
    for (let stride = bs >> 1; stride > 0; stride >>= 1) {
      if (tid < stride) s[tid] += s[tid + stride];
      syncthreads();
    }
    if (tid === 0) partial[b] = s[0];
  });
  const N = 100000;
  const x = randF32(11, N, -1, 1);

  for (const [label, threads, bs] of [
    ["1024 threads", 1024, 1024], ["256 threads", 256, 256], ["64 threads", 64, 64],
    ["2-D block [16,16]", [16, 16], 256], ["2-D block [32,32]", [32, 32], 1024], ["2-D block [8,4]", [8, 4], 32],
  ] as [string, number | number[], number][]) {
    dtest(`tree reduction of 1e5 f32 values, ${label}, then passes of 128 threads down to one value`, async ({ dev, same }) => {
      const nb = Math.ceil(N / bs);
      const partial = poisonF32(nb);
      await reduce.launch(dev, { blocks: nb, threads: threads as never }, x, partial, N);
      let want = treeReduceRef(x, N, bs, nb);
      same(partial, want, "partial sums");
      // Further passes over the partial sums, 128 threads per block, until one value is left.
      let cur = partial;
      while (cur.length > 1) {
        const m = Math.ceil(cur.length / 128);
        const next = poisonF32(m);
        await reduce.launch(dev, { blocks: m, threads: 128 }, cur, next, cur.length);
        want = treeReduceRef(want, want.length, 128, m);
        same(next, want, `pass to ${m}`);
        cur = next;
      }
      // Sanity check of the reference itself: the total is the sum.
      const exact = x.reduce((a, v) => a + v, 0);
      assert.ok(Math.abs(cur[0] - exact) < 1e-2, `total ${cur[0]} vs ${exact}`);
    });
  }

  dtest("a region run by one thread between barriers: threadIdx.x === u for u inside, below and past the block", async ({ dev, same }) => {
    const k = kernel(function oneThread(o: Int32Array, u: number) {
      const s = shared(Int32Array, 64);
      const t = threadIdx.x, b = blockIdx.x;
      s[t] = t * 10 + b;
      syncthreads();
      if (t === blockDim.x - 1) o[b * 4] = s[0] + s[t];
      syncthreads();
      if (u === t) o[b * 4 + 1] = s[t] + 1;
      syncthreads();
      if (t === u - 64) o[b * 4 + 2] = 7;
      if (threadIdx.y === 1 && t === 0) o[b * 4 + 3] = s[31];
    });
    for (const u of [5, -3, 70]) {
      const o = poisonI32(12).fill(-1);
      await k.launch(dev, { blocks: 3, threads: [32, 2] }, o, u);
      const want = Array.from({ length: 3 }, (_, b) => [2 * b + 310, u === 5 ? 51 + b : -1, u === 70 ? 7 : -1, 310 + b]).flat();
      same(o, want);
    }
  });

  dtest("tree reduction on a 2-D grid of 2-D blocks (blocks [7,3], threads [16,8])", async ({ dev, same }) => {
    const bs = 128, nb = 21, n = 2600;
    const xs = randF32(12, n, -100, 100);
    const partial = poisonF32(nb + 2);
    await reduce.launch(dev, { blocks: [7, 3], threads: [16, 8] }, xs, partial, n);
    const want = poisonF32(nb + 2);
    want.set(treeReduceRef(xs, n, bs, nb));
    same(partial, want);
  });

  dtest("tiled matrix multiply, 16x16 tiles, 50x70 . 70x30", async ({ dev, same }) => {
    const mm = kernel(function tiledMatmul(A: Float32Array, B: Float32Array, C: Float32Array, M: number, K: number, N: number) {
      const As = shared(Float32Array, 256);
      const Bs = shared(Float32Array, 256);
      const tx = threadIdx.x, ty = threadIdx.y;
      const row = blockIdx.y * 16 + ty, col = blockIdx.x * 16 + tx;
      let acc = 0;
      const tiles = ((K + 15) / 16) | 0;
      for (let t = 0; t < tiles; t++) {
        const ka = t * 16 + tx, kb = t * 16 + ty;
        As[ty * 16 + tx] = row < M && ka < K ? A[row * K + ka] : 0;
        Bs[ty * 16 + tx] = kb < K && col < N ? B[kb * N + col] : 0;
        syncthreads();
        for (let k = 0; k < 16; k++) acc += As[ty * 16 + k] * Bs[k * 16 + tx];
        syncthreads();
      }
      if (row < M && col < N) C[row * N + col] = acc;
    });
    const M = 50, K = 70, N = 30;
    const A = randF32(21, M * K, -2, 2), B = randF32(22, K * N, -2, 2);
    const C = poisonF32(M * N + 3);
    await mm.launch(dev, { blocks: [Math.ceil(N / 16), Math.ceil(M / 16)], threads: [16, 16] }, A, B, C, M, K, N);
    const want = poisonF32(M * N + 3);
    const tiles = Math.ceil(K / 16);
    for (let r = 0; r < M; r++) for (let c = 0; c < N; c++) {
      let acc = 0;
      for (let t = 0; t < tiles; t++) for (let k = 0; k < 16; k++) {
        const kk = t * 16 + k;
        const a = kk < K ? A[r * K + kk] : 0, b = kk < K ? B[kk * N + c] : 0;
        acc = F(acc + F(a * b));
      }
      want[r * N + c] = acc;
    }
    same(C, want);
  });

  dtest("Hillis-Steele inclusive scan, double-buffered, f32, several blocks", async ({ dev, same }) => {
    const scan = kernel(function hsScan(x: Float32Array, y: Float32Array, n: number) {
      const buf = shared(Float32Array, 512);
      const bs = blockDim.x;
      const tid = threadIdx.x;
      const i = blockIdx.x * bs + tid;
      let pout = 0;
      buf[tid] = i < n ? x[i] : 0;
      syncthreads();
      for (let off = 1; off < bs; off *= 2) {
        pout = 1 - pout;
        const pin = 1 - pout;
        if (tid >= off) buf[pout * bs + tid] = buf[pin * bs + tid] + buf[pin * bs + tid - off];
        else buf[pout * bs + tid] = buf[pin * bs + tid];
        syncthreads();
      }
      if (i < n) y[i] = buf[pout * bs + tid];
    });
    for (const bs of [256, 64, 100]) {
      const n = 777;
      const xs = randF32(31 + bs, n, -4, 4);
      const y = poisonF32(n + 1);
      await scan.launch(dev, { blocks: Math.ceil(n / bs), threads: bs }, xs, y, n);
      const want = poisonF32(n + 1);
      for (let b = 0; b * bs < n; b++) {
        let cur = new Float32Array(bs);
        for (let t = 0; t < bs; t++) cur[t] = b * bs + t < n ? xs[b * bs + t] : 0;
        for (let off = 1; off < bs; off *= 2) {
          const nxt = new Float32Array(bs);
          for (let t = 0; t < bs; t++) nxt[t] = t >= off ? F(cur[t] + cur[t - off]) : cur[t];
          cur = nxt;
        }
        for (let t = 0; t < bs && b * bs + t < n; t++) want[b * bs + t] = cur[t];
      }
      same(y, want, `block size ${bs}`);
    }
  });

  dtest("Hillis-Steele inclusive scan in one buffer (barrier between read and write), wrapping i32", async ({ dev, same }) => {
    const scan = kernel(function hsScanI(x: Int32Array, y: Int32Array) {
      const s = shared(Int32Array, 128);
      const tid = threadIdx.x, bs = blockDim.x;
      const i = blockIdx.x * bs + tid;
      s[tid] = x[i];
      syncthreads();
      for (let off = 1; off < bs; off <<= 1) {
        const v = tid >= off ? s[tid - off] : 0;
        syncthreads();
        s[tid] += v;
        syncthreads();
      }
      y[i] = s[tid];
    });
    const bs = 128, nb = 3;
    const xs = randFullI32(41, bs * nb);
    const y = poisonI32(bs * nb);
    await scan.launch(dev, { blocks: nb, threads: bs }, xs, y);
    const want = new Int32Array(bs * nb);
    for (let b = 0; b < nb; b++) { let acc = 0; for (let t = 0; t < bs; t++) { acc = (acc + xs[b * bs + t]) | 0; want[b * bs + t] = acc; } }
    same(y, want);
  });

  dtest("barriers inside a loop with break and continue (conditions uniform per block)", async ({ dev, same }) => {
    const k = kernel(function loopBarrier(x: Int32Array, stopAt: Int32Array, o: Int32Array) {
      const s = shared(Int32Array, 64);
      const tid = threadIdx.x, bs = blockDim.x;
      const i = blockIdx.x * bs + tid;
      let v = x[i];
      const stop = stopAt[blockIdx.x];
      for (let it = 0; it < 40; it++) {
        if (it === stop) break;
        if (it % 3 === 1) continue;
        s[tid] = v;
        syncthreads();
        v = s[(tid + 1) % bs] + it * tid;
        syncthreads();
      }
      o[i] = v;
    });
    const bs = 48, nb = 4;
    const xs = randI32(51, bs * nb, -100, 100), stopAt = Int32Array.from([0, 1, 7, 40]);
    const o = poisonI32(bs * nb);
    await k.launch(dev, { blocks: nb, threads: bs }, xs, stopAt, o);
    const want = new Int32Array(bs * nb);
    for (let b = 0; b < nb; b++) {
      let v = Array.from(xs.subarray(b * bs, (b + 1) * bs));
      for (let it = 0; it < 40; it++) {
        if (it === stopAt[b]) break;
        if (it % 3 === 1) continue;
        const s = v.slice();
        v = v.map((_, t) => (s[(t + 1) % bs] + it * t) | 0);
      }
      want.set(v, b * bs);
    }
    same(o, want);
  });

  // WGSL: `last = ctr[0]` (every thread, a constant index) becomes workgroupUniformLoad, so the
  // break on it is uniform control flow, as WGSL requires around barriers.
  dtest("while(true) loop with barriers that breaks on a value read from shared memory", async ({ dev, same }) => {
    const k = kernel(function whileShared(o: Int32Array) {
      const ctr = shared(Int32Array, 1);
      const tid = threadIdx.x;
      if (tid === 0) ctr[0] = 0;
      syncthreads();
      let rounds = 0;
      let last = 0;
      while (true) {
        if (tid === 0) ctr[0] += blockIdx.x + 1;
        syncthreads();
        last = ctr[0];
        syncthreads();
        if (last > 20) break;
        rounds++;
      }
      o[blockIdx.x * blockDim.x + tid] = rounds * 256 + last + tid * 65536;
    });
    const bs = 10, nb = 5;
    const o = poisonI32(bs * nb + 1);
    await k.launch(dev, { blocks: nb, threads: bs }, o);
    const want = poisonI32(bs * nb + 1);
    for (let b = 0; b < nb; b++) {
      let c = 0, rounds = 0;
      while (true) { c += b + 1; if (c > 20) break; rounds++; }
      for (let t = 0; t < bs; t++) want[b * bs + t] = rounds * 256 + c + t * 65536;
    }
    same(o, want);
  });

  dtest("do...while with a barrier and a uniform trip count", async ({ dev, same }) => {
    const k = kernel(function doWhileBarrier(x: Float32Array, o: Float32Array) {
      const s = shared(Float32Array, 32);
      const tid = threadIdx.x, bs = blockDim.x;
      let v = x[blockIdx.x * bs + tid];
      let k = 0;
      do {
        s[tid] = v;
        syncthreads();
        v = s[(tid + bs - 1) % bs] * 0.5 + v;
        syncthreads();
        k++;
      } while (k < blockIdx.x + 2);
      o[blockIdx.x * bs + tid] = v;
    });
    const bs = 32, nb = 3;
    const xs = randF32(52, bs * nb, -3, 3), o = poisonF32(bs * nb);
    await k.launch(dev, { blocks: nb, threads: bs }, xs, o);
    const want = new Float32Array(bs * nb);
    for (let b = 0; b < nb; b++) {
      let v = Array.from(xs.subarray(b * bs, (b + 1) * bs));
      for (let r = 0; r < b + 2; r++) { const s = v.slice(); v = v.map((vt, t) => F(F(s[(t + bs - 1) % bs] * 0.5) + vt)); }
      want.set(v, b * bs);
    }
    same(o, want);
  });

  dtest("barrier inside an if whose condition is uniform (per block, and a kernel parameter)", async ({ dev, same }) => {
    const k = kernel(function ifBarrier(x: Float32Array, o: Float32Array, mode: number) {
      const s = shared(Float32Array, 64);
      const tid = threadIdx.x, bs = blockDim.x;
      const i = blockIdx.x * bs + tid;
      if (blockIdx.x % 2 === 0) {
        s[tid] = x[i];
        syncthreads();
        o[i] = s[bs - 1 - tid];
      } else {
        o[i] = -x[i];
      }
      if (mode === 1) {
        syncthreads();
        s[tid] = o[i] * 2;
        syncthreads();
        o[i] = s[(tid + 3) % bs] + 0.25;
      }
    });
    const bs = 64, nb = 5;
    const xs = randF32(61, bs * nb, -8, 8);
    for (const mode of [0, 1]) {
      const o = poisonF32(bs * nb);
      await k.launch(dev, { blocks: nb, threads: bs }, xs, o, mode);
      const want = new Float32Array(bs * nb);
      for (let b = 0; b < nb; b++) {
        const v = new Float32Array(bs);
        for (let t = 0; t < bs; t++) v[t] = b % 2 === 0 ? xs[b * bs + bs - 1 - t] : -xs[b * bs + t];
        for (let t = 0; t < bs; t++) want[b * bs + t] = mode === 1 ? F(F(v[(t + 3) % bs] * 2) + 0.25) : v[t];
      }
      same(o, want, `mode ${mode}`);
    }
  });

  dtest("threads that return early before the barriers (if (i >= n) return;)", async ({ dev, same }) => {
    const k = kernel(function earlyReturn(x: Int32Array, o: Int32Array, n: number) {
      const s = shared(Int32Array, 128);
      const tid = threadIdx.x, bs = blockDim.x;
      const i = blockIdx.x * bs + tid;
      if (i >= n) return;
      const active = Math.min(bs, n - blockIdx.x * bs);
      s[tid] = x[i];
      syncthreads();
      const acc = s[(tid + 1) % active];
      syncthreads();
      s[tid] = acc * 3;
      syncthreads();
      o[i] = s[(tid + active - 1) % active] + acc;
    });
    const bs = 128, n = 300, nb = 3;
    const xs = randI32(71, n, -1000, 1000);
    const o = poisonI32(bs * nb);
    await k.launch(dev, { blocks: nb, threads: bs }, xs, o, n);
    const want = poisonI32(bs * nb);
    for (let b = 0; b < nb; b++) {
      const active = Math.min(bs, n - b * bs);
      const acc = Array.from({ length: active }, (_, t) => xs[b * bs + (t + 1) % active]);
      for (let t = 0; t < active; t++) want[b * bs + t] = acc[(t + active - 1) % active] * 3 + acc[t];
    }
    same(o, want);
  });

  dtest("threads that return between two barriers", async ({ dev, same }) => {
    const k = kernel(function returnBetween(x: Float32Array, o: Float32Array, n: number) {
      const s = shared(Float32Array, 64);
      const tid = threadIdx.x, bs = blockDim.x;
      const i = blockIdx.x * bs + tid;
      s[tid] = i < n ? x[i] : 0;
      syncthreads();
      if (tid % 3 === 2) return;
      const v = s[bs - 1 - tid];
      syncthreads();
      s[tid] = v + 1;
      syncthreads();
      if (i < n) o[i] = s[tid] + s[tid % 3 === 0 ? tid + 1 : tid - 1];
    });
    const bs = 60, n = 150, nb = 3;
    const xs = randF32(72, n, -5, 5);
    const o = poisonF32(bs * nb);
    await k.launch(dev, { blocks: nb, threads: bs }, xs, o, n);
    const want = poisonF32(bs * nb);
    for (let b = 0; b < nb; b++) {
      const s0 = Array.from({ length: bs }, (_, t) => (b * bs + t < n ? xs[b * bs + t] : 0));
      const s1 = s0.slice();
      for (let t = 0; t < bs; t++) if (t % 3 !== 2) s1[t] = F(s0[bs - 1 - t] + 1);
      for (let t = 0; t < bs; t++) {
        const i = b * bs + t;
        if (t % 3 !== 2 && i < n) want[i] = F(s1[t] + s1[t % 3 === 0 ? t + 1 : t - 1]);
      }
    }
    same(o, want);
  });

  dtest("a helper containing syncthreads() (inlined), given a shared array", async ({ dev, same }) => {
    const k = kernel(function helperBarrier(x: Int32Array, o: Int32Array) {
      const s = shared(Int32Array, 96);
      const tid = threadIdx.x, bs = blockDim.x;
      const i = blockIdx.x * bs + tid;
      let v = rotateLeft(s, tid, bs, x[i]);
      v = rotateLeft(s, tid, bs, v * 3 + tid);
      o[i] = v;
    }, { scope: { rotateLeft } });
    const bs = 96, nb = 2;
    const xs = randI32(81, bs * nb, -500, 500), o = poisonI32(bs * nb);
    await k.launch(dev, { blocks: nb, threads: bs }, xs, o);
    const want = new Int32Array(bs * nb);
    for (let b = 0; b < nb; b++) {
      const v1 = Array.from({ length: bs }, (_, t) => xs[b * bs + (t + 1) % bs]);
      const w = v1.map((v, t) => v * 3 + t);
      for (let t = 0; t < bs; t++) want[b * bs + t] = w[(t + 1) % bs];
    }
    same(o, want);
  });

  dtest("a helper that declares its own shared array and uses barriers (block sum), called twice", async ({ dev, same }) => {
    const k = kernel(function helperShared(x: Int32Array, o: Int32Array) {
      const i = blockIdx.x * blockDim.x + threadIdx.x;
      const a = blockSum(x[i]);
      const b = blockSum(x[i] * threadIdx.x);
      o[i] = a * 7 + b;
    }, { scope: { blockSum } });
    const bs = 50, nb = 3;
    const xs = randI32(82, bs * nb, -100, 100), o = poisonI32(bs * nb);
    await k.launch(dev, { blocks: nb, threads: bs }, xs, o);
    const want = new Int32Array(bs * nb);
    for (let b = 0; b < nb; b++) {
      // blockSum's tree: strides 32..1 over 64 slots; slots >= bs are never added.
      const tree = (vals: number[]) => {
        const s = vals.slice();
        for (let stride = 32; stride > 0; stride >>= 1) for (let t = 0; t < stride; t++) if (t + stride < bs) s[t] = (s[t] + s[t + stride]) | 0;
        return s[0];
      };
      const v = Array.from(xs.subarray(b * bs, (b + 1) * bs));
      const a = tree(v), c = tree(v.map((e, t) => e * t));
      for (let t = 0; t < bs; t++) want[b * bs + t] = a * 7 + c;
    }
    same(o, want);
  });

  dtest("nested loops that both contain barriers, break in the inner one, continue in the outer one", async ({ dev, same }) => {
    const k = kernel(function nestedBarrierLoops(o: Int32Array) {
      const s = shared(Int32Array, 16);
      const t = threadIdx.x, bs = blockDim.x;
      let acc = t + blockIdx.x * 7;
      for (let a = 0; a < 3; a++) {
        for (let b = 0; b < 5; b++) {
          if (b > a + blockIdx.x) break;
          s[t] = acc;
          syncthreads();
          acc = s[(t + 1) % bs] + b;
          syncthreads();
        }
        if (a === 1) continue;
        acc += 100;
      }
      o[blockIdx.x * bs + t] = acc;
    });
    const bs = 16, nb = 3;
    const o = poisonI32(bs * nb);
    await k.launch(dev, { blocks: nb, threads: bs }, o);
    const want: number[] = [];
    for (let bx = 0; bx < nb; bx++) {
      let acc = Array.from({ length: bs }, (_, t) => t + bx * 7);
      for (let a = 0; a < 3; a++) {
        for (let b = 0; b < 5; b++) {
          if (b > a + bx) break;
          const s = acc.slice();
          acc = acc.map((_, t) => s[(t + 1) % bs] + b);
        }
        if (a === 1) continue;
        acc = acc.map((v) => v + 100);
      }
      want.push(...acc);
    }
    same(o, want);
  });

  dtest("early return, then a loop with barriers (whole blocks may return)", async ({ dev, same }) => {
    const k = kernel(function returnThenLoop(x: Int32Array, o: Int32Array, n: number) {
      const s = shared(Int32Array, 32);
      const t = threadIdx.x, bs = blockDim.x;
      const i = blockIdx.x * bs + t;
      if (i >= n) return;
      const active = Math.min(bs, n - blockIdx.x * bs);
      let acc = x[i];
      for (let k = 0; k < 3; k++) {
        s[t] = acc;
        syncthreads();
        acc = s[(t + 1) % active] * 2 + k;
        syncthreads();
      }
      o[i] = acc;
    });
    const bs = 32, n = 70, nb = 4;   // block 2 has 6 active threads, block 3 none
    const xs = randI32(73, n, -50, 50), o = poisonI32(bs * nb);
    await k.launch(dev, { blocks: nb, threads: bs }, xs, o, n);
    const want = poisonI32(bs * nb);
    for (let b = 0; b * bs < n; b++) {
      const active = Math.min(bs, n - b * bs);
      let acc = Array.from(xs.subarray(b * bs, b * bs + active));
      for (let k = 0; k < 3; k++) { const s = acc.slice(); acc = acc.map((_, t) => s[(t + 1) % active] * 2 + k); }
      want.set(acc, b * bs);
    }
    same(o, want);
  });

  dtest("syncthreads() in a helper that cannot be inlined is a CompileError, not an internal error", async ({ dev, same, kind }) => {
    function twoReturnsBarrier(s: Int32Array, t: number) {
      s[t] = t;
      syncthreads();
      if (t > 100) return 1;
      return s[(t + 1) % 8];
    }
    const k = kernel(function helperBarrierNI(o: Int32Array) {
      const s = shared(Int32Array, 8);
      o[threadIdx.x] = twoReturnsBarrier(s, threadIdx.x);
    }, { scope: { twoReturnsBarrier } });
    if (kind === "webgpu" || kind === "opencl" || kind === "spir" || kind === "amdgpu") {
      // The WGSL, OpenCL C and LLVM IR targets inline every helper (WGSL functions cannot take
      // storage arrays; OpenCL C 1.2 has no generic address space), this one too.
      const o = poisonI32(8);
      await k.launch(dev, { blocks: 1, threads: 8 }, o);
      return same(o, [1, 2, 3, 4, 5, 6, 7, 0]);
    }
    await rejectsCompile(k.launch(dev, { blocks: 1, threads: 8 }, poisonI32(8)), "unsupported-syntax", /syncthreads\(\) in 'twoReturnsBarrier', a helper that cannot be inlined/);
  });

  dtest("syncthreads() inside a switch is a CompileError, not an internal error", async ({ dev }) => {
    const k = kernel(function switchBarrier(x: Int32Array, o: Int32Array) {
      const s = shared(Int32Array, 8);
      const t = threadIdx.x;
      switch (blockIdx.x) {
        case 0: s[t] = x[t]; syncthreads(); o[t] = s[7 - t]; break;
        default: o[8 + t] = 5;
      }
    });
    await rejectsCompile(k.launch(dev, { blocks: 2, threads: 8 }, poisonI32(8), poisonI32(16)), "unsupported-syntax", /syncthreads\(\) inside a switch/);
  });

  dtest("shared arrays of every element type (Float64Array, Uint32Array) keep their element semantics", async ({ dev, same, wgsl }) => {
    const k = kernel(function sharedTypes(d: Float64Array, u: Uint32Array, od: Float64Array, ou: Uint32Array) {
      const sd = shared(Float64Array, 16);
      const su = shared(Uint32Array, 16);
      const tid = threadIdx.x;
      sd[tid] = d[tid] / 3;
      su[tid] = u[tid] + 4294967295;
      syncthreads();
      od[tid] = sd[15 - tid] * 3;
      ou[tid] = su[15 - tid] >>> 1;
    });
    const d = randF64(91, 16, -1e6, 1e6), u = randFullU32(92, 16);
    const od = poisonF64(16), ou = poisonU32(16);
    if (wgsl) return rejectsF64(k.launch(dev, { blocks: 1, threads: 16 }, d, u, od, ou));   // WGSL has no f64
    await k.launch(dev, { blocks: 1, threads: 16 }, d, u, od, ou);
    same(od, Array.from({ length: 16 }, (_, t) => (d[15 - t] / 3) * 3));
    same(ou, Array.from({ length: 16 }, (_, t) => ((u[15 - t] + 4294967295) >>> 0) >>> 1));
  });

  dtest("syncthreads() under a condition that differs between the threads of a block is a KernelError", { skip: { cuda: CUDA_DIVERGENT_BARRIER, opencl: OPENCL_DIVERGENT_BARRIER, spir: OPENCL_DIVERGENT_BARRIER, amdgpu: AMDGPU_DIVERGENT_BARRIER } }, async ({ dev, wgsl }) => {
    const k = kernel(function divergentBarrier(o: Int32Array) {
      const tid = threadIdx.x;
      if (tid < 3) { // @DIVERGENT_IF
        syncthreads(); // @DIVERGENT
      }
      o[tid] = 1;
    });
    // WGSL rejects the barrier when it compiles the shader, at the barrier or its condition.
    if (wgsl) {
      const { location: loc } = await rejectsNonUniformBarrier(k.launch(dev, { blocks: 2, threads: 8 }, poisonI32(8)));
      return assert.ok(loc && [lineOf("DIVERGENT_IF"), lineOf("DIVERGENT")].includes(loc.line) && loc.file.endsWith("lang-shared-memory.test.ts"), JSON.stringify(loc));
    }
    const err = await kernelError(k.launch(dev, { blocks: 2, threads: 8 }, poisonI32(8)), "divergence");
    assert.match(err.message, /syncthreads\(\) is reached under a condition that differs between the threads/);
    assert.match(err.message, /divergentBarrier/);
    // Thread 3 of block 0 is the first whose condition disagrees with the threads before it.
    assert.deepEqual(err.thread, { x: 3, y: 0, z: 0 });
    assert.deepEqual(err.block, { x: 0, y: 0, z: 0 });
    // The location is the condition (the if) or the barrier under it.
    assert.ok(err.location && [lineOf("DIVERGENT_IF"), lineOf("DIVERGENT")].includes(err.location.line), JSON.stringify(err.location));
    assert.ok(err.location.file.endsWith("lang-shared-memory.test.ts"), err.location.file);
  });

  dtest("a barrier in a loop whose trip count differs between threads is a KernelError", { skip: { cuda: CUDA_DIVERGENT_BARRIER, opencl: OPENCL_DIVERGENT_BARRIER, spir: OPENCL_DIVERGENT_BARRIER, amdgpu: AMDGPU_DIVERGENT_BARRIER } }, async ({ dev, wgsl }) => {
    const k = kernel(function divergentLoop(o: Int32Array) {
      const tid = threadIdx.x;
      for (let k = 0; k < tid; k++) syncthreads();
      o[tid] = 1;
    });
    if (wgsl) return rejectsNonUniformBarrier(k.launch(dev, { blocks: 1, threads: 4 }, poisonI32(4)));   // WGSL: checked at compile time
    const err = await kernelError(k.launch(dev, { blocks: 1, threads: 4 }, poisonI32(4)), "divergence");
    assert.match(err.message, /syncthreads\(\) is reached under a condition that differs between the threads/);
  });

  // Found by fuzz.mjs --barriers --device webgpu (seed 98767): a barrier under a condition that reads
  // shared memory, nested in other (uniform) control flow, valid CUDA and valid on the CPU device,
  // was WGSL that Dawn rejected. Such a value is now read with workgroupUniformLoad first.
  dtest("a barrier under a condition on a shared value, nested in uniform control flow and in a loop (workgroupUniformLoad on WGSL)", async ({ dev, same }) => {
    const k = kernel(function sharedCond(o: Int32Array, x: Int32Array) {
      const t = threadIdx.x, bd = blockDim.x;
      const s = shared(Int32Array, 32);
      s[t] = x[blockIdx.x * bd + t];
      syncthreads();
      let v = s[(t + 1) % bd];
      if ((bd & 8) !== 0) {
        if (s[0] > 5) {
          syncthreads();
          v += s[bd - 1 - t];
          syncthreads();
          s[t] = v;
          // (Before the loop reads s[1]: without it, thread 0 races with thread 1's store.)
          syncthreads();
        } else v -= 1;
      }
      for (let it = 0; it < 3; it++) {
        if (s[1] > 100) break;
        syncthreads();
        s[t] = s[t] + 50;
        syncthreads();
      }
      o[blockIdx.x * bd + t] = v * 1000 + s[t];
    });
    const bd = 8, blocks = 3;
    const x = Int32Array.from({ length: bd * blocks }, (_, i) => ((i * 7) % 13) - 2), o = poisonI32(bd * blocks);
    await k.launch(dev, { blocks, threads: bd }, o, x);
    const want: number[] = [];
    for (let b = 0; b < blocks; b++) {
      const s = Array.from(x.subarray(b * bd, (b + 1) * bd));
      const v = s.map((_, t) => s[(t + 1) % bd]);
      if (s[0] > 5) { const nv = v.map((vt, t) => vt + s[bd - 1 - t]); for (let t = 0; t < bd; t++) { v[t] = nv[t]; s[t] = nv[t]; } }
      else for (let t = 0; t < bd; t++) v[t] -= 1;
      for (let it = 0; it < 3; it++) { if (s[1] > 100) break; for (let t = 0; t < bd; t++) s[t] += 50; }
      for (let t = 0; t < bd; t++) want.push(v[t] * 1000 + s[t]);
    }
    same(o, want);
  });

  dtest("a barrier under a data-dependent condition that differs is a KernelError; the next launch works", { skip: { cuda: CUDA_DIVERGENT_BARRIER, opencl: OPENCL_DIVERGENT_BARRIER, spir: OPENCL_DIVERGENT_BARRIER, amdgpu: AMDGPU_DIVERGENT_BARRIER } }, async ({ dev, same, wgsl }) => {
    const k = kernel(function divergentData(x: Float32Array, o: Float32Array) {
      const s = shared(Float32Array, 8);
      const tid = threadIdx.x;
      s[tid] = x[tid];
      if (x[tid] > 0) syncthreads();
      o[tid] = s[7 - tid];
    });
    // WGSL rejects the kernel when it compiles the shader, whatever the data.
    if (wgsl) return rejectsNonUniformBarrier(k.launch(dev, { blocks: 1, threads: 8 }, Float32Array.from([1, 2, 3, 4, 5, 6, 7, 8]), poisonF32(8)));
    await kernelError(k.launch(dev, { blocks: 1, threads: 8 }, Float32Array.from([1, -1, 1, 1, 1, 1, 1, 1]), poisonF32(8)), "divergence");
    // Uniform data: fine.
    const xs = Float32Array.from([1, 2, 3, 4, 5, 6, 7, 8]), o = poisonF32(8);
    await k.launch(dev, { blocks: 1, threads: 8 }, xs, o);
    same(o, [8, 7, 6, 5, 4, 3, 2, 1]);
  });

  dtest("a shared array sized by a parameter is sized at launch (its index checked against that size)", async ({ dev, same }) => {
    const k = kernel(function sharedDyn(o: Float32Array, n: number) {
      const s = shared(Float32Array, n);
      s[threadIdx.x] = 1;
      syncthreads();
      o[threadIdx.x] = s[0];
    });
    const o = poisonF32(2);
    await k.launch(dev, { blocks: 1, threads: 2 }, o, 4);
    same(o, [1, 1]);
    const err = await kernelError(k.launch(dev, { blocks: 1, threads: 4 }, poisonF32(4), 3), "bounds");
    assert.match(err.message, /index 3 out of bounds for array 's' of length 3/);
  });
});

// =============================================================================================
// Each test below is a compiler bug found while writing this suite (all fixed since): the kernel
// is in the kernel language and the expected behaviour follows the README's kernel language.

describe("regressions (compiler bugs found by this suite)", () => {
  dtest("a recursive helper that takes a shared array", async ({ dev, same, recursion }) => {
    function recShared(s: Int32Array, t: number, d: number): number {
      if (d === 0) return s[t];
      return recShared(s, (t + 1) % 8, d - 1);
    }
    const k = kernel(function recursiveShared(o: Int32Array) {
      const s = shared(Int32Array, 8);
      s[threadIdx.x] = threadIdx.x * 3;
      syncthreads();
      o[threadIdx.x] = recShared(s, threadIdx.x, 2);
    }, { scope: { recShared } });
    const o = poisonI32(8);
    if (!recursion) return rejectsRecursion(k.launch(dev, { blocks: 1, threads: 8 }, o));   // WGSL and OpenCL C have no call stack
    await k.launch(dev, { blocks: 1, threads: 8 }, o);
    same(o, Array.from({ length: 8 }, (_, t) => ((t + 2) % 8) * 3));
  });

  // A local a thread may read before it assigns it is undefined there, in every block (`w ?? 0`
  // is 0): neither recomputed from its one assignment (w was 5 in block 1, u 3 in every thread) nor
  // kept from the block before (v) — its value and the flag saying it has one alike. Found by the
  // bounds fuzzer once kernels without barriers ran in regions.
  dtest("locals read before they are assigned, across a barrier", async ({ dev, same }) => {
    const k = kernel(function readBeforeAssigned(o: Int32Array) {
      const t = threadIdx.x;
      let w: number | undefined, u: number | undefined, v: number | undefined;
      if (blockIdx.x === 0) w = 5;
      if (t > 2) u = 3;
      if (blockIdx.x === 0) v = t + 7;
      syncthreads();
      o[blockIdx.x * 8 + t] = (w ?? 0) * 100 + (u ?? 0) * 10 + (v ?? 0);
    });
    const o = poisonI32(16);
    await k.launch(dev, { blocks: 2, threads: 8 }, o);
    same(o, Array.from({ length: 16 }, (_, i) => (i < 8 ? 500 + i + 7 : 0) + (i % 8 > 2 ? 30 : 0)));
  });
});

// Shared arrays sized at launch (issue #16, item 4): shared(Float32Array, n) with n from the
// kernel's scalar parameters and blockDim, uniform for the launch.
describe("shared arrays sized at launch", () => {
  dtest("sized by blockDim.x and by a parameter; one kernel, launches of different sizes", async ({ dev, same }) => {
    const k = kernel(function dynSums(out: Float32Array, x: Float32Array, n: number) {
      const s = shared(Float32Array, blockDim.x);
      const c = shared(Int32Array, n * 2 + 1);
      const t = threadIdx.x;
      s[t] = x[blockIdx.x * blockDim.x + t];
      if (t < c.length) c[t] = t * 3;
      syncthreads();
      for (let st = blockDim.x >> 1; st > 0; st >>= 1) { if (t < st) s[t] += s[t + st]; syncthreads(); }
      if (t === 0) out[blockIdx.x] = s[0] + c[c.length - 1] * 1000 + s.length * 100000;
    });
    const x = randF32(41, 256, -1, 1);
    for (const [bs, n] of [[64, 3], [128, 10], [32, 0]]) {
      const blocks = 256 / bs, out = poisonF32(blocks);
      await k.launch(dev, { blocks, threads: bs }, out, x, n);
      const want = Array.from({ length: blocks }, (_, b) => {
        const s = Array.from(x.slice(b * bs, (b + 1) * bs));
        for (let st = bs >> 1; st > 0; st >>= 1) for (let t = 0; t < st; t++) s[t] = F(s[t] + s[t + st]);
        return F(F(s[0] + (Math.min(n * 2 + 1, bs) - 1 === n * 2 ? n * 2 * 3 : 0) * 1000) + bs * 100000);
      });
      same(out, want, `block size ${bs}, n = ${n}`);
    }
  });

  // A size through a const local (`const N = 1 << log2N; shared(Float32Array, N)`): cuda-samples'
  // fwtBatch1Kernel, written so, is examples/fwt.ts (test/examples.test.ts runs it on every device).

  // A block reduction whose shared array is twice the block for small blocks (reduction_kernel.cu's
  // reduce kernels size it `blockSize <= 32 ? 2 * blockSize : blockSize`): the size a conditional,
  // on blockDim and on a scope constant.
  dtest("a shared array sized by a conditional, on blockDim and on a scope constant", async ({ dev, same }) => {
    const blockSize = 32;
    const k = kernel(function condSized(out: Float32Array, x: Float32Array) {
      const sdata = shared(Float32Array, blockDim.x <= 32 ? 2 * blockDim.x : blockDim.x);
      const fixed = shared(Float32Array, blockSize <= 32 ? 2 * blockSize : blockSize);
      const t = threadIdx.x;
      sdata[t] = x[blockIdx.x * blockDim.x + t];
      // (Every element written: shared memory is not zero-filled on a GPU, as it is in JavaScript.)
      for (let j = t; j < fixed.length; j += blockDim.x) fixed[j] = j;
      syncthreads();
      for (let s = blockDim.x >> 1; s > 0; s >>= 1) { if (t < s) sdata[t] += sdata[t + s]; syncthreads(); }
      if (t === 0) out[blockIdx.x] = sdata[0] + sdata.length * 1000 + fixed.length * 100000 + fixed[fixed.length - 1];
    }, { scope: { blockSize } });
    const x = randF32(62, 256, -1, 1);
    for (const bs of [16, 64]) {
      const blocks = 256 / bs, out = poisonF32(blocks);
      await k.launch(dev, { blocks, threads: bs }, out, x);
      const want = Array.from({ length: blocks }, (_, b) => {
        const s = Array.from(x.slice(b * bs, (b + 1) * bs));
        for (let st = bs >> 1; st > 0; st >>= 1) for (let t = 0; t < st; t++) s[t] = F(s[t] + s[t + st]);
        return F(F(F(s[0] + (bs <= 32 ? 2 * bs : bs) * 1000) + 64 * 100000) + 63);
      });
      same(out, want, `block size ${bs}`);
    }
  });

  dtest("what a size sized at launch may not be: per thread, from an assigned parameter, a float, in a helper; at least one element at the launch", async ({ dev }) => {
    const types = ["f32[]", "i32"];
    const compile = (fn: (o: Float32Array, n: number) => void, scope?: Record<string, unknown>) => kernel(fn, scope ? { scope } : {}).compile({ target: dev.target, types });
    await rejectsCompile(compile(function perThread(o: Float32Array, n: number) { const s = shared(Float32Array, threadIdx.x + n); s[0] = 1; o[0] = s[0]; }),
      "type", /the size of shared array 's' must be a constant, or computed from the kernel's scalar parameters and blockDim .*: threadIdx.x differs between threads or blocks/);
    await rejectsCompile(compile(function assigned(o: Float32Array, n: number) { const s = shared(Float32Array, n); n = n + 1; s[0] = 1; o[0] = s[0] + n; }),
      "type", /the size of shared array 's' reads parameter 'n', which the kernel assigns/);
    await rejectsCompile(compile(function fromLoad(o: Float32Array, n: number) { const s = shared(Float32Array, o.length + n); s[0] = 1; o[0] = s[0]; }),
      "type", /the size of shared array 's' must be a constant, or computed from/);
    function inHelper(n: number) { const s = shared(Float32Array, n); s[0] = n; syncthreads(); return s[0]; }
    await rejectsCompile(compile(function viaHelper(o: Float32Array, n: number) { o[0] = inHelper(n); }, { inHelper }),
      "type", /a shared array sized at launch is declared in the kernel itself, not in a helper/);
    const k = kernel(function sizedByN(o: Float32Array, n: number) { const s = shared(Float32Array, n); s[0] = 2; o[0] = s[0]; });
    await assert.rejects(k.launch(dev, { blocks: 1, threads: 1 }, poisonF32(1), 0),
      (e: unknown) => e instanceof KernelError && /shared array 's' of kernel 'sizedByN' would have 0 elements at this launch \(n\); it needs at least one/.test(e.message));
    await assert.rejects(k.launch(dev, { blocks: 1, threads: 1 }, poisonF32(1), 1 << 28),
      (e: unknown) => e instanceof KernelError && /bytes of shared memory per block at this launch/.test(e.message));
  });
});

describe("shared arrays sized at launch: constant indices", () => {
  dtest("a constant index past the launch's size under a guard that is false does not fail (WGSL checks constant indices when it makes the pipeline)", async ({ dev, same }) => {
    const k = kernel(function guardedConst(o: Int32Array) {
      const s = shared(Int32Array, blockDim.x);
      const t = threadIdx.x;
      s[t] = t;
      syncthreads();
      if (blockDim.x > 40) s[40] = 7;
      syncthreads();
      o[t] = s[t] + (blockDim.x > 40 ? s[40] : 0);
    });
    const o = poisonI32(32);
    await k.launch(dev, { blocks: 1, threads: 32 }, o);
    same(o, Array.from({ length: 32 }, (_, t) => t));
    const o2 = poisonI32(64);
    await k.launch(dev, { blocks: 1, threads: 64 }, o2);
    same(o2, Array.from({ length: 64 }, (_, t) => (t === 40 ? 7 : t) + 7));
  });
});
