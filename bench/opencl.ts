// The OpenCL device (PoCL on this machine's CPU cores) against the CPU device and hand-written JS,
// on the same kernels: saxpy, the tiled matmul and the per-block sums (barriers), and the
// Mandelbrot renderer (the CPU device on one thread). Section o of `npm run bench` (BENCHMARKS.md o) (bench/run.ts calls `openclBench`); alone,
// `npm run bench:opencl`. Each variant is timed warm (the first launch, which builds the program,
// is a warm-up), on device arrays for the GPU-style devices (no host copies in the time) and on
// host arrays for the CPU device (its arrays are host memory). Results are checked: OpenCL's must
// equal the CPU device's bit for bit (both round f32 exactly).

import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { device, kernel, type Device, type DeviceArray } from "gpuc";
// @ts-ignore -- plain JS module shared with the cold-start child process
import { KERNELS } from "./kernels.mjs";
import { median, ms, num, table, section, stats } from "./stats.ts";
import { linkCodeObject } from "../src/targets/llvm/llvm-tools.ts";

type Run = () => Promise<unknown> | unknown;

async function timed(runs: number, warmup: number, variants: Record<string, Run>): Promise<Record<string, number[]>> {
  const out: Record<string, number[]> = Object.fromEntries(Object.keys(variants).map((k) => [k, []]));
  for (let r = 0; r < warmup + runs; r++) {
    for (const [name, run] of Object.entries(variants)) {
      const t0 = performance.now();
      await run();
      const dt = performance.now() - t0;
      if (r >= warmup) out[name].push(dt);
    }
  }
  return out;
}

const fill = (a: Float32Array, seed: number) => { let s = seed >>> 0 || 1; for (let i = 0; i < a.length; i++) { s ^= s << 13; s >>>= 0; s ^= s >>> 17; s ^= s << 5; s >>>= 0; a[i] = (s / 4294967296) * 2 - 1; } return a; };

function sameBits(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let d = 0;
  for (let i = 0; i < a.length; i++) if (!Object.is(a[i], b[i])) d++;
  return d;
}

