// Host-side stand-ins for the kernel language's intrinsics. Inside a kernel, the compiler gives
// these names their meaning; on the host, touching them is a mistake we explain.

export interface Dim3 { readonly x: number; readonly y: number; readonly z: number }

function deviceOnly(name: string): Dim3 {
  const fail = (field: string): never => {
    throw new Error(`${name}.${field} is only available inside a kernel (it was read on the host)`);
  };
  return Object.freeze({ get x() { return fail("x"); }, get y() { return fail("y"); }, get z() { return fail("z"); } });
}

export const threadIdx: Dim3 = deviceOnly("threadIdx");
export const blockIdx: Dim3 = deviceOnly("blockIdx");
export const blockDim: Dim3 = deviceOnly("blockDim");
export const gridDim: Dim3 = deviceOnly("gridDim");
