// One cold compile in a fresh process, for bench/run.ts and bench/first-compile.mjs:
// `node bench/cold.mjs <kernel|import> [target, default js]`.
// Prints one JSON line of in-process timings (ms). The kernels' own module is loaded before the
// clock starts, so the timings cover gpuc alone: import("gpuc"), kernel(), the first compile().
import { KERNELS } from "./kernels.mjs";

const which = process.argv[2];
const t0 = performance.now();
const gpuc = await import("gpuc");
const t1 = performance.now();
const result = { which, startupMs: t0, importMs: t1 - t0 };
if (which !== "import") {
  const spec = KERNELS[which];
  if (!spec) throw new Error(`unknown kernel '${which}'`);
  const k = gpuc.kernel(spec.fn, spec.scope ? { scope: spec.scope } : undefined);
  const t2 = performance.now();
  const art = await k.compile({ target: process.argv[3] ?? "js", types: spec.types });
  const t3 = performance.now();
  if (!art.code.length) throw new Error("compile() returned no code");
  Object.assign(result, { kernelMs: t2 - t1, firstCompileMs: t3 - t2, importToArtifactMs: t3 - t0, codeChars: art.code.length });
}
process.stdout.write(JSON.stringify(result) + "\n");
