// Execution tests of scope, types and parameters (scope constants and tables, declared parameter
// types, bool values and parameters, specialization by argument types, block scoping): small
// kernels, each compared with a plain-JavaScript reference computed here. f32 references round
// every operation with Math.fround; i32/u32 references wrap with `| 0` / `>>> 0` / Math.imul.
//
// Every test runs on each device of the matrix (helpers.ts: `dtest`): the CPU device (the JS
// target, the exact reference semantics) and WebGPU (the WGSL target), where integers must agree
// exactly and f32 values within F32_TOL relative unless a test says why not. Where WebGPU differs
// by design (no f64), the test says so where it branches on `wgsl`.
//
// Outputs are poisoned (NaN or a sentinel) before each launch so unwritten elements show, and many
// outputs are "wide" (`wide`, `wideMixed`): Float64Array on the CPU, so that a missing in-kernel
// wrap or f32 rounding is not hidden by the conversion a narrower typed-array store would do; on
// WebGPU, which has no f64, arrays of the results' own types.
//
// Note: tsx transpiles this file with esbuild, which reprints kernel sources (whitespace removed,
// `1.0` printed as `1`, `1000` printed as `1e3` -- which gpuc reads as a float literal --, some
// constant expressions folded). Integer literals in these kernels therefore avoid multiples of
// 1000.

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { kernel, device, onCompile, CompileError, KernelError, threadIdx, blockIdx, blockDim, shared, syncthreads } from "../src/index.ts";
import { randF32, poisonF32, poisonI32, F, forThreads, dtest, openDevices, type Wide } from "./helpers.ts";

// Scope constants the kernels below name (bound through `scope`, never on the host).
declare const SCALE: number, OFFSET: number, BIAS: number, FLAG: boolean, FACTOR: number;

await openDevices();

// =============================================================================================

