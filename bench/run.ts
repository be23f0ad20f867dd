// gpuc benchmarks: cold and warm compile latency, launch overhead, the `gpuc compile` process,
// the speed of the JS target's code on the CPU device against hand-written loops, and of kernels
// with barriers against hand-written JS of the same algorithm.
// Run with `npm run bench` (= `npm run build && node --import tsx bench/run.ts`); prints markdown
// tables and writes bench/results.json. Never part of `npm test`.

import { spawnSync } from "node:child_process";
import { existsSync, writeFileSync } from "node:fs";
import os from "node:os";
import { fileURLToPath } from "node:url";
import { device, kernel } from "gpuc";
// @ts-ignore -- plain JS module shared with the cold-start child process
import { KERNELS, mandelbrotLines, tiny } from "./kernels.mjs";
import { median, ms, signed, num, table, section, stats, machineInfo, machineCpu, otherCpuLoad, ownCpu } from "./stats.ts";
import { openclBench } from "./opencl.ts";

// The compiler is what is measured: no disk cache (GPUC_CACHE=0 for this process and its children).
process.env.GPUC_CACHE = "0";

const ROOT = fileURLToPath(new URL("../", import.meta.url));
const COLD_SCRIPT = fileURLToPath(new URL("./cold.mjs", import.meta.url));
const CLI = fileURLToPath(new URL("../dist/cli/main.js", import.meta.url));
const started = performance.now();


// ---- the machine ----------------------------------------------------------------------------

const machine = machineInfo(ROOT);
const command = "npm run bench   # = npm run build && node --import tsx bench/run.ts";
console.log(`## gpuc benchmarks\n\nCommand: \`${command}\`\n`);
console.log(`gpuc: commit ${machine.gitCommit}${machine.srcModified ? " with uncommitted changes under src/" : ""}, ${machine.date}\n`);
console.log(`Machine: ${machine.cores} cores (${machine.cpuModel}), ${machine.memoryGiB} GiB, ${machine.platform}; Node.js ${machine.node} (V8 ${machine.v8})`);
const otherLoadAtStart = await otherCpuLoad(1000);
console.log(`Other CPU load at start: ${(100 * otherLoadAtStart).toFixed(0)}% of ${machine.cores} cores; load average ${machine.loadAverageAtStart.join(", ")}`);
if (otherLoadAtStart > 0.1)
  console.log(`Warning: other work is running on this machine; timings will be noisy (CPU-bound rows slow down, cold starts most).`);

// ---- a. cold compile: fresh processes -------------------------------------------------------

const COLD_ROUNDS = 15;
/** The child processes get a clean environment: no tsx loader, no inherited NODE_OPTIONS. */
const childEnv = { ...process.env };
delete childEnv.NODE_OPTIONS;

interface ColdRun { wallMs: number; inner: Record<string, number> | null }
function spawnTimed(args: string[]): ColdRun & { status: number | null; stdout: string; stderr: string } {
  const t0 = performance.now();
  const r = spawnSync(process.execPath, args, { cwd: ROOT, env: childEnv, encoding: "utf8" });
  const wallMs = performance.now() - t0;
  let inner: Record<string, number> | null = null;
  const last = r.stdout?.trim().split("\n").at(-1);
  if (last?.startsWith("{")) { try { inner = JSON.parse(last); } catch { inner = null; } }
  return { wallMs, inner, status: r.status, stdout: r.stdout ?? "", stderr: r.stderr ?? "" };
}

const cliPresent = existsSync(CLI);
const coldConfigs: { key: string; label: string; args: string[]; inProcess: boolean }[] = [
  { key: "nodeEmpty", label: "`node -e 0` (baseline)", args: ["-e", "0"], inProcess: false },
  { key: "importOnly", label: "node + `import(\"gpuc\")` only (baseline)", args: [COLD_SCRIPT, "import"], inProcess: true },
  { key: "saxpy", label: "node + import + compile saxpy", args: [COLD_SCRIPT, "saxpy"], inProcess: true },
  { key: "mandelbrot", label: `node + import + compile mandelbrot (${mandelbrotLines()} lines)`, args: [COLD_SCRIPT, "mandelbrot"], inProcess: true },
];
if (cliPresent) coldConfigs.push({ key: "cli", label: "`gpuc compile bench/saxpy.ts --target js`", args: [CLI, "compile", "bench/saxpy.ts", "--target", "js"], inProcess: false });

