// Method-table overlays, device functions, generated functions and the world counter; the
// recursion and runtime-signature checks.

import { test } from "node:test";
import assert from "node:assert/strict";
import { kernel, device, onCompile, overlay, deviceFunction, generated, CompileError, KernelError, threadIdx, type ArgType } from "../src/index.ts";
import { compileModule, defaultInline } from "../src/compiler/pipeline.ts";
import { compileJob } from "../src/compiler/job.ts";
import { loadTarget } from "../src/compiler/compile.ts";
import { RUNTIME, runtimeFingerprint as computedRuntimeFingerprint } from "../src/runtime/functions.ts";
import { BUILT_IN_RUNTIME_FINGERPRINT, runtimeFingerprint } from "../src/runtime/library-fingerprint.ts";
import * as F from "./fixtures/overlays.mjs";

const dev = await device("cpu");
// Names the kernels below call: `step` through `scope`; `onlyPtx`, a device function registered
// by name for the ptx target only (never callable on the host).
declare const step: (v: number) => number, onlyPtx: (v: number) => number;
const run = async (k: ReturnType<typeof kernel>, n: number, ...args: unknown[]): Promise<number[]> => {
  const out = new Float32Array(n).fill(NaN);
  await k.launch(dev, { blocks: 1, threads: n }, out, ...args);
  return Array.from(out);
};

test("an overlay replaces a global name for its target only, and recompiles what used it", async () => {
  const usesCbrt = kernel(function usesCbrt(out: Float32Array, x: Float32Array) { out[threadIdx.x] = Math.cbrt(x[threadIdx.x]); });
  const noCbrt = kernel(function noCbrt(out: Float32Array, x: Float32Array) { out[threadIdx.x] = x[threadIdx.x] * 2; });
  const x = new Float32Array([8, 27]);
  assert.deepEqual(await run(usesCbrt, 2, x), [2, 3]);
  assert.deepEqual(await run(noCbrt, 2, x), [16, 54]);
  await noCbrt.compile({ target: "js", types: ["f32[]", "f32[]"] });
  const compiled: string[] = [];
  const stop = onCompile((e) => { if (e.origin === "compiled") compiled.push(e.kernel.name); });
  try {
    overlay("wgsl", "Math.cbrt", function cbrtW(v: number) { return v; });
    assert.deepEqual(await run(usesCbrt, 2, x), [2, 3], "another target's overlay is never picked up");
    overlay("js", "Math.cbrt", function cbrtJ(v: number) { return v + 0.5; });
    assert.deepEqual(await run(usesCbrt, 2, x), [8.5, 27.5], "the launch after the overlay recompiles");
    await noCbrt.compile({ target: "js", types: ["f32[]", "f32[]"] });
    assert.ok(compiled.includes("usesCbrt") && !compiled.includes("noCbrt"), `code that did not use Math.cbrt is reused: ${compiled.join(", ")}`);
  } finally { stop(); }
});

test("device functions: callable in kernels by name or through scope; the host stub explains", async () => {
  const lerp3 = deviceFunction("lerp3", function lerp3(a: number, b: number, t: number) { return a + (b - a) * t; });
  assert.throws(() => lerp3(1, 2, 0.5), /'lerp3' is only callable inside a kernel/);
  const byScope = kernel(function byScope(out: Float32Array) { out[threadIdx.x] = lerp3(0, 10, threadIdx.x * 0.25); }, { scope: { lerp3 } });
  const byName = kernel(function byName(out: Float32Array) { out[threadIdx.x] = lerp3(0, 10, threadIdx.x * 0.25); });
  assert.deepEqual(await run(byScope, 3), [0, 2.5, 5]);
  assert.deepEqual(await run(byName, 3), [0, 2.5, 5]);
  // A device function defined only for another target has no implementation here.
  deviceFunction("onlyPtx", { ptx: function onlyPtx(v: number) { return v; } });
  const k = kernel(function callsOnlyPtx(out: Float32Array) { out[0] = onlyPtx(1); });
  await assert.rejects(run(k, 1), (e: unknown) => e instanceof CompileError && e.kind === "undefined-name" &&
    e.message.includes("'onlyPtx' has no implementation for target 'js'"));
});

