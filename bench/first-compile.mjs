// A kernel's first compile in a new process, with gpuc's own code cache warm, without its data,
// and off (issue #35; ARCHITECTURE.md, "gpuc's own code cache"): `npm run bench:first`
// (= `npm run build && node bench/first-compile.mjs [rounds]`). The peers harness's three kernels
// (saxpy, the naive matmul, per-block sums) to WGSL and to JS; each process is bench/cold.mjs
// (import("gpuc"), then kernel() and compile(): "first compile" is what the harness's codegen
// cold column times). The three modes run in turn within each round, so a drift of the machine
// falls on all of them alike; every process has GPUC_CACHE=0 (every kernel compiles) and a key
// and cache directory of the benchmark's own. Prints a markdown table (medians, ms). Never part of
// `npm test`.
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const ROUNDS = Number(process.argv[2] ?? 9);
const COLD = fileURLToPath(new URL("./cold.mjs", import.meta.url));
const ROOT = fileURLToPath(new URL("..", import.meta.url));
const work = mkdtempSync(join(tmpdir(), "gpuc-first-"));
const keyFile = join(work, "key");
const warmDir = join(work, "warm");
const env = { ...process.env, GPUC_CACHE: "0", GPUC_KEY_FILE: keyFile };
delete env.NODE_OPTIONS;
delete env.GPUC_CODE_CACHE;

const MODES = {
  warm: () => ({ GPUC_CACHE_DIR: warmDir }),
  "no data": () => ({ GPUC_CACHE_DIR: mkdtempSync(join(work, "cold-")) }),
  off: () => ({ GPUC_CACHE_DIR: warmDir, GPUC_CODE_CACHE: "0" }),
};
const CASES = [["saxpy", "wgsl"], ["matmul", "wgsl"], ["blockSums", "wgsl"], ["saxpy", "js"], ["matmul", "js"], ["blockSums", "js"]];

function once(kernel, target, extra) {
  const t0 = performance.now();
  const r = spawnSync(process.execPath, [COLD, kernel, target], { cwd: ROOT, env: { ...env, ...extra }, encoding: "utf8" });
  const wall = performance.now() - t0;
  if (r.status !== 0) throw new Error(`${kernel} → ${target}: exit ${r.status}\n${r.stderr}`);
  const inner = JSON.parse(r.stdout.trim().split("\n").at(-1));
  return { wall, import: inner.importMs, first: inner.kernelMs + inner.firstCompileMs };
}

// The warm cache's data: written by a first process for each target (then every later one finds it).
for (const [k, t] of CASES) once(k, t, MODES.warm());
const runs = new Map();
for (let round = 0; round < ROUNDS; round++)
  for (const [k, t] of CASES)
    for (const [mode, extra] of Object.entries(MODES)) {
      const key = `${k}|${t}|${mode}`;
      if (!runs.has(key)) runs.set(key, []);
      runs.get(key).push(once(k, t, extra()));
    }
rmSync(work, { recursive: true, force: true });

const median = (xs) => { const s = [...xs].sort((a, b) => a - b); const m = s.length >> 1; return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2; };
const f = (x) => (x >= 100 ? x.toFixed(0) : x.toFixed(1));
console.log(`| kernel → target | first compile: warm | no data | off (ES modules) | warm / off | process wall: warm | off | import("gpuc"): warm | off |`);
console.log(`|---|---|---|---|---|---|---|---|---|`);
for (const [k, t] of CASES) {
  const m = (mode, what) => median(runs.get(`${k}|${t}|${mode}`).map((r) => r[what]));
  console.log(`| ${k} → ${t} | ${f(m("warm", "first"))} | ${f(m("no data", "first"))} | ${f(m("off", "first"))} | ${(m("warm", "first") / m("off", "first")).toFixed(2)}× | ${f(m("warm", "wall"))} | ${f(m("off", "wall"))} | ${f(m("warm", "import"))} | ${f(m("off", "import"))} |`);
}
console.log(`\n${ROUNDS} rounds, the modes in turn; medians in ms; Node ${process.version}.`);
