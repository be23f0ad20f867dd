// The OpenCL device: runs OpenCL C artifacts on any OpenCL platform (GPU drivers of AMD, Intel,
// NVIDIA; PoCL on CPUs) through the ICD loader (libOpenCL.so.1), called with koffi. Node only.
//
// Per device: a context and an in-order command queue on one device of one platform, and one
// kernel-state buffer. Per load: the program built from the artifact's code with its build options
// (a build that fails is a CompileError with the driver's log, located at the kernel source line
// the failing OpenCL C line came from), the kernel object, and the constant tables uploaded
// (relocation strategy `table`: one buffer argument each). Per launch: arguments set as the
// layout lists them, host typed arrays copied in and back, device arrays stay; the state's header
// is cleared, read back and decoded exactly as on the other devices (the print area only when
// something was printed).

import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";
import { CompileError, InternalCompilerError, KernelError, quoteName } from "../errors.js";
import { elemBytes, wordBytes } from "../ir/types.js";
import { STATE } from "../runtime/state.js";
import { reportKernelState } from "../runtime/host.js";
import type { Artifact, TargetFeatures } from "../targets/target.js";
import { openclLayout, type OpenCLArg, type OpenCLLayout } from "../targets/opencl/layout.js";
import { spirvLayout } from "../targets/spirv/layout.js";
import { llvmLayout } from "../targets/llvm/layout.js";
import { resolveSites, verifyManifest } from "../reloc/manifest.js";
import { ARRAY_CONSTRUCTOR, hostArrayElement, type ElementType, type HostArray } from "../typed-arrays.js";
import { DeviceArray, type CopyRange, type Device, type DeviceOptions, type Grid, type LoadedKernel } from "./device.js";
import { arrayElement, copyExtent, sharedSizes, tableSite } from "./common.js";
import { debugOutput } from "./native-stderr.js";
import { BuiltSizes, PoCLProber, programKey, type ProbeArg, type ProbeVerdict } from "./opencl-probe.js";

const CTOR = ARRAY_CONSTRUCTOR;

// ---- the OpenCL API, bound once per process ----------------------------------------------------
//
// Handles (cl_platform_id, cl_context, cl_mem, …) are pointers; they are passed as 64-bit
// integers (BigInt), which the x86-64 and AArch64 calling conventions pass as they pass pointers.

type Fn = (...args: unknown[]) => unknown;
interface OpenCL {
  koffi: typeof import("koffi");
  clGetPlatformIDs: Fn; clGetPlatformInfo: Fn; clGetDeviceIDs: Fn; clGetDeviceInfo: Fn;
  clCreateContext: Fn; clCreateCommandQueue: Fn; clReleaseContext: Fn; clReleaseCommandQueue: Fn;
  clCreateBuffer: Fn; clReleaseMemObject: Fn; clEnqueueWriteBuffer: Fn; clEnqueueReadBuffer: Fn; clEnqueueCopyBuffer: Fn;
  clCreateProgramWithSource: Fn; clCreateProgramWithIL: () => Fn; clCreateProgramWithBinary: Fn; clBuildProgram: Fn; clGetProgramBuildInfo: Fn; clReleaseProgram: Fn;
  clCreateKernel: Fn; clReleaseKernel: Fn; clSetKernelArg: Fn; clEnqueueNDRangeKernel: Fn; clFinish: Fn;
}

let api: Promise<OpenCL | string> | null = null;

const libraryPath = (): string => process.env.GPUC_LIBOPENCL ?? "libOpenCL.so.1";

