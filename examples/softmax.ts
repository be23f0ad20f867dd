// Row-wise softmax of a 1024×256 matrix: one block per row; the row maximum and the sum of
// exponentials are tree reductions in shared memory.
import { kernel, shared, syncthreads, blockIdx, blockDim, threadIdx, type Device, type i32 } from "gpuc";
import { agree, random, time, timeAsync, type Example } from "./example.ts";

const COLS = 256;

export const softmax = kernel(function softmax(out: Float32Array, x: Float32Array, cols: i32) {
  const red = shared(Float32Array, 256);
  const t = threadIdx.x;
  const row = blockIdx.x * cols;
  const v = x[row + t];
  red[t] = v;
  syncthreads();
  for (let s = blockDim.x >> 1; s > 0; s >>= 1) {
    if (t < s) red[t] = Math.max(red[t], red[t + s]);
    syncthreads();
  }
  const max = red[0];
  syncthreads();
  const e = Math.exp(v - max);
  red[t] = e;
  syncthreads();
  for (let s = blockDim.x >> 1; s > 0; s >>= 1) {
    if (t < s) red[t] += red[t + s];
    syncthreads();
  }
  out[row + t] = e / red[0];
});

const example: Example = {
  name: "softmax",
  description: "row-wise softmax of a 1024×256 matrix: max and sum reductions (barriers)",
  kernels: [{ kernel: softmax, types: ["f32[]", "f32[]", "i32"] }],
  async run(dev: Device) {
    const rows = 1024, n = rows * COLS;
    const rnd = random(13);
    const x = Float32Array.from({ length: n }, () => (rnd() - 0.5) * 8);
    const out = new Float32Array(n).fill(NaN);
    const cfg = { blocks: rows, threads: COLS };
    await softmax.launch(dev, cfg, out, x, COLS);
    out.fill(NaN);
    const [, kernelMs] = await timeAsync(() => softmax.launch(dev, cfg, out, x, COLS));
    const f = Math.fround;
    const [ref, referenceMs] = time(() => {
      const r = new Float32Array(n), red = new Float32Array(COLS), ex = new Float32Array(COLS);
      for (let row = 0; row < rows; row++) {
        const base = row * COLS;
        for (let t = 0; t < COLS; t++) red[t] = x[base + t];
        for (let s = COLS >> 1; s > 0; s >>= 1) for (let t = 0; t < s; t++) red[t] = Math.max(red[t], red[t + s]);
        const max = red[0];
        for (let t = 0; t < COLS; t++) { ex[t] = f(Math.exp(f(x[base + t] - max))); red[t] = ex[t]; }
        for (let s = COLS >> 1; s > 0; s >>= 1) for (let t = 0; t < s; t++) red[t] = f(red[t] + red[t + s]);
        for (let t = 0; t < COLS; t++) r[base + t] = f(ex[t] / red[0]);
      }
      return r;
    });
    const ok = agree(out, ref, dev);
    let rowSum = 0;
    for (let t = 0; t < COLS; t++) rowSum += out[t];
    return { summary: `row 0 sums to ${rowSum.toFixed(6)}`, ok, kernelMs, referenceMs };
  },
};
export default example;