const coldRuns: Record<string, ColdRun[]> = Object.fromEntries(coldConfigs.map((c) => [c.key, []]));
let cliFailure: string | null = null;
for (const c of coldConfigs) spawnTimed(c.args); // warm the OS file cache; not counted
for (let round = 0; round < COLD_ROUNDS; round++) {
  for (const c of coldConfigs) {
    const r = spawnTimed(c.args);
    if (c.key === "cli" && r.status === 0 && !r.stdout.includes("saxpy")) { cliFailure = "exit 0, but no saxpy code in its output"; continue; }
    if (r.status !== 0) {
      if (c.key === "cli") { cliFailure = `exit ${r.status}: ${(r.stderr || r.stdout).trim().split("\n")[0]}`; continue; }
      throw new Error(`cold run '${c.key}' failed (exit ${r.status}):\n${r.stderr}`);
    }
    if (c.inProcess && !r.inner) throw new Error(`cold run '${c.key}' printed no timings:\n${r.stdout}`);
    coldRuns[c.key].push(r);
  }
}
const coldBase = median(coldRuns.nodeEmpty.map((r) => r.wallMs));
const importBase = median(coldRuns.importOnly.map((r) => r.wallMs));
const cold: Record<string, unknown> = {};
const coldRows: string[][] = [];
for (const c of coldConfigs) {
  const runs = coldRuns[c.key];
  if (!runs.length) continue;
  const wall = stats(runs.map((r) => r.wallMs));
  const inner = (field: string) => (runs[0].inner && field in runs[0].inner ? median(runs.map((r) => r.inner![field])) : null);
  const importMs = inner("importMs"), toArtifact = inner("importToArtifactMs"), firstCompile = inner("firstCompileMs");
  cold[c.key] = { label: c.label, wallMs: wall, importMs, importToArtifactMs: toArtifact, firstCompileMs: firstCompile };
  coldRows.push([
    c.label, ms(wall.median), `${ms(wall.min)}–${ms(wall.max)}`,
    c.key === "nodeEmpty" ? "—" : signed(wall.median - coldBase),
    c.key === "nodeEmpty" || c.key === "importOnly" ? "—" : signed(wall.median - importBase),
    importMs === null ? "—" : ms(importMs),
    toArtifact === null ? "—" : ms(toArtifact),
    firstCompile === null ? "—" : ms(firstCompile),
  ]);
}
if (!cliPresent) coldRows.push(["`gpuc compile bench/saxpy.ts --target js`", "n/a (no CLI)", "", "", "", "", "", ""]);
else if (!coldRuns.cli.length) coldRows.push(["`gpuc compile bench/saxpy.ts --target js`", `failed (${cliFailure})`, "", "", "", "", "", ""]);
section(`a/c. Cold start: a new process per run (median of ${COLD_ROUNDS}, ms)`, table(
  ["process", "wall", "range", "over `node -e 0`", "over import-only", "in-process `import(\"gpuc\")`", "import → artifact", "first `compile()`"],
  coldRows,
));
const cli = !cliPresent ? { status: "n/a (no CLI)" } : coldRuns.cli.length ? { status: "ok", ...(cold.cli as object) } : { status: `failed (${cliFailure})` };

// ---- b. warm compile and launch overhead ----------------------------------------------------

interface Spec { fn: Function; types: string[]; scope?: Record<string, unknown> }
interface WarmVariant { key: string; spec: Spec; freshScope: boolean }
/**
 * Compile a new specialization of each variant `iters` times after `warmup`, round-robin so every
 * variant sees the same process history: a fresh kernel() each time, so no cache hits; with
 * `freshScope`, a fresh scope object too, so the helpers are parsed and lowered again as well.
 */
async function warmCompile(variants: WarmVariant[], iters: number, warmup: number): Promise<Record<string, number[]>> {
  const times: Record<string, number[]> = Object.fromEntries(variants.map((v) => [v.key, []]));
  for (let i = 0; i < warmup + iters; i++) {
    for (const { key, spec, freshScope } of variants) {
      const scope = spec.scope && (freshScope ? { ...spec.scope } : spec.scope);
      const t0 = performance.now();
      const k = kernel(spec.fn, scope ? { scope } : undefined);
      await k.compile({ target: "js", types: spec.types });
      const dt = performance.now() - t0;
      if (i >= warmup) times[key].push(dt);
    }
  }
  return times;
}

const WARM_ITERS = 250, DRIFT = 50;
const warmTimes = {
  ...(await warmCompile([{ key: "saxpy", spec: KERNELS.saxpy, freshScope: false }], 2 * WARM_ITERS, 100)),
  ...(await warmCompile([
    { key: "mandelbrot", spec: KERNELS.mandelbrot, freshScope: true },
    { key: "mandelbrotSharedScope", spec: KERNELS.mandelbrot, freshScope: false },
  ], WARM_ITERS, 25)),
};
const warm = Object.fromEntries(Object.entries(warmTimes).map(([k, t]) => [k, {
  ...stats(t),
  firstMedian: median(t.slice(0, DRIFT)),
  lastMedian: median(t.slice(-DRIFT)),
}]));
const warmLabels: Record<string, string> = {
  saxpy: "saxpy",
  mandelbrot: `mandelbrot (${mandelbrotLines()} lines, 5 helpers; fresh scope object each time)`,
  mandelbrotSharedScope: "mandelbrot, same scope object (helpers' parse/lower cached)",
};
section(`b. Warm compile of a new specialization (in-process, after warm-up; \`kernel()\` + \`compile({ target: "js", types })\`, ms; the mandelbrot rows interleaved)`, table(
  ["kernel", "iterations", "median", "p90", "min", "max", `median of first ${DRIFT}`, `median of last ${DRIFT}`, "target"],
  Object.entries(warm).map(([k, w]) => [warmLabels[k], String(w.n), ms(w.median), ms(w.p90), ms(w.min), ms(w.max), ms(w.firstMedian), ms(w.lastMedian), k === "saxpy" ? "< 2 ms" : ""]),
));

