// A 64-bin histogram of 1M bytes: per-block counts in shared memory with atomics, merged into
// the global histogram with atomics.
import { kernel, shared, syncthreads, blockIdx, blockDim, gridDim, threadIdx, type Device } from "gpuc";
import { agree, random, time, timeAsync, type Example } from "./example.ts";

const BINS = 64;

export const histogram = kernel(function histogram(hist: Uint32Array, data: Uint32Array) {
  const local = shared(Uint32Array, 64);
  const t = threadIdx.x;
  if (t < 64) local[t] = 0;
  syncthreads();
  // A grid-stride loop: each thread counts several values.
  for (let i = blockIdx.x * blockDim.x + t; i < data.length; i += blockDim.x * gridDim.x) {
    Atomics.add(local, data[i] & 63, 1);
  }
  syncthreads();
  if (t < 64) Atomics.add(hist, t, local[t]);
});

const example: Example = {
  name: "histogram",
  description: "64-bin histogram of 1M values: shared-memory atomics",
  kernels: [{ kernel: histogram, types: ["u32[]", "u32[]"] }],
  async run(dev: Device) {
    const n = 1 << 20;
    const rnd = random(5);
    const data = Uint32Array.from({ length: n }, () => (rnd() * 4294967296) >>> 0);
    const hist = new Uint32Array(BINS);
    const cfg = { blocks: 64, threads: 256 };
    await histogram.launch(dev, cfg, hist, data);
    hist.fill(0);
    const [, kernelMs] = await timeAsync(() => histogram.launch(dev, cfg, hist, data));
    const [ref, referenceMs] = time(() => {
      const r = new Uint32Array(BINS);
      for (let i = 0; i < n; i++) r[data[i] & 63]++;
      return r;
    });
    const ok = agree(hist, ref, dev);
    return { summary: `bins[0..3] = ${Array.from(hist.slice(0, 4)).join(", ")}, total ${hist.reduce((a, v) => a + v, 0)}`, ok, kernelMs, referenceMs };
  },
};
export default example;
