// Narrow integer arrays (issue #16, item 5): Int8Array, Uint8Array, Uint8ClampedArray, Int16Array
// and Uint16Array as parameters, shared and private arrays, and under Atomics. Stores convert as
// the typed array converts (ToInt8/ToUint8/ToInt16/ToUint16 wrap; Uint8ClampedArray clamps and
// rounds ties to even, NaN → 0); loads are i32 values, so arithmetic on them is JavaScript's.
// Each result is compared with plain JavaScript running the same function over typed arrays.
//
// Every test runs on each device of the matrix (helpers.ts: `dtest`: the CPU device and WebGPU —
// where narrow arrays are packed in u32 words and every store is a compare-exchange on its word —
// and CUDA where present; the CPU run also compiles each kernel to PTX and assembles it with
// ptxas: ld/st .s8/.u8/.s16/.u16, atomics as a compare-and-swap loop on the word).

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { kernel, shared, syncthreads, threadIdx, blockIdx, blockDim, atomicAdd, atomicMin, CompileError, type DeviceArray } from "../src/index.ts";
import { dtest, openDevices, rejectsCompile, lineOfIn, prng } from "./helpers.ts";

await openDevices();
const lineOf = lineOfIn(import.meta.url);

const NARROW = [Int8Array, Uint8Array, Uint8ClampedArray, Int16Array, Uint16Array] as const;
const EDGES = [-129, -128, 127, 128, 255, 256, 65535, 65536, -1, 2.5, 0.5, 1.5, 254.5, NaN, Infinity, -Infinity, -0, 3.5, -2.5, 0.49999997, 253.5, 1e10, -1e10, 32767, 32768, -32769];

/** Element i of `x` stored into `o`, read back as an i32 value into `back`, and arithmetic on it. */
function storeAndRead(i: number, o: any, x: any, back: Int32Array, sums: Int32Array) {
  if (i < x.length) {
    o[i] = x[i];
    back[i] = o[i];
    sums[i] = o[i] * 1000 + (o[i] >> 1) - (o[i] >>> 28);
  }
}
/** Compound assignment and increments on elements: each converts as the typed array stores. */
function compound(i: number, a: any, old: Int32Array) {
  if (i < a.length) {
    a[i] += 200;
    a[i] -= i * 3;
    old[i] = a[i]++;
    a[i] *= 3;
  }
}

