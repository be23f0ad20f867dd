// Relocatable code (ARCHITECTURE.md, "Relocations"; issue #6): the relocation manifest of every
// target, its strategies, resolution on each device, freezing, persistability, and determinism
// across processes.

import { test, after } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { generated, isPersistable, kernel, CompileError, KernelError, threadIdx, type Artifact, type Device, type HostArray } from "../src/index.ts";
import { assemblePTX, formatPtxasErrors, ptxasAvailable } from "../src/targets/ptx/ptxas.ts";
import { manifestHash } from "../src/reloc/manifest.ts";
import { STRATEGIES, WEIGHTS, OFFSETS, weigh } from "./fixtures/reloc.mjs";
import { DEVICES, openKind, randF32 } from "./helpers.ts";

const F = Math.fround;
// Scope names the kernels below use (bound through `scope`, never on the host).
declare const VIEW: Float32Array, DEBUG: boolean, NEVER: Float32Array, SMALL: Float32Array, LUT: Float32Array;
const haveptxas = await ptxasAvailable();
const devices = new Map<string, Device>();
for (const kind of DEVICES) devices.set(kind, await openKind(kind));
after(() => { for (const d of devices.values()) d.close(); });
const TARGET_OF: Record<string, string> = { cpu: "js", webgpu: "wgsl", cuda: "ptx", amdgpu: "llvm", opencl: "opencl", spir: "llvm" };

/** The reference: what `weigh` computes, in f32. */
function reference(x: Float32Array, w: ArrayLike<number> = WEIGHTS, o: ArrayLike<number> = OFFSETS): Float32Array {
  return Float32Array.from(x, (v, i) => F(F(F(v * w[i % w.length]) + o[i % o.length]) + o[2]));
}

function close(got: Float32Array, want: Float32Array, exact: boolean): void {
  assert.equal(got.length, want.length);
  for (let i = 0; i < got.length; i++)
    assert.ok(exact ? Object.is(got[i], want[i]) : Math.abs(got[i] - want[i]) <= 1e-5 * Math.max(1, Math.abs(want[i])), `[${i}] ${got[i]} vs ${want[i]}`);
}

const n = 100;
const x = randF32(41, n, -3, 3);

test("every target: a manifest of the captured tables, sorted by name, and the strategy's lowering in the code", async () => {
  for (const [target, list] of Object.entries(STRATEGIES)) {
    for (const relocation of list) {
      const art = await kernel(weigh, { scope: { WEIGHTS, OFFSETS }, relocation: relocation as never }).compile({ target, types: ["f32[]", "f32[]"] });
      const m = art.manifest;
      assert.equal(m.strategy, relocation, `${target}/${relocation}`);
      // OFFSETS[2] is read at a constant index: folded into a constant; the table is still a site for its other read.
      assert.deepEqual(m.sites.map((s) => [s.name, s.elem, s.length]), [["OFFSETS", "i32", 6], ["WEIGHTS", "f32", 7]], `${target}/${relocation}`);
      assert.deepEqual(m.folded, [{ name: "OFFSETS", indices: [2], values: ["4"] }], "the element the code holds, with its value");
      assert.equal(m.codeHash, manifestHash(m.strategy, m.sites, art.code, m.folded));
      assert.ok(Object.isFrozen(m) && Object.isFrozen(m.sites) && Object.isFrozen(m.sites[0]) && Object.isFrozen(m.folded) && Object.isFrozen(m.folded![0].values), "frozen: nothing can add sites after lowering");
      assert.throws(() => (m.sites as unknown[]).push({}));
      assert.deepEqual(art.globals.map((g) => g.name), ["OFFSETS", "WEIGHTS"], "the session's values follow the manifest's order");
      const code = art.code as string;
      if (target === "ptx") {
        if (relocation === "patch") assert.match(code, /^\.visible \.global \.align 8 \.u64 gpuc_table_1_WEIGHTS;$/m);
        if (relocation === "table") { assert.match(code, /\.param \.u64 weigh_gpuc_tables/); assert.doesNotMatch(code, /gpuc_table_/); }
        if (relocation === "bake") assert.match(code, /^\.global \.align 4 \.f32 gpuc_table_1_WEIGHTS\[7\] = \{\n  0f3F000000, 0f3FA00000, 0fC0000000, 0f40700000, 0f3DCCCCCD, 0f41000000, 0fBE800000\n\};$/m);
        if (haveptxas) for (const arch of ["sm_75", "sm_90"]) {
          const r = await assemblePTX(art, arch);
          assert.ok(r.ok, `${relocation} for ${arch}: ${formatPtxasErrors(r)}`);
        }
      }
      if (target === "opencl") {
        // table: one kernel argument per site (manifest order); bake: the data as __constant arrays.
        if (relocation === "table") assert.match(code, /__global const int\* g_OFFSETS_0, __global const float\* g_WEIGHTS_1\)/);
        if (relocation === "bake") assert.match(code, /^__constant float g_WEIGHTS_1\[7\] = \{\n {2}0\.5f, 1\.25f, \(-2\.0f\), 3\.75f, 0\.10000000149011612f, 8\.0f, \(-0\.25f\)\n\};$/m);
      }
    }
  }
});