/** Run the OpenCL rows; prints section f and returns its JSON (null where there is no OpenCL device). */
export async function openclBench(): Promise<Record<string, unknown> | null> {
  let cl: Device;
  try { cl = await device("opencl"); } catch (e) {
    section("o. OpenCL device", `Not run: ${(e as Error).message}`);
    return null;
  }
  // The CPU device on one thread, as the hand-written JS runs: what its code does (WebAssembly where
  // the kernel's module prefers it), not the workers' measuring, which takes most of a few launches.
  const cpu = await device("cpu", { threads: 1 });
  // The llvm target's SPIR on the same driver (device("opencl", { llvm: true })).
  const spir = await device("opencl", { llvm: true });
  const rows: string[][] = [];
  const json: Record<string, unknown> = { device: cl.name, cpuDevice: cpu.name };
  const read = async (a: DeviceArray) => (await a.read()) as Float32Array;

  // saxpy, 16M elements.
  {
    const N = 1 << 24, A = 1.7, Af = Math.fround(A);
    const x = fill(new Float32Array(N), 1), y0 = fill(new Float32Array(N), 2);
    const k = kernel(KERNELS.saxpy.fn);
    const dx = cl.array(x), dy = cl.array(y0), sx = spir.array(x), sy = spir.array(y0);
    const yc = y0.slice(), yh = y0.slice();
    const grid = { blocks: N / 256, threads: 256 };
    const t = await timed(7, 2, {
      opencl: () => k.launch(cl, grid, A, dx, dy),
      spir: () => k.launch(spir, grid, A, sx, sy),
      cpu: () => k.launch(cpu, grid, A, x, yc),
      js: () => { for (let i = 0; i < N; i++) yh[i] = Math.fround(Math.fround(Af * x[i]) + yh[i]); },
    });
    const one = y0.slice(), ref = y0.slice();
    await dy.write(y0); await k.launch(cl, grid, A, dx, dy);
    await k.launch(cpu, grid, A, x, one);
    for (let i = 0; i < N; i++) ref[i] = Math.fround(Math.fround(Af * x[i]) + ref[i]);
    await sy.write(y0); await k.launch(spir, grid, A, sx, sy);
    const diff = sameBits(await read(dy), ref) + sameBits(one, ref) + sameBits(await read(sy), ref);
    rows.push(...benchRows("saxpy, 16,777,216 f32", t, (m) => `${num((12 * N) / m / 1e6)} GB/s`, diff));
    json.saxpy = summary(t, diff);
  }

  // Tiled matmul 512×512 (barriers).
  {
    const M = 512;
    const a = fill(new Float32Array(M * M), 3), b = fill(new Float32Array(M * M), 4);
    const k = kernel(KERNELS.matmulTiled.fn);
    const da = cl.array(a), db = cl.array(b), dc = cl.array(new Float32Array(M * M));
    const sa = spir.array(a), sb = spir.array(b), sc2 = spir.array(new Float32Array(M * M));
    const cc = new Float32Array(M * M), ch = new Float32Array(M * M);
    const grid = { blocks: [M / 16, M / 16], threads: [16, 16] };
    const t = await timed(5, 1, {
      opencl: () => k.launch(cl, grid, dc, da, db, M),
      spir: () => k.launch(spir, grid, sc2, sa, sb, M),
      cpu: () => k.launch(cpu, grid, cc, a, b, M),
      js: () => {
        // The naive triple loop, f32 per op, k in the same order (the same bits as the tiles').
        for (let r = 0; r < M; r++) for (let c = 0; c < M; c++) {
          let acc = 0;
          for (let q = 0; q < M; q++) acc = Math.fround(acc + Math.fround(a[r * M + q] * b[q * M + c]));
          ch[r * M + c] = acc;
        }
      },
    });
    const diff = sameBits(await read(dc), ch) + sameBits(cc, ch) + sameBits(await read(sc2), ch);
    rows.push(...benchRows("tiled matmul 512×512 f32 (16×16 tiles, barriers)", t, (m) => `${num((2 * M ** 3) / m / 1e6, 3)} GFLOP/s`, diff));
    json.matmulTiled = summary(t, diff);
  }

  // Per-block sums: the shared-memory tree reduction, 16M elements in blocks of 256.
  {
    const R = 1 << 24, RB = R / 256;
    const x = fill(new Float32Array(R), 5);
    const k = kernel(KERNELS.blockSums.fn);
    const dx = cl.array(x), ds = cl.array(new Float32Array(RB)), spx = spir.array(x), sps = spir.array(new Float32Array(RB));
    const sc = new Float32Array(RB), sh = new Float32Array(RB);
    const s = new Float32Array(256);
    const t = await timed(7, 2, {
      opencl: () => k.launch(cl, { blocks: RB, threads: 256 }, ds, dx),
      spir: () => k.launch(spir, { blocks: RB, threads: 256 }, sps, spx),
      cpu: () => k.launch(cpu, { blocks: RB, threads: 256 }, sc, x),
      js: () => {
        // The same tree, written sequentially (only the active positions per step).
        for (let blk = 0; blk < RB; blk++) {
          for (let q = 0; q < 256; q++) s[q] = x[blk * 256 + q];
          for (let stride = 128; stride > 0; stride >>= 1) for (let q = 0; q < stride; q++) s[q] = Math.fround(s[q] + s[q + stride]);
          sh[blk] = s[0];
        }
      },
    });
    const diff = sameBits(await read(ds), sh) + sameBits(sc, sh) + sameBits(await read(sps), sh);
    rows.push(...benchRows("per-block sums, 16,777,216 f32 in blocks of 256 (barriers)", t, (m) => `${num((4 * R) / m / 1e6)} GB/s`, diff));
    json.blockSums = summary(t, diff);
  }

  // Mandelbrot 1024×768, 2×2 samples, 256 iterations (no hand-written JS: the CPU device's is the JS row).
  {
    const W = 1024, H = 768;
    const k = kernel(KERNELS.mandelbrot.fn, { scope: KERNELS.mandelbrot.scope });
    const dout = cl.array(new Uint32Array(W * H)), sout = spir.array(new Uint32Array(W * H)), oc = new Uint32Array(W * H);
    const grid = { blocks: [W / 16, H / 16], threads: [16, 16] };
    const args = [W, H, -0.743643, 0.131825, 0.01, 256, 2];
    const t = await timed(5, 1, {
      opencl: () => k.launch(cl, grid, dout, ...args),
      spir: () => k.launch(spir, grid, sout, ...args),
      cpu: () => k.launch(cpu, grid, oc, ...args),
    });
    const diff = sameBits((await dout.read()) as Uint32Array, oc);
    // (SPIR's Math is gpuc's own software Math, as on PTX: compared with the CPU device on its own.)
    json.mandelbrotSpirDiffer = sameBits((await sout.read()) as Uint32Array, oc);
    rows.push(...benchRows("mandelbrot 1024×768, 2×2 samples, 256 iterations", t, (m) => `${num((W * H) / m / 1e3)} Mpixel/s`, diff, W * H));
    json.mandelbrot = summary(t, diff);
  }

  cl.close();
  spir.close();
  cpu.close();
  json.latency = compileLatency();
  section(`o. OpenCL device (${json.device}) against the CPU device (${json.cpuDevice}) and hand-written JS (median ms of warm runs; the first launch, which builds the program, is a warm-up)`,
    table(["kernel", "code", "median ms", "rate", "speed ÷ CPU device", "speed ÷ hand-written JS", "results"], rows) +
    "\n\nOpenCL runs on device arrays (no host copies in the time); the CPU device and the JS on host arrays. \"same\": OpenCL's results equal the CPU device's and the hand-written JS's bit for bit " +
    "(f32 arithmetic rounds alike on both devices), and so do SPIR's (the llvm target's code on the same driver, counted in the same column); mandelbrot's `Math.log`, `Math.pow` and `Math.cos` are OpenCL's built-ins there, within their ulp bounds rather than JavaScript's values, so a few pixels' colours differ " +
    `(SPIR's Math is gpuc's software Math, as on PTX: ${json.mandelbrotSpirDiffer} pixels differ from the CPU device's).`);
  return json;
}

