// A kernel's first launch on WebGPU in a new process, without compile() before it (issue #35):
// `npm run build && node bench/first-launch.mjs [rounds] [--before <a built gpuc checkout>] [--mesa-cache]`.
// Each process imports gpuc, opens the WebGPU device (Dawn on lavapipe here), makes the kernel
// and launches it once on host arrays: the time of that launch (compiling, the shader module and
// pipeline, the dispatch, the read-back) and how many specializations it compiled (onCompile).
// The peers harness's three kernels (bench/kernels.mjs: saxpy on 2^20 floats, the naive matmul
// 256×256 in blocks of 16×16, per-block sums of 2^20 floats), every process with GPUC_CACHE=0 and
// Mesa's shader cache off (MESA_SHADER_CACHE_DISABLE=true: lavapipe compiles each shader; with
// --mesa-cache on, warm: the driver's part then mostly a look-up), gpuc's own code cache warm (a
// first process per build writes it). With --before, the same processes
// on that checkout's dist/, alternated with this one's. Prints a markdown table (medians, ms).
// Never part of `npm test`.
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const args = process.argv.slice(2);
const at = args.indexOf("--before");
const before = at >= 0 ? resolve(args[at + 1]) : null;
const ROUNDS = Number(args.find((a, i) => !a.startsWith("--") && i !== at + 1) ?? 7);
const mesaCache = args.includes("--mesa-cache");
const KERNELS = ["saxpy", "matmul", "blockSums"];

if (process.argv[2] === "--child") {
  const which = process.argv[3];
  const gpuc = await import(process.argv[4]);
  const { KERNELS: SPECS } = await import("./kernels.mjs");
  const dev = await gpuc.device("webgpu");
  const compiles = [];
  gpuc.onCompile((e) => { if (e.origin === "compiled") compiles.push(e.provenChecks ? "variant" : "kernel"); });
  const N = 1 << 20, M = 256;
  const fill = (n, f) => Float32Array.from({ length: n }, (_, i) => f(i));
  const problem = {
    saxpy: () => ({ cfg: { blocks: N / 256, threads: 256 }, args: [2, fill(N, (i) => i % 7), fill(N, (i) => i % 5)], out: 2, check: (o) => o[10] === 2 * 3 + 0 }),
    matmul: () => ({ cfg: { blocks: [M / 16, M / 16], threads: [16, 16] }, args: [fill(M * M, () => 1), fill(M * M, () => 2), new Float32Array(M * M), M], out: 2, check: (o) => o[0] === 2 * M }),
    blockSums: () => ({ cfg: { blocks: N / 256, threads: 256 }, args: [new Float32Array(N / 256), fill(N, () => 1)], out: 0, check: (o) => o[0] === 256 }),
  }[which]();
  const k = gpuc.kernel(SPECS[which].fn);
  const t0 = performance.now();
  await k.launch(dev, problem.cfg, ...problem.args);
  const launchMs = performance.now() - t0;
  if (!problem.check(problem.args[problem.out])) throw new Error(`${which}: wrong result`);
  dev.close();
  process.stdout.write(JSON.stringify({ launchMs, compiles }) + "\n");
  process.exit(0);
}

const work = mkdtempSync(join(tmpdir(), "gpuc-first-launch-"));
const env = { ...process.env, GPUC_CACHE: "0", GPUC_KEY_FILE: join(work, "key"), GPUC_CACHE_DIR: join(work, "cache"), ...(mesaCache ? {} : { MESA_SHADER_CACHE_DISABLE: "true" }) };
delete env.NODE_OPTIONS;
delete env.GPUC_CODE_CACHE;
const self = fileURLToPath(import.meta.url);
const here = fileURLToPath(new URL("..", import.meta.url));
const builds = [["this", here], ...(before ? [["before", before]] : [])];
function once(which, dir) {
  const r = spawnSync(process.execPath, [self, "--child", which, pathToFileURL(join(dir, "dist/index.js")).href], { env, encoding: "utf8", timeout: 120_000 });
  if (r.status !== 0) throw new Error(`${which} (${dir}): exit ${r.status}\n${r.stderr}`);
  return JSON.parse(r.stdout.trim().split("\n").at(-1));
}
for (const [, dir] of builds) for (const k of KERNELS) once(k, dir);   // gpuc's code cache, per build
const runs = new Map();
for (let round = 0; round < ROUNDS; round++)
  for (const k of KERNELS)
    for (const [name, dir] of builds) {
      const key = `${k}|${name}`;
      if (!runs.has(key)) runs.set(key, []);
      runs.get(key).push(once(k, dir));
    }
rmSync(work, { recursive: true, force: true });
const median = (xs) => { const s = [...xs].sort((a, b) => a - b); const m = s.length >> 1; return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2; };
const f = (x) => (x >= 100 ? x.toFixed(0) : x.toFixed(1));
console.log(`| kernel | first launch${before ? " | before | this ÷ before" : ""} | compiled${before ? " | before" : ""} |`);
console.log(`|---|---|${before ? "---|---|" : ""}---|${before ? "---|" : ""}`);
for (const k of KERNELS) {
  const ms = (name) => median(runs.get(`${k}|${name}`).map((r) => r.launchMs));
  const what = (name) => runs.get(`${k}|${name}`)[0].compiles.join(", ");
  console.log(before
    ? `| ${k} | ${f(ms("this"))} | ${f(ms("before"))} | ${(ms("this") / ms("before")).toFixed(2)}× | ${what("this")} | ${what("before")} |`
    : `| ${k} | ${f(ms("this"))} | ${what("this")} |`);
}
