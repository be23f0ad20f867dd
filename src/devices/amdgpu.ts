// The AMD GPU device: runs the llvm target's code for an AMD GPU (gfx90a, gfx940, gfx1100) through
// ROCm's HIP runtime (libamdhip64.so), called with koffi. Node only.
//
// Per device: GPU 0 (hipSetDevice) and one kernel-state buffer; its architecture is the base of the
// GPU's `gcnArchName` ("gfx90a:sramecc+:xnack-" → gfx90a), and kernels are compiled for it (AMD
// code objects run on their own architecture only: the llvm target is not forward-compatible).
// Per load: the code object, linked here from the artifact's LLVM IR by LLVM's opt, llc and ld.lld
// (targets/llvm/llvm-tools.ts; ROCm ships them in /opt/rocm/llvm/bin), kept for the process and in
// the disk cache (`v2/objects/`, tagged under the user's key: the next process loads it at once);
// the module and its entry function; the constant tables uploaded (relocation strategy `table`:
// each table is a kernel argument). Per launch: host typed arrays are copied in and back,
// device arrays stay; the arguments are passed as HIP's kernelParams (HIP lays them out by the code
// object's metadata); shared arrays sized at launch are byte offsets into the launch's dynamic LDS;
// the state's header is cleared, read back and decoded exactly as on the other devices.

import { statSync } from "node:fs";
import { join } from "node:path";
import { KernelError, quoteName } from "../errors.js";
import type { Artifact, TargetFeatures } from "../targets/target.js";
import { llvmLayout, type LLVMLayout } from "../targets/llvm/layout.js";
import { LLVM_ARCHES, llvmInfo } from "../targets/llvm/info.js";
import { linkCodeObject, llvmBin, llvmToolsAvailable } from "../targets/llvm/llvm-tools.js";
import { diskCache } from "../cache/persistent.js";
import type { DiskCache } from "../cache/disk.js";
import { sha256 } from "../sha256.js";
import { resolveSites } from "../reloc/manifest.js";
import type { HostArray } from "../typed-arrays.js";
import type { Device, DeviceOptions, Grid, LoadedKernel } from "./device.js";
import { tableSite } from "./common.js";
import { checkCall, cString, memoryCalls, PointerDevice } from "./pointer-device.js";

/** Local memory (LDS) per work-group, static and sized at launch together: what the llvm target allows (its info's limits). */
const LDS_BYTES = llvmInfo.limits.sharedBytes!.max;

/** The AMD GPUs gpuc emits code for. */
const AMD_ARCHES: readonly string[] = LLVM_ARCHES.filter((a) => a !== "spir64");

// ---- the HIP runtime, bound once per process ------------------------------------------------

type Fn = (...args: unknown[]) => number;
interface Runtime {
  koffi: typeof import("koffi");
  hipInit: Fn; hipRuntimeGetVersion: Fn; hipGetDeviceCount: Fn; hipSetDevice: Fn; hipDeviceGetName: Fn; hipGetDeviceProperties: Fn;
  hipDeviceSynchronize: Fn; hipModuleLoadData: Fn; hipModuleUnload: Fn; hipModuleGetFunction: Fn;
  hipMalloc: Fn; hipFree: Fn; hipMemcpyHtoD: Fn; hipMemcpyDtoH: Fn; hipMemcpyDtoD: Fn; hipMemsetD32: Fn;
  hipModuleLaunchKernel: Fn;
  hipGetErrorName: (code: number) => string | null; hipGetErrorString: (code: number) => string | null;
}

let runtime: Promise<Runtime | string> | null = null;

/** Where HIP's runtime is looked for: $GPUC_LIBHIP, the loader's path, ROCm's default install. */
const LIBRARIES = ["libamdhip64.so", "libamdhip64.so.6", "libamdhip64.so.5", "/opt/rocm/lib/libamdhip64.so"];