// From here on the benchmark runs in this process alone: what the machine spends beyond this
// process's own CPU time is other people's work (printed at the end).
const inProcessStart = { machine: machineCpu(), own: ownCpu() };
const dev = await device("cpu");
const tinyKernel = kernel(tiny);
const tinyOut = new Int32Array(1);
const oneThread = { blocks: 1, threads: 1 };

// The loaded JS function itself, to call directly: the CPU device's load() returns an object whose
// `run` is the generated function; wrap it for one launch to see exactly which arguments the
// device passes (the calling convention is the device's business), then put it back.
type Captured = { run: (...a: unknown[]) => void; args: unknown[] };
let captured: Captured | null = null;
const deviceLoad = dev.load.bind(dev);
(dev as { load: typeof dev.load }).load = (art) => {
  const loaded = deviceLoad(art) as unknown as { run?: (...a: unknown[]) => void };
  const run = loaded.run;
  if (art.kernel === "tiny" && typeof run === "function") {
    loaded.run = function (this: unknown, ...args: unknown[]) {
      captured ??= { run, args: [...args] };
      loaded.run = run;
      return run.apply(this, args);
    };
  }
  return loaded as unknown as ReturnType<typeof dev.load>;
};
await tinyKernel.launch(dev, oneThread, tinyOut); // compiles and loads: later launches hit the cache
(dev as { load: typeof dev.load }).load = deviceLoad;
const got = captured as Captured | null;
/** The captured function, called with the captured arguments at a fixed arity (no spread per call). */
const directCall = got
  ? (new Function("f", "a", `return () => f(${got.args.map((_, i) => `a[${i}]`).join(", ")});`)(got.run, got.args) as () => void)
  : null;
async function emptyAsync(_out: Int32Array): Promise<void> {}

/** µs per call: median over `samples` batches of `n` calls. */
async function perCall(n: number, samples: number, body: (n: number) => Promise<void> | void): Promise<number[]> {
  await body(Math.min(n, 10_000)); // warm-up
  const out: number[] = [];
  for (let s = 0; s < samples; s++) {
    const t0 = performance.now();
    await body(n);
    out.push(((performance.now() - t0) * 1000) / n);
  }
  return out;
}
const launchUs = await perCall(100_000, 9, async (n) => { for (let i = 0; i < n; i++) await tinyKernel.launch(dev, oneThread, tinyOut); });
const directUs = directCall ? await perCall(1_000_000, 9, (n) => { for (let i = 0; i < n; i++) directCall(); }) : null;
const emptyUs = await perCall(1_000_000, 9, async (n) => { for (let i = 0; i < n; i++) await emptyAsync(tinyOut); });
const launch = { launchUs: stats(launchUs), directCallUs: directUs && stats(directUs), emptyAsyncUs: stats(emptyUs) };
const direct = directUs ? median(directUs) : NaN;
section("b. Launch overhead, cache hit (1 block × 1 thread, `out[0] = out[0] + 1`; µs per call, median of 9 batches)", table(
  ["call", "µs / call", "× direct call", "× empty async call"],
  [
    ["`await k.launch(dev, { blocks: 1, threads: 1 }, out)`", num(median(launchUs), 3), directUs ? num(median(launchUs) / direct, 0) : "—", num(median(launchUs) / median(emptyUs), 1)],
    directUs
      ? ["the loaded JS function called directly (same arguments as the device passes)", num(direct, 3), "1", num(direct / median(emptyUs), 2)]
      : ["the loaded JS function called directly", "n/a (the CPU device's loaded kernel has no `run`)", "", ""],
    ["`await emptyAsync(out)` (baseline)", num(median(emptyUs), 3), directUs ? num(median(emptyUs) / direct, 0) : "—", "1"],
  ],
));

// ---- d. generated code vs hand-written loops on the CPU device ------------------------------

function fill(a: Float32Array, seed: number): Float32Array {
  let s = seed >>> 0;
  for (let i = 0; i < a.length; i++) {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    a[i] = (s / 2 ** 32) * 2 - 1;
  }
  return a;
}
function sameBits(a: Float32Array, b: Float32Array): number {
  const x = new Uint32Array(a.buffer, a.byteOffset, a.length), y = new Uint32Array(b.buffer, b.byteOffset, b.length);
  let diff = 0;
  for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) diff++;
  return diff;
}

function saxpyFround(a: number, x: Float32Array, y: Float32Array, n: number): void {
  for (let i = 0; i < n; i++) y[i] = Math.fround(a * x[i]) + y[i];
}
function saxpyPlain(a: number, x: Float32Array, y: Float32Array, n: number): void {
  for (let i = 0; i < n; i++) y[i] = a * x[i] + y[i];
}
function matmulFround(a: Float32Array, b: Float32Array, c: Float32Array, n: number): void {
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) {
      let acc = 0;
      for (let k = 0; k < n; k++) acc = Math.fround(acc + Math.fround(a[i * n + k] * b[k * n + j]));
      c[i * n + j] = acc;
    }
  }
}
function matmulPlain(a: Float32Array, b: Float32Array, c: Float32Array, n: number): void {
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) {
      let acc = 0;
      for (let k = 0; k < n; k++) acc += a[i * n + k] * b[k * n + j];
      c[i * n + j] = acc;
    }
  }
}