describe("scope, types and parameters", () => {
  const LUT = new Float32Array([0.5, 1.25, -2, 3.75, 0.1]);
  const ILUT = new Int32Array([7, -3, 100000, 2147483647]);
  const DLUT = new Float64Array([0.1, 0.2, 0.3]);
  const F32LUT = Float32Array.from(DLUT);   // WGSL has no f64: WebGPU gets the f64 table as an f32 one

  dtest("scope constants (numbers, bool) and constant tables (f32, i32, f64)", async ({ dev, same, wide, wgsl }) => {
    const k = kernel(function scoped(o: Wide, oi: Int32Array, od: Wide) {
      const i = threadIdx.x;
      o[i] = LUT[i % LUT.length] * SCALE + OFFSET;
      oi[i] = ILUT[i % ILUT.length] + BIAS;
      if (FLAG) oi[i] = oi[i] * 2;
      od[i] = DLUT[i % 3] + DLUT[(i + 1) % 3];
    }, { scope: { LUT, ILUT, DLUT: wgsl ? F32LUT : DLUT, SCALE: 3, OFFSET: 0.25, BIAS: 1, FLAG: true } });
    const n = 12;
    const o = wide(n, "f32"), oi = poisonI32(n), od = wide(n, "f32");
    await k.launch(dev, { blocks: 1, threads: n }, o, oi, od);
    same(o, Array.from({ length: n }, (_v, i) => F(F(LUT[i % 5] * 3) + 0.25)));
    same(oi, Array.from({ length: n }, (_v, i) => Math.imul((ILUT[i % 4] + 1) | 0, 2)));
    if (wgsl) same(od, Array.from({ length: n }, (_v, i) => F(F32LUT[i % 3] + F32LUT[(i + 1) % 3])));
    else same(od, Array.from({ length: n }, (_v, i) => DLUT[i % 3] + DLUT[(i + 1) % 3]));
  });

  dtest("locals whose names collide once made legal for a target (a_b, a$b, a__b; a reserved word) stay apart", async ({ dev, same }) => {
    const k = kernel(function names(o: Int32Array) {
      const i = threadIdx.x;
      const a_b = i + 1, a$b = i + 10, a__b = i + 100, $x = i + 1000, loop = 5;
      o[i] = a_b + a$b * 2 + a__b * 3 + $x * 4 + loop;
    });
    const o = new Int32Array(4);
    await k.launch(dev, { blocks: 1, threads: 4 }, o);
    same(o, [0, 1, 2, 3].map((i) => (i + 1) + (i + 10) * 2 + (i + 100) * 3 + (i + 1000) * 4 + 5));
  });

  dtest("Horner polynomial with a scope coefficient table", async ({ dev, same }) => {
    const COEF = new Float32Array([1, -0.5, 0.25, -0.125, 0.0625, 0.3]);
    const k = kernel(function horner(x: Float32Array, o: Float32Array) {
      const i = blockIdx.x * blockDim.x + threadIdx.x;
      if (i >= x.length) return;
      let r = 0;
      for (let k = COEF.length - 1; k >= 0; k--) r = r * x[i] + COEF[k];
      o[i] = r;
    }, { scope: { COEF } });
    const x = randF32(231, 100, -2, 2), o = poisonF32(100);
    await k.launch(dev, { blocks: 4, threads: 32 }, x, o);
    same(o, Array.from(x, (v) => { let r = 0; for (let k = 5; k >= 0; k--) r = F(F(r * v) + COEF[k]); return r; }));
  });

  dtest("3x3 convolution with scope weights on a 2-D grid", async ({ dev, same }) => {
    const W3 = new Float32Array([0.0625, 0.125, 0.0625, 0.125, 0.25, 0.125, 0.0625, 0.125, 0.0625]);
    const k = kernel(function conv3x3(src: Float32Array, dst: Float32Array, w: number, h: number) {
      const x = blockIdx.x * blockDim.x + threadIdx.x;
      const y = blockIdx.y * blockDim.y + threadIdx.y;
      if (x >= w || y >= h) return;
      let acc = 0;
      for (let dy = -1; dy <= 1; dy++) {
        for (let dx = -1; dx <= 1; dx++) {
          const sx = Math.min(Math.max(x + dx, 0), w - 1);
          const sy = Math.min(Math.max(y + dy, 0), h - 1);
          acc += src[sy * w + sx] * W3[(dy + 1) * 3 + dx + 1];
        }
      }
      dst[y * w + x] = acc;
    }, { scope: { W3 } });
    const Wd = 21, Hd = 13;
    const src = randF32(241, Wd * Hd, 0, 10), dst = poisonF32(Wd * Hd);
    await k.launch(dev, { blocks: [3, 2], threads: [8, 8] }, src, dst, Wd, Hd);
    const want = new Float32Array(Wd * Hd);
    for (let y = 0; y < Hd; y++) for (let x = 0; x < Wd; x++) {
      let acc = 0;
      for (let dy = -1; dy <= 1; dy++) for (let dx = -1; dx <= 1; dx++) {
        const sx = Math.min(Math.max(x + dx, 0), Wd - 1), sy = Math.min(Math.max(y + dy, 0), Hd - 1);
        acc = F(acc + F(src[sy * Wd + sx] * W3[(dy + 1) * 3 + dx + 1]));
      }
      want[y * Wd + x] = acc;
    }
    same(dst, want);
  });

  dtest("types: a declared f32 parameter receiving an integer", async ({ dev, same, wide }) => {
    function typedParam(a: number, o: Wide) {
      o[0] = a + 2147483647;
      o[1] = a / 2;
      o[2] = (a * 3) | 0;
    }
    const asF32 = kernel(typedParam, { types: { a: "f32" } });
    const asDefault = kernel(typedParam);
    const o = wide(3, "f32"), o2 = wide(3, "f32");   // (o2[0], an i32 -2^31, is exact in f32)
    await asF32.launch(dev, { blocks: 1, threads: 1 }, 1, o);
    await asDefault.launch(dev, { blocks: 1, threads: 1 }, 1, o2);
    same(o, [2147483648, 0.5, 3], "a: f32");
    same(o2, [-2147483648, 0.5, 3], "a: i32 (by value)");
  });

  dtest("types: a declared i32 parameter receiving 2.5 is a CompileError (argument)", async ({ dev }) => {
    const k = kernel(function typedI32(n: number, o: Float32Array) { o[0] = n; }, { types: { n: "i32" } });
    await assert.rejects(k.launch(dev, { blocks: 1, threads: 1 }, 2.5, new Float32Array(1)), (e: unknown) => {
      assert.ok(e instanceof CompileError, `expected CompileError, got ${e}`);
      assert.equal(e.kind, "argument-type");
      assert.match(e.message, /'n'/);
      assert.match(e.message, /2\.5/);
      return true;
    });
  });

  dtest("bool parameters", async ({ dev, same }) => {
    const k = kernel(function boolParam(flag: boolean, x: Float32Array, o: Float32Array, oi: Int32Array) {
      const i = threadIdx.x;
      o[i] = flag ? x[i] : -x[i];
      if (!flag) o[i] += 1;
      oi[i * 3] = flag ? 1 : 0;
      oi[i * 3 + 1] = flag && x[i] > 0 ? 2 : 3;
      oi[i * 3 + 2] = flag === true ? 4 : 5;
    });
    const x = randF32(251, 8);
    for (const flag of [true, false]) {
      const o = poisonF32(8), oi = poisonI32(24);
      await k.launch(dev, { blocks: 1, threads: 8 }, flag, x, o, oi);
      same(o, Array.from(x, (v) => (flag ? v : F(-v + 1))), `flag=${flag}`);
      const wi: number[] = [];
      for (let i = 0; i < 8; i++) wi.push(flag ? 1 : 0, flag && x[i] > 0 ? 2 : 3, flag ? 4 : 5);
      same(oi, wi, `flag=${flag}`);
    }
  });

  dtest("same kernel, two argument type tuples (i32 vs f32 scalar)", async ({ dev, same, wideMixed }) => {
    const k = kernel(function twoSpecs(s: number, x: Float32Array, o: Wide) {
      const i = threadIdx.x;
      o[i * 3] = x[i] * s;
      o[i * 3 + 1] = s + 2147483647;
      o[i * 3 + 2] = (s / 2) | 0;
    });
    const x = randF32(261, 4, -3, 3);
    const ref = (s: number, sIsInt: boolean) => {
      const out: number[] = [];
      for (let i = 0; i < 4; i++) out.push(F(x[i] * F(s)), sIsInt ? (s + 2147483647) | 0 : F(F(s) + F(2147483647)), (F(s) / 2) | 0);
      return out;
    };
    for (const [s, isInt] of [[3, true], [2.5, false], [-7, true], [-7.5, false]] as const) {
      const floats = (j: number) => j % 3 === 0 || (j % 3 === 1 && !isInt);
      const o = await wideMixed(12, floats, (o) => k.launch(dev, { blocks: 1, threads: 4 }, s, x, o));
      same(o, ref(s, isInt), `s = ${s}`, { floats });
    }
  });

  dtest("compile() specializes by example args or by type names", async ({ dev }) => {
    const k = kernel(function axpyCompile(a: number, x: Float32Array, y: Float32Array) {
      const i = threadIdx.x;
      if (i < y.length) y[i] = a * x[i] + y[i];
    });
    const target = dev.target;   // "js" for the CPU device, "wgsl" for WebGPU
    const byTypes = await k.compile({ target, types: ["f32", "f32[]", "f32[]"] });
    const byArgs = await k.compile({ target, args: [2.5, new Float32Array(1), new Float32Array(1)] });
    const byIntArg = await k.compile({ target, args: [3, new Float32Array(1), new Float32Array(1)] });
    assert.deepEqual(byTypes.params.map((p) => [p.name, p.type]), [["a", "f32"], ["x", "f32[]"], ["y", "f32[]"]]);
    assert.deepEqual(byArgs.params.map((p) => p.type), ["f32", "f32[]", "f32[]"]);
    assert.deepEqual(byIntArg.params.map((p) => p.type), ["i32", "f32[]", "f32[]"]);
    assert.equal(typeof byTypes.code, "string");
    assert.ok((byTypes.code as string).includes(byTypes.entry), "the code defines its entry");
    assert.equal(byTypes.code, byArgs.code);
  });


  dtest("block scoping and shadowing with different types", async ({ dev, same, wide }) => {
    const k = kernel(function shadowing(x: Float32Array, o: Wide) {
      let v = 1;
      {
        let v = x[0];
        o[0] = v;
      }
      o[1] = v;
      for (let v = 0; v < 3; v++) o[2] = v;
      o[3] = v + 2147483647;
    });
    const x = Float32Array.from([2.7]), o = wide(4, "f32");   // (o[3], an i32 -2^31, is exact in f32)
    await k.launch(dev, { blocks: 1, threads: 1 }, x, o);
    same(o, [x[0], 1, 2, -2147483648]);
  });

  dtest("a scalar parameter assigned a wider type", async ({ dev, same, wide }) => {
    const k = kernel(function paramWiden(a: number, o: Wide) {
      o[0] = a;
      a = a + 0.5;
      o[1] = a;
      a *= 3;
      o[2] = a;
    });
    for (const a of [3, 7, -2]) {
      const o = wide(3, "f32");
      await k.launch(dev, { blocks: 1, threads: 1 }, a, o);
      same(o, [a, a + 0.5, F((a + 0.5) * 3)], `a = ${a}`);
    }
  });

  // Each thread is a call with its own arguments: a parameter one thread assigns is not another's
  // (the CPU device runs a block's threads in one call of the kernel's function: passes/param-copies.ts).
  const ownParam = kernel(function ownParam(o: Int32Array, g: Float32Array, p: number, f: number) {
    const i = blockIdx.x * blockDim.x + threadIdx.x;
    if ((i & 1) === 0) p = p + i;
    for (let q = 0; q < (i & 3); q++) f = f * 0.5;
    o[i] = p;
    g[i] = f;
  }, { types: { p: "i32", f: "f32" } });
  const ownParamWant = (n: number, p: number, f: number) => ({
    o: Array.from({ length: n }, (_, i) => ((i & 1) === 0 ? p + i : p)),
    g: Array.from({ length: n }, (_, i) => f * 0.5 ** (i & 3)),
  });

  dtest("a scalar parameter each thread assigns is that thread's own (several threads and blocks)", async ({ dev, same }) => {
    const n = 96, o = poisonI32(n), g = poisonF32(n);
    await ownParam.launch(dev, { blocks: 3, threads: 32 }, o, g, 5, 3);
    const want = ownParamWant(n, 5, 3);
    same(o, want.o, "the i32 parameter");
    same(g, want.g, "the f32 parameter");
  });

  dtest("a parameter each thread assigns, between barriers: each thread's own", async ({ dev, same }) => {
    const k = kernel(function ownParamShared(o: Int32Array, p: number) {
      const s = shared(Int32Array, 64);
      const t = threadIdx.x;
      p = p + t;
      s[t] = p;
      syncthreads();
      o[blockIdx.x * blockDim.x + t] = s[(t + 1) % blockDim.x] + p;
    }, { types: { p: "i32" } });
    const o = poisonI32(128);
    await k.launch(dev, { blocks: 2, threads: 64 }, o, 100);
    same(o, Array.from({ length: 128 }, (_, i) => 100 + ((i % 64) + 1) % 64 + 100 + (i % 64)));
  });

  test("a parameter each thread assigns, on the CPU device as JavaScript and as WebAssembly", async () => {
    for (const wasm of [false, "always"] as const) {
      const dev = await device("cpu", { wasm, threads: 1 });
      try {
        const n = 96, o = poisonI32(n), g = poisonF32(n);
        await ownParam.launch(dev, { blocks: 3, threads: 32 }, o, g, -7, 10);
        const want = ownParamWant(n, -7, 10);
        assert.deepEqual([...o], want.o, `wasm: ${wasm}`);
        assert.deepEqual([...g], want.g, `wasm: ${wasm}`);
      } finally { dev.close(); }
    }
  });

  dtest("bool values in arithmetic and comparisons", async ({ dev, same }) => {
    const k = kernel(function boolArith(x: Float32Array, o: Int32Array) {
      const i = threadIdx.x;
      const pos = x[i] > 0;
      o[i * 5] = ((x[i] > 0) as unknown as number) + ((x[i] > 1) as unknown as number);
      o[i * 5 + 1] = (pos as unknown as number) * 3;
      o[i * 5 + 2] = (pos as unknown as number) == 1 ? 1 : 0;
      o[i * 5 + 3] = !x[i] ? 1 : 0;
      o[i * 5 + 4] = pos !== x[i] < -1 ? 1 : 0;
    });
    const x = Float32Array.from([2, 0.5, 0, -0.5, -2, NaN]);
    const n = x.length;
    const o = poisonI32(n * 5);
    await k.launch(dev, { blocks: 1, threads: n }, x, o);
    const want = new Int32Array(n * 5);
    forThreads(n, (i) => {
      const v = x[i], pos = v > 0;
      want.set([Number(v > 0) + Number(v > 1), Number(pos) * 3, pos ? 1 : 0, !v ? 1 : 0, pos !== v < -1 ? 1 : 0], i * 5);
    });
    same(o, want);
  });

  dtest("one helper under two scopes with different constants", async ({ dev, same }) => {
    function scaleBy(v: number) { return v * FACTOR; }
    const k2 = kernel(function scaled2(o: Int32Array) { o[threadIdx.x] = scaleBy(threadIdx.x + 5); }, { scope: { scaleBy, FACTOR: 2 } });
    const k3 = kernel(function scaled3(o: Int32Array) { o[threadIdx.x] = scaleBy(threadIdx.x + 5); }, { scope: { scaleBy, FACTOR: 3 } });
    const o2 = poisonI32(3), o3 = poisonI32(3);
    await k2.launch(dev, { blocks: 1, threads: 3 }, o2);
    await k3.launch(dev, { blocks: 1, threads: 3 }, o3);
    same(o2, [10, 12, 14]);
    same(o3, [15, 18, 21]);
  });

  dtest("number arguments are typed by value (i32 range -> i32, else f32, -0 -> f32)", async ({ dev, same, wide }) => {
    const k = kernel(function argsByValue(a: number, o: Wide) {
      o[0] = a + 1;
      o[1] = a * 1;
    });
    const cases: [number, number[]][] = [
      [2147483647, [-2147483648, 2147483647]],
      [2147483648, [2147483648, 2147483648]],
      [-2147483648, [-2147483647, -2147483648]],
      [-2147483649, [-2147483648, -2147483648]],
      [0.5, [1.5, 0.5]],
      [-0, [1, -0]],
    ];
    for (const [a, want] of cases) {
      const o = wide(2, Number.isInteger(a) && (a | 0) === a && !Object.is(a, -0) ? "i32" : "f32");
      await k.launch(dev, { blocks: 1, threads: 1 }, a, o);
      same(o, want, `a = ${Object.is(a, -0) ? "-0" : a}`);
    }
  });
});

