// The PTX target on its own: its software Math functions (checked on the CPU, where they run as
// ordinary kernel-language helpers), its limits, features (architecture, fast math, launch
// bounds) and what the emitted PTX promises. Every kernel of the execution suites is also
// assembled by ptxas (helpers.ts); the CUDA device runs them where a GPU is present.

import { test } from "node:test";
import assert from "node:assert/strict";
import { device, kernel, CompileError, KernelError, threadIdx, blockIdx, blockDim, syncthreads, shared } from "../src/index.ts";
import { readFileSync } from "node:fs";
import { SOFT_MATH_F32 as PTX_MATH } from "../src/targets/softmath/f32.ts";
import { SOFT_MATH_F64 as PTX_MATH64, fmod } from "../src/targets/softmath/f64.ts";
import { assemblePTX, ptxasAvailable } from "../src/targets/ptx/ptxas.ts";
import { randF32 } from "./helpers.ts";

const F = Math.fround;
// Scope names the kernels below use (bound through `scope`, never on the host).
declare const f: (...args: number[]) => number, E: number;
const cpu = await device("cpu");
const haveptxas = await ptxasAvailable();

/** Inputs for a function of one argument: specials, small, moderate and large magnitudes of both signs. */
function inputs1(): Float32Array {
  const specials = [0, -0, NaN, Infinity, -Infinity, 1, -1, 0.5, -0.5, 2, 1e-30, -1e-30, 1e-7, 0.124, 0.126, 0.4142, 0.4143, 2.414, 2.415,
    3, 9.5, -9.5, 20, 88, -88, 1e6, 1e19, -1e19, 3.4e38, 0.999, -0.999, 1.001];
  return Float32Array.from([...specials, ...randF32(1, 200, -4, 4), ...randF32(2, 100, -50, 50), ...randF32(3, 50, 0, 1)]);
}

/** Whether a result of a software function is close enough to JS's (f32-rounded) value. */
function close(got: number, want: number, tol = 2e-6): boolean {
  if (Number.isNaN(want)) return Number.isNaN(got);
  if (!Number.isFinite(want)) return got === want;
  if (want === 0) return Object.is(got, want) || Math.abs(got) <= tol;
  return Math.abs(got - want) <= tol * Math.max(1, Math.abs(want));
}

for (const [name, { arity, impl }] of Object.entries(PTX_MATH)) {
  test(`ptx Math.${name} (f32 software version) matches JavaScript on the CPU, special cases exactly`, async () => {
    const xs = inputs1();
    const ys = Float32Array.from(xs, (_v, i) => xs[(i * 7 + 3) % xs.length]);
    const out = new Float32Array(xs.length);
    const k = arity === 1
      ? kernel(function one(o: Float32Array, x: Float32Array) { const i = threadIdx.x + blockIdx.x * blockDim.x; if (i < x.length) o[i] = f(x[i]); }, { scope: { f: impl }, name: `ptx_${name}` })
      : kernel(function two(o: Float32Array, x: Float32Array, y: Float32Array) { const i = threadIdx.x + blockIdx.x * blockDim.x; if (i < x.length) o[i] = f(x[i], y[i]); }, { scope: { f: impl }, name: `ptx_${name}` });
    const args = arity === 1 ? [out, xs] : [out, xs, ys];
    await k.launch(cpu, { blocks: Math.ceil(xs.length / 64), threads: 64 }, ...args);
    const js = (Math as unknown as Record<string, (...a: number[]) => number>)[name];
    const bad: string[] = [];
    for (let i = 0; i < xs.length; i++) {
      const want = F(arity === 1 ? js(xs[i]) : js(xs[i], ys[i]));
      // Special values (infinities, NaN, signed zeros) must be exact; the rest within tolerance.
      const special = !Number.isFinite(want) || want === 0 || !Number.isFinite(xs[i]) || (arity === 2 && !Number.isFinite(ys[i]));
      // pow's relative error grows with the exponent of its result (see math.ts).
      const tol = name === "pow" ? 2e-6 * Math.max(1, Math.abs(Math.log2(Math.abs(want)))) / 4 : 2e-6;
      const ok = special ? Object.is(out[i], want) || (Number.isNaN(want) && Number.isNaN(out[i])) || close(out[i], want, tol) && want !== 0 : close(out[i], want, tol);
      if (!ok) bad.push(`${name}(${xs[i]}${arity === 2 ? `, ${ys[i]}` : ""}) = ${out[i]}, JS ${want}`);
    }
    assert.deepEqual(bad.slice(0, 10), [], `${bad.length} of ${xs.length} differ`);
  });
}

