// Mandelbrot set with smooth iteration counts: helpers, loops with early exit, Math.*.
import { kernel, blockIdx, blockDim, threadIdx, type Device, type f32, type i32 } from "gpuc";
import { agree, time, timeAsync, type Example } from "./example.ts";

function escapeTime(cx: f32, cy: f32, maxIter: i32): f32 {
  let x = 0.0, y = 0.0;
  for (let i = 0; i < maxIter; i++) {
    const x2 = x * x, y2 = y * y;
    if (x2 + y2 > 256) return smooth(i, x2 + y2);
    y = 2 * x * y + cy;
    x = x2 - y2 + cx;
  }
  return maxIter;
}

function smooth(i: i32, r2: f32): f32 {
  return i + 1 - Math.log2(Math.log2(r2) * 0.5);
}

export const mandelbrot = kernel(function mandelbrot(out: Float32Array, width: i32, height: i32, maxIter: i32) {
  const px = blockIdx.x * blockDim.x + threadIdx.x;
  const py = blockIdx.y * blockDim.y + threadIdx.y;
  if (px >= width || py >= height) return;
  const cx = -2.2 + (3.0 * px) / width;
  const cy = -1.2 + (2.4 * py) / height;
  out[py * width + px] = escapeTime(cx, cy, maxIter);
}, { scope: { escapeTime, smooth } });

const example: Example = {
  name: "mandelbrot",
  description: "smooth escape times of a 512×384 Mandelbrot image, up to 256 iterations",
  kernels: [{ kernel: mandelbrot, types: ["f32[]", "i32", "i32", "i32"] }],
  async run(dev: Device) {
    const w = 512, h = 384, maxIter = 256;
    const out = new Float32Array(w * h).fill(NaN);
    const cfg = { blocks: [w / 16, h / 16], threads: [16, 16] };
    await mandelbrot.launch(dev, cfg, out, w, h, maxIter);
    out.fill(NaN);
    const [, kernelMs] = await timeAsync(() => mandelbrot.launch(dev, cfg, out, w, h, maxIter));
    // Reference: the same computation in plain JS with f32 rounding written out.
    const f = Math.fround;
    const ref = new Float32Array(w * h);
    const [, referenceMs] = time(() => {
      for (let py = 0; py < h; py++)
        for (let px = 0; px < w; px++) {
          const cx = f(f(-2.2) + f(f(3 * px) / f(w)));
          const cy = f(f(-1.2) + f(f(f(2.4) * py) / f(h)));
          let x = 0, y = 0, v = maxIter;
          for (let i = 0; i < maxIter; i++) {
            const x2 = f(x * x), y2 = f(y * y);
            const r2 = f(x2 + y2);
            if (r2 > 256) { v = f(f(i + 1) - f(Math.log2(f(f(Math.log2(r2)) * 0.5)))); break; }
            y = f(f(f(2 * x) * y) + cy);
            x = f(f(x2 - y2) + cx);
          }
          ref[py * w + px] = v;
        }
    });
    // Smooth coloring takes log2(log2(r²)): a GPU's log2 (WGSL allows 3 ulp) can move a value by
    // up to ~1%, and near the set's boundary an iteration count is chaotic. On GPU devices, allow
    // 2% relative error on at most 1% of the points; the CPU device must match exactly.
    const ok = agree(out, ref, dev, 2e-2, Math.floor(out.length / 100));
    const inside = out.reduce((n, v) => n + (v === maxIter ? 1 : 0), 0);
    return { summary: `${inside} of ${w * h} points inside the set`, ok, kernelMs, referenceMs };
  },
};
export default example;
