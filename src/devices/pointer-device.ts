// What the CUDA and AMD GPU devices share: drivers with flat 64-bit device pointers (CUDA's driver
// API, HIP), reached through koffi. Memory is tracked per device (freed on close), an array is a
// pointer (a view's points into its base's allocation, so a kernel needs no offset for it), copies
// between arrays go through the driver (overlapping ranges through a temporary), and a launch
// passes its arguments as `kernelParams`: one 8-byte slot per argument, host typed arrays copied to
// the device for the launch and back after it where a parameter may write them. The kernel state
// (the exception record and prints) is one buffer per device, cleared before each launch and
// decoded after it as on every device; constant tables are uploaded at load; shared arrays sized
// at launch are laid out in one dynamic block, each 16-byte aligned.

import { KernelError, quoteName } from "../errors.js";
import { elemBytes } from "../ir/types.js";
import { STATE } from "../runtime/state.js";
import { reportKernelState } from "../runtime/host.js";
import type { Artifact } from "../targets/target.js";
import { ARRAY_CONSTRUCTOR, hostArrayElement, type ElementType, type HostArray } from "../typed-arrays.js";
import { DeviceArray, type CopyRange, type Device, type DeviceOptions, type Grid } from "./device.js";
import { arrayElement, copyExtent, sharedSizes } from "./common.js";

/** A driver's memory calls (each returns the driver's status: 0 is success) and how it names them. */
export interface DriverMemory {
  malloc(out: bigint[], bytes: number): number;
  free(ptr: bigint): number;
  toDevice(dst: bigint, src: HostArray, bytes: number): number;
  toHost(dst: HostArray, src: bigint, bytes: number): number;
  deviceToDevice(dst: bigint, src: bigint, bytes: number): number;
  /** Fill `count` 32-bit words at `dst` with `value`. */
  memset32(dst: bigint, value: number, count: number): number;
  /** The calls' names in messages ("cuMemcpyHtoD"), in the order toDevice, toHost, deviceToDevice. */
  names: readonly [string, string, string];
  /** "CUDA_ERROR_OUT_OF_MEMORY (2): out of memory" */
  describe(code: number): string;
}

/**
 * A driver's memory calls by their names in its library (`calls`: allocate, free, host to device,
 * device to host, device to device; each `(…) => status`), with its describer of a status.
 */
export function memoryCalls(lib: object, calls: readonly [string, string, string, string, string, string], describe: (code: number) => string): DriverMemory {
  const fn = (name: string) => (lib as Record<string, (...args: unknown[]) => number>)[name];
  const [malloc, free, toDevice, toHost, deviceToDevice, memset32] = calls.map(fn);
  return { malloc, free, toDevice, toHost, deviceToDevice, memset32, names: [calls[2], calls[3], calls[4]], describe };
}

/** A NUL-terminated string in a buffer a driver filled. */
export function cString(bytes: Uint8Array): string {
  const end = bytes.indexOf(0);
  return new TextDecoder().decode(end < 0 ? bytes : bytes.subarray(0, end)).trim();
}

const big = (v: unknown): bigint => (typeof v === "bigint" ? v : BigInt(v as number));

/** Throw a launch KernelError where a driver call failed. */
export function checkCall(mem: Pick<DriverMemory, "describe">, rc: number, what: string): void {
  if (rc !== 0) throw new KernelError("launch", `${what} failed: ${mem.describe(rc)}`);
}

export abstract class PointerDevice {
  /** Set by close(); arrays and launches on a closed device are device-unavailable errors. */
  closed = false;
  private readonly allocations = new Set<bigint>();
  /** "CUDA", "AMD GPU": the device in messages. */
  protected abstract readonly label: string;
  /** The kernel state: its words (header and print area) and its allocation. */
  protected readonly stateWords: number;
  protected readonly state: bigint;
  private readonly print: (line: string) => void;

  /** (The driver's context is current: the state is allocated here.) */
  constructor(protected readonly mem: DriverMemory, options: DeviceOptions) {
    this.print = options.print ?? ((line) => console.log(line));
    this.stateWords = STATE.PRINT_BASE + (options.printBufferWords ?? 1 << 16);
    this.state = this.alloc(this.stateWords * 4);
  }

  /** Make the device's context current on this thread (before driver calls that need it). */
  protected abstract current(): void;

  array(data: HostArray): PointerArray {
    this.checkOpen();
    const elem = arrayElement(data);
    // Whole 32-bit words: atomics on 8- and 16-bit elements work on the word that holds them.
    const ptr = this.alloc(Math.ceil(data.byteLength / 4) * 4);
    this.copyIn(ptr, data);
    return new PointerArray(this, elem, data.length, ptr);
  }

