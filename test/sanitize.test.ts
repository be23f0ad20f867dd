// The CPU device's sanitizer (device("cpu", { sanitize: true })): kernels with the defects ported
// CUDA code carries — a missing syncthreads(), an update several threads make without an atomic,
// shared memory read before any thread wrote it — each reported with the array, the element and
// both accesses' lines, beside a look-alike without the defect that must run clean; the ordering
// the sanitizer accepts (barriers, subgroup operations, a fence and an atomic across blocks);
// threadOrder "reversed"; the options; and results identical to an unsanitized run.
//
// Locations are checked against this file: `lineOf("NAME")` is the line carrying `// @NAME`.
// Every assert.ok has a message (see lang-shared-memory.test.ts for why).

import { describe, test, after } from "node:test";
import assert from "node:assert/strict";
import { kernel, device, structArray, CompileError, KernelError, threadIdx, blockIdx, blockDim, gridDim, type Device, type SanitizerReport } from "../src/index.ts";
import { lineOfIn } from "./helpers.ts";

declare function shared<T extends Float32Array | Float64Array | Int32Array | Uint32Array>(ctor: new (n: number) => T, n: number | number[]): T & any;
declare function syncthreads(): void;
declare function atomicAdd(a: any, i: number, v: number): number;
declare function atomicInc(a: any, i: number, limit: number): number;
declare function threadfence(): void;
declare function subgroupShuffleDown(v: number, d: number): number;
declare function subgroupBarrier(): void;

const lineOf = lineOfIn(import.meta.url);
const FILE = "sanitize.test.ts";

const san = await device("cpu", { sanitize: true });
const rev = await device("cpu", { sanitize: true, threadOrder: "reversed" });
const plain = await device("cpu", { threads: 1, sanitize: false });
after(() => { san.close(); rev.close(); plain.close(); });

/** The launch's sanitizer error (of `kind`), its reports. */
async function reports(p: Promise<unknown>, kind: string): Promise<readonly SanitizerReport[]> {
  let err: unknown = null;
  try { await p; } catch (e) { err = e; }
  assert.ok(err instanceof KernelError, `expected a KernelError, got ${err instanceof Error ? err.stack : err}`);
  assert.equal(err.kind, kind, err.message);
  assert.ok(err.reports && err.reports.length > 0, "the error lists its reports");
  assert.match(err.message, /^sanitizer: /);
  return err.reports;
}

/** A race's report names the array, both accesses' kinds and lines (in either order). */
function isRace(r: SanitizerReport, array: string, lines: [number, number], accesses?: [string, string]): boolean {
  if (r.kind !== "race" || r.array !== array || !r.first) return false;
  const got = [r.first.location?.line, r.second.location?.line];
  const files = [r.first.location?.file, r.second.location?.file];
  if (!files.every((f) => f?.endsWith(FILE))) return false;
  const same = (a: unknown[], b: unknown[]) => a[0] === b[0] && a[1] === b[1];
  if (!same(got, lines) && !same(got, [lines[1], lines[0]])) return false;
  if (!accesses) return true;
  const kinds = [r.first.access, r.second.access];
  return same(got, lines) ? same(kinds, accesses) : same(kinds, [accesses[1], accesses[0]]);
}

function expectRace(rs: readonly SanitizerReport[], array: string, lines: [number, number], accesses?: [string, string]): SanitizerReport {
  const r = rs.find((x) => isRace(x, array, lines, accesses));
  assert.ok(r, `a race on ${array} between lines ${lines.join(" and ")} among: ${rs.map((x) => x.message).join(" | ")}`);
  return r;
}

/** Runs clean under the sanitizer in both thread orders, with the unsanitized device's results. */
async function clean(k: ReturnType<typeof kernel>, grid: { blocks: number; threads: number }, make: () => unknown[]): Promise<void> {
  const want = make();
  await k.launch(plain, grid, ...want);
  for (const dev of [san, rev]) {
    const got = make();
    await k.launch(dev, grid, ...got);
    got.forEach((a, i) => { if (ArrayBuffer.isView(a)) assert.deepEqual([...(a as Float32Array)], [...(want[i] as Float32Array)], `argument ${i} as unsanitized`); });
  }
}

