// What every device offers the kernel launcher: arrays that live on the device, loading an
// artifact, launching it on a grid. One implementation per runtime (cpu.ts, …).

import { KernelError, unknownOption } from "../errors.js";
import { BLOCK_LIMITS, MAX_BLOCKS, type Artifact, type TargetFeatures } from "../targets/target.js";
import { describeConfig, type ElementType, type HostArray } from "../typed-arrays.js";
export { hostArrayElement, type HostArray } from "../typed-arrays.js";

/** An array resident on a device. `read()` copies it back into a new host typed array. */
export abstract class DeviceArray {
  constructor(readonly device: Device, readonly elem: ElementType, readonly length: number) {}
  /** Copy the device array back into a new host array. */
  async read(): Promise<HostArray> {
    this.checkOpen();
    return this.readData();
  }
  /** Copy a host array of the same type and length into this device array. */
  async write(data: HostArray): Promise<void> {
    this.checkOpen();
    return this.writeData(data);
  }
  /**
   * A view of elements `begin` to `end` of this array, sharing its memory, with JavaScript's
   * `subarray` meaning (negative positions count from the end, both are clamped). It is an array
   * of the device like any other: a kernel argument (the kernel sees only the view), read,
   * written, copied.
   */
  subarray(begin: number, end: number = this.length): DeviceArray {
    this.checkOpen();
    for (const [what, v] of [["begin", begin], ["end", end]] as const)
      if (typeof v !== "number" || !Number.isInteger(v)) throw new KernelError("launch", `subarray(): ${what} must be an integer, got ${describeGrid(v)}`);
    const at = (x: number) => (x < 0 ? Math.max(this.length + x, 0) : Math.min(x, this.length));
    const b = at(begin);
    return this.view(b, Math.max(at(end) - b, 0));
  }
  /** The view of `length` elements from `offset` (both in range). */
  protected abstract view(offset: number, length: number): DeviceArray;
  protected abstract readData(): Promise<HostArray>;
  protected abstract writeData(data: HostArray): Promise<void>;
  private checkOpen(): void {
    if (this.device.closed) throw new KernelError("device-unavailable", `this array's ${DEVICE_LABEL[this.device.kind] ?? this.device.kind} device was closed`);
  }
}

/** The element type of a device array, or null (for anything else, a revoked Proxy included). */
export function deviceArrayElement(a: unknown): ElementType | null {
  if (typeof a !== "object" || a === null) return null;
  try { return a instanceof DeviceArray ? a.elem : null; } catch { return null; }
}

/** Each device kind as messages name it. */
export const DEVICE_LABEL: Record<string, string> = { cpu: "CPU", webgpu: "WebGPU", cuda: "CUDA", amdgpu: "AMD GPU", opencl: "OpenCL" };

/** What `copy` moves, in elements. */
export interface CopyRange { srcOffset?: number; dstOffset?: number; length?: number }

export interface DeviceOptions {
  /** Where `console.log` lines from kernels go (default: the host's console.log). */
  print?: (line: string) => void;
  /** Size of the print area in 32-bit words (default 256 Ki words, 1 MiB). */
  printBufferWords?: number;
  /** The CPU device's subgroup size (subgroupSize()): 1, 2, 4, 8, 16 or 32 (default 32). GPUs have their own. */
  subgroupSize?: number;
  /**
   * The CPU device's threads: a launch's blocks spread over this many worker threads (default:
   * GPUC_CPU_THREADS, else the number of cores in Node; 1 in browsers). 1 runs every launch
   * without a cancel on the calling thread.
   */
  threads?: number;
  /**
   * The CPU device with threads > 1: `auto` (default; GPUC_CPU_PARALLEL=always changes it) runs a
   * launch on the workers when its measured cost outweighs theirs, `always` runs every launch of
   * two blocks or more there.
   */
  parallel?: "auto" | "always";
  /**
   * The CPU device: run a kernel that has a WebAssembly form (targets/js/wasm.ts) as WebAssembly
   * where that is faster, as measured (true, the default), never (false), or on every launch on
   * the device's own thread (`always`: the fuzzers' and tests' way to check it). GPUC_CPU_WASM=0,
   * 1 or always sets the default. Results are the same either way.
   */
  wasm?: boolean | "always";
  /**
   * The CPU device: run every launch under the sanitizer (GPUC_SANITIZE=1 sets the default), which
   * reports data races (kind `race`), reads of shared memory no thread of the block wrote
   * (`uninitialized`) and subgroupBarrier() reached by only some lanes (`divergence`) as a
   * KernelError after the launch, with both accesses' source lines. Launches run as JavaScript on
   * the calling thread, many times slower (README, "The sanitizer").
   */
  sanitize?: boolean;
  /**
   * The CPU device with `sanitize`: `reversed` runs each barrier interval's threads, the subgroups'
   * lanes and the blocks last first (default `forward`). A result that changes with it depends on
   * an order no GPU promises.
   */
  threadOrder?: "forward" | "reversed";
}

