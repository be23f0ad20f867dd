// Inclusive prefix sum of 1M integers: a Hillis–Steele scan per block in shared memory, a scan of
// the block totals, and a pass adding each block's offset.
import { kernel, shared, syncthreads, blockIdx, blockDim, threadIdx, type Device } from "gpuc";
import { agree, random, time, timeAsync, type Example } from "./example.ts";

const BLOCK = 1024;

/** Scan each block of `x` into `y`; write each block's total to `totals`. */
export const scanBlocks = kernel(function scanBlocks(y: Int32Array, totals: Int32Array, x: Int32Array) {
  const buf = shared(Int32Array, 1024);
  const t = threadIdx.x;
  const i = blockIdx.x * blockDim.x + t;
  buf[t] = i < x.length ? x[i] : 0;
  syncthreads();
  for (let offset = 1; offset < blockDim.x; offset *= 2) {
    const v = t >= offset ? buf[t - offset] : 0;
    syncthreads();
    buf[t] += v;
    syncthreads();
  }
  if (i < y.length) y[i] = buf[t];
  if (t === blockDim.x - 1) totals[blockIdx.x] = buf[t];
});

/** Add the sum of all earlier blocks to each element. */
export const addOffsets = kernel(function addOffsets(y: Int32Array, scannedTotals: Int32Array) {
  const i = blockIdx.x * blockDim.x + threadIdx.x;
  if (blockIdx.x > 0 && i < y.length) y[i] += scannedTotals[blockIdx.x - 1];
});

const example: Example = {
  name: "scan",
  description: "inclusive prefix sum of 1M ints: Hillis–Steele scans in shared memory (barriers)",
  kernels: [
    { kernel: scanBlocks, types: ["i32[]", "i32[]", "i32[]"] },
    { kernel: addOffsets, types: ["i32[]", "i32[]"] },
  ],
  async run(dev: Device) {
    const n = 1 << 20, blocks = Math.ceil(n / BLOCK);
    const rnd = random(9);
    const x = Int32Array.from({ length: n }, () => (rnd() * 100) | 0);
    const y = new Int32Array(n), totals = new Int32Array(blocks), scanned = new Int32Array(blocks), unused = new Int32Array(1);
    const scan = async () => {
      await scanBlocks.launch(dev, { blocks, threads: BLOCK }, y, totals, x);
      // 1024 block totals: one more block-wide scan gives each block's offset.
      await scanBlocks.launch(dev, { blocks: 1, threads: BLOCK }, scanned, unused, totals);
      await addOffsets.launch(dev, { blocks, threads: BLOCK }, y, scanned);
    };
    await scan();
    y.fill(-1);
    const [, kernelMs] = await timeAsync(scan);
    const [ref, referenceMs] = time(() => {
      const r = new Int32Array(n);
      let acc = 0;
      for (let i = 0; i < n; i++) { acc = (acc + x[i]) | 0; r[i] = acc; }
      return r;
    });
    const ok = agree(y, ref, dev);
    return { summary: `y[n-1] = ${y[n - 1]}`, ok, kernelMs, referenceMs };
  },
};
export default example;
