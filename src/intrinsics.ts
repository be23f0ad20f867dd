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

/** syncthreads(): inside a kernel, every thread of the block waits for the others. */
export function syncthreads(): void {
  throw new Error("syncthreads() is only callable inside a kernel");
}

/** shared(Float32Array, 256): inside a kernel, an array shared by the threads of a block. */
export function shared<T extends Float32Array | Float64Array | Int32Array | Uint32Array>(_type: new (n: number) => T, _length: number): T {
  throw new Error("shared() is only callable inside a kernel");
}

type NumericArray = Float32Array | Float64Array | Int32Array | Uint32Array;

/**
 * atomicMin/atomicMax/atomicAdd, which JavaScript's Atomics lacks. Inside a kernel they are
 * atomic; on the host they run as plain read-modify-writes. Each returns the old value.
 */
export function atomicMin(array: Int32Array | Uint32Array, index: number, value: number): number {
  const old = array[index];
  array[index] = Math.min(old, value);
  return old;
}

export function atomicMax(array: Int32Array | Uint32Array, index: number, value: number): number {
  const old = array[index];
  array[index] = Math.max(old, value);
  return old;
}

export function atomicAdd(array: NumericArray, index: number, value: number): number {
  const old = array[index];
  array[index] = old + value;
  return old;
}
