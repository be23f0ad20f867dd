// A port of cuda-samples' quasirandomGenerator (5_Domain_Specific/quasirandomGenerator,
// quasirandomGenerator_kernel.cu), both kernels as their authors wrote them:
// - quasirandomGeneratorKernel reads `__constant__ unsigned int c_Table[QRNG_DIMENSIONS]
//   [QRNG_RESOLUTION]`, a table of tables from scope here (an Array of Uint32Arrays), through
//   `unsigned int *dimBase = &c_Table[threadIdx.y][0]`, a row bound to a const;
// - inverseCNDKernel transforms `d_Input` when it is supplied and makes uniform samples on the
//   fly when it is NULL: `null` here, and the kernel is specialized on it (`if (d_Input)`).
// __umul24 (MUL) is a plain multiplication (the indices stay below 2^24), __logf is Math.log.
// The host's table (initQuasirandomGenerator in the sample's gold code derives it from
// irreducible polynomials) is not what the kernel shows: here dimension 0 is Niederreiter's own
// first dimension (van der Corput: bit b is 2^(30-b)) and the others fixed pseudo-random
// direction numbers.
import { kernel, blockIdx, blockDim, threadIdx, gridDim, type Device } from "gpuc";
import { agree, random, time, timeAsync, type Example } from "./example.ts";

const QRNG_DIMENSIONS = 3;
const QRNG_RESOLUTION = 31;
const INT_SCALE = 1.0 / 0x80000001;

/** c_Table: QRNG_DIMENSIONS rows of QRNG_RESOLUTION direction numbers (31 bits). */
export const c_Table: Uint32Array[] = (() => {
  const rnd = random(31);
  return Array.from({ length: QRNG_DIMENSIONS }, (_, dim) =>
    Uint32Array.from({ length: QRNG_RESOLUTION }, (_, bit) => (dim === 0 ? 1 << (30 - bit) : Math.floor(rnd() * 0x80000000) | (1 << (30 - bit))) & 0x7fffffff));
})();

export const quasirandomGeneratorKernel = kernel(function quasirandomGeneratorKernel(d_Output: Float32Array, seed: number, N: number) {
  const dimBase = c_Table[threadIdx.y];
  const tid = blockDim.x * blockIdx.x + threadIdx.x;
  const threadN = blockDim.x * gridDim.x;

  for (let pos = tid; pos < N; pos += threadN) {
    let result = 0;
    let data = seed + pos;

    for (let bit = 0; bit < QRNG_RESOLUTION; bit++, data >>= 1)
      if (data & 1) {
        result ^= dimBase[bit];
      }

    d_Output[threadIdx.y * N + pos] = (result + 1) * INT_SCALE;
  }
}, { scope: { c_Table, QRNG_RESOLUTION, INT_SCALE } });

// Moro's Inverse Cumulative Normal Distribution function approximation
function MoroInvCNDgpu(x: number): number {
  const a1 = 2.50662823884;
  const a2 = -18.61500062529;
  const a3 = 41.39119773534;
  const a4 = -25.44106049637;
  const b1 = -8.4735109309;
  const b2 = 23.08336743743;
  const b3 = -21.06224101826;
  const b4 = 3.13082909833;
  const c1 = 0.337475482272615;
  const c2 = 0.976169019091719;
  const c3 = 0.160797971491821;
  const c4 = 2.76438810333863e-2;
  const c5 = 3.8405729373609e-3;
  const c6 = 3.951896511919e-4;
  const c7 = 3.21767881768e-5;
  const c8 = 2.888167364e-7;
  const c9 = 3.960315187e-7;

  let z;

  let negate = false;

  // Ensure the conversion to floating point will give a value in the range (0,0.5]
  if (x >= 0x80000000) {
    x = 0xffffffff - x;
    negate = true;
  }

  // Convert to floating point in (0,0.5]
  const x1 = 1.0 / 0xffffffff;
  const x2 = x1 / 2.0;
  const p1 = x * x1 + x2;
  // Convert to floating point in (-0.5,0]
  const p2 = p1 - 0.5;

  // Main body of the bell curve for |p| < 0.42
  if (p2 > -0.42) {
    z = p2 * p2;
    z = p2 * (((a4 * z + a3) * z + a2) * z + a1) /
        ((((b4 * z + b3) * z + b2) * z + b1) * z + 1.0);
  }
  // Special case (Chebychev) for tail
  else {
    z = Math.log(-Math.log(p1));
    z = -(c1 + z * (c2 + z * (c3 + z * (c4 + z * (c5 + z * (c6 + z *
        (c7 + z * (c8 + z * c9))))))));
  }

  // If the original input (x) was in the top half of the range, reflect
  return negate ? -z : z;
}

