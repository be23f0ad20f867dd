import { kernel } from "gpuc";
import { KERNELS } from "./kernels.mjs";
const which = process.argv[2] ?? "mandelbrot";
const spec = KERNELS[which];
for (let round = 0; round < 6; round++) {
  const t = [];
  for (let i = 0; i < 200; i++) {
    const t0 = performance.now();
    await kernel(spec.fn, spec.scope ? { scope: process.argv[3] === "fresh" ? { ...spec.scope } : spec.scope } : undefined).compile({ target: "js", types: spec.types });
    t.push(performance.now() - t0);
  }
  if (process.argv[4] === "gc") globalThis.gc();
  t.sort((a, b) => a - b);
  console.log(`after ${(round + 1) * 200}: median ${t[100].toFixed(2)} ms, heapUsed ${(process.memoryUsage().heapUsed / 2 ** 20).toFixed(1)} MiB`);
}
