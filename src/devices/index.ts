// device(): opens a device by name, or the best one present.

import { CompileError, KernelError, quoteName } from "../errors.js";
import { describeArgument } from "../typed-arrays.js";
import { atCallSite, callSite } from "../frontend/caller.js";
import type { Device, OpenOptions } from "./device.js";

export type { GPULike, OpenOptions } from "./device.js";

export type DeviceKind = "cpu" | "webgpu" | "cuda" | "amdgpu" | "opencl";

type CpuModule = typeof import("./cpu.js");
type CommonModule = typeof import("./common.js");
/**
 * The CPU device's module and the devices' shared checks load on first use, so that gpuc/runtime's
 * start is small (a browser app that opens WebGPU never fetches the CPU device). The package's
 * full entry (index.ts) hands them over already loaded: in Node each lazily loaded chunk is a
 * module load of its own, in sequence, on the way to the first result.
 */
let cpuModule = (): Promise<CpuModule> => import("./cpu.js");
let commonModule = (): Promise<CommonModule> => import("./common.js");
export function provideDeviceModules(m: { cpu: CpuModule; common: CommonModule }): void {
  cpuModule = () => Promise.resolve(m.cpu);
  commonModule = () => Promise.resolve(m.common);
}
/** In order of preference for device(): GPU runtimes first, the CPU last. */
const DEVICE_KINDS: readonly DeviceKind[] = ["cuda", "amdgpu", "webgpu", "opencl", "cpu"];

/**
 * Each device's module, loaded when one is opened (a program reads only the ones it opens); each
 * exports `openDevice(options)`: the device, or why it cannot be opened here. (A bundle of an app
 * may hold a stand-in for a device its image has no code for: gpuc/plugin, ARCHITECTURE.md "An
 * app's bundle has no checks".)
 */
const DEVICE_MODULES: Record<DeviceKind, () => Promise<{ openDevice(options: OpenOptions): Promise<Device | string> }>> = {
  cpu: () => cpuModule(),
  webgpu: () => import("./webgpu.js"),
  cuda: () => import("./cuda.js"),
  amdgpu: () => import("./amdgpu.js"),
  opencl: () => import("./opencl.js"),
};
const DEVICE_NAMES: Record<DeviceKind, string> = { cpu: "the CPU device", webgpu: "WebGPU", cuda: "CUDA", amdgpu: "the AMD GPU device", opencl: "OpenCL" };

/** Open a device of a kind, or say why it cannot be opened here. */
async function tryOpen(kind: DeviceKind, options: OpenOptions): Promise<Device | string> {
  // (The CPU device's mistakes, in its options, are errors; a GPU runtime that fails to load or open is a reason.)
  if (kind === "cpu") return (await cpuModule()).openDevice(options);
  try {
    return await (await DEVICE_MODULES[kind]()).openDevice(options);
  } catch (e) {
    return `${DEVICE_NAMES[kind]} could not be opened: ${(e as Error)?.message}`;
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
const DEVICE_TARGET: Record<DeviceKind, string> = { cpu: "js", webgpu: "wgsl", cuda: "ptx", amdgpu: "llvm", opencl: "opencl" };

/** Open a device: `device("cpu")`, `device("webgpu")`, or `device()` for the best one present. */
export async function device(kind?: DeviceKind, given: OpenOptions = {}): Promise<Device> {
  // A mistake in the call (the kind, an option) is said at the user's call (taken before any await).
  const site = callSite();
  try { return await open(kind, given); }
  catch (e) { throw e instanceof CompileError || (e instanceof KernelError && e.kind !== "device-unavailable") ? atCallSite(e, site) : e; }
}

async function open(kind: DeviceKind | undefined, given: OpenOptions): Promise<Device> {
  if (kind !== undefined && !DEVICE_KINDS.includes(kind)) throw new KernelError("device-unavailable", `unknown device ${typeof kind === "string" ? quoteName(kind) : `(${describeArgument(kind)})`} (known: ${DEVICE_KINDS.join(", ")})`);
  // The options are read now, before anything awaits; their checks are in the devices' shared
  // checks (common.ts), which opening any device loads anyway: one chunk fewer at start.
  const copy = readOptions(given, kind);
  const options = (await commonModule()).checkOpenOptions(copy, kind);
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
  const d = await tryOpen(kind, options);
  if (typeof d === "string") throw new KernelError("device-unavailable", d);
  return d;
}

/**
 * device()'s options read once, before device() awaits (the caller's object may change after the
 * call): a copy of its own keys. No object, or one that cannot be read (a revoked Proxy), is an
 * invalid-option CompileError; devices/common.ts checks the copy (which keys the kind takes, and
 * their values), loaded with the first device opened.
 */
function readOptions(o: OpenOptions, kind: DeviceKind | undefined): OpenOptions {
  const bad = (what: string) => CompileError.single("invalid-option", `${kind ? `device(${JSON.stringify(kind)})` : "device()"}: ${what}`);
  if (o === null || typeof o !== "object") throw bad(`options must be an object, got ${o === null ? "null" : typeof o}`);
  try {
    const copy: Record<string, unknown> = {};
    for (const key of Object.keys(o)) copy[key] = (o as Record<string, unknown>)[key];
    return copy as OpenOptions;
  } catch (e) { throw bad(`its options cannot be read (${(e as Error)?.message})`); }
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
