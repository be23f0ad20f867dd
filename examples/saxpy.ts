// saxpy: y = a·x + y, the "hello world" of GPU computing.
import { kernel, blockIdx, blockDim, threadIdx, type f32 } from "gpuc";

export const saxpy = kernel(function saxpy(a: f32, x: Float32Array, y: Float32Array) {
  const i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < y.length) y[i] = a * x[i] + y[i];
});
