// The example app's work, for the page (main.ts) and the Node script (node.ts): every kernel once,
// with results checked against plain JavaScript. Returns one line per kernel, and when the first
// result was back.
import type { Device } from "gpuc/runtime";
import { blur, hash, saxpy, shade } from "./kernels.ts";

export interface KernelResult { kernel: string; ok: boolean; sample: string }

/** The results, and when the first kernel's result was back (performance.now(): ms since the process or page started). */
export async function runAll(dev: Device): Promise<{ results: KernelResult[]; firstResultMs: number }> {
  const n = 1000;
  const cfg = { blocks: Math.ceil(n / 64), threads: 64 };
  const out: KernelResult[] = [];
  const check = (kernel: string, got: ArrayLike<number>, want: (i: number) => number, tol = 1e-6) => {
    let ok = got.length === n;
    for (let i = 0; i < n && ok; i++) ok = Math.abs(got[i] - want(i)) <= tol * Math.max(1, Math.abs(want(i)));
    out.push({ kernel, ok, sample: Array.from(got).slice(0, 3).map((v) => +v.toFixed(4)).join(", ") });
  };

  const x = Float32Array.from({ length: n }, (_, i) => i % 7);
  const y = Float32Array.from({ length: n }, (_, i) => i % 3);
  await saxpy.launch(dev, cfg, 2.5, x, y);
  const firstResultMs = performance.now();
  check("saxpy", y, (i) => Math.fround(Math.fround(2.5 * (i % 7)) + (i % 3)));

  const s = new Float32Array(n);
  await shade.launch(dev, cfg, s, n);
  check("shade", s, (i) => { const v = i / n; return 4 * v * v * (3 - 2 * v); }, 1e-5);

  const b = new Float32Array(n);
  await blur.launch(dev, cfg, x, b);
  check("blur", b, (i) => 0.25 * x[Math.max(i - 1, 0)] + 0.5 * x[i] + 0.25 * x[Math.min(i + 1, n - 1)]);

  const h = new Uint32Array(n);
  await hash.launch(dev, cfg, 7, h);
  check("hash", h, (i) => {
    let v = (7 ^ i) >>> 0;
    v = Math.imul(v ^ (v >>> 16), 0x45d9f3b) >>> 0;
    v = Math.imul(v ^ (v >>> 16), 0x45d9f3b) >>> 0;
    return (v ^ (v >>> 16)) >>> 0;
  }, 0);
  return { results: out, firstResultMs };
}
