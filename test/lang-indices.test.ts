// Execution tests of grids and thread indices (threadIdx, blockIdx, blockDim, gridDim on 1-, 2- and
// 3-D launches, guards past the end, grid-stride loops): small kernels, each compared with a
// plain-JavaScript reference computed here. f32 references round every operation with Math.fround.
//
// Every test runs on each device of the matrix (helpers.ts: `dtest`): the CPU device (the JS
// target, the exact reference semantics) and WebGPU (the WGSL target), where integers must agree
// exactly and f32 values within F32_TOL relative unless a test says why not.
//
// Outputs are poisoned (NaN or a sentinel) before each launch so unwritten elements show.
//
// Note: tsx transpiles this file with esbuild, which reprints kernel sources (whitespace removed,
// `1.0` printed as `1`, `1000` printed as `1e3` -- which gpuc reads as a float literal --, some
// constant expressions folded). Integer literals in these kernels therefore avoid multiples of
// 1000.

import { describe } from "node:test";
import { kernel, threadIdx, blockIdx, blockDim, gridDim } from "../src/index.ts";
import { randF32, poisonF32, poisonI32, F, forThreads, dtest, openDevices } from "./helpers.ts";

await openDevices();

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

  dtest("threadIdx, blockIdx, blockDim and gridDim as objects: destructured, bound, passed to a helper", async ({ dev, same }) => {
    function flat(t: { x: number; y: number }, d: { x: number }) { return t.y * d.x + t.x; }
    const k = kernel(function dims(o: Int32Array) {
      const { x: tx, y: ty } = threadIdx;
      const b = blockIdx, g = gridDim;
      o[flat(threadIdx, blockDim) + b.x * 8] = tx * 1000 + ty * 100 + b.x * 10 + g.x + g.z;
    }, { scope: { flat } });
    const o = poisonI32(16);
    await k.launch(dev, { blocks: 2, threads: [4, 2] }, o);
    same(o, Array.from({ length: 16 }, (_, i) => { const bx = i >> 3, t = i & 7; return (t & 3) * 1000 + (t >> 2) * 100 + bx * 10 + 2 + 1; }));
  });
});