/** The OpenCL API through the ICD loader, or why it cannot be used here. */
function loadOpenCL(): Promise<OpenCL | string> {
  api ??= (async () => {
    let koffi: typeof import("koffi");
    try { const m = (await import("koffi")) as unknown as { default?: typeof import("koffi") }; koffi = m.default ?? (m as unknown as typeof import("koffi")); } catch (e) { return `the koffi FFI package cannot be loaded: ${(e as Error).message}`; }
    let lib: ReturnType<typeof koffi.load>;
    try { lib = koffi.load(libraryPath()); } catch { return "no OpenCL ICD loader here (libOpenCL.so.1 not found: install ocl-icd-libopencl1 and a driver, e.g. pocl-opencl-icd)"; }
    const f = (proto: string) => lib.func(proto) as unknown as Fn;
    return {
      koffi,
      clGetPlatformIDs: f("int clGetPlatformIDs(uint32_t n, _Out_ uint64_t *platforms, _Out_ uint32_t *count)"),
      clGetPlatformInfo: f("int clGetPlatformInfo(uint64_t platform, uint32_t param, size_t size, _Out_ uint8_t *value, _Out_ size_t *ret)"),
      clGetDeviceIDs: f("int clGetDeviceIDs(uint64_t platform, uint64_t type, uint32_t n, _Out_ uint64_t *devices, _Out_ uint32_t *count)"),
      clGetDeviceInfo: f("int clGetDeviceInfo(uint64_t device, uint32_t param, size_t size, _Out_ uint8_t *value, _Out_ size_t *ret)"),
      clCreateContext: f("uint64_t clCreateContext(void *props, uint32_t n, uint64_t *devices, void *notify, void *user, _Out_ int *err)"),
      clCreateCommandQueue: f("uint64_t clCreateCommandQueue(uint64_t context, uint64_t device, uint64_t props, _Out_ int *err)"),
      clReleaseContext: f("int clReleaseContext(uint64_t context)"),
      clReleaseCommandQueue: f("int clReleaseCommandQueue(uint64_t queue)"),
      clCreateBuffer: f("uint64_t clCreateBuffer(uint64_t context, uint64_t flags, size_t size, void *host, _Out_ int *err)"),
      clReleaseMemObject: f("int clReleaseMemObject(uint64_t mem)"),
      clEnqueueWriteBuffer: f("int clEnqueueWriteBuffer(uint64_t queue, uint64_t mem, uint32_t blocking, size_t offset, size_t size, const void *data, uint32_t n, void *wait, void *event)"),
      clEnqueueReadBuffer: f("int clEnqueueReadBuffer(uint64_t queue, uint64_t mem, uint32_t blocking, size_t offset, size_t size, _Out_ void *data, uint32_t n, void *wait, void *event)"),
      clEnqueueCopyBuffer: f("int clEnqueueCopyBuffer(uint64_t queue, uint64_t src, uint64_t dst, size_t srcOffset, size_t dstOffset, size_t size, uint32_t n, void *wait, void *event)"),
      clCreateProgramWithSource: f("uint64_t clCreateProgramWithSource(uint64_t context, uint32_t count, const char **strings, const size_t *lengths, _Out_ int *err)"),
      // OpenCL 2.1: bound when first used (an older ICD loader has no such symbol).
      clCreateProgramWithIL: () => f("uint64_t clCreateProgramWithIL(uint64_t context, const uint8_t *il, size_t length, _Out_ int *err)"),
      clCreateProgramWithBinary: f("uint64_t clCreateProgramWithBinary(uint64_t context, uint32_t n, uint64_t *devices, const size_t *lengths, const uint8_t **binaries, _Out_ int *status, _Out_ int *err)"),
      clBuildProgram: f("int clBuildProgram(uint64_t program, uint32_t n, uint64_t *devices, const char *options, void *notify, void *user)"),
      clGetProgramBuildInfo: f("int clGetProgramBuildInfo(uint64_t program, uint64_t device, uint32_t param, size_t size, _Out_ uint8_t *value, _Out_ size_t *ret)"),
      clReleaseProgram: f("int clReleaseProgram(uint64_t program)"),
      clCreateKernel: f("uint64_t clCreateKernel(uint64_t program, const char *name, _Out_ int *err)"),
      clReleaseKernel: f("int clReleaseKernel(uint64_t kernel)"),
      clSetKernelArg: f("int clSetKernelArg(uint64_t kernel, uint32_t index, size_t size, const void *value)"),
      clEnqueueNDRangeKernel: f("int clEnqueueNDRangeKernel(uint64_t queue, uint64_t kernel, uint32_t dims, const size_t *offset, const size_t *global, const size_t *local, uint32_t n, void *wait, void *event)"),
      clFinish: f("int clFinish(uint64_t queue)"),
    };
  })();
  return api;
}

const CL_PLATFORM_VERSION = 0x0901, CL_PLATFORM_NAME = 0x0902;
const CL_DEVICE_TYPE_ALL = 0xffffffffn;
const CL_DEVICE_MAX_WORK_GROUP_SIZE = 0x1004, CL_DEVICE_LOCAL_MEM_SIZE = 0x1023, CL_DEVICE_NAME = 0x102b, CL_DEVICE_EXTENSIONS = 0x1030;
const CL_DEVICE_IL_VERSION = 0x105b;
const CL_DEVICE_SINGLE_FP_CONFIG = 0x101b, CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT = 1n << 7n;
const CL_MEM_READ_WRITE = 1n;
const CL_PROGRAM_BUILD_LOG = 0x1183;
const CL_BUILD_PROGRAM_FAILURE = -11;

/** OpenCL's error codes by name (the common ones), for messages. */
const ERRORS: Record<number, string> = {
  [-1]: "CL_DEVICE_NOT_FOUND", [-2]: "CL_DEVICE_NOT_AVAILABLE", [-4]: "CL_MEM_OBJECT_ALLOCATION_FAILURE", [-5]: "CL_OUT_OF_RESOURCES",
  [-6]: "CL_OUT_OF_HOST_MEMORY", [-11]: "CL_BUILD_PROGRAM_FAILURE", [-30]: "CL_INVALID_VALUE", [-33]: "CL_INVALID_DEVICE",
  [-34]: "CL_INVALID_CONTEXT", [-36]: "CL_INVALID_COMMAND_QUEUE", [-38]: "CL_INVALID_MEM_OBJECT", [-44]: "CL_INVALID_PROGRAM",
  [-46]: "CL_INVALID_KERNEL_NAME", [-48]: "CL_INVALID_KERNEL", [-49]: "CL_INVALID_ARG_INDEX", [-50]: "CL_INVALID_ARG_VALUE",
  [-51]: "CL_INVALID_ARG_SIZE", [-52]: "CL_INVALID_KERNEL_ARGS", [-54]: "CL_INVALID_WORK_GROUP_SIZE", [-55]: "CL_INVALID_WORK_ITEM_SIZE",
  [-61]: "CL_INVALID_BUFFER_SIZE", [-1001]: "CL_PLATFORM_NOT_FOUND_KHR",
};
const describeError = (code: number): string => `${ERRORS[code] ?? "OpenCL error"} (${code})`;

const big = (v: unknown): bigint => (typeof v === "bigint" ? v : BigInt(v as number));

function check(rc: unknown, what: string): void {
  if (rc !== 0) throw new KernelError("launch", `${what} failed: ${describeError(rc as number)}`);
}

