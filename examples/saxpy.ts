// saxpy: y = a·x + y, the "hello world" of GPU computing.
import { kernel, blockIdx, blockDim, threadIdx, type Device, type f32 } from "gpuc";
import { agree, random, time, timeAsync, type Example } from "./example.ts";

export const saxpy = kernel(function saxpy(a: f32, x: Float32Array, y: Float32Array) {
  const i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < y.length) y[i] = a * x[i] + y[i];
});

const example: Example = {
  name: "saxpy",
  description: "y = a·x + y on 4M floats",
  kernels: [{ kernel: saxpy, types: ["f32", "f32[]", "f32[]"] }],
  async run(dev: Device) {
    const n = 1 << 22, a = 2.5;
    const rnd = random(7);
    const x = Float32Array.from({ length: n }, rnd);
    const y0 = Float32Array.from({ length: n }, rnd);
    const y = y0.slice();
    const cfg = { blocks: Math.ceil(n / 256), threads: 256 };
    const dy = dev.array(y);
    await saxpy.launch(dev, cfg, a, x, dy); // compiles
    await dy.write(y0);
    const [, kernelMs] = await timeAsync(() => saxpy.launch(dev, cfg, a, x, dy));
    const out = await dy.read();
    // Plain JS with the kernel language's f32 semantics: every operation rounded to f32.
    const ref = y0.slice();
    const [, referenceMs] = time(() => { for (let i = 0; i < n; i++) ref[i] = Math.fround(Math.fround(a * x[i]) + ref[i]); });
    const ok = agree(out, ref, dev);
    return { summary: `y[0..3] = ${Array.from(out.slice(0, 3), (v) => v.toFixed(4)).join(", ")}`, ok, kernelMs, referenceMs };
  },
};
export default example;
