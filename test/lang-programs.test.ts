// Execution tests of larger kernels (matrix multiply, mandelbrot, an n-body step, row softmax):
// programs of up to ~100 lines, each compared with a plain-JavaScript reference computed here. f32
// references round every operation with Math.fround; i32/u32 references wrap with `| 0` / `>>> 0` /
// Math.imul.
//
// Every test runs on each device of the matrix (helpers.ts: `dtest`): the CPU device (the JS
// target, the exact reference semantics) and WebGPU (the WGSL target), where integers must agree
// exactly and f32 values within F32_TOL relative unless a test says why not. Where WebGPU differs
// by design (no f64), the test says so where it branches on `wgsl`.
//
// Outputs are poisoned (NaN or a sentinel) before each launch so unwritten elements show.
//
// Note: tsx transpiles this file with esbuild, which reprints kernel sources (whitespace removed,
// `1.0` printed as `1`, `1000` printed as `1e3` -- which gpuc reads as a float literal --, some
// constant expressions folded). Integer literals in these kernels therefore avoid multiples of
// 1000.

import { describe } from "node:test";
import assert from "node:assert/strict";
import { kernel, threadIdx, blockIdx, blockDim } from "../src/index.ts";
import { randF32, randF64, poisonF32, poisonF64, poisonI32, poisonU32, F, dtest, openDevices,
  rejectsF64 } from "./helpers.ts";

await openDevices();

// =============================================================================================

