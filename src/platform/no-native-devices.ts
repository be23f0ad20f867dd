// The CUDA and OpenCL devices in a browser (scripts/build-browser.mjs swaps this module in for
// devices/cuda.ts and devices/opencl.ts): gpuc reaches their drivers through Node's FFI (koffi),
// which no page has, so none of their code ships in a page; device() says why they cannot open.

const inAPage = (what: string) => `${what} needs Node (gpuc reaches its driver through koffi); a page has WebGPU and the CPU device`;

export const CudaDevice = { open: async (): Promise<string> => inAPage("CUDA") };
export const OpenCLDevice = { open: async (): Promise<string> => inAPage("OpenCL") };