test("the ptx target routes f32 Math functions to its software versions and `**` to Math.pow (in f64)", async () => {
  const k = kernel(function mathy(o: Float32Array, x: Float32Array) {
    const i = threadIdx.x;
    o[i] = Math.atan2(x[i], 2) + Math.tanh(x[i]) + x[i] ** 3;
  });
  const art = await k.compile({ target: "ptx", types: ["f32[]", "f32[]"] });
  const code = art.code as string;
  for (const fn of ["atan2", "atan"]) assert.match(code, new RegExp(`^\\.func \\(\\.param \\.f32 ${fn}_\\d+_ret\\)`, "m"), `${fn} is a .func`);
  // f32 pow: the f64 version, rounded once to f32 (as JavaScript rounds its f64 Math.pow).
  assert.match(code, /^\.func \(\.param \.f64 pow_\d+_ret\)/m, "pow is a .func of f64");
});

/** f64 inputs: specials, the ranges each function reduces over, and large magnitudes. */
function inputs64(): Float64Array {
  const specials = [0, -0, NaN, Infinity, -Infinity, 1, -1, 0.5, -0.5, 2, 1e-300, -1e-300, 5e-324, 1e-8, 0.34657359, 0.4999, 0.5001,
    1.5707963267948966, 3.141592653589793, 100, -100, 700, 709.5, -740, 1e6, -1e6, 1e19, 1e300, -1e300, 0.999999, 1.000001, 22.5, 1e-20];
  const r = (seed: number, n: number, lo: number, hi: number) => Array.from(randF32(seed, n, lo, hi), (v) => v + (v * 1e-9) / 3);
  return Float64Array.from([...specials, ...r(5, 200, -4, 4), ...r(6, 100, -60, 60), ...r(7, 50, 0, 1), ...r(8, 50, -1000, 1000)]);
}

