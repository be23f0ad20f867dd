// The ports of well-known kernels that use the kernel language as the originals do (issue #16):
// each example's own run on every device of the matrix must agree with its plain-JS reference
// (exactly on the CPU device). nbody runs in aggregates.test.ts. The examples import the built
// "gpuc" (dist/), this suite its sources: one device serves both.

import { describe } from "node:test";
import assert from "node:assert/strict";
import { dtest, openDevices } from "./helpers.ts";

await openDevices();

describe("examples", () => {
  for (const name of ["warp-reduce", "histogram64", "scan4", "matrixmul", "transpose", "bitonic-sort", "fwt", "quasirandom", "black-scholes"]) {
    dtest(`examples/${name}.ts agrees with plain JavaScript`, async ({ dev }) => {
      const { default: example } = (await import(`../examples/${name}.ts`)) as { default: { run(d: unknown): Promise<{ ok: boolean; summary: string }> } };
      const r = await example.run(dev);
      assert.ok(r.ok, `${name} does not agree with plain JS: ${r.summary}`);
    });
  }
});
