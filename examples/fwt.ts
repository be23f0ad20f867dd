// A port of cuda-samples' fastWalshTransform (6_Advanced/fastWalshTransform,
// fastWalshTransform_kernel.cuh): fwtBatch1Kernel transforms vectors of N = 2^log2N floats in
// shared memory with radix-4 butterflies (and one radix-2 stage for odd log2N), one vector per
// block, written as the original is: `extern __shared__ float s_data[]`, sized N * sizeof(float)
// by the launch, is `shared(Float32Array, N)` with the const N the kernel computes, and the
// pointer arithmetic `d_Input + base` is a view.
import { kernel, shared, syncthreads, blockIdx, blockDim, threadIdx, type Device } from "gpuc";
import { agree, random, time, timeAsync, type Example } from "./example.ts";

export const fwtBatch1Kernel = kernel(function fwtBatch1Kernel(d_Output: Float32Array, d_Input: Float32Array, log2N: number) {
  const N = 1 << log2N;
  const base = blockIdx.x << log2N;
  const s_data = shared(Float32Array, N);
  const d_Src = d_Input.subarray(base);
  const d_Dst = d_Output.subarray(base);
  for (let pos = threadIdx.x; pos < N; pos += blockDim.x) s_data[pos] = d_Src[pos];
  // Main radix-4 stages
  const pos = threadIdx.x;
  for (let stride = N >> 2; stride > 0; stride >>= 2) {
    const lo = pos & (stride - 1);
    const i0 = ((pos - lo) << 2) + lo;
    const i1 = i0 + stride;
    const i2 = i1 + stride;
    const i3 = i2 + stride;
    syncthreads();
    let D0 = s_data[i0];
    let D1 = s_data[i1];
    let D2 = s_data[i2];
    let D3 = s_data[i3];
    let T;
    T = D0; D0 = D0 + D2; D2 = T - D2;
    T = D1; D1 = D1 + D3; D3 = T - D3;
    T = D0; s_data[i0] = D0 + D1; s_data[i1] = T - D1;
    T = D2; s_data[i2] = D2 + D3; s_data[i3] = T - D3;
  }
  // Do single radix-2 stage for odd power of two
  if (log2N & 1) {
    syncthreads();
    for (let pos = threadIdx.x; pos < N / 2; pos += blockDim.x) {
      const i0 = pos << 1;
      const i1 = i0 + 1;
      const D0 = s_data[i0];
      const D1 = s_data[i1];
      s_data[i0] = D0 + D1;
      s_data[i1] = D0 - D1;
    }
  }
  syncthreads();
  for (let pos = threadIdx.x; pos < N; pos += blockDim.x) d_Dst[pos] = s_data[pos];
});

const example: Example = {
  name: "fwt",
  description: "cuda-samples fastWalshTransform fwtBatch1Kernel: shared memory sized by a const N = 1 << log2N",
  kernels: [{ kernel: fwtBatch1Kernel, types: ["f32[]", "f32[]", "i32"] }],
  async run(dev: Device) {
    const log2N = 11, N = 1 << log2N, M = 64;
    const rnd = random(14);
    // Small integers: every sum is exact, so the butterflies' order gives the reference's bits.
    const input = Float32Array.from({ length: N * M }, () => Math.floor(rnd() * 17) - 8), out = new Float32Array(N * M);
    const cfg = { blocks: M, threads: N / 4 };
    await fwtBatch1Kernel.launch(dev, cfg, out, input, log2N);
    const [, kernelMs] = await timeAsync(() => fwtBatch1Kernel.launch(dev, cfg, out, input, log2N));
    // fastWalshTransform_gold.cpp's fwtCPU, per vector.
    const [ref, referenceMs] = time(() => {
      const r = new Float32Array(N * M);
      for (let m = 0; m < M; m++) {
        const h = r.subarray(m * N, (m + 1) * N);
        h.set(input.subarray(m * N, (m + 1) * N));
        for (let stride = N / 2; stride >= 1; stride >>= 1)
          for (let b = 0; b < N; b += 2 * stride)
            for (let j = 0; j < stride; j++) { const T1 = h[b + j], T2 = h[b + j + stride]; h[b + j] = T1 + T2; h[b + j + stride] = T1 - T2; }
      }
      return r;
    });
    const ok = agree(out, ref, dev);
    return { summary: `vector 0 [0..2] = ${Array.from(out.slice(0, 3)).join(", ")}`, ok, kernelMs, referenceMs };
  },
};
export default example;