  /** Device memory, tracked (the device's own and a launch's copies: LaunchArgs). */
  alloc(bytes: number): bigint {
    const out = [0n];
    const rc = this.mem.malloc(out, Math.max(bytes, 4));
    if (rc !== 0) throw new KernelError("launch", `cannot allocate ${bytes} bytes on the GPU: ${this.mem.describe(rc)}`);
    const ptr = big(out[0]);
    this.allocations.add(ptr);
    return ptr;
  }

  free(ptr: bigint): void {
    if (this.allocations.delete(ptr)) this.mem.free(ptr);
  }

  /** Free every allocation (close()). */
  protected freeAll(): void {
    for (const p of this.allocations) this.mem.free(p);
    this.allocations.clear();
  }

  copyIn(dst: bigint, src: HostArray): void {
    if (src.byteLength) checkCall(this.mem, this.mem.toDevice(dst, src, src.byteLength), this.mem.names[0]);
  }

  copyOut(dst: HostArray, src: bigint): void {
    if (dst.byteLength) checkCall(this.mem, this.mem.toHost(dst, src, dst.byteLength), this.mem.names[1]);
  }

  /** Copy `bytes` between two device allocations (the bandwidth baseline of the GPU check). */
  copyDeviceToDevice(dst: PointerArray, src: PointerArray, bytes: number): void {
    checkCall(this.mem, this.mem.deviceToDevice(dst.ptr, src.ptr, bytes), this.mem.names[2]);
  }

  async copy(dst: DeviceArray, src: DeviceArray, range?: CopyRange): Promise<void> {
    const { srcOffset, dstOffset, length } = copyExtent(this as unknown as Device, dst, src, range);
    if (!length) return;
    this.current();
    const size = elemBytes(src.elem), bytes = length * size;
    const s = (src as PointerArray).ptr + BigInt(srcOffset * size), d = (dst as PointerArray).ptr + BigInt(dstOffset * size);
    const dtod = (to: bigint, from: bigint) => checkCall(this.mem, this.mem.deviceToDevice(to, from, bytes), this.mem.names[2]);
    // A device-to-device copy leaves overlapping ranges undefined: those go through a temporary.
    if (s < d + BigInt(bytes) && d < s + BigInt(bytes)) {
      const tmp = this.alloc(bytes);
      try { dtod(tmp, s); dtod(d, tmp); } finally { this.free(tmp); }
      return;
    }
    dtod(d, s);
  }

  /** The constant tables resolved for a load, uploaded (a zero-length one gets a minimal allocation): their addresses. */
  protected uploadTables(values: readonly HostArray[]): bigint[] {
    return values.map((value) => {
      const ptr = this.alloc(Math.max(value.byteLength, 4));
      if (value.byteLength) this.copyIn(ptr, value);
      return ptr;
    });
  }

  /**
   * A launch's shared arrays sized at launch, in one dynamic block after `staticBytes`: each
   * array's element count, its byte offset (in order, each 16-byte aligned: as the kernels lay
   * them out) and the block's bytes; more than `maxBytes` in all is the launch's KernelError.
   */
  protected dynamicShared(artifact: Artifact, args: readonly unknown[], grid: Grid, staticBytes: number, maxBytes: number): { sizes: number[]; offsets: number[]; bytes: number } {
    const sizes = sharedSizes(artifact, args, grid, staticBytes, maxBytes, this.label);
    const offsets: number[] = [];
    const bytes = (artifact.dynamicShared ?? []).reduce((off, s, i) => { offsets.push(off); return (off + sizes[i] * elemBytes(s.elem) + 15) & ~15; }, 0);
    if (staticBytes + bytes > maxBytes)
      throw new KernelError("launch", `kernel ${quoteName(artifact.kernel)} would use ${staticBytes + bytes} bytes of shared memory per block at this launch; the ${this.label} device allows ${maxBytes}`);
    return { sizes, offsets, bytes };
  }

  /**
   * A launch whose arguments are in `slots`: started (`start`: the driver's status; `driver` names
   * it in the error), waited for (`wait`; a fault leaves the driver's `context` unusable), its
   * written host arrays copied back, its slots freed, then its state reported.
   */
  protected finishLaunch(artifact: Artifact, slots: LaunchArgs, start: () => number, wait: () => number, driver: string, context: string): void {
    try {
      let rc = start();
      if (rc !== 0) throw new KernelError("launch", `${driver} rejected the launch of kernel ${quoteName(artifact.kernel)}: ${this.mem.describe(rc)}`);
      rc = wait();
      if (rc !== 0) throw new KernelError("launch", `kernel ${quoteName(artifact.kernel)} failed on the GPU: ${this.mem.describe(rc)} (the ${context} cannot be used after this error; open a new process)`);
      slots.copyBack();
    } finally {
      slots.release();
    }
    this.reportState(artifact);
  }

  /** Before a launch: the state's header cleared. */
  protected clearState(): void {
    checkCall(this.mem, this.mem.memset32(this.state, 0, STATE.PRINT_BASE), "clearing the kernel state");
  }

