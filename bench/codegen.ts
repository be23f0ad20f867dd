// The generated code of every example (examples/*.ts) for every target, measured as text and as
// machine code: JS and WGSL characters, PTX instructions, and — through ptxas — SASS instructions
// and registers (bench/sass.ts). No GPU needed; ptxas (the CUDA toolkit) for the PTX columns.
// With GPUC_BENCH_BEFORE=<a built checkout of gpuc>, the same examples are compiled by that
// checkout in a child process (its examples, its dist) and each figure is shown as before → after
// with the ratio: the check that a change to the passes or back ends does not make the generated
// code larger or slower. Run with `npm run bench:codegen`; prints a markdown table and writes
// bench/results-codegen.json. Never part of `npm test`.

import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { threadIdx } from "gpuc";
import { measurePtx } from "./sass.ts";

const ARCH = process.env.GPUC_BENCH_ARCH ?? "sm_90";
const EXAMPLES = ["saxpy", "reduction", "histogram", "matmul", "scan", "mandelbrot", "softmax", "hash", "transpose", "matrixmul", "reduce"];

interface Figures { js: number; wgsl: number | null; ptx: number; sass: number; registers: number }

/**
 * Small kernels, one per family of ops whose JavaScript meaning a target spells out (legalize):
 * integer division, shifts, float min/max, Math.round and Math.sign, float → int wrapping; no
 * bounds checks, so that only the ops are measured.
 */
const OPS: Record<string, [Function, string[]]> = {
  "ops: i32 / and %": [function intdiv(o: Int32Array, a: Int32Array, b: Int32Array) { const i = threadIdx.x; o[i] = ((a[i] / b[i]) | 0) + (a[i] % b[i]); }, ["i32[]", "i32[]", "i32[]"]],
  "ops: u32 / and %": [function udiv(o: Uint32Array, a: Uint32Array, b: Uint32Array) { const i = threadIdx.x; o[i] = ((a[i] / b[i]) >>> 0) + (a[i] % b[i]); }, ["u32[]", "u32[]", "u32[]"]],
  "ops: shifts": [function shifts(o: Int32Array, a: Int32Array, b: Int32Array) { const i = threadIdx.x; o[i] = (a[i] << b[i]) ^ (a[i] >> b[i]); }, ["i32[]", "i32[]", "i32[]"]],
  "ops: f32 min/max": [function minmax(o: Float32Array, a: Float32Array, b: Float32Array) { const i = threadIdx.x; o[i] = Math.min(a[i], b[i]) + Math.max(a[i], 0); }, ["f32[]", "f32[]", "f32[]"]],
  "ops: round, sign": [function round(o: Float32Array, a: Float32Array) { const i = threadIdx.x; o[i] = Math.round(a[i]) + Math.sign(a[i]); }, ["f32[]", "f32[]"]],
  "ops: f32 → i32": [function toint(o: Int32Array, a: Float32Array) { const i = threadIdx.x; o[i] = (a[i] * 255) | 0; }, ["i32[]", "f32[]"]],
  "ops: f64 → i32": [function toint64(o: Int32Array, a: Float64Array) { const i = threadIdx.x; o[i] = (a[i] * 255) | 0; }, ["i32[]", "f64[]"]],
};

type Compilable = { compile(o: object): Promise<{ code: string | Uint8Array; entry: string }> };
type Results = Record<string, Figures>;