/** The HIP runtime, or why it cannot be used here. */
function loadRuntime(): Promise<Runtime | string> {
  runtime ??= (async () => {
    let koffi: typeof import("koffi");
    try { const m = (await import("koffi")) as unknown as { default?: typeof import("koffi") }; koffi = m.default ?? (m as unknown as typeof import("koffi")); } catch (e) { return `the koffi FFI package cannot be loaded: ${(e as Error).message}`; }
    let lib: ReturnType<typeof koffi.load> | null = null;
    for (const name of process.env.GPUC_LIBHIP ? [process.env.GPUC_LIBHIP] : LIBRARIES) {
      try { lib = koffi.load(name); break; } catch { /* the next */ }
    }
    if (!lib) return "no ROCm here (HIP's runtime, libamdhip64.so, not found: install ROCm, or set GPUC_LIBHIP to the library)";
    koffi.pointer("hipModule", koffi.opaque());
    koffi.pointer("hipFunction", koffi.opaque());
    const f = (proto: string) => lib.func(proto) as unknown as Fn;
    // hipDeviceProp_t changed layout in ROCm 6 (hipGetDevicePropertiesR0600); gcnArchName is found
    // in it by its form (see gcnArchName), so either symbol does.
    let props: Fn;
    try { props = f("int hipGetDevicePropertiesR0600(void *prop, int device)"); } catch { props = f("int hipGetDeviceProperties(void *prop, int device)"); }
    const name = lib.func("const char *hipGetErrorName(int error)") as unknown as (code: number) => string | null;
    const text = lib.func("const char *hipGetErrorString(int error)") as unknown as (code: number) => string | null;
    return {
      koffi,
      hipInit: f("int hipInit(unsigned int flags)"),
      hipRuntimeGetVersion: f("int hipRuntimeGetVersion(_Out_ int *version)"),
      hipGetDeviceCount: f("int hipGetDeviceCount(_Out_ int *count)"),
      hipSetDevice: f("int hipSetDevice(int device)"),
      hipDeviceGetName: f("int hipDeviceGetName(void *name, int len, int device)"),
      hipGetDeviceProperties: props,
      hipDeviceSynchronize: f("int hipDeviceSynchronize()"),
      hipModuleLoadData: f("int hipModuleLoadData(_Out_ hipModule *module, const uint8_t *image)"),
      hipModuleUnload: f("int hipModuleUnload(hipModule module)"),
      hipModuleGetFunction: f("int hipModuleGetFunction(_Out_ hipFunction *fn, hipModule module, const char *name)"),
      hipMalloc: f("int hipMalloc(_Out_ uint64_t *ptr, size_t bytes)"),
      hipFree: f("int hipFree(uint64_t ptr)"),
      hipMemcpyHtoD: f("int hipMemcpyHtoD(uint64_t dst, const void *src, size_t bytes)"),
      hipMemcpyDtoH: f("int hipMemcpyDtoH(void *dst, uint64_t src, size_t bytes)"),
      hipMemcpyDtoD: f("int hipMemcpyDtoD(uint64_t dst, uint64_t src, size_t bytes)"),
      hipMemsetD32: f("int hipMemsetD32(uint64_t dst, int value, size_t count)"),
      hipModuleLaunchKernel: f("int hipModuleLaunchKernel(hipFunction fn, unsigned int gx, unsigned int gy, unsigned int gz, unsigned int bx, unsigned int by, unsigned int bz, unsigned int sharedBytes, void *stream, void **params, void **extra)"),
      hipGetErrorName: name, hipGetErrorString: text,
    };
  })();
  return runtime;
}

/** "hipErrorNoBinaryForGpu (209): no kernel image is available for execution on the device" */
function describeError(r: Runtime, code: number): string {
  const text = r.hipGetErrorString(code);
  return `${r.hipGetErrorName(code) ?? "HIP error"} (${code})${text ? `: ${text}` : ""}`;
}

/**
 * The GPU's architecture from its properties: `gcnArchName` is the one field that reads
 * "gfx<id>" with optional target features (":sramecc+:xnack-"), NUL-terminated, at a 4-byte
 * boundary (a char array after int fields) after the 256 bytes of the name. Found by that form
 * rather than at an offset, since hipDeviceProp_t's layout differs between ROCm versions; null
 * where there is none.
 */
export function gcnArchName(props: Uint8Array): string | null {
  const text = new TextDecoder("latin1").decode(props);
  const re = /gfx[0-9a-f]{3,4}(?::[a-z]+[+-])*(?=\0)/g;
  re.lastIndex = 256;
  for (let m = re.exec(text); m; m = re.exec(text)) if (m.index % 4 === 0) return m[0];
  return null;
}

// ---- loaded kernels ------------------------------------------------------------------------

interface AmdgpuKernel extends LoadedKernel {
  module: unknown;
  fn: unknown;
  layout: LLVMLayout;
  /** Device copies of the constant tables, alive while the module is loaded. */
  tables: bigint[];
}

/** Code objects of this process, by their key (objectKey). */
const codeObjects = new Map<string, Uint8Array>();

/** EF_AMDGPU_MACH of the architectures gpuc emits code for (an ELF header's e_flags & 0xff). */
const MACH: Record<string, number> = { gfx90a: 0x3f, gfx940: 0x40, gfx1100: 0x41 };

/** The tools that make code objects, once per process: their folder, and llc's size and time (another LLVM makes another object). */
let tools: string | null = null;
function toolsId(): string {
  if (tools === null) {
    const bin = llvmBin();
    let llc = "";
    try { const st = statSync(join(bin ?? "", "llc")); llc = `${st.size}:${st.mtimeMs}`; } catch { /* none: linkCodeObject says so */ }
    tools = JSON.stringify([bin, llc]);
  }
  return tools;
}

