// Multi-dimensional shared arrays (issue #16, item 1): `shared(Float32Array, [16, 17])` indexed
// `t[y][x]`, rows bound to a const, rows as Atomics targets, `.length` per dimension, a bounds
// check per dimension that reports two indices, and the CompileErrors of misuse. Each result is
// compared with plain JavaScript over nested arrays (what the kernel means).
//
// Every test runs on each device of the matrix (helpers.ts: `dtest`: the CPU device and WebGPU;
// the CPU run also compiles each kernel to PTX and assembles it with ptxas).

import { describe } from "node:test";
import assert from "node:assert/strict";
import { kernel, shared, syncthreads, threadIdx, blockIdx, blockDim } from "../src/index.ts";
import { randF32, randI32, poisonF32, poisonI32, poisonU32, F, dtest, openDevices, kernelError, rejectsCompile } from "./helpers.ts";

await openDevices();

describe("multi-dimensional shared arrays", () => {
  dtest("a transpose through a padded [16][17] tile, a row bound to a const, .length per dimension", async ({ dev, same }) => {
    const k = kernel(function transposeTile(out: Float32Array, a: Float32Array, n: number) {
      const tile = shared(Float32Array, [16, 17]);
      const x = threadIdx.x, y = threadIdx.y;
      const bx = blockIdx.x * 16, by = blockIdx.y * 16;
      tile[y][x] = a[(by + y) * n + bx + x];
      syncthreads();
      const row = tile[x];
      out[(bx + y) * n + by + x] = row[y] + tile.length * 100 + tile[0].length;
    });
    const n = 32, a = randF32(7, n * n, -4, 4), out = poisonF32(n * n);
    await k.launch(dev, { blocks: [2, 2], threads: [16, 16] }, out, a, n);
    const want = new Float32Array(n * n);
    for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) want[j * n + i] = F(a[i * n + j] + 1617);
    same(out, want);
  });

  dtest("three dimensions; compound assignment, ++ and -- on elements; constant and computed indices", async ({ dev, same }) => {
    const k = kernel(function cube(out: Int32Array, v: Int32Array) {
      const c = shared(Int32Array, [2, 4, 8]);
      const t = threadIdx.x;                 // 64 threads: one element each
      const z = t >> 5, y = (t >> 3) & 3, x = t & 7;
      c[z][y][x] = v[t];
      c[z][y][x] += 10;
      c[z][y][x]++;
      syncthreads();
      const plane = c[1 - z];
      const line = plane[3 - y];
      const mirrored = line[7 - x];
      syncthreads();
      out[t] = mirrored * 1000 + c[z][y][x]-- + c.length + c[0].length + c[0][0].length;
      out[64 + t] = c[z][y][x];
    });
    const v = randI32(3, 64, -50, 50), out = poisonI32(128);
    await k.launch(dev, { blocks: 1, threads: 64 }, out, v);
    const c = Array.from({ length: 2 }, (_, z) => Array.from({ length: 4 }, (_, y) => Array.from({ length: 8 }, (_, x) => v[z * 32 + y * 8 + x] + 11)));
    const want: number[] = [];
    for (let t = 0; t < 64; t++) { const z = t >> 5, y = (t >> 3) & 3, x = t & 7; want[t] = c[1 - z][3 - y][7 - x] * 1000 + c[z][y][x] + 14; }
    for (let t = 0; t < 64; t++) { const z = t >> 5, y = (t >> 3) & 3, x = t & 7; want[64 + t] = c[z][y][x] - 1; }
    same(out, want);
  });

  dtest("a row as an Atomics target: per-warp histograms in a [4][16] array", async ({ dev, same }) => {
    const k = kernel(function warpHist(out: Uint32Array, data: Int32Array) {
      const h = shared(Uint32Array, [4, 16]);
      const t = threadIdx.x, w = t >> 5;
      if (t < 64) h[t >> 4][t & 15] = 0;
      syncthreads();
      Atomics.add(h[w], data[t] & 15, 1);
      syncthreads();
      if (t < 64) out[t] = h[t >> 4][t & 15];
    });
    const data = randI32(5, 128, 0, 1 << 20), out = poisonU32(64);
    await k.launch(dev, { blocks: 1, threads: 128 }, out, data);
    const want = new Uint32Array(64);
    for (let t = 0; t < 128; t++) want[(t >> 5) * 16 + (data[t] & 15)]++;
    same(out, want);
  });

  dtest("a row passed to a helper is a view of its row: read, written, bounds-checked against the row", async ({ dev, same }) => {
    function rowSum(r: Float32Array) { let s = 0; for (let i = 0; i < r.length; i++) s += r[i]; return s; }
    function scale(r: Float32Array, f: number) { for (let i = 0; i < r.length; i++) r[i] *= f; }
    const k = kernel(function rows(out: Float32Array, x: Float32Array) {
      const t = shared(Float32Array, [8, 5]);
      const y = threadIdx.x;
      for (let i = 0; i < 5; i++) t[y][i] = x[y * 5 + i];
      scale(t[y], 2);
      syncthreads();
      out[y] = rowSum(t[7 - y]);
    }, { scope: { rowSum, scale } });
    const x = randF32(9, 40, -2, 2), out = poisonF32(8);
    await k.launch(dev, { blocks: 1, threads: 8 }, out, x);
    const want = Array.from({ length: 8 }, (_, y) => { let s = 0; for (let i = 0; i < 5; i++) s = F(s + F(x[(7 - y) * 5 + i] * 2)); return s; });
    same(out, want);
    // Inside the helper the row is 5 long: index 5 is out of its bounds (it would be the next row's first element).
    function at(r: Float32Array, i: number) { return r[i]; }
    const bad = kernel(function rowOut(o: Float32Array, i: number) { const t = shared(Float32Array, [2, 5]); t[0][0] = 1; o[0] = at(t[0], i); }, { scope: { at } });
    const err = await kernelError(bad.launch(dev, { blocks: 1, threads: 1 }, poisonF32(1), 5), "bounds");
    assert.match(err.message, /index 5 out of bounds for view 'r' of length 5/);
  });

  dtest("the whole array passed to helpers, which index it as the kernel does (and check it against its shape)", async ({ dev, same }) => {
    function loadTile(tile: Float32Array[], a: Float32Array, n: number, y: number, x: number) { tile[y][x] = a[y * n + x]; }
    function rowSum(tile: Float32Array[], y: number) { let s = 0; for (let x = 0; x < tile[y].length; x++) s += tile[y][x]; return s; }
    const k = kernel(function tiles(out: Float32Array, a: Float32Array, n: number) {
      const t = shared(Float32Array, [8, 6]);
      const x = threadIdx.x, y = threadIdx.y;
      loadTile(t, a, n, y, x);
      syncthreads();
      if (x === 0) out[y] = rowSum(t, y) + t.length;
    }, { scope: { loadTile, rowSum } });
    const a = randF32(13, 48, -3, 3), out = poisonF32(8);
    await k.launch(dev, { blocks: 1, threads: [6, 8] }, out, a, 6);
    same(out, Array.from({ length: 8 }, (_, y) => { let s = 0; for (let x = 0; x < 6; x++) s = F(s + a[y * 6 + x]); return F(s + 8); }));
    function at(tile: Float32Array[], y: number, x: number) { return tile[y][x]; }
    const bad = kernel(function tileOutInHelper(o: Float32Array, x: number) { const t = shared(Float32Array, [2, 3]); t[0][0] = 1; o[0] = at(t, 0, x); }, { scope: { at } });
    const err = await kernelError(bad.launch(dev, { blocks: 1, threads: 1 }, poisonF32(1), 3), "bounds");
    assert.match(err.message, /index \[0\]\[3\] out of bounds for shared array 'tile' of shape \[2\]\[3\]/);
  });

  dtest("an index out of one dimension is a bounds KernelError naming both indices and the shape", async ({ dev }) => {
    const k = kernel(function tileOut(o: Float32Array, col: number) {
      const t = shared(Float32Array, [16, 17]);
      const y = threadIdx.x;
      t[y][col] = 1;
      o[y] = t[y][col];
    });
    // col 17 is inside the flat 272 elements (row y + 1), but outside the second dimension.
    const err = await kernelError(k.launch(dev, { blocks: 1, threads: 4 }, poisonF32(4), 17), "bounds");
    assert.match(err.message, /index \[0\]\[17\] out of bounds for shared array 't' of shape \[16\]\[17\]/);
    const c = kernel(function cubeOut(o: Float32Array, z: number) {
      const s = shared(Float32Array, [2, 3, 4]);
      s[z][threadIdx.x][1] = 2;
      o[0] = s[0][0][1];
    });
    const e3 = await kernelError(c.launch(dev, { blocks: 1, threads: 1 }, poisonF32(1), 2), "bounds");
    assert.match(e3.message, /index \[2\]\[0\]\[…\] out of bounds for shared array 's' of shape \[2\]\[3\]\[4\]/);
  });

  dtest("misuse is a CompileError with a location", async ({ dev }) => {
    const types = ["f32[]"];
    const compile = (fn: (o: Float32Array) => void) => kernel(fn).compile({ target: dev.target, types });
    await rejectsCompile(compile(function rowStore(o: Float32Array) { const t = shared(Float32Array, [4, 4]); (t as unknown as number[])[0] = 1; o[0] = t[0][0]; }),
      "invalid-assignment", /cannot assign to a row of shared array 't'/);
    await rejectsCompile(compile(function rowValue(o: Float32Array) { const t = shared(Float32Array, [4, 4]); o[0] = (t[1] as unknown as number) + 1; }),
      "type", /got a row of shared array 't' \(\[4\]\[4\]\): index it to an element, e.g. t\[y\]\[x\]/);
    await rejectsCompile(compile(function tooBig(o: Float32Array) { const t = shared(Float32Array, [128, 128]); o[0] = t[0][0]; }),
      "type", /shared array 't' of shape \[128\]\[128\] has 16384 elements; a shared array has at most 12288/);
    await rejectsCompile(compile(function notConstant(o: Float32Array) { const n = o.length; const t = shared(Float32Array, [n, 4]); o[0] = t[0][0]; }),
      "type", /each dimension of a shared array must be a constant integer/);
    await rejectsCompile(compile(function fourDims(o: Float32Array) { const t = shared(Float32Array, [2, 2, 2, 2] as unknown as [number, number, number]); o[0] = t[0][0][0]; }),
      "unsupported-syntax", /a shared array has one to three dimensions/);
    function firstOfPlane(p: Float32Array[]) { return p[0][0]; }
    await rejectsCompile(kernel(function planeToHelper(o: Float32Array) { const t = shared(Float32Array, [2, 4, 4]); o[0] = firstOfPlane(t[1]); }, { scope: { firstOfPlane } }).compile({ target: dev.target, types }),
      "unsupported-type", /a row of shared array 't' that is not of its last dimension cannot be passed to a helper function/);
  });
});

