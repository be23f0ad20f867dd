// Host-side stand-ins for the kernel language's intrinsics. Inside a kernel, the compiler gives
// these names their meaning; on the host, touching them is a mistake we explain. Declarations only,
// with no effect when the module loads (a bundler drops what an app does not use: an app whose
// kernels run from its image uses none of them); the compiler knows them by identity where a
// kernel's `scope` holds them (frontend/scope.ts).

export interface Dim3 { readonly x: number; readonly y: number; readonly z: number }

function deviceOnly(name: string, field: string): never {
  throw new Error(`${name}.${field} is only available inside a kernel (it was read on the host)`);
}

export const threadIdx: Dim3 = { get x() { return deviceOnly("threadIdx", "x"); }, get y() { return deviceOnly("threadIdx", "y"); }, get z() { return deviceOnly("threadIdx", "z"); } };
export const blockIdx: Dim3 = { get x() { return deviceOnly("blockIdx", "x"); }, get y() { return deviceOnly("blockIdx", "y"); }, get z() { return deviceOnly("blockIdx", "z"); } };
export const blockDim: Dim3 = { get x() { return deviceOnly("blockDim", "x"); }, get y() { return deviceOnly("blockDim", "y"); }, get z() { return deviceOnly("blockDim", "z"); } };
export const gridDim: Dim3 = { get x() { return deviceOnly("gridDim", "x"); }, get y() { return deviceOnly("gridDim", "y"); }, get z() { return deviceOnly("gridDim", "z"); } };

/**
 * threadfence(): CUDA's __threadfence. Inside a kernel, this thread's memory accesses before it are
 * seen by every thread of the launch before its accesses after it (the pattern: results stored,
 * threadfence(), then a counter or flag other blocks read atomically). Not on WGSL (no fences).
 */
export function threadfence(): void {}

/** threadfenceBlock(): CUDA's __threadfence_block: as threadfence(), for the threads of this thread's block. */
export function threadfenceBlock(): void {}

/** syncthreads(): inside a kernel, every thread of the block waits for the others. */
export function syncthreads(): void {
  throw new Error("syncthreads() is only callable inside a kernel");
}

/**
 * shared(Float32Array, 256): inside a kernel, an array shared by the threads of a block.
 * shared(Float32Array, [16, 17]) (two or three dimensions): indexed t[y][x], each dimension
 * bounds-checked; a row t[y] may be bound to a const and indexed, or be an Atomics target.
 */
/** The typed arrays a shared array can be. */
type SharedElementArray = Float32Array | Float64Array | Int32Array | Uint32Array | Int8Array | Uint8Array | Uint8ClampedArray | Int16Array | Uint16Array;
export function shared<T extends SharedElementArray>(_type: new (n: number) => T, _length: number | readonly [number]): T;
export function shared<T extends SharedElementArray>(_type: new (n: number) => T, _dims: readonly [number, number]): T[];
export function shared<T extends SharedElementArray>(_type: new (n: number) => T, _dims: readonly [number, number, number]): T[][];
/** `shared(Array, 100)`: an array of objects of one shape in shared memory (the shape of the objects stored into it). */
export function shared<T extends object = Record<string, number>>(_type: ArrayConstructor, _length: number): T[];
export function shared(_type: unknown, _size: unknown): never {
  throw new Error("shared() is only callable inside a kernel");
}

type NumericArray = Float32Array | Float64Array | Int32Array | Uint32Array;

/**
 * atomicMin/atomicMax/atomicAdd, which JavaScript's Atomics lacks. Inside a kernel they are
 * atomic; on the host they run as plain read-modify-writes. Each returns the old value.
 */
export function atomicMin(array: Int32Array | Uint32Array, index: number, value: number): number {
  const old = array[index];
  array[index] = Math.min(old, asElement(array, value));
  return old;
}

export function atomicMax(array: Int32Array | Uint32Array, index: number, value: number): number {
  const old = array[index];
  array[index] = Math.max(old, asElement(array, value));
  return old;
}

/**
 * CUDA's atomicInc: the element becomes 0 where it was at least `limit`, else one more (both as
 * unsigned 32-bit numbers: a wrapping counter, `atomicInc(count, 0, gridDim.x)`). Returns the old value.
 */
export function atomicInc(array: Int32Array | Uint32Array, index: number, limit: number): number {
  const old = array[index];
  array[index] = old >>> 0 >= limit >>> 0 ? 0 : old + 1;
  return old;
}

/** CUDA's atomicDec: the element becomes `limit` where it was 0 or above `limit` (unsigned), else one less. Returns the old value. */
export function atomicDec(array: Int32Array | Uint32Array, index: number, limit: number): number {
  const old = array[index];
  array[index] = old === 0 || old >>> 0 > limit >>> 0 ? limit : old - 1;
  return old;
}