  /** After a launch: its prints and its exception, read back and decoded. */
  protected reportState(artifact: Artifact): void {
    reportKernelState((words) => { const out = new Int32Array(words); this.copyOut(out, this.state); return out; }, this.stateWords, artifact.runtime, artifact.kernel, this.print);
  }

  protected checkOpen(): void {
    if (this.closed) throw new KernelError("device-unavailable", `this ${this.label} device was closed`);
  }

  /** One launch's arguments (see LaunchArgs). */
  protected launchArgs(ffi: typeof import("koffi"), count: number): LaunchArgs {
    return new LaunchArgs(ffi, count, this);
  }
}

export class PointerArray extends DeviceArray {
  /** `ptr`: the array's first element (a view's points into its base's allocation). */
  constructor(private readonly dev: PointerDevice, elem: ElementType, length: number, readonly ptr: bigint) { super(dev as unknown as Device, elem, length); }
  protected view(offset: number, length: number): PointerArray { return new PointerArray(this.dev, this.elem, length, this.ptr + BigInt(offset * elemBytes(this.elem))); }
  protected async readData(): Promise<HostArray> {
    const out = new ARRAY_CONSTRUCTOR[this.elem](this.length);
    this.dev.copyOut(out, this.ptr);
    return out;
  }
  protected async writeData(data: HostArray): Promise<void> {
    if (hostArrayElement(data) !== this.elem || data.length !== this.length)
      throw new KernelError("launch", `write() needs a ${ARRAY_CONSTRUCTOR[this.elem].name} of length ${this.length}`);
    this.dev.copyIn(this.ptr, data);
  }
}

/**
 * A launch's `kernelParams`: an 8-byte slot per argument (the driver copies from each as many bytes
 * as the kernel's parameter takes) and the array of their addresses; and the device copies of the
 * host arrays passed, made once per array (one passed to several parameters aliases, as on the
 * CPU), copied back after the launch where some parameter may write it, freed by release().
 */
export class LaunchArgs {
  private readonly area: unknown;
  /** The `void **kernelParams` to pass. */
  readonly pointers: unknown;
  private readonly base: bigint;
  private readonly temps: { ptr: bigint; host: HostArray; written: boolean }[] = [];

  constructor(private readonly ffi: typeof import("koffi"), count: number, private readonly dev: PointerDevice) {
    this.area = ffi.alloc("uint8_t", Math.max(8, count * 8));
    this.pointers = ffi.alloc("uint64_t", Math.max(1, count));
    this.base = ffi.address(this.area) as bigint;
    for (let i = 0; i < count; i++) ffi.encode(this.pointers, i * 8, "uint64_t", this.base + BigInt(i * 8));
  }

  f32(i: number, v: number): void { this.ffi.encode(this.area, i * 8, "float", v); }
  f64(i: number, v: number): void { this.ffi.encode(this.area, i * 8, "double", v); }
  i32(i: number, v: number): void { this.ffi.encode(this.area, i * 8, "int32_t", v | 0); }
  u32(i: number, v: number): void { this.ffi.encode(this.area, i * 8, "uint32_t", v >>> 0); }
  ptr(i: number, v: bigint): void { this.ffi.encode(this.area, i * 8, "uint64_t", v); }

  /** A scalar parameter's value by its type (bool and u32 as 32-bit integers). */
  scalar(i: number, type: string, v: unknown): void {
    if (type === "f32") this.f32(i, v as number);
    else if (type === "f64") this.f64(i, v as number);
    else if (type === "u32") this.u32(i, typeof v === "boolean" ? Number(v) : (v as number));
    else this.i32(i, typeof v === "boolean" ? Number(v) : (v as number));
  }

  /** An array argument: a device array's pointer, or the launch's device copy of a host array (`written`: a parameter may write it). */
  array(i: number, a: unknown, written: boolean): void {
    if (a instanceof PointerArray) { this.ptr(i, a.ptr); return; }
    const host = a as HostArray;
    const same = this.temps.find((t) => t.host === host);
    if (same) { same.written ||= written; this.ptr(i, same.ptr); return; }
    const ptr = this.dev.alloc(Math.max(Math.ceil(host.byteLength / 4) * 4, 4));
    if (host.byteLength) this.dev.copyIn(ptr, host);
    this.temps.push({ ptr, host, written });
    this.ptr(i, ptr);
  }

  /** After the launch: the written host arrays' new contents. */
  copyBack(): void {
    for (const t of this.temps) if (t.written && t.host.byteLength) this.dev.copyOut(t.host, t.ptr);
  }

  release(): void {
    for (const t of this.temps) this.dev.free(t.ptr);
    this.ffi.free(this.area);
    this.ffi.free(this.pointers);
  }
}
