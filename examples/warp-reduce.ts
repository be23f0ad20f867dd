// Sum of 1M floats with warp shuffles, as CUDA's reductions are written today (cuda-samples'
// `reduction`, warpReduceSum): each subgroup (warp) sums its values with subgroupShuffleDown, its
// first lane leaves the partial sum in shared memory, and the first subgroup sums the partials.
// One barrier per block instead of one per tree level. The partials hold 32 subgroups, so a block
// has at most 32 subgroups' threads: 256 where subgroups have 8 lanes or more (WebGPU, CUDA, the
// CPU device), 32 on OpenCL, whose subgroups are single threads.
import { kernel, shared, syncthreads, blockIdx, blockDim, threadIdx, subgroupSize, subgroupLaneId, subgroupShuffleDown, type Device } from "gpuc";
import { agree, random, time, timeAsync, type Example } from "./example.ts";

const BLOCK = 256;

/** The device's subgroup size. */
const subgroupOf = kernel(function subgroupOf(o: Int32Array) { o[0] = subgroupSize(); });

export const warpSums = kernel(function warpSums(sums: Float32Array, x: Float32Array) {
  const partials = shared(Float32Array, 32);
  const t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
  const S = subgroupSize(), lane = subgroupLaneId(), warp = (t / S) | 0, warps = ((blockDim.x + S - 1) / S) | 0;
  let s = i < x.length ? x[i] : 0;
  for (let d = S >> 1; d > 0; d >>= 1) s += subgroupShuffleDown(s, d);
  if (lane === 0) partials[warp] = s;
  syncthreads();
  if (warp === 0) {
    let w = 0;
    for (let j = lane; j < warps; j += S) w += partials[j];
    for (let d = S >> 1; d > 0; d >>= 1) w += subgroupShuffleDown(w, d);
    if (lane === 0) sums[blockIdx.x] = w;
  }
});

/** The shuffle-down tree of one subgroup of `S` lanes, in plain JS with f32 rounding: lane 0's sum. */
function treeSum(values: Float32Array, S: number): number {
  let s = values.slice();
  for (let d = S >> 1; d > 0; d >>= 1) {
    const next = new Float32Array(S);
    for (let l = 0; l < S; l++) next[l] = Math.fround(s[l] + (l + d < S ? s[l + d] : s[l]));
    s = next;
  }
  return s[0];
}

/** The same sums in plain JS with the device's subgroups of `S` lanes and blocks of `block` threads: the exact reference where floats are summed in lane order. */
function referenceSums(x: Float32Array, blocks: number, block: number, S: number): Float32Array {
  const warps = block / S;
  const sums = new Float32Array(blocks);
  for (let b = 0; b < blocks; b++) {
    const partials = new Float32Array(warps);
    for (let w = 0; w < warps; w++) {
      const lanes = new Float32Array(S);
      for (let l = 0; l < S; l++) { const i = b * block + w * S + l; lanes[l] = i < x.length ? x[i] : 0; }
      partials[w] = treeSum(lanes, S);
    }
    const first = new Float32Array(S);
    for (let l = 0; l < S; l++) for (let j = l; j < warps; j += S) first[l] = Math.fround(first[l] + partials[j]);
    sums[b] = treeSum(first, S);
  }
  return sums;
}

const example: Example = {
  name: "warp-reduce",
  description: "sum of 1M floats: warp shuffles per subgroup, one barrier per block",
  kernels: [{ kernel: warpSums, types: ["f32[]", "f32[]"] }],
  async run(dev: Device) {
    const size = new Int32Array(1);
    await subgroupOf.launch(dev, { blocks: 1, threads: 1 }, size);
    const S = size[0], block = Math.min(BLOCK, 32 * S);
    const n = 1 << 20, blocks = Math.ceil(n / block);
    const rnd = random(12);
    const x = Float32Array.from({ length: n }, rnd);
    const sums = new Float32Array(blocks).fill(NaN);
    const cfg = { blocks, threads: block };
    await warpSums.launch(dev, cfg, sums, x);
    sums.fill(NaN);
    const [, kernelMs] = await timeAsync(() => warpSums.launch(dev, cfg, sums, x));
    const [ref, referenceMs] = time(() => referenceSums(x, blocks, block, S));
    const ok = agree(sums, ref, dev);
    const total = sums.reduce((a, v) => a + v, 0);
    return { summary: `sum = ${total.toFixed(3)} (${blocks} block sums, subgroups of ${S})`, ok, kernelMs, referenceMs };
  },
};
export default example;
