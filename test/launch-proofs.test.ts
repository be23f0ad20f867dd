// Checks a launch proves (ARCHITECTURE.md, "Checks a launch proves"): the proof the WGSL back end's
// artifacts carry, its evaluation against every thread of small launches, and the variant a
// WebGPU launch runs where it proves its checks — results, errors and code.

import { test, after } from "node:test";
import assert from "node:assert/strict";
import { kernel, device, onCompile, structArray, KernelError, threadIdx, blockIdx, blockDim, gridDim, type Device } from "../src/index.ts";
import { provesLaunch, launchProofProblem, type LaunchProof, type ProofExpr } from "../src/ir/launch-proof.ts";
import { OPS } from "../src/ir/ops.ts";

process.env.XDG_RUNTIME_DIR ??= "/tmp";
const required = (process.env.GPUC_REQUIRE_DEVICES ?? "").split(",").includes("webgpu");
let gpu: Device | null = null;
let why = "";
try { gpu = await device("webgpu"); } catch (e) { why = (e as Error).message; }
if (!gpu && required) throw new Error(`WebGPU is required (GPUC_REQUIRE_DEVICES) but cannot be opened: ${why}`);
const skip = gpu ? false : `SKIPPED: no WebGPU device here (${why})`;
const cpu = await device("cpu");
after(() => { gpu?.close(); cpu.close(); });

// Kernels as people write them: a guard then an index, an early return, rows and columns, a
// stride, a division, shifts, unsigned values, a versioned loop.
function matmul(a: Float32Array, b: Float32Array, c: Float32Array, n: number) {
  const col = blockIdx.x * blockDim.x + threadIdx.x;
  const row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row < n && col < n) {
    let acc = Math.fround(0);
    for (let k = 0; k < n; k++) acc += a[row * n + k] * b[k * n + col];
    c[row * n + col] = acc;
  }
}
function saxpy(alpha: number, x: Float32Array, y: Float32Array) {
  const i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < x.length) y[i] = alpha * x[i] + y[i];
}
function earlyReturn(o: Float32Array, x: Float32Array, n: number) {
  const i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  o[i] = x[i] * 2 + x[n - 1 - i];
}
function strided(o: Int32Array, stride: number, offset: number) {
  const t = threadIdx.x + blockIdx.x * blockDim.x;
  const at = t * stride + offset;
  if (t < gridDim.x * blockDim.x) o[at] = t;
  o[(t >> 1) + (t & 3)] += 1;
  o[Math.min(t, 7) + ((t / 3) | 0)] += 2;
}
function wrapAround(o: Int32Array, n: number) {
  const t = blockIdx.x * blockDim.x + threadIdx.x;
  o[(t - n) % 4] = t;
  o[t % (n + 1)] += 1;
}
function halves(o: Uint32Array, n: number) {
  const i = (blockIdx.x * blockDim.x + threadIdx.x) >>> 0;
  if (i < (n >>> 1)) o[i * 2] = i;
}

const KERNELS: { fn: (...args: never[]) => void; types: string[]; threads: [number, number, number] }[] = [
  { fn: matmul, types: ["f32[]", "f32[]", "f32[]", "i32"], threads: [4, 4, 1] },
  { fn: saxpy, types: ["f32", "f32[]", "f32[]"], threads: [8, 1, 1] },
  { fn: earlyReturn, types: ["f32[]", "f32[]", "i32"], threads: [8, 1, 1] },
  { fn: strided, types: ["i32[]", "i32", "i32"], threads: [4, 1, 1] },
  { fn: halves, types: ["u32[]", "i32"], threads: [8, 1, 1] },
  { fn: wrapAround, types: ["i32[]", "i32"], threads: [8, 1, 1] },
];

/** The proof's value of `e` for one thread, as the kernel computes it (ir/ops.ts, wrapped to the type). */
function evaluate(e: ProofExpr, args: readonly unknown[], vars: (number | boolean)[], lid: number[], wid: number[], threads: readonly number[], blocks: readonly number[]): number | boolean {
  const ev = (x: ProofExpr) => evaluate(x, args, vars, lid, wid, threads, blocks);
  const wrap = (v: number | boolean, t: string) => (t === "i32" ? Number(v) | 0 : t === "u32" ? Number(v) >>> 0 : Boolean(v));
  switch (e.k) {
    case "const": return e.value;
    case "param": return wrap(args[e.index] as number, e.type);
    case "length": return (args[e.index] as { length: number }).length;
    case "var": return vars[e.index];
    case "builtin": {
      const axis = "xyz".indexOf(e.name[e.name.length - 1]);
      return e.name.startsWith("threadIdx") ? lid[axis] : e.name.startsWith("blockIdx") ? wid[axis] : e.name.startsWith("blockDim") ? threads[axis] : blocks[axis];
    }
    case "convert": return e.to === "bool" ? ev(e.arg) !== 0 : wrap(Number(ev(e.arg)), e.to);
    case "select": return ev(e.cond) ? ev(e.a) : ev(e.b);
    case "op": {
      const row = OPS[e.op];
      const r = row.eval(e.args.map(ev), e.type);
      return row.result === "bool" || e.type === "bool" ? Boolean(r) : wrap(r, e.type);
    }
  }
}

