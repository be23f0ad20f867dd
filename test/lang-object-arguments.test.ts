// Objects as kernel arguments (issue #32, item 2): CUDA's structs passed by value (Rodinia's
// `par_str d_par_gpu`, `dim_str d_dim_gpu`) are objects of numbers, read-only in the kernel; and
// the objects of a plain Array of objects may hold objects and fixed-length Arrays of numbers or
// of objects (lavaMD's `box_str` with its `nei_str nei[26]`), read a field at a time
// (`boxes[i].nei[k].number`), each index checked. A number read from a plain Array's objects is
// an f64 (JavaScript's number): it indexes an array where it is an integer, as in JavaScript.
// Each result is compared with the same code run as plain JavaScript over the same arguments.
//
// Every test runs on each device of the matrix (helpers.ts `dtest`; the CPU run also compiles
// each kernel to PTX for ptxas and to SPIR-V for spirv-val).

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { device, kernel, shared, syncthreads, blockIdx, threadIdx } from "../src/index.ts";
import { dtest, openDevices, kernelError, rejectsCompile } from "./helpers.ts";

await openDevices();

type Params = { alpha: number; grid: { n: number; scale: number }; on: boolean };

function scaled(out: Float32Array, p: Params, xs: Float32Array) {
  const t = threadIdx.x;
  if (t < p.grid.n) out[t] = p.on ? xs[t] * p.alpha + p.grid.scale : -1;
}

describe("objects as arguments", () => {
  dtest("an object of numbers, booleans and objects: its fields read in the kernel and its helpers; a field's new type specializes again", async ({ dev, same }) => {
    const k = kernel(function objectArg(out: Float32Array, p: Params, xs: Float32Array) { scaled(out, p, xs); }, { scope: { scaled } });
    const xs = Float32Array.from({ length: 16 }, (_, i) => i * 0.75);
    for (const p of [{ alpha: 0.5, grid: { n: 12, scale: 3 }, on: true }, { alpha: 2, grid: { n: 16, scale: 0.25 }, on: true }, { alpha: 2, grid: { n: 5, scale: 1 }, on: false }]) {
      const out = new Float32Array(16), want = new Float32Array(16);
      await k.launch(dev, { blocks: 1, threads: 16 }, out, p, xs);
      for (let t = 0; t < 16; t++) if (t < p.grid.n) want[t] = p.on ? xs[t] * Math.fround(p.alpha) + Math.fround(p.grid.scale) : -1;
      same(out, want);
    }
  });

  test("a field stored into is refused (every thread shares the object); what is not an object of numbers is an argument error", async () => {
    const k = kernel(function writesParam(out: Float32Array, p: { alpha: number }) { p.alpha = 2; out[0] = p.alpha; });
    await rejectsCompile(k.compile({ target: "js", args: [new Float32Array(1), { alpha: 1 }] }), "invalid-assignment", /kernel parameter 'p' is an object every thread shares.*its fields are read-only in the kernel/);
    const r = kernel(function readsParam(out: Float32Array, p: { a: number }) { out[0] = p.a; });
    for (const bad of [{ a: "1" }, { a: null }, { a: [1] }, { a: 1n }])
      await rejectsCompile(r.compile({ target: "js", args: [new Float32Array(1), bad] }), "argument-type", /argument 'p' of kernel 'readsParam' got .*objects of numbers/);
    // compile() takes object types by name too.
    const a = await r.compile({ target: "js", types: ["f32[]", "{ a: f32 }"] });
    assert.equal(a.params.length, 2);
  });
});

type Cell = { id: number; pos: { x: number; y: number }; w: number[]; nbr: { id: number; d: number }[] };

function cells(n: number): Cell[] {
  return Array.from({ length: n }, (_, i) => ({
    id: i, pos: { x: i * 0.5, y: -i }, w: [i, i + 0.25, 2 * i],
    nbr: [0, 1, 2, 3].map((k) => ({ id: (i + k + 1) % n, d: k * 1.5 })),
  }));
}

/** Reads through objects, fixed-length Arrays of numbers and of objects; stores into number fields. */
function gather(out: Float64Array, cs: Cell[], i: number) {
  let s = cs[i].pos.x - cs[i].pos.y + cs.length;
  for (let k = 0; k < cs[i].nbr.length; k++) {
    const j = cs[i].nbr[k].id;                   // an f64 used as an index
    s += cs[j].w[k % cs[j].w.length] * cs[i].nbr[k].d;
  }
  out[i] = s;
}

