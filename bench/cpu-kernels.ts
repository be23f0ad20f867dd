// Nine GPU kernels at realistic sizes, written as CUDA authors write them (issue #33's list: saxpy
// 4M, Mandelbrot 512×384, tiled matmul 256, block sums 4M, a shared-memory histogram of 4M bytes,
// n-body 4,096 with shared tiles, transpose 1024 through a padded tile, block scan 1M, subgroup
// sums 4M — both with shuffles down and with subgroupAdd), on the CPU device as a user gets it (`device("cpu")`) and on one thread, beside PoCL
// (gpuc's OpenCL device) and the same computation as a plain sequential JS loop. Every result is
// checked against the plain JS (exactly where both compute the same bits; the float sums and n-body
// within a tolerance, since the loop adds in another order or in f64). Host arrays on every
// device, as a user passes them: the copies a device makes are in its time.
// Medians of RUNS (GPUC_BENCH_RUNS, default 7) after WARMUP runs of the device as it is (its choice
// between its thread and the workers is made from its first launches), configurations
// alternated within each run; the spread is the lowest–highest of the seven.
// Usage: npm run bench:kernels [-- name …] (or node --import tsx bench/cpu-kernels.ts after a build). Never part of `npm test`.
import { device, listDevices, kernel, shared, syncthreads, blockIdx, blockDim, gridDim, threadIdx, subgroupSize, subgroupLaneId, subgroupShuffleDown, subgroupAdd, type Device, type f32, type i32 } from "gpuc";

const RUNS = Number(process.env.GPUC_BENCH_RUNS ?? 7);
const WARMUP = Number(process.env.GPUC_BENCH_WARMUP ?? 5);
process.env.GPUC_CACHE ??= "0";

/** xorshift32 in [0, 1): the same inputs every run. */
function random(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => { s ^= s << 13; s >>>= 0; s ^= s >>> 17; s ^= s << 5; s >>>= 0; return s / 4294967296; };
}
const floats = (n: number, seed: number, lo = -1, hi = 1) => { const r = random(seed); const a = new Float32Array(n); for (let i = 0; i < n; i++) a[i] = lo + (hi - lo) * r(); return a; };

/** One case: `gpuc` launches on a device and returns what to check, `plain` is the sequential loop. */
interface Case {
  name: string;
  size: string;
  gpuc(dev: Device): Promise<ArrayLike<number>>;
  plain(): ArrayLike<number>;
  /** Largest allowed |got − want| / max(1, |want|) (0: the same bits). */
  tolerance: number;
  /** Put the inputs back where a run changed them (not timed). */
  reset?(): void;
}

// ---- saxpy, 4M --------------------------------------------------------------------------------
const saxpy = kernel(function saxpy(n: i32, a: f32, x: Float32Array, y: Float32Array) {
  const i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
});
function saxpyCase(): Case {
  const n = 1 << 22, a = 2.5, x = floats(n, 1), y0 = floats(n, 2), y = y0.slice(), yj = y0.slice();
  return {
    name: "saxpy", size: "4,194,304 f32", tolerance: 0,
    reset() { y.set(y0); yj.set(y0); },
    async gpuc(dev) { await saxpy.launch(dev, { blocks: Math.ceil(n / 256), threads: 256 }, n, a, x, y); return y; },
    plain() { for (let i = 0; i < n; i++) yj[i] = Math.fround(a * x[i]) + yj[i]; return yj; },
  };
}

// ---- Mandelbrot, 512×384, 256 iterations, f32 --------------------------------------------------
const mandelbrot = kernel(function mandelbrot(out: Uint32Array, width: i32, height: i32, maxIter: i32) {
  const px = blockIdx.x * blockDim.x + threadIdx.x, py = blockIdx.y * blockDim.y + threadIdx.y;
  if (px >= width || py >= height) return;
  const cx: f32 = -2.0 + (2.5 * px) / width, cy: f32 = -1.0 + (2.0 * py) / height;
  let x: f32 = 0, y: f32 = 0, i = 0;
  while (i < maxIter && x * x + y * y <= 4) {
    const xt = x * x - y * y + cx;
    y = 2 * x * y + cy;
    x = xt;
    i++;
  }
  out[py * width + px] = i;
});
function mandelbrotCase(): Case {
  const w = 512, h = 384, maxIter = 256, out = new Uint32Array(w * h), outj = new Uint32Array(w * h);
  const f = Math.fround;
  return {
    name: "mandelbrot", size: "512×384, 256 iterations, f32", tolerance: 0,
    async gpuc(dev) { await mandelbrot.launch(dev, { blocks: [w / 16, h / 16], threads: [16, 16] }, out, w, h, maxIter); return out; },
    plain() {
      for (let py = 0; py < h; py++) {
        for (let px = 0; px < w; px++) {
          const cx = f(-2.0 + f(f(2.5 * px) / w)), cy = f(-1.0 + f(f(2.0 * py) / h));
          let x = 0, y = 0, i = 0;
          while (i < maxIter && f(f(x * x) + f(y * y)) <= 4) {
            const xt = f(f(f(x * x) - f(y * y)) + cx);
            y = f(f(f(2 * x) * y) + cy);
            x = xt;
            i++;
          }
          outj[py * w + px] = i;
        }
      }
      return outj;
    },
  };
}

