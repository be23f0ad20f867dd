// The demo: compile every example for every target, run each on every device present, check it
// against plain JavaScript, and print a table (kernel × device: compile ms, run ms, verified).
// With `sanitize` (`gpuc demo --sanitize`), each example runs on the CPU device under the sanitizer
// too (row "cpu+san"): a race or an uninitialized read it reports fails that row; the row says
// how much slower the sanitized run was than the CPU device's.
import { SingleBar, Presets } from "cli-progress";
import { CompileError, KernelError, device, listDevices, type Device } from "gpuc";
import type { Example } from "./example.ts";
import saxpy from "./saxpy.ts";
import reduction from "./reduction.ts";
import histogram from "./histogram.ts";
import matmul from "./matmul.ts";
import scan from "./scan.ts";
import mandelbrot from "./mandelbrot.ts";
import softmax from "./softmax.ts";
import hash from "./hash.ts";
import transpose from "./transpose.ts";
import matrixMul from "./matrixmul.ts";
import reduce3 from "./reduce.ts";
import warpReduce from "./warp-reduce.ts";
import histogram64 from "./histogram64.ts";
import nbody from "./nbody.ts";
import scan4 from "./scan4.ts";
import bitonicSort from "./bitonic-sort.ts";
import fwt from "./fwt.ts";
import quasirandom from "./quasirandom.ts";
import blackScholes from "./black-scholes.ts";

const examples: Example[] = [saxpy, reduction, histogram, matmul, scan, mandelbrot, softmax, hash, transpose, matrixMul, reduce3, warpReduce, histogram64, nbody, scan4, bitonicSort, fwt, quasirandom, blackScholes];
const TARGETS = ["js", "wgsl", "ptx", "opencl", "spirv", "llvm"];

interface Row { example: string; device: string; compileMs: number; runMs: number; referenceMs: number; ok: boolean; summary: string; unavailable?: true }

