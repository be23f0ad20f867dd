// cuda-samples' reduce3 as written there: each thread adds two elements on the way in, then a tree
// in `extern __shared__` memory sized per launch (here: shared(Float32Array, blockDim.x), sized
// when the kernel is launched), run at two block sizes with one compiled kernel.
import { kernel, shared, syncthreads, blockIdx, blockDim, threadIdx, type Device, type i32 } from "gpuc";
import { agree, random, time, timeAsync, type Example } from "./example.ts";

export const reduce3 = kernel(function reduce3(g_idata: Float32Array, g_odata: Float32Array, n: i32) {
  const sdata = shared(Float32Array, blockDim.x);
  const tid = threadIdx.x;
  const i = blockIdx.x * (blockDim.x * 2) + threadIdx.x;
  let mySum = i < n ? g_idata[i] : 0;
  if (i + blockDim.x < n) mySum += g_idata[i + blockDim.x];
  sdata[tid] = mySum;
  syncthreads();
  for (let s = blockDim.x / 2 | 0; s > 0; s >>= 1) {
    if (tid < s) sdata[tid] = mySum = mySum + sdata[tid + s];
    syncthreads();
  }
  if (tid === 0) g_odata[blockIdx.x] = mySum;
});

/** The kernel's own order of additions, in plain JS with f32 rounding. */
function reference(x: Float32Array, threads: number): Float32Array {
  const blocks = Math.ceil(x.length / (threads * 2)), out = new Float32Array(blocks), s = new Float32Array(threads);
  for (let b = 0; b < blocks; b++) {
    for (let t = 0; t < threads; t++) {
      const i = b * threads * 2 + t;
      let v = i < x.length ? x[i] : 0;
      if (i + threads < x.length) v = Math.fround(v + x[i + threads]);
      s[t] = v;
    }
    for (let st = threads >> 1; st > 0; st >>= 1) for (let t = 0; t < st; t++) s[t] = Math.fround(s[t] + s[t + st]);
    out[b] = s[0];
  }
  return out;
}

const example: Example = {
  name: "reduce3",
  description: "cuda-samples' reduce3: 1M floats, shared memory sized at launch (blockDim.x), at 128 and 256 threads per block",
  kernels: [{ kernel: reduce3, types: ["f32[]", "f32[]", "i32"] }],
  async run(dev: Device) {
    const n = 1 << 20;
    const rnd = random(23);
    const x = Float32Array.from({ length: n }, () => rnd() - 0.5);
    let ok = true, kernelMs = 0, referenceMs = 0, total = 0;
    for (const threads of [128, 256]) {
      const blocks = Math.ceil(n / (threads * 2));
      const out = new Float32Array(blocks).fill(NaN);
      await reduce3.launch(dev, { blocks, threads }, x, out, n);
      out.fill(NaN);
      const [, ms] = await timeAsync(() => reduce3.launch(dev, { blocks, threads }, x, out, n));
      const [ref, rms] = time(() => reference(x, threads));
      ok &&= agree(out, ref, dev, 1e-4);
      kernelMs += ms; referenceMs += rms;
      total = out.reduce((a, b) => a + b, 0);
    }
    return { summary: `sum = ${total.toFixed(3)} (${n} floats; block sums at 128 and 256 threads)`, ok, kernelMs, referenceMs };
  },
};
export default example;