for (const [name, impl, extra, arity] of [
  ...Object.entries(PTX_MATH64).map(([n, v]) => [n, v.impl, v.extra, 1] as const),
  ...Object.entries(PTX_MATH).filter(([, v]) => v.generic).map(([n, v]) => [n, v.impl, undefined, v.arity] as const),
]) {
  test(`ptx Math.${name} on f64 (software version${extra !== undefined ? `, variant ${extra}` : ""}) matches JavaScript within a few ulp on the CPU`, async () => {
    const xs = inputs64();
    const ys = Float64Array.from(xs, (_v, i) => xs[(i * 7 + 3) % xs.length]);
    const out = new Float64Array(xs.length);
    const scope = { f: impl, E: extra ?? 0 };
    const k = arity === 2
      ? kernel(function two64(o: Float64Array, x: Float64Array, y: Float64Array) { const i = threadIdx.x + blockIdx.x * blockDim.x; if (i < x.length) o[i] = f(x[i], y[i]); }, { scope, name: `ptx64_${name}` })
      : extra === undefined
        ? kernel(function one64(o: Float64Array, x: Float64Array) { const i = threadIdx.x + blockIdx.x * blockDim.x; if (i < x.length) o[i] = f(x[i]); }, { scope, name: `ptx64_${name}` })
        : kernel(function oneE64(o: Float64Array, x: Float64Array) { const i = threadIdx.x + blockIdx.x * blockDim.x; if (i < x.length) o[i] = f(x[i], E); }, { scope, name: `ptx64_${name}` });
    await k.launch(cpu, { blocks: Math.ceil(xs.length / 64), threads: 64 }, ...(arity === 2 ? [out, xs, ys] : [out, xs]));
    const js = (Math as unknown as Record<string, (...a: number[]) => number>)[name];
    // pow's error grows with |y·log2 x| (see math.ts); sine, cosine and tangent are accurate to
    // about an ulp of their argument (the reduction), the rest to a few ulp of the result.
    const tol = (i: number, want: number) => name === "pow" ? 2 ** -52 * 8 * Math.max(1, Math.abs(Math.log2(Math.abs(want))))
      : 2 ** -52 * 8 * (["sin", "cos", "tan"].includes(name) ? Math.max(1, Math.abs(xs[i]) / Math.max(Math.abs(want), 1e-300)) : 1);
    const bad: string[] = [];
    for (let i = 0; i < xs.length; i++) {
      if (["sin", "cos", "tan"].includes(name) && Math.abs(xs[i]) > 1e6) continue;   // outside the exact reduction
      const want = arity === 2 ? js(xs[i], ys[i]) : js(xs[i]);
      const got = out[i];
      const ok = Number.isNaN(want) ? Number.isNaN(got) : !Number.isFinite(want) || want === 0 ? Object.is(got, want) || Math.abs(got) < 1e-300
        : Math.abs(got - want) <= tol(i, want) * Math.abs(want);
      if (!ok) bad.push(`${name}(${xs[i]}${arity === 2 ? `, ${ys[i]}` : ""}) = ${got}, JS ${want} (${((got - want) / want / 2 ** -52).toFixed(1)} ulp)`);
    }
    assert.deepEqual(bad.slice(0, 10), [], `${bad.length} of ${xs.length} differ`);
  });
}

test("float % on ptx and llvm is softmath's fmod, which gives JS's % exactly (bit for bit) on the CPU, subnormals, huge quotients and signs included", async () => {
  // Every pair of these, both ways round: zeros, subnormals, the extremes, NaN and infinities,
  // values whose quotient needs all of f64's exponent range, and ordinary ones.
  const base = [0, -0, 5e-324, -5e-324, 2.5e-323, 2.2250738585072014e-308, 1.7976931348623157e308, -1.7976931348623157e308, NaN, Infinity, -Infinity,
    1, -1, 0.1, -0.1, 1.5, 3, -7.25, 1e300, 1e-300, 123456789.123, 2 ** 53, 2 ** 53 + 2, 1 / 3, Math.PI, -Math.E];
  const xs = Float64Array.from(base.flatMap((x) => base.map(() => x)));
  const ys = Float64Array.from(base.flatMap(() => base));
  const k = kernel(function fmod64(o: Float64Array, x: Float64Array, y: Float64Array) {
    const i = threadIdx.x + blockIdx.x * blockDim.x;
    if (i < x.length) o[i] = f(x[i], y[i]);
  }, { scope: { f: fmod }, name: "softmath_fmod" });
  const out = new Float64Array(xs.length);
  await k.launch(cpu, { blocks: Math.ceil(xs.length / 64), threads: 64 }, out, xs, ys);
  const bad = [...out].flatMap((got, i) => (Object.is(got, xs[i] % ys[i]) ? [] : [`${xs[i]} % ${ys[i]} = ${got}, JS ${xs[i] % ys[i]}`]));
  assert.deepEqual(bad.slice(0, 10), [], `${bad.length} of ${xs.length} differ`);
  // Both targets call it, for f32 (in f64, narrowed: exact) and f64 operands; neither spells its own.
  const rem = kernel(function rems(o: Float32Array, x: Float32Array, d: Float64Array) {
    const i = threadIdx.x;
    o[i] = x[i] % 1.5;
    d[i] = d[i] % 0.1;
  });
  const ptx = (await rem.compile({ target: "ptx", types: ["f32[]", "f32[]", "f64[]"] })).code as string;
  assert.deepEqual(new Set(ptx.match(/^\.func \(\.param \.f64 fmod_\d+_ret\)/gm)).size, 1, "one fmod .func serves both");
  assert.match(ptx, /cvt\.rn\.f32\.f64/, "the f32 result narrowed from f64");
  if (haveptxas) assert.equal((await assemblePTX(ptx, "sm_75")).ok, true);
  const ll = (await rem.compile({ target: "llvm", types: ["f32[]", "f32[]", "f64[]"] })).code as string;
  assert.doesNotMatch(ll, /\bfrem\b|gpuc_fmod/);
  assert.match(ll, /fptrunc double/);
});

