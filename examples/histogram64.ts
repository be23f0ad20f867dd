// A port of cuda-samples' histogram64 (3_CUDA_Features/histogram): a 64-bin histogram of bytes
// in which every thread keeps its own 8-bit counters in shared memory — a `shared(Uint8Array,
// …)` of 64 bins × 64 threads, bin b of thread t at b * 64 + t, so no atomics are needed while
// counting — and processes at most 255 bytes, so that no counter overflows. The block then adds
// up each bin's column (thread t sums bin t, starting at a different thread's counter to spread
// the reads, as the original does) and merges it into the global histogram with Atomics.add.
// On WebGPU, which has no 8-bit memory, neighbouring counters share a 32-bit word, and each
// thread's increment leaves the other threads' counters in it as they are.
import { kernel, shared, syncthreads, blockIdx, threadIdx, type Device } from "gpuc";
import { agree, random, time, timeAsync, type Example } from "./example.ts";

const THREADS = 64;
/** Bytes per thread: at most 255, so that an 8-bit counter cannot wrap. */
const PER_THREAD = 255;

export const histogram64 = kernel(function histogram64(hist: Uint32Array, data: Uint8Array) {
  const counts = shared(Uint8Array, 64 * 64);
  const t = threadIdx.x;
  for (let b = 0; b < 64; b++) counts[b * 64 + t] = 0;
  syncthreads();
  const start = blockIdx.x * 64 * 255;
  for (let k = 0; k < 255; k++) {
    const i = start + k * 64 + t;
    if (i < data.length) counts[(data[i] >> 2) * 64 + t]++;
  }
  syncthreads();
  let sum = 0;
  for (let j = 0; j < 64; j++) sum += counts[t * 64 + ((j + t) & 63)];
  Atomics.add(hist, t, sum);
});

const example: Example = {
  name: "histogram64",
  description: "cuda-samples histogram64: per-thread 8-bit counters in a shared Uint8Array",
  kernels: [{ kernel: histogram64, types: ["u32[]", "u8[]"] }],
  async run(dev: Device) {
    const n = 1 << 20;
    const rnd = random(9);
    const data = Uint8Array.from({ length: n }, () => Math.floor(rnd() * 256));
    const hist = new Uint32Array(64);
    const cfg = { blocks: Math.ceil(n / (THREADS * PER_THREAD)), threads: THREADS };
    await histogram64.launch(dev, cfg, hist, data);
    hist.fill(0);
    const [, kernelMs] = await timeAsync(() => histogram64.launch(dev, cfg, hist, data));
    const [ref, referenceMs] = time(() => {
      const r = new Uint32Array(64);
      for (let i = 0; i < n; i++) r[data[i] >> 2]++;
      return r;
    });
    const ok = agree(hist, ref, dev);
    return { summary: `bins[0..3] = ${Array.from(hist.slice(0, 4)).join(", ")}, total ${hist.reduce((a, v) => a + v, 0)}`, ok, kernelMs, referenceMs };
  },
};
export default example;