export const inverseCNDKernel = kernel(function inverseCNDKernel(d_Output: Float32Array, d_Input: Uint32Array | null, pathN: number) {
  const distance = (0xffffffff / (pathN + 1)) >>> 0;
  const tid = blockDim.x * blockIdx.x + threadIdx.x;
  const threadN = blockDim.x * gridDim.x;

  // Transform input number sequence if it's supplied
  if (d_Input) {
    for (let pos = tid; pos < pathN; pos += threadN) {
      const d = d_Input[pos];
      d_Output[pos] = MoroInvCNDgpu(d);
    }
  }
  // Else generate input uniformly placed samples on the fly and write to destination
  else {
    for (let pos = tid; pos < pathN; pos += threadN) {
      const d = (pos + 1) * distance;
      d_Output[pos] = MoroInvCNDgpu(d);
    }
  }
}, { scope: { MoroInvCNDgpu } });

/** The sample's gold getQuasirandomValue (the table's 31-bit sequence, scaled in f32 as the kernel does). */
function quasirandomCPU(N: number, seed: number): Float32Array {
  const out = new Float32Array(QRNG_DIMENSIONS * N);
  for (let dim = 0; dim < QRNG_DIMENSIONS; dim++)
    for (let pos = 0; pos < N; pos++) {
      let result = 0;
      for (let bit = 0, data = seed + pos; bit < QRNG_RESOLUTION; bit++, data >>= 1) if (data & 1) result ^= c_Table[dim][bit];
      out[dim * N + pos] = Math.fround(Math.fround(result + 1) * Math.fround(INT_SCALE));
    }
  return out;
}

/** Whether an inverse-CND result is the gold's (MoroInvCNDcpu in f64) within f32's precision, as the sample checks it. */
function closeToGold(got: Float32Array, input: Uint32Array | null, pathN: number): boolean {
  const distance = Math.floor(0xffffffff / (pathN + 1));
  let num = 0, den = 0;
  for (let pos = 0; pos < pathN; pos++) {
    const want = MoroInvCNDgpu(input ? input[pos] : (pos + 1) * distance);
    num += Math.abs(got[pos] - want);
    den += Math.abs(want);
  }
  return num / den < 1e-6;
}

const example: Example = {
  name: "quasirandom",
  description: "cuda-samples quasirandomGenerator: a table of tables from scope (c_Table[dim][bit]) and an optional input array (NULL: null)",
  kernels: [
    { kernel: quasirandomGeneratorKernel, types: ["f32[]", "i32", "i32"] },
    { kernel: inverseCNDKernel, types: ["f32[]", "u32[]", "i32"] },
    { kernel: inverseCNDKernel, types: ["f32[]", "null", "i32"] },
  ],
  async run(dev: Device) {
    const N = 1 << 16, seed = 0;
    const qrng = new Float32Array(QRNG_DIMENSIONS * N);
    const cfg = { blocks: 128, threads: [128, QRNG_DIMENSIONS] as [number, number] };
    await quasirandomGeneratorKernel.launch(dev, cfg, qrng, seed, N);
    const [, kernelMs] = await timeAsync(() => quasirandomGeneratorKernel.launch(dev, cfg, qrng, seed, N));
    const [ref, referenceMs] = time(() => quasirandomCPU(N, seed));
    // The inverse CND of the generator's first dimension as integers, and of samples made on the fly.
    const pathN = 1 << 14;
    const input = Uint32Array.from({ length: pathN }, (_, i) => Math.floor(qrng[i] * 0xffffffff) >>> 0);
    const fromInput = new Float32Array(pathN), onTheFly = new Float32Array(pathN);
    await inverseCNDKernel.launch(dev, { blocks: 128, threads: 128 }, fromInput, input, pathN);
    await inverseCNDKernel.launch(dev, { blocks: 128, threads: 128 }, onTheFly, null, pathN);
    const ok = agree(qrng, ref, dev) && closeToGold(fromInput, input, pathN) && closeToGold(onTheFly, null, pathN);
    return { summary: `qrng[0..2] = ${Array.from(qrng.slice(1, 4), (v) => v.toFixed(4)).join(", ")}; inverse CND of NULL input [0] = ${onTheFly[0].toFixed(4)}`, ok, kernelMs, referenceMs };
  },
};
export default example;
