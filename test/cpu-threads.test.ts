// The multi-threaded CPU device (devices/cpu-workers.ts): a launch's blocks spread over worker
// threads give the same results as the device's own thread (arrays, atomics from many blocks,
// barriers and shared memory, subgroups, narrow arrays, the reported exception, prints in
// order), and every launch on the CPU device can be cancelled (an AbortSignal, a time limit),
// stopping within 100 ms and leaving the device usable.
//
// Each comparison runs a kernel on a one-thread device and on two-thread devices with
// `parallel: "always"` (every launch of two blocks or more on the workers) — as it is, with the
// workers running the JavaScript (`wasm: false`), and running the kernel's WebAssembly wherever
// its module may run on several threads (`wasm: "always"`) — on fresh copies of the same inputs.

import { describe, test, after } from "node:test";
import assert from "node:assert/strict";
import {
  kernel, device, CompileError, KernelError, shared, syncthreads, threadIdx, blockIdx, blockDim, gridDim,
  atomicAdd, atomicMin, atomicMax, subgroupAdd, subgroupShuffleXor, type Device, type Kernel, type LaunchConfig,
} from "../src/index.ts";
import { randF32, randI32, same, launchOutcome, type LaunchOutcome } from "./helpers.ts";

const lines1: string[] = [], lines2: string[] = [], linesJS: string[] = [], linesWasm: string[] = [];
const one = await device("cpu", { threads: 1, print: (l) => lines1.push(l) });
const two = await device("cpu", { threads: 2, parallel: "always", print: (l) => lines2.push(l) });
const twoJS = await device("cpu", { threads: 2, parallel: "always", wasm: false, print: (l) => linesJS.push(l) });
const twoWasm = await device("cpu", { threads: 2, parallel: "always", wasm: "always", print: (l) => linesWasm.push(l) });
after(() => { one.close(); two.close(); twoJS.close(); twoWasm.close(); });

/** Run on one thread and on two (as it is, the JavaScript, WebAssembly); everything the launch leaves must be the same. */
async function sameOnBoth(k: Kernel, cfg: LaunchConfig, args: unknown[], check?: (r: LaunchOutcome, on2: LaunchOutcome) => void) {
  const a = await launchOutcome(one, lines1, k, cfg, args);
  for (const [dev, lines, how] of [[two, lines2, "as it is"], [twoJS, linesJS, "the JavaScript"], [twoWasm, linesWasm, "WebAssembly"]] as const) {
    const b = await launchOutcome(dev, lines, k, cfg, args);
    assert.deepEqual(b.error, a.error, `the error (two threads, ${how})`);
    assert.deepEqual(b.lines, a.lines, `the printed lines (two threads, ${how})`);
    // After an exception, blocks past the one that raised it may have run on the other thread
    // (cpu-workers.ts): their stores are not compared; every block before it ran on both.
    if (!a.error) assert.deepEqual(b.arrays, a.arrays, `the arrays (two threads, ${how})`);
    check?.(a, b);
  }
  return a;
}

/** Which ways the workers of `dev` have run kernels: "j" JavaScript, "w" WebAssembly. */
function workersRan(dev: Device): Set<string> {
  const pool = (dev as unknown as { workers: { pool: { loaded: Set<string>[] } } | null }).workers?.pool;
  return new Set((pool?.loaded ?? []).flatMap((s) => [...s].map((key) => key[0])));
}

