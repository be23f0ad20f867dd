// device(): opens a device by name, or the best one present.

import { KernelError } from "../errors.js";
import { CpuDevice } from "./cpu.js";
import type { Device, DeviceOptions } from "./device.js";

export type DeviceKind = "cpu" | "webgpu" | "cuda" | "opencl";
export const DEVICE_KINDS: readonly DeviceKind[] = ["cuda", "webgpu", "opencl", "cpu"];

/** Why a device kind cannot be opened in this build of gpuc, or null when it can be tried. */
function unavailable(kind: DeviceKind): string | null {
  switch (kind) {
    case "cpu": return null;
    case "webgpu": case "cuda": case "opencl": return `the '${kind}' device is not implemented in this version of gpuc (available: cpu)`;
  }
}

/** Open a device: `device("cpu")`, or `device()` for the best one present (GPU runtimes first, the CPU last). */
export async function device(kind?: DeviceKind, options: DeviceOptions = {}): Promise<Device> {
  if (kind === undefined) {
    for (const k of DEVICE_KINDS) if (!unavailable(k)) return open(k, options);
    throw new KernelError("device-unavailable", "no device is available");
  }
  if (!DEVICE_KINDS.includes(kind)) throw new KernelError("device-unavailable", `unknown device '${String(kind)}' (known: ${DEVICE_KINDS.join(", ")})`);
  const why = unavailable(kind);
  if (why) throw new KernelError("device-unavailable", why);
  return open(kind, options);
}

function open(kind: DeviceKind, options: DeviceOptions): Device {
  switch (kind) {
    case "cpu": return new CpuDevice(options);
    default: throw new KernelError("device-unavailable", `the '${kind}' device is not implemented`);
  }
}

/** Each device kind with whether it can be opened here and why not. */
export function listDevices(): { kind: DeviceKind; available: boolean; detail: string }[] {
  return DEVICE_KINDS.map((kind) => {
    const why = unavailable(kind);
    return { kind, available: !why, detail: why ?? (kind === "cpu" ? new CpuDevice().name : kind) };
  });
}
