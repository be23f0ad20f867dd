// gpuc's adapter for the peers harness (../shared/peers, its README: "Adding gpuc") with a PoCL row
// (issue #33: gpuc's CPU device beside PoCL and plain JS in one run). Run from the gpuc checkout:
//
//   npm run build
//   GPUC_BENCH=bench/peers-adapter.mjs GPUC_PATH="$PWD/dist/index.js" ../shared/peers/run.sh
//
// run.sh copies this file into its temp bench/ folder (beside common.mjs and the peers it
// installed). It gives the harness's own gpuc adapter's rows (the CPU and WebGPU devices: that
// adapter is copied beside this file and run as it is, so its columns keep their meaning — but for
// its pipeline's bind group layout, which binds the exception record's texture: withRecordTexture) and one
// more row, `opencl (PoCL)`: gpuc's OpenCL device on this machine's CPU, the same kernels, in a
// fresh process with GPUC_CACHE=0 — codegen cold and warm (target "opencl"), first run (kernel
// object to first result, PoCL's build of the program included), run (median of the harness's
// runs: launch on host arrays, which the device copies in and back, as the CPU row's are used).
// Never part of `npm test`.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import {
  N, M, WG, ALPHA, makeInputs, refSaxpy, refMatmul, refReduce, check, median, now, timeRuns, emit, parseArgs, CODEGEN_RUNS,
} from './common.mjs';

const { kernel, rest } = parseArgs();
const here = dirname(fileURLToPath(import.meta.url));
const BACKEND = 'opencl (PoCL, gpuc OpenCL device)';

if (!rest.includes('--opencl')) {
  // The harness's gpuc adapter, beside this file (where common.mjs and the peers' packages are).
  const shared = process.env.PEERS_GPUC_ADAPTER ?? resolve(dirname(process.env.GPUC_PATH ?? ''), '../../shared/peers/bench/gpuc-adapter.mjs');
  if (existsSync(shared)) {
    writeFileSync(join(here, 'gpuc-shared.mjs'), withRecordTexture(readFileSync(shared, 'utf8')));
    const r = spawnSync(process.execPath, [join(here, 'gpuc-shared.mjs'), kernel ?? ''], { encoding: 'utf8', maxBuffer: 64 << 20, timeout: 600_000 });
    process.stdout.write(r.stdout || '');
    process.stderr.write(r.stderr || '');
  } else emit({ peer: 'gpuc', backend: 'cpu (gpuc CPU device, JS)', kernel, error: `no harness adapter at ${shared} (PEERS_GPUC_ADAPTER)` });
  const r = spawnSync(process.execPath, [fileURLToPath(import.meta.url), kernel ?? '', '--opencl'], {
    env: { ...process.env, GPUC_CACHE: '0' }, encoding: 'utf8', maxBuffer: 64 << 20, timeout: 240_000,
  });
  const rows = (r.stdout || '').split('\n').filter((l) => l.startsWith('ROW '));
  for (const l of rows) console.log(l);
  process.stderr.write(r.stderr || '');
  if (!rows.length) emit({ peer: 'gpuc', backend: BACKEND, kernel, error: `opencl process: exit ${r.status} ${(r.stderr || '').split('\n').find((l) => /Error/.test(l)) ?? ''}`.trim() });
  process.exit(0);
}

/**
 * The harness's adapter times what gpuc's WebGPU device creates for a pipeline by building the
 * bind group layout from the artifact's `layout.bindings`, every one a buffer — written before
 * WGSL's exception record became a storage texture (a binding of kind "texture": targets/wgsl/emit.ts,
 * RECORD). Its layout is made as the device makes it (devices/webgpu.ts, variant()); an adapter
 * that already binds textures is run as it is, and one this cannot mend fails its rows saying so.
 */
