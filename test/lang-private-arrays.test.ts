// Execution tests of private arrays (typed arrays a kernel allocates), kernel-language features of
// issue #3. Each result is compared with a plain-JavaScript reference computed here; f32 references
// round every operation with Math.fround.
//
// Every test runs on each device of the matrix (helpers.ts: `dtest`): the CPU device (the JS
// target, the exact reference semantics) and WebGPU (the WGSL target). Where WebGPU differs by
// design, the test says so where it branches on `gpu` or `wgsl`: no f64, no recursion, threads that
// run concurrently (which thread raises an exception first is not defined).
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
import { kernel, threadIdx, blockIdx, blockDim } from "../src/index.ts";
import { randF32, randI32, poisonF32, poisonF64, poisonI32, F, dtest, openDevices, kernelError,
  lineOfIn, assertLocationIn, assertRaisedBy, xyz, rejectsCompile, rejectsF64, rejectsRecursion } from "./helpers.ts";

// Compiler intrinsics inside kernel bodies (declared for TypeScript only; never called on the host).
declare function shared<T extends Float32Array | Float64Array | Int32Array | Uint32Array>(ctor: new (n: number) => T, n: number): T;
declare function syncthreads(): void;

await openDevices();

const lineOf = lineOfIn(import.meta.url);
const assertLocation = assertLocationIn(import.meta.url);

// ---- module-level helpers (passed through `scope`) -----------------------------------------

/** Writes a pattern into a private array it is given. */
function fillPattern(a: Float32Array, seed: number) {
  for (let k = 0; k < 8; k++) a[k] = seed * 8 + k * 0.5;
}

// =============================================================================================