test("persistable: patch and table, or no sites; bake with sites is session-local", async () => {
  const compile = (target: string, relocation: string, scope: Record<string, unknown>) =>
    kernel(weigh, { scope, relocation: relocation as never }).compile({ target, types: ["f32[]", "f32[]"] });
  assert.equal(isPersistable(await compile("js", "bake", { WEIGHTS, OFFSETS })), false);
  assert.equal(isPersistable(await compile("js", "table", { WEIGHTS, OFFSETS })), true);
  assert.equal(isPersistable(await compile("wgsl", "table", { WEIGHTS, OFFSETS })), true);
  assert.equal(isPersistable(await compile("ptx", "patch", { WEIGHTS, OFFSETS })), true);
  assert.equal(isPersistable(await compile("ptx", "table", { WEIGHTS, OFFSETS })), true);
  assert.equal(isPersistable(await compile("ptx", "bake", { WEIGHTS, OFFSETS })), false);
  const plain = await kernel(function noTables(o: Float32Array) { o[threadIdx.x] = 1; }, { relocation: "bake" }).compile({ target: "js", types: ["f32[]"] });
  assert.deepEqual(plain.manifest.sites, []);
  assert.equal(isPersistable(plain), true, "no sites: nothing session-local");
  assert.equal(isPersistable({} as Artifact), false, "no manifest: not persistable");
});

test("a strategy the target does not implement is a 'relocation' CompileError", async () => {
  await assert.rejects(kernel(weigh, { scope: { WEIGHTS, OFFSETS }, relocation: "patch" }).compile({ target: "wgsl", types: ["f32[]", "f32[]"] }), (e: unknown) =>
    e instanceof CompileError && e.kind === "relocation" && e.message === "the wgsl target does not implement the 'patch' relocation strategy (it has table)");
  assert.throws(() => kernel(weigh, { relocation: "nope" as never }), (e: unknown) =>
    e instanceof CompileError && e.kind === "invalid-option" && /relocation must be one of bake, patch, table/.test(e.message));
});