/** device()'s options (devices/index.ts): a device's, and which device of a kind to open. */
export interface OpenOptions extends DeviceOptions {
  /** For "webgpu": the GPU object to use (navigator.gpu in a browser); Dawn's in Node otherwise. */
  gpu?: GPULike;
  /** For "webgpu": which adapter to ask for (requestAdapter's powerPreference; default "high-performance"). */
  powerPreference?: "high-performance" | "low-power";
  /** For "opencl": the platform (its index, or a part of its name; default the first). */
  platform?: number | string;
  /** For "opencl": the platform's device (its index, or a part of its name; default the first). */
  device?: number | string;
  /** For "opencl": run the spirv target's SPIR-V (clCreateProgramWithIL), on a driver that takes IL. */
  spirv?: boolean;
  /** For "opencl": run the llvm target's SPIR (LLVM IR for spir64, as bitcode), on a driver that takes SPIR (cl_khr_spir). */
  llvm?: boolean;
}

/**
 * WebGPU's `GPU` (navigator.gpu), as gpuc's declarations name it: every GPU object is one, and a
 * Node project needs neither the DOM library nor @webgpu/types (which needs the DOM library) to
 * compile against gpuc's types.
 */
export interface GPULike {
  requestAdapter(options?: object): Promise<unknown>;
}

export interface Grid {
  blocks: [number, number, number];
  threads: [number, number, number];
  /** Cancels the launch (the CPU device stops it between blocks; other devices only before it starts). */
  signal?: AbortSignal;
  /** A time limit in milliseconds (the CPU device), after which the launch is stopped as if cancelled. */
  timeoutMs?: number;
}

export interface LaunchConfig {
  blocks: number | readonly number[];
  threads: number | readonly number[];
  /** Cancels the launch: it rejects with a KernelError of kind "cancelled" (see Grid.signal). */
  signal?: AbortSignal;
  /** Stop the launch after this many milliseconds (CPU device), rejecting with kind "cancelled". */
  timeoutMs?: number;
}

/** A kernel artifact loaded on a device, ready to launch. */
export interface LoadedKernel {
  readonly artifact: Artifact;
  /**
   * Its tables' values are part of its program (OpenCL's `bake`: `__constant` data): `updateTable`
   * cannot change them, and a launch that needs other values compiles the kernel again.
   */
  readonly tablesInCode?: boolean;
}

export interface Device {
  /** "cpu", "webgpu", "cuda", "amdgpu", "opencl". */
  readonly kind: string;
  /** Human-readable description of the device. */
  readonly name: string;
  /** The compilation target this device runs. */
  readonly target: string;
  /** Whether close() was called. */
  readonly closed: boolean;
  /** The target variant this device needs (its architecture), when the target has several. */
  readonly features?: TargetFeatures;
  array(data: HostArray): DeviceArray;
  /**
   * Load an artifact: check its relocation manifest against its code, resolve the sites (to
   * `tables` by site name where given — a revived artifact's tables — else to the artifact's own
   * session values) and keep the resolved values alive while the kernel is loaded.
   */
  load(artifact: Artifact, tables?: ReadonlyMap<string, HostArray>): LoadedKernel;
  /** Run a loaded kernel; `args` are already checked against the artifact's parameter types. */
  launch(kernel: LoadedKernel, args: unknown[], grid: Grid): Promise<void>;
  /**
   * Copy elements from one array of this device to another without the host (`cudaMemcpy`
   * device to device): all of `src` into `dst` (of the same length), or `length` elements from
   * `srcOffset` to `dstOffset`. The arrays may be the same one; overlapping ranges copy as if
   * through a temporary. Ordered after the launches before it, as launches are.
   */
  copy(dst: DeviceArray, src: DeviceArray, range?: CopyRange): Promise<void>;
  /**
   * Replace the values of a loaded kernel's constant table `name` (a relocation site of its
   * manifest; same element type and length) for its later launches, in order with them
   * (`kernel.setTable`).
   */
  updateTable(kernel: LoadedKernel, name: string, values: HostArray): void;
  close(): void;
}