/** A string-valued info query (clGetPlatformInfo, clGetDeviceInfo). */
function infoText(get: Fn, handle: bigint, param: number): string {
  const size = [0];
  if (get(handle, param, 0, null, size) !== 0) return "";
  const buf = new Uint8Array(Math.max(1, Number(size[0])));
  if (get(handle, param, buf.length, buf, size) !== 0) return "";
  return cString(buf);
}

/** A number-valued info query (cl_ulong, size_t, cl_bitfield: 8 bytes here). */
function infoNumber(get: Fn, handle: bigint, param: number): bigint {
  const buf = new Uint8Array(8);
  if (get(handle, param, 8, buf, [0]) !== 0) return 0n;
  return new BigUint64Array(buf.buffer)[0];
}

/** Which platform or device an option picks: an index, or the first whose name contains the text (case-insensitive). */
function pick<T extends { name: string }>(list: T[], want: number | string | undefined, what: string): T | string {
  if (want === undefined) return list[0];
  if (typeof want === "number") return list[want] ?? `there is no OpenCL ${what} ${want} (found ${list.length}: ${list.map((x, i) => `${i} '${x.name}'`).join(", ")})`;
  const hit = list.find((x) => x.name.toLowerCase().includes(want.toLowerCase()));
  return hit ?? `no OpenCL ${what} is named like '${want}' (found ${list.map((x, i) => `${i} '${x.name}'`).join(", ")})`;
}

// ---- arrays and loaded kernels ---------------------------------------------------------------

export class OpenCLArray extends DeviceArray {
  /** `mem`: the buffer; `offset`: the element where this array starts in it (a view's is inside its base's). */
  constructor(private readonly dev: OpenCLDevice, elem: ElementType, length: number, readonly mem: bigint, readonly offset: number) { super(dev, elem, length); }
  protected view(offset: number, length: number): OpenCLArray { return new OpenCLArray(this.dev, this.elem, length, this.mem, this.offset + offset); }
  protected async readData(): Promise<HostArray> {
    const out = new CTOR[this.elem](this.length);
    this.dev.copyOut(out, this.mem, this.offset * elemBytes(this.elem));
    return out;
  }
  protected async writeData(data: HostArray): Promise<void> {
    if (hostArrayElement(data) !== this.elem || data.length !== this.length)
      throw new KernelError("launch", `write() needs a ${CTOR[this.elem].name} of length ${this.length}`);
    this.dev.copyIn(this.mem, data, this.offset * elemBytes(this.elem));
  }
}

interface OpenCLKernel extends LoadedKernel {
  kernel: bigint;
  layout: OpenCLLayout;
  /** The options its program was built with. */
  options: string;
  /** Its program's name for the probe's records (opencl-probe.ts, programKey), where it is probed. */
  program: string | null;
  /** Device copies of the constant tables (relocation `table`), alive while the kernel is loaded. */
  tables: bigint[];
  /** SPIR: the bitcode its program was built from (the probe's child builds the same). */
  binary: Uint8Array | null;
}

/**
 * Options of device("opencl"): which platform and which of its devices (an index, or a part of the
 * name); `spirv`: run the spirv target's SPIR-V (clCreateProgramWithIL) instead of OpenCL C, on a
 * driver that takes IL; `llvm`: run the llvm target's SPIR (its LLVM IR for spir64, assembled
 * for the driver's LLVM and given as a binary) on a driver that takes SPIR (cl_khr_spir).
 */
export interface OpenCLOptions extends DeviceOptions {
  platform?: number | string;
  device?: number | string;
  spirv?: boolean;
  llvm?: boolean;
}

/** Open a device (devices/index.ts), or say why it cannot be opened here. */
export function openDevice(options: OpenCLOptions): Promise<OpenCLDevice | string> {
  return OpenCLDevice.open(options);
}

export class OpenCLDevice implements Device {
  readonly kind = "opencl";
  /** "opencl" (OpenCL C, built from source), "spirv" where opened with `spirv: true`, "llvm" (SPIR) with `llvm: true`. */
  readonly target: "opencl" | "spirv" | "llvm";
  /** The llvm target's code for SPIR (its architecture spir64). */
  readonly features?: TargetFeatures;
  /** The llvm-as of the driver's LLVM version, which makes SPIR bitcode of the llvm target's text (`llvm: true`). */
  private readonly assembler: string | null;
  readonly name: string;
  /** The platform's name and version ("Portable Computing Language", "OpenCL 3.0 PoCL 3.1…"). */
  readonly platform: string;
  /** PoCL (whose 3.1 miscompiles some kernels with conditional barriers: OpenCLLayout.conditionalBarriers). */
  private readonly isPoCL: boolean;
  /** Static __local memory per work-group, in bytes. */
  readonly localBytes: number;
  /** Whether the device rounds f32 division and square root correctly when asked (otherwise only fastMath code is built). */
  readonly correctlyRounded: boolean;
  readonly hasF64: boolean;
  closed = false;
  private readonly stateWords: number;
  private readonly state: bigint;
  private readonly print: (line: string) => void;
  private readonly loaded = new Set<OpenCLKernel>();
  private readonly buffers = new Set<bigint>();
  /** Programs built on this device, by build options and code (a kernel loaded twice is built once). */
  private readonly programs = new Map<string, bigint>();
  /** SPIR bitcode assembled on this device, by the llvm code's text. */
  private readonly bitcode = new Map<string, Uint8Array>();
  private readonly maxThreads: number;
  /** PoCL's kernel compiler run in a child process first, and what it built before (null: not PoCL, or GPUC_OPENCL_PROBE=0). */
  private readonly prober: PoCLProber | null;
  private readonly built: BuiltSizes | null;

