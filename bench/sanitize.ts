// What the sanitizer costs (issue #34's acceptance figure: within 20× of the unsanitized CPU device
// on the demo's examples): each example's kernel time (its own `kernelMs`: the launches after a
// first, compiling one) on the CPU device as a user gets it (`device("cpu")`: a worker per core,
// WebAssembly where faster), on the sanitized CPU device (`sanitize: true`: JavaScript on the
// calling thread, every access checked), and as plain JavaScript on one thread (`wasm: false,
// threads: 1`: how much of the ratio is the sanitizer's own). Medians of RUNS runs (GPUC_BENCH_RUNS,
// default 5), the devices alternated within each run after WARMUP runs of each (default 3); the
// ratio per example and the geometric mean. Every sanitized run must report nothing and agree with
// plain JavaScript (the examples' own check).
// Usage: node --import tsx bench/sanitize.ts [example …]. Never part of `npm test`.
import { device, type Device } from "gpuc";
import { demoExamples } from "./demo-examples.ts";

const RUNS = Number(process.env.GPUC_BENCH_RUNS ?? 5);
const WARMUP = Number(process.env.GPUC_BENCH_WARMUP ?? 3);
process.env.GPUC_CACHE ??= "0";

const examples = await demoExamples(process.argv.slice(2));

const configs: [string, Device][] = [
  ["cpu", await device("cpu", { sanitize: false })],
  ["cpu+san", await device("cpu", { sanitize: true })],
  ["js, 1 thread", await device("cpu", { sanitize: false, wasm: false, threads: 1 })],
];
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
const geomean = (xs: number[]) => Math.exp(xs.reduce((a, x) => a + Math.log(x), 0) / xs.length);

console.log(`| example | cpu ms | cpu+san ms | js, 1 thread ms | cpu+san / cpu | cpu+san / js |\n| --- | ---: | ---: | ---: | ---: | ---: |`);
const ratios: number[] = [], own: number[] = [];
for (const ex of examples) {
  const times = new Map<string, number[]>(configs.map(([n]) => [n, []]));
  for (let r = 0; r < WARMUP + RUNS; r++) {
    for (const [name, dev] of configs) {
      const out = await ex.run(dev);
      if (!out.ok) throw new Error(`${ex.name} on ${name} does not agree with plain JavaScript`);
      if (r >= WARMUP) times.get(name)!.push(out.kernelMs);
    }
  }
  const [c, s, j] = configs.map(([n]) => median(times.get(n)!));
  ratios.push(s / c);
  own.push(s / j);
  console.log(`| ${ex.name} | ${c.toFixed(2)} | ${s.toFixed(1)} | ${j.toFixed(1)} | ${(s / c).toFixed(1)}× | ${(s / j).toFixed(1)}× |`);
}
console.log(`| geomean | | | | ${geomean(ratios).toFixed(1)}× | ${geomean(own).toFixed(1)}× |`);
for (const [, dev] of configs) dev.close();