describe("the sanitizer: defects reported with both lines", () => {
  test("a tree reduction without its loop barrier (a read of the element another thread writes)", async () => {
    const k = kernel(function reduceNoBarrier(x: Float32Array, out: Float32Array) {
      const s = shared(Float32Array, 64);
      const t = threadIdx.x;
      s[t] = x[blockIdx.x * 64 + t];
      syncthreads();
      for (let d = 32; d > 0; d >>= 1) {
        if (t < d) s[t] += s[t + d]; // @TREE
      }
      if (t === 0) out[blockIdx.x] = s[0]; // @TREE_OUT
    });
    const rs = await reports(k.launch(san, { blocks: 2, threads: 64 }, new Float32Array(128).fill(1), new Float32Array(2)), "race");
    const r = expectRace(rs, "s", [lineOf("TREE"), lineOf("TREE")]);
    assert.ok(r.element !== null && r.element > 0 && r.element < 64, `element ${r.element}`);
    assert.deepEqual(r.first!.block, { x: 0, y: 0, z: 0 });
    assert.notDeepEqual(r.first!.thread, r.second.thread, "two threads");
    // With the barrier in the loop: clean, as unsanitized.
    const ok = kernel(function reduceOk(x: Float32Array, out: Float32Array) {
      const s = shared(Float32Array, 64);
      const t = threadIdx.x;
      s[t] = x[blockIdx.x * 64 + t];
      syncthreads();
      for (let d = 32; d > 0; d >>= 1) { if (t < d) s[t] += s[t + d]; syncthreads(); }
      if (t === 0) out[blockIdx.x] = s[0];
    });
    await clean(ok, { blocks: 2, threads: 64 }, () => [Float32Array.from({ length: 128 }, (_, i) => i % 7), new Float32Array(2)]);
  });

  test("a stencil reading its neighbour's tile element before the barrier", async () => {
    const k = kernel(function stencil(x: Float32Array, y: Float32Array) {
      const tile = shared(Float32Array, 34);
      const t = threadIdx.x, i = blockIdx.x * 32 + t;
      tile[t + 1] = x[i]; // @ST_WRITE
      if (t === 0) tile[0] = i > 0 ? x[i - 1] : 0;
      if (t === 31) tile[33] = i + 1 < x.length ? x[i + 1] : 0;
      y[i] = tile[t] + tile[t + 1] + tile[t + 2]; // @ST_READ
      syncthreads();
    });
    const rs = await reports(k.launch(san, { blocks: 2, threads: 32 }, new Float32Array(64).fill(1), new Float32Array(64)), "race");
    expectRace(rs, "tile", [lineOf("ST_WRITE"), lineOf("ST_READ")], ["write", "read"]);
    const ok = kernel(function stencilOk(x: Float32Array, y: Float32Array) {
      const tile = shared(Float32Array, 34);
      const t = threadIdx.x, i = blockIdx.x * 32 + t;
      tile[t + 1] = x[i];
      if (t === 0) tile[0] = i > 0 ? x[i - 1] : 0;
      if (t === 31) tile[33] = i + 1 < x.length ? x[i + 1] : 0;
      syncthreads();
      y[i] = tile[t] + tile[t + 1] + tile[t + 2];
    });
    await clean(ok, { blocks: 2, threads: 32 }, () => [Float32Array.from({ length: 64 }, (_, i) => i), new Float32Array(64)]);
  });

  test("two threads writing one shared element", async () => {
    const k = kernel(function twoWriters(out: Int32Array) {
      const s = shared(Int32Array, 32);
      const t = threadIdx.x;
      s[t >> 1] = t; // @TWO_W
      syncthreads();
      out[t] = s[t >> 1];
    });
    const rs = await reports(k.launch(san, { blocks: 1, threads: 32 }, new Int32Array(32)), "race");
    expectRace(rs, "s", [lineOf("TWO_W"), lineOf("TWO_W")], ["write", "write"]);
    const ok = kernel(function oneWriter(out: Int32Array) {
      const s = shared(Int32Array, 32);
      const t = threadIdx.x;
      if ((t & 1) === 0) s[t >> 1] = t;
      syncthreads();
      out[t] = s[t >> 1];
    });
    // (Half of s is never written: only its first half is read.)
    await clean(ok, { blocks: 1, threads: 32 }, () => [new Int32Array(32)]);
  });

  test("out[0] += x[i] from every thread; atomicAdd is clean", async () => {
    const k = kernel(function sumRace(x: Float32Array, out: Float32Array) {
      const i = blockIdx.x * blockDim.x + threadIdx.x;
      out[0] += x[i]; // @SUM
    });
    const rs = await reports(k.launch(san, { blocks: 2, threads: 32 }, new Float32Array(64).fill(1), new Float32Array(1)), "race");
    expectRace(rs, "out", [lineOf("SUM"), lineOf("SUM")]);
    assert.equal(rs.filter((r) => r.array === "out").length, 1, "one report for the pair of lines (not one per element or per access kind)");
    const ok = kernel(function sumAtomic(x: Float32Array, out: Float32Array) {
      const i = blockIdx.x * blockDim.x + threadIdx.x;
      atomicAdd(out, 0, x[i]);
    });
    await clean(ok, { blocks: 2, threads: 32 }, () => [new Float32Array(64).fill(1), new Float32Array(1)]);
  });

  test("neighbouring blocks writing one global element", async () => {
    const k = kernel(function overlap(out: Int32Array) {
      const i = blockIdx.x * 32 + threadIdx.x;
      out[i >> 1] = i; // @BLOCKS_W
      if (threadIdx.x === 31) out[(blockIdx.x + 1) * 16] = -1; // @BLOCKS_EDGE
    });
    const rs = await reports(k.launch(san, { blocks: 3, threads: 32 }, new Int32Array(64)), "race");
    const r = rs.find((x) => x.kind === "race" && x.first && x.first.block.x !== x.second.block.x);
    assert.ok(r, `a race across blocks among: ${rs.map((x) => x.message).join(" | ")}`);
    assert.match(r.message, /different blocks/);
    expectRace(rs, "out", [lineOf("BLOCKS_EDGE"), lineOf("BLOCKS_W")]);
  });

  test("shared memory read before any thread of the block wrote it", async () => {
    const k = kernel(function uninit(out: Float32Array) {
      const s = shared(Float32Array, 64);
      const t = threadIdx.x;
      if (t > 0) s[t] = t;
      syncthreads();
      out[blockIdx.x * 64 + t] = s[(t + 63) % 64]; // @UNINIT
    });
    const rs = await reports(k.launch(san, { blocks: 2, threads: 64 }, new Float32Array(128)), "uninitialized");
    const r = rs[0];
    assert.equal(r.array, "s");
    assert.equal(r.element, 0);
    assert.equal(r.first, null);
    assert.equal(r.second.location?.line, lineOf("UNINIT"));
    assert.deepEqual(r.second.thread, { x: 1, y: 0, z: 0 });
    assert.match(r.message, /the launch's results depend on it \(with other values in shared memory, out\[1\] differs\)/);
    // Each block starts uninitialized again: block 1 reading what block 0 left is the same defect.
    const k2 = kernel(function laterBlock(out: Float32Array) {
      const s = shared(Float32Array, 32);
      const t = threadIdx.x;
      if (blockIdx.x === 0) s[t] = t;
      syncthreads();
      out[blockIdx.x * 32 + t] = s[31 - t]; // @UNINIT2
    });
    const rs2 = await reports(k2.launch(san, { blocks: 2, threads: 32 }, new Float32Array(64)), "uninitialized");
    assert.deepEqual(rs2[0].second.block, { x: 1, y: 0, z: 0 });
    assert.equal(rs2[0].second.location?.line, lineOf("UNINIT2"));
  });

  test("an uninitialized read whose value the launch's results do not depend on is not reported", async () => {
    // As cuda-samples' shfl_intimage_rows: every lane of warp 0 reads a slot per warp, past the
    // warps there are, and only the slots of real warps reach the result.
    const k = kernel(function discarded(x: Int32Array, out: Int32Array) {
      const sums = shared(Int32Array, 32);
      const t = threadIdx.x, warp = t >> 5, lane = t & 31;
      if (lane === 31) sums[warp] = x[t];
      syncthreads();
      if (warp === 0) {
        const v = sums[lane];
        sums[lane] = v + 1;
      }
      syncthreads();
      out[t] = sums[warp];
    });
    await clean(k, { blocks: 2, threads: 64 }, () => [Int32Array.from({ length: 64 }, (_, i) => i * 3), new Int32Array(64)]);
    // Reaching the result, the same read is reported.
    const used = kernel(function usedUninit(x: Int32Array, out: Int32Array) {
      const sums = shared(Int32Array, 32);
      const t = threadIdx.x, warp = t >> 5, lane = t & 31;
      if (lane === 31) sums[warp] = x[t];
      syncthreads();
      if (warp === 0) out[lane] = sums[lane] + 1; // @USED
    });
    const rs = await reports(used.launch(san, { blocks: 1, threads: 64 }, new Int32Array(64), new Int32Array(64)), "uninitialized");
    assert.equal(rs[0].second.location?.line, lineOf("USED"));
    assert.equal(rs[0].element, 2);
  });

  test("a race inside a helper, and through a view", async () => {
    function bump(a: Int32Array, j: number, v: number): void {
      a[j] = a[j] + v; // @HELPER
    }
    const k = kernel(function viaHelper(out: Int32Array) {
      const t = threadIdx.x;
      bump(out.subarray(4), t & 3, t);
    }, { scope: { bump } });
    const rs = await reports(k.launch(san, { blocks: 1, threads: 8 }, new Int32Array(8)), "race");
    const r = expectRace(rs, "out", [lineOf("HELPER"), lineOf("HELPER")]);
    // The element of the kernel's parameter (the view starts at 4).
    assert.ok(r.element !== null && r.element >= 4 && r.element < 8, `element ${r.element}`);
    const ok = kernel(function viaHelperOk(out: Int32Array) {
      const t = threadIdx.x;
      bump(out.subarray(4), t, t);
    }, { scope: { bump } });
    await clean(ok, { blocks: 1, threads: 4 }, () => [new Int32Array(8)]);
  });

  test("a race in the partial last block only", async () => {
    const k = kernel(function lastBlock(x: Float32Array, y: Float32Array, n: number) {
      const i = blockIdx.x * blockDim.x + threadIdx.x;
      // The last block's threads past n all write the last element, each its own value.
      y[Math.min(i, n - 1)] = x[Math.min(i, n - 1)] * i; // @LAST
    });
    const rs = await reports(k.launch(san, { blocks: 4, threads: 32 }, new Float32Array(100).fill(1), new Float32Array(100), 100), "race");
    const r = expectRace(rs, "y", [lineOf("LAST"), lineOf("LAST")], ["write", "write"]);
    assert.equal(r.element, 99);
    assert.deepEqual(r.second.block, { x: 3, y: 0, z: 0 });
    // A grid that divides n exactly has no such threads: clean.
    await clean(k, { blocks: 4, threads: 25 }, () => [new Float32Array(100).fill(1), new Float32Array(100), 100]);
  });

  test("an array reached at the global x index only: its own element per thread in one row, shared by rows of a 2-D block", async () => {
    const k = kernel(function rows(y: Int32Array) {
      const i = blockIdx.x * blockDim.x + threadIdx.x;
      y[i] = threadIdx.y; // @ROWS
    });
    await clean(k, { blocks: 2, threads: 32 }, () => [new Int32Array(64)]);
    const rs = await reports(k.launch(san, { blocks: [2, 1, 1], threads: [32, 2, 1] } as never, new Int32Array(64)), "race");
    expectRace(rs, "y", [lineOf("ROWS"), lineOf("ROWS")], ["write", "write"]);
  });

  test("a struct array's field written by two threads: named as the source names it", async () => {
    type P = { x: number; y: number };
    const k = kernel(function halves(a: P[]) {
      const i = threadIdx.x;
      a[i >> 1].x = i; // @STRUCT
      a[i].y = i;
    });
    const rs = await reports(k.launch(san, { blocks: 1, threads: 8 }, structArray({ x: Float32Array, y: Float32Array }, 8)), "race");
    const r = expectRace(rs, "a.x", [lineOf("STRUCT"), lineOf("STRUCT")], ["write", "write"]);
    assert.match(r.message, /data race on a\[0\]\.x: /);
    assert.equal(rs.length, 1, "the y field's accesses are each thread's own");
  });

  test("an in-place shift (each thread reads the element its neighbour writes)", async () => {
    const k = kernel(function shift(x: Float32Array) {
      const i = blockIdx.x * blockDim.x + threadIdx.x;
      if (i + 1 < x.length) x[i] = x[i + 1]; // @SHIFT
    });
    const rs = await reports(k.launch(san, { blocks: 4, threads: 32 }, new Float32Array(100).fill(1)), "race");
    expectRace(rs, "x", [lineOf("SHIFT"), lineOf("SHIFT")], ["read", "write"]);
    // Out of place, into another array: clean. Aliased, the same two arrays race again.
    const ok = kernel(function shiftOut(x: Float32Array, y: Float32Array) {
      const i = blockIdx.x * blockDim.x + threadIdx.x;
      if (i + 1 < x.length) y[i] = x[i + 1]; // @SHIFT_OUT
    });
    await clean(ok, { blocks: 4, threads: 32 }, () => [Float32Array.from({ length: 100 }, (_, i) => i), new Float32Array(100)]);
    const buf = new Float32Array(101);
    const rs2 = await reports(ok.launch(san, { blocks: 4, threads: 32 }, buf.subarray(1), buf.subarray(0, 100)), "race");
    expectRace(rs2, "x", [lineOf("SHIFT_OUT"), lineOf("SHIFT_OUT")], ["read", "write"]);
  });

  test("syncthreads() under a divergent condition: kind divergence, with or without the sanitizer", async () => {
    const k = kernel(function divergent(o: Int32Array) {
      if (threadIdx.x < 3) syncthreads(); // @DIV
      o[threadIdx.x] = 1;
    });
    for (const dev of [san, plain]) {
      let err: unknown = null;
      try { await k.launch(dev, { blocks: 1, threads: 8 }, new Int32Array(8)); } catch (e) { err = e; }
      assert.ok(err instanceof KernelError && err.kind === "divergence", String(err));
      assert.equal(err.location?.line, lineOf("DIV"));
    }
  });

  test("subgroupBarrier() reached by only some lanes of a subgroup: divergence", async () => {
    const k = kernel(function sgDiverge(o: Int32Array) {
      const t = threadIdx.x;
      if (o[t] > 0) { subgroupBarrier(); o[t] = 2; } // @SGDIV
    });
    const rs = await reports(k.launch(san, { blocks: 1, threads: 32 }, Int32Array.from({ length: 32 }, (_, i) => i & 1)), "divergence");
    assert.equal(rs[0].second.location?.line, lineOf("SGDIV"));
    await clean(k, { blocks: 1, threads: 32 }, () => [new Int32Array(32).fill(1)]);
  });
});

describe("the sanitizer: what orders accesses", () => {
  test("a warp reduction by shuffles, and through shared memory with subgroupBarrier()", async () => {
    const k = kernel(function warpSum(x: Int32Array, out: Int32Array) {
      let v = x[blockIdx.x * 32 + threadIdx.x];
      for (let d = 16; d > 0; d >>= 1) v += subgroupShuffleDown(v, d);
      if (threadIdx.x === 0) out[blockIdx.x] = v;
    });
    await clean(k, { blocks: 2, threads: 32 }, () => [Int32Array.from({ length: 64 }, (_, i) => i), new Int32Array(2)]);
    const viaShared = kernel(function warpShared(x: Int32Array, out: Int32Array) {
      const s = shared(Int32Array, 32);
      const t = threadIdx.x;
      s[t] = x[t];
      subgroupBarrier();
      out[t] = s[31 - t];
    });
    await clean(viaShared, { blocks: 1, threads: 32 }, () => [Int32Array.from({ length: 32 }, (_, i) => i * 3), new Int32Array(32)]);
    // Across subgroups a subgroupBarrier() orders nothing.
    const across = kernel(function acrossWarps(x: Int32Array, out: Int32Array) {
      const s = shared(Int32Array, 64);
      const t = threadIdx.x;
      s[t] = x[t]; // @ACROSS_W
      subgroupBarrier();
      out[t] = s[63 - t]; // @ACROSS_R
    });
    const rs = await reports(across.launch(san, { blocks: 1, threads: 64 }, new Int32Array(64), new Int32Array(64)), "race");
    expectRace(rs, "s", [lineOf("ACROSS_W"), lineOf("ACROSS_R")]);
  });

  test("the last block of threadFenceReduction reads the others' partial sums: clean with threadfence(), a race without", async () => {
    const make = (fence: boolean) => kernel(function lastBlockDone(x: Float32Array, partial: Float32Array, count: Uint32Array, total: Float32Array) {
      const t = threadIdx.x;
      const amLast = shared(Uint32Array, 1);
      const s = shared(Float32Array, 32);
      s[t] = x[blockIdx.x * 32 + t];
      syncthreads();
      for (let d = 16; d > 0; d >>= 1) { if (t < d) s[t] += s[t + d]; syncthreads(); }
      if (t === 0) partial[blockIdx.x] = s[0]; // @PARTIAL_W
      if (fence) threadfence();
      if (t === 0) amLast[0] = atomicInc(count, 0, gridDim.x) === gridDim.x - 1 ? 1 : 0;
      syncthreads();
      if (amLast[0] === 1 && t === 0) {
        let sum = 0;
        for (let b = 0; b < gridDim.x; b++) sum += partial[b]; // @PARTIAL_R
        total[0] = sum;
        count[0] = 0;
      }
    }, { scope: { fence } });
    const args = () => [Float32Array.from({ length: 128 }, (_, i) => i % 5), new Float32Array(4), new Uint32Array(1), new Float32Array(1)];
    await clean(make(true), { blocks: 4, threads: 32 }, args);
    const rs = await reports(make(false).launch(san, { blocks: 4, threads: 32 }, ...args()), "race");
    expectRace(rs, "partial", [lineOf("PARTIAL_W"), lineOf("PARTIAL_R")], ["write", "read"]);
  });

  test("a multi-dimensional shared tile (a transpose): clean with its barrier, a race without", async () => {
    const make = (sync: boolean) => kernel(function transpose(a: Float32Array, b: Float32Array) {
      const tile = shared(Float32Array, [8, 9]);
      const x = threadIdx.x, y = threadIdx.y;
      tile[y][x] = a[(blockIdx.y * 8 + y) * 16 + blockIdx.x * 8 + x]; // @TILE_W
      if (sync) syncthreads();
      b[(blockIdx.x * 8 + y) * 16 + blockIdx.y * 8 + x] = tile[x][y]; // @TILE_R
    }, { scope: { sync } });
    const grid = { blocks: [2, 2, 1] as [number, number, number], threads: [8, 8, 1] as [number, number, number] };
    const args = () => [Float32Array.from({ length: 256 }, (_, i) => i), new Float32Array(256)];
    const want = args();
    await make(true).launch(plain, grid as never, ...want);
    const got = args();
    await make(true).launch(san, grid as never, ...got);
    assert.deepEqual([...got[1]], [...want[1]]);
    const rs = await reports(make(false).launch(san, grid as never, ...args()), "race");
    expectRace(rs, "tile", [lineOf("TILE_W"), lineOf("TILE_R")], ["write", "read"]);
  });
});

describe("the sanitizer: devices and options", () => {
  test("an atomic races with nothing: a plain read of a counter others update atomically is clean; a plain write before the atomics still meets a plain read after them", async () => {
    const k = kernel(function peek(c: Int32Array, o: Int32Array) {
      const t = threadIdx.x;
      atomicAdd(c, 0, 1);
      o[t] = c[0];
    });
    const c = new Int32Array(1), o = new Int32Array(8);
    await k.launch(san, { blocks: 1, threads: 8 }, c, o);
    const k2 = kernel(function plainAround(c: Int32Array, o: Int32Array) {
      const t = threadIdx.x;
      if (t === 0) c[0] = 5; // @AROUND_W
      if (t === 1) atomicAdd(c, 0, 1);
      if (t === 2) o[0] = c[0]; // @AROUND_R
    });
    const rs = await reports(k2.launch(san, { blocks: 1, threads: 4 }, new Int32Array(1), new Int32Array(1)), "race");
    expectRace(rs, "c", [lineOf("AROUND_W"), lineOf("AROUND_R")], ["write", "read"]);
  });

  test("two writes of the value the element holds are no race (it ends the same in any order)", async () => {
    const k = kernel(function sameValue(o: Int32Array, s: Int32Array) {
      o[0] = 1;
      s[threadIdx.x >> 1] = 7;
    });
    await clean(k, { blocks: 2, threads: 8 }, () => [new Int32Array(1), new Int32Array(4)]);
  });

  test("reversed thread order exposes an order dependence; the report is the same", async () => {
    const k = kernel(function firstWins(out: Int32Array) {
      out[0] = threadIdx.x; // @ORDER
    });
    const a = new Int32Array(1), b = new Int32Array(1);
    await reports(k.launch(san, { blocks: 1, threads: 4 }, a), "race");
    const rs = await reports(k.launch(rev, { blocks: 1, threads: 4 }, b), "race");
    expectRace(rs, "out", [lineOf("ORDER"), lineOf("ORDER")], ["write", "write"]);
    assert.deepEqual([a[0], b[0]], [3, 0], "forward the last thread writes last, reversed the first");
  });

  test("a multi-threaded CPU device sanitizes alike (on the calling thread), and GPUC_SANITIZE=1 turns it on", async () => {
    const k = kernel(function sumRace2(x: Float32Array, out: Float32Array) {
      out[0] += x[blockIdx.x * blockDim.x + threadIdx.x]; // @SUM2
    });
    const many = await device("cpu", { sanitize: true, threads: 2, parallel: "always" });
    const old = process.env.GPUC_SANITIZE;
    process.env.GPUC_SANITIZE = "1";
    const fromEnv = await device("cpu", { threads: 1 });
    process.env.GPUC_SANITIZE = old ?? "";
    if (old === undefined) delete process.env.GPUC_SANITIZE;
    try {
      for (const dev of [many, fromEnv]) {
        const rs = await reports(k.launch(dev, { blocks: 4, threads: 32 }, new Float32Array(128).fill(1), new Float32Array(1)), "race");
        expectRace(rs, "out", [lineOf("SUM2"), lineOf("SUM2")]);
      }
    } finally { many.close(); fromEnv.close(); }
  });

  test("options: bad values are invalid-option errors; sanitize is the js target's", async () => {
    const bad = async (p: Promise<unknown>, re: RegExp) => {
      let err: unknown = null;
      try { await p; } catch (e) { err = e; }
      assert.ok(err instanceof CompileError && err.kind === "invalid-option" && re.test(err.message), String(err));
    };
    await bad(device("cpu", { sanitize: "yes" as never }), /sanitize must be true or false/);
    await bad(device("cpu", { threadOrder: "backwards" as never }), /threadOrder must be "forward" or "reversed"/);
    await bad(device("cpu", { threadOrder: "reversed", sanitize: false }), /add sanitize: true/);
    await bad(device("webgpu", { sanitize: true } as never), /sanitize.*device\("cpu"\)/);
    const k = kernel(function one(o: Int32Array) { o[threadIdx.x] = 1; });
    await bad(k.compile({ target: "ptx", types: ["i32[]"], features: { sanitize: true } }), /features.sanitize is the js target's/);
    const js = await k.compile({ target: "js", types: ["i32[]"], features: { sanitize: true } });
    assert.match(js.code as string, /\$san\.w\(/, "sanitized JavaScript reports its stores");
    // Sanitized code does not load on a device without the sanitizer.
    let err: unknown = null;
    try { plain.load(js); } catch (e) { err = e; }
    assert.ok(err instanceof KernelError && /sanitize/.test(err.message), String(err));
  });
});

void (null as unknown as Device);