describe("narrow arrays as parameters", () => {
  for (const C of NARROW) {
    dtest(`${C.name}: stores of edge values (f32, f64, i32, u32 sources) convert as the typed array does; loads are i32`, async ({ dev, kind }) => {
      const k = kernel(function narrowStore(o: any, x: any, back: Int32Array, sums: Int32Array) {
        storeAndRead(blockIdx.x * blockDim.x + threadIdx.x, o, x, back, sums);
      }, { scope: { storeAndRead } });
      const sources: ArrayLike<number>[] = [Float32Array.from(EDGES), Int32Array.from(EDGES.map((v) => v | 0)), Uint32Array.from(EDGES.map((v) => v >>> 0))];
      if (kind !== "webgpu") sources.push(Float64Array.from(EDGES));
      for (const x of sources) {
        const n = x.length;
        const o = new C(n).fill(77), back = new Int32Array(n).fill(-5), sums = new Int32Array(n);
        const ro = new C(n).fill(77), rback = new Int32Array(n).fill(-5), rsums = new Int32Array(n);
        for (let i = 0; i < n; i++) storeAndRead(i, ro, x, rback, rsums);
        await k.launch(dev, { blocks: 2, threads: 16 }, o, x, back, sums);
        const what = `${C.name} from ${x.constructor.name}`;
        assert.deepEqual(Array.from(o), Array.from(ro), `${what}: stored`);
        assert.deepEqual(Array.from(back), Array.from(rback), `${what}: read back`);
        assert.deepEqual(Array.from(sums), Array.from(rsums), `${what}: arithmetic on loads`);
      }
    });

    dtest(`${C.name}: compound assignment and ++ wrap (or clamp) as the typed array does`, async ({ dev }) => {
      const k = kernel(function narrowCompound(a: any, old: Int32Array) {
        compound(blockIdx.x * blockDim.x + threadIdx.x, a, old);
      }, { scope: { compound } });
      const r = prng(7);
      const a = C.from(Array.from({ length: 45 }, () => r.int(-70000, 70000))), ra = C.from(a);
      const old = new Int32Array(45), rold = new Int32Array(45);
      for (let i = 0; i < 45; i++) compound(i, ra, rold);
      await k.launch(dev, { blocks: 3, threads: 16 }, a, old);
      assert.deepEqual(Array.from(a), Array.from(ra));
      assert.deepEqual(Array.from(old), Array.from(rold));
    });
  }

  dtest("threads write neighbouring elements at once: every byte of an odd-length Uint8Array and every Int16 survives", async ({ dev }) => {
    const k = kernel(function ownElement(b: Uint8Array, h: Int16Array, c: Uint8ClampedArray) {
      const i = blockIdx.x * blockDim.x + threadIdx.x;
      if (i < b.length) b[i] = i * 7 + 1;
      if (i < h.length) h[i] = i * 331 - 20000;
      if (i < c.length) c[i] = i - 300;
    });
    for (let round = 0; round < 3; round++) {
      const b = new Uint8Array(1021), h = new Int16Array(1021).fill(5), c = new Uint8ClampedArray(1021).fill(9);
      await k.launch(dev, { blocks: 16, threads: 64 }, b, h, c);
      assert.deepEqual(Array.from(b), Array.from({ length: 1021 }, (_, i) => (i * 7 + 1) & 255));
      assert.deepEqual(Array.from(h), Array.from(Int16Array.from({ length: 1021 }, (_, i) => i * 331 - 20000)));
      assert.deepEqual(Array.from(c), Array.from(Uint8ClampedArray.from({ length: 1021 }, (_, i) => i - 300)));
    }
  });

  dtest("declared types u8[], u8c[], i16[]: compile by type name; a typed array of another element type is refused", async ({ dev }) => {
    const k = kernel(function declared(o: Uint8Array, x: Int16Array) { o[threadIdx.x] = x[threadIdx.x]; });
    const art = await k.compile({ target: "js", types: ["u8[]", "i16[]"] });
    assert.deepEqual(art.params.map((p) => p.type), ["u8[]", "i16[]"]);
    const art2 = await k.compile({ target: "wgsl", types: { o: "u8c[]", x: "u16[]" } });
    assert.deepEqual(art2.params.map((p) => p.type), ["u8c[]", "u16[]"]);
    await assert.rejects(k.launch(dev, { blocks: 1, threads: 1 }, new Int8Array(1), new Int16Array(1)),
      (e: unknown) => e instanceof CompileError && e.kind === "argument-type" && /argument 'o' of kernel 'declared' is declared u8\[\] but got Int8Array/.test(e.message));
    await assert.rejects(k.compile({ target: "js", types: ["u8", "i16[]"] }), (e: unknown) => e instanceof CompileError && e.kind === "invalid-option");
  });
});

