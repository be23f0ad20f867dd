// A port of cuda-samples' sortingNetworks (2_Concepts_and_Techniques/sortingNetworks,
// bitonicSort.cu): bitonicSortShared sorts short arrays of key-value pairs in shared memory, one
// block each, written as the original is — its pointer bumps
// (`d_SrcKey += blockIdx.x * SHARED_SIZE_LIMIT + threadIdx.x`) are JavaScript's rebinding to a
// view (`d_SrcKey = d_SrcKey.subarray(…)`), and Comparator's references to two shared elements
// are the arrays and the two positions. (`size / 2` of the unsigned original is `size >> 1`: in
// JavaScript `/` gives a float, which gpuc does not take as an index.)
import { kernel, shared, syncthreads, blockIdx, threadIdx, type Device } from "gpuc";
import { agree, random, time, timeAsync, type Example } from "./example.ts";

// (The original sorts 1,024 pairs per block of 512 threads; WebGPU devices promise 256 threads per
// workgroup, so here 512 pairs per block of 256.)
const SHARED_SIZE_LIMIT = 512;

function Comparator(key: Uint32Array, val: Uint32Array, a: number, b: number, dir: number) {
  if ((key[a] > key[b] ? 1 : 0) === dir) {
    let t = key[a]; key[a] = key[b]; key[b] = t;
    t = val[a]; val[a] = val[b]; val[b] = t;
  }
}

export const bitonicSortShared = kernel(function bitonicSortShared(d_DstKey: Uint32Array, d_DstVal: Uint32Array, d_SrcKey: Uint32Array, d_SrcVal: Uint32Array, arrayLength: number, dir: number) {
  // Shared memory storage for one or more short vectors
  const s_key = shared(Uint32Array, SHARED_SIZE_LIMIT);
  const s_val = shared(Uint32Array, SHARED_SIZE_LIMIT);
  // Offset to the beginning of subbatch and load data
  d_SrcKey = d_SrcKey.subarray(blockIdx.x * SHARED_SIZE_LIMIT + threadIdx.x);
  d_SrcVal = d_SrcVal.subarray(blockIdx.x * SHARED_SIZE_LIMIT + threadIdx.x);
  d_DstKey = d_DstKey.subarray(blockIdx.x * SHARED_SIZE_LIMIT + threadIdx.x);
  d_DstVal = d_DstVal.subarray(blockIdx.x * SHARED_SIZE_LIMIT + threadIdx.x);
  s_key[threadIdx.x + 0] = d_SrcKey[0];
  s_val[threadIdx.x + 0] = d_SrcVal[0];
  s_key[threadIdx.x + SHARED_SIZE_LIMIT / 2] = d_SrcKey[SHARED_SIZE_LIMIT / 2];
  s_val[threadIdx.x + SHARED_SIZE_LIMIT / 2] = d_SrcVal[SHARED_SIZE_LIMIT / 2];
  for (let size = 2; size < arrayLength; size <<= 1) {
    // Bitonic merge
    const ddd = dir ^ ((threadIdx.x & (size >> 1)) !== 0 ? 1 : 0);
    for (let stride = size >> 1; stride > 0; stride >>= 1) {
      syncthreads();
      const pos = 2 * threadIdx.x - (threadIdx.x & (stride - 1));
      Comparator(s_key, s_val, pos + 0, pos + stride, ddd);
    }
  }
  // ddd == dir for the last bitonic merge step
  for (let stride = arrayLength >> 1; stride > 0; stride >>= 1) {
    syncthreads();
    const pos = 2 * threadIdx.x - (threadIdx.x & (stride - 1));
    Comparator(s_key, s_val, pos + 0, pos + stride, dir);
  }
  syncthreads();
  d_DstKey[0] = s_key[threadIdx.x + 0];
  d_DstVal[0] = s_val[threadIdx.x + 0];
  d_DstKey[SHARED_SIZE_LIMIT / 2] = s_key[threadIdx.x + SHARED_SIZE_LIMIT / 2];
  d_DstVal[SHARED_SIZE_LIMIT / 2] = s_val[threadIdx.x + SHARED_SIZE_LIMIT / 2];
}, { scope: { SHARED_SIZE_LIMIT, Comparator } });

const example: Example = {
  name: "bitonic-sort",
  description: "cuda-samples sortingNetworks bitonicSortShared: pointer bumps as rebound views",
  kernels: [{ kernel: bitonicSortShared, types: ["u32[]", "u32[]", "u32[]", "u32[]", "i32", "i32"] }],
  async run(dev: Device) {
    const batches = 64, n = batches * SHARED_SIZE_LIMIT;
    const rnd = random(12);
    const keys = Uint32Array.from({ length: n }, () => Math.floor(rnd() * 2 ** 32)), vals = Uint32Array.from({ length: n }, (_, i) => i);
    const dk = new Uint32Array(n), dv = new Uint32Array(n);
    const cfg = { blocks: batches, threads: SHARED_SIZE_LIMIT / 2 };
    await bitonicSortShared.launch(dev, cfg, dk, dv, keys, vals, SHARED_SIZE_LIMIT, 1);
    const [, kernelMs] = await timeAsync(() => bitonicSortShared.launch(dev, cfg, dk, dv, keys, vals, SHARED_SIZE_LIMIT, 1));
    const [ref, referenceMs] = time(() => {
      const out = new Uint32Array(n);
      for (let b = 0; b < batches; b++) out.set(keys.subarray(b * SHARED_SIZE_LIMIT, (b + 1) * SHARED_SIZE_LIMIT).slice().sort(), b * SHARED_SIZE_LIMIT);
      return out;
    });
    // Keys sorted per batch, and each value still with its key (equal keys may swap their values).
    const valuesFollow = Array.from(dv).every((v, i) => keys[v] === dk[i] && Math.floor(v / SHARED_SIZE_LIMIT) === Math.floor(i / SHARED_SIZE_LIMIT));
    const ok = agree(dk, ref, dev) && valuesFollow;
    return { summary: `batch 0 keys[0..2] = ${Array.from(dk.slice(0, 3)).join(", ")}; values follow their keys: ${valuesFollow}`, ok, kernelMs, referenceMs };
  },
};
export default example;
