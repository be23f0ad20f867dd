// Launches: the launch configurations and arguments a launch rejects, and launches on device arrays
// (resident data, read and written back). Every test runs on each device of the matrix (helpers.ts:
// `dtest`): the CPU device (the JS target) and WebGPU (the WGSL target).

import { describe } from "node:test";
import assert from "node:assert/strict";
import { kernel, CompileError, KernelError, threadIdx, blockIdx, blockDim } from "../src/index.ts";
import { randF32, poisonF32, F, dtest, openDevices } from "./helpers.ts";

await openDevices();

// =============================================================================================

describe("launch configuration and argument errors", () => {
  const k = kernel(function launchErr(a: number, x: Float32Array, y: Float32Array) {
    const i = threadIdx.x;
    if (i < y.length) y[i] = a * x[i];
  });
  const x = new Float32Array(4), y = new Float32Array(4);

  // Each located at the launch in this file (errors.test.ts has the messages in full).
  const here = (e: KernelError | CompileError) => assert.ok(e.location?.file.endsWith("launch.test.ts"), `at the call: ${JSON.stringify(e.location)}`);
  const rejectsLaunch = (p: Promise<void>, re: RegExp) => assert.rejects(p, (e: unknown) => {
    assert.ok(e instanceof KernelError, `expected KernelError, got ${e}`);
    assert.equal(e.kind, "launch-config");
    assert.match(e.message, re);
    here(e);
    return true;
  });
  const rejectsArgument = (p: Promise<void>, re: RegExp, kind = "argument-type") => assert.rejects(p, (e: unknown) => {
    assert.ok(e instanceof CompileError, `expected CompileError, got ${e}`);
    assert.equal(e.kind, kind);
    assert.match(e.message, re);
    here(e);
    return true;
  });

  dtest("blocks: 0", ({ dev }) => rejectsLaunch(k.launch(dev, { blocks: 0, threads: 4 }, 1, x, y), /blocks.*positive integer.*0/));
  dtest("threads: 2000 (over 1024 per block)", ({ dev }) => rejectsLaunch(k.launch(dev, { blocks: 1, threads: 2000 }, 1, x, y), /2000.*1024/));
  dtest("threads: [1,1,65] (z over 64)", ({ dev }) => rejectsLaunch(k.launch(dev, { blocks: 1, threads: [1, 1, 65] }, 1, x, y), /threads\.z.*65.*64/));
  dtest("threads: [32,32,2] (2048 per block)", ({ dev }) => rejectsLaunch(k.launch(dev, { blocks: 1, threads: [32, 32, 2] }, 1, x, y), /2048.*1024/));
  dtest("wrong argument count", ({ dev }) => rejectsArgument(k.launch(dev, { blocks: 1, threads: 4 }, 1, x), /takes 3 arguments.*got 2/, "arity"));
  dtest("a string argument", ({ dev }) => rejectsArgument(k.launch(dev, { blocks: 1, threads: 4 }, "2" as unknown as number, x, y), /'a'.*the string "2"/));
  dtest("a block count over the device's own limit", ({ dev }) => rejectsLaunch(k.launch(dev, { blocks: [1, 1, 70000], threads: 4 }, 1, x, y), /blocks\.z = 70000 exceeds the limit of 65535/));
  dtest("a BigInt64Array", ({ dev }) => rejectsArgument(k.launch(dev, { blocks: 1, threads: 4 }, 1, x, new BigInt64Array(4) as never), /'y'.*BigInt64Array, an array kind kernels do not take/, "unsupported-array"));
  dtest("launches still work after the errors", async ({ dev, same }) => {
    const yy = poisonF32(4), xx = Float32Array.from([1, 2, 3, 4]);
    await k.launch(dev, { blocks: 1, threads: 4 }, 2, xx, yy);
    same(yy, [2, 4, 6, 8]);
  });
});

// =============================================================================================

