// gpuc on an NVIDIA GPU (the CUDA device): saxpy on 256M floats and a 256M-float block reduction
// against the device's measured copy bandwidth, and the tiled 4096² matrix multiply against the
// same algorithm compiled by nvcc (bench/cuda/matmul.cu; its PTX is in bench/cuda/*.ptx, made by
// `npm run bench:ptx`). Results are checked before they are timed. Needs a GPU and its driver.
// Run by scripts/gpu-check.sh, or `node --import tsx bench/cuda.ts`. Never part of `npm test`.

import { readFileSync, writeFileSync } from "node:fs";
import { device, kernel, threadIdx } from "gpuc";
import type { CudaDevice } from "../src/devices/cuda.ts";
import type { PointerArray } from "../src/devices/pointer-device.ts";
import { RuntimeTables } from "../src/runtime/tables.ts";
import type { Artifact } from "../src/targets/target.ts";
import type { PTXEntryParam } from "../src/targets/ptx/layout.ts";
import { saxpy } from "../examples/saxpy.ts";
import { blockSums } from "../examples/reduction.ts";
import { matmul } from "../examples/matmul.ts";
import { median } from "./stats.ts";

// The compiler is what is measured: no disk cache (GPUC_CACHE=0 for this process and its children).
process.env.GPUC_CACHE = "0";

const dev = (await device("cuda")) as unknown as CudaDevice;
const arch = dev.features.arch!;
const lines: string[] = [];
const say = (s: string) => { console.log(s); lines.push(s); };
say(`device: ${dev.name}; PTX for ${arch}`);

async function timeIt(reps: number, f: () => Promise<void> | void): Promise<number> {
  await f();
  const t: number[] = [];
  for (let i = 0; i < reps; i++) { const t0 = performance.now(); await f(); t.push(performance.now() - t0); }
  return median(t);
}
function rand(n: number, seed: number): Float32Array {
  const a = new Float32Array(n);
  let s = seed >>> 0 || 1;
  for (let i = 0; i < n; i++) { s ^= s << 13; s >>>= 0; s ^= s >>> 17; s ^= s << 5; s >>>= 0; a[i] = s / 4294967296 - 0.5; }
  return a;
}

// ---- the ceiling: a device-to-device copy ---------------------------------------------------
const N = 1 << 28;                 // 256M floats, 1 GiB per array
const bytes = N * 4;
const x0 = rand(N, 1), y0 = rand(N, 2);
const dx = dev.array(x0) as unknown as PointerArray, dy = dev.array(y0) as unknown as PointerArray;
const copyMs = await timeIt(10, () => { dev.copyDeviceToDevice(dy, dx, bytes); dev.synchronize(); });
const copyGBs = (2 * bytes) / copyMs / 1e6;
say(`copy: ${copyMs.toFixed(3)} ms for 2×${bytes / 2 ** 30} GiB → ${copyGBs.toFixed(0)} GB/s (read + write)`);

// ---- launch overhead: an empty kernel through the same path ----------------------------------
const empty = kernel(function empty(o: Float32Array) { if (threadIdx.x < 0) o[0] = 1; }, { boundsCheck: false });
const overheadMs = await timeIt(50, () => empty.launch(dev as never, { blocks: 1, threads: 32 }, dx));
say(`launch overhead (empty kernel, launch + sync + state read-back): ${(overheadMs * 1000).toFixed(0)} µs`);

const rows: string[][] = [];
const row = (what: string, ms: number, gbs: number | null, ratio: string) => rows.push([what, ms.toFixed(3), (Math.max(0, ms - overheadMs)).toFixed(3), gbs === null ? "" : gbs.toFixed(0), ratio]);

// ---- saxpy: 12 bytes per element (read x, read y, write y) ----------------------------------
{
  await dev.copyIn(dy.ptr, y0);
  const cfg = { blocks: N / 256, threads: 256 };
  await saxpy.launch(dev as never, cfg, 2.5, dx, dy);
  const got = await dy.read();
  let bad = 0;
  for (let i = 0; i < N; i += 4099) if (got[i] !== Math.fround(Math.fround(2.5 * x0[i]) + y0[i])) bad++;
  if (bad) throw new Error(`saxpy: ${bad} sampled elements differ from the CPU reference`);
  for (const [label, k] of [["saxpy (checks on)", saxpy], ["saxpy (checks off)", kernel((saxpy as unknown as { fn: Function }).fn, { boundsCheck: false, name: "saxpy" })]] as const) {
    const ms = await timeIt(20, () => k.launch(dev as never, cfg, 2.5, dx, dy));
    const gbs = (3 * bytes) / Math.max(1e-9, ms - overheadMs) / 1e6;
    row(`${label}, 256M f32`, ms, gbs, `${((gbs / copyGBs) * 100).toFixed(0)}% of copy`);
  }
}