for (const [kind] of devices) {
  const target = TARGET_OF[kind];
  for (const relocation of STRATEGIES[target as keyof typeof STRATEGIES]) {
    test(`[${kind}] a kernel reading captured tables is right under '${relocation}'`, async () => {
      const dev = devices.get(kind)!;
      const o = new Float32Array(n).fill(NaN);
      await kernel(weigh, { scope: { WEIGHTS, OFFSETS }, relocation: relocation as never }).launch(dev, { blocks: 2, threads: 64 }, o, x);
      close(o, reference(x), kind === "cpu");
    });
  }

  test(`[${kind}] zero-length tables and views into larger buffers are valid sites`, async () => {
    const dev = devices.get(kind)!;
    const backing = new Float32Array([100, 200, 300, 0.5, -1.5, 2.25, 7, 400]);
    const view = new Float32Array(backing.buffer, 3 * 4, 4);            // [0.5, -1.5, 2.25, 7], at byte offset 12
    const EMPTY = new Float32Array(0);
    const k = kernel(function views(o: Float32Array, x: Float32Array) {
      const i = threadIdx.x;
      let acc = x[i] * VIEW[i % VIEW.length];
      for (let j = 0; j < EMPTY.length; j++) acc += EMPTY[j];
      o[i] = acc + EMPTY.length;
    }, { scope: { VIEW: view, EMPTY } });
    const o = new Float32Array(16).fill(NaN), xs = randF32(5, 16, -2, 2);
    await k.launch(dev, { blocks: 1, threads: 16 }, o, xs);
    close(o, Float32Array.from(xs, (v, i) => F(v * view[i % 4])), kind === "cpu");
    const art = await k.compile({ target: dev.target, types: ["f32[]", "f32[]"] });
    assert.deepEqual(art.manifest.sites.map((s) => [s.name, s.length]), [["EMPTY", 0], ["VIEW", 4]]);
  });

  test(`[${kind}] a tampered manifest is refused; sites resolve by name, checked against their type and length`, async () => {
    const dev = devices.get(kind)!;
    const art = await kernel(weigh, { scope: { WEIGHTS, OFFSETS } }).compile({ target: dev.target, types: ["f32[]", "f32[]"], features: dev.features });
    const changed: Artifact = { ...art, code: `${art.code as string}\n// edited\n` };
    assert.throws(() => dev.load(changed), (e: unknown) => e instanceof KernelError && e.kind === "launch" && /manifest does not belong to this code/.test(e.message));
    const forged: Artifact = { ...art, manifest: { ...art.manifest, codeHash: "0000000000000000" } };
    assert.throws(() => dev.load(forged), (e: unknown) => e instanceof KernelError && /manifest does not belong to this code/.test(e.message));
    // Two sites' names swapped (same types would read each other's tables): the hash covers the names.
    const [s0, s1] = art.manifest.sites;
    const swapped: Artifact = { ...art, manifest: { ...art.manifest, sites: [{ ...s0, name: s1.name }, { ...s1, name: s0.name }] } };
    assert.throws(() => dev.load(swapped), (e: unknown) => e instanceof KernelError && /manifest does not belong to this code/.test(e.message));
    // Another process's tables, by name: the same shapes, other contents.
    const W2 = WEIGHTS.map((v) => v * 2), O2 = OFFSETS.map((v) => v - 1);
    const loaded = dev.load(art, new Map<string, HostArray>([["WEIGHTS", W2], ["OFFSETS", O2]]));
    const o = new Float32Array(n).fill(NaN);
    await dev.launch(loaded, [o, x], { blocks: [2, 1, 1], threads: [64, 1, 1] });
    // OFFSETS[2] was folded into the code when it was compiled (a constant index): it keeps the compiled value.
    close(o, Float32Array.from(x, (v, i) => F(F(F(v * W2[i % 7]) + O2[i % 6]) + OFFSETS[2])), kind === "cpu");
    assert.throws(() => dev.load(art, new Map<string, HostArray>([["WEIGHTS", new Float32Array(3)], ["OFFSETS", O2]])), (e: unknown) =>
      e instanceof KernelError && e.message === "the table 'WEIGHTS' of kernel 'weigh' is f32[3] here, but the code was compiled for f32[7]");
    assert.throws(() => dev.load({ ...art, globals: [] }), (e: unknown) => e instanceof KernelError && /refers to the table 'OFFSETS', which has no value here/.test(e.message));
  });

  test(`[${kind}] artifacts are values: changing what compile() returned changes no later launch or compile`, async () => {
    const dev = devices.get(kind)!;
    const k = kernel(weigh, { scope: { WEIGHTS, OFFSETS } });
    const types = ["f32[]", "f32[]"];
    // The launch's own specialization first (WebGPU's is for the launch's block size), then compile()'s.
    const o = new Float32Array(n).fill(NaN);
    await k.launch(dev, { blocks: 2, threads: 64 }, o, x);
    const features = kind === "webgpu" ? { requiredThreads: [64, 1, 1] as [number, number, number] } : dev.features;
    const art = await k.compile({ target: dev.target, types, features });
    const pristine = { code: typeof art.code === "string" ? art.code : art.code.slice(), entry: art.entry, params: structuredClone(art.params), layout: structuredClone(art.layout), globals: art.globals.map((g) => Array.from(g.value)) };
    // Everything a caller can reach in it, changed.
    if (typeof art.code === "string") art.code = "garbage"; else art.code.fill(0);
    art.entry = "nothing";
    art.params[0].name = "renamed";
    art.params.length = 1;
    (art.globals[0].value as Float32Array).fill(1e6);
    art.globals.length = 0;
    art.bindings.length = 0;
    art.runtime.messages.length = 0;
    if (art.layout) for (const key of Object.keys(art.layout)) delete (art.layout as Record<string, unknown>)[key];
    o.fill(NaN);
    await k.launch(dev, { blocks: 2, threads: 64 }, o, x);
    close(o, reference(x), kind === "cpu");
    const again = await k.compile({ target: dev.target, types, features });
    assert.notEqual(again, art);
    assert.deepEqual({ code: again.code, entry: again.entry, params: again.params, layout: again.layout, globals: again.globals.map((g) => Array.from(g.value)) }, pristine);
    // A copy loads and runs as the original would.
    const loaded = dev.load(again);
    o.fill(NaN);
    await dev.launch(loaded, [o, x], { blocks: [2, 1, 1], threads: [64, 1, 1] });
    close(o, reference(x), kind === "cpu");
  });
}

