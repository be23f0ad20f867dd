// A port of cuda-samples' BlackScholes (5_Domain_Specific/BlackScholes, BlackScholes_kernel.cuh)
// as its authors wrote it: BlackScholesGPU prices two options per thread from `float2` arrays
// (d_StockPrice[opt].x and .y), which are struct arrays here (`structArray({ x: Float32Array, y:
// Float32Array }, n)`: one typed array per field, read as objects), and stores `make_float2(…)`
// as an object `{ x, y }`. BlackScholesBodyGPU's `float &CallResult, float &PutResult` references
// are an object it fills (an out-parameter). __expf/__logf are Math.exp/Math.log, __fdividef a
// division, rsqrtf 1 / Math.sqrt.
import { kernel, structArray, blockIdx, blockDim, threadIdx, type Device, type StructArray } from "gpuc";
import { random, time, timeAsync, type Example } from "./example.ts";

// Polynomial approximation of cumulative normal distribution function
function cndGPU(d: number): number {
  const A1 = 0.31938153;
  const A2 = -0.356563782;
  const A3 = 1.781477937;
  const A4 = -1.821255978;
  const A5 = 1.330274429;
  const RSQRT2PI = 0.39894228040143267793994605993438;

  const K = 1.0 / (1.0 + 0.2316419 * Math.abs(d));

  let cnd = RSQRT2PI * Math.exp(-0.5 * d * d) *
            (K * (A1 + K * (A2 + K * (A3 + K * (A4 + K * A5)))));

  if (d > 0) cnd = 1.0 - cnd;

  return cnd;
}

// Black-Scholes formula for both call and put
function BlackScholesBodyGPU(result: { CallResult: number; PutResult: number },
                             S: number,  // Stock price
                             X: number,  // Option strike
                             T: number,  // Option years
                             R: number,  // Riskless rate
                             V: number,  // Volatility rate
) {
  const sqrtT = 1.0 / (1.0 / Math.sqrt(T));
  const d1 = (Math.log(S / X) + (R + 0.5 * V * V) * T) / (V * sqrtT);
  const d2 = d1 - V * sqrtT;

  const CNDD1 = cndGPU(d1);
  const CNDD2 = cndGPU(d2);

  // Calculate Call and Put simultaneously
  const expRT = Math.exp(-R * T);
  result.CallResult = S * CNDD1 - X * expRT * CNDD2;
  result.PutResult = X * expRT * (1.0 - CNDD2) - S * (1.0 - CNDD1);
}

type Float2s = StructArray<{ x: number; y: number }>;

// Process an array of optN options on GPU
export const BlackScholesGPU = kernel(function BlackScholesGPU(d_CallResult: Float2s, d_PutResult: Float2s, d_StockPrice: Float2s,
  d_OptionStrike: Float2s, d_OptionYears: Float2s, Riskfree: number, Volatility: number, optN: number) {
  const opt = blockDim.x * blockIdx.x + threadIdx.x;

  // Calculating 2 options per thread to increase ILP (instruction level parallelism)
  if (opt < optN / 2) {
    const r1 = { CallResult: 0, PutResult: 0 };
    const r2 = { CallResult: 0, PutResult: 0 };
    BlackScholesBodyGPU(r1, d_StockPrice[opt].x, d_OptionStrike[opt].x, d_OptionYears[opt].x, Riskfree, Volatility);
    BlackScholesBodyGPU(r2, d_StockPrice[opt].y, d_OptionStrike[opt].y, d_OptionYears[opt].y, Riskfree, Volatility);
    d_CallResult[opt] = { x: r1.CallResult, y: r2.CallResult };
    d_PutResult[opt] = { x: r1.PutResult, y: r2.PutResult };
  }
}, { scope: { BlackScholesBodyGPU, cndGPU } });

/** The sample's gold BlackScholesBodyCPU (in double precision). */
function blackScholesCPU(S: number, X: number, T: number, R: number, V: number): [number, number] {
  const r = { CallResult: 0, PutResult: 0 };
  BlackScholesBodyGPU(r, S, X, T, R, V);
  return [r.CallResult, r.PutResult];
}

const float2s = (n: number): Float2s => structArray({ x: Float32Array, y: Float32Array }, n);

const example: Example = {
  name: "black-scholes",
  description: "cuda-samples BlackScholes: float2 arrays as struct arrays (d_StockPrice[opt].x), an out-parameter object for float& results",
  kernels: [{ kernel: BlackScholesGPU, types: ["{ x: f32, y: f32 }[]", "{ x: f32, y: f32 }[]", "{ x: f32, y: f32 }[]", "{ x: f32, y: f32 }[]", "{ x: f32, y: f32 }[]", "f32", "f32", "i32"] }],
  async run(dev: Device) {
    const optN = 1 << 16, R = 0.02, V = 0.3;
    const rnd = random(17);
    const price = float2s(optN / 2), strike = float2s(optN / 2), years = float2s(optN / 2);
    for (const [a, lo, hi] of [[price, 5, 30], [strike, 1, 100], [years, 0.25, 10]] as [Float2s, number, number][])
      for (const f of [a.fields.x, a.fields.y]) for (let i = 0; i < f.length; i++) f[i] = lo + (hi - lo) * rnd();
    const call = float2s(optN / 2), put = float2s(optN / 2);
    const cfg = { blocks: Math.ceil(optN / 2 / 128), threads: 128 };
    await BlackScholesGPU.launch(dev, cfg, call, put, price, strike, years, R, V, optN);
    const [, kernelMs] = await timeAsync(() => BlackScholesGPU.launch(dev, cfg, call, put, price, strike, years, R, V, optN));
    // The sample's check: the L1 error of the call prices against the gold, relative, below 1e-6.
    const [ok, referenceMs] = time(() => {
      let sumDelta = 0, sumRef = 0;
      for (let opt = 0; opt < optN / 2; opt++) for (const c of ["x", "y"] as const) {
        const [refCall] = blackScholesCPU(price.fields[c][opt], strike.fields[c][opt], years.fields[c][opt], R, V);
        sumDelta += Math.abs(refCall - call.fields[c][opt]);
        sumRef += Math.abs(refCall);
      }
      return sumDelta / sumRef < 1e-6;
    });
    return { summary: `call[0] = (${call[0].x.toFixed(4)}, ${call[0].y.toFixed(4)}), put[0] = (${put[0].x.toFixed(4)}, ${put[0].y.toFixed(4)})`, ok, kernelMs, referenceMs };
  },
};
export default example;
