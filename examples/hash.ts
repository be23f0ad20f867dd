// Integer hashing: 32-bit wrap-around, Math.imul, unsigned shifts, exactly as on a GPU.
import { kernel, blockIdx, blockDim, threadIdx, type Device, type u32 } from "gpuc";
import { agree, time, timeAsync, type Example } from "./example.ts";

/** MurmurHash3's 32-bit finalizer. */
function fmix32(h: u32): u32 {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b) >>> 0;
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35) >>> 0;
  h ^= h >>> 16;
  return h >>> 0;
}

export const hash = kernel(function hash(out: Uint32Array, seed: u32, rounds: number) {
  const i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= out.length) return;
  let h = (seed ^ i) >>> 0;
  for (let r = 0; r < rounds; r++) h = fmix32((h + r) >>> 0);
  out[i] = h;
}, { scope: { fmix32 } });

const example: Example = {
  name: "hash",
  description: "16 rounds of MurmurHash3's finalizer over 1M indices",
  kernels: [{ kernel: hash, types: ["u32[]", "u32", "i32"] }],
  async run(dev: Device) {
    const n = 1 << 20, seed = 0x9747b28c, rounds = 16;
    const out = new Uint32Array(n);
    const cfg = { blocks: n / 256, threads: 256 };
    await hash.launch(dev, cfg, out, seed, rounds);
    out.fill(0);
    const [, kernelMs] = await timeAsync(() => hash.launch(dev, cfg, out, seed, rounds));
    const ref = new Uint32Array(n);
    const [, referenceMs] = time(() => {
      for (let i = 0; i < n; i++) {
        let h = (seed ^ i) >>> 0;
        for (let r = 0; r < rounds; r++) {
          let x = (h + r) >>> 0;
          x ^= x >>> 16; x = Math.imul(x, 0x85ebca6b) >>> 0; x ^= x >>> 13; x = Math.imul(x, 0xc2b2ae35) >>> 0; x ^= x >>> 16;
          h = x >>> 0;
        }
        ref[i] = h;
      }
    });
    const ok = agree(out, ref, dev);
    return { summary: `hash[0..2] = ${Array.from(out.slice(0, 3), (v) => "0x" + v.toString(16).padStart(8, "0")).join(", ")}`, ok, kernelMs, referenceMs };
  },
};
export default example;
