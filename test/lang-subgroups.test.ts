// Subgroups (issue #16, item 6): subgroupSize(), subgroupLaneId(), the shuffles, the reductions
// and the votes, on every device of the matrix (the CPU device: exact, subgroups of 32 or of its
// `subgroupSize` option; WebGPU: the adapter's subgroups, 8 lanes on lavapipe; the CPU run also
// assembles every kernel for sm_75 and sm_90 with ptxas). Each result is compared with a plain-JS
// model of the subgroup semantics (ir/module.ts SubgroupOp) at the device's own subgroup size.

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import {
  kernel, device, shared, syncthreads, threadIdx, blockIdx, blockDim,
  subgroupSize, subgroupLaneId, subgroupShuffle, subgroupBroadcast, subgroupShuffleDown, subgroupShuffleUp, subgroupShuffleXor,
  subgroupAdd, subgroupMin, subgroupMax, subgroupAny, subgroupAll, subgroupBallot, subgroupBarrier,
  type Device,
} from "../src/index.ts";
import { randI32, randF32, poisonI32, poisonF32, poisonU32, F, SENT_I, DEVICES, dtest, openDevices, kernelError, rejectsCompile } from "./helpers.ts";

await openDevices();

const sizeKernel = kernel(function sgSize(out: Int32Array) {
  out[threadIdx.x] = subgroupSize() * 1000 + subgroupLaneId();
});

/** The device's subgroup size (and a check that lanes are consecutive threads in order). */
async function sizeOf(dev: Device): Promise<number> {
  const out = poisonI32(64);
  await sizeKernel.launch(dev, { blocks: 1, threads: 64 }, out);
  const s = Math.floor(out[0] / 1000);
  for (let t = 0; t < 64; t++) assert.equal(out[t], s * 1000 + (t % s), `thread ${t}: lanes follow the linear thread id`);
  return s;
}

/**
 * The plain-JS meaning of a block's subgroups: `vals[t]` per thread of a block of `nt` threads
 * (undefined: the thread returned before the operation and takes no part).
 */
function subgroups(S: number, vals: (number | undefined)[]) {
  const nt = vals.length;
  const part = (t: number, j: number): number | undefined => {
    const b = t - (t % S), n = Math.min(S, nt - b);
    return j >= 0 && j < n ? vals[b + j] : undefined;
  };
  const lane = (t: number) => t % S;
  const read = (t: number, j: number) => part(t, j) ?? vals[t];
  const lanes = (t: number) => { const b = t - (t % S); return vals.slice(b, Math.min(nt, b + S)).filter((v): v is number => v !== undefined); };
  return {
    shuffle: (t: number, l: number) => read(t, (l >>> 0) % S),
    down: (t: number, d: number) => (d >>> 0 < S - lane(t) ? read(t, lane(t) + (d >>> 0)) : vals[t]),
    up: (t: number, d: number) => (d >>> 0 <= lane(t) ? read(t, lane(t) - (d >>> 0)) : vals[t]),
    xor: (t: number, m: number) => { const j = (lane(t) ^ m) >>> 0; return j < S ? read(t, j) : vals[t]; },
    lanes,
  };
}

