// Optional arrays (issue #32, item 8): `null` or `undefined` for an array parameter, as CUDA's
// NULL pointer (cuda-samples' quasirandomGenerator launches inverseCNDKernel with d_Input NULL).
// A kernel is specialized on the absence: its tests (`if (a)`, `a != null`, `a === undefined`,
// `a ? a[i] : 0`, `a ?? b`, `a?.[i]`, `a?.length`) are constants there, and the absent array has
// no parameter in the code. Indexing one that is absent is JavaScript's TypeError, a KernelError
// at its line. Each result is compared with plain JavaScript's.
//
// Every test runs on each device of the matrix (helpers.ts `dtest`; the CPU run also compiles
// each specialization, null ones included, to PTX for ptxas and to SPIR-V for spirv-val).

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { kernel, threadIdx, blockIdx, blockDim } from "../src/index.ts";
import { dtest, openDevices, kernelError, rejectsCompile, poisonF32, assertLocationIn, lineOfIn } from "./helpers.ts";

await openDevices();
const lineOf = lineOfIn(import.meta.url);
const assertLocation = assertLocationIn(import.meta.url);

/** A helper given the optional array as it is: specialized on null too. */
function pick(a: Float32Array | null, i: number, fallback: number) {
  if (a === null) return fallback;
  return a[i];
}

/** Every form of a test of an optional array, in a helper: the kernel calls it, and so does the plain-JS reference. */
function formsAt(a: Float32Array | null | undefined, b: Float32Array, i: number): number {
  let v = 0;
  if (a) v += a[i];
  if (!a) v += 1000;
  if (a != null) v += 1;
  if (a !== null) v += 10;
  if (a === undefined) v += 100;
  v += a ? a[i] * 2 : -1;
  const src = a ?? b;
  v += src[i];
  v += a?.[i] ?? 0.5;
  v += a?.length ?? 7;
  v += pick(a ?? null, i, 3);
  const alias = a;
  return alias == null ? -v : v;
}

const forms = kernel(function optionalForms(out: Float32Array, a: Float32Array | null | undefined, b: Float32Array, n: number) {
  const i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  out[i] = a ? formsAt(a, b, i) + a[i] : formsAt(a, b, i);
}, { scope: { formsAt, pick } });

/** The same function, run as plain JavaScript over the launch. */
function optionalFormsJS(a: Float32Array | null | undefined, b: Float32Array, n: number): Float32Array {
  return Float32Array.from({ length: n }, (_, i) => (a ? Math.fround(formsAt(a, b, i) + a[i]) : formsAt(a, b, i)));
}

