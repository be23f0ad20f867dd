// The example app's page: every kernel on WebGPU (or ?device=cpu), from the image the build
// emitted beside the bundle. The results go into the page; the title says when it is done.
import { device, type DeviceKind } from "gpuc/runtime";
import { runAll } from "./run.ts";

const kind = (new URLSearchParams(location.search).get("device") ?? "webgpu") as DeviceKind;
try {
  const dev = await device(kind);
  document.querySelector("#device")!.textContent = performance.now().toFixed(1);
  const run = await runAll(dev);
  document.querySelector("#results")!.textContent = JSON.stringify(run.results);
  document.querySelector("#first")!.textContent = run.firstResultMs.toFixed(1);
  document.title = `done: ${kind}`;
} catch (e) {
  document.querySelector("#results")!.textContent = `${(e as Error).name}: ${(e as Error).message}`;
  document.title = "error";
}