// ---- tiled matmul, 256×256, 16×16 tiles in shared memory ---------------------------------------
const TILE = 16;
const matmulTiled = kernel(function matmulTiled(c: Float32Array, a: Float32Array, b: Float32Array, n: i32) {
  const As = shared(Float32Array, TILE * TILE), Bs = shared(Float32Array, TILE * TILE);
  const tx = threadIdx.x, ty = threadIdx.y;
  const row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
  let sum: f32 = 0;
  for (let t = 0; t < n / TILE; t++) {
    As[ty * TILE + tx] = a[row * n + t * TILE + tx];
    Bs[ty * TILE + tx] = b[(t * TILE + ty) * n + col];
    syncthreads();
    for (let k = 0; k < TILE; k++) sum += As[ty * TILE + k] * Bs[k * TILE + tx];
    syncthreads();
  }
  c[row * n + col] = sum;
}, { scope: { TILE } });
function matmulCase(): Case {
  const n = 256, a = floats(n * n, 3), b = floats(n * n, 4), c = new Float32Array(n * n), cj = new Float32Array(n * n);
  return {
    name: "tiled matmul", size: "256×256 f32, 16×16 tiles", tolerance: 0,
    async gpuc(dev) { await matmulTiled.launch(dev, { blocks: [n / TILE, n / TILE], threads: [TILE, TILE] }, c, a, b, n); return c; },
    plain() {
      for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) {
        let s = 0;
        for (let k = 0; k < n; k++) s = Math.fround(s + Math.fround(a[i * n + k] * b[k * n + j]));
        cj[i * n + j] = s;
      }
      return cj;
    },
  };
}

// ---- block sums, 4M: a shared-memory tree per block of 256 -------------------------------------
const blockSums = kernel(function blockSums(sums: Float32Array, x: Float32Array, n: i32) {
  const s = shared(Float32Array, 256);
  const t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
  s[t] = i < n ? x[i] : 0;
  syncthreads();
  for (let stride = blockDim.x >> 1; stride > 0; stride >>= 1) {
    if (t < stride) s[t] += s[t + stride];
    syncthreads();
  }
  if (t === 0) sums[blockIdx.x] = s[0];
});
function blockSumsCase(): Case {
  const n = 1 << 22, blocks = n / 256, x = floats(n, 5), sums = new Float32Array(blocks), sj = new Float32Array(blocks);
  return {
    name: "block sums", size: "4,194,304 f32, blocks of 256", tolerance: 1e-4,
    async gpuc(dev) { await blockSums.launch(dev, { blocks, threads: 256 }, sums, x, n); return sums; },
    plain() { for (let b = 0; b < blocks; b++) { let s = 0; for (let j = b * 256; j < b * 256 + 256; j++) s += x[j]; sj[b] = s; } return sj; },
  };
}

// ---- histogram of 4M bytes, 256 bins: per-block bins in shared memory -------------------------
const histogram256 = kernel(function histogram256(hist: Uint32Array, data: Uint8Array, n: i32) {
  const bins = shared(Uint32Array, 256);
  const t = threadIdx.x;
  bins[t] = 0;
  syncthreads();
  for (let i = blockIdx.x * blockDim.x + t; i < n; i += blockDim.x * gridDim.x) Atomics.add(bins, data[i], 1);
  syncthreads();
  Atomics.add(hist, t, bins[t]);
});
function histogramCase(): Case {
  const n = 1 << 22, r = random(6), data = new Uint8Array(n), hist = new Uint32Array(256), hj = new Uint32Array(256);
  for (let i = 0; i < n; i++) data[i] = Math.floor(r() * r() * 256);
  return {
    name: "histogram", size: "4,194,304 bytes, 256 bins, 240 blocks of 256", tolerance: 0,
    reset() { hist.fill(0); hj.fill(0); },
    async gpuc(dev) { await histogram256.launch(dev, { blocks: 240, threads: 256 }, hist, data, n); return hist; },
    plain() { for (let i = 0; i < n; i++) hj[data[i]]++; return hj; },
  };
}

