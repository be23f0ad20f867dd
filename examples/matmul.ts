// Matrix multiply C = A·B with 16×16 tiles staged in shared memory.
import { kernel, shared, syncthreads, blockIdx, blockDim, threadIdx, type Device, type i32 } from "gpuc";
import { agree, random, time, timeAsync, type Example } from "./example.ts";

const TILE = 16;

export const matmul = kernel(function matmul(c: Float32Array, a: Float32Array, b: Float32Array, n: i32) {
  const as = shared(Float32Array, 256);
  const bs = shared(Float32Array, 256);
  const tx = threadIdx.x, ty = threadIdx.y;
  const row = blockIdx.y * 16 + ty;
  const col = blockIdx.x * 16 + tx;
  let acc = 0;
  for (let t = 0; t < n; t += 16) {
    as[ty * 16 + tx] = row < n && t + tx < n ? a[row * n + t + tx] : 0;
    bs[ty * 16 + tx] = col < n && t + ty < n ? b[(t + ty) * n + col] : 0;
    syncthreads();
    for (let k = 0; k < 16; k++) acc += as[ty * 16 + k] * bs[k * 16 + tx];
    syncthreads();
  }
  if (row < n && col < n) c[row * n + col] = acc;
});

const example: Example = {
  name: "matmul",
  description: "C = A·B, 256×256 floats, 16×16 tiles in shared memory (barriers)",
  kernels: [{ kernel: matmul, types: ["f32[]", "f32[]", "f32[]", "i32"] }],
  async run(dev: Device) {
    const n = 256;
    const rnd = random(3);
    const a = Float32Array.from({ length: n * n }, () => rnd() - 0.5);
    const b = Float32Array.from({ length: n * n }, () => rnd() - 0.5);
    const c = new Float32Array(n * n).fill(NaN);
    const cfg = { blocks: [Math.ceil(n / TILE), Math.ceil(n / TILE)], threads: [TILE, TILE] };
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
    const ok = agree(c, ref, dev);
    return { summary: `trace(C) = ${Array.from({ length: n }, (_, i) => c[i * n + i]).reduce((s, v) => s + v, 0).toFixed(4)}`, ok, kernelMs, referenceMs };
  },
};
export default example;
