// Exclusive prefix sums of 4M unsigned integers, as cuda-samples' `scan` (scanExclusiveShared)
// writes them: each thread loads four consecutive elements as one `uint4` value, scans them with
// a helper that returns a vector, the block scans the threads' totals in shared memory (zero
// padding below, so no thread tests its offset), and each thread adds its offset to the four
// components. Vectors are `{ x, y, z, w }` values: they compile to scalars, nothing is allocated.
import { kernel, shared, syncthreads, blockIdx, blockDim, threadIdx, type Device, type i32, type u32 } from "gpuc";
import { random, time, timeAsync, type Example } from "./example.ts";

const THREADS = 256;

interface U4 { x: u32; y: u32; z: u32; w: u32 }

function load4(a: Uint32Array, i: i32): U4 {
  return { x: a[4 * i], y: a[4 * i + 1], z: a[4 * i + 2], w: a[4 * i + 3] };
}

function store4(a: Uint32Array, i: i32, v: U4) {
  a[4 * i] = v.x;
  a[4 * i + 1] = v.y;
  a[4 * i + 2] = v.z;
  a[4 * i + 3] = v.w;
}

/** The inclusive scan of the four components (wrapping, as uint arithmetic does). */
function scan4Inclusive(v: U4): U4 {
  const y = (v.x + v.y) >>> 0;
  const z = (y + v.z) >>> 0;
  return { x: v.x, y, z, w: (z + v.w) >>> 0 };
}

/** The exclusive scan of `v`, from its inclusive scan `inc`, each shifted by `offset`. */
function exclusiveFrom(inc: U4, offset: u32): U4 {
  return { x: offset, y: (offset + inc.x) >>> 0, z: (offset + inc.y) >>> 0, w: (offset + inc.z) >>> 0 };
}

export const scanExclusive4 = kernel(function scanExclusiveShared4(dst: Uint32Array, src: Uint32Array) {
  const s = shared(Uint32Array, 2 * THREADS);
  const t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
  const inc = scan4Inclusive(load4(src, i));
  // Hillis–Steele over the threads' totals; the lower half stays zero.
  s[t] = 0;
  const p = THREADS + t;
  s[p] = inc.w;
  for (let offset = 1; offset < THREADS; offset <<= 1) {
    syncthreads();
    const sum = (s[p] + s[p - offset]) >>> 0;
    syncthreads();
    s[p] = sum;
  }
  store4(dst, i, exclusiveFrom(inc, (s[p] - inc.w) >>> 0));
}, { scope: { THREADS, load4, store4, scan4Inclusive, exclusiveFrom } });

/** Plain JS: the exclusive scan of each block of 4 × THREADS elements, wrapping at 2^32. */
function reference(src: Uint32Array): Uint32Array {
  const out = new Uint32Array(src.length), per = 4 * THREADS;
  for (let b = 0; b < src.length; b += per) {
    let acc = 0;
    for (let k = b; k < b + per; k++) { out[k] = acc; acc = (acc + src[k]) >>> 0; }
  }
  return out;
}

const example: Example = {
  name: "scan4",
  description: "exclusive scan of 4M u32 in blocks of 1024: uint4 values per thread, vector-valued helpers",
  kernels: [{ kernel: scanExclusive4, types: ["u32[]", "u32[]"] }],
  async run(dev: Device) {
    const n = 1 << 22, blocks = n / (4 * THREADS);
    const rnd = random(13);
    // Large values, so that the sums wrap around 2^32.
    const src = Uint32Array.from({ length: n }, () => Math.floor(rnd() * 2 ** 31));
    const dst = new Uint32Array(n);
    const cfg = { blocks, threads: THREADS };
    await scanExclusive4.launch(dev, cfg, dst, src);
    dst.fill(0);
    const [, kernelMs] = await timeAsync(() => scanExclusive4.launch(dev, cfg, dst, src));
    const [ref, referenceMs] = time(() => reference(src));
    const ok = dst.every((v, k) => v === ref[k]);
    return { summary: `y[1023] = ${dst[1023]}, y[n-1] = ${dst[n - 1]} (${blocks} blocks)`, ok, kernelMs, referenceMs };
  },
};
export default example;
