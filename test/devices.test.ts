// Devices: the ones GPUC_REQUIRE_DEVICES names must open (CI sets it so a missing device fails
// instead of skipping); device arrays copy in and out.

import { test } from "node:test";
import assert from "node:assert/strict";
import { device, kernel, listDevices, KernelError, threadIdx, type DeviceKind } from "../src/index.ts";

const required = (process.env.GPUC_REQUIRE_DEVICES ?? "").split(",").map((s) => s.trim()).filter(Boolean) as DeviceKind[];

for (const d of await listDevices()) {
  const isRequired = required.includes(d.kind);
  test(`device '${d.kind}' ${isRequired ? "(required)" : ""}`, { skip: !d.available && !isRequired ? `SKIPPED: ${d.detail}` : false }, async () => {
    const dev = await device(d.kind);
    assert.equal(dev.kind, d.kind);
    dev.close();
  });
}

test("device() picks the best available device", async () => {
  const dev = await device();
  assert.equal(dev.kind, (await listDevices()).find((d) => d.available)!.kind);
  dev.close();
});

test("device arrays: copy in, run, read back; the host array is untouched", async () => {
  const dev = await device("cpu");
  const host = new Float32Array([1, 2, 3, 4]);
  const arr = dev.array(host);
  assert.equal(arr.length, 4);
  assert.equal(arr.elem, "f32");
  await kernel(function dbl(x: Float32Array) { x[threadIdx.x] *= 2; }).launch(dev, { blocks: 1, threads: 4 }, arr);
  assert.deepEqual(Array.from(host), [1, 2, 3, 4]);
  const back = await arr.read();
  assert.deepEqual(Array.from(back), [2, 4, 6, 8]);
  back[0] = 99;
  assert.deepEqual(Array.from(await arr.read()), [2, 4, 6, 8], "read() returns a copy");
  await arr.write(new Float32Array([5, 6, 7, 8]));
  assert.deepEqual(Array.from(await arr.read()), [5, 6, 7, 8]);
  await assert.rejects(arr.write(new Float32Array(2)), KernelError);
});

test("unknown and closed devices are KernelErrors", async () => {
  await assert.rejects(device("tpu" as never), (e: unknown) => e instanceof KernelError && e.kind === "device-unavailable");
  const dev = await device("cpu");
  dev.close();
  assert.throws(() => dev.array(new Float32Array(1)), (e: unknown) => e instanceof KernelError && e.kind === "device-unavailable");
  // An array outlives its device's close() only as a handle: reading or writing it is the same error
  // (on WebGPU it was the runtime's own DOMException).
  for (const d of await listDevices()) {
    if (!d.available) continue;
    const open = await device(d.kind);
    const a = open.array(new Float32Array(4));
    open.close();
    const closed = (e: unknown) => e instanceof KernelError && e.kind === "device-unavailable" && /^this array's \w+ device was closed$/.test(e.message);
    await assert.rejects(a.read(), closed, `${d.kind}: read`);
    await assert.rejects(a.write(new Float32Array(4)), closed, `${d.kind}: write`);
  }
});