function withRecordTexture(code) {
  if (code.includes('storageTexture')) return code;
  const from = "      buffer: { type: b.kind === 'uniform' ? 'uniform' : b.readOnly ? 'read-only-storage' : 'storage' },";
  if (!code.includes(from)) throw new Error("the harness's gpuc adapter makes its bind group layout in a way bench/peers-adapter.mjs does not know: it cannot bind the exception record's texture");
  return code.replace(from, "      ...(b.kind === 'texture' ? { storageTexture: { access: 'write-only', format: 'rgba32sint', viewDimension: '1d' } }\n        : { buffer: { type: b.kind === 'uniform' ? 'uniform' : b.readOnly ? 'read-only-storage' : 'storage' } }),");
}

// ---- the OpenCL child -------------------------------------------------------------------------
const g = await import(pathToFileURL(process.env.GPUC_PATH || '').href);
const { kernel: K, blockIdx, blockDim, threadIdx, shared, syncthreads } = g;
// The kernels as the harness's gpuc adapter writes them (gpuc's idiomatic style).
const KERNELS = {
  saxpy: {
    make: () => K(function saxpy(a, x, y) {
      const i = blockIdx.x * blockDim.x + threadIdx.x;
      if (i < y.length) y[i] = a * x[i] + y[i];
    }, { types: { a: 'f32' } }),
    types: ['f32', 'f32[]', 'f32[]'], cfg: { blocks: N / 256, threads: 256 },
  },
  matmul: {
    make: () => K(function matmul(c, a, b, n) {
      const row = blockIdx.y * blockDim.y + threadIdx.y;
      const col = blockIdx.x * blockDim.x + threadIdx.x;
      if (row < n && col < n) {
        let acc = 0;
        for (let k = 0; k < n; k++) acc += a[row * n + k] * b[k * n + col];
        c[row * n + col] = acc;
      }
    }),
    types: ['f32[]', 'f32[]', 'f32[]', 'i32'], cfg: { blocks: [M / 16, M / 16], threads: [16, 16] },
  },
  reduce: {
    make: () => K(function blockSums(sums, x) {
      const s = shared(Float32Array, 256);
      const t = threadIdx.x;
      const i = blockIdx.x * blockDim.x + t;
      s[t] = i < x.length ? x[i] : 0;
      syncthreads();
      for (let stride = blockDim.x >> 1; stride > 0; stride >>= 1) {
        if (t < stride) s[t] += s[t + stride];
        syncthreads();
      }
      if (t === 0) sums[blockIdx.x] = s[0];
    }),
    types: ['f32[]', 'f32[]'], cfg: { blocks: N / WG, threads: WG },
  },
};
const Kd = KERNELS[kernel];
const inp = makeInputs();
let applied = 0;
const P = kernel === 'saxpy' ? { args: [ALPHA, inp.x, inp.y0.slice()], out: 2, ref: () => refSaxpy(inp.x, inp.y0, ALPHA, applied) }
  : kernel === 'matmul' ? { args: [new Float32Array(M * M), inp.a, inp.b, M], out: 0, ref: () => refMatmul(inp.a, inp.b) }
  : { args: [new Float32Array(N / WG), inp.v], out: 0, ref: () => refReduce(inp.v) };
const dev = await g.device('opencl');
const t0 = now();
const k = Kd.make();
await k.compile({ target: 'opencl', types: Kd.types });
const t1 = now();
await k.launch(dev, Kd.cfg, ...P.args);
applied++;
const t2 = now();
const v1 = check(P.args[P.out], P.ref());
const run = await timeRuns(async () => { await k.launch(dev, Kd.cfg, ...P.args); applied++; });
const v2 = check(P.args[P.out], P.ref());
const warm = [];
for (let i = 0; i < CODEGEN_RUNS; i++) { const kk = Kd.make(); const s = now(); await kk.compile({ target: 'opencl', types: Kd.types }); warm.push(now() - s); }
emit({
  peer: 'gpuc', version: null, backend: BACKEND, kernel, style: 'the CPU row\'s kernel, on PoCL',
  codegen_cold: t1 - t0, codegen_warm: median(warm), first_run: t2 - t0, run, verified: v1.ok && v2.ok,
  note: [`device: ${dev.name}`, ...(v1.ok && v2.ok ? [] : [`verify: ${v1.why || v2.why}`])].join('; '),
});
dev.close();
