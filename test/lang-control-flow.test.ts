// Execution tests of control flow (for, for…of, while and do-while loops with break and continue, early
// returns, switch, short-circuit && / || and ?:): small kernels, each compared with a
// plain-JavaScript reference computed here. i32/u32 references wrap with `| 0` / `>>> 0` /
// Math.imul.
//
// Every test runs on each device of the matrix (helpers.ts: `dtest`): the CPU device (the JS
// target, the exact reference semantics) and WebGPU (the WGSL target), where integers must agree
// exactly and f32 values within F32_TOL relative unless a test says why not.
//
// Outputs are poisoned (NaN or a sentinel) before each launch so unwritten elements show.
//
// Note: tsx transpiles this file with esbuild, which reprints kernel sources (whitespace removed,
// `1.0` printed as `1`, `1000` printed as `1e3` -- which gpuc reads as a float literal --, some
// constant expressions folded). Integer literals in these kernels therefore avoid multiples of
// 1000.

import { describe } from "node:test";
import assert from "node:assert/strict";
import { kernel, KernelError, threadIdx, blockIdx, blockDim, shared, syncthreads, structArray } from "../src/index.ts";
import { randF32, randI32, randFullI32, randFullU32, poisonF32, poisonI32, forThreads, dtest,
  openDevices } from "./helpers.ts";

// Scope constants the kernels below name (bound through `scope`, never on the host).
declare const RED: number, GREEN: number;

await openDevices();

// ---- scope helpers (module-level functions passed in `scope`) ------------------------------

// Helpers with a side effect through an array parameter. The extra early `return` keeps them from
// being inlined (inlining a helper that reads an array parameter once crashed: see "inlined helper
// that reads an array parameter" in lang-functions.test.ts), so the tests that use them check
// evaluation order, not the inliner.
function markNI(arr: Int32Array, j: number) { if (j < 0) return false; arr[j] = arr[j] + 1; return true; }
function bumpRetNI(arr: Int32Array, j: number, v: number) { if (j < 0) return v; arr[j] = arr[j] + 1; return v; }

// =============================================================================================

