// The demo's examples (examples/demo.ts runs the same ones), by file name, for the benchmarks that
// time them: `demoExamples(names)` loads those named (all of them when none is), in the demo's order.
import type { Example } from "../examples/example.ts";

const FILES = ["saxpy", "reduction", "histogram", "matmul", "scan", "mandelbrot", "softmax", "hash", "transpose", "matrixmul", "reduce", "warp-reduce", "histogram64", "nbody", "scan4", "bitonic-sort", "fwt", "quasirandom", "black-scholes"];

export async function demoExamples(wanted: readonly string[]): Promise<Example[]> {
  const out: Example[] = [];
  for (const n of FILES) if (!wanted.length || wanted.includes(n)) out.push((await import(`../examples/${n}.ts`)).default);
  return out;
}