/** Threads (of a launch) that reach an obligation with every condition true and its `never` true. */
function violations(p: LaunchProof, args: readonly unknown[], threads: readonly number[], blocks: readonly number[]): number {
  let bad = 0;
  for (let bz = 0; bz < blocks[2]; bz++) for (let by = 0; by < blocks[1]; by++) for (let bx = 0; bx < blocks[0]; bx++)
    for (let tz = 0; tz < threads[2]; tz++) for (let ty = 0; ty < threads[1]; ty++) for (let tx = 0; tx < threads[0]; tx++) {
      const lid = [tx, ty, tz], wid = [bx, by, bz];
      const vars: (number | boolean)[] = [];
      for (const v of p.vars) vars.push(evaluate(v, args, vars, lid, wid, threads, blocks));
      for (const o of p.obligations)
        if (o.when.every((w) => evaluate(w, args, vars, lid, wid, threads, blocks)) && evaluate(o.never, args, vars, lid, wid, threads, blocks)) bad++;
    }
  return bad;
}

function rng(seed: number) { return () => { seed = (seed * 1103515245 + 12345) >>> 0; return seed / 2 ** 32; }; }

test("every kernel's proof: where a launch proves it, no thread of the launch meets a check that fires or a loop test that fails (every thread enumerated, 1,800 launches near the bounds)", async () => {
  const rnd = rng(7);
  let proven = 0, refuted = 0;
  for (const { fn, types, threads } of KERNELS) {
    const a = await kernel(fn).compile({ target: "wgsl", types, features: { requiredThreads: threads } });
    const p = a.launchProof;
    assert.ok(p && !p.assumed && p.obligations.length > 0, `${fn.name} carries a proof`);
    assert.equal(launchProofProblem(p, a.params), null);
    for (let round = 0; round < 300; round++) {
      const n = Math.floor(rnd() * 12) - 1;
      const scalar = (t: string) => (t === "f32" ? 1.5 : rnd() < 0.2 ? Math.floor(rnd() * 40) - 20 : n);
      const len = () => Math.max(0, (rnd() < 0.5 ? n * n : n * 2) + Math.floor(rnd() * 5) - 2);
      const args = types.map((t) => (t.endsWith("[]") ? { length: len() } : scalar(t)));
      const blocks = [1 + Math.floor(rnd() * 3), fn === matmul ? 1 + Math.floor(rnd() * 3) : 1, 1];
      const bad = violations(p, args, threads, blocks);
      if (provesLaunch(p, { args, threads, blocks })) { proven++; assert.equal(bad, 0, `${fn.name} proven for ${JSON.stringify({ args, blocks })}, yet ${bad} threads break it`); }
      else if (bad > 0) refuted++;
    }
  }
  // (The draws reach both sides: launches proven, and launches where a thread does break one.)
  assert.ok(proven > 200 && refuted > 100, `${proven} launches proven, ${refuted} with a thread that breaks an obligation`);
});

test("a proof read back is checked: a var read before it is made, a parameter that is not an integer, an unknown op, a tree too deep, no obligations", async () => {
  const a = await kernel(saxpy).compile({ target: "wgsl", types: ["f32", "f32[]", "f32[]"], features: { requiredThreads: [8, 1, 1] } });
  const good = a.launchProof!;
  const bad = (edit: (p: LaunchProof) => void) => { const p = structuredClone(good); edit(p); return launchProofProblem(p, a.params); };
  assert.match(bad((p) => { p.vars[0] = { k: "var", index: 0 }; }) ?? "", /a var read before it is made/);
  assert.match(bad((p) => { p.obligations[0].never = { k: "param", index: 0, type: "i32" }; }) ?? "", /a bad parameter/);
  assert.match(bad((p) => { p.obligations[0].never = { k: "op", op: "pow" as "add", type: "i32", args: [{ k: "const", value: 1 }, { k: "const", value: 1 }] }; }) ?? "", /a bad op/);
  let deep: ProofExpr = { k: "const", value: true };
  for (let i = 0; i < 100; i++) deep = { k: "op", op: "not", type: "bool", args: [deep] };
  assert.match(bad((p) => { p.obligations[0].never = deep; }) ?? "", /too large/);
  assert.match(bad((p) => { p.obligations = []; }) ?? "", /no obligations/);
  assert.equal(launchProofProblem(null, a.params), "not an object");
});