describe("device arrays", () => {
  dtest("device arrays: dev.array, launches on resident data, read, write", async ({ dev, same }) => {
    const k = kernel(function axpbyDev(a: number, x: Float32Array, y: Float32Array) {
      const i = blockIdx.x * blockDim.x + threadIdx.x;
      if (i < y.length) y[i] = a * x[i] + y[i];
    });
    const n = 300;
    const x = randF32(271, n), y = randF32(272, n);
    const x0 = x.slice(), y0 = y.slice();
    const dx = dev.array(x), dy = dev.array(y);
    await k.launch(dev, { blocks: [2, 1, 1], threads: [256, 1, 1] }, 1.5, dx, dy);
    await k.launch(dev, { blocks: [2, 1, 1], threads: [256, 1, 1] }, 1.5, dx, dy);
    const once = y0.map((v, i) => F(F(F(1.5) * x0[i]) + v));
    const twice = once.map((v, i) => F(F(F(1.5) * x0[i]) + v));
    const got = await dy.read();
    assert.ok(got instanceof Float32Array);
    same(got, twice, "two launches on resident data");
    same(y, y0, "host array untouched");
    same(await dx.read(), x0, "x unchanged");
    await dy.write(y0);
    await k.launch(dev, { blocks: 2, threads: 256 }, 1.5, dx, dy);
    same(await dy.read(), once, "after write()");
  });
});