describe("arrays of objects holding objects and arrays", () => {
  dtest("fields of objects, fixed-length Arrays of numbers and of objects, their lengths, f64 indices", async ({ dev, wgsl, same }) => {
    const k = kernel(function nested(out: Float64Array, cs: Cell[]) { gather(out, cs, threadIdx.x); }, { scope: { gather } });
    const cs = cells(10);
    const out = new Float64Array(10);
    if (wgsl) { await rejectsCompile(k.launch(dev, { blocks: 1, threads: 10 }, out, cs), "unsupported-type", /the wgsl target has no f64/); return; }
    await k.launch(dev, { blocks: 1, threads: 10 }, out, cs);
    const want = new Float64Array(10);
    for (let i = 0; i < 10; i++) gather(want, cs, i);
    same(out, want);
  });

  dtest("an index past a fixed-length Array inside an object, and an index that is not an integer, are bounds KernelErrors", async ({ dev, wgsl }) => {
    if (wgsl) return;
    const past = kernel(function pastNbr(out: Float64Array, cs: Cell[], k: number) { out[0] = cs[1].nbr[k].d + cs[0].w[k - 3]; });
    const e = await kernelError(past.launch(dev, { blocks: 1, threads: 1 }, new Float64Array(1), cells(3), 4), "bounds");
    assert.match(e.message, /index 4 out of bounds for view 'cs\[…\]\.nbr' of length 4/);
    const frac = kernel(function fracIndex(out: Float64Array, cs: Cell[]) { out[0] = out[cs[0].pos.x]; });
    const cs = cells(3);
    cs[0].pos.x = 0.5;
    const f = await kernelError(frac.launch(dev, { blocks: 1, threads: 1 }, new Float64Array(1), cs), "bounds");
    assert.match(f.message, /a number that is not an integer from 0 to 2147483647/);
  });

  test("an object holding arrays is read a field at a time; stores reach number fields only", async () => {
    const whole = kernel(function wholeCell(out: Float64Array, cs: Cell[]) { const c = cs[0]; out[0] = c.id; });
    await rejectsCompile(whole.compile({ target: "js", args: [new Float64Array(1), cells(2)] }), "unsupported-type", /the objects of 'cs' hold arrays \('nbr'\): such an object is not a value in kernels/);
    const store = kernel(function storeNested(cs: Cell[]) { cs[0].pos = { x: 1, y: 2 }; });
    await rejectsCompile(store.compile({ target: "js", args: [cells(2)] }), "invalid-assignment", /field 'pos' of the objects of 'cs' holds an object/);
    const deep = kernel(function storeDeep(cs: Cell[]) { cs[0].nbr[1].d = 3; });
    await rejectsCompile(deep.compile({ target: "js", args: [cells(2)] }), "invalid-assignment", /stores into the objects and arrays inside the objects of 'cs' are not supported/);
  });

  test("Arrays whose objects' inner Arrays differ in length, are empty or have holes are argument errors", async () => {
    const k = kernel(function readsW(out: Float64Array, cs: Cell[]) { out[0] = cs[0].w[0]; });
    const cs = cells(3);
    cs[2].w.push(1);
    await rejectsCompile(k.compile({ target: "js", args: [new Float64Array(1), cs] }), "unsupported-array", /not objects of one shape/);
    const empty = cells(2);
    empty[0].w = []; empty[1].w = [];
    await rejectsCompile(k.compile({ target: "js", args: [new Float64Array(1), empty] }), "unsupported-array", /not objects of one shape/);
    // Holes (which Array's every() would skip) are not numbers or objects: refused, never filled in.
    const holes = cells(3);
    delete holes[1].w[1];
    const outerHole = cells(3);
    delete (outerHole as unknown[])[1];
    const innerHole = cells(3);
    delete (innerHole[2].nbr as unknown[])[0];
    for (const bad of [holes, outerHole, innerHole])
      await rejectsCompile(k.compile({ target: "js", args: [new Float64Array(1), bad] }), "unsupported-array", /not objects of one shape/);
    assert.equal(1 in holes[1].w, false);
  });
});