describe("subgroups", () => {
  dtest("subgroupSize() and subgroupLaneId(): lanes are consecutive threads, in order of threadIdx.x, then y", async ({ dev }) => {
    const S = await sizeOf(dev);
    // (OpenCL C 1.2 has no subgroups: there each thread is a subgroup of one.)
    assert.ok(dev.target === "opencl" ? S === 1 : [8, 16, 32, 64].includes(S), `subgroup size ${S} on ${dev.name}`);
    const k = kernel(function sgLane2d(out: Int32Array) {
      out[threadIdx.y * blockDim.x + threadIdx.x] = subgroupLaneId();
    });
    const out = poisonI32(64);
    await k.launch(dev, { blocks: 1, threads: [16, 4] }, out);
    assert.deepEqual([...out], Array.from({ length: 64 }, (_, t) => t % S));
  });

  dtest("shuffles: by lane (mod the size), down, up, xor and broadcast; the reader's own value outside the subgroup", async ({ dev, same }) => {
    const S = await sizeOf(dev);
    const k = kernel(function sgShuffles(out: Int32Array, v: Int32Array, d: Int32Array) {
      const t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
      const x = v[i], n = d[i];
      out[i * 6] = subgroupShuffle(x, n);
      out[i * 6 + 1] = subgroupShuffleDown(x, n & 7);
      out[i * 6 + 2] = subgroupShuffleUp(x, n & 7);
      out[i * 6 + 3] = subgroupShuffleXor(x, n & 15);
      out[i * 6 + 4] = subgroupBroadcast(x, 1);
      out[i * 6 + 5] = subgroupShuffle(x, -1);
    });
    const nt = 64, blocks = 2;
    const v = randI32(5, nt * blocks, -1000, 1000), d = randI32(6, nt * blocks, 0, 40), out = poisonI32(6 * nt * blocks);
    await k.launch(dev, { blocks, threads: nt }, out, v, d);
    const want: number[] = [];
    for (let b = 0; b < blocks; b++) {
      const m = subgroups(S, [...v.subarray(b * nt, (b + 1) * nt)]);
      for (let t = 0; t < nt; t++) {
        const n = d[b * nt + t];
        want.push(m.shuffle(t, n)!, m.down(t, n & 7)!, m.up(t, n & 7)!, m.xor(t, n & 15)!, m.shuffle(t, 1)!, m.shuffle(t, -1)!);
      }
    }
    same(out, want);
  });

  dtest("shuffles of f32 and bool values, and lane distances past the subgroup", async ({ dev, same }) => {
    const S = await sizeOf(dev);
    const k = kernel(function sgTypes(out: Float32Array, flags: Int32Array, v: Float32Array) {
      const t = threadIdx.x;
      out[t * 2] = subgroupShuffleDown(v[t], 1);
      out[t * 2 + 1] = subgroupShuffleUp(v[t], 1000);
      flags[t] = subgroupShuffleXor(v[t] > 0, 1) ? 1 : 0;
    });
    const nt = 32, v = randF32(8, nt, -4, 4), out = poisonF32(2 * nt), flags = poisonI32(nt);
    await k.launch(dev, { blocks: 1, threads: nt }, out, flags, v);
    const m = subgroups(S, [...v]), mb = subgroups(S, [...v].map((x) => (x > 0 ? 1 : 0)));
    same(out, Array.from({ length: nt }, (_, t) => [m.down(t, 1)!, m.up(t, 1000)!]).flat());
    same(flags, Array.from({ length: nt }, (_, t) => mb.xor(t, 1)!));
  });

  dtest("reductions and votes: add, min, max on i32, u32 and f32; any, all, ballot", async ({ dev, same }) => {
    const S = await sizeOf(dev);
    const k = kernel(function sgReduce(oi: Int32Array, ou: Uint32Array, of: Float32Array, vi: Int32Array, vu: Uint32Array, vf: Float32Array) {
      const t = threadIdx.x;
      oi[t * 3] = subgroupAdd(vi[t]);
      oi[t * 3 + 1] = subgroupMin(vi[t]);
      oi[t * 3 + 2] = subgroupMax(vi[t]);
      ou[t * 4] = subgroupAdd(vu[t]);
      ou[t * 4 + 1] = subgroupMin(vu[t]);
      ou[t * 4 + 2] = subgroupMax(vu[t]);
      ou[t * 4 + 3] = subgroupBallot(vi[t] > 0);
      of[t * 3] = subgroupAdd(vf[t]);
      of[t * 3 + 1] = subgroupMin(vf[t]);
      of[t * 3 + 2] = subgroupMax(vf[t]);
    });
    const nt = 64;
    const vi = randI32(11, nt, -1000, 1000), vf = Float32Array.from(randI32(12, nt, -500, 500), (x) => x / 4);
    const vu = Uint32Array.from(randI32(13, nt, 0, 1 << 30), (x, i) => (i % 5 === 0 ? 0xffffff00 + i : x));
    const oi = poisonI32(3 * nt), ou = poisonU32(4 * nt), of = poisonF32(3 * nt);
    await k.launch(dev, { blocks: 1, threads: nt }, oi, ou, of, vi, vu, vf);
    const wi: number[] = [], wu: number[] = [], wf: number[] = [];
    for (let t = 0; t < nt; t++) {
      const li = subgroups(S, [...vi]).lanes(t), lu = subgroups(S, [...vu]).lanes(t), lf = subgroups(S, [...vf]).lanes(t);
      wi.push(li.reduce((a, b) => (a + b) | 0, 0), Math.min(...li), Math.max(...li));
      let ballot = 0;
      li.forEach((x, j) => { if (x > 0) ballot |= 1 << j; });
      wu.push(lu.reduce((a, b) => (a + b) >>> 0, 0), Math.min(...lu), Math.max(...lu), ballot >>> 0);
      wf.push(lf.reduce((a, b) => F(a + b), -0), Math.min(...lf), Math.max(...lf));
    }
    same(oi, wi);
    same(ou, wu);
    same(of, wf);
    const kv = kernel(function sgVotes(o: Int32Array, v: Int32Array) {
      const t = threadIdx.x;
      o[t * 2] = subgroupAny(v[t] === 3) ? 1 : 0;
      o[t * 2 + 1] = subgroupAll(v[t] !== 5) ? 1 : 0;
    });
    const vv = Int32Array.from({ length: nt }, (_, t) => (t === 9 ? 3 : t === 40 ? 5 : 0)), ov = poisonI32(2 * nt);
    await kv.launch(dev, { blocks: 1, threads: nt }, ov, vv);
    const m = subgroups(S, [...vv]);
    same(ov, Array.from({ length: nt }, (_, t) => [m.lanes(t).includes(3) ? 1 : 0, m.lanes(t).includes(5) ? 0 : 1]).flat());
  });

  dtest("a warp-shuffle block reduction: shuffle-down within subgroups, partials through shared memory, the first subgroup finishes", async ({ dev, same }) => {
    const k = kernel(function blockSum(out: Int32Array, v: Int32Array, n: number) {
      const partials = shared(Int32Array, 32);
      const t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
      const S = subgroupSize(), lane = subgroupLaneId(), warp = (t / S) | 0, warps = ((blockDim.x + S - 1) / S) | 0;
      let s = i < n ? v[i] : 0;
      for (let d = S >> 1; d > 0; d >>= 1) s += subgroupShuffleDown(s, d);
      if (lane === 0) partials[warp] = s;
      syncthreads();
      if (warp === 0) {
        let w = 0;
        for (let j = lane; j < warps; j += S) w += partials[j];
        for (let d = S >> 1; d > 0; d >>= 1) w += subgroupShuffleDown(w, d);
        if (lane === 0) out[blockIdx.x] = w;
      }
    });
    // (At most 32 subgroups per block, as the kernel's partials hold: 32 threads where a subgroup is one thread, OpenCL's.)
    const S = await sizeOf(dev);
    const n = 1000, nt = Math.min(256, 32 * S), blocks = Math.ceil(n / nt);
    const v = randI32(21, n, -100000, 100000), out = poisonI32(blocks);
    await k.launch(dev, { blocks, threads: nt }, out, v, n);
    same(out, Array.from({ length: blocks }, (_, b) => v.subarray(b * nt, Math.min(n, (b + 1) * nt)).reduce((a, x) => (a + x) | 0, 0)));
  });

  dtest("threads that returned early take no part in a reduction", async ({ dev, same }) => {
    const S = await sizeOf(dev);
    const k = kernel(function sgEarly(out: Int32Array, v: Int32Array, keep: Int32Array) {
      const t = threadIdx.x;
      if (keep[t] === 0) return;
      out[t] = subgroupAdd(v[t]) * 100 + subgroupMax(subgroupLaneId());
    });
    const nt = 64, v = randI32(31, nt, -50, 50), keep = randI32(32, nt, 0, 3), out = poisonI32(nt);
    await k.launch(dev, { blocks: 1, threads: nt }, out, v, keep);
    const m = subgroups(S, [...v].map((x, t) => (keep[t] ? x : undefined)));
    const ml = subgroups(S, Array.from({ length: nt }, (_, t) => (keep[t] ? t % S : undefined)));
    same(out, Array.from({ length: nt }, (_, t) => (keep[t] ? m.lanes(t).reduce((a, b) => a + b, 0) * 100 + Math.max(...ml.lanes(t)) : SENT_I)));
  });

  test("the CPU device: a partial last subgroup, its subgroupSize option, f64, NaN and signed zeros", async () => {
    for (const S of [32, 8, 1]) {
      const dev = await device("cpu", { subgroupSize: S });
      try {
        const k = kernel(function sgCpu(out: Float64Array, v: Float64Array) {
          const t = threadIdx.x;
          out[t * 4] = subgroupShuffleDown(v[t], 3);
          out[t * 4 + 1] = subgroupAdd(v[t]);
          out[t * 4 + 2] = subgroupMin(v[t]);
          out[t * 4 + 3] = subgroupMax(v[t]);
        });
        const nt = 44, v = Float64Array.from({ length: nt }, (_, t) => (t === 5 ? -0 : t === 6 ? 0 : t === 39 ? NaN : (t * 37) % 11 - 5.5));
        const out = new Float64Array(4 * nt).fill(1234);
        await k.launch(dev, { blocks: 1, threads: nt }, out, v);
        const m = subgroups(S, [...v]);
        const want = Array.from({ length: nt }, (_, t) => { const l = m.lanes(t); return [m.down(t, 3)!, l.reduce((a, b) => a + b, -0), Math.min(...l), Math.max(...l)]; }).flat();
        assert.deepEqual([...out], want, `subgroups of ${S}`);
      } finally { dev.close(); }
    }
    await assert.rejects(device("cpu", { subgroupSize: 12 }), /subgroupSize must be 1, 2, 4, 8, 16 or 32, got 12/);
  });

  test("the CPU device: a subgroup operation under a condition that differs within a subgroup is an error at its line", async () => {
    const dev = await device("cpu");
    try {
      const k = kernel(function sgDiverge(out: Int32Array) {
        const t = threadIdx.x;
        if (t % 2 === 0) {
          out[t] = subgroupAdd(t);
        }
      });
      const err = await kernelError(k.launch(dev, { blocks: 1, threads: 32 }, poisonI32(32)), "exception");
      assert.match(err.message, /lang-subgroups\.test\.ts:\d+:\d+: a subgroup operation is reached under a condition that differs between the threads of a subgroup \(thread \(1, 0, 0\) of block \(0, 0, 0\) disagrees with an earlier thread of its subgroup of 32\)/);
      // The same condition, the same for every thread of each subgroup: fine.
      const ok = kernel(function sgUniform(out: Int32Array) {
        const t = threadIdx.x;
        if (((t / subgroupSize()) | 0) % 2 === 0) out[t] = subgroupAdd(1);
        else out[t] = -subgroupAdd(2);
      });
      const out = poisonI32(128);
      await ok.launch(dev, { blocks: 1, threads: 128 }, out);
      assert.deepEqual([...out], Array.from({ length: 128 }, (_, t) => (((t / 32) | 0) % 2 === 0 ? 32 : -64)));
    } finally { dev.close(); }
  });

  test("CompileErrors: a float lane, a subgroup operation in a switch, arity, an array operand", async () => {
    const ta = [new Int32Array(4)];
    await rejectsCompile(kernel(function bad1(o: Int32Array) { o[0] = subgroupShuffleDown(o[1], 16 / 2 + 0.5); }).compile({ target: "js", args: ta }),
      "type", /lang-subgroups\.test\.ts:\d+:\d+: subgroupShuffleDown: the lane distance must be an integer, got f32/);
    await rejectsCompile(kernel(function bad2(o: Int32Array) { switch (o[0]) { case 1: o[1] = subgroupAdd(1); break; } }).compile({ target: "js", args: ta }),
      "unsupported-syntax", /subgroupAdd\(\) inside a switch is not supported/);
    await rejectsCompile(kernel(function bad3(o: Int32Array) { o[0] = (subgroupShuffle as (v: number) => number)(o[1]); }).compile({ target: "js", args: ta }),
      "type", /subgroupShuffle takes 2 arguments \(and a width\), got 1/);
    await rejectsCompile(kernel(function bad4(o: Int32Array) { o[0] = subgroupAdd(o as never); }).compile({ target: "js", args: ta }),
      "type", /expected a number or boolean, got an array/);
  });

  test("the opencl target: subgroups of one thread (OpenCL C 1.2 has none): a shuffle reads the thread's own value, a reduction is of its value, a ballot is bit 0", async () => {
    const k = kernel(function sgOpenCL(out: Int32Array, f: Float32Array) {
      const t = threadIdx.x;
      out[t] = subgroupAdd(t) + subgroupShuffleDown(t, 1) * 10 + subgroupSize() * 100 + subgroupLaneId() * 1000;
      out[t + 8] = subgroupBallot(t % 2 === 0);
      f[t] = subgroupMin(f[t]);
    });
    const a = await k.compile({ target: "opencl", args: [poisonI32(16), poisonF32(8)] });
    const code = a.code as string;
    assert.doesNotMatch(code, /sub_group/, "no OpenCL 2 subgroup built-ins");
    assert.match(code, /\? 1u : 0u\)/, "a ballot is its own bit");
  });

  test("WebGPU without the 'subgroups' feature: a CompileError of kind unsupported-feature at the kernel's first subgroup operation", { skip: DEVICES.includes("webgpu") ? false : "SKIPPED: no WebGPU in the device matrix" }, async () => {
    // Dawn's adapter, seen without the feature (a real device, opened without it).
    const { create, globals } = (await import("webgpu")) as unknown as { create: (o: string[]) => GPU; globals: object };
    Object.assign(globalThis, globals);
    const dawn = create([]);
    const gpu = {
      async requestAdapter(o?: GPURequestAdapterOptions) {
        const a = (await dawn.requestAdapter(o))!;
        return { features: new Set([...a.features].filter((f) => f !== "subgroups")), limits: a.limits, info: a.info, requestDevice: (d?: GPUDeviceDescriptor) => a.requestDevice(d) };
      },
    } as unknown as GPU;
    const dev = await device("webgpu", { gpu });
    try {
      const k = kernel(function sgNoFeature(out: Int32Array) {
        const t = threadIdx.x;
        out[t] = t;
        out[t] += subgroupAdd(t);
      });
      const err = await rejectsCompile(k.launch(dev, { blocks: 1, threads: 8 }, poisonI32(8)), "unsupported-feature",
        /kernel 'sgNoFeature' uses subgroup operations, which this WebGPU adapter \(WebGPU \(.*\)\) does not offer \(no 'subgroups' feature\)/);
      assert.match(err.message, /^.*lang-subgroups\.test\.ts:\d+:\d+:/);
      assert.equal(err.location?.line, Number(/lang-subgroups\.test\.ts:(\d+)/.exec(err.message)![1]));
      // A kernel without subgroups runs there.
      const plain = kernel(function sgNone(out: Int32Array) { out[threadIdx.x] = 7; });
      const out = poisonI32(4);
      await plain.launch(dev, { blocks: 1, threads: 4 }, out);
      assert.deepEqual([...out], [7, 7, 7, 7]);
    } finally { dev.close(); }
  });

  test("host calls of the subgroup functions say they are kernel-only", () => {
    assert.throws(() => subgroupAdd(1), /subgroupAdd\(\) is only callable inside a kernel/);
    assert.throws(() => subgroupLaneId(), /subgroupLaneId\(\) is only callable inside a kernel/);
  });

  // cuda-samples 2_Concepts_and_Techniques/shfl_scan, shfl_scan.cu: shfl_scan_test's scan within a
  // warp, `__shfl_up_sync(mask, value, i, width)` for i = 1, 2, 4 … width, here at the widest
  // width the device's subgroups hold up to 4 (OpenCL's are one lane); and the other shuffles with
  // a width, against the plain-JS meaning of CUDA's segments.
  dtest("shuffles within a width (CUDA's width argument): shfl_scan's segmented scan, and shuffle/down/xor within segments", async ({ dev, same }) => {
    const S = await sizeOf(dev), W = Math.min(4, S);
    const k = kernel(function shflScan(out: Int32Array, o2: Int32Array, data: Int32Array, width: number) {
      const id = blockIdx.x * blockDim.x + threadIdx.x;
      const lane_id = id % subgroupSize();
      let value = data[id];
      for (let i = 1; i <= width; i *= 2) {
        const n = subgroupShuffleUp(value, i, width);
        if (lane_id % width >= i) value += n;
      }
      out[id] = value;
      const v = data[id];
      o2[id * 3] = subgroupShuffle(v, id + 1, width);
      o2[id * 3 + 1] = subgroupShuffleDown(v, 1, width);
      o2[id * 3 + 2] = subgroupShuffleXor(v, width === 1 ? 0 : 3, width);
    });
    const n = 64, data = randI32(171, n, -100, 100), out = poisonI32(n), o2 = poisonI32(n * 3);
    await k.launch(dev, { blocks: 2, threads: 32 }, out, o2, data, W);
    const want = new Int32Array(n), want2 = new Int32Array(n * 3);
    for (let id = 0; id < n; id++) {
      const seg = id - (id % W), pos = id % W, sub = id - (id % S);
      let s = 0;
      for (let j = seg; j <= id; j++) s += data[j];
      want[id] = s;
      want2[id * 3] = data[seg + ((id + 1) % W)];
      want2[id * 3 + 1] = pos + 1 < W ? data[id + 1] : data[id];
      const x = (id % S) ^ (W === 1 ? 0 : 3);
      // xor: an earlier segment may be read, a later one gives the reader's own value.
      want2[id * 3 + 2] = x < (id % S) - pos + W ? data[sub + x] : data[id];
    }
    same(out, want, `scan within segments of ${W} (subgroups of ${S})`);
    same(o2, want2, `shuffles within segments of ${W}`);
  });

  dtest("a width the subgroups cannot hold (more lanes than subgroupSize(), or not a power of two) is a KernelError at the call", async ({ dev }) => {
    const S = await sizeOf(dev);
    const k = kernel(function tooWide(out: Int32Array, width: number) {
      out[threadIdx.x] = subgroupShuffleUp(threadIdx.x, 1, width);
    });
    for (const width of [S * 2, 3]) {
      if (width === 3 && S < 4) continue;
      const e = await kernelError(k.launch(dev, { blocks: 1, threads: 32 }, poisonI32(32), width), "exception");
      assert.match(e.message, /subgroupShuffleUp: the width must be a power of two no more than subgroupSize\(\)/);
    }
  });

  // A warp's exchange through shared memory with __syncwarp() between the store and the read
  // (cuda-samples' warp-synchronous code after Volta: stores, __syncwarp(), loads of another lane's).
  dtest("subgroupBarrier() (CUDA's __syncwarp()): lanes exchange through shared memory (a CompileError on WGSL)", async ({ dev, wgsl, same }) => {
    const S = await sizeOf(dev);
    const k = kernel(function warpExchange(out: Int32Array, x: Int32Array) {
      const t = threadIdx.x, lane = subgroupLaneId(), base = t - lane;
      const s = shared(Int32Array, 64);
      s[t] = x[t] * 3;
      subgroupBarrier();
      out[t] = s[base + ((lane + 1) % subgroupSize())];
    });
    const x = randI32(181, 64, -50, 50), out = poisonI32(64);
    const run = () => k.launch(dev, { blocks: 1, threads: 64 }, out, x);
    if (wgsl) return rejectsCompile(run(), "unsupported-feature", /subgroupBarrier\(\) is not available on the wgsl target \(WGSL has no subgroup barrier\)/);
    await run();
    same(out, Array.from({ length: 64 }, (_, t) => x[t - (t % S) + (((t % S) + 1) % S)] * 3));
  });
});
