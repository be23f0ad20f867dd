// The browser example: compile the kernel typed into the page to WGSL and run it on
// navigator.gpu (WebGPU) when there is one, on the CPU device otherwise.
import { kernel, device, CompileError, KernelError } from "../../dist/gpuc.browser.js";

const $ = (id) => document.getElementById(id);

async function openDevice() {
  try {
    const wanted = new URLSearchParams(location.search).get("device");
    if (wanted !== "cpu" && navigator.gpu) return await device("webgpu", { gpu: navigator.gpu });
  } catch (e) {
    console.warn("no WebGPU device:", e.message);
  }
  return device("cpu");
}

const devicePromise = openDevice();

async function run() {
  $("status").textContent = "compiling…";
  $("status").className = "";
  const dev = await devicePromise;
  $("device").textContent = `device: ${dev.name}`;
  try {
    // The text box holds a function expression; (0, eval) evaluates it in the global scope.
    const fn = (0, eval)(`(${$("source").value})`);
    if (typeof fn !== "function") throw new Error("the text is not a function");
    const k = kernel(fn);
    const n = 1024;
    const x = Float32Array.from({ length: n }, (_, i) => i);
    const y = new Float32Array(n).fill(1);
    const art = await k.compile({ target: "wgsl", args: [2.5, x, y] });
    $("wgsl").textContent = art.code;
    const t0 = performance.now();
    await k.launch(dev, { blocks: n / 256, threads: 256 }, 2.5, x, y);
    const ms = performance.now() - t0;
    $("result").textContent = Array.from(y.slice(0, 8), (v) => v.toFixed(2)).join(", ");
    $("status").textContent = `ran on ${dev.kind} in ${ms.toFixed(1)} ms`;
    document.title = `done: ${dev.kind}`;
  } catch (e) {
    const kind = e instanceof CompileError ? "CompileError" : e instanceof KernelError ? "KernelError" : e.name;
    $("status").textContent = `${kind}: ${e.message}`;
    $("status").className = "error";
    document.title = "error";
  }
}

$("run").addEventListener("click", run);
if (new URLSearchParams(location.search).has("autorun")) run();
