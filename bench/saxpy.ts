// saxpy as a TypeScript source file, for timing `gpuc compile bench/saxpy.ts --target js` as a
// whole process (bench/run.ts, section c).
import { kernel, blockIdx, blockDim, threadIdx, type f32 } from "gpuc";

export const saxpy = kernel(function saxpy(a: f32, x: Float32Array, y: Float32Array) {
  const i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < y.length) y[i] = a * x[i] + y[i];
});
