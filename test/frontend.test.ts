// The front end: every function form parses, names resolve locals → scope → intrinsics, and
// what is outside the language is named.

import { test } from "node:test";
import assert from "node:assert/strict";
import { kernel, device, CompileError } from "../src/index.ts";
import * as F from "./fixtures/forms.mjs";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));

const dev = await device("cpu");
// A scope name a kernel below uses (bound through `scope`, never on the host).
declare const M: number;

async function run(fn: Function, n: number, extra: unknown[] = [], scope?: Record<string, unknown>): Promise<number[]> {
  const out = new Float32Array(n).fill(NaN);
  await kernel(fn, { scope }).launch(dev, { blocks: 1, threads: n }, out, ...extra);
  return Array.from(out);
}

test("arrow functions, expression bodies and methods are kernels", async () => {
  assert.deepEqual(await run(F.arrow, 2, [4]), [8, 8]);
  assert.deepEqual(await run(F.arrowExpr, 2), [7, 7]);
  assert.deepEqual(await run(F.obj.method, 2), [3, 3]);
});

test("nested function declarations are hoisted helpers", async () => {
  assert.deepEqual(await run(F.nested, 3), [8, 9, 12]);
});

test("a nested helper reads the enclosing function's locals (each call passes them)", async () => {
  assert.deepEqual(await run(F.captures, 1), [4]);
});

test("locals shadow intrinsics; block scopes nest", async () => {
  const out = new Float32Array(2);
  await kernel(F.shadowing).launch(dev, { blocks: 1, threads: 1 }, out);
  assert.deepEqual(Array.from(out), [10, 7]);
});

test("esbuild's __name(fn, \"fn\") statements are ignored", async () => {
  assert.deepEqual(await run(F.esbuildKeepNames, 2), [2, 2]);
});

test("intrinsics reached through a namespace import resolve", async () => {
  assert.deepEqual(await run(F.qualified, 2), [1, 1]);
});

test("scope: locals shadow scope values, scope values are constants", async () => {
  const k = kernel(function sc(out: Float32Array) { const N = 1; out[0] = N + M; }, { scope: { N: 100, M: 0.5 } });
  const out = new Float32Array(1);
  await k.launch(dev, { blocks: 1, threads: 1 }, out);
  assert.deepEqual(Array.from(out), [1.5]);
});

test("host stand-ins for intrinsics explain themselves", async () => {
  const { threadIdx } = await import("../src/index.ts");
  assert.throws(() => threadIdx.x, /threadIdx\.x is only available inside a kernel/);
});

test("the compiler knows every intrinsic a kernel's scope may hold, by value; their module does nothing when it loads (a bundle drops what it does not use)", async () => {
  const intrinsics = await import("../src/intrinsics.ts");
  const byValue = intrinsics.intrinsicsByValue();
  const exported = Object.entries(intrinsics).filter(([name]) => name !== "intrinsicsByValue");
  assert.deepEqual(exported.filter(([name, v]) => byValue.get(v) !== name).map(([name]) => name), [], "an intrinsic the compiler would not know in a scope");
  const { build } = await import("esbuild");
  const r = await build({ stdin: { contents: `import { atomicAdd } from "./src/intrinsics.ts"; console.log(atomicAdd);`, resolveDir: root, loader: "ts" }, bundle: true, write: false, format: "esm", logLevel: "error" });
  const out = r.outputFiles[0].text;
  assert.ok(out.includes("function atomicAdd") && !/threadIdx|syncthreads|subgroupBallot/.test(out), out);
});

test("kernel() rejects what is not a function", () => {
  assert.throws(() => kernel(42 as never), (e: unknown) => e instanceof CompileError && e.kind === "unsupported-value");
});
