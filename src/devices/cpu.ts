// The CPU device: runs the JavaScript target's code in this process.
//
// Host typed arrays are used in place: the CPU shares memory with the host, so "copied in and
// back" costs nothing here. Device arrays are private copies, read back with `read()`.

import { KernelError, InternalCompilerError, quoteName } from "../errors.js";
import { decodeException, decodePrints, newState, resetState } from "../runtime/host.js";
import type { Artifact } from "../targets/target.js";
import { resolveSites } from "../reloc/manifest.js";
import { describeValue, type ElementType } from "../typed-arrays.js";
import { DeviceArray, arrayElement, copyExtent, sharedSizes, tableSite, hostArrayElement, type CopyRange, type Device, type DeviceOptions, type Grid, type HostArray, type LoadedKernel } from "./device.js";

export class CpuArray extends DeviceArray {
  constructor(device: Device, elem: ElementType, readonly data: HostArray) { super(device, elem, data.length); }
  protected view(offset: number, length: number): CpuArray { return new CpuArray(this.device, this.elem, this.data.subarray(offset, offset + length)); }
  protected async readData(): Promise<HostArray> { return this.data.slice(); }
  protected async writeData(data: HostArray): Promise<void> {
    if (hostArrayElement(data) !== this.elem || data.length !== this.length)
      throw new KernelError("launch", `write() needs a ${this.data.constructor.name} of length ${this.length}`);
    this.data.set(data);
  }
}

interface CpuKernel extends LoadedKernel {
  run: (...args: unknown[]) => void;
  /** The tables the code is bound to (the manifest's sites, in order): `updateTable` writes into them. */
  sites: HostArray[];
}

/** Thrown by generated code to end a thread after the runtime recorded an exception. */
const TRAP = Object.freeze({ gpucTrap: true });

export class CpuDevice implements Device {
  readonly kind = "cpu";
  readonly name = typeof process !== "undefined" && process.versions?.node ? `CPU (JavaScript, Node.js ${process.versions.node})` : "CPU (JavaScript)";
  readonly target = "js";
  /** Set by close(); arrays and launches on a closed device are device-unavailable errors. */
  closed = false;
  private readonly state: Int32Array;
  private readonly print: (line: string) => void;
  /** Threads per subgroup (subgroupSize()): `options.subgroupSize`, 32 by default, as on NVIDIA GPUs. */
  readonly subgroupSize: number;

  constructor(options: DeviceOptions = {}) {
    this.state = newState(options.printBufferWords ?? 1 << 18);
    this.print = options.print ?? ((line) => console.log(line));
    const sg = options.subgroupSize ?? 32;
    if (!(typeof sg === "number" && [1, 2, 4, 8, 16, 32].includes(sg)))
      throw new KernelError("launch", `the CPU device's subgroupSize must be 1, 2, 4, 8, 16 or 32, got ${describeValue(sg) === "number" ? sg : describeValue(sg)}`);
    this.subgroupSize = sg;
  }

  array(data: HostArray): CpuArray {
    this.check();
    const elem = arrayElement(data);
    return new CpuArray(this, elem, data.slice());
  }