describe("narrow shared and private arrays", () => {
  dtest("shared Uint8Array and Int16Array of odd size: each thread writes its own element, reads its neighbours after a barrier", async ({ dev }) => {
    const k = kernel(function sharedNeighbours(o: Int32Array) {
      const t = threadIdx.x;
      const s = shared(Uint8Array, 37);
      const h = shared(Int16Array, 37);
      if (t < 37) { s[t] = t * 9 + 200; h[t] = -t * 1000; }
      syncthreads();
      if (t < 37) o[blockIdx.x * 37 + t] = s[(t + 1) % 37] + s[(t + 36) % 37] * 1000 + h[(t + 2) % 37] * 1000000;
    });
    const o = new Int32Array(3 * 37);
    await k.launch(dev, { blocks: 3, threads: 64 }, o);
    const s = Uint8Array.from({ length: 37 }, (_, t) => t * 9 + 200), h = Int16Array.from({ length: 37 }, (_, t) => -t * 1000);
    const want = Array.from({ length: 37 }, (_, t) => (s[(t + 1) % 37] + s[(t + 36) % 37] * 1000 + h[(t + 2) % 37] * 1000000) | 0);
    assert.deepEqual(Array.from(o), [...want, ...want, ...want]);
  });

  dtest("a shared Uint8Array sized at launch (blockDim.x + 3 elements)", async ({ dev }) => {
    const k = kernel(function sharedSizedAtLaunch(o: Int32Array) {
      const t = threadIdx.x;
      const s = shared(Uint8Array, blockDim.x + 3);
      s[t] = t + 250;
      if (t < 3) s[blockDim.x + t] = 7;
      syncthreads();
      o[t] = s[(t + 1) % s.length] + s.length * 1000;
    });
    for (const n of [29, 64]) {
      const o = new Int32Array(n);
      await k.launch(dev, { blocks: 1, threads: n }, o);
      const s = new Uint8Array(n + 3).map((_, t) => (t < n ? t + 250 : 7));
      assert.deepEqual(Array.from(o), Array.from({ length: n }, (_, t) => s[(t + 1) % (n + 3)] + (n + 3) * 1000));
    }
  });

  dtest("private narrow arrays (new Int8Array(n), new Uint8ClampedArray(n)) keep their element types", async ({ dev }) => {
    function privateWork(i: number, x: Float32Array, o: Int32Array) {
      const a = new Int8Array(5);
      const c = new Uint8ClampedArray(3);
      const w = new Uint16Array(2);
      for (let j = 0; j < 5; j++) a[j] = x[i] * (j + 1) * 40;
      c[0] = x[i] * 100; c[1] = -x[i]; c[2] = x[i] + 0.5;
      w[0] = x[i] * -1000; w[1] = w[0] + 70000;
      a[1] += 100;
      o[i] = a[0] + a[1] * 256 + a[4] * 65536 + c[0] + c[1] * 3 + c[2] * 7 + w[0] + w[1] * 11;
    }
    const k = kernel(function privateNarrow(x: Float32Array, o: Int32Array) {
      const i = threadIdx.x;
      if (i < x.length) privateWork(i, x, o);
    }, { scope: { privateWork } });
    const x = Float32Array.from([0, 1, -1, 2.5, 3.5, -7.25, 100, 0.5, 1.5, NaN, Infinity]);
    const o = new Int32Array(x.length), ro = new Int32Array(x.length);
    for (let i = 0; i < x.length; i++) privateWork(i, x, ro);
    await k.launch(dev, { blocks: 1, threads: 32 }, x, o);
    assert.deepEqual(Array.from(o), Array.from(ro));
  });
});

