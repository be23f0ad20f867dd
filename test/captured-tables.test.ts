// Captured tables mean what JavaScript means (issue #30): a kernel run as plain JavaScript reads a
// scope table when it runs, so every launch, on every device, sees each table as it is when
// launch() is called — changed in place between launches, read at constant indices (folded into
// the code: the kernel is compiled again without folding that table), in launches not awaited,
// by bits (-0, NaN) — and Rodinia's k-means, whose host rewrites the centroid table before every
// iteration as the original does (`cudaMemcpyToSymbol`), is right. Rewritable tables and
// setTable (lang-scope.test.ts) are the explicit form: never compared.

import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { kernel, onCompile, threadIdx, blockIdx, blockDim, gridDim, type Device, type HostArray } from "../src/index.ts";
import type { LoadedKernel } from "../src/devices/device.ts";
import { sameBits } from "../src/captured-tables.ts";
import { dtest, openDevices, poisonF32, poisonI32, prng, F } from "./helpers.ts";

// Scope tables the kernels below name (bound through `scope`, never on the host).
declare const C: Float32Array, D: Int32Array, Z: Float32Array, c_clusters: Float32Array;

await openDevices();

/** Count the compiles of `target` and the table uploads on `dev` while `fn` runs. */
async function counting(dev: Device, fn: (counts: { compiles: () => number; uploads: () => string[] }) => Promise<void>): Promise<void> {
  let compiles = 0;
  const uploads: string[] = [];
  const update = dev.updateTable;
  dev.updateTable = function (this: Device, k: LoadedKernel, name: string, values: HostArray) { uploads.push(name); return update.call(this, k, name, values); };
  const stop = onCompile((e) => { if (e.target === dev.target && e.origin === "compiled") compiles++; });
  try { await fn({ compiles: () => compiles, uploads: () => [...uploads] }); }
  finally { stop(); dev.updateTable = update; }
}

dtest("a table changed in place between launches is read as it is at each launch, as the kernel run as plain JS reads it", async ({ dev, same }) => {
  const table = new Float32Array([1, 2, 3, 4]);
  const rd = kernel(function rd(out: Float32Array) { out[threadIdx.x] = C[threadIdx.x]; }, { scope: { C: table } });
  const out = poisonF32(4);
  await counting(dev, async ({ compiles, uploads }) => {
    await rd.launch(dev, { blocks: 1, threads: 4 }, out);
    same(out, [1, 2, 3, 4]);
    // (On WebGPU the first launch compiles the kernel and its variant for launches that prove its
    // checks: ARCHITECTURE.md, "Checks a launch proves".)
    const first = compiles();
    table[0] = 100;
    await rd.launch(dev, { blocks: 1, threads: 4 }, out);
    same(out, [100, 2, 3, 4]);
    table.set([5, 6, 7, 8]);
    await rd.launch(dev, { blocks: 1, threads: 4 }, out);
    same(out, [5, 6, 7, 8]);
    await rd.launch(dev, { blocks: 1, threads: 4 }, out);
    same(out, [5, 6, 7, 8]);
    assert.equal(compiles(), first, "compiled once: a change is an upload");
    assert.deepEqual(uploads(), ["C", "C"], "one upload per change, none when nothing changed");
  });
});

