// Lazy reads (ir/passes/lazy-reads.ts): on the targets whose select, && and || compute both
// operands (PTX, SPIR-V, LLVM IR: `eagerSelects` in their legality tables), a `?:` whose side
// reads an array, and a && or || whose right operand does, reach the back end as branches — the
// side is read only where JavaScript reads it (a load on the side not taken may be out of range;
// with boundsCheck: false nothing else guards it). OpenCL C keeps them as expressions (C's are
// lazy). Each shape then runs on every device against plain JavaScript.

import { test } from "node:test";
import assert from "node:assert/strict";
import { kernel, threadIdx } from "../src/index.ts";
import { dtest, openDevices } from "./helpers.ts";

await openDevices();

/** Every lazy shape, with an index that is out of range where the side is not taken (the kernel's helper, and the reference). */
function shapes(a: Float32Array, n: number, i: number): number {
  let v = i < n ? a[i] : -1;                                    // ?: with a load on a side
  v += i < n && a[i] > 0 ? 10 : 20;                              // && with a load on the right
  v += i >= n || a[i] < 0 ? 100 : 200;                           // || with a load on the right
  v += i < n ? (a[i] > 0.5 ? a[i] * 2 : a[n - 1 - i]) : 0;       // a lazy select on a chosen side
  let j = 0;
  while (j < n && a[j] < a[i < n ? i : 0]) j++;                  // in a loop's exit test
  if (i + 1 < n && a[i + 1] > a[i < n ? i : 0]) v += 1000;       // in an if's condition
  return v + j * 10000;
}

function lazy(out: Float32Array, a: Float32Array, n: number) {
  const i = threadIdx.x;
  out[i] = shapes(a, n, i);
}

const LOADS_UNDER = /(select|land|lor)\(.*\[/;

for (const target of ["ptx", "spirv", "llvm", "opencl"]) {
  test(`lazy reads: ${target} ${target === "opencl" ? "keeps ?:, && and || with loads as expressions (C's are lazy)" : "gets no select, && or || whose lazy side reads memory"}`, async () => {
    let ir = "";
    await kernel(lazy, { boundsCheck: false, scope: { shapes } }).compile({ target, types: ["f32[]", "f32[]", "i32"], dump: ["legalize"], dumpSink: (_s, text) => { ir = text; } });
    const left = ir.split("\n").filter((l) => LOADS_UNDER.test(l));
    if (target === "opencl") assert.ok(left.length >= 4, `expected the shapes as expressions on opencl:\n${ir}`);
    else assert.deepEqual(left, [], `loads under a select, && or || on ${target}:\n${ir}`);
  });
}

dtest("lazy reads: ?:, && and || reading arrays on their lazy side, without bounds checks", async (on) => {
  const n = 5, threads = 8;
  const a = Float32Array.from([0.25, -1, 0.75, 3, -0.5]);
  // The reference reads out of range nowhere (JavaScript's sides are lazy), as the kernel must not.
  const want = Float32Array.from({ length: threads }, (_v, i) => shapes(a, n, i));
  const out = new Float32Array(threads);
  await kernel(lazy, { boundsCheck: false, scope: { shapes } }).launch(on.dev, { blocks: 1, threads }, out, a, n);
  on.same(out, want);
});
