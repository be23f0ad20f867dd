// The example app's kernels (examples/app/README.md): written as with the compiler, imported from
// gpuc/runtime. The bundler plugin (gpuc/plugin) compiles them at build time; the bundle runs
// them from the image it emits beside it.
import { kernel, blockIdx, blockDim, threadIdx, type f32, type i32 } from "gpuc/runtime";

/** y = a·x + y */
export const saxpy = kernel(function saxpy(a: f32, x: Float32Array, y: Float32Array) {
  const i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < y.length) y[i] = a * x[i] + y[i];
});

/** A helper and a constant from the kernel's scope. */
function smooth(v: number): number {
  return v * v * (3 - 2 * v);
}
const GAIN = 4;
export const shade = kernel(function shade(out: Float32Array, n: i32) {
  const i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = GAIN * smooth(i / n);
}, { scope: { smooth, GAIN } });

/** A constant table, read through the kernel's scope (a binding on WebGPU, a table on the CPU). */
const WEIGHTS = new Float32Array([0.25, 0.5, 0.25]);
export const blur = kernel(function blur(x: Float32Array, y: Float32Array) {
  const i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= y.length) return;
  let acc = 0;
  for (let k = 0; k < 3; k++) {
    const j = Math.min(Math.max(i + k - 1, 0), x.length - 1);
    acc += WEIGHTS[k] * x[j];
  }
  y[i] = acc;
}, { scope: { WEIGHTS }, relocation: "table" });

/** Integer work: a hash per element, typed through the types option. */
export const hash = kernel(function hash(seed: number, out: Uint32Array) {
  const i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= out.length) return;
  let h = (seed ^ i) >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x45d9f3b) >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x45d9f3b) >>> 0;
  out[i] = (h ^ (h >>> 16)) >>> 0;
}, { types: { seed: "u32" } });
