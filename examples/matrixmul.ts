// cuda-samples' matrixMul as written there: C = A·B with BLOCK_SIZE × BLOCK_SIZE tiles of A and B
// in two-dimensional shared arrays (`As[ty][tx]`), the block walking A's rows and B's columns.
// (examples/matmul.ts is the same algorithm with flat tiles, as the benchmarks use it.)
import { kernel, shared, syncthreads, blockIdx, threadIdx, type Device, type i32 } from "gpuc";
import { agree, random, time, timeAsync, type Example } from "./example.ts";

const BLOCK_SIZE = 16;

export const matrixMul = kernel(function matrixMulCUDA(C: Float32Array, A: Float32Array, B: Float32Array, wA: i32, wB: i32) {
  const bx = blockIdx.x, by = blockIdx.y;
  const tx = threadIdx.x, ty = threadIdx.y;
  // The first and last sub-matrix of A the block processes, and the steps through A and B.
  const aBegin = wA * BLOCK_SIZE * by;
  const aEnd = aBegin + wA - 1;
  const aStep = BLOCK_SIZE;
  const bBegin = BLOCK_SIZE * bx;
  const bStep = BLOCK_SIZE * wB;
  let Csub = 0;
  for (let a = aBegin, b = bBegin; a <= aEnd; a += aStep, b += bStep) {
    const As = shared(Float32Array, [BLOCK_SIZE, BLOCK_SIZE]);
    const Bs = shared(Float32Array, [BLOCK_SIZE, BLOCK_SIZE]);
    As[ty][tx] = A[a + wA * ty + tx];
    Bs[ty][tx] = B[b + wB * ty + tx];
    syncthreads();
    for (let k = 0; k < BLOCK_SIZE; ++k) Csub += As[ty][k] * Bs[k][tx];
    syncthreads();
  }
  const c = wB * BLOCK_SIZE * by + BLOCK_SIZE * bx;
  C[c + wB * ty + tx] = Csub;
}, { scope: { BLOCK_SIZE } });

const example: Example = {
  name: "matrixMul",
  description: "cuda-samples' matrixMul: C (320×160) = A (320×320) · B (320×160), 16×16 tiles in 2-D shared arrays",
  kernels: [{ kernel: matrixMul, types: ["f32[]", "f32[]", "f32[]", "i32", "i32"] }],
  async run(dev: Device) {
    const hA = 320, wA = 320, wB = 160;
    const rnd = random(17);
    const A = Float32Array.from({ length: hA * wA }, () => rnd() - 0.5);
    const B = Float32Array.from({ length: wA * wB }, () => rnd() - 0.5);
    const C = new Float32Array(hA * wB).fill(NaN);
    const cfg = { blocks: [wB / BLOCK_SIZE, hA / BLOCK_SIZE], threads: [BLOCK_SIZE, BLOCK_SIZE] };
    await matrixMul.launch(dev, cfg, C, A, B, wA, wB);
    C.fill(NaN);
    const [, kernelMs] = await timeAsync(() => matrixMul.launch(dev, cfg, C, A, B, wA, wB));
    const ref = new Float32Array(hA * wB);
    const [, referenceMs] = time(() => {
      // The kernel's order of additions: tile by tile, k within a tile.
      for (let i = 0; i < hA; i++)
        for (let j = 0; j < wB; j++) {
          let acc = 0;
          for (let k = 0; k < wA; k++) acc = Math.fround(acc + Math.fround(A[i * wA + k] * B[k * wB + j]));
          ref[i * wB + j] = acc;
        }
    });
    return { summary: `C[0][0..2] = ${Array.from(C.slice(0, 3), (v) => v.toFixed(4)).join(", ")}`, ok: agree(C, ref, dev), kernelMs, referenceMs };
  },
};
export default example;