interface Variant { name: string; run: () => Promise<void> | void; reset?: () => void; after?: () => void; prime: () => Promise<void> | void }
/**
 * Interleaved repetitions (each variant once per round) after `warmup` rounds; ms per run; `reset`
 * before and `after` after each run are not timed. Each
 * variant is first run many times on a small problem (`prime`), so V8 optimizes the whole function
 * before the big runs; otherwise the first big run optimizes it by on-stack replacement midway, and
 * the code the later runs get differs from run to run of the benchmark.
 */
async function timeVariants(variants: Variant[], warmup: number, reps: number): Promise<Record<string, number[]>> {
  const out: Record<string, number[]> = Object.fromEntries(variants.map((v) => [v.name, []]));
  for (const v of variants) for (let i = 0; i < 300; i++) await v.prime();
  for (let r = 0; r < warmup + reps; r++) {
    for (const v of variants) {
      v.reset?.();
      const t0 = performance.now();
      await v.run();
      const dt = performance.now() - t0;
      if (r >= warmup) out[v.name].push(dt);
      v.after?.();
    }
  }
  return out;
}

// Each kernel is run as users get it (bounds checks on, the default) and with `boundsCheck: false`,
// which shows what the checks cost apart from the rest of the generated code.

// saxpy, 16M elements. saxpy is memory-bound, and its speed depends on where its two arrays lie
// in memory (in one process, the same loop ran at 28 ms on one 64 MiB output array and at 37 ms on
// another), so every variant runs on the same x and the same y; `after` copies the result out.
const N = 1 << 24;
const A = 1.7, Af = Math.fround(A); // the kernel's `a` is f32: launch() rounds it
const sx = fill(new Float32Array(N), 1), sy0 = fill(new Float32Array(N), 2), sy = new Float32Array(N);
const syGen = new Float32Array(N), syUnchecked = new Float32Array(N), syRef = new Float32Array(N), syPlain = new Float32Array(N);
const saxpyKernel = kernel(KERNELS.saxpy.fn);
const saxpyUnchecked = kernel(KERNELS.saxpy.fn, { boundsCheck: false });
const saxpyGrid = { blocks: N / 256, threads: 256 };
const SMALL = 4096, px = fill(new Float32Array(SMALL), 5), py = fill(new Float32Array(SMALL), 6), smallGrid = { blocks: SMALL / 256, threads: 256 };
const resetSy = () => sy.set(sy0);
const saxpyTimes = await timeVariants([
  { name: "generated", reset: resetSy, after: () => syGen.set(sy), run: () => saxpyKernel.launch(dev, saxpyGrid, A, sx, sy), prime: () => saxpyKernel.launch(dev, smallGrid, A, px, py) },
  { name: "unchecked", reset: resetSy, after: () => syUnchecked.set(sy), run: () => saxpyUnchecked.launch(dev, saxpyGrid, A, sx, sy), prime: () => saxpyUnchecked.launch(dev, smallGrid, A, px, py) },
  { name: "fround", reset: resetSy, after: () => syRef.set(sy), run: () => saxpyFround(Af, sx, sy, N), prime: () => saxpyFround(Af, px, py, SMALL) },
  { name: "plain", reset: resetSy, after: () => syPlain.set(sy), run: () => saxpyPlain(Af, sx, sy, N), prime: () => saxpyPlain(Af, px, py, SMALL) },
], 2, 7);
for (const [what, out] of [["generated", syGen], ["generated (boundsCheck: false)", syUnchecked]] as const) {
  const diff = sameBits(out, syRef);
  if (diff) throw new Error(`saxpy: ${what} result differs from the Math.fround reference in ${diff} of ${N} elements`);
}
const saxpyPlainDiff = sameBits(syPlain, syRef);

// matmul, 512 × 512
const M = 512;
const ma = fill(new Float32Array(M * M), 3), mb = fill(new Float32Array(M * M), 4);
const mcGen = new Float32Array(M * M), mcUnchecked = new Float32Array(M * M), mcRef = new Float32Array(M * M), mcPlain = new Float32Array(M * M), mcFast = new Float32Array(M * M);
const matmulKernel = kernel(KERNELS.matmul.fn);
const matmulUnchecked = kernel(KERNELS.matmul.fn, { boundsCheck: false });
// fastMath: f32 arithmetic carried in f64 between stores (the plain loop's arithmetic, not bit-exact).
const matmulFast = kernel(KERNELS.matmul.fn, { fastMath: true });
const matmulGrid = { blocks: [M / 16, M / 16], threads: [16, 16] };
const SM = 32, sa = fill(new Float32Array(SM * SM), 7), sb = fill(new Float32Array(SM * SM), 8), sc = new Float32Array(SM * SM);
const smallMatmulGrid = { blocks: [SM / 16, SM / 16], threads: [16, 16] };
const matmulTimes = await timeVariants([
  { name: "generated", run: () => matmulKernel.launch(dev, matmulGrid, ma, mb, mcGen, M), prime: () => matmulKernel.launch(dev, smallMatmulGrid, sa, sb, sc, SM) },
  { name: "unchecked", run: () => matmulUnchecked.launch(dev, matmulGrid, ma, mb, mcUnchecked, M), prime: () => matmulUnchecked.launch(dev, smallMatmulGrid, sa, sb, sc, SM) },
  { name: "fast", run: () => matmulFast.launch(dev, matmulGrid, ma, mb, mcFast, M), prime: () => matmulFast.launch(dev, smallMatmulGrid, sa, sb, sc, SM) },
  { name: "fround", run: () => matmulFround(ma, mb, mcRef, M), prime: () => matmulFround(sa, sb, sc, SM) },
  { name: "plain", run: () => matmulPlain(ma, mb, mcPlain, M), prime: () => matmulPlain(sa, sb, sc, SM) },
], 1, 5);
for (const [what, out] of [["generated", mcGen], ["generated (boundsCheck: false)", mcUnchecked]] as const) {
  const diff = sameBits(out, mcRef);
  if (diff) throw new Error(`matmul: ${what} result differs from the Math.fround reference in ${diff} of ${M * M} elements`);
}
const matmulPlainDiff = sameBits(mcPlain, mcRef);
if (sameBits(mcFast, mcPlain)) throw new Error("matmul: the fastMath result differs from the plain (f64-accumulating) loop's");