dtest("an element read at a constant index is in the code: when it changes, the kernel is compiled again with the table unfolded, once; later changes are uploads", async ({ dev, same }) => {
  const table = new Int32Array([5, 6, 7]);
  const fo = kernel(function fo(out: Int32Array) { out[threadIdx.x] = D[1] + threadIdx.x; }, { scope: { D: table } });
  const art = await fo.compile({ target: dev.target, types: ["i32[]"], features: dev.features });
  assert.deepEqual(art.manifest.sites, [], "read only at a constant index: no site");
  assert.deepEqual(art.manifest.folded, [{ name: "D", indices: [1], values: ["6"] }]);
  const out = poisonI32(4);
  await counting(dev, async ({ compiles }) => {
    await fo.launch(dev, { blocks: 1, threads: 4 }, out);
    same(out, [6, 7, 8, 9]);
    const first = compiles();            // (WebGPU compiles for the launch's block size; the others reuse compile()'s)
    table[0] = -1;                       // not an element the code holds: nothing to do
    await fo.launch(dev, { blocks: 1, threads: 4 }, out);
    same(out, [6, 7, 8, 9]);
    assert.equal(compiles(), first);
    table[1] = 60;
    await fo.launch(dev, { blocks: 1, threads: 4 }, out);
    same(out, [60, 61, 62, 63]);
    assert.equal(compiles(), first + 1, "compiled again, the table no longer folded");
    table[1] = 7;
    await fo.launch(dev, { blocks: 1, threads: 4 }, out);
    same(out, [7, 8, 9, 10]);
    assert.equal(compiles(), first + 1, "then the code reads the table: a change is an upload");
  });
  const unfolded = await fo.compile({ target: dev.target, types: ["i32[]"], features: dev.features });
  assert.equal(unfolded.manifest.folded, undefined);
  assert.deepEqual(unfolded.manifest.sites.map((s) => s.name), ["D"]);
  // compile() sees the tables as a launch would: code holding an element that changed is compiled anew.
  const again = kernel(function fo2(out: Int32Array) { out[threadIdx.x] = D[1]; }, { scope: { D: table } });
  assert.deepEqual((await again.compile({ target: dev.target, types: ["i32[]"] })).manifest.folded, [{ name: "D", indices: [1], values: ["7"] }]);
  table[1] = 8;
  const recompiled = await again.compile({ target: dev.target, types: ["i32[]"] });
  assert.equal(recompiled.manifest.folded, undefined);
  assert.deepEqual(recompiled.manifest.sites.map((s) => s.name), ["D"]);
});

dtest("launches not awaited each see the tables as they were when launch() was called (a first launch that compiles, and warm ones)", async ({ dev, same }) => {
  const table = new Float32Array([1, 2, 3, 4]);
  // (Two blocks: on a CPU device with workers these launches run there, queued one after another.)
  const both = kernel(function both(out: Float32Array) { const i = blockIdx.x * blockDim.x + threadIdx.x; out[i] = C[i] * 10 + C[3]; }, { scope: { C: table } });
  const cfg = { blocks: 2, threads: 2 };
  const outs = [poisonF32(4), poisonF32(4), poisonF32(4)];
  // The first launch compiles (after awaits) with the table as it is then: it must not see the later writes.
  const p0 = both.launch(dev, cfg, outs[0]);
  table.set([10, 20, 30, 40]);
  const p1 = both.launch(dev, cfg, outs[1]);
  table[3] = 0.5;
  const p2 = both.launch(dev, cfg, outs[2]);
  table.fill(-1);
  await Promise.all([p0, p1, p2]);
  same(outs[0], [14, 24, 34, 44]);
  same(outs[1], [140, 240, 340, 440]);
  same(outs[2], [100.5, 200.5, 300.5, 5.5]);
  // Warm: every launch compares at its call.
  const warm = [poisonF32(4), poisonF32(4)];
  table.set([1, 1, 1, 1]);
  const q0 = both.launch(dev, cfg, warm[0]);
  table.set([2, 2, 2, 2]);
  const q1 = both.launch(dev, cfg, warm[1]);
  table.set([3, 3, 3, 3]);
  await Promise.all([q0, q1]);
  same(warm[0], [11, 11, 11, 11]);
  same(warm[1], [22, 22, 22, 22]);
});

dtest("tables are compared by bits: 0 becoming -0 is a change, a NaN staying a NaN is none", async ({ dev, same, gpu }) => {
  const table = new Float32Array([0, NaN, 2]);
  const inv = kernel(function inv(out: Float32Array) { const i = threadIdx.x; out[i] = i === 1 ? Z[i] : 1 / Z[i]; }, { scope: { Z: table } });
  const out = poisonF32(3);
  await counting(dev, async ({ uploads }) => {
    await inv.launch(dev, { blocks: 1, threads: 3 }, out);
    if (!gpu) same(out, [Infinity, NaN, 0.5]);
    table[0] = -0;
    await inv.launch(dev, { blocks: 1, threads: 3 }, out);
    if (!gpu) same(out, [-Infinity, NaN, 0.5]);
    assert.equal(out[0], -Infinity);
    table[1] = NaN;
    await inv.launch(dev, { blocks: 1, threads: 3 }, out);
    assert.deepEqual(uploads(), ["Z"]);
  });
  assert.ok(sameBits(new Float32Array([NaN]), new Float32Array([NaN])) && !sameBits(new Float32Array([0]), new Float32Array([-0])));
  const big = Float64Array.from({ length: 4096 }, (_, i) => i), copy = big.slice();
  assert.ok(sameBits(big, copy));
  copy[4095] = -0.5;
  assert.ok(!sameBits(big, copy), "past the size where Node compares with memcmp");
});

