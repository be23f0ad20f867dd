// Arrays of objects as kernel arguments (issue #32, item 2): CUDA's `float2 *d_Call`, `uint4 *img`.
// A plain JavaScript Array of objects of one shape (number fields: f64, JavaScript's numbers; the
// fields are written back into the objects after the launch), or a struct array
// (`structArray({ x: Float32Array, y: Float32Array }, n)`: one typed array per field in one
// ArrayBuffer, read as objects, passed as it is). In the kernel `a[i].x`, `a[i].x op= v`,
// `a[i].x++`, `a[i] = { x, y }`, `const p = a[i]` (a copy: the sharing rules apply) and
// `a.length` mean what they mean in JavaScript, each element access bounds-checked. Each result
// is compared with the same code run as plain JavaScript over the same arguments.
//
// Every test runs on each device of the matrix (helpers.ts `dtest`; the CPU run also compiles
// each kernel to PTX for ptxas and to SPIR-V for spirv-val).

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { kernel, structArray, deviceStructArray, shared, syncthreads, subgroupLaneId, subgroupShuffleUp, subgroupShuffleXor, threadIdx, blockIdx, blockDim } from "../src/index.ts";
import { dtest, openDevices, kernelError, rejectsCompile } from "./helpers.ts";

await openDevices();

type P = { x: number; y: number };
type Body = { m: number; vx: number; vy: number };

/** A helper taking arrays of objects: the kernel calls it, and so does the plain-JS reference. */
function step(pos: ArrayLike<P> & { [i: number]: P }, bodies: ArrayLike<Body> & { [i: number]: Body }, out: ArrayLike<P> & { [i: number]: P }, i: number) {
  const p = pos[i];                            // a copy of the element (nothing assigns pos's objects' fields)
  out[i] = { x: p.x + bodies[i].vx, y: p.y + bodies[i].vy };
  out[i].x *= bodies[i].m;
  out[i].y += pos.length;
  bodies[i].m++;
  if (i + 1 < bodies.length) bodies[i].vx = pos[i + 1].x * 2 + bodies[i].vy;
}

describe("arrays of objects", () => {
  dtest("struct arrays: fields read and written, whole elements, compound and ++, lengths, through a helper", async ({ dev, same }) => {
    const n = 40;
    const make = () => {
      const pos = structArray({ x: Float32Array, y: Float32Array }, n), bodies = structArray({ m: Int32Array, vx: Float32Array, vy: Float32Array }, n);
      for (let i = 0; i < n; i++) { pos[i] = { x: i * 0.5, y: -i }; bodies[i] = { m: i % 3, vx: i * 0.25, vy: 1 - i }; }
      return { pos, bodies, out: structArray({ x: Float32Array, y: Float32Array }, n) };
    };
    const k = kernel(function steps(pos: typeof got.pos, bodies: typeof got.bodies, out: typeof got.out, n: number) {
      const i = blockIdx.x * blockDim.x + threadIdx.x;
      if (i < n) step(pos, bodies, out, i);
    }, { scope: { step } });
    const got = make(), want = make();
    await k.launch(dev, { blocks: 2, threads: 32 }, got.pos, got.bodies, got.out, n);
    for (let i = 0; i < n; i++) step(want.pos, want.bodies, want.out, i);
    same(got.out.fields.x, want.out.fields.x);
    same(got.out.fields.y, want.out.fields.y);
    same(got.bodies.fields.m, want.bodies.fields.m);
    same(got.bodies.fields.vx, want.bodies.fields.vx);
  });

  dtest("plain Arrays of objects: f64 fields, written back into the objects after the launch", async ({ dev, wgsl }) => {
    const k = kernel(function scaleAll(a: P[], s: number) {
      const i = threadIdx.x;
      if (i < a.length) { a[i].x = a[i].x * s + 0.5; a[i].y = -a[i].y; }
    });
    const a = Array.from({ length: 6 }, (_, i) => ({ x: i, y: i / 3 }));
    if (wgsl) { await rejectsCompile(k.launch(dev, { blocks: 1, threads: 8 }, a, 3), "unsupported-type", /the wgsl target has no f64/); return; }
    await k.launch(dev, { blocks: 1, threads: 8 }, a, 3);
    assert.deepEqual(a, Array.from({ length: 6 }, (_, i) => ({ x: i * 3 + 0.5, y: -(i / 3) })));
  });

  dtest("a struct array kept on the device between launches (deviceStructArray), read back", async ({ dev, same }) => {
    const k = kernel(function accumulate(a: ReturnType<typeof pairs>, by: number) {
      const i = threadIdx.x;
      a[i].x += by;
      a[i].y = a[i].x * 2;
    });
    const pairs = () => structArray({ x: Float32Array, y: Int32Array }, 8);
    const host = pairs();
    for (let i = 0; i < 8; i++) host[i] = { x: i, y: 0 };
    const onDev = deviceStructArray(dev, host);
    for (let r = 1; r <= 3; r++) await k.launch(dev, { blocks: 1, threads: 8 }, onDev, r * 0.5);
    const back = await onDev.read();
    same(back.fields.x, Array.from({ length: 8 }, (_, i) => i + 3));
    same(back.fields.y, Array.from({ length: 8 }, (_, i) => (i + 3) * 2));
    same(host.fields.x, Array.from({ length: 8 }, (_, i) => i), "the host's struct array is left as it was");
  });

  dtest("an element out of range is a bounds KernelError", async ({ dev }) => {
    const k = kernel(function reads(out: Float32Array, a: ReturnType<typeof pairs>, j: number) { out[0] = a[j].y; });
    const pairs = () => structArray({ x: Float32Array, y: Float32Array }, 4);
    const e = await kernelError(k.launch(dev, { blocks: 1, threads: 1 }, new Float32Array(1), pairs(), 4), "bounds");
    assert.match(e.message, /index 4 out of bounds/);
  });

  dtest("assigning a field of an element out of range ends the thread at that element, before the value is computed (JavaScript reads the element first)", async ({ dev }) => {
    const k = kernel(function moves(a: ReturnType<typeof pairs>, i: number, j: number) { a[i].x = a[j].y + 1; });
    const pairs = () => structArray({ x: Float32Array, y: Float32Array }, 4);
    const e = await kernelError(k.launch(dev, { blocks: 1, threads: 1 }, pairs(), 5, 7), "bounds");
    assert.match(e.message, /index 5 out of bounds/, "a[i] (i = 5) is read before a[j] (j = 7)");
  });
});