/**
 * Compile latency of the opencl and llvm targets (#37's row): a new kernel object to OpenCL C, to
 * SPIR's text and to gfx90a's (median of 30 after one, same process, the three interleaved), then what turns the text
 * into what a driver takes — SPIR bitcode by PoCL's llvm-as (a process), an AMD code object by
 * opt -O2, llc and ld.lld (three processes, as the AMD GPU device makes it) — medians of 9.
 */
export async function compileLatency(): Promise<string[][]> {
  const rows: string[][] = [];
  const medianOf = async (n: number, f: () => unknown) => { const t: number[] = []; for (let i = 0; i < n; i++) { const t0 = performance.now(); await f(); t.push(performance.now() - t0); } return median(t); };
  for (const name of ["saxpy", "blockSums", "matmulTiled"] as const) {
    const { fn, types } = KERNELS[name] as { fn: Function; types: string[] };
    // The three targets interleaved, round by round (a new kernel object each; the first round dropped).
    const variants: [string, string | undefined][] = [["opencl", undefined], ["llvm", undefined], ["llvm", "gfx90a"]];
    const times: number[][] = variants.map(() => []);
    for (let round = 0; round < 31; round++) {
      for (const [i, [target, arch]] of variants.entries()) {
        const k = kernel(fn, { name });
        const t0 = performance.now();
        await k.compile({ target, types, ...(arch ? { features: { arch } } : {}) });
        if (round) times[i].push(performance.now() - t0);
      }
    }
    const spirText = (await kernel(fn, { name }).compile({ target: "llvm", types })).code as string;
    const amdText = (await kernel(fn, { name }).compile({ target: "llvm", types, features: { arch: "gfx90a" } })).code as string;
    const asm = "/usr/lib/llvm-15/bin/llvm-as";
    rows.push([name, ...times.map((t) => ms(median(t))),
      ms(await medianOf(9, () => execFileSync(asm, ["-o", "-", "-"], { input: spirText, maxBuffer: 64 << 20 }))),
      ms(await medianOf(9, () => { if (!linkCodeObject(amdText, "gfx90a").ok) throw new Error("the code object did not link"); }))]);
  }
  section("o″. Compile latency of the opencl and llvm targets (a new kernel object, median of 30 in one process; the tools' step, median of 9)",
    table(["kernel", "→ opencl (ms)", "→ llvm spir64 (ms)", "→ llvm gfx90a (ms)", "SPIR bitcode: llvm-as-15 (ms, a process)", "AMD code object: opt -O2, llc, ld.lld (ms, 3 processes)"], rows));
  return rows;
}

function benchRows(label: string, t: Record<string, number[]>, rate: (msPerRun: number) => string, diff: number, of?: number): string[][] {
  const c = median(t.cpu), j = t.js ? median(t.js) : NaN;
  const row = (code: string, m: number) => [label, code, ms(m), rate(m), num(c / m), t.js ? num(j / m) : "—", diff ? `${diff}${of ? ` of ${of.toLocaleString("en-US")}` : ""} differ` : "same"];
  return [row("gpuc → OpenCL C on PoCL", median(t.opencl)), row("gpuc → LLVM IR (SPIR) on PoCL", median(t.spir)), row("gpuc on the CPU device (one thread)", c), ...(t.js ? [row("hand-written JS (Math.fround per op)", j)] : [])];
}

function summary(t: Record<string, number[]>, diff: number) {
  const o = median(t.opencl);
  return { ms: Object.fromEntries(Object.entries(t).map(([k, v]) => [k, stats(v)])), speedVsCpuDevice: median(t.cpu) / o, speedVsJs: t.js ? median(t.js) / o : null, differing: diff };
}

// Run alone: `npm run bench:opencl` (`-- --latency`: the compile latency table only).
if (import.meta.url === `file://${process.argv[1]}` && process.argv.includes("--latency")) await compileLatency();
else if (import.meta.url === `file://${process.argv[1]}`) {
  console.log("## gpuc benchmarks: OpenCL\n\nCommand: `npm run bench:opencl`");
  const json = await openclBench();
  writeFileSync(new URL("./results-opencl.json", import.meta.url), JSON.stringify(json, null, 2) + "\n");
  console.log("\nResults written to bench/results-opencl.json");
}