  private constructor(private readonly cl: OpenCL, private readonly context: bigint, private readonly queue: bigint, private readonly deviceId: bigint,
    /** The platform's and the device's index (the probe's child opens them again) and the driver's names and versions. */
    private readonly where: { platform: number; device: number; driver: string }, platform: string, name: string, options: OpenCLOptions, assembler: string | null) {
    this.target = options.spirv ? "spirv" : options.llvm ? "llvm" : "opencl";
    if (this.target === "llvm") this.features = { arch: "spir64" };
    this.assembler = assembler;
    this.platform = platform;
    this.name = `OpenCL (${name}; ${platform})`;
    this.isPoCL = /Portable Computing Language|\bPoCL\b/i.test(platform);
    this.localBytes = Number(infoNumber(cl.clGetDeviceInfo, deviceId, CL_DEVICE_LOCAL_MEM_SIZE));
    this.maxThreads = Number(infoNumber(cl.clGetDeviceInfo, deviceId, CL_DEVICE_MAX_WORK_GROUP_SIZE));
    this.correctlyRounded = (infoNumber(cl.clGetDeviceInfo, deviceId, CL_DEVICE_SINGLE_FP_CONFIG) & CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT) !== 0n;
    this.hasF64 = infoText(cl.clGetDeviceInfo, deviceId, CL_DEVICE_EXTENSIONS).split(/\s+/).includes("cl_khr_fp64");
    this.print = options.print ?? ((line) => console.log(line));
    this.stateWords = STATE.PRINT_BASE + (options.printBufferWords ?? 1 << 16);
    this.state = this.alloc(this.stateWords * 4);
    this.prober = this.isPoCL && this.target !== "spirv" && process.env.GPUC_OPENCL_PROBE !== "0"
      ? new PoCLProber({ library: libraryPath(), koffi: koffiURL(), platform: where.platform, device: where.device }, debugOutput()) : null;
    this.built = this.prober ? BuiltSizes.open() : null;
  }

  /** Open a device of an OpenCL platform (the first of the first, unless options say), or say why it cannot be opened here. */
  static async open(options: OpenCLOptions = {}): Promise<OpenCLDevice | string> {
    const cl = await loadOpenCL();
    if (typeof cl === "string") return cl;
    const count = [0];
    let rc = cl.clGetPlatformIDs(0, null, count) as number;
    if (rc !== 0 || count[0] < 1) return rc !== 0 && rc !== -1001 ? `the OpenCL ICD loader failed: ${describeError(rc)}` : "no OpenCL platform is installed (the ICD loader found no driver: install one, e.g. pocl-opencl-icd)";
    const ids = new BigUint64Array(count[0]);
    check(cl.clGetPlatformIDs(ids.length, ids, count), "clGetPlatformIDs");
    const platforms = Array.from(ids, (id) => ({ id, name: infoText(cl.clGetPlatformInfo, id, CL_PLATFORM_NAME), version: infoText(cl.clGetPlatformInfo, id, CL_PLATFORM_VERSION) }));
    const platform = pick(platforms, options.platform, "platform");
    if (typeof platform === "string") return platform;
    rc = cl.clGetDeviceIDs(platform.id, CL_DEVICE_TYPE_ALL, 0, null, count) as number;
    if (rc !== 0 || count[0] < 1) return `the OpenCL platform '${platform.name}' has no device${rc !== 0 ? ` (${describeError(rc)})` : ""}`;
    const devIds = new BigUint64Array(count[0]);
    check(cl.clGetDeviceIDs(platform.id, CL_DEVICE_TYPE_ALL, devIds.length, devIds, count), "clGetDeviceIDs");
    const devices = Array.from(devIds, (id) => ({ id, name: infoText(cl.clGetDeviceInfo, id, CL_DEVICE_NAME) }));
    const dev = pick(devices, options.device, "device");
    if (typeof dev === "string") return dev;
    if (options.spirv && !infoText(cl.clGetDeviceInfo, dev.id, CL_DEVICE_IL_VERSION))
      return `the OpenCL device '${dev.name}' takes no IL (its CL_DEVICE_IL_VERSION is empty), so it cannot run SPIR-V; open it without 'spirv' to run OpenCL C`;
    let assembler: string | null = null;
    if (options.llvm) {
      if (!infoText(cl.clGetDeviceInfo, dev.id, CL_DEVICE_EXTENSIONS).split(/\s+/).includes("cl_khr_spir"))
        return `the OpenCL device '${dev.name}' takes no SPIR (cl_khr_spir is not among its extensions), so it cannot run the llvm target's code; open it without 'llvm' to run OpenCL C`;
      const found = spirAssembler(platform.version);
      if (typeof found !== "string" || found.startsWith("no ")) return `the OpenCL device '${dev.name}' cannot run the llvm target's code: ${found}`;
      assembler = found;
    }
    const err = [0];
    const context = big(cl.clCreateContext(null, 1, new BigUint64Array([dev.id]), null, null, err));
    if (err[0] !== 0) return `the OpenCL device '${dev.name}' could not be opened: clCreateContext failed: ${describeError(err[0])}`;
    const queue = big(cl.clCreateCommandQueue(context, dev.id, 0n, err));
    if (err[0] !== 0) { cl.clReleaseContext(context); return `the OpenCL device '${dev.name}' could not be opened: clCreateCommandQueue failed: ${describeError(err[0])}`; }
    // The version up to the build details ("OpenCL 3.0 PoCL 3.1+debian  Linux, None+Asserts, …").
    return new OpenCLDevice(cl, context, queue, dev.id, { platform: platforms.indexOf(platform), device: devices.indexOf(dev), driver: `${platform.name}\n${platform.version}\n${dev.name}` }, `${platform.name}, ${platform.version.split(/\s{2,}|,/)[0]}`, dev.name, options, assembler);
  }