describe("optional arrays (null and undefined for an array parameter)", () => {
  dtest("every test of an optional array, with the array, null and undefined", async ({ dev, same }) => {
    const n = 40;
    const a = Float32Array.from({ length: n }, (_, i) => i * 0.25 - 3), b = Float32Array.from({ length: n }, (_, i) => 7 - i);
    for (const given of [a, null, undefined]) {
      const out = poisonF32(n);
      await forms.launch(dev, { blocks: 2, threads: 32 }, out, given, b, n);
      same(out, optionalFormsJS(given, b, n), String(given === a ? "array" : given));
    }
  });

  dtest("indexing an absent array is JavaScript's TypeError, at its line", async ({ dev }) => {
    const k = kernel(function readsAbsent(out: Float32Array, input: Float32Array | null) {
      const i = threadIdx.x;
      out[i] = input![i] + 1; // @readNull
    });
    const err = await kernelError(k.launch(dev, { blocks: 1, threads: 4 }, new Float32Array(4), null), "exception");
    assert.match(err.message, /TypeError: cannot read an element of null/);
    assertLocation(err.location, lineOf("readNull"));
    const w = kernel(function writesAbsent(out: Int32Array | undefined, n: number) {
      if (n > 2) out![threadIdx.x] = n; // @writeUndefined
    });
    const err2 = await kernelError(w.launch(dev, { blocks: 1, threads: 2 }, undefined, 3), "exception");
    assert.match(err2.message, /TypeError: cannot set an element of undefined/);
    assertLocation(err2.location, lineOf("writeUndefined"));
    // Not reached: no error, and nothing written.
    await w.launch(dev, { blocks: 1, threads: 2 }, undefined, 1);
  });

  dtest("quasirandomGenerator's inverseCNDKernel shape: a loop over the input if it is supplied, else samples made on the fly", async ({ dev, same }) => {
    const k = kernel(function inverseCND(d_Output: Float32Array, d_Input: Uint32Array | null, pathN: number) {
      const distance = ((-1 >>> 0) / (pathN + 1)) >>> 0;
      const tid = blockDim.x * blockIdx.x + threadIdx.x;
      const threadN = blockDim.x * 4;
      if (d_Input) {
        for (let pos = tid; pos < pathN; pos += threadN) d_Output[pos] = d_Input[pos] / 4294967296;
      } else {
        for (let pos = tid; pos < pathN; pos += threadN) d_Output[pos] = (((pos + 1) * distance) >>> 0) / 4294967296;
      }
    });
    const pathN = 300, input = Uint32Array.from({ length: pathN }, (_, i) => (i * 2654435761) >>> 0);
    const withInput = poisonF32(pathN), without = poisonF32(pathN);
    await k.launch(dev, { blocks: 4, threads: 32 }, withInput, input, pathN);
    await k.launch(dev, { blocks: 4, threads: 32 }, without, null, pathN);
    const distance = Math.floor(0xffffffff / (pathN + 1));
    same(withInput, Array.from(input, (d) => Math.fround(d / 4294967296)));
    same(without, Array.from({ length: pathN }, (_, pos) => Math.fround((((pos + 1) * distance) >>> 0) / 4294967296)));
  });
});

describe("optional arrays: what gpuc refuses, and says why", () => {
  test("null for a number parameter: an argument-type error where it is declared, else a type error where it is used", async () => {
    const k = kernel(function scale(out: Float32Array, s: number) { out[threadIdx.x] *= s; }, { types: { s: "f32" } });
    await rejectsCompile(k.compile({ target: "js", args: [new Float32Array(2), null] }), "argument-type", /argument 's' .*got null, which only an array parameter may be given/);
    const u = kernel(function scale2(out: Float32Array, s: number) { out[threadIdx.x] *= s; });
    await rejectsCompile(u.compile({ target: "js", args: [new Float32Array(2), undefined] }), "type", /'\*' on undefined is not supported/);
  });

  test("a variable holding null here and a number there; arithmetic on null", async () => {
    const k = kernel(function mixes(out: Float32Array, a: Float32Array | null) {
      let x = a;
      x = 3 as never;
      out[0] = x;
    });
    await rejectsCompile(k.compile({ target: "js", args: [new Float32Array(2), null] }), "type", /'x' holds null and, here, a number/);
    const k2 = kernel(function adds(out: Float32Array, a: Float32Array | null) { out[0] = (a as never) + 1; });
    await rejectsCompile(k2.compile({ target: "js", args: [new Float32Array(2), null] }), "type", /'\+' on null is not supported/);
  });

  test("compile() takes null and undefined as types, and the artifact has no parameter for them", async () => {
    const a = await forms.compile({ target: "wgsl", types: ["f32[]", "null", "f32[]", "i32"] });
    assert.deepEqual(a.params.map((p) => p.name), ["out", "b", "n"]);
    const u = await forms.compile({ target: "ptx", types: { out: "f32[]", a: "undefined", b: "f32[]", n: "i32" } });
    assert.equal(u.params.length, 3);
    // `Float32Array | null | undefined` declares the parameter an f32[] that may be absent.
    await rejectsCompile(forms.compile({ target: "js", args: [new Float32Array(1), 5, new Float32Array(1), 1] }), "argument-type", /argument 'a' .*is declared f32\[\] but got/);
  });
});
