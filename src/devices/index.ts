// device(): opens a device by name, or the best one present.

import { KernelError, quoteName } from "../errors.js";
import { describeArgument } from "../typed-arrays.js";
import type { Device, DeviceOptions } from "./device.js";

export type DeviceKind = "cpu" | "webgpu" | "cuda" | "opencl";
/** In order of preference for device(): GPU runtimes first, the CPU last. */
export const DEVICE_KINDS: readonly DeviceKind[] = ["cuda", "webgpu", "opencl", "cpu"];

export interface OpenOptions extends DeviceOptions {
  /** For "webgpu": the GPU object to use (navigator.gpu in a browser); Dawn's in Node otherwise. */
  gpu?: GPULike;
  /** For "opencl": the platform (its index, or a part of its name; default the first). */
  platform?: number | string;
  /** For "opencl": the platform's device (its index, or a part of its name; default the first). */
  device?: number | string;
  /** For "opencl": run the spirv target's SPIR-V (clCreateProgramWithIL), on a driver that takes IL. */
  spirv?: boolean;
}

/**
 * WebGPU's `GPU` (navigator.gpu), as gpuc's declarations name it: every GPU object is one, and a
 * Node project needs neither the DOM library nor @webgpu/types (which needs the DOM library) to
 * compile against gpuc's types.
 */
export interface GPULike {
  requestAdapter(options?: object): Promise<unknown>;
}

/** Open a device of a kind, or say why it cannot be opened here. */
async function tryOpen(kind: DeviceKind, options: OpenOptions): Promise<Device | string> {
  switch (kind) {
    case "cpu": {
      // Every device's module loads when one is opened: a program reads only the ones it opens.
      const { CpuDevice, defaultCpuThreads } = await import("./cpu.js");
      return new CpuDevice(options.threads === undefined ? { ...options, threads: await defaultCpuThreads() } : options);
    }
    case "webgpu": {
      try {
        const { WebGPUDevice } = await import("./webgpu.js");
        return (await WebGPUDevice.open(options as DeviceOptions & { gpu?: GPU })) ?? "no WebGPU adapter was found (Dawn found no Vulkan driver here?)";
      } catch (e) {
        return `WebGPU could not be opened: ${(e as Error).message}`;
      }
    }
    case "cuda": {
      try {
        const { CudaDevice } = await import("./cuda.js");
        return await CudaDevice.open(options);
      } catch (e) {
        return `CUDA could not be opened: ${(e as Error).message}`;
      }
    }
    case "opencl": {
      try {
        const { OpenCLDevice } = await import("./opencl.js");
        return await OpenCLDevice.open(options);
      } catch (e) {
        return `OpenCL could not be opened: ${(e as Error).message}`;
      }
    }
  }
}

/**
 * Work to start, not awaited, while a GPU device is being opened (the kernel layer warms its
 * stores there: opening a GPU device mostly waits on the driver, and the first launch needs them
 * next). Not for the CPU device, which opens at once: there the work would only come earlier, and
 * may not be needed at all.
 */
const openingHooks: ((target: string | null) => void)[] = [];
/** `hook` is told the target of the device being opened (null for device(): the best one present). */
export function whileOpening(hook: (target: string | null) => void): void { openingHooks.push(hook); }

/** The target each kind of device runs. */
const DEVICE_TARGET: Record<DeviceKind, string> = { cpu: "js", webgpu: "wgsl", cuda: "ptx", opencl: "opencl" };

/** Open a device: `device("cpu")`, `device("webgpu")`, or `device()` for the best one present. */
export async function device(kind?: DeviceKind, given: OpenOptions = {}): Promise<Device> {
  const options = deviceOptions(given);
  if (kind !== "cpu") for (const hook of openingHooks) { try { hook(kind ? DEVICE_TARGET[kind] ?? null : null); } catch { /* an optimization */ } }
  if (kind === undefined) {
    const reasons: string[] = [];
    for (const k of DEVICE_KINDS) {
      const d = await tryOpen(k, options);
      if (typeof d !== "string") return d;
      reasons.push(`${k}: ${d}`);
    }
    throw new KernelError("device-unavailable", `no device is available (${reasons.join("; ")})`);
  }
  if (!DEVICE_KINDS.includes(kind)) throw new KernelError("device-unavailable", `unknown device ${typeof kind === "string" ? quoteName(kind) : `(${describeArgument(kind)})`} (known: ${DEVICE_KINDS.join(", ")})`);
  const d = await tryOpen(kind, options);
  if (typeof d === "string") throw new KernelError("device-unavailable", d);
  return d;
}

/**
 * device()'s options read once and checked (a print sink that is no function would fail at the
 * first kernel that prints; one that cannot be read, a revoked Proxy, is said here): each mistake
 * a KernelError of kind launch, as the CPU device's subgroupSize is.
 */
function deviceOptions(o: OpenOptions): OpenOptions {
  const bad = (what: string) => new KernelError("launch", `device(): ${what}`);
  if (o === null || typeof o !== "object") throw bad(`options must be an object ({ print, printBufferWords, subgroupSize, threads, parallel, gpu, platform, device, spirv }), got ${o === null ? "null" : typeof o}`);
  let copy: OpenOptions;
  try { copy = { print: o.print, printBufferWords: o.printBufferWords, subgroupSize: o.subgroupSize, threads: o.threads, parallel: o.parallel, gpu: o.gpu, platform: o.platform, device: o.device, spirv: o.spirv }; }
  catch (e) { throw bad(`its options cannot be read (${(e as Error)?.message})`); }
  if (copy.print !== undefined && typeof copy.print !== "function") throw bad(`print must be a function (line: string) => void, got ${typeof copy.print}`);
  const words = copy.printBufferWords;
  if (words !== undefined && !(typeof words === "number" && Number.isInteger(words) && words >= 1 && words <= 1 << 26))
    throw bad(`printBufferWords must be an integer from 1 to ${1 << 26}, got ${typeof words === "number" ? words : typeof words}`);
  if (copy.spirv !== undefined && typeof copy.spirv !== "boolean") throw bad(`spirv must be true or false, got ${typeof copy.spirv}`);
  for (const what of ["platform", "device"] as const) {
    const v = copy[what];
    if (v !== undefined && !(typeof v === "string" || (typeof v === "number" && Number.isInteger(v) && v >= 0)))
      throw bad(`${what} must be an index (an integer from 0) or a part of its name, got ${typeof v === "number" ? v : typeof v}`);
  }
  for (const key of Object.keys(copy) as (keyof OpenOptions)[]) if (copy[key] === undefined) delete copy[key];
  return copy;
}

/** Each device kind with whether it can be opened here (and its name) or why not. */
export async function listDevices(): Promise<{ kind: DeviceKind; available: boolean; detail: string }[]> {
  const out: { kind: DeviceKind; available: boolean; detail: string }[] = [];
  for (const kind of DEVICE_KINDS) {
    const d = await tryOpen(kind, {});
    if (typeof d === "string") out.push({ kind, available: false, detail: d });
    else { out.push({ kind, available: true, detail: d.name }); d.close(); }
  }
  return out;
}