describe("shared and private arrays of objects", () => {
  dtest("shared(Array, n) and new Array(n) hold objects of the shape stored into them (fields widen as variables do)", async ({ dev, same }) => {
    const k = kernel(function objectsInMemory(out: Float32Array, src: ReturnType<typeof vs>) {
      const t = threadIdx.x;
      const s = shared(Array, 8);            // lavaMD's __shared__ FOUR_VECTOR rA_shared[100]
      const p = new Array(4);
      s[t] = { v: src[t].v * 2, x: t };
      syncthreads();
      const o = s[(t + 1) % 8];
      p[t & 3] = { a: o.v, b: 1 };
      p[t & 3].b += 0.5;                     // b was an integer: it holds 1.5 now, as in JavaScript
      out[t] = o.v + o.x + p[t & 3].a + p[t & 3].b + p.length;
    });
    const vs = () => structArray({ v: Float32Array }, 8);
    const src = vs();
    for (let i = 0; i < 8; i++) src[i] = { v: i + 0.5 };
    const out = new Float32Array(8);
    await k.launch(dev, { blocks: 1, threads: 8 }, out, src);
    same(out, Array.from({ length: 8 }, (_, t) => { const o = { v: src[(t + 1) % 8].v * 2, x: (t + 1) % 8 }; return o.v + o.x + o.v + 1.5 + 4; }));
  });
});