describe("larger kernels", () => {
  dtest("matrix multiply 64x48 * 48x32 on a 2-D grid", async ({ dev, same }) => {
    const k = kernel(function matmul(A: Float32Array, B: Float32Array, C: Float32Array, M: number, N: number, K: number) {
      const row = blockIdx.y * blockDim.y + threadIdx.y;
      const col = blockIdx.x * blockDim.x + threadIdx.x;
      if (row >= M || col >= N) return;
      let acc = 0;
      for (let k = 0; k < K; k++) acc += A[row * K + k] * B[k * N + col];
      C[row * N + col] = acc;
    });
    const M = 64, N = 32, K = 48;
    const A = randF32(281, M * K, -1, 1), B = randF32(282, K * N, -1, 1), C = poisonF32(M * N);
    await k.launch(dev, { blocks: [4, 8], threads: [8, 8] }, A, B, C, M, N, K);
    const want = new Float32Array(M * N);
    for (let r = 0; r < M; r++) for (let c = 0; c < N; c++) {
      let acc = 0;
      for (let j = 0; j < K; j++) acc = F(acc + F(A[r * K + j] * B[j * N + c]));
      want[r * N + c] = acc;
    }
    same(C, want);
  });

  dtest("mandelbrot escape times in f32 on a 2-D grid", async ({ dev, same }) => {
    const k = kernel(function mandel(out: Int32Array, w: number, h: number, x0: number, y0: number, dx: number, dy: number, maxIter: number) {
      const px = blockIdx.x * blockDim.x + threadIdx.x;
      const py = blockIdx.y * blockDim.y + threadIdx.y;
      if (px >= w || py >= h) return;
      const cr = x0 + px * dx;
      const ci = y0 + py * dy;
      let zr = 0;
      let zi = 0;
      let k = 0;
      while (k < maxIter) {
        const zr2 = zr * zr;
        const zi2 = zi * zi;
        if (zr2 + zi2 > 4) break;
        zi = 2 * zr * zi + ci;
        zr = zr2 - zi2 + cr;
        k++;
      }
      out[py * w + px] = k;
    });
    const W = 48, H = 40, X0 = -2.25, Y0 = -1.25, DX = 0.0523, DY = 0.0617, MAXI = 64;
    const out = poisonI32(W * H);
    await k.launch(dev, { blocks: [6, 5], threads: [8, 8] }, out, W, H, X0, Y0, DX, DY, MAXI);
    const want = new Int32Array(W * H);
    for (let py = 0; py < H; py++) for (let px = 0; px < W; px++) {
      const cr = F(F(X0) + F(px * F(DX))), ci = F(F(Y0) + F(py * F(DY)));
      let zr = 0, zi = 0, it = 0;
      while (it < MAXI) {
        const zr2 = F(zr * zr), zi2 = F(zi * zi);
        if (F(zr2 + zi2) > 4) break;
        zi = F(F(F(2 * zr) * zi) + ci);
        zr = F(F(zr2 - zi2) + cr);
        it++;
      }
      want[py * W + px] = it;
    }
    same(out, want);
    assert.ok(new Set(want).size > 10, "sanity: varied escape times");
  });

  dtest("n-body step (~100 lines): f64 physics, integrator switch, helpers, integer cell hash", async ({ dev, same, wgsl }) => {
    function speed3(vx: number, vy: number, vz: number) { return Math.sqrt(vx * vx + vy * vy + vz * vz); }
    function wrapCoord(c: number) {
      while (c >= BOX) c -= 2 * BOX;
      while (c < -BOX) c += 2 * BOX;
      return c;
    }
    function cellOf(c: number) { return Math.floor((c + BOX) * 4) | 0; }
    const k = kernel(function nbody(pos: Float64Array, vel: Float64Array, mass: Float64Array, outPos: Float64Array, outVel: Float64Array,
                                    stats: Int32Array, hashes: Uint32Array, energy: Float64Array, n: number, dt: number, mode: number) {
      const i = blockIdx.x * blockDim.x + threadIdx.x;
      if (i >= n) return;
      const px = pos[i * 3];
      const py = pos[i * 3 + 1];
      const pz = pos[i * 3 + 2];
      let ax = 0;
      let ay = 0;
      let az = 0;
      let pot = 0;
      let close = 0;
      let far = 0;
      let minD2 = Infinity;
      let nearest = -1;
      for (let j = 0; j < n; j++) {
        if (j === i) continue;
        const dx = pos[j * 3] - px;
        const dy = pos[j * 3 + 1] - py;
        const dz = pos[j * 3 + 2] - pz;
        const d2 = dx * dx + dy * dy + dz * dz + SOFT;
        if (d2 < minD2) {
          minD2 = d2;
          nearest = j;
        }
        if (d2 < 0.25) close++;
        else if (d2 > 4) {
          far++;
          if (far > FAR_LIMIT) break;
        }
        const inv = 1 / Math.sqrt(d2);
        const inv3 = inv * inv * inv;
        const s = mass[j] * inv3;
        ax += dx * s;
        ay += dy * s;
        az += dz * s;
        pot -= mass[j] * inv;
      }
      let vx = vel[i * 3];
      let vy = vel[i * 3 + 1];
      let vz = vel[i * 3 + 2];
      let nx = px;
      let ny = py;
      let nz = pz;
      switch (mode) {
        case 0:
          nx = px + vx * dt;
          ny = py + vy * dt;
          nz = pz + vz * dt;
          vx += ax * dt;
          vy += ay * dt;
          vz += az * dt;
          break;
        case 1:
          vx += ax * dt;
          vy += ay * dt;
          vz += az * dt;
          nx = px + vx * dt;
          ny = py + vy * dt;
          nz = pz + vz * dt;
          break;
        default: {
          const hx = vx + 0.5 * ax * dt;
          const hy = vy + 0.5 * ay * dt;
          const hz = vz + 0.5 * az * dt;
          nx = px + hx * dt;
          ny = py + hy * dt;
          nz = pz + hz * dt;
          vx = hx + 0.5 * ax * dt;
          vy = hy + 0.5 * ay * dt;
          vz = hz + 0.5 * az * dt;
        }
      }
      const sp = speed3(vx, vy, vz);
      let clamped = 0;
      if (sp > MAXV) {
        const f = MAXV / sp;
        vx *= f;
        vy *= f;
        vz *= f;
        clamped = 1;
      }
      nx = wrapCoord(nx);
      ny = wrapCoord(ny);
      nz = wrapCoord(nz);
      outPos[i * 3] = nx;
      outPos[i * 3 + 1] = ny;
      outPos[i * 3 + 2] = nz;
      outVel[i * 3] = vx;
      outVel[i * 3 + 1] = vy;
      outVel[i * 3 + 2] = vz;
      stats[i * 4] = close;
      stats[i * 4 + 1] = far;
      stats[i * 4 + 2] = nearest;
      stats[i * 4 + 3] = clamped;
      const cx = cellOf(nx);
      const cy = cellOf(ny);
      const cz = cellOf(nz);
      let h = Math.imul(cx, 73856093) ^ Math.imul(cy, 19349663) ^ Math.imul(cz, 83492791);
      h ^= h >>> 13;
      h = Math.imul(h, 0x5bd1e995);
      h ^= h >>> 15;
      hashes[i] = h >>> 0;
      energy[i] = 0.5 * mass[i] * (vx * vx + vy * vy + vz * vz) + 0.5 * mass[i] * pot;
    }, { types: { dt: "f64" }, scope: { speed3, wrapCoord, cellOf, SOFT: 1e-3, FAR_LIMIT: 20, MAXV: 1.2, BOX: 3 } });

    const N = 40;
    const pos = randF64(291, N * 3, -3, 3), vel = randF64(292, N * 3, -1, 1), mass = randF64(293, N, 0.1, 2);
    const SOFT = 1e-3, FAR_LIMIT = 20, MAXV = 1.2, BOX = 3;
    const refWrap = (c: number) => { while (c >= BOX) c -= 2 * BOX; while (c < -BOX) c += 2 * BOX; return c; };
    const refCell = (c: number) => Math.floor((c + BOX) * 4) | 0;
    for (const mode of [0, 1, 2]) {
      const dt = 0.05;
      const outPos = poisonF64(N * 3), outVel = poisonF64(N * 3), stats = poisonI32(N * 4), hashes = poisonU32(N), energy = poisonF64(N);
      // WGSL has no f64: the WebGPU device rejects this f64 kernel.
      if (wgsl) return rejectsF64(k.launch(dev, { blocks: 2, threads: 32 }, pos, vel, mass, outPos, outVel, stats, hashes, energy, N, dt, mode));
      await k.launch(dev, { blocks: 2, threads: 32 }, pos, vel, mass, outPos, outVel, stats, hashes, energy, N, dt, mode);
      const wPos = new Float64Array(N * 3), wVel = new Float64Array(N * 3), wStats = new Int32Array(N * 4), wHash = new Uint32Array(N), wEn = new Float64Array(N);
      for (let i = 0; i < N; i++) {
        const px = pos[i * 3], py = pos[i * 3 + 1], pz = pos[i * 3 + 2];
        let ax = 0, ay = 0, az = 0, pot = 0, close = 0, far = 0, minD2 = Infinity, nearest = -1;
        for (let j = 0; j < N; j++) {
          if (j === i) continue;
          const dx = pos[j * 3] - px, dy = pos[j * 3 + 1] - py, dz = pos[j * 3 + 2] - pz;
          const d2 = dx * dx + dy * dy + dz * dz + SOFT;
          if (d2 < minD2) { minD2 = d2; nearest = j; }
          if (d2 < 0.25) close++;
          else if (d2 > 4) { far++; if (far > FAR_LIMIT) break; }
          const inv = 1 / Math.sqrt(d2), inv3 = inv * inv * inv, s = mass[j] * inv3;
          ax += dx * s; ay += dy * s; az += dz * s; pot -= mass[j] * inv;
        }
        let vx = vel[i * 3], vy = vel[i * 3 + 1], vz = vel[i * 3 + 2], nx = px, ny = py, nz = pz;
        if (mode === 0) {
          nx = px + vx * dt; ny = py + vy * dt; nz = pz + vz * dt; vx += ax * dt; vy += ay * dt; vz += az * dt;
        } else if (mode === 1) {
          vx += ax * dt; vy += ay * dt; vz += az * dt; nx = px + vx * dt; ny = py + vy * dt; nz = pz + vz * dt;
        } else {
          const hx = vx + 0.5 * ax * dt, hy = vy + 0.5 * ay * dt, hz = vz + 0.5 * az * dt;
          nx = px + hx * dt; ny = py + hy * dt; nz = pz + hz * dt;
          vx = hx + 0.5 * ax * dt; vy = hy + 0.5 * ay * dt; vz = hz + 0.5 * az * dt;
        }
        const sp = Math.sqrt(vx * vx + vy * vy + vz * vz);
        let clamped = 0;
        if (sp > MAXV) { const f = MAXV / sp; vx *= f; vy *= f; vz *= f; clamped = 1; }
        nx = refWrap(nx); ny = refWrap(ny); nz = refWrap(nz);
        wPos.set([nx, ny, nz], i * 3);
        wVel.set([vx, vy, vz], i * 3);
        wStats.set([close, far, nearest, clamped], i * 4);
        let h = Math.imul(refCell(nx), 73856093) ^ Math.imul(refCell(ny), 19349663) ^ Math.imul(refCell(nz), 83492791);
        h ^= h >>> 13; h = Math.imul(h, 0x5bd1e995); h ^= h >>> 15;
        wHash[i] = h >>> 0;
        wEn[i] = 0.5 * mass[i] * (vx * vx + vy * vy + vz * vz) + 0.5 * mass[i] * pot;
      }
      same(outPos, wPos, `mode ${mode}: positions`);
      same(outVel, wVel, `mode ${mode}: velocities`);
      same(stats, wStats, `mode ${mode}: stats`);
      same(hashes, wHash, `mode ${mode}: hashes`);
      same(energy, wEn, `mode ${mode}: energy`);
      if (mode === 0) assert.ok(wStats.some((v, idx) => idx % 4 === 3 && v === 1), "sanity: some velocity is clamped");
    }
  });

  dtest("row softmax in f32 (Math.exp, Math.max, -Infinity)", async ({ dev, same }) => {
    const k = kernel(function softmax(x: Float32Array, o: Float32Array, cols: number) {
      const r = blockIdx.x * blockDim.x + threadIdx.x;
      if (r * cols >= x.length) return;
      let m = -Infinity;
      for (let c = 0; c < cols; c++) m = Math.max(m, x[r * cols + c]);
      let s = 0;
      for (let c = 0; c < cols; c++) {
        const e = Math.exp(x[r * cols + c] - m);
        o[r * cols + c] = e;
        s += e;
      }
      for (let c = 0; c < cols; c++) o[r * cols + c] = o[r * cols + c] / s;
    });
    const R = 9, C = 20;
    const x = randF32(321, R * C, -6, 6), o = poisonF32(R * C);
    await k.launch(dev, { blocks: 2, threads: 8 }, x, o, C);
    const want = new Float32Array(R * C);
    for (let r = 0; r < R; r++) {
      let m = -Infinity; for (let c = 0; c < C; c++) m = Math.max(m, x[r * C + c]);
      let s = 0; const e: number[] = [];
      for (let c = 0; c < C; c++) { e[c] = F(Math.exp(F(x[r * C + c] - m))); s = F(s + e[c]); }
      for (let c = 0; c < C; c++) want[r * C + c] = F(e[c] / s);
    }
    same(o, want);
  });
});
