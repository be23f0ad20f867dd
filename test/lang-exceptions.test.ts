// Execution tests of device exceptions (bounds checks, throw, debug levels), kernel-language
// features of issue #3. Each result is compared with a plain-JavaScript reference computed here;
// f32 references round every operation with Math.fround.
//
// Every test runs on each device of the matrix (helpers.ts: `dtest`): the CPU device (the JS
// target, the exact reference semantics) and WebGPU (the WGSL target). Where WebGPU differs by
// design, the test says so where it branches on `gpu` or `wgsl`: no f64, and threads that run
// concurrently (which thread raises an exception first is not defined).
//
// Outputs are poisoned (NaN or a sentinel) before each launch so unwritten elements show.
//
// Note: tsx reprints kernel sources (`1000` becomes `1e3`, comments vanish). Locations are checked
// against the original file: `lineOf("NAME")` (helpers.ts: `lineOfIn`) is the line of this file
// that carries the marker comment `// @NAME`.
//
// esbuild also renames a kernel parameter that shadows a name of an enclosing scope (`y` becomes
// `y2`), and bounds messages once named the renamed parameter (see the regressions at the end), so
// tests that check an array's name keep host names apart from kernel names.
//
// Every assert.ok has a message: without one, node's assert re-parses the (one-line, reprinted)
// source to describe the failure, which takes minutes.

import { describe } from "node:test";
import assert from "node:assert/strict";
import { kernel, KernelError, threadIdx, blockIdx, blockDim } from "../src/index.ts";
import { randF32, randI32, poisonF32, poisonF64, poisonI32, F, dtest, openDevices, kernelError,
  lineOfIn, assertLocationIn, assertRaisedBy, xyz, rejectsCompile, type Wide } from "./helpers.ts";

// Compiler intrinsics inside kernel bodies (declared for TypeScript only; never called on the host).
declare function shared<T extends Float32Array | Float64Array | Int32Array | Uint32Array>(ctor: new (n: number) => T, n: number): T;
declare function syncthreads(): void;

await openDevices();

const lineOf = lineOfIn(import.meta.url);
const assertLocation = assertLocationIn(import.meta.url);

// ---- module-level helpers (passed through `scope`) -----------------------------------------

/** Throws; two returns keep it from being inlined. */
function failIfNegative(v: number) {
  if (v < 0) throw new Error("negative input"); // @THROW_NI
  if (v > 100) return 2;
  return 1;
}
/** Calls failIfNegative; two returns keep it from being inlined too. */
function outerNI(v: number) {
  const r = failIfNegative(v - 10); // @CALL_NI_INNER
  if (r === 2) return r * 10;
  return r;
}
/** Throws; small enough to be inlined. */
function failInline(v: number) {
  if (v < 0) throw new Error("inlined failure"); // @THROW_INL
}
function outerInline(v: number) {
  failInline(v - 10); // @CALL_INL_INNER
}

// =============================================================================================