const saxpyBytes = 12 * N, saxpyFlops = 2 * N, matmulFlops = 2 * M ** 3;
/** Speed ratios: time of the hand-written loop ÷ time of the generated code (≥ 1: generated as fast). */
function cpuRows(times: Record<string, number[]>, rate: (msPerRun: number) => string): string[][] {
  const f = median(times.fround), p = median(times.plain);
  const gen = (label: string, t: number) => [label, ms(t), rate(t), num(f / t), num(p / t)];
  return [
    gen("generated (gpuc, CPU device; bounds checks on, the default)", median(times.generated)),
    gen("generated with `boundsCheck: false`", median(times.unchecked)),
    ...(times.fast ? [gen("generated with `fastMath: true` (f32 arithmetic in f64 between stores; equals the plain loop's result)", median(times.fast))] : []),
    ["hand-written, `Math.fround` per op", ms(f), rate(f), "", ""],
    ["hand-written, plain (unrounded)", ms(p), rate(p), "", ""],
  ];
}
const head = ["code", "median ms", "rate", "speed ÷ fround loop", "speed ÷ plain loop"];
section(`d. saxpy, ${N.toLocaleString("en-US")} f32 elements (median of 7 runs after 2 warm-up runs; 12 bytes and 2 flops per element)`,
  table(head, cpuRows(saxpyTimes, (t) => `${num(saxpyBytes / t / 1e6)} GB/s, ${num(saxpyFlops / t / 1e6)} GFLOP/s`)) +
  `\n\nBoth generated results equal the Math.fround reference bit for bit; the plain loop differs in ${saxpyPlainDiff} elements.`);
section(`d. matmul, ${M}×${M} f32 (median of 5 runs after 1 warm-up run; 2·n³ flops)`,
  table(head, cpuRows(matmulTimes, (t) => `${num(matmulFlops / t / 1e6, 3)} GFLOP/s`)) +
  `\n\nBoth generated results equal the Math.fround reference bit for bit; the plain (f64-accumulating) loop differs in ${matmulPlainDiff} elements.`);

function cpuResult(times: Record<string, number[]>) {
  const f = median(times.fround), p = median(times.plain), g = median(times.generated), u = median(times.unchecked);
  return {
    ms: Object.fromEntries(Object.entries(times).map(([k, t]) => [k, stats(t)])),
    ratioVsFround: f / g, ratioVsPlain: p / g,
    uncheckedRatioVsFround: f / u, uncheckedRatioVsPlain: p / u,
    exactVsFround: true,
  };
}
const cpu = {
  saxpy: { n: N, ...cpuResult(saxpyTimes), generatedGBps: saxpyBytes / median(saxpyTimes.generated) / 1e6, plainMismatches: saxpyPlainDiff },
  matmul: { n: M, ...cpuResult(matmulTimes), generatedGFLOPs: matmulFlops / median(matmulTimes.generated) / 1e6, plainMismatches: matmulPlainDiff },
};

// ---- e. kernels with barriers vs hand-written JS of the same algorithm ------------------------

const BLOCK = 256, TILE = 16;
/**
 * (A) The kernel's algorithm simulated literally: one block at a time, its 256 values in a
 * Float32Array, and at each step of the tree every "thread" of the block tests `t < stride`.
 */
function blockSumsSimulated(sums: Float32Array, x: Float32Array): void {
  const s = new Float32Array(BLOCK);
  for (let blk = 0; blk < sums.length; blk++) {
    for (let t = 0; t < BLOCK; t++) { const i = blk * BLOCK + t; s[t] = i < x.length ? x[i] : 0; }
    for (let stride = BLOCK >> 1; stride > 0; stride >>= 1)
      for (let t = 0; t < BLOCK; t++) if (t < stride) s[t] = Math.fround(s[t] + s[t + stride]);
    sums[blk] = s[0];
  }
}
/**
 * (A′) The same as (A) with the block size a run-time argument, as the generated code has it
 * (blockDim.x is a launch parameter): not a target baseline, it shows what the constant costs.
 */
