// Subgroups (issue #16, item 6): subgroupSize(), subgroupLaneId(), the shuffles, the reductions
// and the votes, on every device of the matrix (the CPU device: exact, subgroups of 32 or of its
// `subgroupSize` option; WebGPU: the adapter's subgroups, 8 lanes on lavapipe; the CPU run also
// assembles every kernel for sm_75 and sm_90 with ptxas). Each result is compared with a plain-JS
// model of the subgroup semantics (ir/module.ts SubgroupOp) at the device's own subgroup size.

import { after, describe, test } from "node:test";
import assert from "node:assert/strict";
import {
  kernel, device, shared, syncthreads, threadIdx, blockIdx, blockDim, gridDim,
  subgroupSize, subgroupLaneId, subgroupShuffle, subgroupBroadcast, subgroupShuffleDown, subgroupShuffleUp, subgroupShuffleXor,
  subgroupAdd, subgroupMin, subgroupMax, subgroupAny, subgroupAll, subgroupBallot, subgroupBarrier,
  type Device,
} from "../src/index.ts";
import { randI32, randF32, poisonI32, poisonF32, poisonU32, F, SENT_I, DEVICES, dtest, openDevices, kernelError, rejectsCompile } from "./helpers.ts";

await openDevices();
/** The CPU device at subgroups of 8 as well (the matrix's runs at 32): partial subgroups of both sizes. */
const cpu8 = await device("cpu", { subgroupSize: 8, threads: 1 });
after(() => cpu8.close());
const alsoOn = (kind: string, dev: Device): Device[] => (kind === "cpu" ? [dev, cpu8] : [dev]);

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

/**
 * One subgroup operation among the lanes that take part (`on[t]`) — the others are not there: a
 * reduction or vote is over the lanes taking part, a shuffle from one that does not (or past the
 * subgroup) gives the reader's own value. Meaningful for readers that take part.
 */
function among(S: number, on: readonly boolean[], vals: readonly number[]) {
  const m = subgroups(S, vals.map((x, t) => (on[t] ? x : undefined)));
  const ballot = (t: number, pred: (x: number) => boolean): number => {
    const b = t - (t % S);
    let r = 0;
    for (let j = 0; j < S && b + j < vals.length; j++) if (on[b + j] && pred(vals[b + j])) r |= 1 << j;
    return r | 0;
  };
  return { ...m, ballot };
}