test("generated functions specialize on argument types; each type tuple is generated once", async () => {
  const seen: string[] = [];
  const scale = generated(function scaleGen(a: ArgType, s: ArgType) {
    seen.push(`${a.name},${s.name}`);
    return a.elem === "i32"
      ? function scaleInt(arr: Int32Array, k: number) { arr[threadIdx.x] = Math.imul(arr[threadIdx.x], k | 0); }
      : function scaleFloat(arr: Float32Array, k: number) { arr[threadIdx.x] = arr[threadIdx.x] * k; };
  });
  const k = kernel(function useScale(a: Int32Array | Float32Array, s: number) { scale(a, s); }, { scope: { scale } });
  const ai = new Int32Array([1, 2]), af = new Float32Array([1, 2]);
  await k.launch(dev, { blocks: 1, threads: 2 }, ai, 3);
  await k.launch(dev, { blocks: 1, threads: 2 }, af, 0.5);
  await k.launch(dev, { blocks: 1, threads: 2 }, ai, 3);
  assert.deepEqual([Array.from(ai), Array.from(af)], [[9, 18], [0.5, 1]]);
  assert.deepEqual(seen, ["i32[],i32", "f32[],f32"]);
});

test("a generated function called from a helper indexes arrays with their checks (the helper takes the kernel state for it)", async () => {
  const pick = generated(() => function pickGen(a: Float32Array, i: number) { return a[i]; });
  function twiceOf(a: Float32Array, i: number) { return pick(a, i) * 2; }
  const k = kernel(function viaGenerated(a: Float32Array, o: Float32Array, i: number) { o[0] = twiceOf(a, i); }, { scope: { twiceOf, pick } });
  const a = Float32Array.from([1, 2, 3]), o = new Float32Array(1);
  await k.launch(dev, { blocks: 1, threads: 1 }, a, o, 1);
  assert.equal(o[0], 4);
  await assert.rejects(k.launch(dev, { blocks: 1, threads: 1 }, a, o, 7), (e: unknown) => e instanceof KernelError && e.kind === "bounds" && /index 7 out of bounds for array '\w+' of length 3/.test(e.message));
});

test("a generator that throws is a generator-error carrying the original error; nothing is cached", async () => {
  let calls = 0;
  const tdz = generated(function tdzGen() {
    calls++;
    return makeIt(); // `makeIt` is in its temporal dead zone until below
  });
  const k = kernel(F.usesTdz, { scope: { tdz } });
  const err = await k.launch(dev, { blocks: 1, threads: 1 }, new Int32Array(1)).catch((e) => e);
  assert.ok(err instanceof CompileError);
  assert.equal(err.kind, "generator-error");
  assert.ok(err.cause instanceof ReferenceError);
  assert.equal(err.message.split("\n")[0], "test/fixtures/overlays.mjs:9:3: the generator of 'tdzGen' threw ReferenceError for (i32[]): Cannot access 'makeIt' before initialization");
  assert.match(err.message, /hint: a binding the generator uses may not be initialized yet/);
  const makeIt = () => function done(a: Int32Array) { a[0] = 7; };
  const a = new Int32Array(1);
  await k.launch(dev, { blocks: 1, threads: 1 }, a);
  assert.deepEqual([calls, a[0]], [2, 7], "the failure was not cached: the generator ran again and succeeded");
});

test("redefining a scope helper recompiles the kernel; an unchanged scope reuses it", async () => {
  const scope = { step: function step(v: number) { return v + 1; } };
  const k = kernel(function stepper(out: Float32Array) { out[threadIdx.x] = step(threadIdx.x); }, { scope });
  assert.deepEqual(await run(k, 2), [1, 2]);
  const compiles: string[] = [];
  const stop = onCompile((e) => { if (e.kernel === k && e.origin === "compiled") compiles.push(e.target); });
  try {
    const a1 = await k.compile({ target: "js", types: ["f32[]"] });
    assert.deepEqual(compiles, [], "compile() takes the launch's specialization");
    assert.equal((await k.compile({ target: "js", types: ["f32[]"] })).code, a1.code);
    scope.step = function step(v: number) { return v * 10; };
    assert.deepEqual(await run(k, 2), [0, 10]);
    assert.deepEqual(compiles, ["js"], "the launch after the redefinition compiles again");
    assert.notEqual((await k.compile({ target: "js", types: ["f32[]"] })).code, a1.code);
  } finally { stop(); }
});

