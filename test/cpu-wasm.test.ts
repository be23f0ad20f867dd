// The CPU device's WebAssembly path (targets/js/wasm.ts writes a kernel's module into its JS
// artifact, wasm-regions.ts a kernel with barriers; devices/cpu-wasm.ts checks and runs it): which
// kernels have one, that running it leaves what the JavaScript leaves — every value bit for bit,
// the exception, the stores before it, the printed lines, a changed table —, and that a module
// failing its checks is not used.
//
// Each comparison runs a kernel on a device that never uses WebAssembly (`wasm: false`) and on
// one that always does where the kernel has a module (`wasm: "always"`), on fresh copies of the
// same inputs (arrays compared as deepStrictEqual does: NaN equals NaN, -0 is not 0). (Every dtest of the suite also runs its CPU body on the WebAssembly path where its
// kernels have modules: helpers.ts.)

import { describe, test, after } from "node:test";
import assert from "node:assert/strict";
import { kernel, device, CompileError, threadIdx, blockIdx, blockDim, atomicAdd, atomicMin, atomicMax, atomicInc, atomicDec, syncthreads, shared, subgroupAdd, subgroupMax, subgroupMin, subgroupBallot, subgroupAny, subgroupShuffle, subgroupShuffleDown, subgroupShuffleXor, subgroupLaneId, subgroupSize, type Kernel, type LaunchConfig } from "../src/index.ts";
import { WasmKernel } from "../src/devices/cpu-wasm.ts";
import { threadModule, threadsInfo } from "../src/devices/cpu-workers.ts";
import { encodeModule, V } from "../src/targets/js/wasm-binary.ts";
import { randF32, launchOutcome, assertModuleLoads } from "./helpers.ts";

const linesJS: string[] = [], linesWasm: string[] = [];
const js = await device("cpu", { threads: 1, wasm: false, print: (l) => linesJS.push(l) });
const wasm = await device("cpu", { threads: 1, wasm: "always", print: (l) => linesWasm.push(l) });
after(() => { js.close(); wasm.close(); });

/** The kernel has a WebAssembly module, and leaves the same arrays, lines and error on both paths. */
async function sameOnBoth(k: Kernel, cfg: LaunchConfig, args: unknown[], types: string[]) {
  assert.ok(await hasModule(k, types), "the kernel has a WebAssembly module");
  const a = await launchOutcome(js, linesJS, k, cfg, args);
  const b = await launchOutcome(wasm, linesWasm, k, cfg, args);
  assert.deepEqual(b.error, a.error, "the error");
  assert.deepEqual(b.lines, a.lines, "the printed lines");
  assert.deepEqual(b.arrays, a.arrays, "the arrays");
  return a;
}

/** Whether the kernel's module runs some region four threads at once (it has i32x4.all_true, v128.any_true or v128.store, which only that code uses). */
async function usesLanes(k: Kernel, types: string[]): Promise<boolean> {
  const a = await k.compile({ target: "js", types });
  const b = Buffer.from(/\nconst \$wasm = "([A-Za-z0-9+/=]+)";\n$/.exec(a.code as string)![1], "base64");
  for (let i = 0; i + 2 < b.length; i++) if (b[i] === 0xfd && ((b[i + 1] === 0xa3 && b[i + 2] === 0x01) || b[i + 1] === 0x53 || (b[i + 1] === 0x0b && b[i + 2] <= 4))) return true;
  return false;
}

/** Whether the kernel has a WebAssembly module; one it has must load. */
async function hasModule(k: Kernel, types: string[], options: Record<string, unknown> = {}): Promise<boolean> {
  const a = await k.compile({ target: "js", types, ...options });
  const has = /\nconst \$wasm = "[A-Za-z0-9+/=]+";\n$/.test(a.code as string);
  if (has) assertModuleLoads(wasm, a);
  return has;
}

