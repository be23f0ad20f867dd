// gpuc without the compiler (`import … from "gpuc/runtime"`): the same public surface as the
// package's entry (index.ts: switching the import is the whole change), whose kernels run only
// from loaded kernel images (and the disk cache); a kernel in none of them is a KernelError of
// kind not-precompiled. Neither this module nor anything it imports reaches the parser,
// inference or a back end, so an application bundled from it carries none of them.

export { kernel, Kernel, onCompile, type KernelOptions, type CompileOptions, type CompileEvent } from "./kernel.js";
export { device, listDevices, type DeviceKind, type GPULike, type OpenOptions } from "./devices/index.js";
export { DeviceArray, type CopyRange, type Device, type DeviceOptions, type LaunchConfig, type HostArray } from "./devices/device.js";
export { CompileError, KernelError, type CompileErrorKind, type KernelErrorKind, type SourceLocation, type Frame, type Diagnostic, type SanitizerReport, type SanitizerAccess } from "./errors.js";
export type { Artifact } from "./targets/index.js";
export type { TargetFeatures } from "./targets/target.js";
export { isPersistable, type RelocationManifest, type RelocationSite, type RelocationStrategy } from "./reloc/manifest.js";
export { threadIdx, blockIdx, blockDim, gridDim, syncthreads, threadfence, threadfenceBlock, shared, atomicMin, atomicMax, atomicAdd, atomicInc, atomicDec } from "./intrinsics.js";
export {
  subgroupSize, subgroupLaneId, subgroupShuffle, subgroupBroadcast, subgroupShuffleDown, subgroupShuffleUp, subgroupShuffleXor,
  subgroupAdd, subgroupMin, subgroupMax, subgroupAny, subgroupAll, subgroupBallot, subgroupBarrier,
} from "./intrinsics.js";
export { deviceFunction, generated, type ArgType } from "./registry.js";
export { overlay } from "./overlay.js";
export { loadImage, type ImageReport } from "./cache/image.js";
export { structArray, deviceStructArray, type StructArray, type DeviceStructArray } from "./struct-arrays.js";

/** Scalar type names for annotations in kernels written in TypeScript: `function k(a: f32, n: i32)`. */
export type f32 = number;
export type f64 = number;
export type i32 = number;
export type u32 = number;
export type bool = boolean;