  array(data: HostArray): OpenCLArray {
    this.check();
    const elem = arrayElement(data);
    // Whole 32-bit words: atomics on 8- and 16-bit elements work on the word that holds them.
    const mem = this.alloc(Math.ceil(data.byteLength / 4) * 4);
    this.copyIn(mem, data, 0);
    return new OpenCLArray(this, elem, data.length, mem, 0);
  }

  load(artifact: Artifact, sessionTables?: ReadonlyMap<string, HostArray>): OpenCLKernel {
    this.check();
    const layout = this.target === "spirv" ? spirvBinding(artifact) : this.target === "llvm" ? llvmBinding(artifact) : openclLayout(artifact);
    if (!layout) throw new KernelError("launch", `this OpenCL device runs '${this.target}' artifacts, not '${artifact.target}'`);
    const resolved = layout.relocation === "bake" ? [] : resolveSites(artifact, sessionTables);
    if (layout.relocation === "bake") verifyManifest(artifact);
    const options = this.buildOptions(layout);
    // Its first launches will be probed (see probe()): unless an earlier process recorded a build
    // of it, the child starts now, while this process builds.
    const probed = this.prober && hasBarriers(artifact) ? programKey(this.where.driver, options, artifact.entry, artifact.code as string) : null;
    if (probed && !this.built?.sizes(probed).size) this.prober?.warm();
    const program = this.build(artifact, layout, options);
    const cl = this.cl, err = [0];
    const kernel = big(cl.clCreateKernel(program, artifact.entry, err));
    if (err[0] !== 0) throw new InternalCompilerError(`the OpenCL program of kernel ${quoteName(artifact.kernel)} has no kernel '${artifact.entry}': ${describeError(err[0])}`);
    // Relocations: each constant table is uploaded (a zero-length one gets a minimal buffer) and
    // passed as its argument at every launch.
    const tables = resolved.map((value) => {
      const mem = this.alloc(Math.max(value.byteLength, 4));
      this.copyIn(mem, value, 0);
      return mem;
    });
    const k: OpenCLKernel = { artifact, kernel, layout, options, program: probed, tables, tablesInCode: layout.relocation === "bake" && artifact.manifest.sites.length > 0, binary: this.bitcode.get(artifact.code as string) ?? null };
    this.loaded.add(k);
    return k;
  }

  /**
   * The artifact's program, built for this device (once per code and options). A failed build is
   * a CompileError carrying the driver's log, located where the first line the log names came from.
   */
  private build(artifact: Artifact, layout: OpenCLLayout, options: string): bigint {
    const code = artifact.code;
    const key = `${options}\0${typeof code === "string" ? code : Array.from(code).join(",")}`;
    const known = this.programs.get(key);
    if (known !== undefined) return known;
    const cl = this.cl, err = [0];
    let program: bigint;
    if (this.target === "llvm") {
      // SPIR: the text assembled into bitcode of the driver's LLVM version, given as a binary.
      let bitcode = this.bitcode.get(code as string);
      if (!bitcode) this.bitcode.set(code as string, (bitcode = assembleSPIR(this.assembler!, code as string, artifact)));
      program = big(cl.clCreateProgramWithBinary(this.context, 1, new BigUint64Array([this.deviceId]), new BigUint64Array([BigInt(bitcode.byteLength)]), [bitcode], [0], err));
      check(err[0], "clCreateProgramWithBinary");
    } else {
      program = typeof code === "string"
        ? big(cl.clCreateProgramWithSource(this.context, 1, [code], null, err))
        : big(cl.clCreateProgramWithIL()(this.context, code, code.byteLength, err));
      check(err[0], typeof code === "string" ? "clCreateProgramWithSource" : "clCreateProgramWithIL");
    }
    const rc = cl.clBuildProgram(program, 1, new BigUint64Array([this.deviceId]), options, null, null) as number;
    if (rc !== 0) {
      const size = [0];
      cl.clGetProgramBuildInfo(program, this.deviceId, CL_PROGRAM_BUILD_LOG, 0, null, size);
      const buf = new Uint8Array(Math.max(1, Number(size[0])));
      cl.clGetProgramBuildInfo(program, this.deviceId, CL_PROGRAM_BUILD_LOG, buf.length, buf, size);
      cl.clReleaseProgram(program);
      throw buildError(artifact, layout, rc, cString(buf), this.name);
    }
    this.programs.set(key, program);
    return program;
  }

  /** The options for clBuildProgram. */
  private buildOptions(layout: OpenCLLayout): string {
    // A device that cannot round f32 division and square root correctly builds without the
    // option (the driver would reject it); its results are then as fastMath's.
    // (-w: the code is gpuc's; a warning about it would only be noise on the user's stderr.)
    // (PoCL's optimizer (3.1) miscompiles some kernels with a barrier inside an `if`: see
    // OpenCLLayout.conditionalBarriers. Unoptimized they are slower, not wrong.)
    const unoptimized = layout.conditionalBarriers && this.isPoCL ? " -cl-opt-disable" : "";
    // (SPIR's options say what the binary is; OpenCL C's ask for correctly rounded division and
    // square root, which a module's LLVM IR already has.)
    const given = this.target === "llvm" || this.correctlyRounded ? layout.buildOptions : "";
    return `${given} -w${unoptimized}`.trim();
  }

