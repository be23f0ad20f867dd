// Compile time against kernel size (issue #17): generated kernels of about 10, 100, 1,000 and
// 5,000 statements, each compiled warm (gpuc already loaded, the compiler warmed up on another
// kernel) for every target; the time of a compile should grow linearly with the statements.
//
//   npm run build && node bench/scaling.mjs [rounds]
//
// A kernel is straight-line code of the shapes real kernels have, drawn by a fixed PRNG: a
// running offset (t = t + c), loads and stores through it and through the thread index, float
// arithmetic on a few locals, branches on loaded values, short counted loops, helper calls. Each
// compile is of a new kernel object over a new function (new Function), so no cache or inference
// result is reused; GPUC_CACHE=0 keeps the disk out. Prints a markdown table: median ms per
// compile, µs per statement, and that per-statement cost against the 100-statement kernel's
// (1.00 = linear; a quadratic pass shows as a ratio growing with the size).
process.env.GPUC_CACHE = "0";
const gpuc = await import("gpuc");

const SIZES = [10, 100, 1000, 5000];
const TARGETS = ["js", "wgsl", "ptx"];
const rounds = Number(process.argv[2] ?? 5);

/** A kernel of about `n` statements (each a line of the body), text only. */
function source(n, seed) {
  let s = seed >>> 0;
  const rnd = () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32);
  const pick = (a) => a[Math.floor(rnd() * a.length)];
  const lines = ["const i = blockIdx.x * blockDim.x + threadIdx.x;", "let t = i, a = 0, b = 1, c = 2;"];
  const v = () => pick(["a", "b", "c"]);
  while (lines.length < n) {
    const r = rnd();
    if (r < 0.3) lines.push(`${v()} = ${v()} * ${(rnd() * 4).toFixed(2)} + ${v()};`);
    else if (r < 0.45) lines.push(`${v()} = x[(t + ${Math.floor(rnd() * 8)}) & 1023] - ${v()};`);
    else if (r < 0.55) lines.push(`t = t + ${1 + Math.floor(rnd() * 3)};`);
    else if (r < 0.65) lines.push(`if (i < o.length) o[i] = ${v()} + ${v()};`);
    else if (r < 0.75) lines.push(`if (${v()} > ${(rnd() * 4).toFixed(1)}) { ${v()} = Math.sqrt(Math.abs(${v()})); } else { ${v()} = ${v()} - 1; }`);
    else if (r < 0.85) lines.push(`for (let k = 0; k < 4; k++) ${v()} += x[(i + k) & 1023];`);
    else if (r < 0.95) lines.push(`${v()} = mix(${v()}, ${v()}, 0.25);`);
    else lines.push(`o[(t + ${Math.floor(rnd() * 4)}) & 1023] = ${v()};`);
  }
  lines.push("o[i & 1023] = a + b + c;");
  return `return function k${n}_${seed}(o, x) {\n  ${lines.join("\n  ")}\n}`;
}
function mix(p, q, w) { return p + (q - p) * w; }

const types = ["f32[]", "f32[]"];
const compileOnce = async (n, seed, target) => {
  const fn = new Function(source(n, seed))();
  const k = gpuc.kernel(fn, { scope: { mix } });
  const t0 = performance.now();
  await k.compile({ target, types });
  return performance.now() - t0;
};

// Warm-up: the compiler's code runs once on each target, at each size, before any timing.
for (const target of TARGETS) for (const n of SIZES) await compileOnce(n, 999, target);

const median = (a) => { const b = [...a].sort((x, y) => x - y); return b[Math.floor(b.length / 2)]; };
const results = {};
for (let r = 0; r < rounds; r++)
  for (const n of SIZES) for (const target of TARGETS) (results[`${target}/${n}`] ??= []).push(await compileOnce(n, 1 + r, target));

const rows = [];
for (const target of TARGETS) {
  const base = median(results[`${target}/100`]) / 100;
  for (const n of SIZES) {
    const ms = median(results[`${target}/${n}`]);
    rows.push(`| ${target} | ${n} | ${ms.toFixed(2)} | ${(ms * 1000 / n).toFixed(1)} | ${(ms / n / base).toFixed(2)} |`);
  }
}
console.log(`Warm compile against kernel size (median of ${rounds} kernels each, ms; node ${process.version})\n`);
console.log("| target | statements | compile (ms) | µs per statement | per statement ÷ at 100 |");
console.log("| --- | --- | --- | --- | --- |");
console.log(rows.join("\n"));