describe("private arrays", () => {
  dtest("dynamic indices into a private Float32Array", async ({ dev, same }) => {
    const k = kernel(function privDyn(x: Float32Array, o: Float32Array) {
      const i = blockIdx.x * blockDim.x + threadIdx.x;
      const a = new Float32Array(8);
      for (let k = 0; k < 8; k++) a[(k * 3 + i) % 8] = x[i * 8 + k];
      let s = 0;
      for (let k = 0; k < 8; k++) s += a[k] * (k + 1);
      o[i] = s;
    });
    const T = 64;
    const x = randF32(201, T * 8, -4, 4), o = poisonF32(T);
    await k.launch(dev, { blocks: 2, threads: 32 }, x, o);
    const want = new Float32Array(T);
    for (let i = 0; i < T; i++) {
      const a = new Float32Array(8);
      for (let k = 0; k < 8; k++) a[(k * 3 + i) % 8] = x[i * 8 + k];
      let s = 0;
      for (let k = 0; k < 8; k++) s = F(s + F(a[k] * (k + 1)));
      want[i] = s;
    }
    same(o, want);
  });

  dtest("private arrays of each element type: zero-initialized, element conversions", async ({ dev, same, wgsl }) => {
    const k = kernel(function privTypes(x: Float64Array, o: Float64Array) {
      const i = threadIdx.x;
      const f = new Float32Array(4);
      const d = new Float64Array(4);
      const n = new Int32Array(4);
      const u = new Uint32Array(4);
      const j = i % 4;
      o[i * 8] = f[j] + d[j] + n[j] + u[j];
      f[j] = x[i];
      d[j] = x[i];
      n[j] = x[i];
      u[j] = x[i];
      o[i * 8 + 1] = f[j];
      o[i * 8 + 2] = d[j];
      o[i * 8 + 3] = n[j];
      o[i * 8 + 4] = u[j];
      o[i * 8 + 5] = f[(j + 1) % 4] + d[(j + 2) % 4] + n[(j + 3) % 4];
      o[i * 8 + 6] = u.length;
      o[i * 8 + 7] = n[j] - 1;
    });
    const x = Float64Array.from([1.1, -2.7, 3e10, -1, 0.1, 4294967296 + 5, -2147483649, 1e-40]);
    const o = poisonF64(64);
    if (wgsl) return rejectsF64(k.launch(dev, { blocks: 1, threads: 8 }, x, o));   // WGSL has no f64
    await k.launch(dev, { blocks: 1, threads: 8 }, x, o);
    const want: number[] = [];
    for (let i = 0; i < 8; i++) {
      const v = x[i];
      want.push(0, F(v), v, v | 0, v >>> 0, 0, 4, ((v | 0) - 1) | 0);
    }
    same(o, want);
  });

  dtest("a private array declared in a loop body starts from zeros in every iteration", async ({ dev, same }) => {
    const k = kernel(function privLoop(o: Int32Array) {
      const i = threadIdx.x;
      for (let it = 0; it < 4; it++) {
        const a = new Int32Array(4);
        a[it] += it + 1 + i;
        a[(it + 1) % 4] += 100;
        o[i * 4 + it] = a[0] + a[1] * 16 + a[2] * 256 + a[3] * 4096;
      }
    });
    const o = poisonI32(12);
    await k.launch(dev, { blocks: 1, threads: 3 }, o);
    const want: number[] = [];
    for (let i = 0; i < 3; i++) for (let it = 0; it < 4; it++) {
      const a = [0, 0, 0, 0];
      a[it] += it + 1 + i;
      a[(it + 1) % 4] += 100;
      want.push(a[0] + a[1] * 16 + a[2] * 256 + a[3] * 4096);
    }
    same(o, want);
  });

  dtest("private arrays are per thread (each fills its own id pattern, then sums)", async ({ dev, same }) => {
    const k = kernel(function privPerThread(o: Int32Array) {
      const i = blockIdx.x * blockDim.x + threadIdx.x;
      const a = new Int32Array(16);
      for (let k = 0; k < 16; k++) a[k] += i * 16 + k;
      let s = 0;
      for (let k = 0; k < 16; k++) s += a[k] * (k + 1);
      o[i] = s;
    });
    const T = 96;
    const o = poisonI32(T);
    await k.launch(dev, { blocks: 3, threads: 32 }, o);
    const want = Array.from({ length: T }, (_, i) => { let s = 0; for (let k = 0; k < 16; k++) s += (i * 16 + k) * (k + 1); return s; });
    same(o, want);
  });

  dtest("a private array passed to a helper that writes into it", async ({ dev, same }) => {
    const k = kernel(function privHelper(o: Float32Array) {
      const i = threadIdx.x;
      const a = new Float32Array(8);
      fillPattern(a, i);
      let s = 0;
      for (let k = 0; k < 8; k++) s += a[k] * a[7 - k];
      o[i] = s;
    }, { scope: { fillPattern } });
    const T = 20;
    const o = poisonF32(T);
    await k.launch(dev, { blocks: 1, threads: T }, o);
    const want = Array.from({ length: T }, (_, i) => {
      const a = Array.from({ length: 8 }, (_, k) => F(F(i * 8) + F(k * 0.5)));
      let s = 0;
      for (let k = 0; k < 8; k++) s = F(s + F(a[k] * a[7 - k]));
      return s;
    });
    same(o, want);
  });

  dtest("private arrays keep their values across syncthreads()", async ({ dev, same }) => {
    const k = kernel(function privBarrier(x: Int32Array, o: Int32Array) {
      const s = shared(Int32Array, 32);
      const tid = threadIdx.x, bs = blockDim.x;
      const i = blockIdx.x * bs + tid;
      const a = new Int32Array(6);
      for (let k = 0; k < 6; k++) a[k] = x[i] * (k + 1) + tid;
      s[tid] = a[5];
      syncthreads();
      a[tid % 6] += s[(tid + 1) % bs];
      syncthreads();
      s[tid] = a[0];
      syncthreads();
      let acc = 0;
      for (let k = 0; k < 6; k++) acc = acc * 3 + a[k];
      o[i] = acc + s[bs - 1 - tid];
    });
    const bs = 32, nb = 3;
    const x = randI32(211, bs * nb, -100, 100), o = poisonI32(bs * nb);
    await k.launch(dev, { blocks: nb, threads: bs }, x, o);
    const want = new Int32Array(bs * nb);
    for (let b = 0; b < nb; b++) {
      const A = Array.from({ length: bs }, (_, t) => Array.from({ length: 6 }, (_, k) => x[b * bs + t] * (k + 1) + t));
      const s1 = A.map((a) => a[5]);
      A.forEach((a, t) => { a[t % 6] += s1[(t + 1) % bs]; });
      const s2 = A.map((a) => a[0]);
      A.forEach((a, t) => { let acc = 0; for (let k = 0; k < 6; k++) acc = acc * 3 + a[k]; want[b * bs + t] = acc + s2[bs - 1 - t]; });
    }
    same(o, want);
  });

  dtest("a private array in a loop with barriers is reset at its declaration each iteration", async ({ dev, same }) => {
    const k = kernel(function privLoopBarrier(o: Int32Array) {
      const s = shared(Int32Array, 8);
      const tid = threadIdx.x;
      let acc = 0;
      for (let it = 0; it < 3; it++) {
        const a = new Int32Array(4);
        a[(tid + it) % 4] += tid + 10 * it;
        s[tid] = a[it % 4];
        syncthreads();
        acc = acc * 16 + a[0] + a[1] + a[2] + a[3] + s[(tid + 1) % 8];
        syncthreads();
      }
      o[tid] = acc;
    });
    const o = poisonI32(8);
    await k.launch(dev, { blocks: 1, threads: 8 }, o);
    const want: number[] = new Array(8).fill(0);
    for (let it = 0; it < 3; it++) {
      const A = Array.from({ length: 8 }, (_, t) => { const a = [0, 0, 0, 0]; a[(t + it) % 4] += t + 10 * it; return a; });
      const s = A.map((a) => a[it % 4]);
      for (let t = 0; t < 8; t++) want[t] = want[t] * 16 + (t + 10 * it) + s[(t + 1) % 8];
    }
    same(o, want);
  });

  dtest("a private array size that is a kernel parameter is a CompileError", async ({ dev }) => {
    const k = kernel(function privDynSize(o: Float32Array, n: number) {
      const a = new Float32Array(n);
      a[0] = 1;
      o[0] = a[0];
    });
    await rejectsCompile(k.launch(dev, { blocks: 1, threads: 1 }, poisonF32(1), 8), "type", /size of a private array must be a constant/);
  });

  dtest("out-of-bounds private-array index is a bounds KernelError", async ({ dev, gpu }) => {
    const k = kernel(function privOOB(o: Int32Array) {
      const a = new Int32Array(4);
      o[threadIdx.x] = a[threadIdx.x]; // @PRIV_OOB
    });
    const err = await kernelError(k.launch(dev, { blocks: 1, threads: 6 }, poisonI32(6)), "bounds");
    assertRaisedBy(gpu, err, [xyz(4), xyz(0)], (t) => t.x >= 4, (t) => `index ${t.x} out of bounds for array 'a' of length 4`);
    assertLocation(err.location, lineOf("PRIV_OOB"));
  });

  // Bit casts (issue #32, item 11): JavaScript's spelling of __float_as_uint / __uint_as_float is a
  // typed array over another's buffer; bf16 packing keeps a float's high 16 bits (llm.c's kernels
  // store bf16 so). Private arrays may be declared with let where nothing assigns them again.
  dtest("bit casts: typed arrays over a private array's buffer (f32 <-> u32/i32 bits; bf16 truncation; let)", async ({ dev, same }) => {
    const k = kernel(function bitCasts(o: Uint32Array, f: Float32Array, back: Float32Array) {
      const t = threadIdx.x;
      let fv = new Float32Array(1);
      const u = new Uint32Array(fv.buffer);
      fv[0] = f[t];
      o[t] = u[0];
      u[0] = u[0] & 0xffff0000;
      back[t] = fv[0];
      const w = new Uint32Array(1);
      w[0] = 0x3f800000 + t;
      back[t + 8] = new Float32Array(w.buffer)[0];
      const i = new Int32Array(fv.buffer);
      i[0] += 1;
      o[t + 8] = u[0];
    });
    const f = Float32Array.from([1.5, -2.25, 3.1415927, 0, -0, 1e-30, 65504, -7.125]), o = new Uint32Array(16), back = poisonF32(16);
    await k.launch(dev, { blocks: 1, threads: 8 }, o, f, back);
    // The same function, run as plain JavaScript thread by thread.
    const wantO = new Uint32Array(16), wantBack = new Float32Array(16);
    for (let t = 0; t < 8; t++) {
      const fv = new Float32Array(1), u = new Uint32Array(fv.buffer);
      fv[0] = f[t]; wantO[t] = u[0]; u[0] = u[0] & 0xffff0000; wantBack[t] = fv[0];
      const w = new Uint32Array(1); w[0] = 0x3f800000 + t; wantBack[t + 8] = new Float32Array(w.buffer)[0];
      const i = new Int32Array(fv.buffer); i[0] += 1; wantO[t + 8] = u[0];
    }
    same(o, wantO, "bits");
    same(back, wantBack, "floats from bits");
  });

  // Each in one thread on (a, o, n), as plain JavaScript runs it here (the reference): bytes,
  // halves and words of one buffer, read and written through views of other element sizes.
  const sizes: Record<string, (a: Float32Array, o: Float32Array, n: number) => void> = {
    bytesAsWords(_a, o, n) { const k = new Uint8Array(8); for (let i = 0; i < 8; i++) k[i] = (n * 37 + i * 91) & 255; const w = new Uint32Array(k.buffer); o[0] = w[0]; o[1] = w[1]; w[1] = 0x80a1b2c3 + n; o[2] = k[4]; o[3] = k[7]; o[4] = k[0]; },
    wordsAsBytes(_a, o, n) { const w = new Uint32Array(2); w[0] = 0xdeadbeef + n; w[1] = n * 1000003; const b = new Uint8Array(w.buffer); o[0] = b[0]; o[1] = b[3]; o[2] = b[5]; b[1] = 0x12 + n; b[6] += 200; o[3] = w[0]; o[4] = w[1]; o[5] = b.length; },
    floatBytes(a, o, n) { const f = new Float32Array(2); f[0] = a[n]; f[1] = -a[n] * 3; const b = new Int8Array(f.buffer); o[0] = b[3]; o[1] = b[2]; o[2] = b[7]; b[7] = b[7] ^ 0x80; o[3] = f[1]; b[0]++; o[4] = f[0]; },
    halves(_a, o, n) { const w = new Int32Array(1); w[0] = -123456 * (n + 1); const h = new Int16Array(w.buffer); const u = new Uint16Array(w.buffer); o[0] = h[0]; o[1] = h[1]; o[2] = u[1]; h[1] = -2; o[3] = w[0]; o[4] = h.length; },
    halvesAsFloats(_a, o, n) { const h = new Uint16Array(4); h[1] = 0x3f80; h[3] = 0xc040 + n; const f = new Float32Array(h.buffer); o[0] = f[0]; o[1] = f[1]; f[0] = 2.5; o[2] = h[1]; o[3] = h[0]; },
    bytesAsHalves(_a, o, n) { const b = new Uint8Array(4); b[0] = 0xff; b[1] = 0x7f + n; b[2] = 0x01; b[3] = 0x80; const s = new Int16Array(b.buffer); o[0] = s[0]; o[1] = s[1]; s[0] -= 3; o[2] = b[0]; o[3] = b[1]; },
    clamped(_a, o, n) { const w = new Uint32Array(1); const c = new Uint8ClampedArray(w.buffer); c[0] = 300; c[1] = -5; c[2] = 127.5 + n; c[3] = 1.5; o[0] = w[0]; o[1] = c[2]; },
  };
  dtest("bit casts between element sizes: bytes, halves and words of one private buffer, little-endian, as JavaScript's views read them (and passed to a helper)", async ({ dev }) => {
    const a = Float32Array.from([3, 1.5, -4, 0.1, 2]);
    for (const [name, f] of Object.entries(sizes)) {
      const k = kernel(f);
      for (let n = 0; n < 4; n++) {
        const o = new Float32Array(6).fill(-9), want = new Float32Array(6).fill(-9);
        f(a, want, n);
        await k.launch(dev, { blocks: 1, threads: 1 }, a, o, n);
        assert.deepEqual(Array.from(o), Array.from(want), `${name}(n = ${n})`);
      }
    }
    // SHOC MD5Hash's `md5_2words((unsigned int *)key, …)`: the key's bytes as words, in a helper.
    function sumWords(w: Uint32Array) { let s = 0; for (let i = 0; i < w.length; i++) s = (s + w[i]) >>> 0; return s; }
    const k = kernel(function keyWords(o: Uint32Array, n: number) { const key = new Uint8Array(12); for (let i = 0; i < 12; i++) key[i] = i * 17 + n; o[0] = sumWords(new Uint32Array(key.buffer)); }, { scope: { sumWords } });
    const o = new Uint32Array(1);
    await k.launch(dev, { blocks: 1, threads: 1 }, o, 3);
    const key = Uint8Array.from({ length: 12 }, (_v, i) => i * 17 + 3);
    assert.equal(o[0], sumWords(new Uint32Array(key.buffer)));
  });

  dtest("bit casts: what is refused (not private, 64-bit elements, a partial element, a subarray of one, assigned again)", async ({ dev }) => {
    const c = (fn: Function, types = ["f32[]"]) => kernel(fn as never).compile({ target: dev.target, types });
    await rejectsCompile(c(function global(o: Float32Array) { o[0] = new Uint32Array(o.buffer)[0]; }), "unsupported-syntax", /is over a private array of the thread .* not over a global array \('o'\)/);
    await rejectsCompile(c(function wide(o: Float32Array) { const f = new Float32Array(2); o[0] = new Float64Array(f.buffer)[0]; }), "unsupported-type", /not supported with 64-bit elements \(here f32\[\] as f64\[\]\)/);
    await rejectsCompile(c(function partial(o: Float32Array) { const b = new Uint8Array(6); o[0] = new Uint32Array(b.buffer)[0]; }), "unsupported-type", /'b' holds 6 bytes, not a whole number of u32\[\] elements of 4 bytes \(JavaScript throws a RangeError\)/);
    await rejectsCompile(c(function sub(o: Float32Array) { const f = new Float32Array(2); const u = new Uint32Array(f.buffer); o[0] = u.subarray(1)[0]; }), "unsupported-syntax", /a subarray of a typed array over the buffer of 'f' is not supported/);
    await rejectsCompile(c(function again(o: Float32Array) { let f = new Float32Array(2); f = new Float32Array(2); o[0] = f[0]; }), "invalid-assignment", /private array 'f' is assigned again/);
  });
});

// =============================================================================================
// Each test below is a compiler bug found while writing this suite (all fixed since): the kernel
// is in the kernel language and the expected behaviour follows the README's kernel language.

describe("regressions (compiler bugs found by this suite)", () => {
  dtest("a recursive helper that takes a private array", async ({ dev, same, recursion }) => {
    function recPriv(a: Int32Array, d: number): number {
      if (d === 0) return a[0];
      a[0] += d;
      return recPriv(a, d - 1);
    }
    const k = kernel(function recursivePrivate(o: Int32Array) {
      const a = new Int32Array(2);
      o[threadIdx.x] = recPriv(a, threadIdx.x);
    }, { scope: { recPriv } });
    const o = poisonI32(8);
    if (!recursion) return rejectsRecursion(k.launch(dev, { blocks: 1, threads: 8 }, o));   // WGSL and OpenCL C have no call stack
    await k.launch(dev, { blocks: 1, threads: 8 }, o);
    same(o, Array.from({ length: 8 }, (_, t) => (t * (t + 1)) / 2));
  });
});