/** What a code object is made from, as a hash: the architecture, the tools and the module's text. */
function objectKey(arch: string, code: string): string {
  return sha256(JSON.stringify([arch, toolsId(), code]));
}

/** Whether `bytes` is an AMD GPU's ELF code object for `arch` (the checks a code object read back passes before HIP sees it). */
export function isCodeObjectFor(bytes: Uint8Array, arch: string): boolean {
  const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return bytes.length > 64 && v.getUint32(0) === 0x7f454c46 && bytes[4] === 2 && bytes[5] === 1 && v.getUint16(18, true) === 224 && (v.getUint32(48, true) & 0xff) === MACH[arch];
}

/**
 * The code object of a kernel's module for `arch`: this process's, else the disk cache's (tagged
 * under the user's key like everything gpuc writes there, and an ELF for the architecture), else
 * linked now (opt, llc, ld.lld: most of a second) and kept in both.
 */
function codeObject(disk: DiskCache | null, code: string, arch: string, kernel: string): Uint8Array {
  const key = objectKey(arch, code);
  const known = codeObjects.get(key);
  if (known) return known;
  const stored = disk?.readCode(key, key, "object")?.data;
  if (stored && isCodeObjectFor(stored, arch)) { codeObjects.set(key, stored); return stored; }
  const linked = linkCodeObject(code, arch);
  if (!linked.codeObject) throw new KernelError("launch", `the code object of kernel ${quoteName(kernel)} for ${arch} could not be made: ${linked.log}`);
  codeObjects.set(key, linked.codeObject);
  disk?.writeCode(key, key, [], linked.codeObject, "object");
  return linked.codeObject;
}

/** Open a device (devices/index.ts), or say why it cannot be opened here. */
export function openDevice(options: DeviceOptions): Promise<AmdgpuDevice | string> {
  return AmdgpuDevice.open(options);
}

export class AmdgpuDevice extends PointerDevice implements Device {
  readonly kind = "amdgpu";
  protected readonly label = "AMD GPU";
  readonly target = "llvm";
  readonly name: string;
  readonly features: TargetFeatures;
  /** The GPU's architecture as HIP names it, target features included ("gfx90a:sramecc+:xnack-"). */
  readonly gcnArchName: string;
  private readonly loaded = new Set<AmdgpuKernel>();

  private constructor(private readonly r: Runtime, private readonly ordinal: number, name: string, gcnArch: string, private readonly disk: DiskCache | null, options: DeviceOptions) {
    super(memoryCalls(r, ["hipMalloc", "hipFree", "hipMemcpyHtoD", "hipMemcpyDtoH", "hipMemcpyDtoD", "hipMemsetD32"], (code) => describeError(r, code)), options);
    this.gcnArchName = gcnArch;
    this.features = { arch: gcnArch.split(":")[0] };
    this.name = `AMD GPU (${name}, ${gcnArch})`;
  }

  /** Open GPU 0 through HIP, or say why it cannot be opened here. */
  static async open(options: DeviceOptions = {}): Promise<AmdgpuDevice | string> {
    const r = await loadRuntime();
    if (typeof r === "string") return r;
    let rc = r.hipInit(0);
    if (rc !== 0) return `HIP failed to initialize: ${describeError(r, rc)}`;
    const count = [0];
    rc = r.hipGetDeviceCount(count);
    if (rc !== 0 || count[0] < 1) return rc !== 0 ? `no AMD GPU: ${describeError(r, rc)}` : "no AMD GPU (HIP found none)";
    check(r, r.hipSetDevice(0), "hipSetDevice");
    const nameBuf = new Uint8Array(256);
    check(r, r.hipDeviceGetName(nameBuf, nameBuf.length, 0), "hipDeviceGetName");
    const name = cString(nameBuf);
    // hipDeviceProp_t is about 1.5 KB in ROCm 6; room for a larger one.
    const props = new Uint8Array(16384);
    check(r, r.hipGetDeviceProperties(props, 0), "hipGetDeviceProperties");
    const gcnArch = gcnArchName(props);
    if (!gcnArch) return `the AMD GPU '${name}' did not say its architecture (no gcnArchName in its properties)`;
    const arch = gcnArch.split(":")[0];
    if (!AMD_ARCHES.includes(arch)) return `the AMD GPU '${name}' is ${arch}, which gpuc emits no code for (it does for ${AMD_ARCHES.join(", ")})`;
    if (!llvmToolsAvailable()) return "the AMD GPU device links each kernel's code object with LLVM's llc and ld.lld, which are not here: install LLVM 16 (Debian's llvm-16 and lld-16) or ROCm's llvm, or set GPUC_LLVM_BIN";
    return new AmdgpuDevice(r, 0, name, gcnArch, await diskCache(), options);
  }