/** The value as the array's element (as the Atomics functions and the kernel's atomics convert it). */
function asElement(array: Int32Array | Uint32Array, value: number): number {
  return array instanceof Uint32Array ? value >>> 0 : value | 0;
}

export function atomicAdd(array: NumericArray, index: number, value: number): number {
  const old = array[index];
  array[index] = old + value;
  return old;
}

// Subgroups (warps): the threads of a block form subgroups of subgroupSize() consecutive threads,
// in order of threadIdx.x, then y, then z (as on NVIDIA GPUs). Each operation below is met by
// the threads of a subgroup together, like a barrier of the subgroup: the control flow around it
// must be the same for all threads of a subgroup. Lanes that returned early take no part.

function deviceOnlyCall(name: string): never {
  throw new Error(`${name}() is only callable inside a kernel`);
}

/** The threads per subgroup: 32 on NVIDIA GPUs and on the CPU device by default; the adapter's on WebGPU. */
export function subgroupSize(): number { return deviceOnlyCall("subgroupSize"); }
/** This thread's index in its subgroup (0 … subgroupSize() - 1). */
export function subgroupLaneId(): number { return deviceOnlyCall("subgroupLaneId"); }
/** `value` of lane `lane` (mod subgroupSize()); its own value where that lane took no part. */
export function subgroupShuffle<T extends number | boolean>(_value: T, _lane: number, _width?: number): T { return deviceOnlyCall("subgroupShuffle"); }
/** `value` of lane `lane`, the same lane for every thread (a shuffle). */
export function subgroupBroadcast<T extends number | boolean>(_value: T, _lane: number): T { return deviceOnlyCall("subgroupBroadcast"); }
/** `value` of lane laneId + delta; its own value past the end of the subgroup. */
export function subgroupShuffleDown<T extends number | boolean>(_value: T, _delta: number, _width?: number): T { return deviceOnlyCall("subgroupShuffleDown"); }
/** `value` of lane laneId - delta; its own value before the start of the subgroup. */
export function subgroupShuffleUp<T extends number | boolean>(_value: T, _delta: number, _width?: number): T { return deviceOnlyCall("subgroupShuffleUp"); }
/** `value` of lane laneId ^ mask; its own value past the end of the subgroup. */
export function subgroupShuffleXor<T extends number | boolean>(_value: T, _mask: number, _width?: number): T { return deviceOnlyCall("subgroupShuffleXor"); }
/** The sum of `value` over the lanes (wrapping for integers; for floats the order is the lanes' on the CPU device, the GPU's own elsewhere). */
export function subgroupAdd(_value: number): number { return deviceOnlyCall("subgroupAdd"); }
/** The least `value` over the lanes (Math.min's meaning). */
export function subgroupMin(_value: number): number { return deviceOnlyCall("subgroupMin"); }
/** The greatest `value` over the lanes (Math.max's meaning). */
export function subgroupMax(_value: number): number { return deviceOnlyCall("subgroupMax"); }
/** Whether `condition` holds on some lane. */
export function subgroupAny(_condition: boolean | number): boolean { return deviceOnlyCall("subgroupAny"); }
/** Whether `condition` holds on every lane. */
export function subgroupAll(_condition: boolean | number): boolean { return deviceOnlyCall("subgroupAll"); }
/** A u32 with bit i set where `condition` holds on lane i (subgroups of at most 32 lanes). */
export function subgroupBallot(_condition: boolean | number): number { return deviceOnlyCall("subgroupBallot"); }

/**
 * subgroupBarrier(): CUDA's __syncwarp(). The lanes of the subgroup that take part meet here, and
 * each one's memory accesses before it are seen by the others after it. Not on WGSL.
 */
export function subgroupBarrier(): void { return deviceOnlyCall("subgroupBarrier"); }

/**
 * Every intrinsic above by value, with its name: how the compiler knows one that a kernel's `scope`
 * holds (frontend/scope.ts). A function, not a table made when the module loads: the module does
 * nothing when it loads, so a bundle keeps only what it uses.
 */
export function intrinsicsByValue(): ReadonlyMap<unknown, string> {
  return new Map(Object.entries({
    threadIdx, blockIdx, blockDim, gridDim, syncthreads, threadfence, threadfenceBlock, shared, atomicMin, atomicMax, atomicAdd, atomicInc, atomicDec,
    subgroupSize, subgroupLaneId, subgroupShuffle, subgroupBroadcast, subgroupShuffleDown, subgroupShuffleUp, subgroupShuffleXor,
    subgroupAdd, subgroupMin, subgroupMax, subgroupAny, subgroupAll, subgroupBallot, subgroupBarrier,
  }).map(([name, value]) => [value, name]));
}
