// Matrix multiply C = A·B on a 2-D grid: one thread per output element.
import { kernel, blockIdx, blockDim, threadIdx, type Device, type i32 } from "gpuc";
import { random, time, timeAsync, type Example } from "./example.ts";

export const matmul = kernel(function matmul(c: Float32Array, a: Float32Array, b: Float32Array, n: i32) {
  const row = blockIdx.y * blockDim.y + threadIdx.y;
  const col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= n || col >= n) return;
  let acc = 0;
  for (let k = 0; k < n; k++) acc += a[row * n + k] * b[k * n + col];
  c[row * n + col] = acc;
});

const example: Example = {
  name: "matmul",
  description: "C = A·B, 256×256 floats, 16×16 blocks",
  kernels: [{ kernel: matmul, types: ["f32[]", "f32[]", "f32[]", "i32"] }],
  async run(dev: Device) {
    const n = 256;
    const rnd = random(3);
    const a = Float32Array.from({ length: n * n }, () => rnd() - 0.5);
    const b = Float32Array.from({ length: n * n }, () => rnd() - 0.5);
    const c = new Float32Array(n * n).fill(NaN);
    const cfg = { blocks: [n / 16, n / 16], threads: [16, 16] };
    await matmul.launch(dev, cfg, c, a, b, n);
    c.fill(NaN);
    const [, kernelMs] = await timeAsync(() => matmul.launch(dev, cfg, c, a, b, n));
    const ref = new Float32Array(n * n);
    const [, referenceMs] = time(() => {
      for (let i = 0; i < n; i++)
        for (let j = 0; j < n; j++) {
          let acc = 0;
          for (let k = 0; k < n; k++) acc = Math.fround(acc + Math.fround(a[i * n + k] * b[k * n + j]));
          ref[i * n + j] = acc;
        }
    });
    const ok = c.every((v, i) => v === ref[i]);
    return { summary: `trace(C) = ${Array.from({ length: n }, (_, i) => c[i * n + i]).reduce((s, v) => s + v, 0).toFixed(4)}`, ok, kernelMs, referenceMs };
  },
};
export default example;
