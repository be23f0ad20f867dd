// Sum of 1M floats: a tree reduction in shared memory per block, then the block sums on the host.
import { kernel, shared, syncthreads, blockIdx, blockDim, threadIdx, type Device } from "gpuc";
import { agree, random, time, timeAsync, type Example } from "./example.ts";

const BLOCK = 256;

export const blockSums = kernel(function blockSums(sums: Float32Array, x: Float32Array) {
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
});

/** The same tree, in plain JS with f32 rounding: the exact reference. */
function referenceSums(x: Float32Array, blocks: number): Float32Array {
  const sums = new Float32Array(blocks), s = new Float32Array(BLOCK);
  for (let b = 0; b < blocks; b++) {
    for (let t = 0; t < BLOCK; t++) { const i = b * BLOCK + t; s[t] = i < x.length ? x[i] : 0; }
    for (let stride = BLOCK >> 1; stride > 0; stride >>= 1) for (let t = 0; t < stride; t++) s[t] = Math.fround(s[t] + s[t + stride]);
    sums[b] = s[0];
  }
  return sums;
}

const example: Example = {
  name: "reduction",
  description: "sum of 1M floats: shared-memory tree per block (barriers)",
  kernels: [{ kernel: blockSums, types: ["f32[]", "f32[]"] }],
  async run(dev: Device) {
    const n = 1 << 20, blocks = Math.ceil(n / BLOCK);
    const rnd = random(11);
    const x = Float32Array.from({ length: n }, rnd);
    const sums = new Float32Array(blocks).fill(NaN);
    const cfg = { blocks, threads: BLOCK };
    await blockSums.launch(dev, cfg, sums, x);
    sums.fill(NaN);
    const [, kernelMs] = await timeAsync(() => blockSums.launch(dev, cfg, sums, x));
    const [ref, referenceMs] = time(() => referenceSums(x, blocks));
    const ok = agree(sums, ref, dev);
    const total = sums.reduce((a, v) => a + v, 0);
    return { summary: `sum = ${total.toFixed(3)} (${blocks} block sums)`, ok, kernelMs, referenceMs };
  },
};
export default example;