test("features.provenChecks is WGSL's: another target's compile() refuses it saying so, and a non-boolean is an invalid option", async () => {
  const k = kernel(saxpy);
  await assert.rejects(k.compile({ target: "js", types: ["f32", "f32[]", "f32[]"], features: { provenChecks: true } }), (e: unknown) =>
    e instanceof Error && (e as { kind?: string }).kind === "invalid-option" && /features\.provenChecks is for targets whose launches prove checks \(wgsl\), not target 'js'/.test(e.message));
  await assert.rejects(k.compile({ target: "wgsl", types: ["f32", "f32[]", "f32[]"], features: { provenChecks: 1 as unknown as boolean } }), (e: unknown) =>
    e instanceof Error && /features\.provenChecks must be true or false, got the number 1/.test(e.message));
});

test("what reads memory, or a local assigned in a loop or twice, is no obligation: its check stays in the variant", async () => {
  function gather(o: Float32Array, idx: Int32Array, x: Float32Array) {
    const i = blockIdx.x * blockDim.x + threadIdx.x;
    let j = i;
    if (x.length > 4) j = i + 1;
    o[i] = x[j] + x[idx[i]];
  }
  const types = ["f32[]", "i32[]", "f32[]"];
  const features = { requiredThreads: [8, 1, 1] as [number, number, number] };
  const a = await kernel(gather).compile({ target: "wgsl", types, features });
  // o[i] and idx[i] are obligations; x[j] (j assigned twice) and x[idx[i]] (a load) are not.
  assert.equal(a.launchProof?.obligations.length, 2);
  const v = await kernel(gather).compile({ target: "wgsl", types, features: { ...features, provenChecks: true } });
  assert.equal(v.launchProof?.assumed, true);
  const raises = (code: unknown) => (code as string).match(/gpuc_raise\(\d+i/g)?.length ?? 0;
  assert.equal(raises(a.code), 4);
  assert.equal(raises(v.code), 2);
});

test("[webgpu] a launch that proves the naive matmul's checks runs its variant (no check, scan, kernel state or record in its WGSL); one that does not runs the kernel as compiled and reports the first failure as JavaScript does", { skip }, async () => {
  const variant = await kernel(matmul).compile({ target: "wgsl", types: ["f32[]", "f32[]", "f32[]", "i32"], features: { requiredThreads: [16, 16, 1], provenChecks: true } });
  const code = variant.code as string;
  assert.doesNotMatch(code, /gpuc_raise|gpuc_record|var<storage, read_write> state/);
  assert.equal(code.match(/loop \{/g)?.length, 1, "one loop: the scan is gone");
  const events: string[] = [];
  const stop = onCompile((e) => { if (e.target === "wgsl") events.push(e.provenChecks ? "variant" : "kernel"); });
  try {
    const k = kernel(matmul);
    const n = 37;
    const a = Float32Array.from({ length: n * n }, (_, i) => (i % 11) - 5), b = Float32Array.from({ length: n * n }, (_, i) => (i % 7) * 0.5);
    const cfg = { blocks: [3, 3], threads: [16, 16] };
    const want = new Float32Array(n * n), got = new Float32Array(n * n);
    await k.launch(cpu, cfg, a, b, want, n);
    await k.launch(gpu!, cfg, a, b, got, n);
    assert.deepEqual(got, want);
    assert.deepEqual(events, ["variant"], "the variant alone: the launch proved what it assumed, and the kernel's own code was not needed");
    // c one element short: not proven; the kernel as compiled runs and reports as the CPU device does.
    const short = new Float32Array(n * n - 1);
    const onCpu = await k.launch(cpu, cfg, a, b, short, n).then(() => null, (e: unknown) => e as KernelError);
    const onGpu = await k.launch(gpu!, cfg, a, b, short, n).then(() => null, (e: unknown) => e as KernelError);
    assert.deepEqual(events, ["variant", "kernel"], "a launch the variant does not run compiles the kernel");
    assert.ok(onCpu instanceof KernelError && onGpu instanceof KernelError);
    assert.equal(onGpu.kind, "bounds");
    assert.equal(onGpu.message.split(" (thread")[0], onCpu.message.split(" (thread")[0]);
    // a one element short: the versioned loop's test fails for the last row; the scan reports it.
    const aShort = a.subarray(0, n * n - 1);
    const e1 = await k.launch(cpu, cfg, aShort, b, got, n).then(() => null, (e: unknown) => e as KernelError);
    const e2 = await k.launch(gpu!, cfg, aShort, b, got, n).then(() => null, (e: unknown) => e as KernelError);
    assert.ok(e1 && e2 && e2.message.split(" (thread")[0] === e1.message.split(" (thread")[0], `${e1?.message} / ${e2?.message}`);
    // Proven again: the variant, with nothing compiled.
    events.length = 0;
    await k.launch(gpu!, cfg, a, b, got, n);
    assert.deepEqual(got, want);
    assert.deepEqual(events, []);
  } finally { stop(); }
});

test("[webgpu] an absent optional array has no parameter and an array of objects' fields are unknown to a proof: the variant runs where the rest is proven, and keeps the checks that read the objects", { skip }, async () => {
  function scaled(o: Float32Array, y: Float32Array | null, n: number) {
    const i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) o[i] = y ? y[i] * 2 : 1;
  }
  function fromObjects(o: Float32Array, pts: { x: number }[], n: number) {
    const i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) o[i] = pts[i].x;
  }
  const events: string[] = [];
  const stop = onCompile((e) => { if (e.target === "wgsl" && e.origin === "compiled") events.push(`${e.kernel.name}${e.provenChecks ? " variant" : ""}`); });
  try {
    const cfg = { blocks: 2, threads: 8 };
    for (const y of [null, Float32Array.from({ length: 16 }, (_, i) => i)]) {
      const want = new Float32Array(16), got = new Float32Array(16);
      await kernel(scaled).launch(cpu, cfg, want, y, 16);
      await kernel(scaled).launch(gpu!, cfg, got, y, 16);
      assert.deepEqual(got, want);
    }
    assert.deepEqual(events, ["scaled variant", "scaled variant"], "with y absent and given, each launch proved o's (and y's) checks: the variant alone compiled");
    events.length = 0;
    const pts = structArray({ x: Float32Array }, 16);
    for (let i = 0; i < 16; i++) pts[i].x = i / 2;
    const want = new Float32Array(16), got = new Float32Array(16);
    const k = kernel(fromObjects);
    await k.launch(cpu, cfg, want, pts, 16);
    await k.launch(gpu!, cfg, got, pts, 16);
    assert.deepEqual(got, want);
    assert.deepEqual(events, ["fromObjects variant"], "o[i]'s check proven; pts[i]'s reads a field's length, which a launch does not give a proof: it stays in the variant");
    const v = await k.compile({ target: "wgsl", args: [got, pts, 16], features: { requiredThreads: [8, 1, 1], provenChecks: true } });
    assert.equal((v.code as string).match(/gpuc_raise\(\d+i/g)?.length, 1, "the variant keeps pts[i]'s check");
    const short = structArray({ x: Float32Array }, 15);
    const e1 = await k.launch(cpu, cfg, want, short, 16).then(() => null, (e: unknown) => e as KernelError);
    const e2 = await k.launch(gpu!, cfg, got, short, 16).then(() => null, (e: unknown) => e as KernelError);
    assert.ok(e1 instanceof KernelError && e2 instanceof KernelError && e2.kind === "bounds", `${e1?.message} / ${e2?.message}`);
    assert.equal(e2.message.split(" (thread")[0], e1.message.split(" (thread")[0]);
  } finally { stop(); }
});

test("[webgpu] every kernel above, at launches proven and not, gives what the CPU device gives (results and errors)", { skip }, async () => {
  const rnd = rng(11);
  for (const { fn, types, threads } of KERNELS) {
    const k = kernel(fn);
    for (let round = 0; round < 6; round++) {
      const n = 2 + Math.floor(rnd() * 9);
      const len = () => Math.max(0, (round % 2 ? n * n : n * 2) - (round % 3 === 2 ? 1 : 0));
      const make = (t: string) => (t === "f32[]" ? Float32Array.from({ length: len() }, (_, i) => i % 5) : t === "i32[]" ? new Int32Array(len()) : t === "u32[]" ? new Uint32Array(len()) : t === "f32" ? 1.5 : n);
      const args = types.map(make);
      const copy = () => args.map((x) => (ArrayBuffer.isView(x) ? (x as Float32Array).slice() : x));
      const blocks = [1 + Math.floor(rnd() * 3), fn === matmul ? 1 + Math.floor(rnd() * 3) : 1];
      const cfg = { blocks, threads: threads.slice(0, 2) };
      const onCpu = copy(), onGpu = copy();
      const e1 = await k.launch(cpu, cfg, ...onCpu).then(() => null, (e: unknown) => (e as Error).message.split(" (thread")[0]);
      const e2 = await k.launch(gpu!, cfg, ...onGpu).then(() => null, (e: unknown) => (e as Error).message.split(" (thread")[0]);
      assert.equal(e2, e1, `${fn.name} ${JSON.stringify({ n, blocks })}`);
      if (e1 === null) assert.deepEqual(onGpu, onCpu, `${fn.name} ${JSON.stringify({ n, blocks })}`);
    }
  }
});