describe("arrays of objects: in JavaScript and what gpuc refuses", () => {
  test("a struct array reads and writes as objects in plain JavaScript, over one ArrayBuffer", () => {
    const a = structArray({ x: Float32Array, n: Int32Array, d: Float64Array }, 3);
    a[1] = { x: 1.5, n: -2, d: 0.1 };
    a[2].n += 5;
    assert.deepEqual({ ...a[1] }, { x: 1.5, n: -2, d: 0.1 });
    assert.equal(a[2].n, 5);
    assert.equal(a.length, 3);
    assert.equal(a[3], undefined);
    assert.equal(a.fields.x.buffer, a.fields.d.buffer);
  });

  test("an element bound to a variable while the array's objects are assigned; a wrong element; a field that is not there", async () => {
    const shared = kernel(function aliasElem(out: Float32Array, a: P[]) {
      const p = a[0];
      a[0].x = 5;
      out[0] = p.x;
    });
    await rejectsCompile(shared.compile({ target: "js", args: [new Float32Array(1), [{ x: 1, y: 2 }]] }), "type", /the fields of 'a\[…\]' are assigned, so its object cannot also be held by 'p'/);
    const wrong = kernel(function wrongElem(a: P[]) { a[0] = { x: 1 } as P; });
    await rejectsCompile(wrong.compile({ target: "js", args: [[{ x: 1, y: 2 }]] }), "type", /an element of 'a' has the fields x, y; this object has no 'y'/);
    const missing = kernel(function missingField(out: Float32Array, a: P[]) { out[0] = (a[0] as unknown as { z: number }).z; });
    await rejectsCompile(missing.compile({ target: "js", args: [new Float32Array(1), [{ x: 1, y: 2 }]] }), "type", /the objects of 'a' \(\{ x: f64, y: f64 \}\[\]\) have no field 'z'/);
  });

  test("storing an object whose fields are assigned elsewhere (JavaScript would store the object itself); a number where objects are", async () => {
    const k = kernel(function storesShared(out: Float32Array) {
      const s = new Array(2);
      const q = { x: 1 };
      s[0] = q;
      q.x = 2;
      out[0] = s[0].x;
    });
    await rejectsCompile(k.compile({ target: "js", args: [new Float32Array(1)] }), "type", /the fields of 'q' are assigned, so its object cannot be stored into 's'/);
    const n = kernel(function storesNumber(out: Float32Array) { const s = new Array(2); s[0] = 5; out[0] = s[0]; });
    await rejectsCompile(n.compile({ target: "js", args: [new Float32Array(1)] }), "type", /'s' holds objects whose fields are numbers; this is a number/);
  });

  test("Arrays whose objects differ in shape or hold other things are argument errors", async () => {
    const k = kernel(function takes(a: P[]) { a[0].x = 1; });
    for (const bad of [[{ x: 1, y: 2 }, { x: 1 }], [{ x: 1, y: "2" }], [[1, 2]]])
      await assert.rejects(k.compile({ target: "js", args: [bad] }), (e: unknown) => e instanceof Error && /argument 'a' of kernel 'takes' got an Array/.test(e.message) && ["argument-type", "unsupported-array"].includes((e as unknown as { kind: string }).kind));
    // An empty Array is an Array of numbers (an f64[]), whose elements have no fields.
    await rejectsCompile(k.compile({ target: "js", args: [[]] }), "type", /'a' holds an array \(f64\[\]\); it has no fields to assign/);
  });
});

// cuda-samples 2_Concepts_and_Techniques/shfl_scan/shfl_integral_image.cuh, shfl_intimage_rows as
// its authors wrote it: `const uint4 *img` and `uint4 *integral_image` are struct arrays of
// { x, y, z, w } (Uint32Array fields), `packed_result` is an object of four uint4 objects, the
// `idxToElem` lambda (a `[&result]` capture and a switch) is a local arrow function, and the
// cooperative-groups tile of 32 is a shuffle of width 32 (`tile.shfl_up(v, i)`,
// `tile.shfl_xor(v, m)`; a uint4 shuffled component by component, as CG does). `unsigned int
// result[16] = {}` is a private Uint32Array; memcpy into packed_result builds the object.
type U4 = { x: number; y: number; z: number; w: number };
function uint_to_uchar4(inp: number): U4 {
  return { x: (inp & 0x000000ff) >>> 0, y: (inp & 0x0000ff00) >>> 8, z: (inp & 0x00ff0000) >>> 16, w: (inp & 0xff000000) >>> 24 };
}
function shfl_xor4(v: U4, m: number): U4 {
  return { x: subgroupShuffleXor(v.x, m, 32), y: subgroupShuffleXor(v.y, m, 32), z: subgroupShuffleXor(v.z, m, 32), w: subgroupShuffleXor(v.w, m, 32) };
}
function get_prefix_sum(data: U4, sums: Uint32Array) {
  const lane_id = subgroupLaneId();
  const warp_id = (threadIdx.x / 32) | 0;
  const result = new Uint32Array(16);
  {
    const a = uint_to_uchar4(data.x);
    const b = uint_to_uchar4(data.y);
    const c = uint_to_uchar4(data.z);
    const d = uint_to_uchar4(data.w);
    result[0] = a.x; result[1] = a.x + a.y; result[2] = a.x + a.y + a.z; result[3] = a.x + a.y + a.z + a.w;
    result[4] = b.x; result[5] = b.x + b.y; result[6] = b.x + b.y + b.z; result[7] = b.x + b.y + b.z + b.w;
    result[8] = c.x; result[9] = c.x + c.y; result[10] = c.x + c.y + c.z; result[11] = c.x + c.y + c.z + c.w;
    result[12] = d.x; result[13] = d.x + d.y; result[14] = d.x + d.y + d.z; result[15] = d.x + d.y + d.z + d.w;
  }
  for (let i = 4; i <= 7; i++) result[i] += result[3];
  for (let i = 8; i <= 11; i++) result[i] += result[7];
  for (let i = 12; i <= 15; i++) result[i] += result[11];
  let sum = result[15];
  for (let i = 1; i < 32; i *= 2) {
    const n = subgroupShuffleUp(sum, i, 32);
    if (lane_id >= i) {
      for (let j = 0; j < 16; j++) result[j] += n;
      sum += n;
    }
  }
  if (lane_id === 32 - 1) sums[warp_id] = result[15];
  syncthreads();
  if (warp_id === 0) {
    let warp_sum = sums[lane_id];
    for (let i = 1; i <= 16; i *= 2) {
      const n = subgroupShuffleUp(warp_sum, i, 32);
      if (lane_id >= i) warp_sum += n;
    }
    sums[lane_id] = warp_sum;
  }
  syncthreads();
  if (warp_id > 0) {
    const blockSum = sums[warp_id - 1];
    for (let i = 0; i < 16; i++) result[i] += blockSum;
  }
  return {
    x: { x: result[0], y: result[1], z: result[2], w: result[3] }, y: { x: result[4], y: result[5], z: result[6], w: result[7] },
    z: { x: result[8], y: result[9], z: result[10], w: result[11] }, w: { x: result[12], y: result[13], z: result[14], w: result[15] },
  };
}
const uint4s = (n: number) => structArray({ x: Uint32Array, y: Uint32Array, z: Uint32Array, w: Uint32Array }, n);