test("dead sites are pruned: tables only in dead code, or read only at constant indices, leave no site", async () => {
  const k = kernel(function prunes(o: Float32Array) {
    const i = threadIdx.x;
    if (DEBUG) o[i] = NEVER[i];
    o[i] = SMALL[0] + SMALL[3] + SMALL.length;
  }, { scope: { DEBUG: false, NEVER: new Float32Array(8), SMALL: new Float32Array([1, 2, 3, 4]) } });
  for (const target of ["js", "wgsl", "ptx"]) {
    const art = await k.compile({ target, types: ["f32[]"] });
    assert.deepEqual(art.manifest.sites, [], target);
    assert.deepEqual(art.globals, [], target);
    assert.doesNotMatch(art.code as string, /NEVER|SMALL/, target);
  }
  const o = new Float32Array(4);
  await k.launch(devices.get("cpu")!, { blocks: 1, threads: 4 }, o);
  assert.deepEqual(Array.from(o), [9, 9, 9, 9]);
});

test("linking: two different tables under one name are a 'relocation' CompileError naming both", async () => {
  const A = new Float32Array([1, 2, 3]), B = new Float32Array([4, 5, 6, 7]);
  // A generator may return { fn, scope } (src/infer/infer.ts), a form generated()'s type does not admit: cast.
  const lookup = generated(() => ({ fn: function lookup(i: number) { return LUT[i % LUT.length]; }, scope: { LUT: B } }), "lookup");
  const k = kernel(function conflict(o: Float32Array) {
    const i = threadIdx.x;
    o[i] = LUT[i % 3] + lookup(i);
  }, { scope: { LUT: A, lookup } });
  await assert.rejects(k.compile({ target: "js", types: ["f32[]"] }), (e: unknown) =>
    e instanceof CompileError && e.kind === "relocation" && /two different tables are named 'LUT' in this kernel \(a Float32Array\(3\) and, here, a Float32Array\(4\)\)/.test(e.message));
  // The same table reached through two scopes is one site.
  const shared = generated(() => ({ fn: function lookup2(i: number) { return LUT[i % LUT.length]; }, scope: { LUT: A } }), "lookup2");
  const ok = kernel(function same(o: Float32Array) { o[threadIdx.x] = LUT[threadIdx.x % 3] + shared(threadIdx.x); }, { scope: { LUT: A, shared } });
  assert.deepEqual((await ok.compile({ target: "js", types: ["f32[]"] })).manifest.sites.map((s) => s.name), ["LUT"]);
});

test("two processes compile byte-identical code and manifests (patch, table; and bake, whose data is deterministic too)", () => {
  const run = () => {
    const r = spawnSync(process.execPath, [fileURLToPath(new URL("./fixtures/reloc.mjs", import.meta.url)), "print"], { encoding: "utf8" });
    assert.equal(r.status, 0, r.stderr);
    return JSON.parse(r.stdout) as Record<string, { code: string; manifest: unknown }>;
  };
  const a = run(), b = run();
  assert.deepEqual(Object.keys(a).sort(), ["js/bake", "js/table", "llvm/table", "opencl/bake", "opencl/table", "ptx/bake", "ptx/patch", "ptx/table", "spirv/bake", "spirv/table", "wgsl/table"]);
  for (const key of Object.keys(a)) {
    assert.equal(a[key].code, b[key].code, `${key}: code`);
    assert.equal(JSON.stringify(a[key].manifest), JSON.stringify(b[key].manifest), `${key}: manifest`);
  }
  // bake differs only where it must: on JS, not at all in the code (the values are bound, not written);
  // on PTX, the tables' data instead of the pointers to patch.
  assert.equal(a["js/bake"].code, a["js/table"].code);
  assert.notEqual(a["ptx/bake"].code, a["ptx/patch"].code);
});
