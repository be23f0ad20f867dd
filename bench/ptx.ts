// gpuc's PTX against nvcc's for the same algorithms (bench/cuda/*.cu): what ptxas reports for
// each (registers, spills, stack) and how many instructions there are, in the PTX and in the
// machine code (SASS instructions are 16 bytes from Volta on: the size of the kernel's .text
// section in the cubin / 16). Needs nvcc and ptxas (CUDA toolkit); no GPU.
// Run with `npm run bench:ptx` (= `npm run build && node --import tsx bench/ptx.ts`): prints a
// markdown table, writes bench/results-ptx.json and nvcc's PTX of each reference to
// bench/cuda/<name>.<arch>[.nofma].ptx (for bench/cuda.ts). Never part of `npm test`.

import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { kernel } from "gpuc";
import { saxpy } from "../examples/saxpy.ts";
import { blockSums } from "../examples/reduction.ts";
import { matmul } from "../examples/matmul.ts";
import { measurePtx, ptxasLog, type Measure } from "./sass.ts";

// The compiler is what is measured: no disk cache (GPUC_CACHE=0 for this process and its children).
process.env.GPUC_CACHE = "0";

const ARCH = process.env.GPUC_BENCH_ARCH ?? "sm_90";
const dir = mkdtempSync(join(tmpdir(), "gpuc-bench-ptx-"));
const cudaDir = fileURLToPath(new URL("./cuda/", import.meta.url));

function nvccPtx(file: string, fmad: boolean): string {
  return execFileSync("nvcc", [`-arch=${ARCH}`, "-ptx", `--fmad=${fmad}`, join(cudaDir, file), "-o", "-"], { encoding: "utf8" });
}

const cases = [
  { name: "saxpy", cu: "saxpy.cu", entry: "saxpy", k: saxpy, types: ["f32", "f32[]", "f32[]"], block: [256] },
  { name: "reduction (block sums)", cu: "reduce.cu", entry: "blockSums", k: blockSums, types: ["f32[]", "f32[]"], block: [256] },
  { name: "tiled matmul", cu: "matmul.cu", entry: "matmul", k: matmul, types: ["f32[]", "f32[]", "f32[]", "i32"], block: [16, 16] },
];

const rows: string[][] = [];
const results: Record<string, unknown> = {};
for (const c of cases) {
  const refPtx = nvccPtx(c.cu, true), refExactPtx = nvccPtx(c.cu, false);
  const ref = measurePtx(ARCH, dir, refPtx, c.entry, `${c.entry}-nvcc`);
  const refExact = measurePtx(ARCH, dir, refExactPtx, c.entry, `${c.entry}-nvcc-nofma`);
  // nvcc's PTX is kept for bench/cuda.ts, which times it on a GPU (where nvcc may be missing).
  const stem = c.cu.replace(/\.cu$/, "");
  writeFileSync(join(cudaDir, `${stem}.${ARCH}.ptx`), refPtx);
  writeFileSync(join(cudaDir, `${stem}.${ARCH}.nofma.ptx`), refExactPtx);
  const src = (c.k as unknown as { fn: Function }).fn;
  const variants: [string, Measure][] = [];
  for (const [label, opts] of [["gpuc (checks on)", {}], ["gpuc (checks on, requiredThreads)", { requiredThreads: c.block }], ["gpuc (checks off)", { boundsCheck: false }], ["gpuc (checks off, fastMath)", { boundsCheck: false, fastMath: true }]] as const) {
    const art = await kernel(src, { name: c.entry, ...opts }).compile({ target: "ptx", types: c.types, features: { arch: ARCH } });
    variants.push([label, measurePtx(ARCH, dir, art.code as string, art.entry, `${c.entry}-${label.replace(/\W+/g, "-")}`)]);
  }
  const line = (label: string, m: Measure, base: Measure) => [c.name, label, String(m.registers), String(m.spillBytes), String(m.ptxInstructions), String(m.sassInstructions),
    (m.registers / base.registers).toFixed(2), (m.sassInstructions / base.sassInstructions).toFixed(2)];
  rows.push(line("nvcc -O3 (fmad on)", ref, ref), line("nvcc -O3 --fmad=false", refExact, ref));
  for (const [label, m] of variants) rows.push(line(label, m, label.includes("fastMath") ? ref : refExact));
  results[c.name] = { nvcc: ref, nvccNoFma: refExact, ...Object.fromEntries(variants) };
}

// Compile latency: a new kernel object each time (parse, lower, infer, passes, emit), same process.
const latency: string[][] = [];
for (const c of cases) {
  const src = (c.k as unknown as { fn: Function }).fn;
  const cells = [c.name];
  for (const target of ["js", "wgsl", "ptx"]) {
    const t: number[] = [];
    for (let i = 0; i < 31; i++) { const k = kernel(src, { name: c.entry }); const t0 = performance.now(); await k.compile({ target, types: c.types }); t.push(performance.now() - t0); }
    cells.push(t.slice(1).sort((a, b) => a - b)[15].toFixed(2));
  }
  const art = await kernel(src, { name: c.entry }).compile({ target: "ptx", types: c.types, features: { arch: ARCH } });
  const file = join(dir, `${c.entry}-latency.ptx`);
  writeFileSync(file, art.code as string);
  const t: number[] = [];
  for (let i = 0; i < 9; i++) { const t0 = performance.now(); ptxasLog(ARCH, file, join(dir, "latency.cubin")); t.push(performance.now() - t0); }
  cells.push(t.sort((a, b) => a - b)[4].toFixed(1));
  latency.push(cells);
}

const head = ["kernel", "compiler", "registers", "spill bytes", "PTX instr.", "SASS instr.", "regs ÷ nvcc", "SASS ÷ nvcc"];
console.log(`\n### PTX against nvcc (${ARCH}; ratios against nvcc --fmad=false for exact gpuc, against nvcc's default for fastMath)\n`);
console.log([head, head.map(() => "---"), ...rows].map((r) => `| ${r.join(" | ")} |`).join("\n"));
const lhead = ["kernel", "→ js (ms)", "→ wgsl (ms)", "→ ptx (ms)", `ptxas -arch=${ARCH} (ms, a process)`];
console.log("\n### Compile latency: a new kernel object to target code (median of 30, same process)\n");
console.log([lhead, lhead.map(() => "---"), ...latency].map((r) => `| ${r.join(" | ")} |`).join("\n"));
console.log(`\nnvcc: ${execFileSync("nvcc", ["--version"], { encoding: "utf8" }).trim().split("\n").at(-1)}`);
writeFileSync(fileURLToPath(new URL("./results-ptx.json", import.meta.url)), JSON.stringify({ arch: ARCH, date: new Date().toISOString(), results, latency }, null, 2));