describe("the CPU device's WebAssembly path", () => {
  test("kernels have a module, also with barriers, subgroup operations and shared memory sized at launch; with fastMath, boundsCheck: false or debugLevel 2 they have none", async () => {
    const plain = kernel(function plain(x: Float32Array) { x[threadIdx.x] *= 2; });
    assert.equal(await hasModule(plain, ["f32[]"]), true);
    const barrier = kernel(function barrier(x: Float32Array) { const t = shared(Float32Array, 64); t[threadIdx.x] = x[threadIdx.x]; syncthreads(); x[threadIdx.x] = t[63 - threadIdx.x]; });
    assert.equal(await hasModule(barrier, ["f32[]"]), true);
    const sub = kernel(function sub(x: Float32Array) { x[threadIdx.x] = subgroupAdd(x[threadIdx.x]); });
    assert.equal(await hasModule(sub, ["f32[]"]), true);
    const sized = kernel(function sized(x: Float32Array, n: number) { const t = shared(Float32Array, n); t[threadIdx.x] = x[threadIdx.x]; syncthreads(); x[threadIdx.x] = t[0]; });
    assert.equal(await hasModule(sized, ["f32[]", "i32"]), true);
    for (const options of [{ fastMath: true }, { boundsCheck: false }, { debugLevel: 2 as const }]) {
      const k = kernel(function opts(x: Float32Array) { x[threadIdx.x] *= 2; }, options);
      assert.equal(await hasModule(k, ["f32[]"]), false, JSON.stringify(options));
    }
  });

  test("barriers: regions run thread by thread as the JavaScript's do — shared memory, values kept across barriers in loops, threads that return, uniform values kept from block to block", async () => {
    const tree = kernel(function tree(x: Float32Array, out: Float32Array, n: number) {
      const s = shared(Float32Array, 64);
      const t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
      let mine = i < n ? x[i] : 0;
      const once = x[i % n] * 3;
      const priv = new Float32Array(2);
      priv[0] = mine;
      s[t] = mine;
      syncthreads();
      for (let step = blockDim.x >> 1; step > 0; step >>= 1) {
        if (t < step) s[t] += s[t + step];
        mine = mine * 0.5 + priv[0];
        syncthreads();
      }
      if (t === 3) return;
      let k = 0;
      while (k < 3) { k++; syncthreads(); mine += s[(t + k) & 63]; }
      out[i] = mine + s[0] + priv[0] + once;
      if (t === 0) out[out.length - 1 - blockIdx.x] = s[0];
    });
    await sameOnBoth(tree, { blocks: 5, threads: 64 }, [randF32(3, 300), new Float32Array(330), 300], ["f32[]", "f32[]", "i32"]);
  });

  test("four threads at once (SIMD128): the same as one at a time — lanes that disagree, a row's last threads, a failing check in one lane, threads that returned, and groups that may not run so", async () => {
    const scan = kernel(function scan(y: Int32Array, x: Int32Array, flags: Uint8Array) {
      const buf = shared(Int32Array, 64);
      const t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
      buf[t] = i < x.length ? x[i] : 0;
      syncthreads();
      for (let offset = 1; offset < blockDim.x; offset *= 2) {
        const v = t >= offset ? buf[t - offset] : 0;
        const odd = (v & 1) === 1;
        syncthreads();
        buf[t] += odd ? v * 3 : v >> offset;
        syncthreads();
      }
      if (i < y.length) y[i] = buf[t];
      flags[i % flags.length] = 1;
    });
    for (const threads of [64, 30, 7, 3]) {
      await sameOnBoth(scan, { blocks: 4, threads }, [new Int32Array(256), Int32Array.from(randF32(7, 256), (v) => Math.round(v * 1000)), new Uint8Array(9)], ["i32[]", "i32[]", "u8[]"]);
    }
    assert.ok(await usesLanes(scan, ["i32[]", "i32[]", "u8[]"]), "the scan's regions run four threads at once");

    // f32 and bools kept across a barrier, a select, a gather, conversions, a shift the threads share.
    const mix = kernel(function mix(out: Float32Array, x: Float32Array, k: number) {
      const s = shared(Float32Array, 32);
      const t = threadIdx.x;
      const big = x[t] > 0.5;
      const g = x[(t * 3) & 31] * 2.5 - Math.sqrt(Math.abs(x[t]));
      s[t] = big ? g : Math.floor(g * 8) / 8;
      syncthreads();
      const w = ((t << k) >>> 1) + (big ? 1 : 0);
      out[blockIdx.x * blockDim.x + t] = s[t] + w + (t ^ 5) * Math.min(s[t], 0.25);
    });
    await sameOnBoth(mix, { blocks: 2, threads: 32 }, [new Float32Array(64), randF32(8, 32), 3], ["f32[]", "f32[]", "i32"]);
    assert.ok(await usesLanes(mix, ["f32[]", "f32[]", "i32"]));

    // A bounds check that fails in one lane only: the same thread raises, after the same stores.
    const oob = kernel(function oob(out: Int32Array, x: Int32Array) {
      const s = shared(Int32Array, 16);
      const t = threadIdx.x;
      s[t] = x[t + 10];
      syncthreads();
      out[t] = s[t];
    });
    const err = await sameOnBoth(oob, { blocks: 1, threads: 16 }, [new Int32Array(16), new Int32Array(23)], ["i32[]", "i32[]"]);
    assert.equal((err.error as { thread: { x: number } }).thread.x, 13, "thread 13 reads x[23], past the end");

    // Threads that return before a barrier; the rest go on four at a time around them.
    const ret = kernel(function ret(out: Int32Array) {
      const s = shared(Int32Array, 32);
      const t = threadIdx.x;
      if (t % 7 === 3) return;
      s[t] = t * 2;
      syncthreads();
      out[t] = s[t] + 1;
    });
    await sameOnBoth(ret, { blocks: 1, threads: 32 }, [new Int32Array(32)], ["i32[]"]);

    // A region whose threads read what an earlier thread of it wrote (s[t - 1]): one at a time.
    const chain = kernel(function chain(out: Int32Array) {
      const s = shared(Int32Array, 32);
      const t = threadIdx.x;
      s[t] = t;
      syncthreads();
      if (t > 0) s[t] = s[t - 1] + s[t];
      out[t] = s[t];
    });
    const chained = await sameOnBoth(chain, { blocks: 1, threads: 32 }, [new Int32Array(32)], ["i32[]"]);
    assert.deepEqual(chained.arrays[0].slice(0, 5), [0, 1, 3, 6, 10], "each thread saw the one before it");
    // Two parameters that are one buffer: a store through one reaches the other's loads in thread order.
    const alias = kernel(function alias(a: Int32Array, b: Int32Array) {
      const s = shared(Int32Array, 4);
      const t = threadIdx.x;
      s[t & 3] = 0;
      syncthreads();
      a[t + 1] = b[t] + 1;
    });
    for (const dev of [js, wasm]) {
      const buf = new Int32Array(17);
      await alias.launch(dev, { blocks: 1, threads: 16 }, buf.subarray(0, 17), buf.subarray(0, 16));
      assert.deepEqual([...buf], Array.from({ length: 17 }, (_, i) => i), "each thread saw the one before it through the other view");
    }
  });

  test("four threads at once through indices tested at run time: a tree reduction, a compare-and-swap under a mask, pairs and neighbours that overlap, an element all lanes read", async () => {
    // s[t] += s[t + step] under t < step: two indices, apart from a step of 4 on (tested).
    const tree = kernel(function treeSum(out: Int32Array, x: Int32Array) {
      const s = shared(Int32Array, 64);
      const t = threadIdx.x;
      s[t] = x[blockIdx.x * blockDim.x + t];
      for (let step = blockDim.x >> 1; step > 0; step >>= 1) {
        syncthreads();
        if (t < step) s[t] += s[t + step];
      }
      syncthreads();
      out[blockIdx.x * blockDim.x + t] = s[t];
    });
    const xs = Int32Array.from({ length: 192 }, (_, i) => (i * 7919) % 1000 - 300);
    for (const threads of [64, 32, 12]) await sameOnBoth(tree, { blocks: 3, threads }, [new Int32Array(192), xs], ["i32[]", "i32[]"]);
    assert.ok(await usesLanes(tree, ["i32[]", "i32[]"]), "the tree's steps run four threads at once");

    // bitonic-sort.ts's compare-and-swap: pairs pos, pos + stride of two arrays, swapped where the
    // keys' order differs from a direction — under masks where the lanes disagree; a stride under 4
    // leaves four lanes' pairs not consecutive: one thread at a time.
    const swap = kernel(function cas(keys: Uint32Array, vals: Uint32Array, stride: number) {
      const k = shared(Uint32Array, 64), v = shared(Uint32Array, 64);
      const t = threadIdx.x, o = blockIdx.x * 64;
      k[t] = keys[o + t]; k[t + 32] = keys[o + t + 32];
      v[t] = vals[o + t]; v[t + 32] = vals[o + t + 32];
      syncthreads();
      const pos = 2 * t - (t & (stride - 1));
      const dir = (t & 8) === 0 ? 1 : 0;
      if ((k[pos] > k[pos + stride] ? 1 : 0) === dir) {
        let tmp = k[pos]; k[pos] = k[pos + stride]; k[pos + stride] = tmp;
        tmp = v[pos]; v[pos] = v[pos + stride]; v[pos + stride] = tmp;
      }
      syncthreads();
      keys[o + t] = k[t]; keys[o + t + 32] = k[t + 32];
      vals[o + t] = v[t]; vals[o + t + 32] = v[t + 32];
    });
    const keys = Uint32Array.from({ length: 128 }, (_, i) => ((i * 2654435761) >>> 0) % 50), vals = Uint32Array.from({ length: 128 }, (_, i) => i);
    for (const stride of [32, 8, 4, 2, 1]) await sameOnBoth(swap, { blocks: 2, threads: 32 }, [keys, vals, stride], ["u32[]", "u32[]", "i32"]);
    assert.ok(await usesLanes(swap, ["u32[]", "u32[]", "i32"]));

    // Odd-even transposition: pairs t, t + 1 of even threads — four lanes' elements overlap (tested): one at a time.
    const oddEven = kernel(function oddEven(a: Int32Array) {
      const s = shared(Int32Array, 32);
      const t = threadIdx.x;
      s[t] = a[t];
      for (let phase = 0; phase < 32; phase++) {
        syncthreads();
        if ((t & 1) === (phase & 1) && t + 1 < 32) { const x = s[t], y = s[t + 1]; if (x > y) { s[t] = y; s[t + 1] = x; } }
      }
      syncthreads();
      a[t] = s[t];
    });
    const sorted = await sameOnBoth(oddEven, { blocks: 1, threads: 32 }, [Int32Array.from({ length: 32 }, (_, i) => (i * 13) % 32)], ["i32[]"]);
    assert.deepEqual(sorted.arrays[0], Array.from({ length: 32 }, (_, i) => i));

    // An element every lane reads, which a lane of the same four writes before the others read it in thread order.
    const bcast = kernel(function bcast(out: Int32Array, j: number) {
      const s = shared(Int32Array, 32);
      const t = threadIdx.x;
      s[t] = 100 * t;
      syncthreads();
      const q = s[j];
      s[t] = q + t;
      syncthreads();
      out[t] = s[t] + s[j];
    });
    for (const j of [0, 2, 5, 31]) {
      const r = await sameOnBoth(bcast, { blocks: 1, threads: 32 }, [new Int32Array(32), j], ["i32[]", "i32"]);
      // (Thread j stored 100j + j into s[j]; the threads after it read that: thread j + 1 leaves 101j + j + 1, plus s[j].)
      if (j < 31) assert.equal(r.arrays[0][j + 1], 203 * j + 1);
    }
    assert.ok(await usesLanes(bcast, ["i32[]", "i32"]));

    // A store to global memory under a condition the lanes disagree on: one thread at a time there (another block may write that element).
    const guarded = kernel(function guarded(out: Int32Array, x: Int32Array) {
      const s = shared(Int32Array, 32);
      const t = threadIdx.x;
      s[t] = x[t];
      syncthreads();
      if (s[t] > 3) out[blockIdx.x * 32 + t] = s[t] * 2;
    });
    await sameOnBoth(guarded, { blocks: 2, threads: 32 }, [new Int32Array(64).fill(-1), Int32Array.from({ length: 32 }, (_, i) => i % 7)], ["i32[]", "i32[]"]);
  });

  test("an if on the thread's index under masks: a lane outside the array reads and writes back a shared array's padding, only where one lane at least is inside it", async () => {
    // scan.ts's step: t >= off ? s[t - off] : 0, its four lanes across the boundary reading up to
    // three elements before s (the first shared array: at the start of the fixed data); s stored
    // to under such a mask, its lanes before it writing its padding back; a nested condition whose
    // lanes may all be outside the array (its access then tested inside the array: untested, it
    // would reach before the fixed data). Each in a region of its own, so that each runs as a loop
    // of fours; offsets 1, 3, 7, …, so that fours of lanes straddle every boundary.
    const steps = kernel(function maskedSteps(out: Int32Array, x: Int32Array) {
      const s = shared(Int32Array, 1024), u = shared(Int32Array, 1024);
      const t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
      s[t] = x[i]; u[t] = x[i] >> 3;
      for (let off = 1; off < blockDim.x; off = off * 2 + (off & 1)) {
        syncthreads();
        const v = t >= off ? s[t - off] : 0;
        syncthreads();
        if (t >= off) s[t - off] += 1;
        syncthreads();
        const w = t >= off ? (t >= 2 * off ? s[t - 2 * off] : 7) : 1;
        syncthreads();
        s[t] += v + w; u[t] ^= v;
      }
      syncthreads();
      out[i] = s[t] * 100 + u[t];
    });
    const xs = Int32Array.from({ length: 192 }, (_, i) => (i * 7919) % 1000 - 300);
    for (const threads of [64, 32, 13]) await sameOnBoth(steps, { blocks: 3, threads }, [new Int32Array(192), xs], ["i32[]", "i32[]"]);
  });

  test("a row split where an if on the thread's index changes: <, <=, >, >=, === on i32 and u32, parts that straddle fours, and x + s that would wrap", async () => {
    // Each region has one such if (its fours run with its side known): the parts' boundaries
    // must fall exactly where the threads' conditions change.
    const split = kernel(function splitRows(out: Int32Array, x: Int32Array, k: number, w: number) {
      const s = shared(Int32Array, 1024);
      const t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
      s[t] = x[i];
      syncthreads();
      if (t < k) s[t] += 1;
      syncthreads();
      if (t + 3 <= k) s[t] *= 3;
      syncthreads();
      if (k > t - 2) s[t] ^= 5;
      syncthreads();
      if (t >= k) s[t] -= 7;
      syncthreads();
      if (t === k) s[t] *= 11;
      syncthreads();
      // u32: (t + w) >>> 0 against (k + w) >>> 0, w near 2^31 and 2^32: the sum wraps inside a row.
      if (((t + w) >>> 0) < (k + w) >>> 0) s[t] += 13;
      syncthreads();
      if (t + w < k + w) s[t] -= 17;
      syncthreads();
      out[i] = s[t];
    });
    const xs = Int32Array.from({ length: 256 }, (_, i) => (i * 7919) % 1000 - 300);
    for (const [threads, k, w] of [[64, 6, 0], [64, 13, 5], [61, 0, 0], [64, 64, 0], [64, 70, 0], [32, -3, 0], [64, 9, 2 ** 31 - 30], [64, 21, -20], [64, 5, -1]]) {
      await sameOnBoth(split, { blocks: 4, threads }, [new Int32Array(256), xs, k, w], ["i32[]", "i32[]", "i32", "i32"]);
    }
    // Two such ifs in one region (four forms), one under && with a shared value, and checks whose
    // conditions split the row too: a part where one raises runs one thread at a time, and raises
    // at the first thread that does (in block 2, an index past the 64 elements of u from t = 64 - k on).
    const checked = kernel(function splitChecks(out: Int32Array, x: Int32Array, k: number) {
      const u = shared(Int32Array, 64), v = shared(Int32Array, 64);
      const t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
      u[t] = t; v[t] = x[i];
      syncthreads();
      if (blockIdx.x > 0 && t + k < blockDim.x) v[t] += u[t + k];
      if (t === k) v[t] = 99;
      if (blockIdx.x === 2) v[t] += u[t + k];
      syncthreads();
      out[i] = v[t];
    });
    for (const [threads, k] of [[64, 0], [60, 3], [64, 5], [48, 20], [13, 2]]) {
      await sameOnBoth(checked, { blocks: 4, threads }, [new Int32Array(256).fill(-1), xs, k], ["i32[]", "i32[]", "i32"]);
    }
    // An index the front end spilled to a local the group assigns once (`t - offset`, offset a
    // loop's variable, not a value to recompute): its check, u32(t - offset) >= 64, splits the row
    // where t - offset is 0 (the u32 wraps there) and 64. Blocks wider than the array raise past
    // it (t ≥ 64 + offset); `t - lo` below 0 raises at the first thread (lo > 0).
    const spilled = kernel(function splitSpilled(out: Int32Array, x: Int32Array, lo: number, step: number) {
      const temp = shared(Int32Array, 64);
      const t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
      if (t < 64) temp[t] = x[i];
      syncthreads();
      for (let offset = 1; offset < 64; offset *= step) {
        const v = t >= offset ? temp[t - offset] : 0;
        syncthreads();
        if (t < 64) temp[t] += v;
        syncthreads();
      }
      for (let o = lo; o < lo + 1; o++) out[i] = temp[t - o];
    });
    for (const [threads, lo, step] of [[64, 0, 2], [60, 0, 3], [64, 3, 2], [13, 0, 2], [72, 0, 2], [72, -8, 2], [64, -1, 4]]) {
      await sameOnBoth(spilled, { blocks: 3, threads }, [new Int32Array(256).fill(-1), xs, lo, step], ["i32[]", "i32[]", "i32", "i32"]);
    }
    // Two array parameters stored and loaded: the forms take them apart where the row found their
    // bytes apart; views of one buffer, y two elements after x, run one thread at a time (thread i
    // reads what thread i - 2 wrote).
    const axpy = kernel(function splitAxpy(y: Int32Array, x: Int32Array, n: number) {
      const i = blockIdx.x * blockDim.x + threadIdx.x;
      if (i < n) y[i] = x[i] * 3 + y[i];
    });
    const buf = Int32Array.from({ length: 140 }, (_, i) => i * 7 - 40);
    await sameOnBoth(axpy, { blocks: 3, threads: 48 }, [buf.slice(0, 130), buf.slice(2, 132), 127], ["i32[]", "i32[]", "i32"]);
    await sameOnBoth(axpy, { blocks: 3, threads: 48 }, [buf.subarray(2, 132), buf.subarray(0, 130), 127], ["i32[]", "i32[]", "i32"]);
  });

  test("shared memory sized at launch (from a parameter and from blockDim), zero-filled at each launch as JavaScript allocates it", async () => {
    const sized = kernel(function sized(x: Float32Array, out: Float32Array, n: number) {
      const a = shared(Float32Array, n), b = shared(Int32Array, blockDim.x * 2);
      const t = threadIdx.x;
      out[blockIdx.x * blockDim.x + t] = a[t % n] + b[t * 2 + 1];
      syncthreads();
      if (t < n) a[t] += x[t];
      b[t * 2] = t;
      syncthreads();
      out[blockIdx.x * blockDim.x + t] += a[(t + 1) % n] * b[(t * 2 + 2) % (blockDim.x * 2)];
    });
    await sameOnBoth(sized, { blocks: 3, threads: 16 }, [randF32(5, 16), new Float32Array(48), 5], ["f32[]", "f32[]", "i32"]);
    await sameOnBoth(sized, { blocks: 2, threads: 8 }, [randF32(6, 16), new Float32Array(16), 11], ["f32[]", "f32[]", "i32"]);
  });

  test("subgroup operations at block level and per subgroup: shuffles, reductions, votes, under conditions the lanes disagree on, in loops with breaks, with lanes that returned", async () => {
    const warp = kernel(function warp(x: Float32Array, out: Float32Array, votes: Uint32Array) {
      const t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
      const lane = subgroupLaneId(), S = subgroupSize();
      if (x[i] > 0.9) return;
      let s = x[i];
      for (let d = S >> 1; d > 0; d >>= 1) s += subgroupShuffleDown(s, d);
      const all = subgroupAdd(x[i]);
      let k = 0;
      while (true) {
        k++;
        const m = subgroupMax(k * x[i]);
        if (m > 1.5 || k > 5) break;
      }
      if (x[i] > 0.5) { votes[i] = subgroupBallot(x[i] > 0.7); out[i] = subgroupShuffleXor(s, 1) + subgroupMin(x[i]); }
      else { out[i] = s + all + subgroupShuffle(s, lane + 3) + k; votes[i] = subgroupAny(x[i] < 0.1) ? 1 : 0; }
    });
    for (const S of [32, 8]) {
      const a = await device("cpu", { threads: 1, wasm: false, subgroupSize: S }), b = await device("cpu", { threads: 1, wasm: "always", subgroupSize: S });
      try {
        const x = randF32(9, 200, 0, 1);
        const r1 = await launchOutcome(a, [], warp, { blocks: 3, threads: 64 }, [x, new Float32Array(200), new Uint32Array(200)]);
        const r2 = await launchOutcome(b, [], warp, { blocks: 3, threads: 64 }, [x, new Float32Array(200), new Uint32Array(200)]);
        assert.deepEqual(r2, r1, `subgroups of ${S}`);
      } finally { a.close(); b.close(); }
    }
    assert.equal(await hasModule(warp, ["f32[]", "f32[]", "u32[]"]), true);
  });

  test("control flow of subgroup operations that writes no memory and whose conditions the block shares runs at block level, the rest per subgroup; the same sums as the lanes' tree in plain JS", async () => {
    // A warp reduction's loop (d the same in every thread; nothing stored, printed or checked in
    // it) runs as a loop of the block, each step's halves over all its threads; one that stores in
    // the loop, or whose trip count differs between lanes, runs once per subgroup ($sgl in the JS).
    const tree = kernel(function tree(x: Float32Array, out: Float32Array) {
      const i = blockIdx.x * blockDim.x + threadIdx.x;
      let s = x[i];
      for (let d = subgroupSize() >> 1; d > 0; d >>= 1) s += subgroupShuffleDown(s, d);
      out[i] = s;
    });
    const stores = kernel(function stores(x: Float32Array, out: Float32Array) {
      const i = blockIdx.x * blockDim.x + threadIdx.x;
      let s = x[i];
      for (let d = subgroupSize() >> 1; d > 0; d >>= 1) { s += subgroupShuffleDown(s, d); out[i] = s; }
    });
    const byLane = kernel(function byLane(x: Float32Array, out: Float32Array) {
      const i = blockIdx.x * blockDim.x + threadIdx.x;
      let s = x[i];
      for (let k = 0; k < (subgroupLaneId() & 3) + 1; k++) s += subgroupShuffleXor(s, 1 << k);
      out[i] = s;
    });
    const jsOf = async (k: Kernel) => (await k.compile({ target: "js", types: ["f32[]", "f32[]"] })).code as string;
    assert.doesNotMatch(await jsOf(tree), /\$sgl/, "the warp reduction's loop runs at block level");
    assert.match(await jsOf(stores), /\$sgl/, "a loop that stores runs per subgroup");
    assert.match(await jsOf(byLane), /\$sgl/, "a loop whose trip count differs between lanes runs per subgroup");
    const x = randF32(21, 160, -1, 1);
    for (const k of [tree, stores, byLane]) await sameOnBoth(k, { blocks: 2, threads: 80 }, [x, new Float32Array(160)], ["f32[]", "f32[]"]);
    // The tree in plain JS: lane l adds lane l + d's value where it is in the subgroup (80 threads:
    // the third subgroup of each block has 16 lanes).
    const r = await launchOutcome(wasm, [], tree, { blocks: 2, threads: 80 }, [x, new Float32Array(160)]);
    const want = new Float32Array(160);
    for (let b = 0; b < 2; b++) for (let g = 0; g < 80; g += 32) {
      const n = Math.min(32, 80 - g);
      let s = Float32Array.from({ length: n }, (_, l) => x[b * 80 + g + l]);
      for (let d = 16; d > 0; d >>= 1) s = s.map((v, l) => (l + d < n ? Math.fround(v + s[l + d]) : Math.fround(v + v)));
      want.set(s, b * 80 + g);
    }
    assert.deepEqual(Array.from((r.arrays as ArrayLike<number>[])[1]), Array.from(want));
  });

  test("ops SIMD lacks run lane by lane inside four-lane forms: integer division and remainder (by 0 and -1 too), shifts by counts that differ, Math on f32", async () => {
    const mixed = kernel(function mixed(a: Int32Array, f: Float32Array, o: Int32Array, g: Float32Array) {
      const t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
      const x = a[i], y = a[(i + 5) % a.length];
      o[i] = ((x / y) | 0) + ((x % (t - 3)) | 0) * 7 + (x << (y & 31)) + ((t / subgroupSize()) | 0);
      g[i] = Math.fround(Math.sin(f[i]) * Math.exp(f[i] / 4)) + Math.pow(f[i], 2.5) + Math.sign(f[i]);
    });
    const types = ["i32[]", "f32[]", "i32[]", "f32[]"];
    assert.equal(await usesLanes(mixed, types), true, "the kernel's region runs four threads at a time");
    const a = Int32Array.from({ length: 96 }, (_, i) => [0, -1, 2147483647, -2147483648, 7, -13, 100, 3][i % 8] * (i % 3 === 0 ? 1 : i + 1));
    await sameOnBoth(mixed, { blocks: 3, threads: 32 }, [a, randF32(7, 96, -3, 3), new Int32Array(96), new Float32Array(96)], types);
    // By a divisor the threads share: shifts where it is a power of two (negative dividends
    // truncate toward zero, as JavaScript's), lane by lane where not (0, -1, 3, -4, 2^31 as u32).
    const byShared = kernel(function byShared(a: Int32Array, o: Int32Array, d: number) {
      const i = blockIdx.x * blockDim.x + threadIdx.x, x = a[i];
      o[4 * i] = (x / d) | 0; o[4 * i + 1] = (x % d) | 0;
      o[4 * i + 2] = ((x >>> 0) / (d >>> 0)) >>> 0; o[4 * i + 3] = ((x >>> 0) % (d >>> 0)) >>> 0;
    });
    assert.equal(await usesLanes(byShared, ["i32[]", "i32[]", "i32"]), true);
    for (const d of [4, 1, 2, 1 << 30, 0, -1, 3, -4, -2147483648]) await sameOnBoth(byShared, { blocks: 3, threads: 32 }, [a, new Int32Array(384), d], ["i32[]", "i32[]", "i32"]);
  });

  test("loops in four-lane forms: a loop all four lanes leave together runs plainly, one they leave apart under masks (break, continue, an early return before it), with loads in it", async () => {
    // A Mandelbrot's escape loop (each lane leaves at its own iteration; threads past the image
    // return first), a tile's k loop (k the same in all four lanes), a loop that continues in
    // some lanes and breaks in others, reading an array at an index the lanes share and at their own.
    const escape = kernel(function escape(out: Int32Array, w: number, h: number, maxIter: number, tbl: Int32Array) {
      const px = blockIdx.x * blockDim.x + threadIdx.x, py = blockIdx.y * blockDim.y + threadIdx.y;
      if (px >= w || py >= h) return;
      const cx = Math.fround(-2 + (2.5 * px) / w), cy = Math.fround(-1 + (2 * py) / h);
      let x = 0, y = 0, i = 0, acc = 0;
      while (i < maxIter && x * x + y * y <= 4) {
        const xt = Math.fround(x * x - y * y + cx);
        y = Math.fround(2 * x * y + cy);
        x = xt;
        i++;
      }
      for (let k = 0; k < 8; k++) acc = (acc + Math.imul(tbl[k], tbl[(k + px) & 15])) | 0;
      for (let k = 0; k < 20; k++) {
        if ((k + px) % 3 === 0) continue;
        if (k * 7 > i + px) break;
        acc = (acc + k) | 0;
      }
      out[py * w + px] = ((i * 1000) | 0) + acc;
    });
    const types = ["i32[]", "i32", "i32", "i32", "i32[]"];
    assert.equal(await usesLanes(escape, types), true, "its region runs four threads at a time");
    const tbl = Int32Array.from({ length: 16 }, (_, i) => (i * 7919) % 201 - 100);
    for (const [w, h] of [[32, 8], [30, 7], [13, 5]]) {
      await sameOnBoth(escape, { blocks: [2, 2], threads: [16, 4] }, [new Int32Array(w * h), w, h, 50, tbl], types);
    }
  });

  test("a group's one access to an array, a store through any index, runs lane by lane in lane order (under a mask too, in global memory too): the last thread's value where several store one element", async () => {
    const scatter = kernel(function scatter(o: Int32Array, x: Int32Array) {
      const s = shared(Int32Array, 64), q = shared(Int32Array, 16);
      const t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
      s[t] = x[i];
      syncthreads();
      q[t >> 2] = s[t] * 10 + t;
      if ((s[t] & 3) === 0) o[blockIdx.x * 16 + ((t * 5) & 15)] = s[t];
      syncthreads();
      if (t < 16) o[64 + blockIdx.x * 16 + t] = q[t];
    });
    const types = ["i32[]", "i32[]"];
    assert.equal(await usesLanes(scatter, types), true, "its store regions run four threads at a time");
    const x = Int32Array.from({ length: 192 }, (_, i) => (i * 7919) % 97);
    await sameOnBoth(scatter, { blocks: 3, threads: 64 }, [new Int32Array(64 + 48).fill(-1), x], types);
  });

  test("an element read in an if's side and stored by an earlier thread after it: each thread reads what the threads before it stored (the barriers fuzzer's kernel, seed 203)", async () => {
    // Thread 0 reads s[0] in a side of an if all threads take (v = -s[0]), then stores s[0]
    // (s[t] = s[t] + s[(t + 1) % bd]); threads 1… read the stored value. The lanes must not read
    // it for all four before thread 0's store: a group that stores after an if or loop to an
    // array accessed in it has no four-lane form (its tests there are forgotten after it).
    const body = `const t = threadIdx.x, b = blockIdx.x, bd = blockDim.x, i = b * bd + t; const it = 0; const s = shared(Int32Array, 32); const tile = shared(Int32Array, 128); let v = t, w = b, r = 0, acc = 0; s[t] = t * 3 + b; syncthreads(); let u = s[0]; syncthreads(); if ((bd & 8) !== 0) { { const q = (((3 - w) | 0) >> 1); syncthreads(); s[t] = q; syncthreads(); } v = Math.imul(((r + v) | 0), 3); w = (((s[(t + 1) % bd] < s[t] ? t : s[(t + 1) % bd]) - (x[t] | 0)) | 0); } else { if (u > 3) { v = s[t]; } else { v = (((t >> 1) - (((x[t] | 0) - (x[t] | 0)) | 0)) | 0); v = (((3 >> 3) - s[0]) | 0); } if (t - 2 < bd - 2) { s[t] = (s[t] + ((x[t] | 0) < (x[t] | 0) ? (x[t] | 0) : s[(t + 1) % bd])) | 0; } syncthreads(); } { const q = s[bd - 1 - t]; syncthreads(); s[t] = q; syncthreads(); } for (let c = 0; c < 2; c++) tile[2 * t + c] = 0; syncthreads(); if (i >= n) return; for (let k0 = 0; k0 < 2; k0++) {  if (t < m) { tile[2 * t + 0] = ((x[((k0 + Math.imul(t, 3)) + 0) & 31] + 0) | 0) ^ k0; tile[2 * t + 1] = ((x[((k0 + Math.imul(t, 3)) + 1) & 31] + 1) | 0) ^ k0; } syncthreads(); for (let j = 0; j < bd - (m & 3); j++) { if (tile[2 * j + 0] === -2) break; acc = (acc + 1) | 0; } for (let j = 1; j < (t & 7) + 1; j++) { if (j === t) continue; acc = (acc ^ tile[2 * j + 1]) | 0; } syncthreads(); if (i < n) o[b * bd + t] = acc; } syncthreads(); r = (((s[bd - 1 - t] & 7) - s[(t + 1) % bd]) | 0); syncthreads(); syncthreads(); r = ((((x[t] | 0) - v) | 0) >> 3); syncthreads(); u = s[1]; syncthreads(); o[b * bd + t] = ((((v + w) | 0) + r) | 0) + acc;`;
    const fuzzed = kernel(new Function("shared", "syncthreads", "threadIdx", "blockIdx", "blockDim", `return function barriers(x, o, n, m) { ${body} }`)(shared, syncthreads, threadIdx, blockIdx, blockDim), { types: { n: "i32", m: "i32" } });
    const x = Int32Array.from({ length: 32 }, (_, i) => (i * 7919) % 13 - 6);
    await sameOnBoth(fuzzed, { blocks: 3, threads: 16 }, [x, new Int32Array(48), 48, 36], ["i32[]", "i32[]", "i32", "i32"]);
  });

  test("a barrier under a condition the threads disagree on: the same KernelError at the same thread", async () => {
    const split = kernel(function split(x: Float32Array) {
      const s = shared(Float32Array, 32);
      s[threadIdx.x] = x[threadIdx.x];
      if (x[threadIdx.x] > 0.5) { syncthreads(); x[threadIdx.x] = s[0]; }
    });
    const r = await sameOnBoth(split, { blocks: 1, threads: 32 }, [randF32(4, 32, 0, 1)], ["f32[]"]);
    assert.match(String((r.error as { message: string }).message), /syncthreads\(\) is reached under a condition that differs/);
  });

  test("JavaScript's integer arithmetic, bit for bit: division and remainder by 0 and -1, wrap-around, shifts, ToInt32", async () => {
    const ints = kernel(function ints(a: Int32Array, f: Float64Array, out: Float64Array) {
      const t = threadIdx.x, x = a[t], y = a[t + 8], v = f[t];
      let k = t * 24;
      out[k++] = (x / y) | 0; out[k++] = (x % y) | 0; out[k++] = Math.imul(x, y); out[k++] = (x + y) | 0; out[k++] = (x - y) | 0;
      out[k++] = x << y; out[k++] = x >> y; out[k++] = x >>> y; out[k++] = Math.min(x, y); out[k++] = Math.max(x, y);
      out[k++] = Math.abs(x) | 0; out[k++] = Math.sign(x); out[k++] = Math.clz32(x); out[k++] = ~x; out[k++] = -x | 0;
      out[k++] = ((x >>> 0) / (y >>> 0)) >>> 0; out[k++] = ((x >>> 0) % (y >>> 0)) >>> 0; out[k++] = (x >>> 0) < (y >>> 0) ? 1 : 0;
      out[k++] = v | 0; out[k++] = v >>> 0; out[k++] = (v * 3) | 0; out[k++] = v ? 1 : 0; out[k++] = x ? 1 : 0; out[k++] = x < y ? 1 : 0;
    });
    const a = Int32Array.of(0, 1, -1, 7, -7, 2147483647, -2147483648, 100, 0, -1, 3, 0, 2, -2147483648, -1, 33);
    const f = Float64Array.of(NaN, -0, 1e10, -1e20, Infinity, 9.3e18, 2 ** 63 + 2 ** 11, 4294967296.5);
    await sameOnBoth(ints, { blocks: 1, threads: 8 }, [a, f, new Float64Array(8 * 24)], ["i32[]", "f64[]", "f64[]"]);
  });

  test("JavaScript's float arithmetic and Math, bit for bit, in f64 and f32: %, round's halves, sign of -0 and NaN, min/max of ±0", async () => {
    const floats = kernel(function floats(f: Float64Array, g: Float32Array, out: Float64Array, o32: Float32Array) {
      const t = threadIdx.x, v = f[t], w = f[t + 8], p = g[t], q = g[t + 8];
      let k = t * 20;
      out[k++] = v % w; out[k++] = Math.round(v); out[k++] = Math.sign(v); out[k++] = Math.min(v, w); out[k++] = Math.max(v, w);
      out[k++] = Math.floor(v); out[k++] = Math.trunc(v); out[k++] = Math.sqrt(v); out[k++] = Math.pow(v, w); out[k++] = Math.atan2(v, w);
      out[k++] = Math.hypot(v, w); out[k++] = Math.exp(v); out[k++] = v !== v ? 1 : 0; out[k++] = Number.isFinite(v) ? 1 : 0; out[k++] = Math.cbrt(v) * w;
      out[k++] = v < w ? 1 : v === w ? 2 : 3; out[k++] = -v; out[k++] = Math.abs(v); out[k++] = Math.ceil(v) / w; out[k++] = Math.log2(v) + Math.sin(w);
      let j = t * 12;
      o32[j++] = p % q; o32[j++] = p * q + p; o32[j++] = Math.round(p); o32[j++] = p | 0; o32[j++] = Math.sin(p); o32[j++] = Math.min(p, q);
      o32[j++] = p < q ? 1 : 0; o32[j++] = p / q; o32[j++] = Math.sqrt(p); o32[j++] = Math.sign(p); o32[j++] = (p - q) * 0.1; o32[j++] = Math.pow(p, 2.5);
    });
    const f = Float64Array.of(NaN, -0, 0.5, -0.5, 2.5, -2.5, 1e300, 3.7, 0, -0, 1.5, Infinity, -1e-310, 7, -3.7, 2);
    const g = Float32Array.from(f);
    await sameOnBoth(floats, { blocks: 1, threads: 8 }, [f, g, new Float64Array(8 * 20), new Float32Array(8 * 12)], ["f64[]", "f32[]", "f64[]", "f32[]"]);
  });

  test("control flow, helpers, private arrays, narrow arrays and atomics on one thread", async () => {
    function step(v: number, k: number): number {
      for (let i = 0; i < k; i++) { if (v > 1000) return v; v = v * 3 + i; }
      return v;
    }
    const flow = kernel(function flow(x: Int32Array, n8: Int8Array, c8: Uint8ClampedArray, u16: Uint16Array, counts: Int32Array, m: Uint32Array, out: Float64Array) {
      const t = blockIdx.x * blockDim.x + threadIdx.x;
      const acc = new Float32Array(4);
      let s = 0;
      switch (x[t] & 7) {
        case 1: s += 1;
        case 2: s += 10; break;
        default: s += 100;
        case 5: s += 1000; break;
        case 6: { s = -1; }
      }
      for (let i = 0; i < 4; i++) { if (i === (t & 3)) continue; acc[i] = step(i + t, x[t] & 15) * 0.5; }
      let j = 0;
      while (true) { j++; if (j * j > t) break; }
      n8[t] = x[t] * 37; c8[t] = x[t] * 3; u16[t] = x[t] * 1000;
      atomicAdd(counts, x[t] & 3, 1);
      atomicMin(m, 0, x[t] >>> 0); atomicMax(m, 1, x[t] >>> 0);
      out[t * 4] = s; out[t * 4 + 1] = acc[0] + acc[1] + acc[2] + acc[3]; out[t * 4 + 2] = j;
      out[t * 4 + 3] = atomicInc(m, 2, 5) + atomicDec(m, 3, 4) * 100;
    }, { scope: { step } });
    const n = 64;
    const x = Int32Array.from({ length: n }, (_, i) => (i * 2654435761) | 0);
    await sameOnBoth(flow, { blocks: 2, threads: 32 }, [x, new Int8Array(n), new Uint8ClampedArray(n), new Uint16Array(n), new Int32Array(4), Uint32Array.of(0xffffffff, 0, 0, 0), new Float64Array(n * 4)],
      ["i32[]", "i8[]", "u8c[]", "u16[]", "i32[]", "u32[]", "f64[]"]);
  });

  test("a bounds error: the same KernelError (message, thread, block, location), the same stores before it", async () => {
    const oob = kernel(function oob(x: Float32Array, y: Float32Array) {
      const i = blockIdx.x * blockDim.x + threadIdx.x;
      for (let k = 0; k < 3; k++) y[i] += x[i + k * 40];
    });
    const r = await sameOnBoth(oob, { blocks: 4, threads: 16 }, [randF32(1, 100), new Float32Array(64)], ["f32[]", "f32[]"]);
    assert.match(String((r.error as { message: string }).message), /out of bounds/);
  });

  test("an array the launch fills is not copied in: which kernels fill one; a grid that does not cover it, an exception midway, and a buffer shared with another argument leave what the JavaScript leaves", async () => {
    const fills = async (k: Kernel, types: string[]) => (await k.compile({ target: "js", types })).params.filter((p) => p.fills).map((p) => p.name);
    // scan.ts's shape: an index assigned once, a barrier, the store under `i < y.length`.
    const filler = kernel(function filler(y: Int32Array, x: Int32Array) {
      const s = shared(Int32Array, 64);
      const t = threadIdx.x;
      const i = blockIdx.x * blockDim.x + t;
      s[t] = x[(i * 3) % x.length];
      syncthreads();
      if (i < y.length) y[i] = s[63 - t] + (x[i] | 0);
    });
    assert.deepEqual(await fills(filler, ["i32[]", "i32[]"]), ["y"]);
    const unguarded = kernel(function unguarded(y: Float32Array) { y[threadIdx.x + blockDim.x * blockIdx.x] = 2; });
    assert.deepEqual(await fills(unguarded, ["f32[]"]), ["y"]);
    // Not: y read, a thread that may return first, another index, the store under another condition.
    const reads = kernel(function reads(y: Float32Array) { const i = blockIdx.x * blockDim.x + threadIdx.x; if (i < y.length) y[i] = y[i] + 1; });
    const returns = kernel(function returns(y: Float32Array, x: Float32Array) { const i = blockIdx.x * blockDim.x + threadIdx.x; if (x[i] > 0) return; y[i] = 1; });
    const other = kernel(function other(y: Float32Array) { const i = blockIdx.x * blockDim.y + threadIdx.x; if (i < y.length) y[i] = 1; });
    const cond = kernel(function cond(y: Float32Array, x: Float32Array) { const i = blockIdx.x * blockDim.x + threadIdx.x; if (x[i] > 0) y[i] = 1; });
    for (const k of [reads, returns, other, cond]) assert.deepEqual(await fills(k, ["f32[]", "f32[]"].slice(0, k === reads || k === other ? 1 : 2)), [], k.name);
    const x = Int32Array.from({ length: 200 }, (_, i) => (i * 37) % 101 - 50);
    const poisoned = () => new Int32Array(200).fill(-7);
    // Covered: every element written; then a grid that covers 128 of 200 (the rest keep -7).
    await sameOnBoth(filler, { blocks: 4, threads: 64 }, [poisoned(), x], ["i32[]", "i32[]"]);
    await sameOnBoth(filler, { blocks: 2, threads: 64 }, [poisoned(), x], ["i32[]", "i32[]"]);
    // An exception midway (x[i] out of bounds from i = 100): the elements before it written, the rest
    // kept — the module's memory holds the last launch's y there, so a copy back would show it.
    const short = x.subarray(0, 100);
    const r = await sameOnBoth(filler, { blocks: 4, threads: 64 }, [poisoned(), short], ["i32[]", "i32[]"]);
    assert.match(String((r.error as { message: string }).message), /out of bounds/);
    assert.equal(r.arrays[0][150], -7);
    // y and x views of one buffer: copied in whole.
    const buf = new Int32Array(400).fill(3);
    await sameOnBoth(filler, { blocks: 3, threads: 64 }, [buf.subarray(0, 190), buf.subarray(200, 400)], ["i32[]", "i32[]"]);
  });

  test("a user throw and console.log: the same exception and the same lines, in order", async () => {
    const says = kernel(function says(x: Float32Array) {
      const t = threadIdx.x;
      for (let k = 0; k < 2; k++) console.log("thread", t, "step", k, x[t] * k);
      if (x[t] > 0.9) throw new Error("too big");
    });
    const x = Float32Array.of(0.1, 0.5, -2, 0.95, 0.3);
    const r = await sameOnBoth(says, { blocks: 1, threads: 5 }, [x], ["f32[]"]);
    assert.equal(r.lines.length, 8);
    assert.equal((r.error as { kind: string }).kind, "exception");
  });

  test("views of one buffer that overlap: what one thread writes through one, a later thread reads through the other", async () => {
    const shift = kernel(function shift(a: Float32Array, b: Float32Array) {
      const i = threadIdx.x;
      for (let k = 0; k < 1; k++) b[i] = a[i] + 1;
    });
    const buf = randF32(2, 40);
    await sameOnBoth(shift, { blocks: 1, threads: 20 }, [buf.subarray(0, 30), buf.subarray(3, 33)], ["f32[]", "f32[]"]);
  });

  test("a rewritable captured table: the values setTable gives reach the module", async () => {
    const coeffs = Float32Array.of(1, 2, 3, 4);
    const k = kernel(function weights(out: Float32Array) { for (let j = 0; j < 1; j++) out[threadIdx.x] = coeffs[threadIdx.x & 3] * 2; }, { scope: { coeffs }, rewritable: ["coeffs"] });
    const out = new Float32Array(8);
    await k.launch(wasm, { blocks: 1, threads: 8 }, out);
    assert.deepEqual([...out], [2, 4, 6, 8, 2, 4, 6, 8]);
    k.setTable("coeffs", Float32Array.of(5, 6, 7, 8));
    await k.launch(wasm, { blocks: 1, threads: 8 }, out);
    assert.deepEqual([...out], [10, 12, 14, 16, 10, 12, 14, 16]);
  });

  test("a module that fails its checks is not used: damaged bytes, a foreign import, an export it should not have, a table outside its data", () => {
    const run = { params: [], results: [] };
    const module = (parts: Partial<Parameters<typeof encodeModule>[0]>) => btoa(String.fromCharCode(...encodeModule({
      types: [run], imports: [], memoryPages: 1, functions: [0],
      globals: [{ type: V.i32, mutable: false, init: 16, export: "heap" }],
      exports: [{ name: "run", func: 0 }], bodies: [{ locals: [], code: Uint8Array.of(0x0b), relocs: [] }], threads: false, prefer: true, ...parts,
    })));
    const sites = [Float32Array.of(1, 2)];
    const hooks = { divergent: (): never => { throw new Error("divergent"); } };
    const refused = (text: string, sitesHere = sites) => {
      const r = WasmKernel.load(text, sitesHere, hooks);
      assert.ok(!(r instanceof WasmKernel), "refused");
      return (r as { refused: string }).refused;
    };
    assert.ok(WasmKernel.load(module({ globals: [{ type: V.i32, mutable: false, init: 16, export: "heap" }, { type: V.i32, mutable: false, init: 0, export: "table0" }] }), sites, hooks) instanceof WasmKernel, "a well-formed module loads");
    refused("AGFzbQEAAAAB////");
    refused("not base64 at all!");
    assert.match(refused(module({ imports: [{ module: "env", name: "x", kind: "func", type: 0 }], functions: [0], exports: [{ name: "run", func: 1 }] }), []), /imports from 'env'/);
    assert.match(refused(module({ imports: [{ module: "m", name: "eval", kind: "func", type: 0 }], functions: [0], exports: [{ name: "run", func: 1 }] }), []), /imports 'eval'/);
    assert.match(refused(module({ exports: [{ name: "run", func: 0 }, { name: "other", func: 0 }] }), []), /exports 'other'/);
    assert.match(refused(module({}), sites), /does not export 'table0'/);
    assert.match(refused(module({ globals: [{ type: V.i32, mutable: false, init: 16, export: "heap" }, { type: V.i32, mutable: false, init: 12, export: "table0" }] }), sites), /table 0 is outside its data/);
  });

  test("a module that may run on several threads: a kernel with atomics has no threads section; the section is checked; a thread's copy is relocated and shares its memory", async () => {
    const load = async (k: Kernel, types: string[]) => {
      const a = await k.compile({ target: "js", types });
      return (wasm.load(a) as unknown as { wasm: WasmKernel }).wasm;
    };
    const reduce = kernel(function reduce(out: Float32Array, x: Float32Array) {
      const s = shared(Float32Array, 64);
      s[threadIdx.x] = x[blockIdx.x * 64 + threadIdx.x];
      syncthreads();
      if (threadIdx.x === 0) { let t = 0; for (let j = 0; j < 64; j++) t += s[j]; out[blockIdx.x] = t; }
    });
    const count = kernel(function count(h: Int32Array) { atomicAdd(h, threadIdx.x & 3, 1); });
    assert.equal((await load(reduce, ["f32[]", "f32[]"])).threads, true, "a kernel without atomics may run on several threads");
    assert.equal((await load(count, ["i32[]"])).threads, false, "blocks that meet through atomics run on one thread");

    // A hand-made module: one relocated constant (8), then a relocation that is no i32.const.
    const run = { params: [], results: [] };
    const body = Uint8Array.of(0x41, 0x88, 0x80, 0x80, 0x80, 0x00, 0x1a, 0x0b);
    const made = (relocs: number[]) => WasmKernel.load(btoa(String.fromCharCode(...encodeModule({
      types: [run], imports: [], memoryPages: 1, functions: [0],
      globals: [{ type: V.i32, mutable: false, init: 16, export: "heap" }],
      exports: [{ name: "run", func: 0 }], bodies: [{ locals: [], code: body, relocs }], threads: true, prefer: true,
    }))), [], { divergent: (): never => { throw new Error("divergent"); } }) as WasmKernel;
    const good = made([1]);
    assert.ok(good instanceof WasmKernel && good.threads && threadsInfo(good), "a well-formed section");
    const moved = threadModule(good, threadsInfo(good)!, 64);
    const original = (good as unknown as { bytes: Uint8Array }).bytes;
    const differ = [...moved].flatMap((b, i) => (b !== original[i] ? [i] : []));
    assert.equal(differ.length, 2, "the limits flags and one byte of the constant");
    const memory = new WebAssembly.Memory({ initial: 1, maximum: 65536, shared: true });
    const inst = new WebAssembly.Instance(new WebAssembly.Module(moved), { m: { memory } });
    assert.equal(typeof inst.exports.run, "function", "the thread's copy imports a shared memory");
    for (const bad of [[0], [2], [1, 1000000]]) {
      const k = made(bad);
      assert.ok(k instanceof WasmKernel, "a module whose section does not check out still loads");
      assert.equal(threadsInfo(k), null, `relocations ${bad.join(", ")}: its launches on the workers run the JavaScript`);
    }
  });

  test("a module that does not prefer to run is never compiled (its first section says so), one that does once the kernel ran 1,024 threads, unless wasm: \"always\"", async () => {
    const dev = await device("cpu", { threads: 1 });
    try {
      // (f64: no four-lane form, so nothing but the copies sets it apart from its JavaScript.)
      const light = kernel(function light(y: Float64Array, x: Float64Array) { const i = threadIdx.x; y[i] = x[i] * 2; });
      const heavy = kernel(function heavy(y: Float32Array, x: Float32Array) { const i = threadIdx.x; let a = 0; for (let k = 0; k < 8; k++) a += x[i] * k; y[i] = a; });
      // (Its threads four at a time, nothing tested in the loop: faster than the JavaScript, copies and all.)
      const fours = kernel(function fours(y: Float32Array, x: Float32Array) { const i = threadIdx.x; y[i] = x[i] * 2; });
      type Loaded = { wasm: WasmKernel | null; wasmRefused: string | null; wasmText: string | null };
      const loaded = async (k: Kernel, on: typeof dev, types = ["f32[]", "f32[]"]) => on.load(await k.compile({ target: "js", types })) as unknown as Loaded;
      const l = await loaded(light, dev, ["f64[]", "f64[]"]), h = await loaded(heavy, dev);
      assert.ok((await loaded(fours, dev)).wasmText !== null, "a kernel whose threads run four at a time in a loop prefers to run as WebAssembly");
      assert.equal(l.wasm, null, "a memory-bound kernel's module is not compiled");
      assert.equal(l.wasmRefused, null);
      assert.equal(l.wasmText, null);
      assert.ok(h.wasm === null && h.wasmText !== null, "a kernel with a loop prefers to run as WebAssembly: compiled once it ran enough threads");
      // (The device's own launch of the loaded kernel: 512 threads, then 512 more, the 1,024th compiles it.)
      const y1 = new Float32Array(512), y2 = new Float32Array(512), x = randF32(31, 512);
      await dev.launch(h as never, [y1, x], { blocks: [1, 1, 1], threads: [512, 1, 1] });
      assert.equal(h.wasm, null, "512 threads: not yet");
      await dev.launch(h as never, [y2, x], { blocks: [1, 1, 1], threads: [512, 1, 1] });
      assert.ok((h.wasm as WasmKernel | null)?.prefer && h.wasmText === null, "1,024 threads: compiled, and it ran");
      assert.deepEqual([...y2], [...y1], "the same results either way");
      assert.ok((await loaded(light, wasm, ["f64[]", "f64[]"])).wasm, "wasm: \"always\" compiles it");
      assert.equal(WasmKernel.prefers(Uint8Array.of(0, 97, 115, 109, 1, 0, 0, 0)), false, "a module without the section");
      assert.equal(WasmKernel.prefersText("not base64 at all!"), false);
    } finally { dev.close(); }
  });

  test("the wasm option: true, false or \"always\"; GPUC_CPU_WASM 0, 1 or always", async () => {
    await assert.rejects(device("cpu", { wasm: "yes" as never }), (e: unknown) => e instanceof CompileError && e.diagnostics[0].kind === "invalid-option" && /wasm must be true, false or "always"/.test(e.message));
    process.env.GPUC_CPU_WASM = "2";
    try {
      await assert.rejects(device("cpu"), (e: unknown) => e instanceof CompileError && /GPUC_CPU_WASM must be 0, 1 or always/.test(e.message));
    } finally { delete process.env.GPUC_CPU_WASM; }
  });
});
