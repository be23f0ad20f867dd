// What the PoCL probe costs (devices/opencl-probe.ts; BENCHMARKS.md o): a tiled n-body kernel
// (barriers, 1,024 bodies in blocks of 256) loaded and launched a first and a second time on the
// OpenCL device, in a new process each, with the probe (GPUC_OPENCL_PROBE=1) and without (0),
// alternated, in three situations: A) PoCL's kernel cache cold and no recorded build; B) PoCL's
// cache warm, no recorded build (a fresh gpuc cache directory); C) both warm (a later process).
// Prints a Markdown table of medians (ms). Compiling to OpenCL C is outside the times.
//
//   npm run build && node bench/opencl-probe.mjs [rounds = 3]

import { spawnSync } from "node:child_process";
import { chmodSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

if (process.argv[2] === "--child") {
  const { kernel, device, threadIdx, blockIdx, blockDim, syncthreads, shared } = await import("gpuc");
  const dev = await device("opencl");
  function interact(ai, bi, bj) {
    const rx = bj.x - bi.x, ry = bj.y - bi.y, rz = bj.z - bi.z;
    const d = rx * rx + ry * ry + rz * rz + 0.01;
    const inv = 1 / Math.sqrt(d), s = bj.w * inv * inv * inv;
    return { x: ai.x + rx * s, y: ai.y + ry * s, z: ai.z + rz * s };
  }
  const k = kernel(function nbodyProbeBench(newPos, oldPos, n, numTiles) {
    const i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    const sh = shared(Float32Array, 4 * 256);
    const p = { x: oldPos[4 * i], y: oldPos[4 * i + 1], z: oldPos[4 * i + 2], w: oldPos[4 * i + 3] };
    let acc = { x: 0, y: 0, z: 0 };
    for (let tile = 0; tile < numTiles; tile++) {
      const src = 4 * (tile * blockDim.x + threadIdx.x);
      for (let c = 0; c < 4; c++) sh[4 * threadIdx.x + c] = oldPos[src + c];
      syncthreads();
      for (let j = 0; j < blockDim.x; j++) acc = interact(acc, p, { x: sh[4 * j], y: sh[4 * j + 1], z: sh[4 * j + 2], w: sh[4 * j + 3] });
      syncthreads();
    }
    newPos[4 * i] = acc.x; newPos[4 * i + 1] = acc.y; newPos[4 * i + 2] = acc.z; newPos[4 * i + 3] = p.w;
  }, { scope: { interact, threadIdx, blockIdx, blockDim, syncthreads, shared }, types: { n: "i32", numTiles: "i32" } });
  const n = 1024, t = 256;
  const pos = Float32Array.from({ length: 4 * n }, (_, i) => Math.sin(i));
  const dp = dev.array(pos), dout = dev.array(new Float32Array(4 * n));
  await k.compile({ target: "opencl", args: [dout, dp, n, n / t] });
  const t1 = performance.now();
  await k.launch(dev, { blocks: n / t, threads: t }, dout, dp, n, n / t);
  const t2 = performance.now();
  await k.launch(dev, { blocks: n / t, threads: t }, dout, dp, n, n / t);
  const t3 = performance.now();
  process.stdout.write(JSON.stringify({ first: t2 - t1, second: t3 - t2 }));
  dev.close();
} else {
  const rounds = Number(process.argv[2] ?? 3);
  const self = fileURLToPath(import.meta.url);
  const run = (env) => {
    const r = spawnSync(process.execPath, [self, "--child"], { encoding: "utf8", env: { ...process.env, ...env } });
    if (r.status !== 0) throw new Error(`child failed: ${r.stderr}`);
    return JSON.parse(r.stdout);
  };
  const dir = (what) => { const d = mkdtempSync(join(tmpdir(), `gpuc-probe-bench-${what}-`)); chmodSync(d, 0o700); return d; };
  const times = {};
  const add = (key, v) => (times[key] ??= []).push(v);
  for (let r = 0; r < rounds; r++) {
    for (const probe of ["1", "0"]) {
      const pocl = dir("pocl");
      let gpuc = dir("gpuc");
      const env = (g) => ({ POCL_CACHE_DIR: pocl, GPUC_CACHE: "1", GPUC_CACHE_DIR: g, GPUC_OPENCL_PROBE: probe });
      const a = run(env(gpuc));
      rmSync(gpuc, { recursive: true, force: true });
      gpuc = dir("gpuc");
      const b = run(env(gpuc));
      const c = run(env(gpuc));
      add(`A ${probe}`, a.first); add(`B ${probe}`, b.first); add(`C ${probe}`, c.first); add(`warm ${probe}`, c.second);
      rmSync(pocl, { recursive: true, force: true });
      rmSync(gpuc, { recursive: true, force: true });
    }
  }
  const median = (xs) => { const s = [...xs].sort((x, y) => x - y); return s.length % 2 ? s[s.length >> 1] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2; };
  const f = (x) => x.toFixed(x >= 100 ? 0 : 1);
  const rows = [
    ["first launch, PoCL's kernel cache cold, no recorded build", "A"],
    ["first launch, PoCL's cache warm, no recorded build (a new gpuc cache)", "B"],
    ["first launch in a later process (the build recorded)", "C"],
    ["second launch (warm)", "warm"],
  ];
  console.log(`\n| case (median of ${rounds} processes, ms) | probe | no probe | added |\n| --- | --- | --- | --- |`);
  for (const [label, key] of rows) {
    const on = median(times[`${key} 1`]), off = median(times[`${key} 0`]);
    console.log(`| ${label} | ${f(on)} | ${f(off)} | ${on - off >= 0 ? "+" : "−"}${f(Math.abs(on - off))} |`);
  }
}