// ---- n-body, 4,096 bodies: accelerations, tiles of 256 positions in shared memory ----------------
const nbody = kernel(function nbody(acc: Float32Array, pos: Float32Array, n: i32, eps2: f32) {
  const tile = shared(Float32Array, 256 * 4);
  const i = blockIdx.x * blockDim.x + threadIdx.x;
  const px = pos[4 * i], py = pos[4 * i + 1], pz = pos[4 * i + 2];
  let ax: f32 = 0, ay: f32 = 0, az: f32 = 0;
  for (let t = 0; t < n; t += 256) {
    const j = t + threadIdx.x;
    for (let c = 0; c < 4; c++) tile[4 * threadIdx.x + c] = pos[4 * j + c];
    syncthreads();
    for (let k = 0; k < 256; k++) {
      const dx = tile[4 * k] - px, dy = tile[4 * k + 1] - py, dz = tile[4 * k + 2] - pz;
      const d2 = dx * dx + dy * dy + dz * dz + eps2;
      const inv = 1 / Math.sqrt(d2);
      const s = tile[4 * k + 3] * inv * inv * inv;
      ax += dx * s; ay += dy * s; az += dz * s;
    }
    syncthreads();
  }
  acc[4 * i] = ax; acc[4 * i + 1] = ay; acc[4 * i + 2] = az; acc[4 * i + 3] = 0;
});
function nbodyCase(): Case {
  const n = 4096, pos = floats(4 * n, 7), acc = new Float32Array(4 * n), aj = new Float32Array(4 * n), eps2 = 0.01;
  for (let i = 0; i < n; i++) pos[4 * i + 3] = 0.5 + pos[4 * i + 3] / 2;
  return {
    name: "n-body", size: "4,096 bodies, tiles of 256", tolerance: 1e-3,
    async gpuc(dev) { await nbody.launch(dev, { blocks: n / 256, threads: 256 }, acc, pos, n, eps2); return acc; },
    plain() {
      for (let i = 0; i < n; i++) {
        const px = pos[4 * i], py = pos[4 * i + 1], pz = pos[4 * i + 2];
        let ax = 0, ay = 0, az = 0;
        for (let k = 0; k < n; k++) {
          const dx = pos[4 * k] - px, dy = pos[4 * k + 1] - py, dz = pos[4 * k + 2] - pz;
          const inv = 1 / Math.sqrt(dx * dx + dy * dy + dz * dz + eps2), s = pos[4 * k + 3] * inv * inv * inv;
          ax += dx * s; ay += dy * s; az += dz * s;
        }
        aj[4 * i] = ax; aj[4 * i + 1] = ay; aj[4 * i + 2] = az;
      }
      return aj;
    },
  };
}

// ---- transpose, 1024×1024 through a 32×33 tile, blocks of 32×8 ----------------------------------
const TILE_DIM = 32, BLOCK_ROWS = 8;
const transpose = kernel(function transposeCoalesced(odata: Float32Array, idata: Float32Array, width: i32, height: i32) {
  const tile = shared(Float32Array, TILE_DIM * (TILE_DIM + 1));
  let x = blockIdx.x * TILE_DIM + threadIdx.x, y = blockIdx.y * TILE_DIM + threadIdx.y;
  for (let j = 0; j < TILE_DIM; j += BLOCK_ROWS) tile[(threadIdx.y + j) * (TILE_DIM + 1) + threadIdx.x] = idata[(y + j) * width + x];
  syncthreads();
  x = blockIdx.y * TILE_DIM + threadIdx.x;
  y = blockIdx.x * TILE_DIM + threadIdx.y;
  for (let j = 0; j < TILE_DIM; j += BLOCK_ROWS) odata[(y + j) * height + x] = tile[threadIdx.x * (TILE_DIM + 1) + threadIdx.y + j];
}, { scope: { TILE_DIM, BLOCK_ROWS } });
function transposeCase(): Case {
  const n = 1024, a = floats(n * n, 8), o = new Float32Array(n * n), oj = new Float32Array(n * n);
  return {
    name: "transpose", size: "1024×1024 f32, 32×33 tile", tolerance: 0,
    async gpuc(dev) { await transpose.launch(dev, { blocks: [n / TILE_DIM, n / TILE_DIM], threads: [TILE_DIM, BLOCK_ROWS] }, o, a, n, n); return o; },
    plain() { for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) oj[j * n + i] = a[i * n + j]; return oj; },
  };
}