describe("Atomics on narrow arrays", () => {
  /** Every Atomics operation once, on element slots 0…10 of `a`, the results into `r`. */
  function atomicsOnce(a: any, r: Int32Array) {
    r[0] = Atomics.add(a as Int32Array, 0, 200);
    r[1] = Atomics.sub(a as Int32Array, 1, 300);
    r[2] = Atomics.and(a as Int32Array, 2, -3);
    r[3] = Atomics.or(a as Int32Array, 3, 0x1f0);
    r[4] = Atomics.xor(a as Int32Array, 4, 0x5a5a);
    r[5] = Atomics.exchange(a as Int32Array, 5, 1000);
    r[6] = Atomics.compareExchange(a as Int32Array, 6, 255, 77);
    r[7] = Atomics.compareExchange(a as Int32Array, 7, 5, 9);
    r[8] = Atomics.load(a as Int32Array, 8);
    r[9] = Atomics.store(a as Int32Array, 9, 300);
    r[10] = Atomics.compareExchange(a as Int32Array, 10, -1, -2);
  }
  for (const C of [Int8Array, Uint8Array, Int16Array, Uint16Array] as const) {
    dtest(`${C.name}: each operation's old value and new element as JavaScript's Atomics give them`, async ({ dev }) => {
      const k = kernel(function narrowAtomics(a: any, r: Int32Array) { if (threadIdx.x === 0) atomicsOnce(a, r); }, { scope: { atomicsOnce } });
      const init = [100, -100, 0x7f, 0x0f, -1, 42, -1, 5, -128, 1, 65535];
      const a = C.from(init), ra = C.from(init), r = new Int32Array(11), rr = new Int32Array(11);
      atomicsOnce(ra, rr);
      await k.launch(dev, { blocks: 1, threads: 32 }, a, r);
      assert.deepEqual(Array.from(r), Array.from(rr), "results");
      assert.deepEqual(Array.from(a), Array.from(ra), "elements");
    });
  }

  dtest("many threads add into neighbouring Int16 and Int8 elements at once: the totals wrap as the arrays do", async ({ dev }) => {
    const k = kernel(function contended(h: Int16Array, b: Int8Array, old: Int32Array) {
      const i = blockIdx.x * blockDim.x + threadIdx.x;
      if (i < old.length) {
        Atomics.add(h, i % 7, i * 13);
        old[i] = Atomics.sub(b, i % 5, 1);
      }
    });
    const n = 1021;
    const h = new Int16Array(7), b = new Int8Array(5).fill(100), old = new Int32Array(n);
    await k.launch(dev, { blocks: 16, threads: 64 }, h, b, old);
    const rh = new Int16Array(7), rb = new Int8Array(5).fill(100);
    for (let i = 0; i < n; i++) { rh[i % 7] += i * 13; rb[i % 5] -= 1; }
    assert.deepEqual(Array.from(h), Array.from(rh));
    assert.deepEqual(Array.from(b), Array.from(rb));
    // Every old value of one element is seen exactly once (the subtractions are ordered somehow).
    for (let e = 0; e < 5; e++) {
      const seen = Array.from(old).filter((_, i) => i % 5 === e).sort((x, y) => x - y);
      const count = seen.length, want = Array.from({ length: count }, (_, j) => ((100 - j) << 24) >> 24).sort((x, y) => x - y);
      assert.deepEqual(seen, want, `old values of element ${e}`);
    }
  });

  dtest("a histogram in shared Uint8Array counters with Atomics.add (per block, then added up)", async ({ dev }) => {
    const k = kernel(function byteHistogram(data: Uint8Array, hist: Uint32Array) {
      const t = threadIdx.x;
      const counts = shared(Uint8Array, 64);
      counts[t] = 0;
      syncthreads();
      const i = blockIdx.x * blockDim.x + t;
      if (i < data.length) Atomics.add(counts, data[i] & 63, 1);
      syncthreads();
      Atomics.add(hist, t, counts[t]);
    });
    const r = prng(11);
    const data = Uint8Array.from({ length: 64 * 9 - 5 }, () => r.u32() & 255);
    const hist = new Uint32Array(64), want = new Uint32Array(64);
    for (const v of data) want[v & 63]++;
    await k.launch(dev, { blocks: 9, threads: 64 }, data, hist);
    assert.deepEqual(Array.from(hist), Array.from(want));
  });

  dtest("Atomics on Uint8ClampedArray (a TypeError in JavaScript), atomicAdd/atomicMin on narrow arrays and Atomics on private ones are CompileErrors", async ({ dev }) => {
    const clamped = kernel(function atomicsClamped(c: Uint8ClampedArray) {
      Atomics.add(c as any, 0, 1); // @CLAMPED
    });
    const e = await rejectsCompile(clamped.launch(dev, { blocks: 1, threads: 1 }, new Uint8ClampedArray(4)), "type",
      /Atomics\.add does not work on Uint8ClampedArray \(u8c\[\]\), as in JavaScript \(a TypeError there\); use a Uint8Array/);
    assert.equal(e.location?.line, lineOf("CLAMPED"));
    const sharedClamped = kernel(function atomicsSharedClamped(o: Int32Array) {
      const s = shared(Uint8ClampedArray, 8);
      o[0] = Atomics.load(s as unknown as Int32Array, 0);
    });
    await rejectsCompile(sharedClamped.launch(dev, { blocks: 1, threads: 1 }, new Int32Array(1)), "type", /Atomics\.load does not work on Uint8ClampedArray/);
    const add = kernel(function atomicAddNarrow(b: Uint8Array) { atomicAdd(b as any, 0, 1); });
    await rejectsCompile(add.launch(dev, { blocks: 1, threads: 1 }, new Uint8Array(4)), "type", /atomicAdd works on Int32Array, Uint32Array and Float32Array arrays, not u8\[\]/);
    const min = kernel(function atomicMinNarrow(h: Int16Array) { atomicMin(h as any, 0, 1); });
    await rejectsCompile(min.launch(dev, { blocks: 1, threads: 1 }, new Int16Array(4)), "type", /atomicMin works on Int32Array and Uint32Array arrays, not i16\[\]/);
    const priv = kernel(function atomicsPrivate(o: Int32Array) { const p = new Int8Array(4); o[0] = Atomics.add(p, 0, 1); });
    await rejectsCompile(priv.launch(dev, { blocks: 1, threads: 1 }, new Int32Array(1)), "type", /Atomics\.add works on global and shared arrays, not private ones/);
  });

  test("a narrow typed array in scope is not a constant table: an unsupported-value CompileError", async () => {
    const bytes = new Uint8Array(4);
    const k = kernel(function narrowTable(o: Int32Array) { o[0] = bytes[0]; }, { scope: { bytes } });
    await assert.rejects(k.compile({ target: "js", args: [new Int32Array(1)] }),
      (e: unknown) => e instanceof CompileError && e.kind === "unsupported-value" && /'bytes' from scope is a Uint8Array \(constant tables from scope are Float32Array, Float64Array, Int32Array or Uint32Array; pass narrow arrays as kernel arguments\)/.test(e.message));
  });
});