// Constants the host rewrites (issue #16, item 7): rewritable scope tables and setTable.
describe("rewritable tables (setTable)", () => {
  dtest("setTable replaces a table's values for later launches, without recompiling; reads at constant indices are not folded", async ({ dev, same }) => {
    const centroids = Float32Array.from([0, 10, 20, 30]);
    const compiles: string[] = [];
    // (On WebGPU the one compile is the kernel's variant, which every launch here proves:
    // ARCHITECTURE.md, "Checks a launch proves".)
    const stop = onCompile((e) => { compiles.push(e.target); });
    try {
      const nearest = kernel(function nearest(o: Int32Array, d: Float32Array, x: Float32Array) {
        const i = threadIdx.x;
        let best = 0;
        for (let c = 1; c < centroids.length; c++) if (Math.abs(x[i] - centroids[c]) < Math.abs(x[i] - centroids[best])) best = c;
        o[i] = best;
        d[i] = centroids[1];              // a constant index: read from the table at every launch
      }, { scope: { centroids }, rewritable: ["centroids"] });
      const x = Float32Array.from([1, 9, 14, 26, 33, -5, 18, 22]);
      const o = poisonI32(8), d = poisonF32(8);
      const ref = (cs: ArrayLike<number>) => Array.from(x, (v) => { let b = 0; for (let c = 1; c < cs.length; c++) if (Math.abs(F(v - cs[c])) < Math.abs(F(v - cs[b]))) b = c; return b; });
      await nearest.launch(dev, { blocks: 1, threads: 8 }, o, d, x);
      same(o, ref(centroids));
      same(d, Array(8).fill(10));
      const moved = Float32Array.from([-10, 5, 15, 40]);
      nearest.setTable("centroids", moved);
      await nearest.launch(dev, { blocks: 1, threads: 8 }, o, d, x);
      same(o, ref(moved));
      same(d, Array(8).fill(5));
      // Changing the scope's array in place changes nothing: tables are constants until setTable.
      centroids.fill(1000);
      await nearest.launch(dev, { blocks: 1, threads: 8 }, o, d, x);
      same(o, ref(moved));
      assert.equal(compiles.filter((t) => t === dev.target).length, 1, `compiled once for ${dev.target}: ${compiles.join(", ")}`);
    } finally { stop(); }
  });

  dtest("what setTable and the rewritable option reject", async ({ dev }) => {
    const table = Int32Array.from([1, 2, 3]), other = Int32Array.from([4, 5]);
    const k = kernel(function readTable(o: Int32Array) { o[0] = table[2] + other[1]; }, { scope: { table, other }, rewritable: ["table"] });
    await k.launch(dev, { blocks: 1, threads: 1 }, poisonI32(1));
    const rejects = (f: () => void, re: RegExp) => assert.throws(f, (e: unknown) => e instanceof KernelError && re.test(e.message), String(re));
    rejects(() => k.setTable("other", Int32Array.from([0, 0])), /'other' is not a rewritable table/);
    rejects(() => k.setTable("table", Int32Array.from([0, 0])), /table 'table' is Int32Array\(3\); setTable got Int32Array\(2\)/);
    rejects(() => k.setTable("table", new Float32Array(3)), /setTable got Float32Array\(3\)/);
    assert.throws(() => kernel(function bad(o: Int32Array) { o[0] = 1; }, { scope: { n: 3 }, rewritable: ["n"] }), (e: unknown) => e instanceof CompileError && /rewritable: 'n' is not a table of the kernel's scope/.test(e.message));
  });

  dtest("a const bound to a number is that number, as one from scope is (`const VEC = 32; VEC / 2` indexes; `const C = 0.1` keeps its f64 value)", async ({ dev, same, wgsl }) => {
    const k = kernel(function halves(a: Float32Array, o: Float32Array) {
      const VEC = 32;
      const tid = threadIdx.x;
      let beta = 0;
      for (let i = VEC / 2; i > 0; i >>= 1) beta += a[tid + i];
      o[tid] = beta;
    });
    const a = randF32(41, 64), o = poisonF32(4);
    await k.launch(dev, { blocks: 1, threads: 4 }, a, o);
    same(o, Array.from({ length: 4 }, (_v, t) => { let b = 0; for (let i = 16; i > 0; i >>= 1) b = F(b + a[t + i]); return b; }));
    if (wgsl) return;
    const d = kernel(function tenth(x: Float64Array, y: Float64Array) { const C = 0.1; y[threadIdx.x] = x[threadIdx.x] * C; });
    const x = Float64Array.from([3, 7, 11]), y = new Float64Array(3);
    await d.launch(dev, { blocks: 1, threads: 3 }, x, y);
    assert.deepEqual(Array.from(y), Array.from(x, (v) => v * 0.1));
  });

  // Each runs in one thread on (a, o, n), as plain JavaScript runs it here (the reference): the
  // variables declared without a value hold JavaScript's undefined until they are assigned.
  const unassigned: Record<string, { f: (a: Float32Array, o: Float32Array, n: number) => void; refused?: number[] }> = {
    minimum: { f(a, o, n) { let best: any; for (let i = 0; i < n; i++) if (best === undefined || a[i] < best) best = a[i]; o[0] = best; o[1] = best === undefined ? 1 : 0; o[2] = best ?? -1; } },
    argmin: { refused: [0], f(a, o, n) { let idx: any; let m = Infinity; for (let i = 0; i < n; i++) if (a[i] < m) { m = a[i]; idx = i; } o[0] = idx == null ? 7 : 8; o[1] = idx | 0; o[2] = idx < 2 ? 1 : 0; o[3] = idx + 1; } },
    flag: { f(a, o, n) { let found: any; for (let i = 0; i < n; i++) if (a[i] > 2) found = true; o[0] = found ? 1 : 2; o[1] = found === false ? 1 : 2; o[2] = !found ? 3 : 4; o[3] = found !== undefined ? 5 : 6; } },
    nullish: { f(a, o, n) { let x: any; if (n > 2) x = a[0]; o[0] = x ?? -1; let y: any; y ??= 4; o[1] = y; let z: any; if (n > 2) z = 3; z ||= 9; o[2] = z; } },
    varKeeps: { f(a, o, n) { for (let i = 0; i < 3; i++) { var t: any; if (i === n) t = a[i]; o[i] = t === undefined ? -1 : t; } } },
    perIteration: { f(a, o, n) { for (let i = 0; i < 3; i++) { let t: any; if (i === n) t = a[i]; o[i] = t === undefined ? -1 : t; } } },
    twoVariables: { f(a, o, n) { let p: any, q: any; if (n > 2) p = a[1]; if (n > 3) q = a[1]; o[0] = p === q ? 1 : 0; o[1] = p == q ? 1 : 0; o[2] = p !== q ? 1 : 0; o[3] = p < q ? 1 : 0; } },
    floats: { f(a, o, n) { let x: any; let i = 0; while (i < n) { x = a[i]; i++; } o[0] = x; o[1] = x * 2 + 1; o[2] = Math.max(x, 1); o[3] = x >= 3 ? 1 : 0; } },
    switchCases: { refused: [2, 3, 4], f(_a, o, n) { let x: any; switch (n) { case 0: x = 1; break; case 1: x = 2; break; } o[0] = x === undefined ? -1 : 2; o[1] = x + 1; } },
    everyPath: { f(_a, o, n) { let x: any, y: any; if (n > 1) x = 2; else x = 3; switch (n) { case 0: y = 1; break; default: y = 5; } let z: any; do { z = n; } while (false); let w: any; while (true) { w = n + 1; if (w > 0) break; } o[0] = x * y + z + w; } },
  };
  dtest("a variable declared without a value is undefined until assigned: tests and comparisons see it, a float is NaN, an integer used as a number is a KernelError", async ({ dev }) => {
    const a = Float32Array.from([3, 1.5, 4, 0.5, 2]);
    for (const [name, { f, refused = [] }] of Object.entries(unassigned)) {
      const k = kernel(f);
      for (let n = 0; n < 5; n++) {
        const want = new Float32Array(4).fill(-9), o = new Float32Array(4).fill(-9);
        f(a, want, n);
        const r = await k.launch(dev, { blocks: 1, threads: 1 }, a, o, n).then(() => null, (e: unknown) => e);
        if (refused.includes(n)) {
          assert.ok(r instanceof KernelError && r.kind === "exception" && /is undefined here \(declared without a value, none assigned yet\) and used as a number/.test(r.message), `${name}(n = ${n}) refused: ${r}`);
          continue;
        }
        assert.equal(r, null, `${name}(n = ${n}): ${r}`);
        assert.deepEqual(Array.from(o), Array.from(want), `${name}(n = ${n})`);
      }
    }
  });

  dtest("what a variable declared without a value may not do while it may be undefined", async ({ dev }) => {
    const helper = (v: number) => v * 2;
    const cases: [Function, RegExp][] = [
      [function passes(o: Float32Array, n: number) { let x: any; if (n > 1) x = 2.5; o[0] = helper(x); }, /'x' is undefined here \(declared without a value, none assigned yet\) and passed to a helper/],
    ];
    for (const [f, re] of cases) {
      const k = kernel(f as (o: Float32Array, n: number) => void, { scope: { helper } });
      const o = new Float32Array(1);
      await k.launch(dev, { blocks: 1, threads: 1 }, o, 2);
      assert.equal(o[0], 5);
      await assert.rejects(k.launch(dev, { blocks: 1, threads: 1 }, o, 0), (e: unknown) => e instanceof KernelError && re.test(e.message));
    }
    const t = kernel(function kind(o: Float32Array, n: number) { let x: any; if (n > 1) x = 2; o[0] = typeof x === "number" ? 1 : 0; });
    await assert.rejects(t.launch(dev, { blocks: 1, threads: 1 }, new Float32Array(1), 2), (e: unknown) => e instanceof CompileError && /typeof 'x' is known only when the kernel runs/.test(e.message));
  });
});
