// The CPU device: runs the JavaScript target's code in this process, on its own thread or, with
// `threads` above 1, spread by blocks over worker threads (cpu-workers.ts: the design, and why
// the results are the same).
//
// Host typed arrays are used in place on the device's own thread: the CPU shares memory with the
// host, so "copied in and back" costs nothing. Launches on the workers copy them into
// SharedArrayBuffers and back (device arrays of a multi-threaded device, and every loaded
// kernel's tables in Node, live in SharedArrayBuffers from the start). Device arrays are private
// copies, read back with `read()`.
//
// Which thread runs a launch: the workers for a launch with an AbortSignal or a time limit (the
// device's own thread could not see either until it finished), and, when `threads` > 1, for one
// of two blocks or more that measured faster there (`parallel: "auto"`: onWorkers), or always
// (`parallel: "always"`). Everything else runs on the calling thread, as before.

import { CompileError, KernelError, InternalCompilerError, quoteName } from "../errors.js";
import { decodeException, decodePrints, newState, resetState } from "../runtime/host.js";
import type { Artifact, TargetFeatures } from "../targets/target.js";
import { resolveSites } from "../reloc/manifest.js";
import { describeValue, type ElementType } from "../typed-arrays.js";
import { DeviceArray, hostArrayElement, type CopyRange, type Device, type DeviceOptions, type Grid, type HostArray, type LoadedKernel } from "./device.js";
import { arrayElement, copyExtent, sharedSizes, tableSite } from "./common.js";
import type { CpuWorkers } from "./cpu-workers.js";
import { WasmKernel } from "./cpu-wasm.js";
import { SAN_SITES, WASM_CONSTANT, wasmElemBytes } from "../targets/js/wasm-abi.js";
import type { Sanitizer } from "./cpu-sanitizer.js";
import { TRAP, cancelledError, estimate, isShared, type CpuHost, type CpuKernel } from "./cpu-launch.js";
import { cpuEnvironment } from "./cpu-environment.js";

export class CpuArray extends DeviceArray {
  constructor(device: Device, elem: ElementType, readonly data: HostArray) { super(device, elem, data.length); }
  protected view(offset: number, length: number): CpuArray { return new CpuArray(this.device, this.elem, this.data.subarray(offset, offset + length)); }
  protected async readData(): Promise<HostArray> {
    return (this.device as CpuDevice).inOrder(() => this.data.slice());
  }
  protected async writeData(data: HostArray): Promise<void> {
    return (this.device as CpuDevice).inOrder(() => this.write1(data));
  }
  private write1(data: HostArray): void {
    if (hostArrayElement(data) !== this.elem || data.length !== this.length)
      throw new KernelError("launch", `write() needs a ${this.data.constructor.name} of length ${this.length}`);
    this.data.set(data);
  }
}

let nextKernelId = 0;

/** Whether this process can run worker threads sharing memory (Node). */
const workersAvailable = typeof SharedArrayBuffer !== "undefined" && typeof process !== "undefined" && !!process.versions?.node;

/** A copy of a typed array in a SharedArrayBuffer (a view of the same type and length). */
function sharedCopy(a: HostArray): HostArray {
  const C = a.constructor as new (b: SharedArrayBuffer) => HostArray;
  const copy = new C(new SharedArrayBuffer(a.byteLength));
  copy.set(a as never);
  return copy;
}

/** Whether a CPU device opened with `options` sanitizes (its `sanitize`, else GPUC_SANITIZE): then device() loads the sanitizer. */
export function wantsSanitizer(options: DeviceOptions): boolean {
  return options.sanitize === undefined ? cpuEnvironment().sanitize === true : options.sanitize === true;
}

/**
 * Why this realm cannot make functions from code, or null: the CPU device runs each kernel as a
 * function made from its JavaScript (and its WebAssembly), which a page's Content-Security-Policy
 * without 'unsafe-eval' forbids. Said when the device opens, not as a kernel that fails to load.
 */
export function codeForbidden(): string | null {
  try { new Function(""); return null; }
  catch {
    return "the CPU device runs each kernel as a function made from its code, which this page's Content-Security-Policy forbids: " +
      "allow it with script-src 'unsafe-eval', or run the kernels on WebGPU";
  }
}

/** Open the CPU device (devices/index.ts), or say why it cannot be opened here. */
export async function openDevice(options: DeviceOptions): Promise<Device | string> {
  const forbidden = codeForbidden();
  if (forbidden) return forbidden;
  // (The sanitizer's module loads only for a device that sanitizes: an app's pages never load it.)
  const sanitizer = wantsSanitizer(options) ? (await import("./cpu-sanitizer.js")).openSanitizer() : null;
  if (typeof sanitizer === "string") return sanitizer;
  return new CpuDevice(options.threads === undefined ? { ...options, threads: await defaultCpuThreads() } : options, sanitizer);
}