describe("narrow device arrays: views at odd offsets, reads, writes and copies", () => {
  const fill = (C: typeof NARROW[number], n: number, seed: number) => { const r = prng(seed); return C.from(Array.from({ length: n }, () => r.int(-40000, 40000))); };

  for (const C of [Uint8Array, Int16Array] as const) {
    dtest(`${C.name}: a view at an odd offset as a kernel argument, read and written; the elements around it stay`, async ({ dev }) => {
      const k = kernel(function writeView(v: any, x: Int32Array) {
        const i = blockIdx.x * blockDim.x + threadIdx.x;
        if (i < v.length) v[i] = v[i] * 2 + x[i];
      });
      const host = fill(C, 1003, 3), ref = C.from(host);
      const d = dev.array(host);
      for (const [b, e] of [[3, 700], [1, 2], [5, 1003], [257, 771], [0, 999]]) {
        const x = Int32Array.from({ length: e - b }, (_, j) => j * 5 - 9);
        const v = d.subarray(b, e);
        await k.launch(dev, { blocks: Math.ceil((e - b) / 64), threads: 64 }, v, x);
        const rv = ref.subarray(b, e);
        for (let j = 0; j < rv.length; j++) rv[j] = rv[j] * 2 + x[j];
        assert.deepEqual(Array.from(await v.read()), Array.from(rv), `view ${b}…${e}`);
        assert.deepEqual(Array.from(await d.read()), Array.from(ref), `whole array after view ${b}…${e}`);
      }
      // write() into a view inside words, read() of views that start and end inside words.
      const w = C.from(Array.from({ length: 9 }, (_, j) => j * 1111));
      await d.subarray(13, 22).write(w);
      ref.set(w, 13);
      assert.deepEqual(Array.from(await d.read()), Array.from(ref));
      assert.deepEqual(Array.from(await d.subarray(7, 10).read()), Array.from(ref.subarray(7, 10)));
    });
  }

  dtest("two overlapping views of one Uint8Array, one written (even elements) and one read (odd ones)", async ({ dev }) => {
    const k = kernel(function evensFromOdds(a: Uint8Array, b: Uint8Array) {
      const i = (blockIdx.x * blockDim.x + threadIdx.x) * 2;
      if (i < a.length) a[i] = b[i] + 1;
    });
    const host = Uint8Array.from({ length: 301 }, (_, j) => j * 3), ref = Uint8Array.from(host);
    const d = dev.array(host);
    await k.launch(dev, { blocks: 3, threads: 64 }, d.subarray(3, 203), d.subarray(4, 204));
    for (let i = 0; i < 200; i += 2) ref[3 + i] = ref[4 + i] + 1;
    assert.deepEqual(Array.from(await d.read()), Array.from(ref));
  });

  dtest("dev.copy of narrow arrays at odd element offsets, between arrays and within one (overlapping)", async ({ dev }) => {
    for (const C of NARROW) {
      const a = fill(C, 517, 5), b = fill(C, 403, 6);
      const da = dev.array(a), db = dev.array(b);
      for (const [so, dO, n] of [[3, 5, 101], [0, 1, 400], [7, 0, 3], [1, 1, 1], [2, 6, 300], [4, 8, 12]]) {
        await dev.copy(db, da, { srcOffset: so, dstOffset: dO, length: n });
        b.set(a.subarray(so, so + n), dO);
        assert.deepEqual(Array.from(await db.read()), Array.from(b), `${C.name}: copy ${n} from ${so} to ${dO}`);
        await dev.copy(da, da, { srcOffset: so, dstOffset: dO + 2, length: n });
        a.copyWithin(dO + 2, so, so + n);
        assert.deepEqual(Array.from(await da.read()), Array.from(a), `${C.name}: copy within, ${n} from ${so} to ${dO + 2}`);
      }
      // Views as the arrays of a copy.
      const vb: DeviceArray = db.subarray(9, 40), va: DeviceArray = da.subarray(21, 52);
      await dev.copy(vb, va);
      b.set(a.subarray(21, 52), 9);
      assert.deepEqual(Array.from(await db.read()), Array.from(b), `${C.name}: copy between views`);
    }
  });
});