  async launch(kernel: LoadedKernel, args: unknown[], grid: Grid): Promise<void> {
    this.check();
    const k = kernel as OpenCLKernel;
    const cl = this.cl;
    const sizes = sharedSizes(k.artifact, args, grid, k.layout.localBytes, this.localBytes, "OpenCL");
    const threads = grid.threads[0] * grid.threads[1] * grid.threads[2];
    if (threads > this.maxThreads) throw new KernelError("launch-config", `${threads} threads per block exceeds the OpenCL device's limit of ${this.maxThreads}`);
    if (this.prober && k.program) {
      await this.probe(this.prober, k.program, k, grid, sizes);
      this.check();
    }
    this.copyIn(this.state, new Int32Array(STATE.PRINT_BASE), 0);
    const temps: { mem: bigint; host: HostArray }[] = [];
    const set = (i: number, size: number, value: unknown, what: string) => check(cl.clSetKernelArg(k.kernel, i, size, value), `clSetKernelArg(${what})`);
    try {
      k.layout.args.forEach((a, i) => {
        const v = args[a.index];
        switch (a.role) {
          case "value":
            if (a.type === "float") set(i, 4, new Float32Array([v as number]), a.name);
            else if (a.type === "double") set(i, 8, new Float64Array([v as number]), a.name);
            else if (a.type === "uint") set(i, 4, new Uint32Array([(v as number) >>> 0]), a.name);
            else set(i, 4, new Int32Array([typeof v === "boolean" ? Number(v) : (v as number) | 0]), a.name);
            break;
          case "buffer": {
            let mem: bigint;
            if (v instanceof OpenCLArray) mem = v.mem;
            else {
              // A host array passed to several parameters is one device copy (they alias, as on the CPU).
              const host = v as HostArray;
              const same = temps.find((t) => t.host === host);
              if (same) mem = same.mem;
              else {
                mem = this.alloc(Math.max(Math.ceil(host.byteLength / 4) * 4, 4));
                this.copyIn(mem, host, 0);
                temps.push({ mem, host });
              }
            }
            set(i, 8, new BigUint64Array([mem]), a.name);
            break;
          }
          case "offset": set(i, 4, new Uint32Array([v instanceof OpenCLArray ? v.offset : 0]), a.name); break;
          case "length": set(i, 4, new Int32Array([(v as { length: number }).length]), a.name); break;
          case "state": set(i, 8, new BigUint64Array([this.state]), a.name); break;
          case "state-length": set(i, 4, new Int32Array([this.stateWords]), a.name); break;
          case "table": set(i, 8, new BigUint64Array([k.tables[a.index]]), a.name); break;
          case "local": set(i, localArgBytes(k, a.index, sizes), null, a.name); break;
          case "local-length": set(i, 4, new Int32Array([sizes[a.index]]), a.name); break;
        }
      });
      const global = new BigUint64Array(grid.blocks.map((b, i) => BigInt(b * grid.threads[i])));
      const local = new BigUint64Array(grid.threads.map(BigInt));
      const rc = cl.clEnqueueNDRangeKernel(this.queue, k.kernel, 3, null, global, local, 0, null, null) as number;
      if (rc !== 0) throw new KernelError("launch", `the OpenCL driver rejected the launch of kernel ${quoteName(k.artifact.kernel)}: ${describeError(rc)}`);
      const done = cl.clFinish(this.queue) as number;
      if (done !== 0) throw new KernelError("launch", `kernel ${quoteName(k.artifact.kernel)} failed on the OpenCL device: ${describeError(done)}`);
      for (const t of temps) this.copyOut(t.host, t.mem, 0);
    } finally {
      for (const t of temps) this.free(t.mem);
    }
    reportKernelState((words) => { const out = new Int32Array(words); this.copyOut(out, this.state, 0); return out; }, this.stateWords, k.artifact.runtime, k.artifact.kernel, this.print);
  }

  /**
   * Before the first enqueue of a kernel with barriers for a block size, on PoCL: PoCL's kernel
   * compiler run on it in a child process (opencl-probe.ts), once per program and block size in
   * this process, and not at all where an earlier process recorded that PoCL built it
   * (BuiltSizes). A build that would abort becomes this launch's KernelError; the process, and its
   * current directory (PoCL's dumps), are left alone. GPUC_OPENCL_PROBE=0 turns the probe off (a
   * first launch is then cheaper, and PoCL may abort the process).
   */
  private async probe(prober: PoCLProber, program: string, k: OpenCLKernel, grid: Grid, sizes: number[]): Promise<void> {
    const size = grid.threads.join("x"), key = `${program} ${size}`;
    let verdict = verdicts.get(key);
    if (!verdict && this.built?.sizes(program).has(size)) return;
    if (!verdict) {
      const args: ProbeArg[] = k.layout.args.map((a) => (a.type === "pointer" ? { kind: "buffer", size: 8 }
        : a.type === "local" ? { kind: "local", size: localArgBytes(k, a.index, sizes) } : { kind: "value", size: a.type === "double" ? 8 : 4 }));
      verdict = prober.run({
        code: k.artifact.code as string, ...(k.binary ? { binary: Buffer.from(k.binary).toString("base64") } : {}), options: k.options, entry: k.artifact.entry, args,
        local: [...grid.threads], global: grid.blocks.map((b, i) => b * grid.threads[i]),
      });
      verdicts.set(key, verdict);
      const built = this.built;
      if (built) void verdict.then((v) => { if (v.built) built.add(program, size); });
    }
    const v = await verdict;
    if (v.built !== false) return;
    throw new KernelError("launch", `PoCL's kernel compiler failed on kernel ${quoteName(k.artifact.kernel)} (blocks of ${grid.threads.join("×")} threads): ${v.reason} ` +
      `gpuc built it in a child process first (which ${v.end}), so this process goes on; the kernel cannot run on ${this.name} with this block size` +
      (v.dumps ? ` (PoCL's dump of its control flow is in ${v.dumps})` : ""));
  }

