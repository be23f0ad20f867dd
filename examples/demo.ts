// The demo: compile every example for every target, run each on every device present, check
// each result against plain JavaScript, and report times.
import { device, listDevices, type Device } from "gpuc";
import type { Example } from "./example.ts";
import saxpy from "./saxpy.ts";
import matmul from "./matmul.ts";
import mandelbrot from "./mandelbrot.ts";
import hash from "./hash.ts";

const examples: Example[] = [saxpy, matmul, mandelbrot, hash];
const TARGETS = ["js"];

let failures = 0;
console.log("gpuc demo\n");

console.log("== compile every example for every target ==");
for (const ex of examples) {
  for (const { kernel, types } of ex.kernels) {
    for (const target of TARGETS) {
      const t0 = performance.now();
      const art = await kernel.compile({ target, types });
      const ms = performance.now() - t0;
      const size = typeof art.code === "string" ? art.code.length : art.code.byteLength;
      console.log(`  ${kernel.name.padEnd(12)} → ${target.padEnd(5)} ${String(size).padStart(6)} bytes  ${ms.toFixed(2).padStart(7)} ms  (${types.join(", ")})`);
    }
  }
}

console.log("\n== run on every device present ==");
const present: Device[] = [];
for (const d of listDevices()) {
  if (!d.available) { console.log(`  (skipping ${d.kind}: ${d.detail})`); continue; }
  present.push(await device(d.kind));
}
for (const dev of present) {
  console.log(`  device: ${dev.name}`);
  for (const ex of examples) {
    const r = await ex.run(dev);
    if (!r.ok) failures++;
    const ratio = r.referenceMs / r.kernelMs;
    console.log(`    ${r.ok ? "ok  " : "FAIL"} ${ex.name.padEnd(11)} ${ex.description}`);
    console.log(`         ${r.summary}`);
    console.log(`         kernel ${r.kernelMs.toFixed(1)} ms, plain JS ${r.referenceMs.toFixed(1)} ms (${ratio.toFixed(2)}× the plain-JS speed)`);
  }
  dev.close();
}
console.log(failures ? `\n${failures} example(s) FAILED` : "\nall examples match plain JavaScript");
process.exitCode = failures ? 1 : 0;
