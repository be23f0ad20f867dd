// The CPU device: runs the JavaScript target's code in this process.
//
// Host typed arrays are used in place: the CPU shares memory with the host, so "copied in and
// back" costs nothing here. Device arrays are private copies, read back with `read()`.

import { KernelError } from "../errors.js";
import type { Scalar } from "../ir/types.js";
import type { Artifact } from "../targets/target.js";
import { DeviceArray, hostArrayElement, type Device, type Grid, type HostArray, type LoadedKernel } from "./device.js";

export class CpuArray extends DeviceArray {
  constructor(device: Device, elem: Scalar, readonly data: HostArray) { super(device, elem, data.length); }
  async read(): Promise<HostArray> { return this.data.slice(); }
  async write(data: HostArray): Promise<void> {
    if (data.constructor !== this.data.constructor || data.length !== this.length)
      throw new KernelError("launch", `write() needs a ${this.data.constructor.name} of length ${this.length}`);
    this.data.set(data);
  }
}

interface CpuKernel extends LoadedKernel {
  run: (...args: unknown[]) => void;
}

export class CpuDevice implements Device {
  readonly kind = "cpu";
  readonly name = `CPU (JavaScript, Node.js ${process.versions.node})`;
  readonly target = "js";
  private closed = false;

  array(data: HostArray): CpuArray {
    this.check();
    const elem = hostArrayElement(data);
    if (!elem) throw new KernelError("launch", `device arrays are made from Float32Array, Float64Array, Int32Array or Uint32Array, got ${describeValue(data)}`);
    return new CpuArray(this, elem, data.slice());
  }

  load(artifact: Artifact): CpuKernel {
    this.check();
    if (artifact.target !== "js") throw new KernelError("launch", `the CPU device runs 'js' artifacts, not '${artifact.target}'`);
    // Bake the relocations: constant tables are bound as the code's free names when it is loaded.
    const names = artifact.globals.map((g) => g.name);
    const factory = new Function(...names, `${artifact.code}\nreturn ${artifact.entry};`);
    const run = factory(...artifact.globals.map((g) => g.value)) as CpuKernel["run"];
    return { artifact, run };
  }

  async launch(kernel: LoadedKernel, args: unknown[], grid: Grid): Promise<void> {
    this.check();
    const k = kernel as CpuKernel;
    for (let i = 0; i < args.length; i++) if (args[i] instanceof CpuArray) args[i] = (args[i] as CpuArray).data;
    const [gx, gy, gz] = grid.blocks;
    const [dx, dy, dz] = grid.threads;
    switch (args.length) {
      // Direct calls for common arities keep the launch free of spread allocation.
      case 1: k.run(args[0], gx, gy, gz, dx, dy, dz); break;
      case 2: k.run(args[0], args[1], gx, gy, gz, dx, dy, dz); break;
      case 3: k.run(args[0], args[1], args[2], gx, gy, gz, dx, dy, dz); break;
      case 4: k.run(args[0], args[1], args[2], args[3], gx, gy, gz, dx, dy, dz); break;
      default: k.run(...args, gx, gy, gz, dx, dy, dz);
    }
  }

  close(): void { this.closed = true; }

  private check(): void {
    if (this.closed) throw new KernelError("device-unavailable", "this CPU device was closed");
  }
}

export function describeValue(v: unknown): string {
  if (v === null) return "null";
  if (typeof v === "object") return (v as object).constructor?.name ?? "object";
  return typeof v;
}
