// The example app in Node: every kernel on the CPU device (or the device named as the first
// argument), from the image the build emitted beside the bundle. Prints the results as JSON
// (with firstResultMs: from the process's start to the first kernel's result).
import { device, type DeviceKind } from "gpuc/runtime";
import { runAll } from "./run.ts";

const dev = await device((process.argv[2] ?? "cpu") as DeviceKind);
console.log(JSON.stringify(await runAll(dev)));
