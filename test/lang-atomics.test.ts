// Execution tests of atomics, kernel-language features of issue #3. Each result is compared with a
// plain-JavaScript reference computed here; f32 references round every operation with Math.fround.
//
// Every test runs on each device of the matrix (helpers.ts: `dtest`): the CPU device (the JS
// target, the exact reference semantics) and WebGPU (the WGSL target). Where WebGPU differs by
// design, the test says so where it branches on `gpu`: threads that run concurrently (the order of
// atomics is not defined).
//
// Outputs are poisoned (NaN or a sentinel) before each launch so unwritten elements show.
//
// Note: tsx reprints kernel sources (`1000` becomes `1e3`, comments vanish). Locations are checked
// against the original file: `lineOf("NAME")` (helpers.ts: `lineOfIn`) is the line of this file
// that carries the marker comment `// @NAME`.
//
// esbuild also renames a kernel parameter that shadows a name of an enclosing scope (`y` becomes
// `y2`), and bounds messages once named the renamed parameter (see the regressions in
// lang-exceptions.test.ts), so tests that check an array's name keep host names apart from kernel
// names.
//
// Every assert.ok has a message: without one, node's assert re-parses the (one-line, reprinted)
// source to describe the failure, which takes minutes.

import { describe } from "node:test";
import assert from "node:assert/strict";
import { kernel, threadIdx, blockIdx, blockDim, gridDim } from "../src/index.ts";
import * as gpuc from "../src/index.ts";
import { randF32, randI32, randFullI32, randFullU32, SENT_I, poisonF32, poisonF64, poisonI32, F,
  dtest, openDevices, kernelError, lineOfIn, assertLocationIn, rejectsCompile, type Wide } from "./helpers.ts";

// Compiler intrinsics inside kernel bodies (declared for TypeScript only; never called on the host).
declare function shared<T extends Float32Array | Float64Array | Int32Array | Uint32Array>(ctor: new (n: number) => T, n: number): T;
declare function syncthreads(): void;
declare function atomicMin(a: any, i: number, v: number): number;
declare function atomicMax(a: any, i: number, v: number): number;
declare function atomicAdd(a: any, i: number, v: number): number;
declare function atomicInc(a: any, i: number, limit: number): number;
declare function atomicDec(a: any, i: number, limit: number): number;
declare function threadfence(): void;
declare function threadfenceBlock(): void;

await openDevices();

/** Tests of the one-thread order of atomics (old values, f32 sums): not what a CPU device on worker threads promises. */
const ORDERED = { skip: process.env.GPUC_CPU_THREADS && Number(process.env.GPUC_CPU_THREADS) > 1 ? { cpu: "SKIPPED: the CPU device runs on worker threads (GPUC_CPU_THREADS): atomics' old values and f32 sums follow the blocks' order there" } : {} };

const lineOf = lineOfIn(import.meta.url);
const assertLocation = assertLocationIn(import.meta.url);

// =============================================================================================