describe("device exceptions", () => {
  dtest("out-of-bounds read: KernelError 'bounds' with message, thread, block and location", async ({ dev, gpu, same }) => {
    const k = kernel(function oobRead(x: Float32Array, y: Float32Array) {
      const i = blockIdx.x * blockDim.x + threadIdx.x;
      y[i] = x[i] * 2; // @OOB_READ
    });
    const xs = randF32(401, 1024), ys = poisonF32(1280);
    const err = await kernelError(k.launch(dev, { blocks: 5, threads: 256 }, xs, ys), "bounds");
    assertRaisedBy(gpu, err, [xyz(0), xyz(4)], (_t, b) => b.x === 4, (t, b) => `index ${b.x * 256 + t.x} out of bounds for array 'x' of length 1024`);
    assertLocation(err.location, lineOf("OOB_READ"));
    assert.ok(err.message.includes(`lang-exceptions.test.ts:${lineOf("OOB_READ")}:`), err.message);
    // The threads before the offending one (on a GPU: every thread in range) completed.
    same(ys.subarray(0, 1024), Array.from(xs, (v) => F(v * 2)));
  });

  dtest("out-of-bounds write: KernelError 'bounds'", async ({ dev, gpu }) => {
    const k = kernel(function oobWrite(y: Float32Array) {
      const i = blockIdx.x * blockDim.x + threadIdx.x;
      y[i] = 1; // @OOB_WRITE
    });
    const err = await kernelError(k.launch(dev, { blocks: 5, threads: 256 }, poisonF32(1024)), "bounds");
    assertRaisedBy(gpu, err, [xyz(0), xyz(4)], (_t, b) => b.x === 4, (t, b) => `index ${b.x * 256 + t.x} out of bounds for array 'y' of length 1024`);
    assertLocation(err.location, lineOf("OOB_WRITE"));
  });

  dtest("out-of-bounds write in a 2-D launch names the thread and block", async ({ dev, gpu }) => {
    const k = kernel(function oob2d(y: Int32Array) {
      const gx = blockIdx.x * blockDim.x + threadIdx.x, gy = blockIdx.y * blockDim.y + threadIdx.y;
      y[gy * 16 + gx] = gx; // @OOB_2D
    });
    // 16 x 12 threads, array of 16 x 10: the first to fail is thread (0, 4) of block (0, 1) (row 10).
    const out = poisonI32(160);
    const err = await kernelError(k.launch(dev, { blocks: [2, 2], threads: [8, 6] }, out), "bounds");
    assertRaisedBy(gpu, err, [xyz(0, 4), xyz(0, 1)], (t, b) => b.y * 6 + t.y >= 10,
      (t, b) => `index ${(b.y * 6 + t.y) * 16 + b.x * 8 + t.x} out of bounds for array 'y' of length 160`);
    assertLocation(err.location, lineOf("OOB_2D"));
  });

  dtest("a negative index is a bounds error", async ({ dev, gpu }) => {
    const k = kernel(function oobNeg(x: Int32Array, o: Int32Array) {
      const i = threadIdx.x;
      o[i] = x[i - 3]; // @OOB_NEGR
    });
    const err = await kernelError(k.launch(dev, { blocks: 1, threads: 8 }, randI32(402, 8, 0, 9), poisonI32(8)), "bounds");
    assertRaisedBy(gpu, err, [xyz(0), xyz(0)], (t) => t.x < 3, (t) => `index ${t.x - 3} out of bounds for array 'x' of length 8`);
    assertLocation(err.location, lineOf("OOB_NEGR"));
  });

  dtest("a negative write index is a bounds error", async ({ dev, gpu, wgsl }) => {
    const k = kernel(function oobNegWrite(o: Wide) {
      o[threadIdx.x - 2] = 1; // @OOB_NEGW
    });
    const out = wgsl ? poisonF32(4) : poisonF64(4);   // (WGSL has no f64)
    const err = await kernelError(k.launch(dev, { blocks: 1, threads: 4 }, out), "bounds");
    assertRaisedBy(gpu, err, [xyz(0), xyz(0)], (t) => t.x < 2, (t) => `index ${t.x - 2} out of bounds for array 'o' of length 4`);
    assertLocation(err.location, lineOf("OOB_NEGW"));
  });

  dtest("out-of-bounds on a shared array", async ({ dev, gpu }) => {
    const k = kernel(function oobShared(o: Float32Array) {
      const s = shared(Float32Array, 16);
      s[threadIdx.x] = 1; // @OOB_SHARED
      syncthreads();
      o[threadIdx.x] = s[0];
    });
    const err = await kernelError(k.launch(dev, { blocks: 2, threads: 20 }, poisonF32(20)), "bounds");
    assertRaisedBy(gpu, err, [xyz(16), xyz(0)], (t) => t.x >= 16, (t) => `index ${t.x} out of bounds for array 's' of length 16`);
    assertLocation(err.location, lineOf("OOB_SHARED"));
  });

  // PoCL runs on the host: a write past a buffer without its check lands in the process's own heap.
  dtest("boundsCheck: false does not raise", { skip: { opencl: "SKIPPED on OpenCL: without checks, out-of-bounds writes reach memory outside the buffer (on PoCL, the host process's heap)", spir: "SKIPPED on SPIR: as on OpenCL" } }, async ({ dev, same }) => {
    const k = kernel(function noCheck(x: Float32Array, y: Float32Array) {
      const i = blockIdx.x * blockDim.x + threadIdx.x;
      if (i < y.length) y[i] = x[i] + 1;
    }, { boundsCheck: false });
    const xs = randF32(403, 100), ys = poisonF32(120);
    await k.launch(dev, { blocks: 1, threads: 128 }, xs, ys);
    same(ys.subarray(0, 100), Array.from(xs, (v) => F(v + 1)));
    // Writes past either end are dropped (as a JS typed array drops them), without an error.
    const kw = kernel(function noCheckWrite(o: Int32Array) {
      o[blockIdx.x * blockDim.x + threadIdx.x - 4] = threadIdx.x;
    }, { boundsCheck: false });
    const ow = poisonI32(10);
    await kw.launch(dev, { blocks: 2, threads: 8 }, ow);
    same(ow, [4, 5, 6, 7, 0, 1, 2, 3, 4, 5]);
  });

  dtest("throw new Error(\"msg\") in a kernel: KernelError 'exception' with the message and location", async ({ dev, gpu }) => {
    const k = kernel(function thrower(x: Int32Array, o: Int32Array) {
      const i = blockIdx.x * blockDim.x + threadIdx.x;
      if (x[i] === 42) throw new Error("found the answer"); // @THROW_K
      o[i] = x[i];
    });
    const x = randI32(404, 64, 0, 40);
    x[37] = 42; x[50] = 42;
    const o = poisonI32(64);
    const err = await kernelError(k.launch(dev, { blocks: 4, threads: 16 }, x, o), "exception");
    assert.match(err.message, /found the answer/);
    assertRaisedBy(gpu, err, [xyz(5), xyz(2)], (t, b) => x[b.x * 16 + t.x] === 42);
    assertLocation(err.location, lineOf("THROW_K"));
    assert.doesNotMatch(err.message, /called from/);
  });

  dtest("throw new Error(`… ${x}`) or with + : the message carries up to two values, as JavaScript writes them", async ({ dev }) => {
    const k = kernel(function messages(o: Float32Array, x: Float32Array, n: number) {
      const i = threadIdx.x;
      if (x[i] > 2 && n === 1) throw new Error(`value ${x[i]} at ${i} {braces}`);
      if (x[i] > 2 && n === 2) throw new Error("too big: " + (x[i] > n) + ", " + ((n - 3) >>> 0));
      if (i === 1 && n === 3) throw new Error("{0} is text");
      o[i] = 1;
    });
    const x = Float32Array.from([0.5, 2.75, -1, 1]);
    const at = async (n: number) => (await kernelError(k.launch(dev, { blocks: 1, threads: 4 }, new Float32Array(4), x, n), "exception")).message;
    assert.match(await at(1), /: value 2\.75 at 1 \{braces\} \(thread \(1, 0, 0\)/);
    assert.match(await at(2), /: too big: true, 4294967295 \(thread/);
    assert.match(await at(3), /: \{0\} is text \(thread/);
    await rejectsCompile(kernel(function three(o: Float32Array) { if (o[0] > 0) throw new Error(`${o[0]} ${o[1]} ${o[2]}`); }).launch(dev, { blocks: 1, threads: 1 }, x),
      "unsupported-syntax", /a device exception's message holds at most two values, here 3/);
  });

  dtest("throw in a 3-D launch names the thread and block", async ({ dev }) => {
    const k = kernel(function thrower3d(o: Int32Array) {
      if (threadIdx.x === 2 && threadIdx.y === 3 && threadIdx.z === 1 && blockIdx.x === 1 && blockIdx.y === 0 && blockIdx.z === 1) throw new Error("boom");
      o[0] = 1;
    });
    const err = await kernelError(k.launch(dev, { blocks: [2, 2, 2], threads: [4, 4, 2] }, new Int32Array(1)), "exception");
    assert.match(err.message, /boom/);
    assert.deepEqual(err.thread, { x: 2, y: 3, z: 1 });
    assert.deepEqual(err.block, { x: 1, y: 0, z: 1 });
    assert.match(err.message, /thread \(2, 3, 1\) of block \(1, 0, 1\)/);
  });

  dtest("throw in a helper (debug level 1: message and location, no call chain)", async ({ dev, same }) => {
    const k = kernel(function throwHelper1(x: Int32Array, o: Int32Array) {
      const i = threadIdx.x;
      o[i] = outerNI(x[i]);
    }, { scope: { outerNI, failIfNegative }, debugLevel: 1 });
    const x = Int32Array.from([50, 20, 5, 200]), o = poisonI32(4);
    const err = await kernelError(k.launch(dev, { blocks: 1, threads: 4 }, x, o), "exception");
    assert.match(err.message, /negative input/);
    assert.deepEqual(err.thread, { x: 2, y: 0, z: 0 });
    assertLocation(err.location, lineOf("THROW_NI"));
    assert.doesNotMatch(err.message, /called from/);
    same(o.subarray(0, 2), [1, 1]);
  });

  dtest("debug level 0: only that an exception occurred", async ({ dev }) => {
    const k = kernel(function throwLevel0(x: Int32Array, o: Int32Array) {
      const i = threadIdx.x;
      if (x[i] < 0) throw new Error("secret message");
      o[i] = outerNI(x[i]);
    }, { scope: { outerNI, failIfNegative }, debugLevel: 0 });
    const err = await kernelError(k.launch(dev, { blocks: 1, threads: 4 }, Int32Array.from([50, -1, 5, 5]), poisonI32(4)), "exception");
    assert.match(err.message, /an exception occurred/);
    assert.doesNotMatch(err.message, /secret message|negative input/);
    assert.doesNotMatch(err.message, /lang-exceptions\.test\.ts/);
    assert.doesNotMatch(err.message, /called from/);
    // A bounds error at level 0 says no more.
    // (Its kind is checked in the regressions at the end.)
    const kb = kernel(function oobLevel0(x: Int32Array) { x[threadIdx.x] = 1; }, { debugLevel: 0 });
    let eb: unknown = null;
    try { await kb.launch(dev, { blocks: 1, threads: 4 }, new Int32Array(2)); } catch (e) { eb = e; }
    assert.ok(eb instanceof KernelError, `expected a KernelError, got ${eb}`);
    assert.match(eb.message, /an exception occurred/);
    assert.doesNotMatch(eb.message, /out of bounds|lang-exceptions\.test\.ts/);
  });

  dtest("debug level 2: the call chain through inlined helpers", async ({ dev }) => {
    const k = kernel(function throwLevel2Inl(x: Int32Array, o: Int32Array) {
      const i = threadIdx.x;
      outerInline(x[i]); // @CALL_INL_OUTER
      o[i] = x[i];
    }, { scope: { outerInline, failInline }, debugLevel: 2 });
    const o = poisonI32(4);
    const err = await kernelError(k.launch(dev, { blocks: 1, threads: 4 }, Int32Array.from([50, 20, 5, 200]), o), "exception");
    assert.match(err.message, /inlined failure/);
    assertLocation(err.location, lineOf("THROW_INL"));
    const calls = err.message.split("\n").filter((l) => /called from/.test(l));
    assert.equal(calls.length, 2, err.message);
    assert.match(calls[0], new RegExp(`^\\s*called from 'outerInline' at \\S*lang-exceptions\\.test\\.ts:${lineOf("CALL_INL_INNER")}:\\d+$`));
    assert.match(calls[1], new RegExp(`^\\s*called from 'throwLevel2Inl' at \\S*lang-exceptions\\.test\\.ts:${lineOf("CALL_INL_OUTER")}:\\d+$`));
    assert.deepEqual(err.thread, { x: 2, y: 0, z: 0 });
  });

  dtest("the launch after an exception works normally (state is reset)", async ({ dev, same }) => {
    const k = kernel(function maybeThrow(x: Int32Array, o: Int32Array) {
      const i = blockIdx.x * blockDim.x + threadIdx.x;
      if (x[i] < 0) throw new Error("negative");
      o[i] = x[i] * 2 + o[i];
    });
    const bad = Int32Array.from([1, 2, -3, 4]);
    await kernelError(k.launch(dev, { blocks: 1, threads: 4 }, bad, poisonI32(4)), "exception");
    const good = Int32Array.from([1, 2, 3, 4]), o = new Int32Array(4);
    await k.launch(dev, { blocks: 1, threads: 4 }, good, o);
    same(o, [2, 4, 6, 8]);
    await k.launch(dev, { blocks: 2, threads: 2 }, good, o);
    same(o, [4, 8, 12, 16]);
    // A bounds error, then another kernel on the same device.
    const kb = kernel(function oobThenOk(x: Int32Array) { x[threadIdx.x] += 1; });
    await kernelError(kb.launch(dev, { blocks: 1, threads: 5 }, new Int32Array(4)), "bounds");
    const z = new Int32Array(4);
    await kb.launch(dev, { blocks: 1, threads: 4 }, z);
    same(z, [1, 1, 1, 1]);
  });

  dtest("an exception in a kernel with barriers", async ({ dev }) => {
    const k = kernel(function throwBarrier(x: Float32Array, o: Float32Array) {
      const s = shared(Float32Array, 16);
      const tid = threadIdx.x;
      s[tid] = x[blockIdx.x * 16 + tid];
      syncthreads();
      if (s[15 - tid] < 0) throw new Error("negative neighbour"); // @THROW_BAR
      o[blockIdx.x * 16 + tid] = s[15 - tid];
    });
    const x = Float32Array.from({ length: 32 }, (_, i) => i + 1);
    x[20] = -1;  // block 1, slot 4: read by thread 11 of block 1
    const err = await kernelError(k.launch(dev, { blocks: 2, threads: 16 }, x, poisonF32(32)), "exception");
    assert.match(err.message, /negative neighbour/);
    assert.deepEqual(err.thread, { x: 11, y: 0, z: 0 });
    assert.deepEqual(err.block, { x: 1, y: 0, z: 0 });
    assertLocation(err.location, lineOf("THROW_BAR"));
  });
});

// =============================================================================================
// Each test below is a compiler bug found while writing this suite (all fixed since): the kernel
// is in the kernel language and the expected behaviour follows the README's kernel language.

describe("regressions (compiler bugs found by this suite)", () => {
  dtest("debug level 2: the call chain through non-inlined helpers", async ({ dev }) => {
    const k = kernel(function throwLevel2(x: Int32Array, o: Int32Array) {
      const i = threadIdx.x;
      o[i] = outerNI(x[i]); // @CALL_NI_OUTER
    }, { scope: { outerNI, failIfNegative }, debugLevel: 2 });
    const err = await kernelError(k.launch(dev, { blocks: 1, threads: 4 }, Int32Array.from([50, 20, 5, 200]), poisonI32(4)), "exception");
    assert.match(err.message, /negative input/);
    assertLocation(err.location, lineOf("THROW_NI"));
    const lines = err.message.split("\n");
    const calls = lines.filter((l) => /called from/.test(l));
    assert.equal(calls.length, 2, err.message);
    assert.match(calls[0], new RegExp(`^\\s*called from 'outerNI' at \\S*lang-exceptions\\.test\\.ts:${lineOf("CALL_NI_INNER")}:\\d+$`));
    assert.match(calls[1], new RegExp(`^\\s*called from 'throwLevel2' at \\S*lang-exceptions\\.test\\.ts:${lineOf("CALL_NI_OUTER")}:\\d+$`));
  });

  dtest("array names in bounds messages are the names in the source, also when a loader renamed them", async ({ dev, gpu }) => {
    const k = kernel(function oobShadowed(x: Float32Array, y: Float32Array) {
      const i = blockIdx.x * blockDim.x + threadIdx.x;
      y[i] = x[i];
    });
    const x = randF32(501, 8), y = poisonF32(4);
    const err = await kernelError(k.launch(dev, { blocks: 1, threads: 8 }, x, y), "bounds");
    assertRaisedBy(gpu, err, [xyz(4), xyz(0)], (t) => t.x >= 4, (t) => `index ${t.x} out of bounds for array 'y' of length 4`);
  });

  dtest("debug level 0: an out-of-bounds access is still a KernelError of kind 'bounds'", async ({ dev }) => {
    const k = kernel(function oobLevel0Kind(o: Int32Array) { o[threadIdx.x] = 1; }, { debugLevel: 0 });
    const err = await kernelError(k.launch(dev, { blocks: 1, threads: 4 }, new Int32Array(2)), "bounds");
    assert.match(err.message, /an exception occurred/);
  });
});