describe("the CPU device on two threads: the same results as on one", () => {
  test("a plain kernel over many blocks, host and device arrays, a 2-D grid", async () => {
    const saxpy = kernel(function saxpy(a: number, x: Float32Array, y: Float32Array) {
      const i = blockIdx.x * blockDim.x + threadIdx.x;
      if (i < y.length) y[i] = a * x[i] + y[i];
    });
    await sameOnBoth(saxpy, { blocks: 100, threads: 64 }, [1.5, randF32(1, 6400), randF32(2, 6399)]);
    const y = randF32(4, 5000);
    const dy = two.array(y), dx = two.array(randF32(3, 5000));
    await saxpy.launch(two, { blocks: 40, threads: 128 }, 2, dx, dy);
    const ref = one.array(y);
    await saxpy.launch(one, { blocks: 40, threads: 128 }, 2, one.array(randF32(3, 5000)), ref);
    same(await dy.read(), await ref.read());
    const matmul = kernel(function matmul(a: Float32Array, b: Float32Array, c: Float32Array, n: number) {
      const col = blockIdx.x * blockDim.x + threadIdx.x, row = blockIdx.y * blockDim.y + threadIdx.y;
      if (row < n && col < n) {
        let acc = 0;
        for (let k = 0; k < n; k++) acc += a[row * n + k] * b[k * n + col];
        c[row * n + col] = acc;
      }
    });
    await sameOnBoth(matmul, { blocks: [5, 5], threads: [8, 8] }, [randF32(5, 40 * 40), randF32(6, 40 * 40), new Float32Array(40 * 40), 40]);
    const grid3 = kernel(function grid3(o: Int32Array) {
      const b = (blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x + blockIdx.x;
      o[b * blockDim.x + threadIdx.x] = b * 1000 + threadIdx.x;
    });
    await sameOnBoth(grid3, { blocks: [3, 4, 5], threads: 7 }, [new Int32Array(3 * 4 * 5 * 7)]);
  });

  test("views of one buffer passed together (overlapping, and one array twice) alias as on one thread", async () => {
    const shift = kernel(function shift(dst: Int32Array, src: Int32Array) {
      const i = blockIdx.x * blockDim.x + threadIdx.x;
      if (i < dst.length) dst[i] = src[i] + 1;
    });
    const buf = Int32Array.from({ length: 64 }, (_, i) => i);
    // dst starts one element after src: each worker sees the other's stores, as the one thread does (a race across blocks, but not within one).
    const b1 = buf.slice(), b2 = buf.slice();
    await shift.launch(one, { blocks: 1, threads: 63 }, b1.subarray(1), b1.subarray(0, 63));
    await shift.launch(two, { blocks: 1, threads: 63 }, b2.subarray(1), b2.subarray(0, 63));
    same(b2, b1);
    const twice = kernel(function twice(a: Float32Array, b: Float32Array) {
      const i = blockIdx.x * blockDim.x + threadIdx.x;
      if (i < a.length) a[i] = b[i] * 2;
    });
    const x1 = randF32(7, 256), x2 = x1.slice();
    await twice.launch(one, { blocks: 4, threads: 64 }, x1, x1);
    await twice.launch(two, { blocks: 4, threads: 64 }, x2, x2);
    same(x2, x1);
  });

  test("an array the kernel only reads is not copied back: the host's writes to it while the launch runs stay", async () => {
    const scale = kernel(function scale(y: Float32Array, x: Float32Array) {
      const i = blockIdx.x * blockDim.x + threadIdx.x;
      if (i < y.length) y[i] = x[i] * 2;
    });
    const art = await scale.compile({ target: "js", types: ["f32[]", "f32[]"] });
    assert.deepEqual(art.params.map((p) => p.readOnly === true), [false, true]);
    await scale.launch(two, { blocks: 4, threads: 64 }, new Float32Array(256), new Float32Array(256));   // the pool started
    const x = new Float32Array(256).fill(1), y = new Float32Array(256);
    const running = scale.launch(two, { blocks: 4, threads: 64 }, y, x);
    x[0] = 42;   // after the copy in, before the copy back
    await running;
    assert.equal(x[0], 42, "the read-only input's copy did not overwrite the host's write");
    assert.equal(y[0], 2);
  });

  test("barriers and shared memory: a per-block reduction", async () => {
    const blockSums = kernel(function blockSums(sums: Float32Array, x: Float32Array) {
      const s = shared(Float32Array, 64);
      const t = threadIdx.x;
      const i = blockIdx.x * blockDim.x + t;
      s[t] = i < x.length ? x[i] : 0;
      syncthreads();
      for (let stride = 32; stride > 0; stride >>= 1) {
        if (t < stride) s[t] += s[t + stride];
        syncthreads();
      }
      if (t === 0) sums[blockIdx.x] = s[0];
    });
    await sameOnBoth(blockSums, { blocks: 50, threads: 64 }, [new Float32Array(50), randF32(8, 3200)]);
    assert.ok(workersRan(twoWasm).has("w"), "the workers ran its WebAssembly");
  });

  test("Math functions JavaScript has and WebAssembly lacks, on the workers' WebAssembly too (their imports)", async () => {
    const maths = kernel(function maths(o: Float64Array, f: Float32Array, x: Float64Array) {
      const i = blockIdx.x * blockDim.x + threadIdx.x;
      const v = x[i];
      o[i] = Math.sin(v) + Math.pow(v, 1.5) + (v % 0.7) + Math.round(v) + Math.hypot(v, 2) + Math.atan2(v, 3) + Math.log1p(Math.abs(v)) + (Math.cbrt(v) | 0);
      f[i] = Math.exp(Math.fround(v));
    });
    const n = 40 * 32;
    const x = Float64Array.from(randF32(21, n), (v) => v * 40);
    await sameOnBoth(maths, { blocks: 40, threads: 32 }, [new Float64Array(n), new Float32Array(n), x]);
    assert.ok(workersRan(twoWasm).has("w"));
  });

  test("atomics from many blocks: integer, f32, min and max, compare-exchange, narrow arrays", async () => {
    const hist = kernel(function hist(x: Int32Array, h: Int32Array, lo: Int32Array, hi: Uint32Array, s: Float32Array, u8: Uint8Array, i16: Int16Array, first: Int32Array) {
      const i = blockIdx.x * blockDim.x + threadIdx.x;
      if (i >= x.length) return;
      const v = x[i];
      Atomics.add(h, v & 15, 1);
      Atomics.sub(h, 16, 1);
      Atomics.or(h, 17, 1 << (v & 31));
      atomicMin(lo, 0, v);
      atomicMax(hi, 0, v >>> 0);
      atomicAdd(s, 0, 0.5);
      Atomics.add(u8, v & 7, 1);
      Atomics.sub(i16, v & 3, 3);
      Atomics.compareExchange(first, 0, -1, 7);
    });
    const n = 20000;
    await sameOnBoth(hist, { blocks: Math.ceil(n / 128), threads: 128 }, [
      randI32(9, n, -1000000, 1000000), new Int32Array(18), Int32Array.of(2147483647), new Uint32Array(1), new Float32Array(1), new Uint8Array(8), new Int16Array(4), Int32Array.of(-1),
    ], (r) => { assert.equal(r.arrays[1][0] + r.arrays[1][15] >= 0, true); assert.equal(r.arrays[4][0], n / 2, "f32 atomicAdd"); });
  });

  test("subgroups (and the subgroup size option) on the workers", async () => {
    const sg = kernel(function sg(x: Int32Array, o: Int32Array) {
      const i = blockIdx.x * blockDim.x + threadIdx.x;
      const v = x[i];
      o[i] = subgroupAdd(v) + subgroupShuffleXor(v, 1);
    });
    await sameOnBoth(sg, { blocks: 30, threads: 64 }, [randI32(10, 30 * 64, -100, 100), new Int32Array(30 * 64)]);
  });

  test("exceptions: the one of the lowest block that raised, as one thread reports it", async () => {
    // Block `from` is slow: on two threads a later block raises its exception first in time.
    const late = kernel(function late(o: Int32Array, from: number) {
      const i = blockIdx.x * blockDim.x + threadIdx.x;
      let acc = 0;
      if (blockIdx.x === from) for (let k = 0; k < 3000000; k++) acc = (acc + k) | 0;
      if (blockIdx.x >= from && threadIdx.x === 3) throw new Error("late block");
      o[i] = i + (acc & 1);
    });
    for (const from of [1, 37, 63]) {
      await sameOnBoth(late, { blocks: 64, threads: 8 }, [new Int32Array(512), from], (r, on2) => {
        assert.equal((r.error as { block: { x: number } }).block.x, from);
        assert.deepEqual(on2.arrays[0].slice(0, from * 8), r.arrays[0].slice(0, from * 8), "the blocks before the exception's");
      });
    }
    // A bounds error, with its index and length in the message.
    const oob = kernel(function oob(o: Float32Array, x: Float32Array) {
      const i = blockIdx.x * blockDim.x + threadIdx.x;
      o[i] = x[i * 2];
    });
    const r = await sameOnBoth(oob, { blocks: 16, threads: 32 }, [new Float32Array(512), randF32(11, 700)]);
    assert.equal((r.error as { kind: string }).kind, "bounds");
    // syncthreads() under a condition that differs between threads: the same divergence error.
    const divergent = kernel(function divergent(o: Int32Array) {
      if (blockIdx.x >= 5 && threadIdx.x < 4) syncthreads();
      o[blockIdx.x * blockDim.x + threadIdx.x] = 1;
    });
    const d = await sameOnBoth(divergent, { blocks: 9, threads: 8 }, [new Int32Array(72)]);
    assert.match((d.error as { message: string }).message, /block \(5, 0, 0\)/);
  });

  test("console.log: lines in block order, cut at the exception, and the same ones dropped when the area is full", async () => {
    const printer = kernel(function printer(x: Int32Array, stop: number) {
      const i = blockIdx.x * blockDim.x + threadIdx.x;
      if (threadIdx.x % 3 === 0) console.log("block", blockIdx.x, "thread", threadIdx.x, x[i]);
      if (blockIdx.x === stop && threadIdx.x === 4) throw new Error("stop");
      if (threadIdx.x === 1) console.log("after", i);
    });
    const x = randI32(12, 40 * 16, -5, 5);
    await sameOnBoth(printer, { blocks: 40, threads: 16 }, [x, -1], (r) => assert.equal(r.lines.length, 40 * 7));
    await sameOnBoth(printer, { blocks: 40, threads: 16 }, [x, 23], (r) => assert.ok(r.lines.at(-1)!.startsWith("[block (23, 0, 0) thread (3, 0, 0)]"), r.lines.at(-1)));
    const l1: string[] = [], l2: string[] = [];
    const small1 = await device("cpu", { threads: 1, printBufferWords: 500, print: (l) => l1.push(l) });
    const small2 = await device("cpu", { threads: 2, parallel: "always", printBufferWords: 500, print: (l) => l2.push(l) });
    try {
      await printer.launch(small1, { blocks: 40, threads: 16 }, x, -1);
      await printer.launch(small2, { blocks: 40, threads: 16 }, x, -1);
      assert.match(l1.at(-1)!, /print records? dropped/);
      assert.deepEqual(l2, l1);
    } finally { small1.close(); small2.close(); }
  });

  test("constant tables, and setTable's new values, reach the workers", async () => {
    const LUT = Float32Array.of(1, 2, 3, 4);
    const lut = kernel(function lut(o: Float32Array) {
      const i = blockIdx.x * blockDim.x + threadIdx.x;
      if (i < o.length) o[i] = LUT[i & 3] * 10;
    }, { scope: { LUT }, rewritable: ["LUT"] });
    await sameOnBoth(lut, { blocks: 8, threads: 32 }, [new Float32Array(256)], (r) => assert.equal(r.arrays[0][1], 20));
    lut.setTable("LUT", Float32Array.of(5, 6, 7, 8));
    await sameOnBoth(lut, { blocks: 8, threads: 32 }, [new Float32Array(256)], (r) => assert.equal(r.arrays[0][1], 60));
  });

  test("launches are ordered: a read, a copy or another launch waits for the launches before it", async () => {
    const inc = kernel(function inc(a: Int32Array) {
      const i = blockIdx.x * blockDim.x + threadIdx.x;
      if (i < a.length) a[i] = a[i] + 1;
    });
    await inc.launch(two, { blocks: 1, threads: 1 }, new Int32Array(1));   // compiled: later launches reach the device at once
    const d = two.array(new Int32Array(4096));
    const launches = [inc.launch(two, { blocks: 32, threads: 128 }, d), inc.launch(two, { blocks: 1, threads: 128 }, d), inc.launch(two, { blocks: 32, threads: 128 }, d)];
    const read = d.read();
    const e = two.array(new Int32Array(4096));
    const copied = two.copy(e, d);
    const after = inc.launch(two, { blocks: 32, threads: 128 }, d);
    await Promise.all([...launches, copied, after]);
    const got = (await read) as Int32Array;
    assert.equal(got[0], 3);
    assert.equal(got[4095], 2);
    assert.deepEqual([...(await e.read()).subarray(0, 2), (await e.read())[4095]], [3, 3, 2]);
    assert.equal((await d.read())[0], 4);
  });
});

describe("cancelling a launch on the CPU device", () => {
  // About 4 ms per block on this machine; 10^6 blocks would take over an hour.
  const spin = kernel(function spin(o: Float32Array, n: number) {
    let acc = 0;
    for (let k = 0; k < n; k++) acc = acc * 0.999 + Math.sqrt(k + threadIdx.x);
    o[blockIdx.x % o.length] = acc;
  });
  const inc = kernel(function inc2(a: Int32Array) {
    const i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < a.length) a[i] = a[i] + 1;
  });
  /** The device still runs launches, on its own thread and on the workers. */
  async function usable(dev: Device) {
    const a = new Int32Array(1000);
    await inc.launch(dev, { blocks: 8, threads: 128 }, a);
    await inc.launch(dev, { blocks: 8, threads: 128, timeoutMs: 10000 }, a);
    assert.ok(a.every((v) => v === 2), "the device runs launches after a cancelled one");
  }

  for (const threads of [1, 2]) {
    test(`an AbortSignal stops a launch of a million blocks within 100 ms (threads: ${threads})`, async () => {
      const dev = await device("cpu", { threads });
      try {
        const ac = new AbortController();
        const run = spin.launch(dev, { blocks: 1_000_000, threads: 32, signal: ac.signal }, new Float32Array(64), 20000);
        await new Promise((r) => setTimeout(r, 200));
        const t0 = performance.now();
        ac.abort();
        await assert.rejects(run, (e: KernelError) => e instanceof KernelError && e.kind === "cancelled" && /AbortSignal/.test(e.message));
        const ms = performance.now() - t0;
        assert.ok(ms < 100, `stopped ${ms.toFixed(1)} ms after the abort`);
        await usable(dev);
      } finally { dev.close(); }
    });

    test(`a time limit stops a launch (threads: ${threads})`, async () => {
      const dev = await device("cpu", { threads });
      try {
        const t0 = performance.now();
        await assert.rejects(spin.launch(dev, { blocks: 1_000_000, threads: 32, timeoutMs: 150 }, new Float32Array(64), 20000),
          (e: KernelError) => e instanceof KernelError && e.kind === "cancelled" && /time limit of 150 ms/.test(e.message));
        const ms = performance.now() - t0;
        assert.ok(ms >= 140 && ms < 250 + 200, `stopped after ${ms.toFixed(1)} ms`);
        await usable(dev);
      } finally { dev.close(); }
    });
  }

  test("one long block cannot see the flag: its worker is stopped, and the device is usable", async () => {
    const t0 = performance.now();
    await assert.rejects(spin.launch(two, { blocks: 1, threads: 1, timeoutMs: 100 }, new Float32Array(1), 2_000_000_000), (e: KernelError) => e.kind === "cancelled");
    const ms = performance.now() - t0;
    assert.ok(ms < 200, `stopped after ${ms.toFixed(1)} ms`);
    await usable(two);
  });

  test("closing the device during a launch on its workers rejects the launch", async () => {
    const dev = await device("cpu", { threads: 2 });
    const run = spin.launch(dev, { blocks: 1_000_000, threads: 32, timeoutMs: 60000 }, new Float32Array(64), 20000);
    await new Promise((r) => setTimeout(r, 100));
    dev.close();
    await assert.rejects(run, (e: KernelError) => e.kind === "device-unavailable" && /closed/.test(e.message));
  });

  test("a launch whose signal is already aborted does not run; a finished launch ignores a later abort", async () => {
    const ac = new AbortController();
    ac.abort();
    const a = new Int32Array(10);
    for (const dev of [one, two]) {
      await assert.rejects(inc.launch(dev, { blocks: 1, threads: 10, signal: ac.signal }, a), (e: KernelError) => e.kind === "cancelled");
    }
    assert.ok(a.every((v) => v === 0));
    const late = new AbortController();
    await inc.launch(one, { blocks: 2, threads: 10, signal: late.signal }, a);
    late.abort();
    assert.ok(a.every((v) => v === 1));
  });

  test("launch options: signal and timeoutMs are checked", async () => {
    const a = new Int32Array(4);
    await assert.rejects(inc.launch(one, { blocks: 1, threads: 4, signal: {} as AbortSignal }, a), (e: KernelError) => e.kind === "launch-config" && /AbortSignal/.test(e.message));
    for (const t of [0, -5, NaN, "10"])
      await assert.rejects(inc.launch(one, { blocks: 1, threads: 4, timeoutMs: t as number }, a), (e: KernelError) => e.kind === "launch-config" && /timeoutMs/.test(e.message));
  });
});