describe("subgroups", () => {
  dtest("subgroupSize() and subgroupLaneId(): lanes are consecutive threads, in order of threadIdx.x, then y", async ({ dev }) => {
    const S = await sizeOf(dev);
    // (OpenCL C 1.2 has no subgroups: there each thread is a subgroup of one, in SPIR too.)
    assert.ok(dev.kind === "opencl" ? S === 1 : [8, 16, 32, 64].includes(S), `subgroup size ${S} on ${dev.name}`);
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

  test("the CPU device: a subgroup operation under a condition that differs within a subgroup is among the lanes where it holds", async () => {
    const dev = await device("cpu");
    try {
      const k = kernel(function sgDiverge(out: Int32Array) {
        const t = threadIdx.x;
        if (t % 2 === 0) {
          out[t] = subgroupAdd(t);
        }
      });
      const out = poisonI32(32);
      await k.launch(dev, { blocks: 1, threads: 32 }, out);
      assert.deepEqual([...out], Array.from({ length: 32 }, (_, t) => (t % 2 === 0 ? 240 : SENT_I)));
      // A barrier under such a condition is still an error (barriers are met by the whole block).
      const bad = kernel(function sgDivergeBarrier(out: Int32Array) {
        const t = threadIdx.x;
        if (t % 2 === 0) {
          out[t] = subgroupAdd(t);
          syncthreads();
        }
      });
      const err = await kernelError(bad.launch(dev, { blocks: 1, threads: 32 }, poisonI32(32)), "divergence");
      assert.match(err.message, /lang-subgroups\.test\.ts:\d+:\d+: syncthreads\(\) is reached under a condition that differs between the threads of a block \(thread \(1, 0, 0\) of block \(0, 0, 0\) disagrees with an earlier thread\)/);
      // The same condition, the same for every thread of each subgroup: fine.
      const ok = kernel(function sgUniform(out: Int32Array) {
        const t = threadIdx.x;
        if (((t / subgroupSize()) | 0) % 2 === 0) out[t] = subgroupAdd(1);
        else out[t] = -subgroupAdd(2);
      });
      const out2 = poisonI32(128);
      await ok.launch(dev, { blocks: 1, threads: 128 }, out2);
      assert.deepEqual([...out2], Array.from({ length: 128 }, (_, t) => (((t / 32) | 0) % 2 === 0 ? 32 : -64)));
    } finally { dev.close(); }
  });

  // Partial subgroups (issue #32, item 9): an operation is performed by the lanes that reach it
  // together, as CUDA's with __activemask(). Each test runs on the CPU device at subgroups of 32
  // and of 8, on WebGPU (8 lanes on lavapipe) and OpenCL (one lane); the CPU run assembles the PTX.
  dtest("partial subgroups: shuffles, broadcasts, reductions, votes and ballots under `if (lane < n)` and under a condition of each thread's data", async ({ kind, dev, same }) => {
    for (const d of alsoOn(kind, dev)) {
      const S = await sizeOf(d);
      const k = kernel(function sgUnderIf(out: Int32Array, v: Int32Array, keep: Int32Array, src: Int32Array, n: number) {
        const t = threadIdx.x, lane = subgroupLaneId(), x = v[t];
        if (lane < n) {
          out[t * 11] = subgroupShuffle(x, src[t]);
          out[t * 11 + 1] = subgroupShuffleDown(x, 1);
          out[t * 11 + 2] = subgroupShuffleUp(x, 1);
          out[t * 11 + 3] = subgroupAdd(x);
          out[t * 11 + 4] = subgroupBallot(x > 0);
        }
        if (keep[t] !== 0) {
          out[t * 11 + 5] = subgroupShuffleXor(x, 1);
          out[t * 11 + 6] = subgroupBroadcast(x, 1);
          out[t * 11 + 7] = subgroupMin(x);
          out[t * 11 + 8] = subgroupMax(x);
          out[t * 11 + 9] = subgroupAny(x > 40) ? 1 : 0;
          out[t * 11 + 10] = subgroupAll(x > -40) ? 1 : 0;
        }
      });
      const nt = 64, n = Math.max(1, S - 3);
      const v = randI32(201, nt, -50, 50), keep = randI32(202, nt, 0, 2), src = randI32(203, nt, 0, 40), out = poisonI32(11 * nt);
      await k.launch(d, { blocks: 1, threads: nt }, out, v, keep, src, n);
      const lanes = Array.from({ length: nt }, (_, t) => t % S < n), kept = Array.from(keep, (x) => x !== 0);
      const a = among(S, lanes, [...v]), b = among(S, kept, [...v]);
      const want = Array.from({ length: nt }, (_, t) => [
        ...(lanes[t] ? [a.shuffle(t, src[t])!, a.down(t, 1)!, a.up(t, 1)!, a.lanes(t).reduce((p, q) => p + q, 0), a.ballot(t, (x) => x > 0)] : Array(5).fill(SENT_I)),
        ...(kept[t] ? [b.xor(t, 1)!, b.shuffle(t, 1)!, Math.min(...b.lanes(t)), Math.max(...b.lanes(t)), b.lanes(t).some((x) => x > 40) ? 1 : 0, b.lanes(t).every((x) => x > -40) ? 1 : 0] : Array(6).fill(SENT_I)),
      ]).flat();
      same(out, want, `subgroups of ${S}`);
    }
  });

  dtest("partial subgroups: each side of an if/else among its own lanes (the then-side's, then the else-side's)", async ({ kind, dev, same }) => {
    for (const d of alsoOn(kind, dev)) {
      const S = await sizeOf(d);
      const k = kernel(function sgIfElse(out: Int32Array, v: Int32Array, keep: Int32Array) {
        const t = threadIdx.x, x = v[t];
        if (keep[t] !== 0) {
          out[t * 3] = subgroupAdd(x);
          out[t * 3 + 1] = subgroupShuffleDown(x, 2);
          out[t * 3 + 2] = subgroupBallot(true);
        } else {
          out[t * 3] = subgroupMax(x) * 2;
          out[t * 3 + 1] = subgroupShuffleXor(x, 3);
          out[t * 3 + 2] = subgroupBallot(true);
        }
      });
      const nt = 64, v = randI32(211, nt, -50, 50), keep = randI32(212, nt, 0, 2), out = poisonI32(3 * nt);
      await k.launch(d, { blocks: 1, threads: nt }, out, v, keep);
      const yes = Array.from(keep, (x) => x !== 0), no = yes.map((x) => !x);
      const a = among(S, yes, [...v]), b = among(S, no, [...v]);
      same(out, Array.from({ length: nt }, (_, t) => (yes[t]
        ? [a.lanes(t).reduce((p, q) => p + q, 0), a.down(t, 2)!, a.ballot(t, () => true)]
        : [Math.max(...b.lanes(t)) * 2, b.xor(t, 3)!, b.ballot(t, () => true)])).flat(), `subgroups of ${S}`);
    }
  });

  dtest("partial subgroups: loops whose trip count differs between lanes (a counted loop, a break, a continue) exchange among the lanes still in them", async ({ kind, dev, same }) => {
    for (const d of alsoOn(kind, dev)) {
      const S = await sizeOf(d);
      const k = kernel(function sgLoops(out: Int32Array, v: Int32Array, cnt: Int32Array) {
        const t = threadIdx.x;
        let s = v[t], a = 0;
        for (let i = 0; i < cnt[t]; i++) {
          s += subgroupShuffleDown(s, 1) & 15;
          a += subgroupAdd(1);
        }
        let w = v[t] & 63, k2 = 0;
        while (true) {
          k2++;
          if ((k2 + t) % 3 === 0) continue;
          w += 1 + (subgroupShuffleXor(w, 1) & 7);
          if (w > 100) break;
        }
        out[t * 4] = s;
        out[t * 4 + 1] = a;
        out[t * 4 + 2] = w;
        out[t * 4 + 3] = k2;
      });
      const nt = 64, v = randI32(221, nt, 0, 1000), cnt = randI32(222, nt, 0, 6), out = poisonI32(4 * nt);
      await k.launch(d, { blocks: 1, threads: nt }, out, v, cnt);
      // The plain-JS meaning, one iteration of the subgroup at a time over the lanes still in the loop.
      const s = [...v], a = new Array<number>(nt).fill(0);
      for (let i = 0; i < 6; i++) {
        const on = Array.from(cnt, (c) => c > i), m = among(S, on, s);
        const next = s.map((x, t) => (on[t] ? (x + (m.down(t, 1)! & 15)) | 0 : x));
        for (let t = 0; t < nt; t++) if (on[t]) { a[t] += m.lanes(t).length; s[t] = next[t]; }
      }
      const w = Array.from(v, (x) => x & 63), k2 = new Array<number>(nt).fill(0), left = new Array<boolean>(nt).fill(false);
      while (left.some((x) => !x)) {
        for (let t = 0; t < nt; t++) if (!left[t]) k2[t]++;
        const on = Array.from({ length: nt }, (_, t) => !left[t] && (k2[t] + t) % 3 !== 0), m = among(S, on, w);
        const next = w.map((x, t) => (on[t] ? x + 1 + (m.xor(t, 1)! & 7) : x));
        for (let t = 0; t < nt; t++) if (on[t]) { w[t] = next[t]; if (w[t] > 100) left[t] = true; }
      }
      same(out, Array.from({ length: nt }, (_, t) => [s[t], a[t], w[t], k2[t]]).flat(), `subgroups of ${S}`);
    }
  });

  test("the wgsl target: a shuffle that part of a subgroup may reach tests its source lane in a ballot; one the whole subgroup reaches compiles as before; PTX takes the active mask", async () => {
    const k = kernel(function sgReach(out: Int32Array, v: Int32Array, n: number) {
      const t = threadIdx.x, lane = subgroupLaneId();
      let s = v[t];
      // Uniform trip count, uniform conditions: the whole subgroup.
      for (let d = subgroupSize() >> 1; d > 0; d >>= 1) s += subgroupShuffleDown(s, d);
      if (n > 2) s += subgroupShuffleXor(s, 1);
      out[t] = s;
      // Part of it: a lane's own condition, a loop lanes leave apart, lanes that returned.
      if (lane < n) out[t] += subgroupShuffleUp(s, 1);
      for (let i = 0; i < v[t]; i++) s += subgroupShuffle(s, i);
      if (v[t] === 0) return;
      out[t] += subgroupShuffleDown(s, 2) + s;
    });
    const args = [poisonI32(4), poisonI32(4), 3] as const;
    const wgsl = (await k.compile({ target: "wgsl", args: [...args] })).code as string;
    assert.equal(wgsl.match(/subgroupShuffle\(/g)?.length, 5);
    assert.equal(wgsl.match(/subgroupBallot\(true\)/g)?.length, 3, "a ballot for each of the three shuffles part of a subgroup may reach");
    const ptx = (await k.compile({ target: "ptx", args: [...args] })).code as string;
    const shuffles = ptx.split("\n").filter((l) => l.includes("shfl.sync"));
    assert.equal(shuffles.length, 5);
    for (const l of shuffles) assert.match(l, /, 31, %r\d+;$/, "the member mask is a register (activemask), not a constant");
    assert.equal(ptx.match(/activemask\.b32/g)?.length, 5);
  });

  // cuda-samples 2_Concepts_and_Techniques/shfl_scan/shfl_scan.cu, shfl_scan_test as its authors
  // wrote it: a scan within each warp with __shfl_up_sync(mask, value, i, width), the warps' sums
  // through shared memory, and the same scan of those sums by the lanes of warp 0 that hold one
  // (`lane_id < blockDim.x / warpSize`: part of the warp). warpSize is subgroupSize(); the sample
  // launches with width = warpSize and blockDim.x = warpSize * (warps ≤ warpSize); `extern
  // __shared__ int sums[]` holds one int per warp; `partial_sums` may be NULL (null here).
  dtest("partial subgroups: cuda-samples shfl_scan's shfl_scan_test (the warp sums scanned by part of warp 0)", async ({ kind, dev, same }) => {
    for (const d of alsoOn(kind, dev)) {
      const S = await sizeOf(d);
      const shfl_scan_test = kernel(function shfl_scan_test(data: Int32Array, width: number, partial_sums: Int32Array | null) {
        const sums = shared(Int32Array, 32);
        const warpSize = subgroupSize();
        const id = blockIdx.x * blockDim.x + threadIdx.x;
        const lane_id = id % warpSize;
        // determine a warp_id within a block
        const warp_id = (threadIdx.x / warpSize) | 0;

        // Below is the basic structure of using a shfl instruction
        // for a scan.
        // Record "value" as a variable - we accumulate it along the way
        let value = data[id];

        // Now accumulate in log steps up the chain
        // compute sums, with another thread's value who is
        // distance delta away (i).  Note
        // those threads where the thread 'i' away would have
        // been out of bounds of the warp are unaffected.  This
        // creates the scan sum.
        for (let i = 1; i <= width; i *= 2) {
          const n = subgroupShuffleUp(value, i, width);

          if (lane_id >= i) value += n;
        }

        // value now holds the scan value for the individual thread
        // next sum the largest values for each warp

        // write the sum of the warp to smem
        if (threadIdx.x % warpSize === warpSize - 1) {
          sums[warp_id] = value;
        }

        syncthreads();

        //
        // scan sum the warp sums
        // the same shfl scan operation, but performed on warp sums
        //
        if (warp_id === 0 && lane_id < ((blockDim.x / warpSize) | 0)) {
          let warp_sum = sums[lane_id];

          for (let i = 1; i <= ((blockDim.x / warpSize) | 0); i *= 2) {
            const n = subgroupShuffleUp(warp_sum, i, (blockDim.x / warpSize) | 0);

            if (lane_id >= i) warp_sum += n;
          }

          sums[lane_id] = warp_sum;
        }

        syncthreads();

        // perform a uniform add across warps in the block
        // read neighbouring warp's sum and add it to threads value
        let blockSum = 0;

        if (warp_id > 0) {
          blockSum = sums[warp_id - 1];
        }

        value += blockSum;

        // Now write out our result
        data[id] = value;

        // last thread has the last value and all threads of the
        // sum have the same value
        if (partial_sums != null && threadIdx.x === blockDim.x - 1) {
          partial_sums[blockIdx.x] = value;
        }
      });
      // (OpenCL's subgroups are one lane: blocks of one warp of one thread.)
      const warps = Math.min(S, 8), threads = S * warps, blocks = 3, n = threads * blocks;
      const input = randI32(231, n, -1000, 1000), data = Int32Array.from(input), partial = poisonI32(blocks);
      await shfl_scan_test.launch(d, { blocks, threads }, data, S, partial);
      const want = new Int32Array(n);
      for (let b = 0; b < blocks; b++) for (let t = 0, acc = 0; t < threads; t++) want[b * threads + t] = acc += input[b * threads + t];
      same(data, want, `inclusive scans of blocks of ${threads} (subgroups of ${S})`);
      same(partial, Array.from({ length: blocks }, (_, b) => want[b * threads + threads - 1]));
      const again = Int32Array.from(input);
      await shfl_scan_test.launch(d, { blocks, threads }, again, S, null);
      same(again, want, "without partial_sums (NULL)");
    }
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
      assert.match(e.message, new RegExp(`subgroupShuffleUp: the width must be a power of two no more than subgroupSize\\(\\), got ${width} where subgroups have ${S} lanes`));
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

// cuda-samples reduction (2_Concepts_and_Techniques/reduction/reduction_kernel.cu), reduce6 as
// written: its template parameters blockSize and nIsPow2 are a kernel per case (a function making
// it, the values in its scope), `T *sdata = SharedMemory<T>()` sized as the host sizes it
// (smemSize: two warps' worth for a block of one), `tile32.shfl_down(mySum, offset)` a shuffle
// within 32 lanes, `offset /= 2` of the unsigned original `offset >>= 1`. Its last warp's
// shuffles assume 32-lane warps: where the device's subgroups have fewer lanes, the KernelError
// says so, with both sizes.
function makeReduce6(blockSize: number, nIsPow2: boolean) {
  return kernel(function reduce6(g_idata: Float32Array, g_odata: Float32Array, n: number) {
    const sdata = shared(Float32Array, blockSize <= 32 ? 2 * blockSize : blockSize);
    // perform first level of reduction, reading from global memory, writing to shared memory
    const tid = threadIdx.x;
    let gridSize = blockSize * gridDim.x;
    let mySum = 0;
    // we reduce multiple elements per thread
    if (nIsPow2) {
      let i = blockIdx.x * blockSize * 2 + threadIdx.x;
      gridSize = gridSize << 1;
      while (i < n) {
        mySum += g_idata[i];
        // ensure we don't read out of bounds -- this is optimized away for powerOf2 sized arrays
        if ((i + blockSize) < n) {
          mySum += g_idata[i + blockSize];
        }
        i += gridSize;
      }
    } else {
      let i = blockIdx.x * blockSize + threadIdx.x;
      while (i < n) {
        mySum += g_idata[i];
        i += gridSize;
      }
    }
    // each thread puts its local sum into shared memory
    sdata[tid] = mySum;
    syncthreads();
    // do reduction in shared mem
    if ((blockSize >= 512) && (tid < 256)) {
      sdata[tid] = mySum = mySum + sdata[tid + 256];
    }
    syncthreads();
    if ((blockSize >= 256) && (tid < 128)) {
      sdata[tid] = mySum = mySum + sdata[tid + 128];
    }
    syncthreads();
    if ((blockSize >= 128) && (tid < 64)) {
      sdata[tid] = mySum = mySum + sdata[tid + 64];
    }
    syncthreads();
    if (threadIdx.x < 32) {
      // Fetch final intermediate sum from 2nd warp
      if (blockSize >= 64) mySum += sdata[tid + 32];
      // Reduce final warp using shuffle
      for (let offset = 32 >> 1; offset > 0; offset >>= 1) {
        mySum += subgroupShuffleDown(mySum, offset, 32);
      }
    }
    // write result for this block to global mem
    if (threadIdx.x == 0) g_odata[blockIdx.x] = mySum;
  }, { scope: { blockSize, nIsPow2 } });
}

describe("ports with warp shuffles", () => {
  dtest("cuda-samples reduction's reduce6 (a kernel per blockSize and nIsPow2; tile32.shfl_down in the last warp)", async ({ dev }) => {
    const S = await sizeOf(dev);
    for (const [blockSize, n] of [[256, 1 << 16], [128, 50000], [64, 4096], [32, 1000]]) {
      const k = makeReduce6(blockSize, (n & (n - 1)) === 0);
      const x = Float32Array.from({ length: n }, (_, i) => (i % 7) - 3), out = new Float32Array(16);
      const run = () => k.launch(dev, { blocks: 16, threads: blockSize }, x, out, n);
      if (S < 32) {
        const e = await kernelError(run(), "exception");
        assert.match(e.message, new RegExp(`subgroupShuffleDown: the width must be a power of two no more than subgroupSize\\(\\), got 32 where subgroups have ${S} lanes`));
        continue;
      }
      await run();
      // Small integers: every order of the additions gives the exact sum.
      assert.equal(out.reduce((a, b) => a + b, 0), x.reduce((a, b) => a + b, 0), `blockSize ${blockSize}, n ${n}`);
    }
  });
});