  // ---- memory ---------------------------------------------------------------------------------

  private alloc(bytes: number): bigint {
    const err = [0];
    const mem = big(this.cl.clCreateBuffer(this.context, CL_MEM_READ_WRITE, Math.max(bytes, 4), null, err));
    if (err[0] !== 0) throw new KernelError("launch", `cannot allocate ${bytes} bytes on the OpenCL device: ${describeError(err[0])}`);
    this.buffers.add(mem);
    return mem;
  }

  private free(mem: bigint): void {
    if (this.buffers.delete(mem)) this.cl.clReleaseMemObject(mem);
  }

  /** Write a host array into a buffer at a byte offset (blocking). */
  copyIn(mem: bigint, src: HostArray, byteOffset: number): void {
    if (src.byteLength) check(this.cl.clEnqueueWriteBuffer(this.queue, mem, 1, byteOffset, src.byteLength, src, 0, null, null), "clEnqueueWriteBuffer");
  }

  /** Read a buffer from a byte offset into a host array (blocking). */
  copyOut(dst: HostArray, mem: bigint, byteOffset: number): void {
    if (dst.byteLength) check(this.cl.clEnqueueReadBuffer(this.queue, mem, 1, byteOffset, dst.byteLength, dst, 0, null, null), "clEnqueueReadBuffer");
  }

  updateTable(kernel: LoadedKernel, name: string, values: HostArray): void {
    this.check();
    const k = kernel as OpenCLKernel;
    const i = tableSite(k, name, values);
    if (!values.byteLength) return;
    // `table`: the kernel reads the buffer. `bake`: the data is in the program's code, which
    // OpenCL cannot change after the build.
    if (k.layout.relocation === "bake") throw new KernelError("launch", `setTable(): kernel ${quoteName(k.artifact.kernel)} was compiled with relocation 'bake' for the OpenCL device, whose tables are part of its program; compile it with relocation 'table' to replace them`);
    this.copyIn(k.tables[i], values, 0);
  }

  async copy(dst: DeviceArray, src: DeviceArray, range?: CopyRange): Promise<void> {
    const { srcOffset, dstOffset, length } = copyExtent(this, dst, src, range);
    if (!length) return;
    const size = elemBytes(src.elem), bytes = length * size;
    const s = src as OpenCLArray, d = dst as OpenCLArray;
    const from = (s.offset + srcOffset) * size, to = (d.offset + dstOffset) * size;
    // clEnqueueCopyBuffer refuses overlapping ranges of one buffer: those go through a temporary.
    if (s.mem === d.mem && from < to + bytes && to < from + bytes) {
      const tmp = this.alloc(bytes);
      try {
        check(this.cl.clEnqueueCopyBuffer(this.queue, s.mem, tmp, from, 0, bytes, 0, null, null), "clEnqueueCopyBuffer");
        check(this.cl.clEnqueueCopyBuffer(this.queue, tmp, d.mem, 0, to, bytes, 0, null, null), "clEnqueueCopyBuffer");
        check(this.cl.clFinish(this.queue), "clFinish");
      } finally { this.free(tmp); }
      return;
    }
    check(this.cl.clEnqueueCopyBuffer(this.queue, s.mem, d.mem, from, to, bytes, 0, null, null), "clEnqueueCopyBuffer");
    check(this.cl.clFinish(this.queue), "clFinish");
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    const cl = this.cl;
    cl.clFinish(this.queue);
    this.prober?.close();
    for (const k of this.loaded) cl.clReleaseKernel(k.kernel);
    this.loaded.clear();
    for (const p of this.programs.values()) cl.clReleaseProgram(p);
    this.programs.clear();
    for (const m of this.buffers) cl.clReleaseMemObject(m);
    this.buffers.clear();
    cl.clReleaseCommandQueue(this.queue);
    cl.clReleaseContext(this.context);
  }

  private check(): void {
    if (this.closed) throw new KernelError("device-unavailable", "this OpenCL device was closed");
  }
}

/** The probes of this process, by program (opencl-probe.ts, programKey) and block size. */
const verdicts = new Map<string, Promise<ProbeVerdict>>();

/** Whether an OpenCL C artifact has a barrier (the call every barrier of opencl/emit.ts makes): PoCL's kernel compiler forms regions between them. */
const hasBarriers = (a: Artifact): boolean => typeof a.code === "string" && (a.target === "llvm" ? a.code.includes("@_Z7barrierj(") : a.code.includes("barrier(CLK_LOCAL_MEM_FENCE"));

/** The bytes of `__local` memory a shared array sized at launch gets (whole 32-bit words). */
function localArgBytes(k: OpenCLKernel, index: number, sizes: number[]): number {
  return wordBytes(k.artifact.dynamicShared![index].elem, sizes[index]);
}

/**
 * An llvm artifact's parameters as the OpenCL C layout binds them (the llvm target keeps that
 * target's order and roles, as the spirv target does); only SPIR code (spir64) runs here. SPIR
 * is built as SPIR 1.2.
 */