test("narrow argument types and a shared Uint8Array sized at launch survive the disk cache: a second process revives them without compiling", () => {
  const root = fileURLToPath(new URL("..", import.meta.url));
  const dir = mkdtempSync(join(tmpdir(), "gpuc-narrow-"));
  const app = join(dir, "app.mjs");
  writeFileSync(app, `
const { kernel, device } = await import(${JSON.stringify(join(root, "dist/index.js"))});
const k = kernel(function cached(o, x, c) {
  const t = threadIdx.x;
  const s = shared(Uint8Array, blockDim.x);
  s[t] = x[t] * 3;
  syncthreads();
  o[t] = s[(t + 1) % blockDim.x];
  c[t] = x[t] * 100;
});
const out = [];
for (const kind of process.argv.slice(2)) {
  const dev = await device(kind);
  const o = new Int16Array(45), x = Int8Array.from({ length: 45 }, (_, i) => i * 11 - 200), c = new Uint8ClampedArray(45);
  await k.launch(dev, { blocks: 1, threads: 45 }, o, x, c);
  out.push([...o, ...c]);
  dev.close();
}
process.stdout.write(JSON.stringify({ out, compiled: ["compiler/compile.js", "cache/compiler-script.js"].some((m) => (globalThis.gpucLoaded ?? []).includes(m)) }));
`);
  const track = join(root, "test/fixtures/cache/track.mjs");
  const run = () => {
    const r = spawnSync(process.execPath, ["--import", track, app, "cpu", "webgpu"], { cwd: root, encoding: "utf8", env: { ...process.env, GPUC_CACHE: "1", GPUC_CACHE_DIR: join(dir, "cache") } });
    assert.equal(r.status, 0, r.stderr);
    return JSON.parse(r.stdout) as { out: number[][]; compiled: boolean };
  };
  try {
    const first = run(), second = run();
    assert.equal(first.compiled, true);
    assert.equal(second.compiled, false, "revived from the disk cache");
    assert.deepEqual(second.out, first.out);
    const x = Int8Array.from({ length: 45 }, (_, i) => i * 11 - 200), s = Uint8Array.from(x, (v) => v * 3);
    const want = [...Int16Array.from({ length: 45 }, (_, t) => s[(t + 1) % 45]), ...Uint8ClampedArray.from(x, (v) => v * 100)];
    assert.deepEqual(first.out, [want, want]);
  } finally { rmSync(dir, { recursive: true, force: true }); }
});
