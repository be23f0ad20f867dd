// Tables of tables (issue #32, item 7) and plain Arrays of numbers as scope tables: cuda-samples'
// quasirandomGenerator keeps `__constant__ unsigned int c_Table[QRNG_DIMENSIONS][QRNG_RESOLUTION]`,
// which JavaScript writes as an Array of Uint32Arrays (or of Arrays of numbers) indexed
// `c_Table[dim][bit]`. gpuc flattens such a table row by row into one constant table of its
// shape (typed-arrays.ts tableOf): `t[i][j]`, `t.length`, `t[i].length` and a row bound to a
// const (`const dimBase = c_Table[threadIdx.y]`) mean what they mean in JavaScript, each
// dimension bounds-checked; a change the host makes to a row in place reaches the next launch, as
// a flat table's does. Plain numbers become i32, u32 or f64 (exactly JavaScript's numbers).
//
// Every test runs on each device of the matrix (helpers.ts `dtest`; the CPU run also compiles
// each kernel to PTX for ptxas and to SPIR-V for spirv-val).

import { describe } from "node:test";
import assert from "node:assert/strict";
import { kernel, threadIdx, blockIdx, blockDim } from "../src/index.ts";
import { dtest, openDevices, kernelError, rejectsCompile, poisonI32, poisonF32 } from "./helpers.ts";

await openDevices();

describe("tables of tables from scope", () => {
  dtest("an Array of Uint32Arrays indexed t[i][j], rows bound to a const, lengths; rows rewritten in place", async ({ dev, same }) => {
    const table = [Uint32Array.of(1, 2, 3, 4, 5), Uint32Array.of(6, 7, 8, 9, 10), Uint32Array.of(0xffffffff, 12, 13, 14, 15)];
    const k = kernel(function rows(out: Uint32Array) {
      const y = threadIdx.y, x = threadIdx.x;
      const row = table[y];
      out[y * 5 + x] = (row[x] + table[(y + 1) % table.length][x] + table[0].length * 100) >>> 0;
    }, { scope: { table } });
    const run = async () => {
      const out = new Uint32Array(15).fill(0xdeadbeef);
      await k.launch(dev, { blocks: 1, threads: [5, 3] }, out);
      return out;
    };
    const want = () => Array.from({ length: 15 }, (_, i) => { const y = Math.floor(i / 5), x = i % 5; return (table[y][x] + table[(y + 1) % 3][x] + 500) >>> 0; });
    same(await run(), want());
    table[1][2] = 77;                      // a row changed in place
    table[2] = Uint32Array.of(5, 4, 3, 2, 1);   // a row replaced by one of its type and length
    same(await run(), want(), "after the host rewrote rows");
  });

  dtest("Arrays of numbers: integers are i32 (or u32), others f64 where the target has it; constant indices", async ({ dev, same, wgsl }) => {
    const ints = [[1, -2, 3], [4, 5, -6]];
    const big = [[4000000000, 1], [2, 3]];
    const k = kernel(function plain(out: Float32Array) {
      const i = threadIdx.x;
      out[i] = ints[i % 2][i % 3] * 2 + ints[1][2] + big[0][0] / 1e9 + big[i % 2][1];
    }, { scope: { ints, big } });
    const out = poisonF32(6);
    await k.launch(dev, { blocks: 1, threads: 6 }, out);
    same(out, Array.from({ length: 6 }, (_, i) => Math.fround(ints[i % 2][i % 3] * 2 + ints[1][2] + big[0][0] / 1e9 + big[i % 2][1])));
    const fractions = [[0.1, 0.2], [0.3, 0.4]];
    const f = kernel(function exact(out: Float64Array) { out[threadIdx.x] = fractions[threadIdx.x >> 1][threadIdx.x & 1] * 3; }, { scope: { fractions } });
    if (wgsl) { await rejectsCompile(f.launch(dev, { blocks: 1, threads: 4 }, new Float64Array(4)), "unsupported-type", /f64/); return; }
    const o = new Float64Array(4);
    await f.launch(dev, { blocks: 1, threads: 4 }, o);
    assert.deepEqual(Array.from(o), [0.1 * 3, 0.2 * 3, 0.3 * 3, 0.4 * 3]);
  });

  dtest("each dimension is bounds-checked; an element type or shape the host changes compiles the kernel again", async ({ dev, same, wgsl }) => {
    const t = [Int32Array.of(1, 2, 3), Int32Array.of(4, 5, 6)];
    const k = kernel(function reads(out: Int32Array, i: number, j: number) { out[0] = t[i][j]; }, { scope: { t } });
    const out = poisonI32(1);
    await k.launch(dev, { blocks: 1, threads: 1 }, out, 1, 2);
    same(out, [6]);
    const e = await kernelError(k.launch(dev, { blocks: 1, threads: 1 }, out, 0, 3), "bounds");
    assert.match(e.message, /out of bounds for table 't' of shape \[2\]\[3\]/);
    const nums = [[1, 2], [3, 4]];
    const g = kernel(function grows(out: Float32Array) { out[threadIdx.x] = nums[1][threadIdx.x] + nums.length; }, { scope: { nums } });
    const o = poisonF32(2);
    await g.launch(dev, { blocks: 1, threads: 2 }, o);
    same(o, [5, 6]);
    nums[1][0] = 2.5;     // integers (i32) become fractions: another element type
    nums.push([7, 8]);    // and another shape
    if (wgsl) { await rejectsCompile(g.launch(dev, { blocks: 1, threads: 2 }, o), "unsupported-type", /the wgsl target has no f64/); return; }
    await g.launch(dev, { blocks: 1, threads: 2 }, o);
    same(o, [5.5, 7]);
  });
});