test("the split constants of the f64 functions are ln 2 and π/2 to 100+ bits", () => {
  const PI = "3.14159265358979323846264338327950288419716939937510582097494459230781640628620899862803482534211706798";
  const LN2 = "0.69314718055994530941723212145817656807550013436025525412068000949339362196969471560586332699641868754";
  const rat = (s: string) => { const [i, f] = s.split("."); return { n: BigInt(i + f), d: 10n ** BigInt(f.length) }; };
  const exact = (x: number) => {
    const b = new DataView(new ArrayBuffer(8)); b.setFloat64(0, x); const bits = b.getBigUint64(0);
    const e = Number((bits >> 52n) & 0x7ffn), m = (bits & ((1n << 52n) - 1n)) | (e ? 1n << 52n : 0n), ex = (e || 1) - 1075;
    return ex >= 0 ? { n: m * 2n ** BigInt(ex), d: 1n } : { n: m, d: 2n ** BigInt(-ex) };
  };
  const minus = (a: { n: bigint; d: bigint }, b: { n: bigint; d: bigint }) => ({ n: a.n * b.d - b.n * a.d, d: a.d * b.d });
  const src = readFileSync(new URL("../src/targets/softmath/f64.ts", import.meta.url), "utf8");
  // π/2 − (P1 + P2 + P3) is below 2^-100, and each part has at most 33 significant bits.
  let r = minus({ ...rat(PI), d: rat(PI).d * 2n }, exact(1.57079632673412561417));
  for (const p of [6.07710050630396597660e-11, 2.02226624871116645580e-21]) r = minus(r, exact(p));
  assert.ok(Math.abs(Number((r.n * 10n ** 40n) / r.d)) / 1e40 < 2 ** -100);
  for (const p of [1.57079632673412561417, 6.07710050630396597660e-11, 2.02226624871116645580e-21, 0.69314718036912381649]) {
    const { n } = exact(p);
    assert.ok(n % (1n << 20n) === 0n, `${p} has at most 33 significant bits (k·P is exact for |k| < 2^20)`);
  }
  // ln 2 − (LN2_HI + LN2_LO) is below 2^-80.
  const l = minus(minus(rat(LN2), exact(0.69314718036912381649)), exact(1.90821492927058770002e-10));
  assert.ok(Math.abs(Number((l.n * 10n ** 40n) / l.d)) / 1e40 < 2 ** -80);
  for (const c of ["1.57079632673412561417", "6.07710050630396597660e-11", "2.02226624871116645580e-21", "0.69314718036912381649", "1.90821492927058770002e-10"])
    assert.ok(src.includes(c), `softmath/f64.ts uses ${c}`);
});

test("f64 Math functions on ptx become .funcs of the software versions", async () => {
  const k = kernel(function f64math(o: Float64Array, x: Float64Array) {
    const v = x[threadIdx.x];
    o[threadIdx.x] = Math.exp(v) + Math.sin(v) + Math.log10(v) + v ** 2.5 + Math.sqrt(v) / 3 + Math.floor(v) % 2.5;
  });
  const code = (await k.compile({ target: "ptx", types: ["f64[]", "f64[]"] })).code as string;
  assert.match(code, /^\.func \(\.param \.f64 exp_\d+_ret\)/m);
  assert.match(code, /^\.func \(\.param \.f64 trig_\d+_ret\)/m);
  assert.match(code, /^\.func \(\.param \.f64 log_\d+_ret\)/m);
  assert.match(code, /sqrt\.rn\.f64/);
  assert.match(code, /div\.rn\.f64/);
  assert.doesNotMatch(code, /\b(ex2|lg2|sin|cos)\.approx\.f64/);
});