describe("arrays of objects holding arrays, passed on", () => {
  test("an Array of objects inside an object is not passed to a helper; an Array of numbers inside one is, as a view", async () => {
    const sum = (xs: ArrayLike<number>) => { let s = 0; for (let i = 0; i < xs.length; i++) s += xs[i]; return s; };
    const firstId = (ns: { id: number }[]) => ns[0].id;
    const k = kernel(function passesNbr(out: Float64Array, cs: Cell[]) { out[0] = firstId(cs[1].nbr); }, { scope: { firstId } });
    await rejectsCompile(k.compile({ target: "js", args: [new Float64Array(1), cells(2)] }), "unsupported-type", /'cs\[…\]\.nbr', an array of objects inside an object, cannot be passed to a helper/);
    const v = kernel(function passesW(out: Float64Array, cs: Cell[]) { out[0] = sum(cs[1].w); }, { scope: { sum } });
    const out = new Float64Array(1), cs = cells(3);
    await v.launch(await device("cpu"), { blocks: 1, threads: 1 }, out, cs);
    assert.equal(out[0], sum(cs[1].w));
  });
});

// ---- Rodinia lavaMD (cuda/lavaMD/kernel/kernel_gpu_cuda.cu), as written ------------------------
// Its structs passed by value (par_str, dim_str) are objects; its boxes (box_str, with nei_str
// nei[26]) and particles (FOUR_VECTOR) plain Arrays of objects; `rA = &d_rv_gpu[first_i]` is the
// index first_i (a JavaScript Array has no views); `__shared__ FOUR_VECTOR rA_shared[100]` is
// shared(Array, 100); fp is float, so the charges are a Float32Array.

const NUMBER_PAR_PER_BOX = 100, NUMBER_THREADS = 128;
type FourVector = { v: number; x: number; y: number; z: number };
type Nei = { x: number; y: number; z: number; number: number; offset: number };
type Box = { x: number; y: number; z: number; number: number; offset: number; nn: number; nei: Nei[] };
const DOT = (A: Record<string, number>, B: Record<string, number>) => A.x * B.x + A.y * B.y + A.z * B.z;

const kernel_gpu_cuda = kernel(function kernel_gpu_cuda(d_par_gpu: { alpha: number }, d_dim_gpu: { number_boxes: number }, d_box_gpu: Box[], d_rv_gpu: FourVector[], d_qv_gpu: Float32Array, d_fv_gpu: FourVector[]) {
  const bx = blockIdx.x;
  const tx = threadIdx.x;
  let wtx = tx;
  if (bx < d_dim_gpu.number_boxes) {
    const a2 = 2.0 * d_par_gpu.alpha * d_par_gpu.alpha;
    let first_i;
    const rA_shared = shared(Array, 100);
    let pointer;
    let k = 0;
    let first_j;
    let j = 0;
    const rB_shared = shared(Array, 100);
    const qB_shared = shared(Float32Array, 100);
    let r2, u2, vij, fs, fxij, fyij, fzij;
    const d = { x: 0, y: 0, z: 0 };
    first_i = d_box_gpu[bx].offset;
    while (wtx < NUMBER_PAR_PER_BOX) {
      rA_shared[wtx] = d_rv_gpu[first_i + wtx];
      wtx = wtx + NUMBER_THREADS;
    }
    wtx = tx;
    syncthreads();
    for (k = 0; k < (1 + d_box_gpu[bx].nn); k++) {
      if (k == 0) {
        pointer = bx;
      } else {
        pointer = d_box_gpu[bx].nei[k - 1].number;
      }
      first_j = d_box_gpu[pointer].offset;
      while (wtx < NUMBER_PAR_PER_BOX) {
        rB_shared[wtx] = d_rv_gpu[first_j + wtx];
        qB_shared[wtx] = d_qv_gpu[first_j + wtx];
        wtx = wtx + NUMBER_THREADS;
      }
      wtx = tx;
      syncthreads();
      while (wtx < NUMBER_PAR_PER_BOX) {
        for (j = 0; j < NUMBER_PAR_PER_BOX; j++) {
          r2 = rA_shared[wtx].v + rB_shared[j].v - DOT(rA_shared[wtx], rB_shared[j]);
          u2 = a2 * r2;
          vij = Math.exp(-u2);
          fs = 2 * vij;
          d.x = rA_shared[wtx].x - rB_shared[j].x;
          fxij = fs * d.x;
          d.y = rA_shared[wtx].y - rB_shared[j].y;
          fyij = fs * d.y;
          d.z = rA_shared[wtx].z - rB_shared[j].z;
          fzij = fs * d.z;
          d_fv_gpu[first_i + wtx].v += qB_shared[j] * vij;
          d_fv_gpu[first_i + wtx].x += qB_shared[j] * fxij;
          d_fv_gpu[first_i + wtx].y += qB_shared[j] * fyij;
          d_fv_gpu[first_i + wtx].z += qB_shared[j] * fzij;
        }
        wtx = wtx + NUMBER_THREADS;
      }
      wtx = tx;
      syncthreads();
    }
  }
}, { scope: { NUMBER_PAR_PER_BOX, NUMBER_THREADS, DOT } });