describe("control flow", () => {
  dtest("for loops with break/continue, nested loops", async ({ dev, same }) => {
    const k = kernel(function loopsBC(lim: Int32Array, o: Int32Array) {
      const i = threadIdx.x;
      let s = 0;
      for (let j = 0; j < 100; j++) {
        if (j % 3 === 0) continue;
        if (s > lim[i]) break;
        s += j;
      }
      let pairs = 0;
      for (let p = 0; p < 10; p++) {
        if (p === i % 10) continue;
        for (let q = 0; q < 10; q++) {
          if (q > p) break;
          if ((p + q) % 4 === 1) continue;
          pairs += p * 10 + q;
        }
      }
      o[i * 2] = s;
      o[i * 2 + 1] = pairs;
    });
    const n = 24;
    const lim = randI32(191, n, -5, 3000), o = poisonI32(n * 2);
    await k.launch(dev, { blocks: 1, threads: n }, lim, o);
    const want = new Int32Array(n * 2);
    forThreads(n, (i) => {
      let s = 0;
      for (let j = 0; j < 100; j++) { if (j % 3 === 0) continue; if (s > lim[i]) break; s += j; }
      let pairs = 0;
      for (let p = 0; p < 10; p++) { if (p === i % 10) continue; for (let q = 0; q < 10; q++) { if (q > p) break; if ((p + q) % 4 === 1) continue; pairs += p * 10 + q; } }
      want.set([s, pairs], i * 2);
    });
    same(o, want);
  });

  dtest("while and do-while (with continue and break)", async ({ dev, same }) => {
    const k = kernel(function whiles(a: Int32Array, o: Int32Array) {
      const i = threadIdx.x;
      let v = a[i];
      let steps = 0;
      while (v !== 1 && steps < 999) { v = (v & 1) ? 3 * v + 1 : v >> 1; steps++; }
      let d = 0;
      let w = a[i];
      do { d++; w = (w / 10) | 0; } while (w > 0);
      let z = i;
      do { z += 2; if (z === 6) continue; if (z > 10) break; z++; } while (z < 20);
      o[i * 3] = steps;
      o[i * 3 + 1] = d;
      o[i * 3 + 2] = z;
    });
    const n = 27;
    const a = Int32Array.from({ length: n }, (_v, i) => i + 1);
    const o = poisonI32(n * 3);
    await k.launch(dev, { blocks: 1, threads: n }, a, o);
    const want = new Int32Array(n * 3);
    forThreads(n, (i) => {
      let v = a[i], steps = 0; while (v !== 1 && steps < 999) { v = (v & 1) ? 3 * v + 1 : v >> 1; steps++; }
      let d = 0, w = a[i]; do { d++; w = (w / 10) | 0; } while (w > 0);
      let z = i; do { z += 2; if (z === 6) continue; if (z > 10) break; z++; } while (z < 20);
      want.set([steps, d, z], i * 3);
    });
    same(o, want);
  });

  dtest("early return from the kernel (guard, branch, and inside a loop)", async ({ dev, same }) => {
    const k = kernel(function earlyRet(x: Float32Array, o: Float32Array, n: number) {
      const i = blockIdx.x * blockDim.x + threadIdx.x;
      if (i >= n) return;
      if (x[i] < 0) { o[i] = -1; return; }
      for (let k = 0; k < 8; k++) {
        if (x[i] < k * 0.125) { o[i] = k; return; }
      }
      o[i] = 100;
    });
    const n = 70;
    const x = randF32(201, n, -0.3, 1.2), o = poisonF32(96);
    await k.launch(dev, { blocks: 3, threads: 32 }, x, o, n);
    const want = poisonF32(96);
    forThreads(n, (i) => {
      if (x[i] < 0) { want[i] = -1; return; }
      for (let k = 0; k < 8; k++) if (x[i] < k * 0.125) { want[i] = k; return; }
      want[i] = 100;
    });
    same(o, want);
  });

  dtest("switch with fallthrough, default in the middle, continue/break in a loop", async ({ dev, same }) => {
    const k = kernel(function switchFall(a: Int32Array, o: Int32Array) {
      const i = threadIdx.x;
      let v = 0;
      switch (a[i] % 5) {
        case 0: v += 1;
        case 1: v += 10; break;
        case 2:
        case 3: v += 100;
        default: v += 512;
        case 4: v += 8192;
      }
      let w = 0;
      for (let j = 0; j < 6; j++) {
        switch (j) {
          case 1: continue;
          case 3: w += 100; break;
          default: w += j;
        }
        w += 512;
      }
      o[i * 2] = v;
      o[i * 2 + 1] = w;
    });
    const a = Int32Array.from([0, 1, 2, 3, 4, 5, -1, -2, -3, -4, 9, 13, 100, 101]);
    const n = a.length;
    const o = poisonI32(n * 2);
    await k.launch(dev, { blocks: 1, threads: n }, a, o);
    const want = new Int32Array(n * 2);
    forThreads(n, (i) => {
      let v = 0;
      switch (a[i] % 5) { case 0: v += 1; case 1: v += 10; break; case 2: case 3: v += 100; default: v += 512; case 4: v += 8192; }
      let w = 0;
      for (let j = 0; j < 6; j++) { switch (j) { case 1: continue; case 3: w += 100; break; default: w += j; } w += 512; }
      want.set([v, w], i * 2);
    });
    same(o, want);
  });

  dtest("short-circuit && / || skip side effects on the right", async ({ dev, same }) => {
    const k = kernel(function shortCirc(x: Float32Array, hitA: Int32Array, hitO: Int32Array, o: Int32Array, n: number) {
      const i = threadIdx.x;
      let r = 0;
      if (i < n && x[i] > 0) r += 1;
      if (x[i] > 0 && markNI(hitA, i)) r += 2;
      if (x[i] > 0 || markNI(hitO, i)) r += 4;
      let c = 0;
      if (x[i] < 0.5 && (c = i * 2) > 10) r += 8;
      let d = 0;
      if (x[i] >= 0.5 || (d = i + 100) < 0) r += 16;
      o[i] = (r << 16) | (c << 8) | d;
    }, { scope: { markNI } });
    const n = 24;
    const x = randF32(211, n, -1, 1);
    const hitA = new Int32Array(n), hitO = new Int32Array(n), o = poisonI32(n);
    await k.launch(dev, { blocks: 1, threads: n }, x, hitA, hitO, o, n);
    const wantA = new Int32Array(n), wantO = new Int32Array(n), want = new Int32Array(n);
    forThreads(n, (i) => {
      let r = 0;
      if (x[i] > 0) r += 1;
      if (x[i] > 0) { wantA[i]++; r += 2; }
      if (x[i] > 0) r += 4; else { wantO[i]++; r += 4; }
      let c = 0;
      if (x[i] < 0.5 && (c = i * 2) > 10) r += 8;
      let d = 0;
      if (x[i] >= 0.5 || (d = i + 100) < 0) r += 16;
      want[i] = (r << 16) | (c << 8) | d;
    });
    same(hitA, wantA, "&& right side called only when left is true");
    same(hitO, wantO, "|| right side called only when left is false");
    same(o, want);
  });

  dtest("&& and || as values, and reading past the end behind a guard", async ({ dev, same }) => {
    const k = kernel(function logicalVals(a: Int32Array, b: Int32Array, x: Float32Array, o: Int32Array, n: number) {
      const i = threadIdx.x;
      o[i * 4] = a[i] && b[i];
      o[i * 4 + 1] = a[i] || 7;
      o[i * 4 + 2] = (a[i] > 0 && b[i] > 0) || a[i] === -1 ? 1 : 0;
      let j = i;
      while (j < n && x[j] > 0) j++;
      o[i * 4 + 3] = j;
    });
    const a = Int32Array.from([0, 1, -1, 5, 0, 3, -4, 2]);
    const b = Int32Array.from([9, 0, 2, 6, 0, -3, 4, 8]);
    const x = Float32Array.from([1, 2, -1, 3, 4, 5, 0, 6]);
    const o = poisonI32(32);
    await k.launch(dev, { blocks: 1, threads: 8 }, a, b, x, o, 8);
    const want = new Int32Array(32);
    forThreads(8, (i) => {
      let j = i; while (j < 8 && x[j] > 0) j++;
      want.set([a[i] && b[i], a[i] || 7, (a[i] > 0 && b[i] > 0) || a[i] === -1 ? 1 : 0, j], i * 4);
    });
    same(o, want);
  });

  dtest("?: evaluates side effects only in the chosen arm", async ({ dev, same }) => {
    const k = kernel(function ternSide(a: Int32Array, ca: Int32Array, cb: Int32Array, o: Int32Array) {
      const i = threadIdx.x;
      let k = 10;
      const v = a[i] > 0 ? bumpRetNI(ca, i, a[i] * 2) : bumpRetNI(cb, i, -a[i]);
      const w = a[i] % 2 === 0 ? (k += 5) : (k -= 3);
      const z = a[i] > 5 ? (a[i] > 10 ? k++ : ++k) : k--;
      o[i * 4] = v;
      o[i * 4 + 1] = w;
      o[i * 4 + 2] = z;
      o[i * 4 + 3] = k;
    }, { scope: { bumpRetNI } });
    const a = Int32Array.from([-5, 0, 1, 2, 6, 7, 11, 12, -6, 100]);
    const n = a.length;
    const ca = new Int32Array(n), cb = new Int32Array(n), o = poisonI32(n * 4);
    await k.launch(dev, { blocks: 1, threads: n }, a, ca, cb, o);
    const wa = new Int32Array(n), wb = new Int32Array(n), want = new Int32Array(n * 4);
    forThreads(n, (i) => {
      let k = 10;
      const v = a[i] > 0 ? (wa[i]++, a[i] * 2) : (wb[i]++, -a[i]);
      const w = a[i] % 2 === 0 ? (k += 5) : (k -= 3);
      const z = a[i] > 5 ? (a[i] > 10 ? k++ : ++k) : k--;
      want.set([v, w, z, k], i * 4);
    });
    same(ca, wa, "then-arm calls");
    same(cb, wb, "else-arm calls");
    same(o, want);
  });


  dtest("for-loop forms: comma init/update, for(;;), a call in the update with continue, an element update", async ({ dev, same }) => {
    function stepNext(j: number) { return j * 2 + 1; }
    const k = kernel(function forForms(a: Int32Array, o: Int32Array) {
      let s = 0;
      for (let p = 0, q = 10; p < q; p++, q--) s += p * q;
      o[0] = s;
      let t = 0;
      for (;;) { t++; if (t > 5) break; }
      o[1] = t;
      let u = 0;
      for (let j = 0; j < 100; j = stepNext(j)) { if (j === 3) continue; u += j; }
      o[2] = u;
      let w = 0;
      let k = 0;
      for (let j = 0; j < 10; a[k++] += j++) { if (j % 3 === 0) continue; w += j; }
      o[3] = w;
      o[4] = k;
    }, { scope: { stepNext } });
    const a = new Int32Array(12), o = poisonI32(5);
    await k.launch(dev, { blocks: 1, threads: 1 }, a, o);
    const wa = new Int32Array(12), wo = new Int32Array(5);
    let s = 0; for (let p = 0, q = 10; p < q; p++, q--) s += p * q; wo[0] = s;
    let t = 0; for (;;) { t++; if (t > 5) break; } wo[1] = t;
    let u = 0; for (let j = 0; j < 100; j = stepNext(j)) { if (j === 3) continue; u += j; } wo[2] = u;
    let w = 0, kk = 0; for (let j = 0; j < 10; wa[kk++] += j++) { if (j % 3 === 0) continue; w += j; } wo[3] = w; wo[4] = kk;
    same(o, wo);
    same(a, wa, "element updates");
  });

  dtest("while with an assignment in the condition, while(true), do-while with a side-effecting condition", async ({ dev, same }) => {
    const k = kernel(function whileForms(a: Int32Array, o: Int32Array) {
      const i = threadIdx.x;
      let v = a[i];
      let c = 0;
      while ((v = v >> 1) > 0) c++;
      o[i * 3] = c;
      let j = 0;
      let s = 0;
      do {
        if (j === 2) continue;
        s += j;
      } while (j++ < 5);
      o[i * 3 + 1] = s * 100 + j;
      let n = a[i];
      let steps = 0;
      while (true) {
        if (n <= 1) break;
        n = n % 2 === 0 ? (n / 2) | 0 : n + 1;
        steps++;
      }
      o[i * 3 + 2] = steps;
    });
    const a = Int32Array.from([1000, 1, 0, 7, 65536, 12345, 3, 2]);
    const n = a.length;
    const o = poisonI32(n * 3);
    await k.launch(dev, { blocks: 1, threads: n }, a, o);
    const want = new Int32Array(n * 3);
    forThreads(n, (i) => {
      let v = a[i], c = 0; while ((v = v >> 1) > 0) c++;
      let j = 0, s = 0; do { if (j === 2) continue; s += j; } while (j++ < 5);
      let m = a[i], steps = 0; while (true) { if (m <= 1) break; m = m % 2 === 0 ? (m / 2) | 0 : m + 1; steps++; }
      want.set([c, s * 100 + j, steps], i * 3);
    });
    same(o, want);
  });

  dtest("for…of over arrays, views, shared rows, private arrays, literals and struct arrays, as JavaScript iterates", async ({ dev, same }) => {
    const k = kernel(function iterate(o: Float32Array, x: Float32Array, p: { a: number; b: number }[]) {
      const t = threadIdx.x;
      const rows = shared(Float32Array, [2, 4]);
      rows[0][t] = x[t];
      rows[1][t] = t;
      syncthreads();
      const priv = new Float32Array(3);
      priv[1] = x[t];
      let s = 0, last = -1;
      for (const v of x) { if (v < 0) continue; if (v > 3) break; s += v; }      // stops at 4.5
      for (let v of x.subarray(t, t + 2)) { v *= 2; s += v; }                     // a let, assigned
      for (const r of rows) for (const v of r) s += v;
      for (const v of priv) s += v;
      for (const w of [1, t, x[0]]) s += w;
      for (const { a, b } of p) s += a * b;
      for (last of x) s += 0;                                                       // an existing variable
      for (const v of x) { x = x.subarray(1); s += v; }                             // the original x, to its end
      o[t] = s * 100 + last + x.length;
    });
    const x = Float32Array.from([0.5, -1, 2, 4.5]), o = poisonF32(4);
    const p = structArray({ a: Float32Array, b: Float32Array }, 2);
    p[0] = { a: 1, b: 2 }; p[1] = { a: 3, b: -0.5 };
    await k.launch(dev, { blocks: 1, threads: 4 }, o, x, p);
    const want = Array.from({ length: 4 }, (_, t) => {
      let s = 0.5 + 2;
      for (const v of x.subarray(t, t + 2)) s += v * 2;
      s += 0.5 - 1 + 2 + 4.5 + (0 + 1 + 2 + 3);
      s += x[t];
      s += 1 + t + 0.5;
      s += 2 - 1.5;
      s += 0.5 - 1 + 2 + 4.5;
      return s * 100 + 4.5 + 0;
    });
    same(o, want);
  });

  dtest("labeled break and continue: out of nested loops, out of a switch, from a for…of, to a switch's label", async ({ dev, same }) => {
    // The same helper runs as plain JavaScript for the reference.
    function labeled(x: Int32Array, t: number): number {
      const a = x[t & 7], b = x[(t + 1) & 7], m = x[(t + 2) & 7];
      let c = 0;
      outer: for (let i = 0; i < 4; i++) {
        for (let j = 0; j < 4; j++) { if (a + i + j > 9) break outer; if (b > j + i) continue outer; c += 3; }
        c += 1;
      }
      one: for (let i = 0; i < 3; i++) {
        two: for (let j = 0; j < 3; j++) {
          for (let k = 0; k < 3; k++) { c += 7; if (k == m % 3) continue two; if (j + k == a % 4) continue one; if (i + j + k > b) break one; }
          c += 100;
        }
        c += 1000;
      }
      loop: for (let i = 0; i < 6; i++) {
        switch ((a + i) % 4) { case 1: continue loop; case 2: c += 5; break; case 3: if (i > m % 5) break loop; default: c += 1; }
        c += 10;
      }
      let i = 0;
      w: while (i < 8) { i++; let k = 0; do { k++; if (k == b % 4) continue w; if (k + i > 9) break w; c += k; } while (k < 5); }
      sw: switch (m & 1) { case 0: for (let k = 0; k < 5; k++) { if (k == a % 5) break sw; c += 2; } c += 50; break; default: c -= 1; }
      each: for (const v of x) { for (const u of x) { if (u == v) continue each; if (u + v > 14) break each; c += (u * v) & 3; } }
      return c * 16 + i;
    }
    const k = kernel(function labels(o: Int32Array, x: Int32Array) { o[threadIdx.x] = labeled(x, threadIdx.x); }, { scope: { labeled } });
    const x = randI32(311, 8, 0, 9), o = poisonI32(8);
    await k.launch(dev, { blocks: 1, threads: 8 }, o, x);
    same(o, Array.from({ length: 8 }, (_, t) => labeled(x, t)));
  });

  dtest("code under a constant condition that never runs is not compiled where it could not be (JavaScript never evaluates it)", async ({ dev, same }) => {
    const VERBOSE = false, LANES = 0;
    const k = kernel(function deadCode(o: Float32Array, x: Float32Array) {
      const i = threadIdx.x;
      const t = [x[i], 2];
      if (VERBOSE) { o[i] = t[5]; return; }
      const none: number[] = [];
      o[i] = (LANES ? t[9] : t[1]) + (none.length ? none[none.length - 1] : 0.5) + (LANES > 0 ? 1 : x[i]);
    }, { scope: { VERBOSE, LANES } });
    const x = Float32Array.from([0.5, -2, 3]), o = poisonF32(3);
    await k.launch(dev, { blocks: 1, threads: 3 }, o, x);
    same(o, Array.from(x, (v) => 2 + 0.5 + v));
  });

  dtest("switch on any value with any labels: switch (true), a float selector, labels computed and evaluated lazily, default in the middle", async ({ dev, same }) => {
    // The helper runs as plain JavaScript for the reference.
    function classify(v: number, lo: number, hi: number) {
      let r = 0, calls = 0;
      const mark = (x: number) => { calls++; return x; };
      switch (true) {
        case v < lo: r = 1; break;
        case v > hi: r = 2;
        case v === hi * 2: r += 10; break;
        default: r = 3;
      }
      switch (v) {
        case mark(lo): r += 100;
        case 0.5: r += 1000; break;
        default: r += 20000;
        case mark(hi): r += 300000;
      }
      let q = 0;
      switch (v * 2) { case 1: q = 1; break; case lo + hi: q = 2; break; }
      return r + calls * 1e6 + q * 1e7;
    }
    const k = kernel(function switches(o: Float32Array, x: Float32Array, lo: number, hi: number) {
      o[threadIdx.x] = classify(x[threadIdx.x], lo, hi);
    }, { scope: { classify } });
    const x = Float32Array.from([-1, 0.5, 2, 4, 8, 3, 1, 5]), o = poisonF32(8);
    await k.launch(dev, { blocks: 1, threads: 8 }, o, x, 1, 4);
    same(o, Array.from(x, (v) => classify(v, 1, 4)));
  });

  dtest("switch labels as JavaScript compares them: a duplicate label (the first wins), a label the selector's type cannot hold", async ({ dev, same }) => {
    // (4294967295 never equals an i32 and -1 never a u32: they wrapped onto each other before.)
    function pick(v: number, u: number) {
      let r = 0;
      switch (v) { case 1: r = 1; break; case 1: r = 2; break; case 4294967295: r = 3; break; case -1: r = 4; break; default: r = 5; }
      switch (u >>> 0) { case -1: r += 10; break; case 4294967295: r += 20; break; }
      return r;
    }
    const k = kernel(function labelsCompared(o: Int32Array, x: Int32Array) { o[threadIdx.x] = pick(x[threadIdx.x], x[threadIdx.x]); }, { scope: { pick } });
    const x = Int32Array.from([1, -1, 7, 0]), o = poisonI32(4);
    await k.launch(dev, { blocks: 1, threads: 4 }, o, x);
    same(o, Array.from(x, (v) => pick(v, v)));
  });

  dtest("return from the kernel inside a switch inside a loop", async ({ dev, same }) => {
    const k = kernel(function retSwitchLoop(o: Int32Array) {
      const i = threadIdx.x;
      for (let j = 0; j < 10; j++) {
        switch (j) {
          case 3:
            if (i === 1) { o[i] = 33; return; }
            break;
          case 5:
            if (i === 2) { o[i] = 55; return; }
        }
      }
      o[i] = 99;
    });
    const o = poisonI32(4);
    await k.launch(dev, { blocks: 1, threads: 4 }, o);
    same(o, [99, 33, 55, 99]);
  });

  dtest("switch on scope-constant labels, negative labels and a u32 selector", async ({ dev, same }) => {
    const k = kernel(function switchLabels(a: Int32Array, u: Uint32Array, o: Int32Array) {
      const i = threadIdx.x;
      switch (a[i]) {
        case RED: o[i * 2] = 1; break;
        case GREEN: o[i * 2] = 2; break;
        case -1: o[i * 2] = 4; break;
        default: o[i * 2] = 3;
      }
      switch (u[i]) {
        case 4294967295: o[i * 2 + 1] = 10; break;
        case 0: o[i * 2 + 1] = 20; break;
        default: o[i * 2 + 1] = 30;
      }
    }, { scope: { RED: 5, GREEN: 7 } });
    const a = Int32Array.from([5, 7, 9, -1]), u = Uint32Array.from([4294967295, 0, 9, 2147483648]);
    const o = poisonI32(8);
    await k.launch(dev, { blocks: 1, threads: 4 }, a, u, o);
    same(o, [1, 10, 2, 20, 3, 30, 4, 30]);
  });
});

