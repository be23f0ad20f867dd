// The WebGPU device specifically (the execution suites run every kernel on it too): what WGSL
// cannot express, launch geometry as override constants, device arrays, and its errors.

import { test, after } from "node:test";
import assert from "node:assert/strict";
import { kernel, device, onCompile, CompileError, KernelError, threadIdx, blockIdx, blockDim, shared, syncthreads, type Device } from "../src/index.ts";
import { kernelError } from "./helpers.ts";
import { InternalCompilerError } from "../src/errors.ts";
import type { WGSLLayout } from "../src/targets/wgsl/layout.ts";
import { variantCode } from "../src/devices/webgpu-variants.ts";

process.env.XDG_RUNTIME_DIR ??= "/tmp";
const required = (process.env.GPUC_REQUIRE_DEVICES ?? "").split(",").includes("webgpu");
let dev: Device | null = null;
let why = "";
try { dev = await device("webgpu"); } catch (e) { why = (e as Error).message; }
if (!dev && required) throw new Error(`WebGPU is required (GPUC_REQUIRE_DEVICES) but cannot be opened: ${why}`);
const skip = dev ? false : `SKIPPED: no WebGPU device here (${why})`;
after(() => dev?.close());

test("f64 is an unsupported-type CompileError naming the value and its location", { skip }, async () => {
  const k = kernel(function f64k(out: Float64Array) { out[0] = 1; });
  await assert.rejects(k.launch(dev!, { blocks: 1, threads: 1 }, new Float64Array(1)), (e: unknown) =>
    e instanceof CompileError && e.kind === "unsupported-type" && /'out' is f64\[\]: the wgsl target has no f64/.test(e.message) && e.location?.file === "test/webgpu.test.ts");
});

test("recursion is a CompileError on WGSL", { skip }, async () => {
  function down(n: number): number { return n <= 0 ? 0 : down(n - 1) + 1; }
  const k = kernel(function recurse(out: Int32Array) { out[0] = down(3); }, { scope: { down } });
  await assert.rejects(k.launch(dev!, { blocks: 1, threads: 1 }, new Int32Array(1)), (e: unknown) => e instanceof CompileError && e.kind === "recursion");
});

test("one kernel, several block sizes: code made for each size (blockDim a constant there), each correct, each compiled once", { skip }, async () => {
  const compiles: number[] = [];
  const stop = onCompile((e) => { if (e.target === "wgsl") compiles.push(compiles.length); });
  try {
    const k = kernel(function ids(out: Int32Array) {
      const i = blockIdx.x * blockDim.x + threadIdx.x;
      if (i < out.length) out[i] = i * 3 + blockDim.x;
    });
    for (const threads of [32, 64, 256, 64, 32]) {
      const out = new Int32Array(1000).fill(-1);
      await k.launch(dev!, { blocks: Math.ceil(1000 / threads), threads }, out);
      assert.deepEqual(Array.from(out.slice(0, 3)), [threads, 3 + threads, 6 + threads]);
      assert.equal(out[999], 999 * 3 + threads);
    }
    assert.equal(compiles.length, 3, "one compile per block size");
    // Code for the launch's size knows it: a shared array as large as the block needs no check
    // there; a larger block still fails where plain JavaScript would.
    const s = kernel(function rev(out: Int32Array) {
      const t = shared(Int32Array, 64);
      t[threadIdx.x] = threadIdx.x;
      syncthreads();
      out[threadIdx.x] = t[blockDim.x - 1 - threadIdx.x];
    });
    const out = new Int32Array(128);
    await s.launch(dev!, { blocks: 1, threads: 64 }, out);
    assert.equal(out[0], 63);
    const wgsl = (await s.compile({ target: "wgsl", types: ["i32[]"], features: { requiredThreads: [64, 1, 1] } })).code as string;
    assert.doesNotMatch(wgsl, /gpuc_raise\([^)]*, 64i\)/, "the code for 64 threads checks nothing against t's length");
    assert.match((await s.compile({ target: "wgsl", types: ["i32[]"] })).code as string, /gpuc_raise\([^)]*, 64i\)/, "the code for any size does");
    const err = await kernelError(s.launch(dev!, { blocks: 1, threads: 128 }, out), "bounds");
    assert.match(err.message, /index (6[4-9]|[7-9]\d|1[0-2]\d) out of bounds for array 't' of length 64/);
  } finally { stop(); }
});