/** lavaMD's main: boxes1d³ boxes, each with its neighbours (26 slots, nn used), and random particles. */
function lavaInput(boxes1d: number) {
  const boxes: Box[] = [];
  for (let i = 0; i < boxes1d; i++) for (let j = 0; j < boxes1d; j++) for (let k = 0; k < boxes1d; k++) {
    const number = boxes.length;
    const nei: Nei[] = [];
    for (let l = -1; l < 2; l++) for (let m = -1; m < 2; m++) for (let n = -1; n < 2; n++) {
      const x = k + n, y = j + m, z = i + l;
      if (x >= 0 && y >= 0 && z >= 0 && x < boxes1d && y < boxes1d && z < boxes1d && !(l === 0 && m === 0 && n === 0)) {
        const nb = z * boxes1d * boxes1d + y * boxes1d + x;
        nei.push({ x, y, z, number: nb, offset: nb * NUMBER_PAR_PER_BOX });
      }
    }
    const nn = nei.length;
    while (nei.length < 26) nei.push({ x: 0, y: 0, z: 0, number: 0, offset: 0 });
    boxes.push({ x: k, y: j, z: i, number, offset: number * NUMBER_PAR_PER_BOX, nn, nei });
  }
  let seed = 2;
  const rand = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
  const n = boxes.length * NUMBER_PAR_PER_BOX;
  const rv = Array.from({ length: n }, () => ({ v: (rand() * 9 + 1) / 10, x: (rand() * 9 + 1) / 10, y: (rand() * 9 + 1) / 10, z: (rand() * 9 + 1) / 10 }));
  const qv = Float32Array.from({ length: n }, () => (rand() * 9 + 1) / 10);
  const fv = Array.from({ length: n }, () => ({ v: 0, x: 0, y: 0, z: 0 }));
  return { boxes, rv, qv, fv };
}

describe("ports with objects", () => {
  dtest("Rodinia lavaMD kernel_gpu_cuda (structs by value, boxes holding nei_str nei[26], FOUR_VECTOR arrays in shared memory)", async ({ kind, dev, wgsl, same }) => {
    const { boxes, rv, qv, fv } = lavaInput(2);
    const args = [{ alpha: 0.5 }, { number_boxes: boxes.length }, boxes, rv, qv, fv] as const;
    const grid = { blocks: boxes.length, threads: NUMBER_THREADS };
    if (wgsl) { await rejectsCompile(kernel_gpu_cuda.launch(dev, grid, ...args), "unsupported-type", /the wgsl target has no f64/); return; }
    await kernel_gpu_cuda.launch(dev, grid, ...args);
    // Rodinia's kernel_cpu, in plain JavaScript: each home box's particles against its own and its neighbours'.
    const want = rv.map(() => ({ v: 0, x: 0, y: 0, z: 0 }));
    const a2 = 2 * 0.5 * 0.5;
    for (const home of boxes) for (let k = 0; k < 1 + home.nn; k++) {
      const first_j = boxes[k === 0 ? home.number : home.nei[k - 1].number].offset;
      for (let i = 0; i < NUMBER_PAR_PER_BOX; i++) for (let j = 0; j < NUMBER_PAR_PER_BOX; j++) {
        const A = rv[home.offset + i], B = rv[first_j + j], q = qv[first_j + j], f = want[home.offset + i];
        const vij = Math.exp(-(a2 * (A.v + B.v - DOT(A, B)))), fs = 2 * vij;
        f.v += q * vij; f.x += q * (fs * (A.x - B.x)); f.y += q * (fs * (A.y - B.y)); f.z += q * (fs * (A.z - B.z));
      }
    }
    // Exact on the CPU device; elsewhere the device's libm exp may differ from V8's in the last bit.
    for (const c of ["v", "x", "y", "z"] as const) {
      if (kind === "cpu") { same(fv.map((f) => f[c]), want.map((f) => f[c]), c); continue; }
      const worst = Math.max(...fv.map((f, i) => Math.abs(f[c] - want[i][c]) / Math.max(1, Math.abs(want[i][c]))));
      assert.ok(worst < 1e-12, `${c}: relative error ${worst}`);
    }
  });
});