export async function runDemo(log: (line: string) => void = console.log, options: { sanitize?: boolean } = {}): Promise<boolean> {
  const devices: Device[] = [];
  const skipped: string[] = [];
  // (The CPU device of the table is never the sanitized one, whatever GPUC_SANITIZE says: the sanitized row is its own.)
  for (const d of await listDevices()) {
    if (d.available) devices.push(await device(d.kind, d.kind === "cpu" ? { sanitize: false } : {}));
    else skipped.push(`${d.kind}: ${d.detail}`);
  }
  // The llvm target's SPIR on the OpenCL device (row "spir"), where it takes SPIR (PoCL does).
  let spir: Device | null = null;
  if (devices.some((d) => d.kind === "opencl")) {
    try { spir = await device("opencl", { llvm: true }); devices.push(spir); } catch (e) { skipped.push(`spir: ${(e as Error).message}`); }
  }
  const sanitized = options.sanitize ? await device("cpu", { sanitize: true }) : null;
  if (sanitized) devices.push(sanitized);
  const label = (dev: Device) => (dev === sanitized ? "cpu+san" : dev === spir ? "spir" : dev.kind);
  const tty = process.stderr.isTTY === true;
  const bar = new SingleBar({ format: " {bar} {value}/{total} {task}", hideCursor: true, clearOnComplete: true, noTTYOutput: false, stream: process.stderr }, Presets.shades_classic);
  const total = examples.length * (TARGETS.length + devices.length);
  if (tty) bar.start(total, 0, { task: "" });
  const step = (task: string): void => { if (tty) bar.increment({ task }); };

  // Compile every kernel of every example for every target (fresh compiles, timed).
  // An example that uses what a target lacks is a CompileError of kind unsupported-feature there:
  // said in its row, not run.
  const compileMs = new Map<string, number>();
  const unavailable = new Map<string, string>();
  for (const ex of examples) {
    for (const target of TARGETS) {
      step(`compiling ${ex.name} for ${target}`);
      let ms = 0;
      for (const { kernel, types } of ex.kernels) {
        const t0 = performance.now();
        try { await kernel.compile({ target, types }); } catch (e) {
          if (!(e instanceof CompileError && e.kind === "unsupported-feature")) throw e;
          unavailable.set(`${ex.name}|${target}`, e.message.split("\n")[0].replace(/^.*?: /, ""));
        }
        ms += performance.now() - t0;
      }
      compileMs.set(`${ex.name}|${target}`, ms);
    }
  }
  const rows: Row[] = [];
  for (const dev of devices) {
    for (const ex of examples) {
      step(`running ${ex.name} on ${label(dev)}`);
      const why = unavailable.get(`${ex.name}|${dev.target}`);
      if (why) { rows.push({ example: ex.name, device: label(dev), compileMs: NaN, runMs: NaN, referenceMs: NaN, ok: true, summary: `not available: ${why}`, unavailable: true }); continue; }
      let r;
      try { r = await ex.run(dev); } catch (e) {
        // The sanitizer's findings fail the row and say what they found.
        if (dev !== sanitized || !(e instanceof KernelError)) throw e;
        rows.push({ example: ex.name, device: label(dev), compileMs: NaN, runMs: NaN, referenceMs: NaN, ok: false, summary: e.message.split("\n")[0] });
        continue;
      }
      let summary = r.summary;
      if (dev === sanitized) {
        const cpu = rows.find((x) => x.example === ex.name && x.device === "cpu");
        if (cpu && !cpu.unavailable) summary = `${(r.kernelMs / cpu.runMs).toFixed(1)}x the CPU device's time, nothing reported`;
      }
      rows.push({ example: ex.name, device: label(dev), compileMs: compileMs.get(`${ex.name}|${dev.target}`) ?? NaN, runMs: r.kernelMs, referenceMs: r.referenceMs, ok: r.ok, summary });
    }
    dev.close();
  }
  if (tty) bar.stop();

  log("gpuc demo: every example compiled for every target, run on every device present, checked against plain JavaScript\n");
  for (const s of skipped) log(`  (no ${s})`);
  if (skipped.length) log("");
  const header = ["kernel", "device", "compile ms", "run ms", "plain JS ms", "verified", "result"];
  const table = rows.map((r) => r.unavailable || Number.isNaN(r.runMs) ? [r.example, r.device, "-", "-", "-", r.ok ? "-" : "NO", r.summary]
    : [r.example, r.device, r.compileMs.toFixed(2), r.runMs.toFixed(1), r.referenceMs.toFixed(1), r.ok ? "yes" : "NO", r.summary]);
  const widths = header.map((h, i) => Math.max(h.length, ...table.map((row) => row[i].length)));
  const line = (cells: string[]): string => cells.map((c, i) => (i >= 2 && i <= 4 ? c.padStart(widths[i]) : c.padEnd(widths[i]))).join("  ").trimEnd();
  log(line(header));
  log(widths.map((w) => "-".repeat(w)).join("  "));
  for (const row of table) log(line(row));
  const failed = rows.filter((r) => !r.ok);
  const ran = rows.filter((r) => !r.unavailable).length;
  log(failed.length ? `\n${failed.length} example run(s) did NOT match plain JavaScript`
    : `\nall ${ran} runs agree with plain JavaScript (exactly on the CPU device; on GPU devices exactly for integers, within 1e-5 for floats unless an example says why not)`);
  if (sanitized) {
    const ratios = rows.filter((r) => r.device === "cpu+san" && r.ok && !r.unavailable).map((r) => r.runMs / (rows.find((x) => x.example === r.example && x.device === "cpu")?.runMs ?? NaN)).filter((x) => x > 0);
    if (ratios.length) log(`the sanitizer found nothing in ${ratios.length} examples; its runs took ${Math.exp(ratios.reduce((a, x) => a + Math.log(x), 0) / ratios.length).toFixed(1)}x the CPU device's time (geometric mean; single runs, see BENCHMARKS for the measured figure)`);
  }
  return failed.length === 0;
}

// Run directly (`node --import tsx examples/demo.ts`) as well as from `gpuc demo`.
if (import.meta.url === `file://${process.argv[1]}`) process.exitCode = (await runDemo(console.log, { sanitize: process.argv.includes("--sanitize") })) ? 0 : 1;
