// Where the CPU device's time goes, per example of the demo (issue #33): each example's kernel time
// (its own `kernelMs`: the launches after a first, compiling one) on the CPU device as a user gets
// it (`device("cpu")`: a worker per core, launches on them where measured faster), on one thread
// (WebAssembly where the kernel has a module and prefers it), as JavaScript only (`wasm: false`)
// and with parts of that JavaScript taken out — f32 rounding (`Math.fround(x)` → `x`), the checks
// (each `if (…) { report; throw }` block: bounds checks, mostly), both —, as WebAssembly always
// (`wasm: "always"`), and on two threads with every launch on the workers (WebAssembly where the
// module prefers to run and may on several threads; and the JavaScript only); beside PoCL (the
// OpenCL device) and the example's plain-JS reference. A variant without
// rounding or checks computes other bits or misses an error: it is a measurement only (its `ok`
// is ignored). Medians of RUNS runs (GPUC_BENCH_RUNS, default 7), configurations alternated
// within each run; the spread (lowest–highest) of the device as it is and of PoCL; the geomeans
// of the device as it is (and of one thread) against PoCL and plain JS (warp-reduce against plain JS only: PoCL's
// subgroups are one thread wide, so its warp-reduce does other work).
// Before the timed runs, every configuration runs the example once (compiling), the device as it
// is WARMUP times (GPUC_BENCH_WARMUP, default 5): its choice between this thread and the workers is
// made from its first launches (three here, up to six there: devices/cpu.ts, onWorkers), and the
// table is of the choice it settles on, not of that measuring.
// Usage: node --import tsx bench/cpu-profile.ts [example …]. Never part of `npm test`.
import { device, listDevices, type Device } from "gpuc";
import { demoExamples } from "./demo-examples.ts";
import { manifestHash } from "../src/reloc/manifest.ts";

const RUNS = Number(process.env.GPUC_BENCH_RUNS ?? 7);
const WARMUP = Number(process.env.GPUC_BENCH_WARMUP ?? 5);
process.env.GPUC_CACHE ??= "0";

const examples = await demoExamples(process.argv.slice(2));

/** Each `if (…) {` whose body is a report and a throw (a check), with its closing brace. */
const CHECK = /^[ \t]*if \(.*\) \{\n[ \t]*gpuc_report_exception\$0\(.*\);\n[ \t]*throw \$trap;\n[ \t]*\}\n/gm;
const noRounding = (code: string) => code.replace(/Math\.fround\(/g, "(");
const noChecks = (code: string) => code.replace(CHECK, "");

/** A CPU device whose loads take the artifact's code through `edit` (a device of its own: its loads are its own). */
async function cpu(options: Record<string, unknown>, edit?: (code: string) => string): Promise<Device> {
  const dev = await device("cpu", options);
  if (edit) {
    const load = dev.load.bind(dev);
    // (The edited code gets a manifest of its own: a loader checks that the manifest is the code's.)
    (dev as { load: Device["load"] }).load = ((artifact, tables) => {
      const code = edit(artifact.code as string), m = artifact.manifest;
      return load({ ...artifact, code, manifest: { ...m, codeHash: manifestHash(m.strategy, m.sites, code, m.folded) } }, tables);
    }) as Device["load"];
  }
  return dev;
}

const configs: [string, Device][] = [
  ["CPU as it is", await cpu({})],
  ["1 thread", await cpu({ threads: 1 })],
  ["JavaScript only", await cpu({ threads: 1, wasm: false })],
  ["JS, no f32 rounding", await cpu({ threads: 1, wasm: false }, noRounding)],
  ["JS, no checks", await cpu({ threads: 1, wasm: false }, noChecks)],
  ["JS, neither", await cpu({ threads: 1, wasm: false }, (c) => noChecks(noRounding(c)))],
  ["WebAssembly always", await cpu({ threads: 1, wasm: "always" })],
  ["2 threads, on workers", await cpu({ threads: 2, parallel: "always" })],
  ["workers, JavaScript only", await cpu({ threads: 2, parallel: "always", wasm: false })],
];
if ((await listDevices()).some((d) => d.kind === "opencl" && d.available)) configs.push(["PoCL", await device("opencl")]);

const median = (xs: number[]) => { const s = [...xs].sort((a, b) => a - b); return s[s.length >> 1]; };
const fmt = (x: number) => (x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x.toFixed(2));

const pocl = configs.findIndex(([n]) => n === "PoCL");
const spread = (xs: number[]) => `${fmt(Math.min(...xs))}–${fmt(Math.max(...xs))}`;
console.log(`### CPU device profile (kernel ms, median of ${RUNS}; in parentheses the share of the first column)\n`);
console.log(`| example | ${configs.map(([n]) => n).join(" | ")} | plain JS | spread: CPU${pocl >= 0 ? ", PoCL" : ""} |`);
console.log(`| --- | ${configs.map(() => "---").join(" | ")} | --- | --- |`);
const vsPocl: number[] = [], vsJS: number[] = [], oneVsPocl: number[] = [], oneVsJS: number[] = [];
for (const ex of examples) {
  const times = configs.map(() => [] as number[]), ref: number[] = [];
  for (const [, dev] of configs) await ex.run(dev);   // compiles, warms
  for (let r = 1; r < WARMUP; r++) await ex.run(configs[0][1]);
  for (let r = 0; r < RUNS; r++) {
    for (let c = 0; c < configs.length; c++) {
      const out = await ex.run(configs[c][1]);
      times[c].push(out.kernelMs);
      if (c === 0) ref.push(out.referenceMs);
    }
  }
  const base = median(times[0]);
  const cells = times.map((t, c) => (c === 0 ? fmt(base) : `${fmt(median(t))} (${(median(t) / base).toFixed(2)})`));
  console.log(`| ${ex.name} | ${cells.join(" | ")} | ${fmt(median(ref))} (${(median(ref) / base).toFixed(2)}) | ${spread(times[0])}${pocl >= 0 ? `, ${spread(times[pocl])}` : ""} |`);
  vsJS.push(base / median(ref));
  oneVsJS.push(median(times[1]) / median(ref));
  if (pocl >= 0 && ex.name !== "warp-reduce") { vsPocl.push(base / median(times[pocl])); oneVsPocl.push(median(times[1]) / median(times[pocl])); }
}
const geomean = (xs: number[]) => Math.exp(xs.reduce((a, x) => a + Math.log(x), 0) / xs.length);
const against = (p: number[], j: number[]) => `${p.length ? `${geomean(p).toFixed(2)}× PoCL (geomean of ${p.length}; worst ${Math.max(...p).toFixed(2)}×), ` : ""}${geomean(j).toFixed(2)}× plain JS (geomean of ${j.length}; worst ${Math.max(...j).toFixed(2)}×)`;
console.log(`\nThe CPU device as it is: ${against(vsPocl, vsJS)}; on one thread: ${against(oneVsPocl, oneVsJS)}`);
for (const [, dev] of configs) await dev.destroy?.();