test("shared memory over 48 KiB per block is a CompileError on ptx", async () => {
  const k = kernel(function bigShared(o: Float32Array) {
    const s = shared(Float32Array, 12288), t = shared(Float32Array, 4096);
    s[threadIdx.x] = 1;
    t[threadIdx.x] = 2;
    syncthreads();
    o[threadIdx.x] = s[threadIdx.x] + t[threadIdx.x];
  });
  await assert.rejects(k.compile({ target: "ptx", types: ["f32[]"] }), (e: unknown) =>
    e instanceof CompileError && e.kind === "unsupported-type" && /uses 65536 bytes of shared memory per block; the ptx target allows 49152/.test(e.message));
});

test("limits are data, one validator for every target: 40 KiB of shared memory passes on ptx, not on opencl or spirv (OpenCL devices' 32 KiB); js and wgsl leave it to their devices", async () => {
  const k = kernel(function fortyKiB(o: Float32Array, b: Uint8Array) {
    const s = shared(Float32Array, 10000), t = shared(Uint8Array, 241);
    s[threadIdx.x] = 1;
    t[threadIdx.x] = b[threadIdx.x];
    syncthreads();
    o[threadIdx.x] = s[threadIdx.x] + t[threadIdx.x];
  });
  for (const target of ["ptx", "js", "wgsl"]) await k.compile({ target, types: ["f32[]", "u8[]"] });
  // (The narrow array counts whole 4-byte words: 241 bytes are 244.)
  for (const target of ["opencl", "spirv"])
    await assert.rejects(k.compile({ target, types: ["f32[]", "u8[]"] }), (e: unknown) =>
      e instanceof CompileError && e.kind === "unsupported-type" && e.message.includes(`uses 40244 bytes of shared memory per block; the ${target} target allows 32768 (what every OpenCL device has)`), target);
});

test("architectures, fast math and launch bounds reach the PTX; launches outside the bounds fail", async () => {
  const src = function bounded(o: Float32Array, x: Float32Array) {
    const i = threadIdx.x + blockIdx.x * blockDim.x;
    if (i < o.length) o[i] = Math.sqrt(x[i]) / 3;
  };
  const plain = (await kernel(src).compile({ target: "ptx", types: ["f32[]", "f32[]"], features: { arch: "sm_90" } })).code as string;
  assert.match(plain, /^\.target sm_90$/m);
  assert.match(plain, /div\.rn\.f32/);
  assert.match(plain, /sqrt\.rn\.f32/);
  assert.doesNotMatch(plain, /\.maxntid|\.reqntid/);
  const fast = (await kernel(src, { fastMath: true }).compile({ target: "ptx", types: ["f32[]", "f32[]"] })).code as string;
  assert.match(fast, /div\.approx\.f32/);
  assert.match(fast, /sqrt\.approx\.f32/);
  const k = kernel(src, { maxThreads: 128 });
  assert.match((await k.compile({ target: "ptx", types: ["f32[]", "f32[]"] })).code as string, /^\.maxntid 128, 1, 1$/m);
  const req = kernel(src, { requiredThreads: [16, 8] });
  assert.match((await req.compile({ target: "ptx", types: ["f32[]", "f32[]"] })).code as string, /^\.reqntid 16, 8, 1$/m);
  // Every device refuses a launch outside the bounds the kernel was compiled with.
  const o = new Float32Array(256), x = new Float32Array(256).fill(9);
  await k.launch(cpu, { blocks: 2, threads: 128 }, o, x);
  assert.equal(o[255], 1);
  await assert.rejects(k.launch(cpu, { blocks: 1, threads: 256 }, o, x), (e: unknown) =>
    e instanceof KernelError && e.kind === "launch-config" && e.message.endsWith(": kernel 'bounded' was compiled for blocks of at most 128×1×1 threads (maxThreads), launched with 256×1×1"));
  await assert.rejects(req.launch(cpu, { blocks: 1, threads: [8, 16] }, o, x), (e: unknown) =>
    e instanceof KernelError && e.kind === "launch-config" && /exactly 16×8×1 threads \(requiredThreads\), launched with 8×16×1/.test(e.message));
  // (Checked at kernel(), with the other options.)
  assert.throws(() => kernel(src, { maxThreads: 2048 }), (e: unknown) =>
    e instanceof CompileError && e.kind === "invalid-option" && /maxThreads must be 1 to 3 positive integers with a product of at most 1024, got 2048/.test(e.message));
});