test("recursion on a target without a call stack is a CompileError of kind recursion", async () => {
  const noStack = { ...(await loadTarget("js"))!, name: "nostack", allowRecursion: false };
  const k = kernel(F.recursive, { scope: { fib: F.fib } });
  const ufn = (await (k as unknown as { lowered(): Promise<{ ufn: never }> }).lowered()).ufn;
  const job = compileJob({ kernel: "recursive", target: "js", features: {}, types: ["f32[]"], boundsCheck: true, debugLevel: 1 });
  assert.throws(() => compileModule(ufn, job, { target: noStack, optimize: true, inline: defaultInline }), (e: unknown) => e instanceof CompileError && e.kind === "recursion" &&
    e.message === "test/fixtures/overlays.mjs:3:45: recursion is not supported on target 'nostack' (no call stack): 'fib' calls 'fib'\n    hint: rewrite the recursion as a loop");
});

test("a runtime function whose compiled signature differs from its declaration is a runtime-signature error", async () => {
  const table = RUNTIME as Map<string, { params: string[]; returns: string; fn: Function; name: string }>;
  const real = table.get("gpuc_print_reserve")!;
  table.set("gpuc_print_reserve", { ...real, returns: "f32" });
  try {
    const k = kernel(function printsOne(out: Float32Array) { console.log("x", out[0]); });
    await assert.rejects(k.launch(dev, { blocks: 1, threads: 1 }, new Float32Array(1)), (e: unknown) =>
      e instanceof CompileError && e.kind === "runtime-signature" &&
      e.message === "runtime function 'gpuc_print_reserve' is declared (i32[], i32, i32) -> f32 but compiles to (i32[], i32, i32) -> i32");
  } finally {
    table.set("gpuc_print_reserve", real);
  }
});

test("the built-in runtime library's fingerprint, a constant at the runtime's start, is what functions.ts computes; a redefinition changes it", () => {
  assert.equal(computedRuntimeFingerprint(), BUILT_IN_RUNTIME_FINGERPRINT);
  assert.equal(runtimeFingerprint(), BUILT_IN_RUNTIME_FINGERPRINT);
  const table = RUNTIME as Map<string, { params: string[]; returns: string; fn: Function; name: string }>;
  const real = table.get("gpuc_report_exception")!;
  table.set("gpuc_report_exception", { ...real, fn: new Function(`return ${real.fn.toString().replace("{", "{ /* redefined */")}`)() });
  try {
    assert.notEqual(runtimeFingerprint(), BUILT_IN_RUNTIME_FINGERPRINT);
  } finally {
    table.set("gpuc_report_exception", real);
  }
  assert.equal(runtimeFingerprint(), BUILT_IN_RUNTIME_FINGERPRINT);
});

test("WGSL writes the exception record itself (the claim, then two texels of the record's texture), the other targets call the runtime library's function (eight stores)", async () => {
  const k = () => kernel(function recorded(o: Float32Array, x: Float32Array) { o[threadIdx.x] = x[threadIdx.x]; });
  const wgsl = await k().compile({ target: "wgsl", types: ["f32[]", "f32[]"] });
  const src = wgsl.code as string;
  assert.doesNotMatch(src, /gpuc_report_exception|atomicStore\(/, "no report function, no stores to the state");
  const main = src.slice(src.indexOf("fn main("));
  assert.match(main, /if \(gpuc_exc\.x != 0i && atomicAdd\(&state\[5i\], 1i\) == 0i\) \{\n {4}textureStore\(gpuc_record, 0i, gpuc_exc\);\n {4}textureStore\(gpuc_record, 1i, /);
  const record = (wgsl.layout as { bindings: { kind: string; role: string; binding: number }[] }).bindings.filter((b) => b.role === "record");
  assert.deepEqual(record.map((b) => b.kind), ["texture"]);
  assert.match(src, new RegExp(`@binding\\(${record[0].binding}\\) var gpuc_record: texture_storage_1d<rgba32sint, write>;`));
  const opencl = (await k().compile({ target: "opencl", types: ["f32[]", "f32[]"] })).code as string;
  const at = opencl.indexOf("gpuc_report_exception(");
  assert.equal((opencl.slice(at, opencl.indexOf("\n}", at)).match(/^\s*v_state_0\[\d+\] = /gm) ?? []).length, 8, "OpenCL C: the eight stores");
});