const MAX_GRID_DIM = MAX_BLOCKS;

/** A launch-configuration value as the message shows it: describeConfig's, with numbers as JavaScript writes them (NaN, -0). */
export function describeGrid(v: unknown): string {
  return typeof v === "number" ? (Object.is(v, -0) ? "-0" : String(v)) : describeConfig(v);
}

/**
 * Normalize `{ blocks, threads }` (numbers or [x, y, z]) and check it against the limits every
 * device shares: each mistake a launch-config KernelError.
 */
/** The keys of a launch configuration. */
const LAUNCH_KEYS = ["blocks", "threads", "signal", "timeoutMs"];

export function normalizeGrid(cfg: LaunchConfig): Grid {
  const bad = (message: string) => new KernelError("launch-config", message);
  if (cfg === null || typeof cfg !== "object") throw bad("launch configuration must be an object { blocks, threads }");
  // A key the configuration does not have (a misspelt `thread`, `timeoutMS`) is named, not ignored.
  // (for…in: no array per launch; an inherited enumerable key is as unknown as an own one.)
  for (const key in cfg) if (!LAUNCH_KEYS.includes(key)) throw bad(`the launch configuration has an ${unknownOption({ [key]: true }, LAUNCH_KEYS, "key")!}`);
  const dims = (v: unknown, what: string): [number, number, number] => {
    const list = typeof v === "number" ? [v] : Array.isArray(v) ? v : null;
    if (!list || list.length < 1 || list.length > 3)
      throw bad(`'${what}' must be a positive integer or an array of 1 to 3 positive integers, got ${describeGrid(v)}`);
    const out: [number, number, number] = [1, 1, 1];
    for (let i = 0; i < list.length; i++) {
      const x: unknown = list[i];
      if (!Number.isInteger(x) || (x as number) < 1) throw bad(`'${what}' dimension ${"xyz"[i]} must be a positive integer, got ${describeGrid(x)}`);
      out[i] = x as number;
    }
    return out;
  };
  const blocks = dims(cfg.blocks, "blocks");
  const threads = dims(cfg.threads, "threads");
  threads.forEach((t, i) => {
    if (t > BLOCK_LIMITS.dims[i]) throw bad(`threads.${"xyz"[i]} = ${t} exceeds the limit of ${BLOCK_LIMITS.dims[i]}`);
  });
  const per = threads[0] * threads[1] * threads[2];
  if (per > BLOCK_LIMITS.threads) throw bad(`${per} threads per block exceeds the limit of ${BLOCK_LIMITS.threads}`);
  blocks.forEach((b, i) => {
    if (b > MAX_GRID_DIM[i]) throw bad(`blocks.${"xyz"[i]} = ${b} exceeds the limit of ${MAX_GRID_DIM[i]}`);
  });
  const { signal, timeoutMs } = cfg;
  if (signal === undefined && timeoutMs === undefined) return { blocks, threads };
  const grid: Grid = { blocks, threads };
  if (signal !== undefined) {
    const ok = typeof AbortSignal !== "undefined" ? signal instanceof AbortSignal : typeof signal === "object" && signal !== null && typeof (signal as AbortSignal).addEventListener === "function";
    if (!ok) throw bad(`'signal' must be an AbortSignal (new AbortController().signal), got ${describeGrid(signal)}`);
    grid.signal = signal;
  }
  if (timeoutMs !== undefined) {
    if (typeof timeoutMs !== "number" || !(timeoutMs > 0) || timeoutMs > 0x7fffffff) throw bad(`'timeoutMs' must be a number of milliseconds above 0 (at most ${0x7fffffff}), got ${describeGrid(timeoutMs)}`);
    grid.timeoutMs = timeoutMs;
  }
  return grid;
}