// ---- block scan, 1M: an inclusive scan of each block of 256 (Hillis–Steele in shared memory) ----
const blockScan = kernel(function blockScan(out: Int32Array, x: Int32Array, n: i32) {
  const temp = shared(Int32Array, 256);
  const t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
  temp[t] = i < n ? x[i] : 0;
  syncthreads();
  for (let offset = 1; offset < blockDim.x; offset *= 2) {
    const v = t >= offset ? temp[t - offset] : 0;
    syncthreads();
    temp[t] += v;
    syncthreads();
  }
  if (i < n) out[i] = temp[t];
});
function scanCase(): Case {
  const n = 1 << 20, r = random(9), x = Int32Array.from({ length: n }, () => Math.floor(r() * 1000)), out = new Int32Array(n), oj = new Int32Array(n);
  return {
    name: "block scan", size: "1,048,576 i32, blocks of 256", tolerance: 0,
    async gpuc(dev) { await blockScan.launch(dev, { blocks: n / 256, threads: 256 }, out, x, n); return out; },
    plain() { for (let b = 0; b < n; b += 256) { let s = 0; for (let j = b; j < b + 256; j++) oj[j] = s += x[j]; } return oj; },
  };
}

// ---- subgroup sums, 4M: a shuffle-down tree per subgroup, then per block --------------------------
const warpSums = kernel(function warpSums(sums: Float32Array, x: Float32Array, n: i32) {
  const partials = shared(Float32Array, 32);
  const t = threadIdx.x, i = blockIdx.x * blockDim.x + t, lane = subgroupLaneId(), warp = (t / subgroupSize()) | 0;
  let v = i < n ? x[i] : 0;
  for (let d = subgroupSize() >> 1; d > 0; d >>= 1) v += subgroupShuffleDown(v, d);
  if (lane === 0) partials[warp] = v;
  syncthreads();
  if (t === 0) {
    let s: f32 = 0;
    for (let w = 0; w < blockDim.x / subgroupSize(); w++) s += partials[w];
    sums[blockIdx.x] = s;
  }
});
function warpSumsCase(): Case {
  const n = 1 << 22, blocks = n / 256, x = floats(n, 10), sums = new Float32Array(blocks), sj = new Float32Array(blocks);
  return {
    name: "subgroup sums", size: "4,194,304 f32, shuffles down, blocks of 256", tolerance: 1e-4,
    async gpuc(dev) { await warpSums.launch(dev, { blocks, threads: 256 }, sums, x, n); return sums; },
    plain() { for (let b = 0; b < blocks; b++) { let s = 0; for (let j = b * 256; j < b * 256 + 256; j++) s += x[j]; sj[b] = s; } return sj; },
  };
}

// ---- subgroup sums, 4M, with subgroupAdd ---------------------------------------------------------
const subgroupSums = kernel(function subgroupSums(sums: Float32Array, x: Float32Array, n: i32) {
  const i = blockIdx.x * blockDim.x + threadIdx.x;
  const v = subgroupAdd(i < n ? x[i] : 0);
  if (subgroupLaneId() === 0) sums[(i / subgroupSize()) | 0] = v;
});
function subgroupAddCase(): Case {
  const n = 1 << 22, S = 32, x = floats(n, 11), sums = new Float32Array(n / S), sj = new Float32Array(n / S);
  return {
    name: "subgroupAdd sums", size: "4,194,304 f32, one sum per subgroup of 32", tolerance: 1e-4,
    async gpuc(dev) { await subgroupSums.launch(dev, { blocks: n / 256, threads: 256 }, sums, x, n); return sums; },
    plain() { for (let b = 0; b < n / S; b++) { let s = 0; for (let j = b * S; j < b * S + S; j++) s += x[j]; sj[b] = s; } return sj; },
  };
}

const all = [saxpyCase, mandelbrotCase, matmulCase, blockSumsCase, histogramCase, nbodyCase, transposeCase, scanCase, warpSumsCase, subgroupAddCase];
const wanted = process.argv.slice(2);

function differs(got: ArrayLike<number>, want: ArrayLike<number>, tolerance: number): number {
  let bad = 0;
  for (let i = 0; i < want.length; i++) {
    const d = Math.abs(got[i] - want[i]) / Math.max(1, Math.abs(want[i]));
    if (tolerance === 0 ? !Object.is(got[i], want[i]) : !(d <= tolerance)) bad++;
  }
  return bad;
}