// =============================================================================================

describe("switch on integers", () => {
  dtest("switch on a u32 selector: fallthrough, default in the middle, labels above the i32 range", async ({ dev, same }) => {
    const k = kernel(function switchU32(u: Uint32Array, o: Int32Array) {
      const i = threadIdx.x;
      let r = 0;
      switch (u[i]) {
        case 0: r += 1;
        case 1: r += 2; break;
        default: r += 100;
        case 4294967295: r += 5; break;
        case 2147483648: r = 7;
        case 3: r += 9;
      }
      o[i] = r;
    });
    const u = Uint32Array.from([0, 1, 2, 3, 4294967295, 2147483648, 2147483647, 12345678]), o = poisonI32(8);
    await k.launch(dev, { blocks: 1, threads: 8 }, u, o);
    const ref = (v: number) => {
      let r = 0;
      switch (v) {
        case 0: r += 1;
        case 1: r += 2; break;
        default: r += 100;
        case 4294967295: r += 5; break;
        case 2147483648: r = 7;
        case 3: r += 9;
      }
      return r;
    };
    same(o, Array.from(u, ref));
  });

  dtest("switch on a u32 expression (x >>> 28) with grouped labels", async ({ dev, same }) => {
    const k = kernel(function switchShift(x: Int32Array, o: Int32Array) {
      const i = threadIdx.x;
      const v = x[i];
      let r = -1;
      switch (v >>> 28) {
        case 15: case 14: r = 1; break;
        case 0: r = 2;
        case 8: r += 3; break;
        case 7: { r = v & 255; break; }
        default: r = (v >>> 28) * 10;
      }
      o[i] = r;
    });
    const x = randFullI32(301, 64), o = poisonI32(64);
    x[0] = 5; x[1] = -1; x[2] = 0x7fffffff; x[3] = -2147483648;
    await k.launch(dev, { blocks: 1, threads: 64 }, x, o);
    const want = Array.from(x, (v) => {
      let r = -1;
      switch (v >>> 28) {
        case 15: case 14: r = 1; break;
        case 0: r = 2;
        case 8: r += 3; break;
        case 7: { r = v & 255; break; }
        default: r = (v >>> 28) * 10;
      }
      return r;
    });
    same(o, want);
  });

  dtest("switch inside a loop, with continue and break inside the cases", async ({ dev, same }) => {
    const k = kernel(function switchLoop(u: Uint32Array, o: Int32Array) {
      const i = threadIdx.x;
      let acc = i;
      for (let k = 0; k < 12; k++) {
        switch ((u[i] + k) % 5) {
          case 0: continue;
          case 1: acc += k; break;
          case 2: acc *= 3;
          default: acc ^= k;
            if (acc > 49999) break;
            acc += 2;
            break;
          case 4:
            if (k > 9) continue;
            acc -= 7;
        }
        acc += 1;
      }
      o[i] = acc;
    });
    const u = randFullU32(302, 40), o = poisonI32(40);
    await k.launch(dev, { blocks: 1, threads: 40 }, u, o);
    const want = Array.from(u, (uv, i) => {
      let acc = i;
      for (let k = 0; k < 12; k++) {
        switch (((uv + k) >>> 0) % 5) {
          case 0: continue;
          case 1: acc += k; break;
          case 2: acc *= 3;
          default: acc ^= k;
            if (acc > 49999) break;
            acc += 2;
            break;
          case 4:
            if (k > 9) continue;
            acc -= 7;
        }
        acc += 1;
      }
      return acc;
    });
    same(o, want);
  });

  // Each in one thread on (a, o, n), as plain JavaScript runs it here (the reference).
  const methods: Record<string, (a: Float32Array, o: Float32Array, n: number) => void> = {
    forEach(a, o, n) { let s = 0; a.forEach((v) => { s += v; }); o[0] = s; let c = 0; a.forEach((v, i) => { if (v > n) c += i; }); o[1] = c; },
    reduce(a, o, n) { o[0] = a.reduce((s, v) => s + v, 0); o[1] = a.reduce((m, v) => Math.max(m, v)); o[2] = a.reduceRight((s, v, i) => s * 0.5 + v * i, n); o[3] = a.subarray(n).reduce((s, v) => s + v, 100); },
    finds(a, o, n) { o[0] = a.findIndex((v) => v > n); o[1] = (a as unknown as { findLastIndex(f: (v: number) => boolean): number }).findLastIndex((v) => v < n); o[2] = a.some((v) => v === n) ? 1 : 0; o[3] = a.every((v) => v > -10) ? 1 : 0; },
    search(a, o, n) { o[0] = a.indexOf(n); o[1] = a.lastIndexOf(2); o[2] = a.includes(n) ? 1 : 0; const p = new Float32Array(4); p[1] = NaN; o[3] = (p.includes(NaN) ? 10 : 0) + (p.indexOf(NaN) + 1); },
    fill(_a, o, n) { const p = new Int32Array(6); p.fill(7); p.fill(n, 2); p.fill(-1, -2, -1); o[0] = p[0] + p[2] * 10 + p[4] * 100 + p[5] * 1000; const q = new Float32Array(3).fill(0.5); o[1] = q[2]; },
    emptyReduce(a, o, n) { o[0] = a.subarray(n).reduce((s, v) => s + v); },
  };
  dtest("arrays' methods that read or fill them in place, as loops: forEach (its callback assigning what it captures), reduce, some, every, the finds, indexOf, includes, fill", async ({ dev }) => {
    const a = Float32Array.from([3, 1.5, 4, 2, 0.5]);
    for (const [name, f] of Object.entries(methods)) {
      const k = kernel(f);
      for (const n of [0, 2, 4, 5]) {
        const o = new Float32Array(4).fill(-9), want = new Float32Array(4).fill(-9);
        let jsError: string | null = null;
        try { f(a, want, n); } catch (e) { jsError = (e as Error).message; }
        const r = await k.launch(dev, { blocks: 1, threads: 1 }, a, o, n).then(() => null, (e: unknown) => e);
        if (jsError) {
          assert.ok(r instanceof KernelError && r.kind === "exception" && r.message.includes(`TypeError: ${jsError}`), `${name}(n = ${n}) throws as JavaScript does (${jsError}): ${r}`);
          continue;
        }
        assert.equal(r, null, `${name}(n = ${n}): ${r}`);
        for (let i = 0; i < 4; i++) assert.ok(Math.abs(o[i] - want[i]) <= 1e-5 * Math.max(1, Math.abs(want[i])), `${name}(n = ${n})[${i}]: ${o[i]}, JavaScript ${want[i]}`);
      }
    }
    // A callback named (a scope function, a local one) rather than written where it is passed.
    function above2(v: number) { return v > 2; }
    const named = kernel(function named(a: Float32Array, o: Float32Array, n: number) { o[0] = a.findIndex(above2); const f = (v: number) => v * n; let s = 0; a.forEach((v) => { s += f(v); }); o[1] = s; }, { scope: { above2 } });
    const o = new Float32Array(2);
    await named.launch(dev, { blocks: 1, threads: 1 }, a, o, 2);
    assert.deepEqual(Array.from(o), [0, 22]);
    // On an array of objects, a shared array, nested, in a helper with the callback's third argument.
    const pts = structArray({ x: Float32Array, y: Float32Array }, 4);
    for (let i = 0; i < 4; i++) pts[i] = { x: i, y: i * 2 };
    function weighted(x: Float32Array) { let s = 0; x.forEach((v, i, arr) => { s += v * arr.length + i; }); return s; }
    const k = kernel(function manyArrays(x: Float32Array, out: Float32Array, p: { x: number; y: number }[]) {
      const t = threadIdx.x;
      const sh = shared(Float32Array, 8);
      sh[t] = x[t];
      syncthreads();
      let s = 0;
      p.forEach((q) => { s += q.x + q.y; });
      let nested = 0;
      sh.forEach((v) => { x.forEach((w) => { nested += v * w; }); });
      const g = new Float32Array(4);
      g.fill(t);
      out[t] = s + sh.reduce((m, v) => m + v, 0) + weighted(x) + nested + g.reduce((u, v) => u + v);
    }, { scope: { weighted } });
    const x = Float32Array.from([1, 2, 3, 4, 5, 6, 7, 8]), out = new Float32Array(8);
    await k.launch(dev, { blocks: 1, threads: 8 }, x, out, pts);
    const sum = x.reduce((u, v) => u + v);
    assert.deepEqual(Array.from(out), Array.from({ length: 8 }, (_v, t) => 18 + sum + weighted(x) + sum * sum + 4 * t));
  });
});