test("float arithmetic is never contracted (exact f32 results, as on the CPU) unless fastMath", async () => {
  const src = function fmaLike(o: Float32Array, a: Float32Array, b: Float32Array) {
    const i = threadIdx.x;
    o[i] = a[i] * b[i] + o[i];
  };
  const exact = (await kernel(src).compile({ target: "ptx", types: ["f32[]", "f32[]", "f32[]"] })).code as string;
  assert.match(exact, /mul\.rn\.f32/);
  assert.match(exact, /add\.rn\.f32/);
  const fast = (await kernel(src, { fastMath: true }).compile({ target: "ptx", types: ["f32[]", "f32[]", "f32[]"] })).code as string;
  assert.match(fast, /^\s*mul\.f32 /m);
  assert.match(fast, /^\s*add\.f32 /m);
  if (haveptxas) {
    const r = await assemblePTX(exact, "sm_90");
    assert.ok(r.ok, r.log);
    assert.equal(r.usage.length, 1);
    assert.equal(r.usage[0].function, "fmaLike");
    assert.ok(r.usage[0].registers > 0);
  }
});

test("JS integer semantics legalize writes out for PTX: division by zero, -2^31 / -1, shift counts, float to int wrapping", async () => {
  const k = kernel(function ints(o: Int32Array, a: Int32Array, b: Int32Array, f: Float32Array) {
    const i = threadIdx.x;
    o[i * 4] = (a[i] / b[i]) | 0;
    o[i * 4 + 1] = a[i] % b[i];
    o[i * 4 + 2] = a[i] << b[i];
    o[i * 4 + 3] = f[i] | 0;
  });
  const code = (await k.compile({ target: "ptx", types: ["i32[]", "i32[]", "i32[]", "f32[]"] })).code as string;
  assert.match(code, /setp\.eq\.s32 %p\d+, %r\d+, -1;/, "the -1 divisor is special-cased");
  assert.match(code, /and\.b32 %r\d+, %r\d+, 31;/, "shift counts are taken mod 32");
  assert.match(code, /cvt\.rzi\.s32\.f32/);
  assert.match(code, /mul\.rn\.f32 %f\d+, %f\d+, 0f4F800000;[^]*cvt\.rzi\.u32\.f32/, "out-of-range floats wrap modulo 2^32 (exactly, in f32)");
  // The same kernel's reference results on the CPU (what the CUDA device must reproduce).
  const a = Int32Array.from([7, -7, -2147483648, 5]), b = Int32Array.from([0, 2, -1, 33]), f = Float32Array.from([3e9, -3e9, NaN, 2.5]);
  const o = new Int32Array(16);
  await k.launch(cpu, { blocks: 1, threads: 4 }, o, a, b, f);
  const want = [...a].flatMap((_v, i) => [(a[i] / b[i]) | 0, (a[i] % b[i]) | 0, a[i] << b[i], f[i] | 0]);
  assert.deepEqual(Array.from(o), want);
  assert.deepEqual(want.slice(0, 4), [0, 0, 7, -1294967296]);   // 7 / 0, 7 % 0, 7 << 0 (0 mod 32), 3e9 wraps
});

