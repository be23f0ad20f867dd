// Warm compile latency of two built checkouts of gpuc, measured in alternated processes (the
// machine drifts; alternating cancels most of it): a new kernel object compiled 400 times per
// process (the first 100 dropped), its median; three processes per checkout and case.
// Usage: node bench/compare-compile.mjs <before checkout> [<after checkout> = this one]
// Cases: bench/kernels.mjs's mandelbrot to js, its tiled matmul to ptx and to wgsl.
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { resolve } from "node:path";

const [before, after = fileURLToPath(new URL("..", import.meta.url))] = process.argv.slice(2).map((p) => resolve(p));
if (!before) { console.error("usage: node bench/compare-compile.mjs <before checkout> [<after checkout>]"); process.exit(2); }
const CASES = [["mandelbrot", "js"], ["matmulTiled", "ptx"], ["matmulTiled", "wgsl"]];

if (process.argv[2] === "--child") {
  const [, , , root, name, target] = process.argv;
  const { kernel } = await import(`${root}/dist/index.js`);
  const { KERNELS } = await import(`${root}/bench/kernels.mjs`);
  const spec = KERNELS[name];
  const times = [];
  for (let i = 0; i < 400; i++) {
    const k = kernel(spec.fn, { name, ...(spec.scope ? { scope: { ...spec.scope } } : {}) });
    const t0 = performance.now();
    await k.compile({ target, types: spec.types });
    times.push(performance.now() - t0);
  }
  const t = times.slice(100).sort((a, b) => a - b);
  process.stdout.write(String(t[t.length >> 1]));
} else {
  const run = (root, name, target) => {
    const r = spawnSync(process.execPath, [fileURLToPath(import.meta.url), "--child", root, name, target], { encoding: "utf8", env: { ...process.env, GPUC_CACHE: "0" } });
    if (r.status !== 0) throw new Error(r.stderr);
    return Number(r.stdout);
  };
  console.log(`| kernel → target | ${before} (ms, 3 processes) | ${after} (ms, 3 processes) |\n| --- | --- | --- |`);
  for (const [name, target] of CASES) {
    const b = [], a = [];
    for (let i = 0; i < 3; i++) { b.push(run(before, name, target)); a.push(run(after, name, target)); }
    const fmt = (xs) => xs.map((x) => x.toFixed(2)).join(", ");
    console.log(`| ${name} → ${target} | ${fmt(b)} | ${fmt(a)} |`);
  }
}