// Device-to-device copies (issue #16, item 8): dev.copy(dst, src[, { srcOffset, dstOffset, length }]).
describe("device-to-device copies", () => {
  const scale = kernel(function scaleBy(o: Float32Array, x: Float32Array, f: number) { const i = threadIdx.x; o[i] = x[i] * f; });

  dtest("a whole array, a range, an overlapping range of one array, ordered with launches", async ({ dev, same }) => {
    const x = randF32(12, 16, -5, 5);
    const a = dev.array(x), b = dev.array(new Float32Array(16)), c = dev.array(new Float32Array(8).fill(-1));
    await scale.launch(dev, { blocks: 1, threads: 16 }, b, a, 2);   // b = 2x
    await dev.copy(a, b);                                          // a = 2x, without the host
    await scale.launch(dev, { blocks: 1, threads: 16 }, b, a, 3);   // b = 6x
    await dev.copy(c, b, { srcOffset: 10, dstOffset: 2, length: 5 });
    same(await c.read(), [-1, -1, ...Array.from(x.slice(10, 15), (v) => F(F(v * 2) * 3)), -1]);
    same(await a.read(), Array.from(x, (v) => F(v * 2)));
    // Within one array, overlapping: as if through a temporary (memmove).
    await dev.copy(a, a, { srcOffset: 0, dstOffset: 3, length: 10 });
    const want = Array.from(x, (v) => F(v * 2));
    want.splice(3, 10, ...want.slice(0, 10));
    same(await a.read(), want);
    await dev.copy(a, a, { srcOffset: 5, dstOffset: 1, length: 0 });
    same(await a.read(), want, "a zero-length copy changes nothing");
  });

  dtest("what a copy rejects: other lengths, types, ranges past an end, negative offsets, another device's array", async ({ dev }) => {
    const f = dev.array(new Float32Array(8)), g = dev.array(new Float32Array(6)), i = dev.array(new Int32Array(8));
    const rejects = (p: Promise<void>, re: RegExp) => assert.rejects(p, (e: unknown) => e instanceof KernelError && e.kind === "launch" && re.test(e.message), String(re));
    await rejects(dev.copy(f, g), /different lengths \(8 and 6\)/);
    await rejects(dev.copy(f, i), /different element types \(f32 and i32\)/);
    await rejects(dev.copy(g, f, { length: 7 }), /7 elements to offset 0 run past the destination's end \(length 6\)/);
    await rejects(dev.copy(f, g, { srcOffset: 4, length: 3 }), /3 elements from offset 4 run past the source's end \(length 6\)/);
    await rejects(dev.copy(f, g, { dstOffset: -1, length: 1 }), /dstOffset must be a non-negative integer/);
    await rejects(dev.copy(f, new Float32Array(8) as never), /the source must be an array of this/);
    const other = await (await import("../src/index.ts")).device("cpu");
    if (other !== dev) await rejects(dev.copy(f, other.array(new Float32Array(8))), /the source must be an array of this .* device \(dev\.array\(\.\.\.\)\), got an array of a CPU device/);
    other.close();
  });
});

// Aliased arguments (issue #16, item 9): one array passed to several parameters.
describe("aliased arguments", () => {
  const step = kernel(function inPlace(o: Float32Array, x: Float32Array, k: number) { const i = threadIdx.x; o[i] = x[i] * k + 1; });
  const pair = kernel(function sumInto(acc: Int32Array, a: Int32Array, b: Int32Array) { const i = threadIdx.x; acc[i] = a[i] + b[i]; });

  dtest("one device array as input and output (an in-place step), and as two inputs", async ({ dev, same }) => {
    const x = randF32(21, 32, -4, 4);
    const a = dev.array(x);
    await step.launch(dev, { blocks: 1, threads: 32 }, a, a, 3);
    await step.launch(dev, { blocks: 1, threads: 32 }, a, a, 0.5);
    same(await a.read(), Array.from(x, (v) => F(F(F(F(v * 3) + 1) * 0.5) + 1)));
    const i = dev.array(Int32Array.from({ length: 16 }, (_, j) => j * 7 - 20)), out = dev.array(new Int32Array(16));
    await pair.launch(dev, { blocks: 1, threads: 16 }, out, i, i);
    same(await out.read(), Array.from({ length: 16 }, (_, j) => 2 * (j * 7 - 20)));
    await pair.launch(dev, { blocks: 1, threads: 16 }, i, i, out);   // the output aliases the first input
    same(await i.read(), Array.from({ length: 16 }, (_, j) => 3 * (j * 7 - 20)));
  });

  dtest("one host array passed twice is one array on the device, written back once", async ({ dev, same }) => {
    const x = randF32(22, 16, -2, 2), h = Float32Array.from(x);
    await step.launch(dev, { blocks: 1, threads: 16 }, h, h, 2);
    same(h, Array.from(x, (v) => F(F(v * 2) + 1)));
    const v = Int32Array.from({ length: 8 }, (_, j) => j - 3);
    await pair.launch(dev, { blocks: 1, threads: 8 }, v, v, v);
    same(v, Array.from({ length: 8 }, (_, j) => 2 * (j - 3)));
  });
});

// Views of device arrays (issue #16, item 3): deviceArray.subarray(begin, end?) as an argument.
describe("views of device arrays", () => {
  const fill = kernel(function fillIndex(o: Float32Array, base: number) { const i = threadIdx.x; if (i < o.length) o[i] = base + i; });

  dtest("a view as a kernel argument (at an aligned and an unaligned offset), read, written and copied", async ({ dev, same }) => {
    const n = 200, a = dev.array(new Float32Array(n).fill(-1));
    const v1 = a.subarray(64, 96), v2 = a.subarray(3, 10), v3 = a.subarray(-5);
    assert.deepEqual([v1.length, v2.length, v3.length, a.subarray(150, 20).length], [32, 7, 5, 0]);
    await fill.launch(dev, { blocks: 1, threads: 32 }, v1, 1000);   // offset 256 bytes
    await fill.launch(dev, { blocks: 1, threads: 32 }, v2, 2000);   // offset 12 bytes
    await fill.launch(dev, { blocks: 1, threads: 32 }, v3, 3000);
    await fill.launch(dev, { blocks: 1, threads: 32 }, a.subarray(150, 20), 4000);   // empty: writes nothing
    const want = new Float32Array(n).fill(-1);
    for (let i = 0; i < 32; i++) want[64 + i] = 1000 + i;
    for (let i = 0; i < 7; i++) want[3 + i] = 2000 + i;
    for (let i = 0; i < 5; i++) want[195 + i] = 3000 + i;
    same(await a.read(), want);
    same(await v2.read(), Array.from({ length: 7 }, (_, i) => 2000 + i));
    await v3.write(Float32Array.from([1, 2, 3, 4, 5]));
    await dev.copy(a.subarray(10, 15), v3);
    same(await a.subarray(8, 17).read(), [2000 + 5, 2000 + 6, 1, 2, 3, 4, 5, -1, -1]);
    same(await v3.subarray(1, 3).read(), [2, 3]);
  });

  dtest("non-overlapping views of one array as two parameters, one written", async ({ dev, same }) => {
    const step = kernel(function shift(o: Float32Array, x: Float32Array) { const i = threadIdx.x; o[i] = x[i] * 2; });
    const a = dev.array(Float32Array.from({ length: 16 }, (_, i) => i));
    await step.launch(dev, { blocks: 1, threads: 8 }, a.subarray(8), a.subarray(0, 8));
    same(await a.read(), [...Array.from({ length: 8 }, (_, i) => i), ...Array.from({ length: 8 }, (_, i) => 2 * i)]);
  });

  dtest("overlapping views of one array as two parameters, one written (no thread reads what another writes)", async ({ dev, same }) => {
    // o = a[4..8), x = a[2..10): thread i writes a[4 + i] from a[2 + i] and a[8 + i], none of which
    // another thread writes. WebGPU binds the buffer once and each parameter at its own offset.
    const mix = kernel(function mixViews(o: Float32Array, x: Float32Array) { const i = threadIdx.x; o[i] = x[i] * 10 + x[i + 6]; });
    const a = dev.array(Float32Array.from({ length: 12 }, (_, i) => i));
    await mix.launch(dev, { blocks: 1, threads: 2 }, a.subarray(4, 8), a.subarray(2, 10));
    same(await a.read(), [0, 1, 2, 3, 28, 39, 6, 7, 8, 9, 10, 11]);
    // And a view overlapping the whole array it is a view of.
    const b = dev.array(Float32Array.from({ length: 8 }, (_, i) => i));
    await mix.launch(dev, { blocks: 1, threads: 1 }, b, b.subarray(1));
    same(await b.read(), [17, 1, 2, 3, 4, 5, 6, 7]);
  });
});

// Inputs from below that must not surface raw (issue #19, item 3).
describe("launch inputs that once escaped raw", () => {
  const fill = kernel(function fillOnes(o: Float32Array) { o[threadIdx.x] = threadIdx.x + 1; });

  dtest("an array on a SharedArrayBuffer works like any other; a BigInt block count is a launch-config KernelError", async ({ dev, same }) => {
    const sab = new Float32Array(new SharedArrayBuffer(4 * 8), 4, 4);
    await fill.launch(dev, { blocks: 1, threads: 4 }, sab);
    same(sab, [1, 2, 3, 4]);
    const d = dev.array(new Float32Array(new SharedArrayBuffer(16)));
    await d.write(new Float32Array(new SharedArrayBuffer(16)).fill(5));
    same(await d.read(), [5, 5, 5, 5]);
    await assert.rejects(fill.launch(dev, { blocks: 1n as unknown as number, threads: 4 }, sab),
      (e: unknown) => e instanceof KernelError && e.kind === "launch-config" && /'blocks' must be a positive integer .*, got 1n/.test(e.message));
  });

  dtest("a kernel whose name holds a newline (and other odd characters) compiles on every target and runs; messages quote the name", async ({ dev, same }) => {
    const fn = function (oddOut: Float32Array) { oddOut[threadIdx.x] = 2; };
    Object.defineProperty(fn, "name", { value: "a\nb */ \u2028 \"x\"" });
    const k = kernel(fn, { types: { oddOut: "f32[]" } });   // (declared here: the renamed function's annotations are not found by name)
    for (const target of ["js", "wgsl", "ptx"]) await k.compile({ target, types: ["f32[]"] });
    const wgsl = (await k.compile({ target: "wgsl", types: ["f32[]"] })).code as string;
    assert.equal(wgsl.split("\n").find((l) => l.startsWith("// gpuc: kernel")), String.raw`// gpuc: kernel "a\nb */ \u2028 \"x\""`);
    const o = new Float32Array(2);
    await k.launch(dev, { blocks: 1, threads: 2 }, o);
    same(o, [2, 2]);
    await assert.rejects(k.launch(dev, { blocks: 1, threads: 2 }, 5), (e: unknown) =>
      e instanceof CompileError && e.kind === "argument-type" && e.message.endsWith(String.raw`: argument 'oddOut' of kernel "a\nb */ \u2028 \"x\"" is declared f32[] but got the number 5; pass a Float32Array`));
  });

  dtest("scalar arguments convert as JavaScript would for the declared type (f32: Math.fround, bool: Boolean)", async ({ dev, same }) => {
    const k = kernel(function convert(o: Float32Array, f: number, b: boolean) { o[0] = f; o[1] = b ? 1 : 0; }, { types: { f: "f32", b: "bool" } });
    const o = new Float32Array(2);
    await k.launch(dev, { blocks: 1, threads: 1 }, o, 1e300, NaN as never);
    same(o, [Infinity, 0]);
    await k.launch(dev, { blocks: 1, threads: 1 }, o, 0.1, 0.5 as never);
    same(o, [F(0.1), 1]);
  });
});