  load(artifact: Artifact, tables?: ReadonlyMap<string, HostArray>): CpuKernel {
    this.check();
    if (artifact.target !== "js") throw new KernelError("launch", `the CPU device runs 'js' artifacts, not '${artifact.target}'`);
    // The relocations: constant tables (and the runtime hooks) are bound as the code's free names.
    const sites = resolveSites(artifact, tables);
    const divergent = (loc: number, tx: number, ty: number, tz: number, bx: number, by: number, bz: number, subgroup = 0): never => {
      const l = artifact.runtime.location(loc);
      const what = subgroup ? "a subgroup operation is reached under a condition that differs between the threads of a subgroup" : "syncthreads() is reached under a condition that differs between the threads of a block";
      throw new KernelError("exception",
        `${l ? `${l.file}:${l.line}:${l.column}: ` : ""}${what} ` +
        `(thread (${tx}, ${ty}, ${tz}) of block (${bx}, ${by}, ${bz}) disagrees with an earlier thread${subgroup ? ` of its subgroup of ${this.subgroupSize}` : ""}) in kernel ${quoteName(artifact.kernel)}`,
        { location: l ? { file: l.file, line: l.line, column: l.column } : null, thread: { x: tx, y: ty, z: tz }, block: { x: bx, y: by, z: bz } });
    };
    const values = [...sites, TRAP, divergent, this.subgroupSize, false, atomicF32Unshared];
    // gpuc's JS always compiles; code that does not (read back damaged past every check) is the
    // artifact's fault: an internal error, which a revived kernel heals by compiling afresh.
    let factory: Function;
    try { factory = new Function(...artifact.bindings, `${artifact.code}\nreturn ${artifact.entry};`); }
    catch (e) { throw new InternalCompilerError(`the JavaScript of kernel ${quoteName(artifact.kernel)} does not compile: ${(e as Error).message}`); }
    const run = factory(...values) as CpuKernel["run"];
    return { artifact, run, sites };
  }

  async launch(kernel: LoadedKernel, args: unknown[], grid: Grid): Promise<void> {
    this.check();
    const k = kernel as CpuKernel;
    if (k.artifact.dynamicShared) sharedSizes(k.artifact, args, grid, 0, 256 * 1024 * 1024, "CPU");
    const state = this.state;
    resetState(state);
    const [gx, gy, gz] = grid.blocks;
    const [dx, dy, dz] = grid.threads;
    for (let i = 0; i < args.length; i++) if (args[i] instanceof CpuArray) args[i] = (args[i] as CpuArray).data;
    try {
      switch (args.length) {
        // Direct calls for common arities keep the launch free of spread allocation.
        case 1: k.run(state, args[0], gx, gy, gz, dx, dy, dz); break;
        case 2: k.run(state, args[0], args[1], gx, gy, gz, dx, dy, dz); break;
        case 3: k.run(state, args[0], args[1], args[2], gx, gy, gz, dx, dy, dz); break;
        case 4: k.run(state, args[0], args[1], args[2], args[3], gx, gy, gz, dx, dy, dz); break;
        default: k.run(state, ...args, gx, gy, gz, dx, dy, dz);
      }
    } catch (e) {
      if (e !== TRAP) { this.flushPrints(k.artifact); throw e; }
    }
    this.flushPrints(k.artifact);
    const err = decodeException(state, k.artifact.runtime, k.artifact.kernel);
    if (err) throw err;
  }

  private flushPrints(artifact: Artifact): void {
    if (this.state[27] === 0 && this.state[28] === 0) return;
    for (const line of decodePrints(this.state, artifact.runtime)) this.print(line);
  }

  updateTable(kernel: LoadedKernel, name: string, values: HostArray): void {
    this.check();
    const k = kernel as CpuKernel;
    k.sites[tableSite(k, name, values)].set(values);
  }

  async copy(dst: DeviceArray, src: DeviceArray, range?: CopyRange): Promise<void> {
    const { srcOffset, dstOffset, length } = copyExtent(this, dst, src, range);
    // TypedArray.set copies overlapping ranges of one buffer as if through a temporary.
    (dst as CpuArray).data.set((src as CpuArray).data.subarray(srcOffset, srcOffset + length), dstOffset);
  }

  close(): void { this.closed = true; }

  private check(): void {
    if (this.closed) throw new KernelError("device-unavailable", "this CPU device was closed");
  }
}

/** f32 atomic add (op 0) or exchange (1) when no other thread runs: the code never calls it then ($mt is false). */
function atomicF32Unshared(a: Float32Array, i: number, op: number, v: number): number {
  const o = a[i];
  a[i] = op === 0 ? o + v : v;
  return o;
}
