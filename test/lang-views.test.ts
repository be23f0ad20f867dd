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
import { kernel, shared, syncthreads, threadIdx, blockIdx } from "../src/index.ts";
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
});