test("device arrays stay on the device; read() and write() copy", { skip }, async () => {
  const k = kernel(function inc(x: Float32Array) { x[threadIdx.x] += 1; });
  const a = dev!.array(new Float32Array([1, 2, 3, 4]));
  await k.launch(dev!, { blocks: 1, threads: 4 }, a);
  await k.launch(dev!, { blocks: 1, threads: 4 }, a);
  assert.deepEqual(Array.from(await a.read()), [3, 4, 5, 6]);
  await a.write(new Float32Array([10, 20, 30, 40]));
  await k.launch(dev!, { blocks: 1, threads: 4 }, a);
  assert.deepEqual(Array.from(await a.read()), [11, 21, 31, 41]);
  assert.throws(() => dev!.array(new Float64Array(1)), (e: unknown) => e instanceof KernelError && /no f64/.test(e.message));
});

test("an early return before syncthreads() works: the returned threads pass the barriers and do nothing else", { skip }, async () => {
  const k = kernel(function early(out: Float32Array, n: number) {
    const i = threadIdx.x;
    if (i >= n) return;
    out[i] = 1;
    syncthreads();
    out[i] += 1;
  });
  const out = new Float32Array(8);
  await k.launch(dev!, { blocks: 1, threads: 8 }, out, 4);
  assert.deepEqual(Array.from(out), [2, 2, 2, 2, 0, 0, 0, 0]);
  const wgsl = (await k.compile({ target: "wgsl", types: ["f32[]", "i32"] })).code as string;
  assert.match(wgsl, /v_done = true;/, "the returned threads are marked done (ir/passes/done-guards.ts)");
  assert.match(wgsl, /if \(\(!v_done\)\) \{/);
});

test("a syncthreads() under a condition that differs between threads is a CompileError with the kernel's location", { skip }, async () => {
  const k = kernel(function divergent(out: Float32Array, n: number) {
    const i = threadIdx.x;
    if (i < n) syncthreads();
    out[i] = 1;
  });
  await assert.rejects(k.launch(dev!, { blocks: 1, threads: 8 }, new Float32Array(8), 4), (e: unknown) =>
    e instanceof CompileError && e.kind === "unsupported-syntax" && /syncthreads\(\) is reached under a condition that may differ between threads/.test(e.message) &&
    e.location?.file === "test/webgpu.test.ts");
});

test("too many arrays for the device is a KernelError naming the limit", { skip }, async () => {
  const limit = (dev as unknown as { gpu: GPUDevice }).gpu.limits.maxStorageBuffersPerShaderStage;
  const n = limit; // n arrays + the kernel state > limit
  const params = Array.from({ length: n }, (_, i) => `a${i}`);
  const fn = new Function(...params, params.map((p) => `${p}[0] = 1;`).join(" "));
  Object.defineProperty(fn, "name", { value: "many" });
  const k = kernel(fn);
  // (Empty arrays: a launch that proved the accesses in bounds would run the variant without the
  // kernel state, one storage buffer fewer — ARCHITECTURE.md, "Checks a launch proves".)
  await assert.rejects(k.launch(dev!, { blocks: 1, threads: 1 }, ...params.map(() => new Float32Array(0))), (e: unknown) =>
    e instanceof KernelError && e.kind === "launch" && e.location?.file.endsWith("webgpu.test.ts") && e.message === `${e.location.file}:${e.location.line}:${e.location.column}: kernel 'many' needs ${n + 1} storage buffers (its arrays, constant tables and the kernel state); this WebGPU device allows ${limit}`);
});

test("device() prefers WebGPU over the CPU when an adapter exists", { skip }, async () => {
  const d = await device();
  assert.equal(d.kind, "webgpu");
  d.close();
});

test("a kernel with no check left (bounds checks off, or all proven) carries no exception machinery: no state binding, nothing read back; one with a check left still reports", { skip }, async () => {
  const proven = kernel(function proven(o: Float32Array) {
    const t = threadIdx.x;
    if (t < o.length) o[t] = t * 2;
  }, { boundsCheck: false });
  const unchecked = kernel(function unchecked(o: Float32Array, x: Float32Array) {
    const i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < o.length) o[i] = x[i] + 1;
  }, { boundsCheck: false });
  const checked = kernel(function checked(o: Float32Array, x: Float32Array) {
    const i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < o.length) o[i] = x[i] + 1;
  });
  for (const [k, types] of [[proven, ["f32[]"]], [unchecked, ["f32[]", "f32[]"]]] as const) {
    const a = await k.compile({ target: "wgsl", types: [...types] });
    assert.doesNotMatch(a.code as string, /\bstate\b|gpuc_report/, `${k.name}: no exception machinery`);
    assert.ok(!(a.layout as { bindings: { role: string }[] }).bindings.some((b) => b.role === "state"));
  }
  const c = await checked.compile({ target: "wgsl", types: ["f32[]", "f32[]"] });
  assert.match(c.code as string, /var<storage, read_write> state/);
  const o = new Float32Array(100).fill(-1), x = Float32Array.from({ length: 100 }, (_, i) => i);
  await proven.launch(dev!, { blocks: 1, threads: 128 }, o);
  assert.deepEqual([...o], Array.from({ length: 100 }, (_, t) => t * 2));
  await unchecked.launch(dev!, { blocks: 2, threads: 64 }, o, x);
  assert.deepEqual([...o], Array.from({ length: 100 }, (_, t) => t + 1));
  // The device still reports the bounds error of a kernel that has its checks (x one shorter than
  // o: one thread fails, so which thread's report wins the claim cannot change the message).
  const err = await kernelError(checked.launch(dev!, { blocks: 2, threads: 64 }, o, x.subarray(0, 99)), "bounds");
  assert.match(err.message, /index 99 out of bounds for array 'x' of length 99/);
  // A device array written by a lean kernel and read right after: the launch waited for it.
  const d = dev!.array(new Float32Array(100));
  await proven.launch(dev!, { blocks: 1, threads: 128 }, d);
  assert.deepEqual([...(await d.read())], Array.from({ length: 100 }, (_, t) => t * 2));
});