function blockSumsSimulatedDynamic(sums: Float32Array, x: Float32Array, block: number): void {
  const s = new Float32Array(BLOCK);
  for (let blk = 0; blk < sums.length; blk++) {
    for (let t = 0; t < block; t++) { const i = blk * block + t; s[t] = i < x.length ? x[i] : 0; }
    for (let stride = block >> 1; stride > 0; stride >>= 1)
      for (let t = 0; t < block; t++) if (t < stride) s[t] = Math.fround(s[t] + s[t + stride]);
    sums[blk] = s[0];
  }
}
/** (B) The same tree written sequentially: at each step only the `stride` active positions. */
function blockSumsTree(sums: Float32Array, x: Float32Array): void {
  const s = new Float32Array(BLOCK);
  for (let blk = 0; blk < sums.length; blk++) {
    for (let t = 0; t < BLOCK; t++) { const i = blk * BLOCK + t; s[t] = i < x.length ? x[i] : 0; }
    for (let stride = BLOCK >> 1; stride > 0; stride >>= 1)
      for (let t = 0; t < stride; t++) s[t] = Math.fround(s[t] + s[t + stride]);
    sums[blk] = s[0];
  }
}
/**
 * (A) The kernel's tiled algorithm by hand: for each 16×16 output tile, stage a tile of each
 * operand in a local buffer, then add its 16 products to each output's f32 accumulator, k in
 * increasing order (the same order as the naive loop, so the same result bit for bit).
 */
function matmulTiledJs(c: Float32Array, a: Float32Array, b: Float32Array, n: number): void {
  const as = new Float32Array(TILE * TILE), bs = new Float32Array(TILE * TILE), acc = new Float32Array(TILE * TILE);
  for (let by = 0; by < n; by += TILE) {
    for (let bx = 0; bx < n; bx += TILE) {
      acc.fill(0);
      for (let t = 0; t < n; t += TILE) {
        for (let ty = 0; ty < TILE; ty++) {
          for (let tx = 0; tx < TILE; tx++) {
            const row = by + ty, col = bx + tx;
            as[ty * TILE + tx] = row < n && t + tx < n ? a[row * n + t + tx] : 0;
            bs[ty * TILE + tx] = col < n && t + ty < n ? b[(t + ty) * n + col] : 0;
          }
        }
        for (let ty = 0; ty < TILE; ty++) {
          for (let tx = 0; tx < TILE; tx++) {
            let sum = acc[ty * TILE + tx];
            for (let k = 0; k < TILE; k++) sum = Math.fround(sum + Math.fround(as[ty * TILE + k] * bs[k * TILE + tx]));
            acc[ty * TILE + tx] = sum;
          }
        }
      }
      for (let ty = 0; ty < TILE; ty++) {
        for (let tx = 0; tx < TILE; tx++) {
          const row = by + ty, col = bx + tx;
          if (row < n && col < n) c[row * n + col] = acc[ty * TILE + tx];
        }
      }
    }
  }
}

// Reduction: 4M elements, 16,384 blocks of 256. One run takes 10–60 ms and single runs vary a lot
// (the first few after priming and the odd later one up to 1.8× the rest), so more runs than above.
const R = 1 << 22, RB = R / BLOCK;
const rx = fill(new Float32Array(R), 9);
const rsGen = new Float32Array(RB), rsUnchecked = new Float32Array(RB), rsSim = new Float32Array(RB), rsSimDyn = new Float32Array(RB), rsTree = new Float32Array(RB);
let blockArg = 0; // assigned twice, so V8 cannot fold it into (A′) as a constant
blockArg = BLOCK;
const sumsKernel = kernel(KERNELS.blockSums.fn);
const sumsUnchecked = kernel(KERNELS.blockSums.fn, { boundsCheck: false });
const sumsGrid = { blocks: RB, threads: BLOCK };
const rpx = fill(new Float32Array(SMALL), 10), rps = new Float32Array(SMALL / BLOCK);
const sumsTimes = await timeVariants([
  { name: "generated", reset: () => rsGen.fill(NaN), run: () => sumsKernel.launch(dev, sumsGrid, rsGen, rx), prime: () => sumsKernel.launch(dev, smallGrid, rps, rpx) },
  { name: "unchecked", reset: () => rsUnchecked.fill(NaN), run: () => sumsUnchecked.launch(dev, sumsGrid, rsUnchecked, rx), prime: () => sumsUnchecked.launch(dev, smallGrid, rps, rpx) },
  { name: "simulated", reset: () => rsSim.fill(NaN), run: () => blockSumsSimulated(rsSim, rx), prime: () => blockSumsSimulated(rps, rpx) },
  { name: "simulatedDynamic", reset: () => rsSimDyn.fill(NaN), run: () => blockSumsSimulatedDynamic(rsSimDyn, rx, blockArg), prime: () => blockSumsSimulatedDynamic(rps, rpx, blockArg) },
  { name: "tree", reset: () => rsTree.fill(NaN), run: () => blockSumsTree(rsTree, rx), prime: () => blockSumsTree(rps, rpx) },
], 3, 15);
for (const [what, out] of [["generated", rsGen], ["generated (boundsCheck: false)", rsUnchecked], ["hand-written (A′)", rsSimDyn], ["hand-written sequential tree (B)", rsTree]] as const) {
  const diff = sameBits(out, rsSim);
  if (diff) throw new Error(`block sums: ${what} result differs from the simulated block-synchronous JS (A) in ${diff} of ${RB} block sums`);
}