// ---- reduction: block sums, 4 bytes per element ---------------------------------------------
{
  const blocks = N / 256;
  const sums = dev.array(new Float32Array(blocks)) as unknown as PointerArray;
  const cfg = { blocks, threads: 256 };
  await blockSums.launch(dev as never, cfg, sums, dx);
  const got = await sums.read();
  for (const b of [0, 1, blocks >> 1, blocks - 1]) {
    const s = new Float32Array(256);
    for (let t = 0; t < 256; t++) s[t] = x0[b * 256 + t];
    for (let stride = 128; stride > 0; stride >>= 1) for (let t = 0; t < stride; t++) s[t] = Math.fround(s[t] + s[t + stride]);
    if (got[b] !== s[0]) throw new Error(`reduction: block ${b} sum ${got[b]} differs from the CPU reference ${s[0]}`);
  }
  const ms = await timeIt(20, () => blockSums.launch(dev as never, cfg, sums, dx));
  const gbs = bytes / Math.max(1e-9, ms - overheadMs) / 1e6;
  row("reduction (block sums), 256M f32", ms, gbs, `${((gbs / copyGBs) * 100).toFixed(0)}% of copy`);
}

// ---- tiled matmul 4096²: gpuc against nvcc's PTX of the same algorithm ------------------------
{
  const n = 4096;
  const a0 = rand(n * n, 3), b0 = rand(n * n, 4);
  const da = dev.array(a0), db = dev.array(b0), dc = dev.array(new Float32Array(n * n));
  const cfg = { blocks: [n / 16, n / 16], threads: [16, 16] };
  const check = async (label: string) => {
    const c = await dc.read();
    for (const [i, j] of [[0, 0], [17, 4000], [4095, 4095], [2048, 31]]) {
      let acc = 0;
      for (let k = 0; k < n; k++) acc = Math.fround(acc + Math.fround(a0[i * n + k] * b0[k * n + j]));
      const got = c[i * n + j];
      // gpuc and nvcc --fmad=false round every step as the CPU does; nvcc's default contracts into FMAs.
      const tol = label.includes("fmad on") ? 1e-4 : 0;
      if (Math.abs(got - acc) > tol * Math.max(1, Math.abs(acc))) throw new Error(`${label}: C[${i},${j}] = ${got}, CPU ${acc}`);
    }
  };
  const nvccArtifact = (file: string): Artifact => ({
    target: "ptx", kernel: "matmul", entry: "matmul", code: readFileSync(new URL(`./cuda/${file}`, import.meta.url), "utf8"),
    params: [{ name: "c", type: "f32[]" }, { name: "a", type: "f32[]" }, { name: "b", type: "f32[]" }, { name: "n", type: "i32" }],
    globals: [], bindings: [], runtime: new RuntimeTables(0, [], [], []),
    ptx: { arch, params: [...[0, 1, 2].map((i): PTXEntryParam => ({ name: `p${i}`, role: "pointer", index: i, type: "u64" })), { name: "p3", role: "value", index: 3, type: "s32" }], tables: [], sharedBytes: 2048, lines: [] },
  });
  const runs: [string, () => Promise<void>][] = [];
  for (const [label, file] of [["nvcc -O3 --fmad=false", `matmul.${arch}.nofma.ptx`], ["nvcc -O3 (fmad on)", `matmul.${arch}.ptx`]] as const) {
    const loaded = dev.load(nvccArtifact(file));
    runs.push([label, () => dev.launch(loaded, [dc, da, db, n], { blocks: [n / 16, n / 16, 1], threads: [16, 16, 1] })]);
  }
  const unchecked = kernel((matmul as unknown as { fn: Function }).fn, { boundsCheck: false, name: "matmul" });
  runs.push(["gpuc (checks on)", () => matmul.launch(dev as never, cfg, dc, da, db, n)]);
  runs.push(["gpuc (checks off)", () => unchecked.launch(dev as never, cfg, dc, da, db, n)]);
  const times = new Map<string, number>();
  for (const [label, f] of runs) {
    await f();
    await check(label);
    times.set(label, await timeIt(5, f));
  }
  const base = times.get("nvcc -O3 --fmad=false")!;
  for (const [label, ms] of times) row(`matmul 4096², ${label}`, ms, null, `${(ms / base).toFixed(2)}× nvcc --fmad=false, ${(2 * n ** 3 / ms / 1e9).toFixed(0)} GFLOP/s`);
}

const head = ["what", "ms (median)", "ms − launch overhead", "GB/s", "against"];
say("");
say([head, head.map(() => "---"), ...rows].map((r) => `| ${r.join(" | ")} |`).join("\n"));
dev.close();
if (process.env.OUT) writeFileSync(`${process.env.OUT}/cuda-bench.md`, lines.join("\n") + "\n");