describe("ports with arrays of objects", () => {
  dtest("cuda-samples shfl_integral_image's shfl_intimage_rows (uint4 arrays, a lambda over the packed result, tile shuffles of 32)", async ({ kind, dev, same }) => {
    const shfl_intimage_rows = kernel(function shfl_intimage_rows(img: ReturnType<typeof uint4s>, integral_image: ReturnType<typeof uint4s>) {
      const sums = shared(Uint32Array, 128);
      const id = threadIdx.x;
      // pointer to head of current scanline
      const scanline = blockIdx.x * 120;
      const result = get_prefix_sum(img[scanline + id], sums);
      const idxToElem = (idx: number): U4 => {
        switch (idx) {
          case 0: return result.x;
          case 1: return result.y;
          case 2: return result.z;
          case 3: return result.w;
        }
        return { x: 0, y: 0, z: 0, w: 0 };
      };
      const idMask = id & 3;
      const idSwizzle = (id + 2) & 3;
      const idShift = (id >>> 2) << 4;
      const blockOffset = blockIdx.x * 480;
      result.y = shfl_xor4(result.y, 1);
      result.z = shfl_xor4(result.z, 2);
      result.w = shfl_xor4(result.w, 3);
      integral_image[blockOffset + idMask + idShift] = idxToElem(idMask);
      integral_image[blockOffset + idSwizzle + idShift + 8] = idxToElem(idSwizzle);
      result.x = shfl_xor4(result.x, 1);
      result.y = shfl_xor4(result.y, 1);
      result.z = shfl_xor4(result.z, 1);
      result.w = shfl_xor4(result.w, 1);
      integral_image[blockOffset + idMask + idShift + 4] = idxToElem(idMask);
      integral_image[blockOffset + idSwizzle + idShift + 12] = idxToElem(idSwizzle);
    }, { scope: { get_prefix_sum, uint_to_uchar4, shfl_xor4 } });
    const rows = 3, img = uint4s(120 * rows), out = uint4s(480 * rows);
    const bytes = new Uint8Array(img.fields.x.length * 16);
    for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 37 + 11) % 256;
    // (The bytes of each uint4 in order x, y, z, w, little-endian, as the sample's unsigned chars.)
    const words = new Uint32Array(bytes.buffer);
    for (let i = 0; i < img.length; i++) img[i] = { x: words[i * 4], y: words[i * 4 + 1], z: words[i * 4 + 2], w: words[i * 4 + 3] };
    const launch = shfl_intimage_rows.launch(dev, { blocks: rows, threads: 120 }, img, out);
    // The tile of 32 needs subgroups of 32 lanes: elsewhere the kernel's assumption is a KernelError.
    if (kind !== "cpu") { await kernelError(launch, "exception"); return; }
    await launch;
    const want = new Uint32Array(480 * rows * 4);
    for (let r = 0; r < rows; r++) for (let i = 0, acc = 0; i < 1920; i++) want[r * 1920 + i] = acc += bytes[r * 1920 + i];
    const got = new Uint32Array(480 * rows * 4);
    for (let i = 0; i < out.length; i++) got.set([out[i].x, out[i].y, out[i].z, out[i].w], i * 4);
    same(got, want);
  });
});