describe("atomics", () => {
  /** Apply the kernel's per-thread sequence of Atomics operations with JS's own Atomics. */
  function atomicsSeqRef(a: Int32Array | Uint32Array, v: Int32Array | Uint32Array, o: Float64Array, i: number): void {
    const b = i * 12, w = i * 4;
    o[b + 0] = Atomics.add(a, w, v[w]);
    o[b + 1] = Atomics.sub(a, w + 1, v[w + 1]);
    o[b + 2] = Atomics.and(a, w + 2, v[w + 2]);
    o[b + 3] = Atomics.or(a, w + 3, v[w]);
    o[b + 4] = Atomics.xor(a, w, v[w + 3]);
    o[b + 5] = Atomics.exchange(a, w + 1, v[w + 2]);
    o[b + 6] = Atomics.compareExchange(a, w + 2, a[w + 2], v[w + 1]);   // succeeds
    o[b + 7] = Atomics.compareExchange(a, w + 3, a[w + 3] ^ 1, v[w]);   // fails
    o[b + 8] = Atomics.load(a, w + 3);
    o[b + 9] = Atomics.store(a, w + 3, v[w + 2]);
    o[b + 10] = Atomics.add(a, w, 2147483647);
    o[b + 11] = Atomics.sub(a, w + 1, -5);
  }

  // (Each thread of these three tests works on slots of its own, so their old values do not depend on the order of the threads.)
  // One kernel, specialized on Int32Array and on Uint32Array (old values are u32 there).
  const atomicsGlobal = kernel(function atomicsGlobal(a: Int32Array | Uint32Array, v: Int32Array | Uint32Array, o: Wide) {
    const i = blockIdx.x * blockDim.x + threadIdx.x;
    const b = i * 12, w = i * 4;
    o[b + 0] = Atomics.add(a, w, v[w]);
    o[b + 1] = Atomics.sub(a, w + 1, v[w + 1]);
    o[b + 2] = Atomics.and(a, w + 2, v[w + 2]);
    o[b + 3] = Atomics.or(a, w + 3, v[w]);
    o[b + 4] = Atomics.xor(a, w, v[w + 3]);
    o[b + 5] = Atomics.exchange(a, w + 1, v[w + 2]);
    o[b + 6] = Atomics.compareExchange(a, w + 2, a[w + 2], v[w + 1]);
    o[b + 7] = Atomics.compareExchange(a, w + 3, a[w + 3] ^ 1, v[w]);
    o[b + 8] = Atomics.load(a, w + 3);
    o[b + 9] = Atomics.store(a, w + 3, v[w + 2]);
    o[b + 10] = Atomics.add(a, w, 2147483647);
    o[b + 11] = Atomics.sub(a, w + 1, -5);
  });
  for (const [elem, seeds, blocks, threads] of [["i32", [101, 102], 4, 10], ["u32", [103, 104], 5, 8]] as const) {
    dtest(`Atomics.add/sub/and/or/xor/exchange/compareExchange/load/store on a global ${elem === "i32" ? "Int32Array" : "Uint32Array"}: results and old values`, async ({ dev, same, wide }) => {
      const rand = elem === "i32" ? randFullI32 : randFullU32;
      const T = 40;
      const a = rand(seeds[0], T * 4), v = rand(seeds[1], T * 4), o = wide(T * 12, elem);
      const ra = a.slice(), ro = poisonF64(T * 12);
      for (let i = 0; i < T; i++) atomicsSeqRef(ra, v, ro, i);
      await atomicsGlobal.launch(dev, { blocks, threads }, a, v, o);
      same(o, ro, "returned values");
      same(a, ra, "array");
    });
  }

  dtest("Atomics on shared Int32Array and Uint32Array arrays", async ({ dev, same, wide }) => {
    const k = kernel(function atomicsShared(a: Int32Array, u: Uint32Array, v: Int32Array, o: Wide) {
      const si = shared(Int32Array, 64);
      const su = shared(Uint32Array, 64);
      const tid = threadIdx.x;
      si[tid] = a[tid];
      su[tid] = u[tid];
      syncthreads();
      const p = (tid + 1) % 64;
      o[tid * 8 + 0] = Atomics.add(si, p, v[tid]);
      o[tid * 8 + 1] = Atomics.xor(su, p, v[tid]);
      syncthreads();
      o[tid * 8 + 2] = Atomics.and(si, tid, 0x0ff0ff0f);
      o[tid * 8 + 3] = Atomics.or(su, tid, 0x80000001);
      o[tid * 8 + 4] = Atomics.exchange(si, tid, tid * 3);
      o[tid * 8 + 5] = Atomics.compareExchange(su, tid, 1, 7);
      o[tid * 8 + 6] = Atomics.load(si, tid);
      o[tid * 8 + 7] = Atomics.sub(su, tid, 3);
      syncthreads();
      a[tid] = si[(tid + 5) % 64];
      u[tid] = su[(tid + 7) % 64];
    });
    const a = randFullI32(111, 64), u = randFullU32(112, 64), v = randFullI32(113, 64), o = wide(512, "u32");
    const si = a.slice(), su = u.slice(), ro = poisonF64(512);
    for (let t = 0; t < 64; t++) { const p = (t + 1) % 64; ro[t * 8] = Atomics.add(si, p, v[t]); ro[t * 8 + 1] = Atomics.xor(su, p, v[t]); }
    for (let t = 0; t < 64; t++) {
      ro[t * 8 + 2] = Atomics.and(si, t, 0x0ff0ff0f);
      ro[t * 8 + 3] = Atomics.or(su, t, 0x80000001);
      ro[t * 8 + 4] = Atomics.exchange(si, t, t * 3);
      ro[t * 8 + 5] = Atomics.compareExchange(su, t, 1, 7);
      ro[t * 8 + 6] = Atomics.load(si, t);
      ro[t * 8 + 7] = Atomics.sub(su, t, 3);
    }
    await k.launch(dev, { blocks: 1, threads: 64 }, a, u, v, o);
    same(o, ro, "returned values");
    same(a, Array.from({ length: 64 }, (_, t) => si[(t + 5) % 64]), "shared i32");
    same(u, Array.from({ length: 64 }, (_, t) => su[(t + 7) % 64]), "shared u32");
  });

  dtest("histogram with Atomics.add (global), and per block in shared memory", async ({ dev, same }) => {
    const hg = kernel(function histGlobal(x: Int32Array, h: Int32Array, n: number) {
      const i = blockIdx.x * blockDim.x + threadIdx.x;
      if (i < n) Atomics.add(h, x[i], 1);
    });
    const hs = kernel(function histShared(x: Int32Array, h: Uint32Array, n: number) {
      const sh = shared(Uint32Array, 32);
      const tid = threadIdx.x;
      const i = blockIdx.x * blockDim.x + tid;
      if (tid < 32) sh[tid] = 0;
      syncthreads();
      if (i < n) Atomics.add(sh, x[i], 1);
      syncthreads();
      if (tid < 32) Atomics.add(h, tid, sh[tid]);
    });
    const n = 5003;
    const xs = randI32(121, n, 0, 31);
    const want = new Array(32).fill(0);
    for (const v of xs) want[v]++;
    const h = new Int32Array(32), hu = new Uint32Array(32);
    await hg.launch(dev, { blocks: Math.ceil(n / 128), threads: 128 }, xs, h, n);
    same(h, want, "global");
    await hs.launch(dev, { blocks: Math.ceil(n / 96), threads: 96 }, xs, hu, n);
    same(hu, want, "shared");
  });

  dtest("ticket counter: out[Atomics.add(c, 0, 1)] = i gives a permutation", async ({ dev, same }) => {
    const k = kernel(function ticket(c: Int32Array, out: Int32Array, cu: Uint32Array, outu: Int32Array) {
      const i = (blockIdx.y * gridDim.x + blockIdx.x) * blockDim.x * blockDim.y + threadIdx.y * blockDim.x + threadIdx.x;
      const t = Atomics.add(c, 0, 1);
      out[t] = i;
      const tu = Atomics.add(cu, 1, 1);
      outu[tu] = i;
    });
    const T = 6 * 64;
    const c = new Int32Array(1), out = poisonI32(T + 1), cu = Uint32Array.from([5, 0]), outu = poisonI32(T + 1);
    await k.launch(dev, { blocks: [3, 2], threads: [8, 8] }, c, out, cu, outu);
    same(c, [T], "counter");
    same(cu, [5, T], "u32 counter");
    assert.equal(out[T], SENT_I);
    assert.equal(outu[T], SENT_I);
    same(Array.from(out.subarray(0, T)).sort((p, q) => p - q), Array.from({ length: T }, (_, i) => i), "permutation");
    same(Array.from(outu.subarray(0, T)).sort((p, q) => p - q), Array.from({ length: T }, (_, i) => i), "permutation (u32)");
  });

  dtest("first writer wins with Atomics.compareExchange(flag, 0, 0, i + 1)", async ({ dev, same }) => {
    const k = kernel(function firstWriter(flag: Int32Array, seen: Int32Array) {
      const i = blockIdx.x * blockDim.x + threadIdx.x;
      seen[i] = Atomics.compareExchange(flag, 0, 0, i + 1);
    });
    const T = 200;
    const flag = new Int32Array(1), seen = poisonI32(T);
    await k.launch(dev, { blocks: 4, threads: 50 }, flag, seen);
    const winners = Array.from(seen).flatMap((s, i) => (s === 0 ? [i] : []));
    assert.equal(winners.length, 1, `one winner, got ${winners.length}`);
    const w = winners[0];
    same(flag, [w + 1]);
    same(seen, Array.from({ length: T }, (_, i) => (i === w ? 0 : w + 1)));
  });

  dtest("atomicMin / atomicMax on Int32Array and Uint32Array (reductions; old values in thread order)", ORDERED, async ({ dev, gpu, same, wide }) => {
    const k = kernel(function minMax(x: Int32Array, ux: Uint32Array, r: Int32Array, ur: Uint32Array, olds: Wide) {
      const i = blockIdx.x * blockDim.x + threadIdx.x;
      olds[i * 4] = atomicMin(r, 0, x[i]);
      olds[i * 4 + 1] = atomicMax(r, 1, x[i]);
      olds[i * 4 + 2] = atomicMin(ur, 0, ux[i]);
      olds[i * 4 + 3] = atomicMax(ur, 1, ux[i]);
    });
    const T = 300;
    const x = randFullI32(131, T), ux = randFullU32(132, T);
    const r = Int32Array.from([2147483647, -2147483648]), ur = Uint32Array.from([0xffffffff, 0]);
    const olds = wide(T * 4, "i32");
    await k.launch(dev, { blocks: 3, threads: 100 }, x, ux, r, ur, olds);
    const want = poisonF64(T * 4);
    let mn = 2147483647, mx = -2147483648, umn = 0xffffffff, umx = 0;
    for (let i = 0; i < T; i++) {
      want[i * 4] = mn; want[i * 4 + 1] = mx; want[i * 4 + 2] = umn; want[i * 4 + 3] = umx;
      mn = Math.min(mn, x[i]); mx = Math.max(mx, x[i]); umn = Math.min(umn, ux[i]); umx = Math.max(umx, ux[i]);
    }
    same(r, [mn, mx], "i32 min/max");
    same(ur, [umn, umx], "u32 min/max");
    if (gpu) {
      // Threads run concurrently, so which old value each one sees is not defined. Each is the
      // initial value or an operand, between the initial value and the result, and the first
      // operation saw the initial value.
      const slots: [number, number, number, ArrayLike<number>, (v: number) => number][] = [
        [0, 2147483647, mn, x, (v) => v | 0], [1, -2147483648, mx, x, (v) => v | 0],
        [2, 0xffffffff, umn, ux, (v) => v >>> 0], [3, 0, umx, ux, (v) => v >>> 0],
      ];
      for (const [s, init, result, operands, conv] of slots) {
        const seen = Array.from({ length: T }, (_, i) => conv(olds[i * 4 + s]));
        const allowed = new Set([init, ...Array.from(operands)]);
        const [lo, hi] = [Math.min(init, result), Math.max(init, result)];
        assert.ok(seen.every((v) => allowed.has(v) && v >= lo && v <= hi), `slot ${s}: ${seen.filter((v) => !allowed.has(v) || v < lo || v > hi).slice(0, 5)}`);
        assert.ok(seen.includes(init), `slot ${s}: no thread saw the initial value`);
      }
      return;
    }
    same(olds, want, "old values");
  });

  dtest("gpuc's intrinsics passed through scope are the intrinsics, not helpers compiled from their host bodies", async ({ dev, same }) => {
    const k = kernel(function viaScope(x: Int32Array, u: Uint32Array, o: Int32Array) {
      const s = shared(Int32Array, 1);
      if (threadIdx.x === 0) s[0] = 2147483647;
      syncthreads();
      atomicMin(s, 0, x[threadIdx.x]);
      atomicMax(u, 0, x[threadIdx.x]);   // a negative value is its u32 bits, as Atomics convert
      syncthreads();
      if (threadIdx.x === 0) o[0] = s[0];
    }, { scope: { shared: gpuc.shared, syncthreads: gpuc.syncthreads, atomicMin: gpuc.atomicMin, atomicMax: gpuc.atomicMax, threadIdx: gpuc.threadIdx } });
    const x = randFullI32(141, 128), u = Uint32Array.from([5]), o = poisonI32(1);
    await k.launch(dev, { blocks: 1, threads: 128 }, x, u, o);
    same(o, [Math.min(...x)], "shared min");
    same(u, [Math.max(5, ...Array.from(x, (v) => v >>> 0))], "u32 max of converted values");
    // The host implementations convert the same way.
    const h = Uint32Array.from([5]);
    assert.equal(gpuc.atomicMin(h, 0, -3), 5);
    assert.equal(h[0], 5);
    assert.equal(gpuc.atomicMax(h, 0, -3), 5);
    assert.equal(h[0], 4294967293);
  });

  dtest("atomicMin / atomicMax on a shared Int32Array", async ({ dev, same }) => {
    const k = kernel(function minMaxShared(x: Int32Array, o: Int32Array) {
      const s = shared(Int32Array, 2);
      const tid = threadIdx.x;
      if (tid === 0) { s[0] = 2147483647; s[1] = -2147483648; }
      syncthreads();
      atomicMin(s, 0, x[blockIdx.x * blockDim.x + tid]);
      atomicMax(s, 1, x[blockIdx.x * blockDim.x + tid]);
      syncthreads();
      if (tid === 0) { o[blockIdx.x * 2] = s[0]; o[blockIdx.x * 2 + 1] = s[1]; }
    });
    const bs = 70, nb = 4;
    const x = randI32(133, bs * nb, -1e6, 1e6), o = poisonI32(nb * 2);
    await k.launch(dev, { blocks: nb, threads: bs }, x, o);
    const want: number[] = [];
    for (let b = 0; b < nb; b++) { const part = Array.from(x.subarray(b * bs, (b + 1) * bs)); want.push(Math.min(...part), Math.max(...part)); }
    same(o, want);
  });

  dtest("atomicAdd on a Float32Array (sum in thread order, f32 rounding; old values; on WGSL a loop on the floats' bits in atomic<u32> words, global and shared)", ORDERED, async ({ dev, gpu, same }) => {
    const k = kernel(function faddSum(x: Float32Array, s: Float32Array, olds: Float32Array) {
      const i = blockIdx.x * blockDim.x + threadIdx.x;
      olds[i] = atomicAdd(s, 0, x[i]);
      atomicAdd(s, 1 + (i % 3), x[i] * 0.5);
    });
    const T = 500;
    const x = randF32(141, T, -10, 10), s = Float32Array.from([0.125, 0, 0, 0]), olds = poisonF32(T);
    await k.launch(dev, { blocks: 5, threads: 100 }, x, s, olds);
    const want = [F(0.125), 0, 0, 0], wantOld = new Float32Array(T);
    for (let i = 0; i < T; i++) {
      wantOld[i] = want[0];
      want[0] = F(want[0] + x[i]);
      want[1 + (i % 3)] = F(want[1 + (i % 3)] + F(x[i] * 0.5));
    }
    if (gpu) {
      // CUDA: threads add concurrently, so the order of the additions (and their rounding) is not
      // defined: the sums agree within rounding, and exactly one thread saw the initial value.
      same(s, want, "sums", { tol: 1e-3 });
      assert.equal(olds.filter((v) => v === F(0.125)).length, 1, "one thread saw the initial value");
      assert.ok(olds.every((v) => Number.isFinite(v)), "every thread recorded an old value");
      return;
    }
    same(s, want, "sums");
    same(olds, wantOld, "old values");
  });

  // Found while adding atomicInc: the CPU device spelled an atomic's operand inside `$o + …`
  // unparenthesized, so a conditional operand bound as `($o + c) ? a : b`.
  dtest("an atomic whose operand is a conditional (the CPU device once bound it wrongly)", async ({ dev, same }) => {
    const k = kernel(function condOperand(a: Int32Array) {
      const i = threadIdx.x;
      Atomics.add(a, 0, i % 2 === 1 ? 10 : 1);
      Atomics.sub(a, 1, i % 2 === 1 ? 10 : 1);
      atomicMax(a, 2, i === 3 ? 40 : i);
    });
    const a = new Int32Array(3);
    await k.launch(dev, { blocks: 1, threads: 4 }, a);
    same(a, [22, -22, 40]);
  });

  // CUDA's atomicInc/atomicDec: a wrapping counter (threadFenceReduction's `atomicInc(&retirementCount,
  // gridDim.x)`). Whatever the order of the threads, each slot visits the same sequence of values:
  // the final values and the multiset of old values are the plain-JS run's.
  dtest("atomicInc / atomicDec wrap as CUDA's (compared as unsigned; Uint32Array and Int32Array; the old values)", async ({ dev, same }) => {
    const k = kernel(function incDec(c: Uint32Array, d: Int32Array, olds: Uint32Array, dolds: Int32Array) {
      const i = blockIdx.x * blockDim.x + threadIdx.x;
      olds[i] = atomicInc(c, i & 3, 5);
      dolds[i] = atomicDec(d, i % 3, i % 3 === 2 ? -2 : 7);
    });
    const n = 96;
    const c = new Uint32Array([0, 3, 9, 4294967295]), d = new Int32Array([0, 20, -5]), olds = new Uint32Array(n), dolds = new Int32Array(n);
    const wc = c.slice(), wd = d.slice(), wolds = new Uint32Array(n), wdolds = new Int32Array(n);
    for (let i = 0; i < n; i++) { wolds[i] = gpuc.atomicInc(wc, i & 3, 5); wdolds[i] = gpuc.atomicDec(wd, i % 3, i % 3 === 2 ? -2 : 7); }
    await k.launch(dev, { blocks: 3, threads: 32 }, c, d, olds, dolds);
    same(c, wc, "counters");
    same(d, wd, "down-counters");
    const sorted = <T extends Uint32Array | Int32Array>(a: T) => a.slice().sort();
    same(sorted(olds), sorted(wolds), "old values of atomicInc");
    same(sorted(dolds), sorted(wdolds), "old values of atomicDec");
  });

  // cuda-samples 2_Concepts_and_Techniques/threadFenceReduction, threadFenceReduction_kernel.cuh:
  // reduceSinglePass's second phase as written there — each block stores its partial sum,
  // __threadfence(), thread 0 takes a ticket with atomicInc(&retirementCount, gridDim.x), and the
  // block that gets the last ticket sums the partial sums and resets the count. (The device global
  // `retirementCount` is an argument here; shared `amLast` a one-element Uint32Array.)
  dtest("threadfence() and atomicInc: the last block to finish sums the others' partial sums (threadFenceReduction's single pass)", async ({ dev, wgsl, same }) => {
    const blockSize = 64;
    const k = kernel(function reduceSinglePass(g_idata: Float32Array, g_odata: Float32Array, n: number, retirementCount: Uint32Array) {
      const tid = threadIdx.x;
      const smem = shared(Float32Array, blockSize);
      const amLast = shared(Uint32Array, 1);
      let mySum = 0;
      for (let i = blockIdx.x * blockSize + tid; i < n; i += blockSize * gridDim.x) mySum += g_idata[i];
      smem[tid] = mySum;
      syncthreads();
      for (let s = blockSize / 2; s > 0; s >>= 1) { if (tid < s) smem[tid] = mySum = mySum + smem[tid + s]; syncthreads(); }
      if (tid === 0) g_odata[blockIdx.x] = smem[0];
      if (gridDim.x > 1) {
        threadfence();
        if (tid === 0) {
          const ticket = atomicInc(retirementCount, 0, gridDim.x);
          amLast[0] = ticket === gridDim.x - 1 ? 1 : 0;
        }
        syncthreads();
        if (amLast[0]) {
          let i = tid;
          let sum = 0;
          while (i < gridDim.x) { sum += g_odata[i]; i += blockSize; }
          smem[tid] = sum;
          syncthreads();
          for (let s = blockSize / 2; s > 0; s >>= 1) { if (tid < s) smem[tid] = sum = sum + smem[tid + s]; syncthreads(); }
          if (tid === 0) { g_odata[0] = smem[0]; retirementCount[0] = 0; }
        }
      }
    }, { scope: { blockSize } });
    const n = 5000, blocks = 8;
    // Small integers: the sum is exact in any order of additions.
    const x = Float32Array.from(randI32(151, n, -20, 20)), out = poisonF32(blocks), count = new Uint32Array([0]);
    const run = () => k.launch(dev, { blocks, threads: blockSize }, x, out, n, count);
    if (wgsl) return rejectsCompile(run(), "unsupported-feature", /threadfence\(\) is not available on the wgsl target \(WGSL has no memory fence/);
    await run();
    same(out.subarray(0, 1), [x.reduce((a, b) => a + b, 0)], "the total");
    same(count, [0], "the count reset");
    await run();   // the count was reset: a second launch works too
    same(out.subarray(0, 1), [x.reduce((a, b) => a + b, 0)], "the total, again");
  });

  dtest("threadfenceBlock() orders a block's stores (on every target but WGSL)", async ({ dev, wgsl, same }) => {
    const k = kernel(function fenced(o: Int32Array) {
      const t = threadIdx.x;
      o[t] = t * 2;
      threadfenceBlock();
      o[t] = o[t] + 1;
    });
    const o = poisonI32(32);
    if (wgsl) return rejectsCompile(k.launch(dev, { blocks: 1, threads: 32 }, o), "unsupported-feature", /threadfenceBlock\(\) is not available on the wgsl target/);
    await k.launch(dev, { blocks: 1, threads: 32 }, o);
    same(o, Array.from({ length: 32 }, (_, t) => t * 2 + 1));
  });

  dtest("Atomics.add on a Float32Array is a CompileError (type)", async ({ dev }) => {
    const k = kernel(function atomicsF32(s: Float32Array) {
      Atomics.add(s as any, 0, 1);
    });
    await rejectsCompile(k.launch(dev, { blocks: 1, threads: 1 }, new Float32Array(1)), "type", /Atomics\.add works on Int32Array, Uint32Array, Int16Array, Uint16Array, Int8Array and Uint8Array arrays, not f32\[\]/);
  });

  dtest("atomicMin on a Float32Array is a CompileError (type)", async ({ dev }) => {
    const k = kernel(function atomicMinF32(s: Float32Array) {
      atomicMin(s, 0, 1);
    });
    await rejectsCompile(k.launch(dev, { blocks: 1, threads: 1 }, new Float32Array(1)), "type", /atomicMin/);
  });

  dtest("Atomics.add on a private array is a CompileError", async ({ dev }) => {
    const k = kernel(function atomicsPrivate(o: Int32Array) {
      const a = new Int32Array(4);
      o[0] = Atomics.add(a, 0, 1);
    });
    await rejectsCompile(k.launch(dev, { blocks: 1, threads: 1 }, new Int32Array(1)), "type", /Atomics\.add.*private/);
  });

  dtest("atomics past the end of an array are bounds errors", async ({ dev, same }) => {
    const k = kernel(function atomicOOB(c: Int32Array) {
      Atomics.add(c, threadIdx.x, 1); // @ATOMIC_OOB
    });
    // (Host names differ from the kernel's parameter names: see the regressions in lang-exceptions.test.ts.)
    const counts = new Int32Array(3);
    const err = await kernelError(k.launch(dev, { blocks: 1, threads: 4 }, counts), "bounds");
    assert.ok(err.message.includes("index 3 out of bounds for array 'c' of length 3"), err.message);
    assertLocation(err.location, lineOf("ATOMIC_OOB"));
    same(counts, [1, 1, 1]);
  });
});
