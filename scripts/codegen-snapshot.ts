// The generated code of every kernel gpuc ships or pins — the examples (examples/*.ts), the
// golden kernels (test/fixtures/golden.mjs) and the benchmarks' kernels (bench/kernels.mjs) — for
// every target, one file per kernel and target (a refusal is a file too: its CompileError's kind
// and first line), written into a directory. Two snapshots, before and after a change to the
// passes or back ends, diffed (`diff -r`), show exactly what the change did to the code users get:
// the check that a restructuring changed nothing, or what one shared decision changed.
//
//   npm run build && node --import tsx scripts/codegen-snapshot.ts <directory>

import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { CompileError, kernel, type Kernel } from "gpuc";
import type { Example } from "../examples/example.ts";

const dir = process.argv[2];
if (!dir) { console.error("usage: node --import tsx scripts/codegen-snapshot.ts <directory>"); process.exit(2); }
mkdirSync(dir, { recursive: true });

const TARGETS = ["js", "wgsl", "ptx", "opencl", "spirv", "llvm"];
const EXAMPLES = ["saxpy", "reduction", "histogram", "matmul", "scan", "mandelbrot", "softmax", "hash", "transpose", "matrixmul", "reduce", "warp-reduce", "histogram64", "nbody", "scan4", "bitonic-sort", "fwt"];

const jobs: { name: string; kernel: Kernel; types: string[] }[] = [];
for (const file of EXAMPLES) {
  const ex = (await import(`../examples/${file}.ts`)).default as Example;
  ex.kernels.forEach(({ kernel: k, types }, i) => jobs.push({ name: `example-${ex.name}-${i}-${k.name}`, kernel: k, types: [...types] }));
}
const golden = await import("../test/fixtures/golden.mjs") as { cases: GoldenCase[]; riskyCases: GoldenCase[]; fenceCases: GoldenCase[] };
type GoldenCase = { fn: Function & { scope?: Record<string, unknown> }; types: string[] };
for (const c of [...golden.cases, ...golden.riskyCases, ...golden.fenceCases]) jobs.push({ name: `golden-${c.fn.name}`, kernel: kernel(c.fn, { scope: c.fn.scope }), types: c.types });
const { KERNELS } = await import("../bench/kernels.mjs") as { KERNELS: Record<string, { fn: Function; scope?: Record<string, unknown>; types: string[] }> };
for (const [name, spec] of Object.entries(KERNELS)) jobs.push({ name: `bench-${name}`, kernel: kernel(spec.fn, { name, ...(spec.scope ? { scope: { ...spec.scope } } : {}) }), types: spec.types });

let files = 0;
for (const job of jobs) {
  for (const target of TARGETS) {
    let text: string;
    try {
      const art = await job.kernel.compile({ target, types: job.types });
      text = typeof art.code === "string" ? art.code : Buffer.from(art.code).toString("hex").replace(/(.{64})/g, "$1\n");
      text += `\n// manifest ${JSON.stringify(art.manifest)}\n// params ${JSON.stringify(art.params)}\n`;
      if (art.layout) text += `// layout ${JSON.stringify(art.layout)}\n`;
    } catch (e) {
      if (!(e instanceof CompileError)) throw e;
      text = `CompileError ${e.kind}: ${e.message.split("\n")[0]}\n`;
    }
    writeFileSync(join(dir, `${job.name}.${target}`), text);
    files++;
  }
}
console.log(`${files} files (${jobs.length} kernels × ${TARGETS.length} targets) in ${dir}`);