// Variants (ARCHITECTURE.md, "What a device cannot bind, it rewrites"): spliced at the sites the
// layout records, each checked against the code first.
const mixed = kernel(function mixedViews(o: Int32Array, x: Int32Array, y: Uint8Array) {
  const i = threadIdx.x;
  o[i] = x[i] * 10 + x[x[i] + 6] + y[i];
}, { boundsCheck: false });
const mixedArtifact = () => mixed.compile({ target: "wgsl", types: ["i32[]", "i32[]", "u8[]"] });
const MIXED_LINE = "  v_o[v_i] = (((v_x[v_i] * 10i) + v_x[(v_x[v_i] + 6i)]) + gpuc_ld_u8(v_y[(u32(v_i) + params.v_y_off) >> 2u], (u32(v_i) + params.v_y_off)));";

test("a variant is the shader spliced at its layout's sites: x merged into o, both shifted (an access in another's index too), y untouched", async () => {
  const art = await mixedArtifact(), code = art.code as string, layout = art.layout as WGSLLayout;
  const lines = code.split("\n");
  assert.ok(lines.includes(MIXED_LINE), code);
  const variant = variantCode("mixedViews", code, layout, new Map([[3, 2]]), new Map([[2, 4], [3, 2]]));
  assert.equal(variant, lines.map((l) =>
    l === "@group(0) @binding(3) var<storage, read> v_x: array<i32>;" ? ""
    : l === MIXED_LINE ? "  v_o[(u32(v_i) + 4u)] = (((v_o[(u32(v_i) + 2u)] * 10i) + v_o[(u32((v_o[(u32(v_i) + 2u)] + 6i)) + 2u)]) + gpuc_ld_u8(v_y[(u32(v_i) + params.v_y_off) >> 2u], (u32(v_i) + params.v_y_off)));"
    : l).join("\n"));
  // A read-only array merged into one the kernel writes atomically is read with atomicLoad.
  const counts = kernel(function countInto(c: Int32Array, x: Int32Array) { const i = threadIdx.x; Atomics.add(c, i, x[i]); }, { boundsCheck: false });
  const a = await counts.compile({ target: "wgsl", types: ["i32[]", "i32[]"] });
  const v = variantCode("countInto", a.code as string, a.layout as WGSLLayout, new Map([[3, 2]]), new Map([[2, 1], [3, 5]]));
  assert.ok(v.split("\n").includes("  v_tmp = atomicAdd(&v_c[(u32(v_i) + 1u)], atomicLoad(&v_c[(u32(v_i) + 5u)]));"), v);
});

