// Matrix transpose through a padded 16×17 tile in shared memory (cuda-samples' transposeCoalesced,
// as written there: the extra column keeps the tile's columns in different banks).
import { kernel, shared, syncthreads, blockIdx, threadIdx, type Device, type i32 } from "gpuc";
import { agree, random, time, timeAsync, type Example } from "./example.ts";

const TILE = 16;

export const transpose = kernel(function transpose(out: Float32Array, a: Float32Array, rows: i32, cols: i32) {
  const tile = shared(Float32Array, [16, 17]);
  const tx = threadIdx.x, ty = threadIdx.y;
  // Read a 16×16 block of `a` (rows × cols) row by row: coalesced.
  let x = blockIdx.x * 16 + tx, y = blockIdx.y * 16 + ty;
  if (x < cols && y < rows) tile[ty][tx] = a[y * cols + x];
  syncthreads();
  // Write it transposed, again row by row: `out` is cols × rows.
  x = blockIdx.y * 16 + tx;
  y = blockIdx.x * 16 + ty;
  if (x < rows && y < cols) out[y * rows + x] = tile[tx][ty];
});

const example: Example = {
  name: "transpose",
  description: "transpose of a 600×1000 float matrix through a padded [16][17] shared tile (barriers)",
  kernels: [{ kernel: transpose, types: ["f32[]", "f32[]", "i32", "i32"] }],
  async run(dev: Device) {
    const rows = 600, cols = 1000;
    const rnd = random(11);
    const a = Float32Array.from({ length: rows * cols }, () => rnd() * 2 - 1);
    const out = new Float32Array(rows * cols).fill(NaN);
    const cfg = { blocks: [Math.ceil(cols / TILE), Math.ceil(rows / TILE)], threads: [TILE, TILE] };
    await transpose.launch(dev, cfg, out, a, rows, cols);
    out.fill(NaN);
    const [, kernelMs] = await timeAsync(() => transpose.launch(dev, cfg, out, a, rows, cols));
    const ref = new Float32Array(rows * cols);
    const [, referenceMs] = time(() => {
      for (let y = 0; y < rows; y++) for (let x = 0; x < cols; x++) ref[x * rows + y] = a[y * cols + x];
    });
    return { summary: `out[1][2] = ${out[1 * rows + 2].toFixed(4)} (a[2][1])`, ok: agree(out, ref, dev, 0), kernelMs, referenceMs };
  },
};
export default example;