// ---- Rodinia b+tree (cuda/b+tree/kernel/kernel_gpu_cuda.cu, findK), as written -----------------
// Its knode (`int location; int indices[DEFAULT_ORDER + 1]; int keys[DEFAULT_ORDER + 1]; bool
// is_leaf; int num_keys;`) is an object with two Arrays and a boolean; its records ({ value })
// a plain Array of objects; its `long *` arrays Float64Arrays (JavaScript's numbers).

const DEFAULT_ORDER = 4;
type Knode = { location: number; indices: number[]; keys: number[]; is_leaf: boolean; num_keys: number };

const findK = kernel(function findK(height: number, knodesD: Knode[], knodes_elem: number, recordsD: { value: number }[], currKnodeD: Float64Array, offsetD: Float64Array, keysD: Int32Array, ansD: { value: number }[]) {
  // private thread IDs
  const thid = threadIdx.x;
  const bid = blockIdx.x;
  // processtree levels
  let i;
  for (i = 0; i < height; i++) {
    // if value is between the two keys
    if ((knodesD[currKnodeD[bid]].keys[thid]) <= keysD[bid] && (knodesD[currKnodeD[bid]].keys[thid + 1] > keysD[bid])) {
      if (knodesD[offsetD[bid]].indices[thid] < knodes_elem) {
        offsetD[bid] = knodesD[offsetD[bid]].indices[thid];
      }
    }
    syncthreads();
    // set for next tree level
    if (thid == 0) {
      currKnodeD[bid] = offsetD[bid];
    }
    syncthreads();
  }
  // At this point, we have a candidate leaf node which may contain the target record.
  if (knodesD[currKnodeD[bid]].keys[thid] == keysD[bid]) {
    ansD[bid].value = recordsD[knodesD[currKnodeD[bid]].indices[thid]].value;
  }
});

/** A root over four leaves of four keys each (keys 0..15, record k holds 10k + 1); queries. */
function btree() {
  const big = 1 << 30;
  const knodes: Knode[] = [{ location: 0, indices: [1, 2, 3, 4, 0], keys: [0, 4, 8, 12, big], is_leaf: false, num_keys: 4 }];
  for (let j = 0; j < 4; j++) knodes.push({ location: j + 1, indices: [4 * j, 4 * j + 1, 4 * j + 2, 4 * j + 3, 0], keys: [4 * j, 4 * j + 1, 4 * j + 2, 4 * j + 3, big], is_leaf: true, num_keys: 4 });
  const records = Array.from({ length: 16 }, (_, k) => ({ value: 10 * k + 1 }));
  const keys = Int32Array.from({ length: 12 }, (_, b) => (b * 7 + 3) % 16);
  return { knodes, records, keys };
}