  load(artifact: Artifact, sessionTables?: ReadonlyMap<string, HostArray>): AmdgpuKernel {
    this.checkOpen();
    const layout = llvmLayout(artifact);
    if (!layout) throw new KernelError("launch", `the AMD GPU device runs 'llvm' artifacts, not '${artifact.target}'`);
    const arch = this.features.arch!;
    // A code object runs on its own architecture only: a kernel for another is an error naming both.
    if (layout.arch !== arch)
      throw new KernelError("launch", `the llvm code of kernel ${quoteName(artifact.kernel)} is for ${layout.arch}; this GPU is ${arch} (compile it for ${arch}, or precompile an image entry for it)`);
    const resolved = resolveSites(artifact, sessionTables);
    const r = this.r;
    const object = codeObject(this.disk, artifact.code as string, arch, artifact.kernel);
    this.current();
    const mod: unknown[] = [null];
    const rc = r.hipModuleLoadData(mod, object);
    if (rc !== 0) throw new KernelError("launch", `HIP did not load the code object of kernel ${quoteName(artifact.kernel)} (${arch}) on this GPU (${this.gcnArchName}): ${describeError(r, rc)}`);
    const fn: unknown[] = [null];
    const found = r.hipModuleGetFunction(fn, mod[0], artifact.entry);
    if (found !== 0) { r.hipModuleUnload(mod[0]); check(r, found, "hipModuleGetFunction"); }
    // Each constant table is uploaded (a zero-length one gets a minimal allocation) and passed as its argument.
    const tables = this.uploadTables(resolved);
    const kernel: AmdgpuKernel = { artifact, module: mod[0], fn: fn[0], layout, tables };
    this.loaded.add(kernel);
    return kernel;
  }

  async launch(kernel: LoadedKernel, args: unknown[], grid: Grid): Promise<void> {
    this.checkOpen();
    const k = kernel as AmdgpuKernel;
    const r = this.r, ffi = r.koffi;
    // Shared arrays sized at launch: one block of dynamic LDS, each array at its byte offset in it (16-byte aligned).
    const { sizes, offsets, bytes: dynamicBytes } = this.dynamicShared(k.artifact, args, grid, k.layout.localBytes, LDS_BYTES);
    this.current();
    this.clearState();
    // The arguments, each in its slot; kernelParams points at each (HIP copies as many bytes as the code object's metadata says).
    const params = k.layout.args;
    const slots = this.launchArgs(ffi, params.length);
    try {
      params.forEach((p, i) => {
        const a = args[p.index];
        switch (p.role) {
          case "value": slots.scalar(i, k.artifact.params[p.index].type, a); break;
          // (Copied back only where some parameter may write it: artifact params' readOnly.)
          case "buffer": slots.array(i, a, k.artifact.params[p.index]?.readOnly !== true); break;
          // A view is a pointer into its base's allocation: its offset is in the pointer.
          case "offset": slots.i32(i, 0); break;
          case "length": slots.i32(i, (a as { length: number }).length); break;
          case "state": slots.ptr(i, this.state); break;
          case "state-length": slots.i32(i, this.stateWords); break;
          case "table": slots.ptr(i, k.tables[p.index]); break;
          case "local": slots.i32(i, offsets[p.index]); break;
          case "local-length": slots.i32(i, sizes[p.index]); break;
        }
      });
    } catch (e) { slots.release(); throw e; }
    const [gx, gy, gz] = grid.blocks, [bx, by, bz] = grid.threads;
    this.finishLaunch(k.artifact, slots, () => r.hipModuleLaunchKernel(k.fn, gx, gy, gz, bx, by, bz, dynamicBytes, null, slots.pointers, null), () => r.hipDeviceSynchronize(), "HIP", "HIP context");
  }

  updateTable(kernel: LoadedKernel, name: string, values: HostArray): void {
    this.checkOpen();
    const k = kernel as AmdgpuKernel;
    const i = tableSite(k, name, values);
    if (!values.byteLength) return;
    this.current();
    // The code reads the table through its argument: the device copy is rewritten.
    this.copyIn(k.tables[i], values);
  }

  /** Wait for the GPU. */
  synchronize(): void { check(this.r, this.r.hipDeviceSynchronize(), "hipDeviceSynchronize"); }

  protected current(): void { check(this.r, this.r.hipSetDevice(this.ordinal), "hipSetDevice"); }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.current();
    for (const k of this.loaded) this.r.hipModuleUnload(k.module);
    this.loaded.clear();
    this.freeAll();
  }
}

function check(r: Runtime, rc: number, what: string): void {
  checkCall({ describe: (code) => describeError(r, code) }, rc, what);
}