describe("the CPU device's threads option", () => {
  test("parallel: auto runs small launches on the calling thread (no worker started) and a long one on the workers once measured faster there", async () => {
    const dev = await device("cpu", { threads: 2, parallel: "auto" });
    const pool = () => (dev as unknown as { workers: unknown }).workers;
    try {
      const add = kernel(function add1(a: Float32Array) {
        const i = blockIdx.x * blockDim.x + threadIdx.x;
        if (i < a.length) a[i] += 1;
      });
      // (Under 1024 threads a launch is not even measured; bigger ones are, and stay here while
      // under a millisecond, which a loaded machine can make flaky to test.)
      const a = new Float32Array(512);
      for (let r = 0; r < 20; r++) await add.launch(dev, { blocks: 4, threads: 128 }, a);
      assert.equal(a[511], 20);
      assert.equal(pool(), null, "no worker started for launches of microseconds");
      const heavy = kernel(function heavy(o: Float32Array, n: number) {
        const i = blockIdx.x * blockDim.x + threadIdx.x;
        let acc = 0;
        for (let k = 0; k < n; k++) acc = acc * 0.5 + Math.sqrt(k + i);
        o[i] = acc;
      });
      const o1 = new Float32Array(64 * 64), o2 = new Float32Array(64 * 64);
      for (let r = 0; r < 8; r++) await heavy.launch(dev, { blocks: 64, threads: 64 }, o1, 3000);
      await heavy.launch(one, { blocks: 64, threads: 64 }, o2, 3000);
      same(o1, o2);
      assert.notEqual(pool(), null, "the workers ran some of a 10 ms launch's runs");
    } finally { dev.close(); }
  });

  test("parallel: auto measures a kernel on the workers up to six launches, two where the copies into shared memory alone take as long as a run here", async () => {
    // (The JavaScript here: WebAssembly on this thread would copy the array too.)
    const dev = await device("cpu", { threads: 2, parallel: "auto", wasm: false });
    const loaded: { workersRuns: number; inlineNs?: number; copyNs?: number }[] = [];
    const load = dev.load.bind(dev);
    (dev as { load: typeof dev.load }).load = ((a, t) => { const k = load(a, t); loaded.push(k as never); return k; }) as typeof dev.load;
    try {
      // Half a million threads each reading one element of the first sixty-fourth of 128 MB: two
      // milliseconds or so here, the copy of all of it into shared memory several times that.
      const pick = kernel(function pick(o: Float32Array, a: Float32Array) {
        const i = blockIdx.x * blockDim.x + threadIdx.x;
        o[i & 1023] = a[i];
      });
      const a = new Float32Array(1 << 25), o = new Float32Array(1024);
      for (let r = 0; r < 7; r++) await pick.launch(dev, { blocks: 512, threads: 1024 }, o, a);
      const k = loaded[0];
      assert.ok(k.copyNs! >= k.inlineNs!, `the copies (${k.copyNs} ns a thread) took as long as a run here (${k.inlineNs})`);
      assert.equal(k.workersRuns, 2, "two launches on the workers, then this thread's");
    } finally { dev.close(); }
  });

  test("parallel: auto keeps a kernel whose WebAssembly runs on one thread only (atomics) on this thread, never measuring the workers' JavaScript", async () => {
    const dev = await device("cpu", { threads: 2, parallel: "auto" });
    const loaded: { workersRuns: number; inlineRuns: number; wasm: { threads: boolean; prefer: boolean } | null }[] = [];
    const load = dev.load.bind(dev);
    (dev as { load: typeof dev.load }).load = ((a, t) => { const k = load(a, t); loaded.push(k as never); return k; }) as typeof dev.load;
    try {
      const count = kernel(function count(hist: Uint32Array, data: Uint32Array, n: number) {
        for (let i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
          let h = data[i];
          for (let r = 0; r < 40; r++) h = Math.imul(h ^ (h >>> 15), 0x2c1b3c6d);
          Atomics.add(hist, h & 63, 1);
        }
      });
      const n = 1 << 18, data = Uint32Array.from({ length: n }, (_, i) => i * 2654435761), hist = new Uint32Array(64);
      for (let r = 0; r < 10; r++) await count.launch(dev, { blocks: 64, threads: 128 }, hist, data, n);
      const k = loaded[0];
      assert.ok(k.wasm && !k.wasm.threads && k.wasm.prefer, "a module with atomics that prefers to run, on one thread");
      assert.equal(k.workersRuns, 0, "no launch on the workers");
      assert.equal(hist.reduce((a, x) => a + x, 0), 10 * n);
    } finally { dev.close(); }
  });

  test("threads and parallel are checked; the default is GPUC_CPU_THREADS or the number of cores", async () => {
    for (const t of [0, 1.5, -1, 1000, "2"])
      await assert.rejects(device("cpu", { threads: t as number }), (e: unknown) => e instanceof CompileError && e.kind === "invalid-option" && /device\("cpu"\): threads must be/.test(e.message));
    await assert.rejects(device("cpu", { parallel: "sometimes" as "auto" }), (e: unknown) => e instanceof CompileError && e.kind === "invalid-option" && /parallel must be "auto" or "always"/.test(e.message));
    const d = await device("cpu");
    const { availableParallelism } = await import("node:os");
    assert.equal((d as unknown as { threads: number }).threads, process.env.GPUC_CPU_THREADS ? Number(process.env.GPUC_CPU_THREADS) : availableParallelism());
    d.close();
  });
});
