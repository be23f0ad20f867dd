// The CUDA, AMD GPU and OpenCL devices in a browser (scripts/build-browser.mjs swaps this module
// in for devices/cuda.ts, devices/amdgpu.ts and devices/opencl.ts): gpuc reaches their drivers through Node's FFI (koffi),
// which no page has, so none of their code ships in a page; device() says why they cannot open
// ("CUDA could not be opened: …").

/** As devices/cuda.ts's, amdgpu.ts's and opencl.ts's: here, why not. */
export async function openDevice(): Promise<never> {
  throw new Error("gpuc reaches its driver through Node's FFI (koffi), which a page has not; a page has WebGPU and the CPU device");
}