/** The default `threads`: GPUC_CPU_THREADS, else the cores of this machine (Node), else 1. */
export async function defaultCpuThreads(): Promise<number> {
  const env = cpuEnvironment().threads;
  if (env !== undefined) return env;
  if (typeof process === "undefined" || !process.versions?.node) return 1;
  try {
    const os = await import("node:os");
    return os.availableParallelism?.() ?? os.cpus?.().length ?? 1;
  } catch { return 1; }
}

/**
 * Threads a kernel runs as JavaScript before its module (one that prefers to run) is compiled: a
 * compile takes about what a few hundred threads of a light kernel run, so a kernel launched
 * once on a few threads (a package's many small ones, each once) never pays it, and a launch of
 * 1,024 threads or more compiles it at once.
 */
const WASM_AFTER_THREADS = 1024;

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
  /** Threads a launch's blocks may spread over (`options.threads`; 1: the device's own thread only). */
  readonly threads: number;
  /** `auto`: on the workers when it pays; `always`: every launch of two blocks or more. */
  readonly parallel: "auto" | "always";
  /** Whether kernels with a WebAssembly form may run as WebAssembly, or always do (`options.wasm`). */
  readonly wasm: boolean | "always";
  /**
   * With `sanitize` (or GPUC_SANITIZE=1): kernels compile with the js target's `sanitize` feature
   * and every launch runs on the calling thread under the sanitizer (cpu-sanitizer.ts), which
   * reports data races, uninitialized shared reads and divergent subgroup barriers as a KernelError
   * after the launch (its results are those of an unsanitized run).
   */
  readonly features?: TargetFeatures;
  private readonly sanitizer: Sanitizer | null;
  /** `threadOrder: "reversed"` (with sanitize): each barrier interval's threads, and the blocks, run last first. */
  readonly threadOrder: "forward" | "reversed";
  /** The device as its launches on the workers and under the sanitizer see it (cpu-launch.ts). */
  private readonly host: CpuHost;
  /** The worker pool, started at the first launch that needs it. */
  private workers: { module: typeof import("./cpu-workers.js"); pool: CpuWorkers } | null = null;
  /** Settles when the last operation queued behind a launch on the workers is done (null: none is queued). */
  private tail: Promise<void> | null = null;

  /** @param sanitizer the sanitizer, where `sanitize` asks for one (device() loads its module only then: wantsSanitizer) */
  constructor(options: DeviceOptions = {}, sanitizer: Sanitizer | null = null) {
    this.state = newState(options.printBufferWords ?? 1 << 18);
    const env = cpuEnvironment();
    const threads = options.threads ?? env.threads ?? 1;
    if (!(Number.isInteger(threads) && threads >= 1 && threads <= 256))
      throw CompileError.single("invalid-option", `device("cpu"): threads must be an integer from 1 to 256, got ${describeValue(threads) === "number" ? threads : describeValue(threads)}`);
    this.threads = workersAvailable ? threads : 1;
    const parallel = options.parallel ?? env.parallel ?? "auto";
    if (parallel !== "auto" && parallel !== "always") throw CompileError.single("invalid-option", `device("cpu"): parallel must be "auto" or "always", got ${describeValue(parallel)}`);
    this.parallel = parallel;
    this.wasm = options.wasm ?? env.wasm ?? true;
    this.print = options.print ?? ((line) => console.log(line));
    const sg = options.subgroupSize ?? 32;
    if (!(typeof sg === "number" && [1, 2, 4, 8, 16, 32].includes(sg)))
      throw CompileError.single("invalid-option", `device("cpu"): subgroupSize must be 1, 2, 4, 8, 16 or 32, got ${describeValue(sg) === "number" ? sg : describeValue(sg)}`);
    this.subgroupSize = sg;
    const sanitize = options.sanitize ?? env.sanitize ?? false;
    if (typeof sanitize !== "boolean") throw CompileError.single("invalid-option", `device("cpu"): sanitize must be true or false, got ${describeValue(sanitize)}`);
    const order = options.threadOrder ?? "forward";
    if (order !== "forward" && order !== "reversed") throw CompileError.single("invalid-option", `device("cpu"): threadOrder must be "forward" or "reversed", got ${describeValue(order)}`);
    if (order === "reversed" && !sanitize) throw CompileError.single("invalid-option", `device("cpu"): threadOrder "reversed" runs under the sanitizer: add sanitize: true`);
    this.threadOrder = order;
    if (sanitize && !sanitizer) throw new InternalCompilerError("a sanitizing CPU device was made without its sanitizer (device() loads it)");
    this.sanitizer = sanitize ? sanitizer : null;
    if (sanitize) this.features = { sanitize: true };
    this.host = { state: this.state, subgroupSize: this.subgroupSize, reversed: order === "reversed", asWasm: (k) => this.asWasm(k), flushPrints: (a) => this.flushPrints(a) };
  }

  array(data: HostArray): CpuArray {
    this.check();
    const elem = arrayElement(data);
    return new CpuArray(this, elem, this.threads > 1 ? sharedCopy(data) : data.slice());
  }

  load(artifact: Artifact, tables?: ReadonlyMap<string, HostArray>): CpuKernel {
    this.check();
    if (artifact.target !== "js") throw new KernelError("launch", `the CPU device runs 'js' artifacts, not '${artifact.target}'`);
    // The relocations: constant tables (and the runtime hooks) are bound as the code's free names.
    // Tables live in SharedArrayBuffers where there are workers (a launch with a cancel uses
    // them on any CPU device), so that the workers see `updateTable`'s writes too.
    const sites = resolveSites(artifact, tables).map((t) => (workersAvailable && !isShared(t) ? sharedCopy(t) : t));
    const divergent = (loc: number, tx: number, ty: number, tz: number, bx: number, by: number, bz: number): never => {
      const l = artifact.runtime.location(loc);
      throw new KernelError("divergence",
        `${l ? `${l.file}:${l.line}:${l.column}: ` : ""}syncthreads() is reached under a condition that differs between the threads of a block ` +
        `(thread (${tx}, ${ty}, ${tz}) of block (${bx}, ${by}, ${bz}) disagrees with an earlier thread) in kernel ${quoteName(artifact.kernel)}`,
        { location: l ? { file: l.file, line: l.line, column: l.column } : null, thread: { x: tx, y: ty, z: tz }, block: { x: bx, y: by, z: bz } });
    };
    const sanitized = artifact.bindings.includes("$san");
    if (sanitized && !this.sanitizer) throw new KernelError("launch", `kernel ${quoteName(artifact.kernel)} was compiled with the sanitize feature: load it on device("cpu", { sanitize: true })`);
    const values = [...sites, TRAP, divergent, this.subgroupSize, false, atomicF32Unshared, ...(sanitized ? [this.sanitizer] : [])];
    // gpuc's JS always compiles; code that does not (read back damaged past every check) is the
    // artifact's fault: an internal error, which a revived kernel heals by compiling afresh.
    let factory: Function;
    try { factory = new Function(...artifact.bindings, `${artifact.code}\nreturn [${artifact.entry}, typeof ${WASM_CONSTANT} === "string" ? ${WASM_CONSTANT} : null, typeof ${SAN_SITES} === "object" ? ${SAN_SITES} : null];`); }
    catch (e) { throw new InternalCompilerError(`the JavaScript of kernel ${quoteName(artifact.kernel)} does not compile: ${(e as Error).message}`); }
    const [run, wasmText, sanSites] = factory(...values) as [CpuKernel["run"], string | null, unknown[] | null];
    // Its WebAssembly form, where it has one that loads (checked there; else the JavaScript runs)
    // and the device would run it: a module that does not prefer to run (its first section,
    // read without compiling it) is never compiled, one that does once the kernel has run
    // WASM_AFTER_THREADS threads; with `wasm: "always"`, here and now.
    const k: CpuKernel = {
      artifact, run, sites, id: nextKernelId++, divergent, inlineRuns: 0, workersRuns: 0, choices: 0,
      wasm: null, wasmRefused: null, wasmText: null, threadsRun: 0, readOnly: artifact.params.map((p) => p.readOnly === true),
      fills: artifact.params.map((p) => p.fills === true), sanSites: sanitized ? sanSites ?? [] : null,
      sanShared: sanitized && (artifact.code as string).includes("$san.sh("),
    };
    if (wasmText !== null && this.wasm === "always") this.compileWasm(k, wasmText);
    else if (wasmText !== null && this.wasm && WasmKernel.prefersText(wasmText)) k.wasmText = wasmText;
    return k;
  }

  /** Kernel `k`'s module from its text, checked and instantiated (its tables as they are now); or why not. */
  private compileWasm(k: CpuKernel, text: string): void {
    k.wasmText = null;
    const w = WasmKernel.load(text, k.sites, { divergent: k.divergent });
    if (w instanceof WasmKernel) k.wasm = w; else k.wasmRefused = w.refused;
  }

  async launch(kernel: LoadedKernel, args: unknown[], grid: Grid): Promise<void> {
    const k = kernel as CpuKernel;
    const shared = k.artifact.dynamicShared ? sharedSizes(k.artifact, args, grid, 0, 256 * 1024 * 1024, "CPU") : [];
    if (this.tail) return this.inOrder(() => this.launchNow(k, args, grid, shared));
    return this.launchNow(k, args, grid, shared);
  }

  /** A launch, once every operation before it is done: on this thread, or on the workers (which it queues). */
  private launchNow(k: CpuKernel, args: unknown[], grid: Grid, shared: number[]): Promise<void> | void {
    this.check();
    if (grid.signal?.aborted) throw cancelledError(k.artifact.kernel, "signal", grid);
    const [gx, gy, gz] = grid.blocks;
    const [dx, dy, dz] = grid.threads;
    for (let i = 0; i < args.length; i++) if (args[i] instanceof CpuArray) args[i] = (args[i] as CpuArray).data;
    if (k.wasmText !== null && (k.threadsRun += gx * gy * gz * dx * dy * dz) >= WASM_AFTER_THREADS) this.compileWasm(k, k.wasmText);
    // (A launch of one block never goes to the workers without a cancel, nor is it measured.)
    if (k.sanSites) return this.sanitizer!.launch(this.host, k, args, grid);
    const several = this.threads > 1 && (gx > 1 || gy > 1 || gz > 1);
    // (Without worker threads, in browsers, a launch with a cancel runs here: only a signal aborted before it starts is seen.)
    if ((workersAvailable && (grid.signal !== undefined || grid.timeoutMs !== undefined)) || (several && this.onWorkers(k, grid))) {
      const run = this.launchOnWorkers(k, args, grid, shared);
      this.setTail(run);
      return run;
    }
    const state = this.state;
    resetState(state);
    // A multi-threaded device measures the launches that could go to the workers next time.
    const measure = several && gx * gy * gz * dx * dy * dz >= 1024;
    const t0 = measure ? performance.now() : 0;
    if (k.wasm && this.asWasm(k)) {
      let ran = false;
      try {
        const sizes = shared.map((length, i) => ({ length, bytes: wasmElemBytes(k.artifact.dynamicShared![i].elem) }));
        ran = k.wasm.launch(state, args, k.readOnly, k.fills, [gx, gy, gz, dx, dy, dz], this.subgroupSize, sizes);
      } catch (e) {
        // A trap ends the launch where the JavaScript's throw does; the exception is in the state.
        if (!(e instanceof WebAssembly.RuntimeError) || state[0] === 0) { this.flushPrints(k.artifact); throw e; }
        ran = true;
      }
      if (ran) {
        if (measure) { k.inlineNs = estimate(k.inlineNs, k.inlineRuns++, ((performance.now() - t0) * 1e6) / (gx * gy * gz * dx * dy * dz)); }
        this.flushPrints(k.artifact);
        const err = decodeException(state, k.artifact.runtime, k.artifact.kernel);
        if (err) throw err;
        return;
      }
      // (Not run, or ended early where an array was not copied in: the JavaScript runs it all.)
      resetState(state);
    }
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
    if (measure) { k.inlineNs = estimate(k.inlineNs, k.inlineRuns++, ((performance.now() - t0) * 1e6) / (gx * gy * gz * dx * dy * dz)); }
    this.flushPrints(k.artifact);
    const err = decodeException(state, k.artifact.runtime, k.artifact.kernel);
    if (err) throw err;
  }

  /**
   * Whether a launch on this thread runs the kernel's WebAssembly (it has a module): where the
   * module prefers to run (a loop, a barrier, or work enough per element), or always
   * (`wasm: "always"`). Not measured against the JavaScript: a module that prefers to run was as
   * fast or faster on every example measured (BENCHMARKS §r), and trying the other way costs a
   * user's launches (each try of a long kernel, seconds); one that does not prefer to run is
   * memory-bound, its arrays' copies into its memory and back costing what it saves.
   */
  private asWasm(k: CpuKernel): boolean {
    return this.wasm === "always" || k.wasm!.prefer;
  }

  /**
   * Run `op` after every launch, copy, read and write queued before it (at once when none is):
   * the device's operations happen in the order they were called, as on a GPU's queue. Only a
   * launch on the workers leaves work behind; everything else on this device is synchronous.
   */
  inOrder<T>(op: () => T | Promise<T>): T | Promise<T> {
    if (!this.tail) return op();
    const p = this.tail.then(op);
    this.setTail(p);
    return p;
  }

  private setTail(p: Promise<unknown>): void {
    const settled = p.then(() => {}, () => {});
    this.tail = settled;
    void settled.then(() => { if (this.tail === settled) this.tail = null; });
  }

  /**
   * Whether a launch without a cancel goes to the workers (`auto`): one of two blocks or more
   * whose run here takes over a millisecond; then the faster way per thread, measured three times
   * here and up to six there first (two where the copies alone take as long as a run here, three
   * where the workers are twice as slow). The 8th choice and every 64th take the other way, to
   * measure it again.
   */
  private onWorkers(k: CpuKernel, grid: Grid): boolean {
    const [gx, gy, gz] = grid.blocks;
    if (gx * gy * gz < 2) return false;
    // (`wasm: "always"` keeps a kernel whose module runs on one thread only on this one.)
    if (this.wasm === "always" && k.wasm && !k.wasm.threads) return false;
    if (this.parallel === "always") return true;
    // (WebAssembly here against the JavaScript there — a module with atomics runs on one thread:
    // two workers of JavaScript lost to it on every such kernel measured, a 4M-byte histogram
    // 34.6 ms there against 15.1 here, and measuring them costs launches at their speed.)
    if (k.wasm && !k.wasm.threads && this.asWasm(k)) return false;
    if (k.inlineRuns < 3) return false;
    const [dx, dy, dz] = grid.threads;
    if (k.inlineNs! * gx * gy * gz * dx * dy * dz < 1e6) return false;
    // (More launches there than here while they may still win: a worker's first launches of a
    // kernel compile it, and its WebAssembly runs in V8's baseline tier until the engine has
    // optimized it, several launches — up to six. Two where the copies into shared memory and
    // back alone took as long as a run here (a memory-bound kernel: saxpy on host arrays spent
    // 135–280 ms a launch there); three where the workers are twice as slow after them.)
    const memoryBound = k.copyNs! >= k.inlineNs!;
    if (k.workersRuns < 2 || (!memoryBound && (k.workersRuns < 3 || (k.workersRuns < 6 && k.workersNs! < 2 * k.inlineNs!)))) return true;
    const faster = k.workersNs! < k.inlineNs!;
    const c = ++k.choices;
    return c === 8 || c % 64 === 0 ? !faster : faster;
  }

  /**
   * A launch on the worker pool (cpu-workers.ts, launchOnWorkers), started at its first use: the
   * pool's module, and the launch's code with it, loads then (a page, one thread, never loads it).
   * Once it is there, the launch copies its arguments before it returns, as a launch here reads
   * them: what the host writes after the call is not the launch's.
   */
  private launchOnWorkers(k: CpuKernel, args: unknown[], grid: Grid, shared: number[]): Promise<void> {
    if (this.workers) return this.workers.module.launchOnWorkers(this.workers.pool, this.host, k, args, grid, shared);
    return import("./cpu-workers.js").then((module) => {
      this.workers ??= { module, pool: new module.CpuWorkers(this.threads, this.state.length, this.subgroupSize) };
      return module.launchOnWorkers(this.workers.pool, this.host, k, args, grid, shared);
    });
  }

  private flushPrints(artifact: Artifact): void {
    if (this.state[27] === 0 && this.state[28] === 0) return;
    for (const line of decodePrints(this.state, artifact.runtime)) this.print(line);
  }

  updateTable(kernel: LoadedKernel, name: string, values: HostArray): void {
    this.check();
    const k = kernel as CpuKernel;
    const index = tableSite(k, name, values);
    const site = k.sites[index];
    // Launches before it may still run on the workers, which read this very table: it changes
    // after them, in order (with a copy: the caller's array may change meanwhile).
    const set = (v: HostArray) => { site.set(v as never); k.wasm?.updateTable(index, site); };
    if (this.tail) { const copy = values.slice(); void this.inOrder(() => set(copy)); }
    else set(values);
  }

  async copy(dst: DeviceArray, src: DeviceArray, range?: CopyRange): Promise<void> {
    const { srcOffset, dstOffset, length } = copyExtent(this, dst, src, range);
    // TypedArray.set copies overlapping ranges of one buffer as if through a temporary.
    return this.inOrder(() => (dst as CpuArray).data.set((src as CpuArray).data.subarray(srcOffset, srcOffset + length), dstOffset));
  }

  close(): void {
    this.closed = true;
    this.workers?.pool.terminate();
    this.workers = null;
  }

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