test("a layout whose sites do not fit the code is refused (an internal error, which heals a revived kernel), never spliced", async () => {
  const art = await mixedArtifact(), code = art.code as string, layout = art.layout as WGSLLayout;
  const x = layout.sites.find((s) => s.binding === 3)!;
  // x's accesses: x[i], x[(x[i] + 6i)], and the x[i] inside that one's index.
  const [a0, e0, a1, e1, a2, e2] = x.accesses;
  const forged: [string, (l: WGSLLayout) => void][] = [
    ["no sites", (l) => { (l as { sites?: unknown }).sites = undefined; }],
    ["no sites for a binding", (l) => { l.sites = l.sites.filter((s) => s.binding !== 3); }],
    ["a name one character off", (l) => { l.sites[1].accesses[0] = a0 + 1; }],
    ["an index that does not end at its bracket", (l) => { l.sites[1].accesses[1] = e0 - 1; }],
    ["accesses out of order", (l) => { l.sites[1].accesses = [a1, e1, a0, e0, a2, e2]; }],
    ["an access without its end", (l) => { l.sites[1].accesses = [a0, e0, a1]; }],
    ["an access past the end of the code", (l) => { l.sites[1].accesses = [a0, code.length + 5]; }],
    ["a negative offset", (l) => { l.sites[1].accesses = [-4, e0]; }],
    ["accesses that overlap (an inner one ending at the outer's bracket)", (l) => { l.sites[1].accesses = [a0, e0, a1, e1, a2, e1]; }],
    ["an index that is not one expression (its end at an inner bracket)", (l) => { l.sites[1].accesses = [a0, e0, a1, e2]; }],
    ["the same site for two bindings", (l) => { l.sites[0].accesses = [...l.sites[0].accesses, a0, e0]; }],
    ["another binding's declaration", (l) => { l.sites[1].declaration = [...l.sites[0].declaration]; }],
    ["a declaration one character off", (l) => { l.sites[1].declaration = [x.declaration[0] + 1, x.declaration[1]]; }],
    ["a declaration over two lines", (l) => { l.sites[1].declaration = [x.declaration[0], l.sites[2].declaration[1]]; }],
    ["a mention that is not the name", (l) => { l.sites[1].mentions = [a0 + 2]; }],
    ["a mention inside an access", (l) => { l.sites[1].mentions = [a2]; }],
  ];
  for (const [what, forge] of forged) {
    const l = structuredClone(layout);
    forge(l);
    assert.throws(() => variantCode("mixedViews", code, l, new Map([[3, 2]]), new Map([[2, 4], [3, 2]])),
      (e: unknown) => e instanceof InternalCompilerError && /: the WGSL of kernel 'mixedViews' does not fit its layout's sites: /.test(e.message), what);
  }
  // Deeply nested accesses (a forged code and layout) are spliced without recursion.
  const depth = 100_000, decl = "@group(0) @binding(2) var<storage, read_write> v_a: array<i32>;";
  const deep = `${decl}\nfn main() { v_a[0] = ${"v_a[".repeat(depth)}0${"]".repeat(depth)}; }\n`;
  const at = decl.length + 13, accesses = [at, at + 5];
  for (let k = 0; k < depth; k++) accesses.push(at + 9 + 4 * k, at + 9 + 4 * depth + 1 + (depth - 1 - k));
  const spliced = variantCode("deep", deep, { bindings: [{ binding: 2, kind: "storage", readOnly: false, role: "param", index: 0 }], fields: [], workgroupSize: ["x", "y", "z"], lines: [], sites: [{ binding: 2, declaration: [0, decl.length], accesses, mentions: [] }] }, new Map(), new Map([[2, 1]]));
  assert.equal(spliced.length, deep.length + "(u32() + 1u)".length * (depth + 1));
});

test("overlapping views with an access in another's index run at their offsets (the inner access shifted too)", { skip }, async () => {
  // o = d[20..24) inside x = d[1..24); thread i reads x[i] and x[x[i] + 6] (d[1..15)), which no thread writes.
  const host = Int32Array.from({ length: 32 }, (_, i) => (i * 5) % 8), d = dev!.array(host);
  const y = new Uint8Array(4).fill(1);
  await mixed.launch(dev!, { blocks: 1, threads: 4 }, d.subarray(20, 24), d.subarray(1, 24), y);
  const want = Int32Array.from(host), x = host.subarray(1, 24);
  for (let i = 0; i < 4; i++) want[20 + i] = x[i] * 10 + x[x[i] + 6] + 1;
  assert.deepEqual([...(await d.read())], [...want]);
});