// Tiled matmul: 512 × 512 (same inputs as section d), 32 × 32 blocks of 16 × 16 threads. 9 runs,
// not 5: in one run of 5, a slow spell of the machine (seconds long, invisible as other processes'
// load) made the hand-written tiled loop 1.5× slower in three rounds and the generated code 1.1×,
// and the median ratio followed it (0.61 instead of 0.45–0.50).
const mtGen = new Float32Array(M * M), mtUnchecked = new Float32Array(M * M), mtTiled = new Float32Array(M * M), mtNaive = new Float32Array(M * M);
const tiledKernel = kernel(KERNELS.matmulTiled.fn);
const tiledUnchecked = kernel(KERNELS.matmulTiled.fn, { boundsCheck: false });
const tiledTimes = await timeVariants([
  { name: "generated", reset: () => mtGen.fill(NaN), run: () => tiledKernel.launch(dev, matmulGrid, mtGen, ma, mb, M), prime: () => tiledKernel.launch(dev, smallMatmulGrid, sc, sa, sb, SM) },
  { name: "unchecked", reset: () => mtUnchecked.fill(NaN), run: () => tiledUnchecked.launch(dev, matmulGrid, mtUnchecked, ma, mb, M), prime: () => tiledUnchecked.launch(dev, smallMatmulGrid, sc, sa, sb, SM) },
  { name: "tiled", reset: () => mtTiled.fill(NaN), run: () => matmulTiledJs(mtTiled, ma, mb, M), prime: () => matmulTiledJs(sc, sa, sb, SM) },
  { name: "naive", reset: () => mtNaive.fill(NaN), run: () => matmulFround(ma, mb, mtNaive, M), prime: () => matmulFround(sa, sb, sc, SM) },
], 1, 9);
for (const [what, out] of [["generated", mtGen], ["generated (boundsCheck: false)", mtUnchecked], ["hand-written tiled JS (A)", mtTiled]] as const) {
  const diff = sameBits(out, mtNaive);
  if (diff) throw new Error(`tiled matmul: ${what} result differs from the naive Math.fround triple loop (B) in ${diff} of ${M * M} elements`);
}

/** Speed ratios: time of the hand-written code ÷ time of the generated code (≥ 1: generated as fast). */
function barrierRows(times: Record<string, number[]>, a: string, b: string, labelA: string, labelB: string, rate: (msPerRun: number) => string, extra: [string, string][] = []): string[][] {
  const ta = median(times[a]), tb = median(times[b]);
  const row = (label: string, t: number) => [label, ms(t), rate(t), num(ta / t), num(tb / t)];
  return [
    row("generated (gpuc, CPU device; bounds checks on, the default)", median(times.generated)),
    row("generated with `boundsCheck: false`", median(times.unchecked)),
    row(labelA, ta),
    ...extra.map(([key, label]) => row(label, median(times[key]))),
    row(labelB, tb),
  ];
}
const barrierHead = ["code", "median ms", "rate", "speed ÷ (A)", "speed ÷ (B)"];
/**
 * The variants run interleaved, so a burst of other work slows one round of all of them: the
 * ratio within each round, generated (checks on) ÷ baseline, is a check on the ratio of medians.
 */
function perRound(times: Record<string, number[]>, base: string): { median: number; min: number; max: number } {
  const r = times.generated.map((g, i) => times[base][i] / g);
  return { median: median(r), min: Math.min(...r), max: Math.max(...r) };
}
/** Slow spells only ever slow a run down: the fastest run of each is a second check. */
function fastest(times: Record<string, number[]>, base: string, gen = "generated"): number {
  return Math.min(...times[base]) / Math.min(...times[gen]);
}
function perRoundLine(times: Record<string, number[]>, a: string): string {
  const r = perRound(times, a);
  return `Checks against slow spells of the machine: within each round, generated (checks on) speed ÷ (A) has median ${num(r.median)} ` +
    `(range ${num(r.min)}–${num(r.max)} over ${times.generated.length} rounds); fastest run ÷ fastest run, ${num(fastest(times, a))}.`;
}
section(`e. Per-block sums (shared-memory tree, \`syncthreads()\`), ${R.toLocaleString("en-US")} f32 elements in ${RB.toLocaleString("en-US")} blocks of ${BLOCK} (median of 15 runs after 3 warm-up runs; 4 bytes read per element)`,
  table(barrierHead, barrierRows(sumsTimes, "simulated", "tree",
    "(A) hand-written, the block-synchronous algorithm simulated (all 256 `t` tested per step)",
    "(B) hand-written sequential tree (`t < stride` only)",
    (t) => `${num((4 * R) / t / 1e6)} GB/s`,
    [["simulatedDynamic", "(A′) as (A), but the block size a run-time argument (as `blockDim.x` is to the generated code; not a target baseline)"]])) +
  `\n\nAll five give the same ${RB.toLocaleString("en-US")} block sums bit for bit (the run fails otherwise). ${perRoundLine(sumsTimes, "simulated")}`);
section(`e. Tiled matmul (16×16 tiles in shared memory, \`syncthreads()\`), ${M}×${M} f32 (median of 9 runs after 1 warm-up run; 2·n³ flops)`,
  table(barrierHead, barrierRows(tiledTimes, "tiled", "naive",
    "(A) hand-written tiled JS (16×16 tile buffers, `Math.fround` per op)",
    "(B) hand-written naive triple loop, `Math.fround` per op",
    (t) => `${num(matmulFlops / t / 1e6, 3)} GFLOP/s`)) +
  `\n\nAll four results are the same bit for bit (the run fails otherwise): the sum over k runs in the same order in each. ${perRoundLine(tiledTimes, "tiled")}`);