/** Compile every kernel of every example in checkout `root` (its examples import its own gpuc). */
async function measureCheckout(root: string): Promise<Results> {
  process.env.GPUC_CACHE = "0";
  const dir = mkdtempSync(join(tmpdir(), "gpuc-bench-codegen-"));
  const out: Results = {};
  const gpuc = await import(pathToFileURL(join(root, "dist", "index.js")).href) as { kernel(fn: Function, o: object): Compilable };
  const measure = async (key: string, kernel: Compilable, types: string[]): Promise<void> => {
    const js = await kernel.compile({ target: "js", types });
    const wgsl = types.some((t) => t.startsWith("f64")) ? null : await kernel.compile({ target: "wgsl", types });
    const ptx = await kernel.compile({ target: "ptx", types, features: { arch: ARCH } });
    const m = measurePtx(ARCH, dir, ptx.code as string, ptx.entry, key.replace(/\W+/g, "-"));
    const lines = (ptx.code as string).split("\n").map((l) => l.trim())
      .filter((l) => l && !l.startsWith(".") && !l.startsWith("//") && !l.endsWith(":") && l !== "{" && l !== "}" && !l.startsWith(")") && !l.startsWith("("));
    out[key] = { js: (js.code as string).length, wgsl: wgsl === null ? null : (wgsl.code as string).length, ptx: lines.length, sass: m.sassTotal, registers: m.registers };
  };
  for (const name of EXAMPLES) {
    // An example the other checkout does not have is measured on this side only.
    const file = join(root, "examples", `${name}.ts`);
    if (!existsSync(file)) continue;
    const ex = (await import(pathToFileURL(file).href)).default as { kernels: { kernel: Compilable; types: string[] }[] };
    for (const [i, { kernel, types }] of ex.kernels.entries()) {
      await measure(ex.kernels.length > 1 ? `${name} #${i + 1}` : name, kernel, types);
    }
  }
  for (const [key, [fn, types]] of Object.entries(OPS)) await measure(key, gpuc.kernel(fn, { boundsCheck: false }), types);
  return out;
}

const here = fileURLToPath(new URL("..", import.meta.url));
if (process.argv[2] === "--measure") {
  process.stdout.write(JSON.stringify(await measureCheckout(resolve(process.argv[3]))));
} else {
  const after = await measureCheckout(here);
  const beforeDir = process.env.GPUC_BENCH_BEFORE;
  let before: Results | null = null;
  if (beforeDir) {
    const r = spawnSync(process.execPath, ["--import", "tsx", fileURLToPath(import.meta.url), "--measure", beforeDir], { encoding: "utf8", cwd: here, maxBuffer: 1 << 26 });
    if (r.status !== 0) throw new Error(`measuring ${beforeDir} failed:\n${r.stderr}`);
    before = JSON.parse(r.stdout) as Results;
  }
  const cols: [keyof Figures, string][] = [["js", "JS chars"], ["wgsl", "WGSL chars"], ["ptx", "PTX instr."], ["sass", `SASS instr. (${ARCH})`], ["registers", "registers"]];
  const cell = (k: string, c: keyof Figures) => {
    const a = after[k][c], b = before?.[k]?.[c];
    if (a === null) return "—";
    return b === undefined || b === null ? String(a) : `${b} → ${a} (${(a / b).toFixed(2)})`;
  };
  const head = ["kernel", ...cols.map(([, h]) => h)];
  console.log(`\n### Generated code of the examples${before ? ` (before → after, ratio; before: ${beforeDir})` : ""}\n`);
  console.log([head, head.map(() => "---"), ...Object.keys(after).map((k) => [k, ...cols.map(([c]) => cell(k, c))])].map((r) => `| ${r.join(" | ")} |`).join("\n"));
  // Totals over the examples both sides have.
  const common = Object.keys(after).filter((k) => !k.startsWith("ops:") && (!before || before[k]));
  const sum = (r: Results, c: keyof Figures) => common.reduce((s, k) => s + (r[k]?.[c] ?? 0), 0);
  if (before) console.log(`\ntotals of the examples: ${cols.map(([c, h]) => `${h} ${sum(before!, c)} → ${sum(after, c)} (${(sum(after, c) / sum(before!, c)).toFixed(3)})`).join("; ")}`);
  writeFileSync(new URL("./results-codegen.json", import.meta.url), JSON.stringify({ arch: ARCH, after, before, beforeDir: beforeDir ?? null }, null, 2) + "\n");
}