describe("multi-dimensional shared arrays sized at launch", () => {
  dtest("a transpose through a [blockDim.y][blockDim.x + 1] tile: one kernel at two block sizes; checks against the launch's shape", async ({ dev, same }) => {
    const k = kernel(function transposeDyn(out: Float32Array, a: Float32Array, n: number) {
      const tile = shared(Float32Array, [blockDim.y, blockDim.x + 1]);
      const x = threadIdx.x, y = threadIdx.y;
      const bx = blockIdx.x * blockDim.x, by = blockIdx.y * blockDim.y;
      tile[y][x] = a[(by + y) * n + bx + x];
      syncthreads();
      const row = tile[x];
      out[(bx + y) * n + by + x] = row[y] + tile.length * 1000 + tile[0].length;
    });
    const n = 16, a = randF32(8, n * n, -4, 4);
    for (const b of [8, 4]) {
      const out = poisonF32(n * n);
      await k.launch(dev, { blocks: [n / b, n / b], threads: [b, b] }, out, a, n);
      const want = new Float32Array(n * n);
      for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) want[j * n + i] = F(a[i * n + j] + b * 1000 + b + 1);
      same(out, want, `${b}×${b} blocks`);
    }
    const bad = kernel(function tileOutDyn(o: Float32Array, c: number) {
      const t = shared(Float32Array, [blockDim.x, c + 1]);
      t[threadIdx.x][c + 1] = 1;
      o[0] = 1;
    });
    const err = await kernelError(bad.launch(dev, { blocks: 1, threads: 2 }, poisonF32(1), 3), "bounds");
    assert.match(err.message, /index \[0\]\[4\] out of bounds for shared array 't' of shape \[blockDim\.x\]\[\(c \+ 1\)\]/);
  });
});