describe("ports with objects holding booleans", () => {
  dtest("Rodinia b+tree findK (knode with indices[], keys[] and bool is_leaf; records as objects)", async ({ dev, wgsl }) => {
    const { knodes, records, keys } = btree();
    const n = keys.length, ans = Array.from({ length: n }, () => ({ value: -1 }));
    const args = [1, knodes, knodes.length, records, new Float64Array(n), new Float64Array(n), keys, ans] as const;
    const grid = { blocks: n, threads: DEFAULT_ORDER };
    if (wgsl) { await rejectsCompile(findK.launch(dev, grid, ...args), "unsupported-type", /the wgsl target has no f64/); return; }
    await findK.launch(dev, grid, ...args);
    assert.deepEqual(ans.map((a) => a.value), Array.from(keys, (k) => 10 * k + 1));
    // Written back as they were: the booleans stay booleans.
    assert.deepEqual(knodes.map((k) => k.is_leaf), [false, true, true, true, true]);
  });

  test("a boolean field reads as a boolean and takes booleans only", async () => {
    type Flag = { on: boolean; n: number };
    const k = kernel(function flags(out: Float64Array, fs: Flag[]) {
      const t = threadIdx.x;
      out[t] = (fs[t].on === true ? 100 : 0) + (fs[t].on ? 10 : 0) + fs[t].n;
      fs[t].on = !fs[t].on && fs[t].n > 1;
    });
    const fs = [{ on: true, n: 1 }, { on: false, n: 2 }, { on: false, n: 0 }];
    const out = new Float64Array(3);
    await k.launch(await device("cpu"), { blocks: 1, threads: 3 }, out, fs);
    assert.deepEqual(Array.from(out), [111, 2, 0]);
    assert.deepEqual(fs.map((f) => f.on), [false, true, false]);
    const bad = kernel(function storesNumber(fs: Flag[]) { (fs[0] as { on: unknown }).on = 1; });
    await rejectsCompile(bad.compile({ target: "js", args: [fs] }), "type", /field 'on' of the objects of 'fs' holds booleans; this stores a number/);
    const op = kernel(function addsToFlag(fs: Flag[]) { (fs[0] as unknown as { on: number }).on += 1; });
    await rejectsCompile(op.compile({ target: "js", args: [fs] }), "type", /field 'on' of the objects of 'fs' holds booleans; this stores the result of '\+=', a number/);
  });
});

describe("plain Arrays of numbers as arguments", () => {
  dtest("an Array of numbers is an f64[]: read, written back into the Array, its length; one Array passed twice is one array", async ({ dev, wgsl }) => {
    const k = kernel(function scaleInto(xs: number[], ys: number[], f: number) {
      const t = threadIdx.x;
      if (t < xs.length) ys[t] = xs[t] * f + ys.length;
    });
    const xs = [0.1, 2, -3.5, 1e300, 7], ys = [0, 0, 0, 0, 0];
    if (wgsl) { await rejectsCompile(k.launch(dev, { blocks: 1, threads: 8 }, xs, ys, 2), "unsupported-type", /the wgsl target has no f64/); return; }
    await k.launch(dev, { blocks: 1, threads: 8 }, xs, ys, 2);
    assert.deepEqual(ys, xs.map((x) => x * 2 + 5));
    assert.deepEqual(xs, [0.1, 2, -3.5, 1e300, 7]);
    // The same Array as both arguments: a thread's store through one is what it reads through the other.
    const alias = kernel(function aliasNumbers(a: number[], b: number[], out: Float64Array) {
      const t = threadIdx.x;
      a[t] += 0.5;
      out[t] = b[t];
    });
    const zs = [1, 2, 3], out = new Float64Array(3);
    await alias.launch(dev, { blocks: 1, threads: 3 }, zs, zs, out);
    assert.deepEqual(Array.from(out), [1.5, 2.5, 3.5]);
    assert.deepEqual(zs, [1.5, 2.5, 3.5]);
  });

  dtest("one Array of objects passed twice is one array of objects", async ({ dev, wgsl }) => {
    if (wgsl) return;
    const k = kernel(function bump(a: { v: number }[], b: { v: number }[], out: Float64Array) {
      const t = threadIdx.x;
      a[t].v += 1;
      out[t] = b[t].v;
    });
    const ps = [{ v: 1 }, { v: 2 }], out = new Float64Array(2);
    await k.launch(dev, { blocks: 1, threads: 2 }, ps, ps, out);
    assert.deepEqual(Array.from(out), [2, 3]);
    assert.deepEqual(ps, [{ v: 2 }, { v: 3 }]);
  });

  test("an Array that is not all numbers is refused with what kernels take", async () => {
    const k = kernel(function reads(out: Float64Array, xs: number[]) { out[0] = xs[0]; });
    for (const bad of [[1, "2"], [true, false], [1, , 3]])
      await rejectsCompile(k.compile({ target: "js", args: [new Float64Array(1), bad] }), "unsupported-array", /an Array whose elements are not all numbers, which kernels do not take/);
  });
});