dtest("a table read only by a helper, and a table of another kernel: each kernel sees its own as they are", async ({ dev, same }) => {
  const table = new Int32Array([1, 2]);
  function at(i: number): number { return D[i & 1] * 3; }
  const viaHelper = kernel(function viaHelper(out: Int32Array) { out[threadIdx.x] = at(threadIdx.x); }, { scope: { at, D: table } });
  const direct = kernel(function direct(out: Int32Array) { out[threadIdx.x] = D[0]; }, { scope: { D: table } });
  const a = poisonI32(2), b = poisonI32(2);
  await viaHelper.launch(dev, { blocks: 1, threads: 2 }, a);
  await direct.launch(dev, { blocks: 1, threads: 2 }, b);
  same(a, [3, 6]);
  same(b, [1, 1]);
  table.set([4, 5]);
  await viaHelper.launch(dev, { blocks: 1, threads: 2 }, a);
  await direct.launch(dev, { blocks: 1, threads: 2 }, b);
  same(a, [12, 15]);
  same(b, [4, 4]);
});

// ---- Rodinia's k-means (cuda/kmeans/kmeans_cuda_kernel.cu, kmeansPoint), as its authors wrote it --
//
// The features are read feature-major (features[point + j * npoints], the inverted array the host
// makes); the centroids are the constant table `c_clusters`, which the host rewrites with
// cudaMemcpyToSymbol before every launch (kmeans_cuda.cu, kmeansCuda). Here: the scope table
// rewritten in place. `membership` gets each point's nearest cluster.

function kmeansPoint(features: Float32Array, nfeatures: number, npoints: number, nclusters: number, membership: Int32Array) {
  // block ID
  const block_id = gridDim.x * blockIdx.y + blockIdx.x;
  // point/thread ID
  const point_id = block_id * blockDim.x * blockDim.y + threadIdx.x;
  let index = -1;
  if (point_id < npoints) {
    let min_dist = 3.4028234663852886e38;    // FLT_MAX
    let dist;
    // find the cluster center id with min distance to pt
    for (let i = 0; i < nclusters; i++) {
      const cluster_base_index = i * nfeatures;   // base index of cluster centers for inverted array
      let ans = 0.0;                                // Euclidean distance sqaure
      for (let j = 0; j < nfeatures; j++) {
        const addr = point_id + j * npoints;        // appropriate index of data point
        const diff = features[addr] - c_clusters[cluster_base_index + j];   // distance between a data point to cluster centers
        ans += diff * diff;                         // sum of squares
      }
      dist = ans;
      // see if distance is smaller than previous ones: if so, change minimum distance and save index of cluster center
      if (dist < min_dist) {
        min_dist = dist;
        index = i;
      }
    }
  }
  if (point_id < npoints) {
    // assign the membership to object point_id
    membership[point_id] = index;
  }
}