function barrierResult(times: Record<string, number[]>, a: string, b: string) {
  const ta = median(times[a]), tb = median(times[b]), g = median(times.generated), u = median(times.unchecked);
  return {
    ms: Object.fromEntries(Object.entries(times).map(([k, t]) => [k, { ...stats(t), runs: t.map((x) => +x.toFixed(2)) }])),
    baselineA: a, baselineB: b,
    ratioVsA: ta / g, ratioVsB: tb / g, uncheckedRatioVsA: ta / u, uncheckedRatioVsB: tb / u,
    perRoundRatioVsA: perRound(times, a), perRoundRatioVsB: perRound(times, b),
    fastestRatioVsA: fastest(times, a), fastestRatioVsB: fastest(times, b),
    uncheckedFastestRatioVsA: fastest(times, a, "unchecked"), uncheckedFastestRatioVsB: fastest(times, b, "unchecked"),
    exact: true,
  };
}
const barrier = {
  blockSums: { n: R, blocks: RB, threads: BLOCK, ...barrierResult(sumsTimes, "simulated", "tree"), ratioVsSimulatedDynamic: median(sumsTimes.simulatedDynamic) / median(sumsTimes.generated) },
  matmulTiled: { n: M, tile: TILE, ...barrierResult(tiledTimes, "tiled", "naive"), generatedGFLOPs: matmulFlops / median(tiledTimes.generated) / 1e6 },
};

// ---- summary against the targets --------------------------------------------------------------

const cliMs = cliPresent && coldRuns.cli?.length ? median(coldRuns.cli.map((r) => r.wallMs)) : null;
const summary = [
  ["warm compile of saxpy (median)", `${ms(warm.saxpy.median)} ms`, "< 2 ms", warm.saxpy.median < 2 ? "met" : "missed"],
  ["`gpuc compile` of one kernel, whole process", cliMs === null ? (cliPresent ? `failed (${cliFailure})` : "n/a (no CLI)") : `${ms(cliMs)} ms`, "< 400 ms", cliMs === null ? "—" : cliMs < 400 ? "met" : "missed"],
  ...(["saxpy", "matmul"] as const).flatMap((k) => [
    [`generated ${k} speed ÷ hand-written fround loop (bounds checks on; off)`, `${num(cpu[k].ratioVsFround)}; ${num(cpu[k].uncheckedRatioVsFround)}`, "≥ 0.8", cpu[k].ratioVsFround >= 0.8 ? "met" : "missed"],
    [`generated ${k} speed ÷ hand-written plain loop (bounds checks on; off)`, `${num(cpu[k].ratioVsPlain)}; ${num(cpu[k].uncheckedRatioVsPlain)}`, "≥ 0.8", cpu[k].ratioVsPlain >= 0.8 ? "met" : "missed"],
  ]),
];
summary.push(...([["blockSums", "per-block sums"], ["matmulTiled", "tiled matmul"]] as const).flatMap(([k, label]) => [
  [`generated ${label} (barriers) speed ÷ (A) hand-written JS of the same algorithm (bounds checks on; off; fastest runs, on)`, `${num(barrier[k].ratioVsA)}; ${num(barrier[k].uncheckedRatioVsA)}; ${num(barrier[k].fastestRatioVsA)}`, "≥ 0.5", barrier[k].ratioVsA >= 0.5 ? "met" : "missed"],
  [`generated ${label} (barriers) speed ÷ (B) ${k === "blockSums" ? "sequential tree" : "naive triple loop"} (bounds checks on; off; fastest runs, on)`, `${num(barrier[k].ratioVsB)}; ${num(barrier[k].uncheckedRatioVsB)}; ${num(barrier[k].fastestRatioVsB)}`, "—", ""],
]));
section("Targets", table(["measure", "this run", "target", ""], summary));

// ---- n. the OpenCL device ------------------------------------------------------------------------

const opencl = await openclBench();

const inProcessEnd = { machine: machineCpu(), own: ownCpu() };
const otherLoadDuring = Math.max(0, (inProcessEnd.machine.busy - inProcessStart.machine.busy - (inProcessEnd.own - inProcessStart.own)) /
  Math.max(1, inProcessEnd.machine.all - inProcessStart.machine.all));
const totalS = (performance.now() - started) / 1000;
console.log(`\nBenchmark time: ${totalS.toFixed(1)} s`);
const otherLoadAtEnd = await otherCpuLoad(1000);
console.log(`Other CPU load during the in-process sections (b, d, e, n): ${(100 * otherLoadDuring).toFixed(0)}% of ${machine.cores} cores; at end: ${(100 * otherLoadAtEnd).toFixed(0)}%; load average at end ${os.loadavg().map((x) => x.toFixed(2)).join(", ")}`);
const results = { command, machine: { ...machine, otherLoadAtStart, otherLoadDuring, otherLoadAtEnd, loadAverageAtEnd: os.loadavg().map((x) => +x.toFixed(2)) }, totalSeconds: totalS, cold, cli, warm, launch, cpu, barrier, opencl };
writeFileSync(new URL("./results.json", import.meta.url), JSON.stringify(results, null, 2) + "\n");
console.log("Results written to bench/results.json");