describe("tables of tables: rewritable", () => {
  dtest("setTable takes the rows of a rewritable table of tables, or its elements row by row", async ({ dev, same }) => {
    const coeffs = [Float32Array.of(1, 2), Float32Array.of(3, 4)];
    const k = kernel(function weights(out: Float32Array) { out[threadIdx.x] = coeffs[threadIdx.x >> 1][threadIdx.x & 1]; }, { scope: { coeffs }, rewritable: ["coeffs"] });
    const out = poisonF32(4);
    await k.launch(dev, { blocks: 1, threads: 4 }, out);
    same(out, [1, 2, 3, 4]);
    k.setTable("coeffs", [Float32Array.of(5, 6), Float32Array.of(7, 8)]);
    await k.launch(dev, { blocks: 1, threads: 4 }, out);
    same(out, [5, 6, 7, 8]);
    k.setTable("coeffs", Float32Array.of(9, 10, 11, 12));
    await k.launch(dev, { blocks: 1, threads: 4 }, out);
    same(out, [9, 10, 11, 12]);
    assert.throws(() => k.setTable("coeffs", [Float32Array.of(1, 2, 3)]), /table 'coeffs' is Float32Array\(4\); setTable got Float32Array\(3\)/);
  });
});

describe("tables of tables: what gpuc refuses", () => {
  dtest("ragged rows, rows of different types, an empty Array", async ({ dev }) => {
    for (const [bad, re] of [
      [[Int32Array.of(1, 2), Int32Array.of(3)], /rows of different types or lengths/],
      [[Int32Array.of(1, 2), Float32Array.of(3, 4)], /rows of different types or lengths/],
      [[[1, 2], [3, "x"]], /an element that is not a number \(string\)/],
      [[], /an empty Array/],
    ] as [number[][], RegExp][]) {
      const k = kernel(function usesBad(out: Float32Array) { out[blockIdx.x * blockDim.x] = bad[0][0]; }, { scope: { bad } });
      await rejectsCompile(k.launch(dev, { blocks: 1, threads: 1 }, new Float32Array(1)), "unsupported-value", re);
    }
  });
});