dtest("Rodinia's k-means as written: the host rewrites the centroid table before each iteration; memberships as plain JS computes them", async ({ dev }) => {
  const npoints = 2000, nfeatures = 4, nclusters = 5, iterations = 6;
  const r = prng(2026);
  // Blobs around five centres (deterministic), stored feature-major as Rodinia's host inverts them.
  const centres = Array.from({ length: nclusters }, (_, c) => Array.from({ length: nfeatures }, (_, j) => ((c * 7 + j * 3) % 11) * 4));
  const points = Array.from({ length: npoints }, (_, p) => centres[p % nclusters].map((x) => F(x + r.float(-3, 3))));
  const features = new Float32Array(npoints * nfeatures);
  points.forEach((pt, p) => pt.forEach((x, j) => { features[p + j * npoints] = x; }));
  // The initial centroids: the first points (kmeans_clustering.c picks points as the initial clusters).
  const clusters = new Float32Array(nclusters * nfeatures);
  for (let c = 0; c < nclusters; c++) for (let j = 0; j < nfeatures; j++) clusters[c * nfeatures + j] = points[c * 37][j];
  const k = kernel(kmeansPoint, { scope: { c_clusters: clusters }, types: { nfeatures: "i32", npoints: "i32", nclusters: "i32" } });
  // The reference: the same function run as plain JS, thread by thread, reading the live table.
  const reference = (): Int32Array => {
    const m = new Int32Array(npoints);
    const run = new Function("gridDim", "blockIdx", "blockDim", "threadIdx", "c_clusters", `return ${kmeansPoint.toString()}`);
    const threads = 256, blocks = Math.ceil(npoints / threads);
    for (let b = 0; b < blocks; b++) for (let t = 0; t < threads; t++)
      run({ x: blocks, y: 1 }, { x: b, y: 0 }, { x: threads, y: 1 }, { x: t }, clusters)(features, nfeatures, npoints, nclusters, m);
    return m;
  };
  let moved = 0;
  for (let it = 0; it < iterations; it++) {
    const membership = poisonI32(npoints);
    await k.launch(dev, { blocks: Math.ceil(npoints / 256), threads: 256 }, features, nfeatures, npoints, nclusters, membership);
    const want = reference();
    const wrong = membership.reduce((n, m, i) => n + (m !== want[i] ? 1 : 0), 0);
    assert.equal(wrong, 0, `iteration ${it}: ${wrong} of ${npoints} points in the wrong cluster`);
    // The host's step (kmeans_clustering.c): new centroids from the memberships, written into the table.
    const sums = new Float64Array(nclusters * nfeatures), counts = new Int32Array(nclusters);
    membership.forEach((c, p) => { counts[c]++; for (let j = 0; j < nfeatures; j++) sums[c * nfeatures + j] += features[p + j * npoints]; });
    const before = clusters.slice();
    for (let c = 0; c < nclusters; c++) for (let j = 0; j < nfeatures; j++) if (counts[c]) clusters[c * nfeatures + j] = sums[c * nfeatures + j] / counts[c];
    if (!sameBits(before, clusters)) moved++;
  }
  assert.ok(moved >= 2, `the centroids moved in ${moved} iterations`);
});

// ---- without the compiler ---------------------------------------------------------------------

const FIX = fileURLToPath(new URL("./fixtures/tables/", import.meta.url));
const root = fileURLToPath(new URL("../", import.meta.url));

test("gpuc/runtime: a changed table is uploaded; a changed element the image's code holds as a constant is a not-precompiled error that says what to change", () => {
  const dir = mkdtempSync(join(tmpdir(), "gpuc-tables-"));
  try {
    const image = join(dir, "tables.gpucimg");
    const p = spawnSync(process.execPath, [join(root, "dist/cli/main.js"), "precompile", join(FIX, "workload.mjs"), "-o", image], { cwd: root, encoding: "utf8", env: { ...process.env, GPUC_CACHE: "0" } });
    assert.equal(p.status, 0, p.stderr);
    const run = (entry: string) => {
      const r = spawnSync(process.execPath, [join(FIX, "app.mjs"), image], { cwd: root, encoding: "utf8", env: { ...process.env, GPUC_CACHE: "0", GPUC_FIXTURE_ENTRY: entry } });
      assert.equal(r.status, 0, r.stderr);
      return JSON.parse(r.stdout) as { weighed: number[][]; offset: number[][]; error: { kind: string; message: string } | null };
    };
    const runtime = run("gpuc/runtime");
    assert.deepEqual(runtime.weighed, [[0.5, 4, -3, 16], [5, 4, -3, 16]], "WEIGHTS[0] changed in place: seen without recompiling");
    assert.deepEqual(runtime.offset, [[10, 11, 12, 13]]);
    assert.equal(runtime.error?.kind, "not-precompiled");
    assert.match(runtime.error!.message, /^kernel 'shift': its code holds OFFSET\[0\] = 10 as a constant \(a read at a constant index, folded when it was compiled\), and the table now holds 20; without the compiler \(gpuc\/runtime\) it cannot be compiled again: name the table in the kernel's rewritable option \(kernel\(fn, \{ scope, rewritable: \["OFFSET"\] \}\)\), so that its code reads it, and build again \(kernel 'shift' \(f32\[\]\) for js is not in the loaded images/);
    const full = run("gpuc");
    assert.deepEqual(full.weighed, runtime.weighed);
    assert.deepEqual(full.offset, [[10, 11, 12, 13], [20, 21, 22, 23]], "with the compiler: compiled again");
    assert.equal(full.error, null);
  } finally { rmSync(dir, { recursive: true, force: true }); }
});