test("requiredThreads makes blockDim a constant: the reduction's loop folds, its PTX has no %ntid, results unchanged", async () => {
  const src = function sums(out: Float32Array, x: Float32Array) {
    const s = shared(Float32Array, 64);
    const t = threadIdx.x;
    s[t] = x[blockIdx.x * blockDim.x + t];
    syncthreads();
    for (let stride = blockDim.x >> 1; stride > 0; stride >>= 1) {
      if (t < stride) s[t] += s[t + stride];
      syncthreads();
    }
    if (t === 0) out[blockIdx.x] = s[0];
  };
  const fixed = kernel(src, { requiredThreads: 64 });
  const ptx = (await fixed.compile({ target: "ptx", types: ["f32[]", "f32[]"] })).code as string;
  assert.doesNotMatch(ptx, /%ntid/);
  assert.match(ptx, /^\.reqntid 64, 1, 1$/m);
  assert.match((await kernel(src).compile({ target: "ptx", types: ["f32[]", "f32[]"] })).code as string, /%ntid\.x/);
  const x = randF32(9, 256, -1, 1), o = new Float32Array(4), ref = new Float32Array(4);
  await fixed.launch(cpu, { blocks: 4, threads: 64 }, o, x);
  await kernel(src).launch(cpu, { blocks: 4, threads: 64 }, ref, x);
  assert.deepEqual(Array.from(o), Array.from(ref));
});

test("the PTX line map has one entry per line of the code, in kernels with shared arrays sized at launch too", async () => {
  const k = kernel(function dynSum(o: Float32Array, x: Float32Array) {
    const s = shared(Float32Array, blockDim.x);
    s[threadIdx.x] = x[threadIdx.x];
    syncthreads();
    o[threadIdx.x] = s[(threadIdx.x + 1) % blockDim.x];   // @DYNSUM
  });
  const art = await k.compile({ target: "ptx", types: ["f32[]", "f32[]"] });
  const lines = (art.layout as { lines: number[] }).lines;
  const code = (art.code as string).split("\n");
  assert.equal(lines.length, code.length);
  // The load of the shared element maps to the kernel's line that reads it.
  const at = code.findIndex((l) => /^\s*ld\.shared\.f32/.test(l));
  assert.ok(at > 0);
  const loc = art.runtime.location(lines[at]);
  const line = readFileSync(new URL(import.meta.url), "utf8").split("\n").findIndex((l) => l.includes("// @DYNSUM")) + 1;
  assert.equal(loc?.line, line, JSON.stringify(loc));
});

test("a runtime function with a private array, inlined into a kernel's cold exception block, declares the array there (named apart from the kernel's own)", async () => {
  const table = (await import("../src/runtime/functions.ts")).RUNTIME as Map<string, { params: string[]; returns: string; fn: Function; name: string }>;
  const real = table.get("gpuc_report_exception")!;
  // The record written through a private array, as an earlier form of the library did.
  const withArray = new Function("Atomics", "threadIdx", "blockIdx", `return function gpuc_report_exception(state, code, loc, a, b) {
    if (Atomics.add(state, 5, 1) === 0) {
      const words = new Int32Array(4);
      words[0] = code; words[1] = loc; words[2] = a; words[3] = b;
      for (let w = 0; w < Math.min(4, state.length); w++) state[w] = words[w];
    }
  };`)(Atomics, threadIdx, blockIdx);
  table.set("gpuc_report_exception", { ...real, fn: withArray });
  try {
    const k = kernel(function own(o: Float32Array, x: Float32Array) {
      const t = new Float32Array(2);
      const i = threadIdx.x;
      t[i & 1] = x[i];
      o[i] = t[0] + t[1];
    });
    const ptx = (await k.compile({ target: "ptx", types: ["f32[]", "f32[]"] })).code as string;
    const locals = [...ptx.matchAll(/^\s*\.local .* (gpuc_local_\w+)\[/gm)].map((m) => m[1]);
    assert.equal(locals.length, 2, `the kernel's array and the record's:\n${ptx}`);
    assert.notEqual(locals[0], locals[1]);
    for (const name of locals) assert.match(ptx, new RegExp(`mov\\.u64 %\\w+, ${name};`));
    if (haveptxas) assert.equal((await assemblePTX(ptx, "sm_75")).ok, true);
  } finally {
    table.set("gpuc_report_exception", real);
  }
});