// PoCL's subgroups are one thread wide: a subgroup kernel written for 32 lanes computes other sums
// there (or overruns its per-warp array), so subgroup kernels are compared with plain JS only.
const configs: [string, Device][] = [["CPU as it is", await device("cpu")], ["1 thread", await device("cpu", { threads: 1 })]];
if ((await listDevices()).some((d) => d.kind === "opencl" && d.available)) configs.push(["PoCL", await device("opencl")]);
const pocl = configs.findIndex(([n]) => n === "PoCL");

const median = (xs: number[]) => { const s = [...xs].sort((a, b) => a - b); return s[s.length >> 1]; };
const fmt = (x: number) => (x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x.toFixed(2));
const spread = (xs: number[]) => `${fmt(Math.min(...xs))}–${fmt(Math.max(...xs))}`;
const geomean = (xs: number[]) => Math.exp(xs.reduce((a, x) => a + Math.log(x), 0) / xs.length);

console.log(`### Nine kernels at realistic sizes, the subgroup sums two ways (ms, median of ${RUNS}; ratios against PoCL and plain JS)\n`);
console.log(`| kernel | size | ${configs.map(([n]) => n).join(" | ")} | plain JS | as it is / PoCL | as it is / plain JS | 1 thread / plain JS | spread: CPU, ${pocl >= 0 ? "PoCL, " : ""}plain JS |`);
console.log(`| --- | --- | ${configs.map(() => "---").join(" | ")} | --- | --- | --- | --- | --- |`);
const vsPocl: number[] = [], vsJS: number[] = [], oneVsJS: number[] = [];
for (const make of all) {
  const c = make();
  if (wanted.length && !wanted.some((w) => c.name.includes(w))) continue;
  const subgroups = c.name.includes("subgroup");
  const times = configs.map(() => [] as number[]), plain: number[] = [];
  const want = Array.from((c.reset?.(), c.plain()));
  const check = async (name: string, dev: Device) => {
    c.reset?.();
    const got = await c.gpuc(dev);
    const bad = differs(got, want, c.tolerance);
    if (bad) throw new Error(`${c.name} on ${name}: ${bad} of ${want.length} differ from plain JS`);
  };
  const runs = configs.map(([name]) => !(subgroups && name === "PoCL"));
  for (const [k, [name, dev]] of configs.entries()) if (runs[k]) await check(name, dev);
  for (let r = 1; r < WARMUP; r++) await check(configs[0][0], configs[0][1]);
  for (let r = 0; r < RUNS; r++) {
    for (let k = 0; k < configs.length; k++) {
      if (!runs[k]) continue;
      c.reset?.();
      const t0 = performance.now();
      await c.gpuc(configs[k][1]);
      times[k].push(performance.now() - t0);
    }
    c.reset?.();
    const t0 = performance.now();
    c.plain();
    plain.push(performance.now() - t0);
  }
  const m = times.map((t) => (t.length ? median(t) : NaN)), p = median(plain);
  const againstPocl = pocl >= 0 && !subgroups ? m[0] / m[pocl] : NaN;
  if (!Number.isNaN(againstPocl)) vsPocl.push(againstPocl);
  vsJS.push(m[0] / p); oneVsJS.push(m[1] / p);
  console.log(`| ${c.name} | ${c.size} | ${m.map((x) => (Number.isNaN(x) ? "—" : fmt(x))).join(" | ")} | ${fmt(p)} | ${Number.isNaN(againstPocl) ? "—" : againstPocl.toFixed(2)} | ${(m[0] / p).toFixed(2)} | ${(m[1] / p).toFixed(2)} | ${spread(times[0])}, ${pocl >= 0 && runs[pocl] ? `${spread(times[pocl])}, ` : ""}${spread(plain)} |`);
}
const worst = (xs: number[]) => Math.max(...xs).toFixed(2);
console.log(`\nThe CPU device as it is: ${vsPocl.length ? `${geomean(vsPocl).toFixed(2)}× PoCL (geomean of ${vsPocl.length}, worst ${worst(vsPocl)}×), ` : ""}${geomean(vsJS).toFixed(2)}× plain JS (geomean of ${vsJS.length}, worst ${worst(vsJS)}×); on one thread ${geomean(oneVsJS).toFixed(2)}× plain JS (worst ${worst(oneVsJS)}×)`);
for (const [, dev] of configs) await dev.destroy?.();