function llvmBinding(artifact: Artifact): OpenCLLayout | null {
  const l = llvmLayout(artifact);
  if (!l) return null;
  if (l.arch !== "spir64") throw new KernelError("launch", `kernel ${quoteName(artifact.kernel)}'s llvm code is for ${l.arch}, not SPIR (spir64): an OpenCL device runs SPIR only`);
  return { ...clBinding(artifact, l), buildOptions: "-x spir -spir-std=1.2", conditionalBarriers: l.conditionalBarriers };
}

/** The OpenCL C layout of a layout with the OpenCL C target's argument roles (SPIR-V's, LLVM IR's): each argument's C type from its role and parameter. */
function clBinding(artifact: Artifact, l: { args: { name: string; role: OpenCLArg["role"]; index: number }[]; relocation: OpenCLLayout["relocation"]; tables: OpenCLLayout["tables"]; localBytes: number }): OpenCLLayout {
  const C: Record<string, OpenCLArg["type"]> = { f32: "float", f64: "double", u32: "uint", i32: "int", bool: "int" };
  const args = l.args.map((a) => ({
    name: a.name, role: a.role, index: a.index,
    type: (a.role === "value" ? C[artifact.params[a.index].type] : a.role === "buffer" || a.role === "state" || a.role === "table" ? "pointer" : a.role === "local" ? "local" : a.role === "offset" ? "uint" : "int") as OpenCLArg["type"],
  }));
  return { args, relocation: l.relocation, tables: l.tables, localBytes: l.localBytes, buildOptions: "", conditionalBarriers: false, lines: [] };
}

/**
 * The llvm-as that makes bitcode the driver reads: $GPUC_SPIR_AS, else that of the LLVM version
 * the platform names (PoCL's version string: "… LLVM 15.0.6 …"; Debian's llvm-<n> package), or
 * why there is none.
 */
function spirAssembler(platformVersion: string): string {
  if (process.env.GPUC_SPIR_AS) return process.env.GPUC_SPIR_AS;
  const v = /\bLLVM (\d+)/.exec(platformVersion)?.[1];
  if (!v) return `no LLVM version in its platform's version ('${platformVersion}'): set GPUC_SPIR_AS to the llvm-as of the LLVM the driver is built on`;
  for (const candidate of [`/usr/lib/llvm-${v}/bin/llvm-as`, `/usr/bin/llvm-as-${v}`]) if (existsSync(candidate)) return candidate;
  return `no llvm-as of LLVM ${v}, which the driver is built on (install llvm-${v}, or set GPUC_SPIR_AS)`;
}

/** SPIR bitcode of an llvm artifact's text (the assembler's error, should there be one, is an internal error: gpuc's code assembles). */
function assembleSPIR(assembler: string, text: string, artifact: Artifact): Uint8Array {
  try {
    return new Uint8Array(execFileSync(assembler, ["-o", "-", "-"], { input: text, maxBuffer: 256 << 20, stdio: ["pipe", "pipe", "pipe"] }));
  } catch (e) {
    const err = e as { stderr?: Buffer; message: string };
    throw new InternalCompilerError(`the llvm code of kernel ${quoteName(artifact.kernel)} does not assemble (${assembler}): ${err.stderr?.toString().trim() || err.message}`);
  }
}

/**
 * A SPIR-V artifact's parameters as the OpenCL C layout binds them (the spirv target keeps that
 * target's order and roles; a scalar's C type comes from the parameter's type).
 */
function spirvBinding(artifact: Artifact): OpenCLLayout | null {
  const l = spirvLayout(artifact);
  return l ? clBinding(artifact, l) : null;
}

/**
 * A failed build as a CompileError: the driver's log, and where the first line it names came from
 * in the kernel's source (clang's `file:12:5: error: …`, which LLVM-based drivers write, or PoCL's
 * `error: file:12:5: …`).
 */
function buildError(artifact: Artifact, layout: OpenCLLayout, rc: number, log: string, device: string): CompileError {
  const lines = typeof artifact.code === "string" ? artifact.code.split("\n") : [];
  const m = /:(\d+):(\d+): (?:error: )?(.*)/.exec(log.split("\n").find((l) => /\berror\b/.test(l)) ?? "");
  const line = m ? Number(m[1]) : 0;
  const loc = line ? artifact.runtime.location(layout.lines[line - 1] ?? -1) : null;
  const first = m ? `${m[3]} (OpenCL C line ${line}: ${(lines[line - 1] ?? "").trim()})` : `${describeError(rc)}`;
  const location = loc ? { file: loc.file, line: loc.line, column: loc.column } : null;
  return CompileError.single(
    "unsupported-feature",
    `the OpenCL driver of ${device} could not build kernel ${quoteName(artifact.kernel)}: ${first}${rc === CL_BUILD_PROGRAM_FAILURE && log.trim() ? `\n${log.trim()}` : ""}`,
    location,
    "the device may lack something the kernel needs (f64: cl_khr_fp64); gpuc's tests build every kernel with PoCL",
  );
}

function cString(bytes: Uint8Array): string {
  const end = bytes.indexOf(0);
  return new TextDecoder().decode(end < 0 ? bytes : bytes.subarray(0, end)).trim();
}

/**
 * Where koffi's module is, as a URL a child process can import (its cwd is a temporary folder).
 * Through node:module's createRequire, not `import.meta.resolve("koffi")`: a bundler (webpack)
 * resolves the latter at build time, also in the browser build, where koffi is not.
 */
function koffiURL(): string {
  return pathToFileURL(createRequire(import.meta.url).resolve("koffi")).href;
}
