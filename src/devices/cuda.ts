// The CUDA device: runs PTX artifacts on NVIDIA GPUs through the driver API (libcuda.so.1),
// called with koffi. Node only.
//
// Per device: the primary context of GPU 0 and one kernel-state buffer. Per load: the module
// (JIT-compiled from PTX by the driver, with its error log), the entry function, and the
// constant tables uploaded and patched into the module's `gpuc_table_*` globals (relocation
// strategy `patch`: cuModuleGetGlobal + a copy, before the first launch). Per launch: host typed
// arrays are copied in and back, device arrays stay; the state's header is cleared, read back
// and decoded exactly as on the other devices (the print area only when something was printed).

import { InternalCompilerError, KernelError, quoteName } from "../errors.js";
import type { Artifact, TargetFeatures } from "../targets/target.js";
import { ptxLayout, type PTXLayout } from "../targets/ptx/layout.js";
import { PTX_ARCHES, ptxInfo } from "../targets/ptx/info.js";
import { resolveSites, verifyManifest } from "../reloc/manifest.js";
import type { HostArray } from "../typed-arrays.js";
import type { Device, DeviceOptions, Grid, LoadedKernel } from "./device.js";
import { tableSite } from "./common.js";
import { checkCall, cString, memoryCalls, PointerDevice } from "./pointer-device.js";

/** Shared memory per block, static and sized at launch together: what the PTX target allows (its info's limits). */
const SHARED_BYTES = ptxInfo.limits.sharedBytes!.max;

// ---- the driver API, bound once per process -------------------------------------------------

type Fn = (...args: unknown[]) => number;
interface Driver {
  koffi: typeof import("koffi");
  cuInit: Fn; cuDeviceGetCount: Fn; cuDeviceGet: Fn; cuDeviceGetName: Fn; cuDeviceGetAttribute: Fn; cuDriverGetVersion: Fn;
  cuDevicePrimaryCtxRetain: Fn; cuDevicePrimaryCtxRelease: Fn; cuCtxSetCurrent: Fn; cuCtxSynchronize: Fn;
  cuModuleLoadDataEx: Fn; cuModuleUnload: Fn; cuModuleGetFunction: Fn; cuModuleGetGlobal: Fn;
  cuMemAlloc: Fn; cuMemFree: Fn; cuMemcpyHtoD: Fn; cuMemcpyDtoH: Fn; cuMemcpyDtoD: Fn; cuMemsetD32: Fn;
  cuLaunchKernel: Fn; cuGetErrorName: Fn; cuGetErrorString: Fn;
}

let driver: Promise<Driver | string> | null = null;

/** The driver API, or why it cannot be used here. */
function loadDriver(): Promise<Driver | string> {
  driver ??= (async () => {
    let koffi: typeof import("koffi");
    try { const m = (await import("koffi")) as unknown as { default?: typeof import("koffi") }; koffi = m.default ?? (m as unknown as typeof import("koffi")); } catch (e) { return `the koffi FFI package cannot be loaded: ${(e as Error).message}`; }
    let lib: ReturnType<typeof koffi.load>;
    try { lib = koffi.load(process.env.GPUC_LIBCUDA ?? "libcuda.so.1"); } catch { return "no NVIDIA driver here (libcuda.so.1 not found)"; }
    koffi.pointer("CUctx", koffi.opaque());
    koffi.pointer("CUmod", koffi.opaque());
    koffi.pointer("CUfunc", koffi.opaque());
    const f = (proto: string) => lib.func(proto) as unknown as Fn;
    return {
      koffi,
      cuInit: f("int cuInit(unsigned int flags)"),
      cuDriverGetVersion: f("int cuDriverGetVersion(_Out_ int *version)"),
      cuDeviceGetCount: f("int cuDeviceGetCount(_Out_ int *count)"),
      cuDeviceGet: f("int cuDeviceGet(_Out_ int *device, int ordinal)"),
      cuDeviceGetName: f("int cuDeviceGetName(void *name, int len, int dev)"),
      cuDeviceGetAttribute: f("int cuDeviceGetAttribute(_Out_ int *value, int attrib, int dev)"),
      cuDevicePrimaryCtxRetain: f("int cuDevicePrimaryCtxRetain(_Out_ CUctx *ctx, int dev)"),
      cuDevicePrimaryCtxRelease: f("int cuDevicePrimaryCtxRelease_v2(int dev)"),
      cuCtxSetCurrent: f("int cuCtxSetCurrent(CUctx ctx)"),
      cuCtxSynchronize: f("int cuCtxSynchronize()"),
      cuModuleLoadDataEx: f("int cuModuleLoadDataEx(_Out_ CUmod *module, const uint8_t *image, unsigned int numOptions, int *options, void **optionValues)"),
      cuModuleUnload: f("int cuModuleUnload(CUmod module)"),
      cuModuleGetFunction: f("int cuModuleGetFunction(_Out_ CUfunc *fn, CUmod module, const char *name)"),
      cuModuleGetGlobal: f("int cuModuleGetGlobal_v2(_Out_ uint64_t *dptr, _Out_ size_t *bytes, CUmod module, const char *name)"),
      cuMemAlloc: f("int cuMemAlloc_v2(_Out_ uint64_t *dptr, size_t bytes)"),
      cuMemFree: f("int cuMemFree_v2(uint64_t dptr)"),
      cuMemcpyHtoD: f("int cuMemcpyHtoD_v2(uint64_t dst, const void *src, size_t bytes)"),
      cuMemcpyDtoH: f("int cuMemcpyDtoH_v2(void *dst, uint64_t src, size_t bytes)"),
      cuMemcpyDtoD: f("int cuMemcpyDtoD_v2(uint64_t dst, uint64_t src, size_t bytes)"),
      cuMemsetD32: f("int cuMemsetD32_v2(uint64_t dst, unsigned int value, size_t count)"),
      cuLaunchKernel: f("int cuLaunchKernel(CUfunc fn, unsigned int gx, unsigned int gy, unsigned int gz, unsigned int bx, unsigned int by, unsigned int bz, unsigned int sharedBytes, void *stream, void **params, void **extra)"),
      cuGetErrorName: f("int cuGetErrorName(int error, _Out_ const char **name)"),
      cuGetErrorString: f("int cuGetErrorString(int error, _Out_ const char **text)"),
    };
  })();
  return driver;
}

/** "CUDA_ERROR_ILLEGAL_ADDRESS (700): an illegal memory access was encountered" */
function describeError(d: Driver, code: number): string {
  const name: (string | null)[] = [null], text: (string | null)[] = [null];
  d.cuGetErrorName(code, name);
  d.cuGetErrorString(code, text);
  return `${name[0] ?? "CUDA error"} (${code})${text[0] ? `: ${text[0]}` : ""}`;
}

const big = (v: unknown): bigint => (typeof v === "bigint" ? v : BigInt(v as number));

// ---- loaded kernels ------------------------------------------------------------------------

interface CudaKernel extends LoadedKernel {
  module: unknown;
  fn: unknown;
  layout: PTXLayout;
  /** Device copies of the constant tables (and the pointer table), alive while the module is loaded. */
  tables: bigint[];
  /** Relocation strategy `table`: the device array of table addresses passed at each launch. */
  pointerTable: bigint;
}

const CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR = 75, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR = 76;
const CU_JIT_INFO_LOG_BUFFER = 3, CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES = 4, CU_JIT_ERROR_LOG_BUFFER = 5, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES = 6;
const LOG_BYTES = 16384;

/** Open a device (devices/index.ts), or say why it cannot be opened here. */
export function openDevice(options: DeviceOptions): Promise<CudaDevice | string> {
  return CudaDevice.open(options);
}

export class CudaDevice extends PointerDevice implements Device {
  readonly kind = "cuda";
  protected readonly label = "CUDA";
  readonly target = "ptx";
  readonly name: string;
  readonly features: TargetFeatures;
  /** The device's compute capability, e.g. "sm_90". */
  readonly computeCapability: string;
  private readonly loaded = new Set<CudaKernel>();

  private constructor(private readonly d: Driver, private readonly ctx: unknown, private readonly ordinal: number, name: string, major: number, minor: number, options: DeviceOptions) {
    super(memoryCalls(d, ["cuMemAlloc", "cuMemFree", "cuMemcpyHtoD", "cuMemcpyDtoH", "cuMemcpyDtoD", "cuMemsetD32"], (code) => describeError(d, code)), options);
    this.computeCapability = `sm_${major}${minor}`;
    // The newest architecture gpuc emits that the device runs (PTX is forward compatible).
    const arch = [...PTX_ARCHES].reverse().find((a) => Number(a.slice(3)) <= major * 10 + minor);
    this.features = { arch: arch ?? PTX_ARCHES[0] };
    this.name = `CUDA (${name}, ${this.computeCapability})`;
  }

  /** Open GPU 0 through the driver, or say why it cannot be opened here. */
  static async open(options: DeviceOptions = {}): Promise<CudaDevice | string> {
    const d = await loadDriver();
    if (typeof d === "string") return d;
    let rc = d.cuInit(0);
    if (rc !== 0) return `the NVIDIA driver failed to initialize: ${describeError(d, rc)}`;
    const count = [0];
    rc = d.cuDeviceGetCount(count);
    if (rc !== 0 || count[0] < 1) return rc !== 0 ? `no CUDA device: ${describeError(d, rc)}` : "no CUDA device (the driver found no GPU)";
    const dev = [0];
    check(d, d.cuDeviceGet(dev, 0), "cuDeviceGet");
    const nameBuf = new Uint8Array(256);
    check(d, d.cuDeviceGetName(nameBuf, nameBuf.length, dev[0]), "cuDeviceGetName");
    const name = new TextDecoder().decode(nameBuf.subarray(0, nameBuf.indexOf(0) < 0 ? nameBuf.length : nameBuf.indexOf(0)));
    const major = [0], minor = [0];
    check(d, d.cuDeviceGetAttribute(major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev[0]), "cuDeviceGetAttribute");
    check(d, d.cuDeviceGetAttribute(minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, dev[0]), "cuDeviceGetAttribute");
    if (major[0] * 10 + minor[0] < 75) return `the GPU '${name}' (sm_${major[0]}${minor[0]}) is older than sm_75, the oldest architecture gpuc emits PTX for`;
    const ctx: unknown[] = [null];
    check(d, d.cuDevicePrimaryCtxRetain(ctx, dev[0]), "cuDevicePrimaryCtxRetain");
    check(d, d.cuCtxSetCurrent(ctx[0]), "cuCtxSetCurrent");
    return new CudaDevice(d, ctx[0], dev[0], name, major[0], minor[0], options);
  }

  load(artifact: Artifact, sessionTables?: ReadonlyMap<string, HostArray>): CudaKernel {
    this.checkOpen();
    const layout = ptxLayout(artifact);
    if (!layout) throw new KernelError("launch", `the CUDA device runs 'ptx' artifacts, not '${artifact.target}'`);
    const resolved = layout.relocation === "bake" ? [] : resolveSites(artifact, sessionTables);
    if (layout.relocation === "bake") verifyManifest(artifact);
    const d = this.d, k = d.koffi;
    this.current();
    const image = new TextEncoder().encode(`${artifact.code as string}\0`);
    const errorLog = new Uint8Array(LOG_BYTES), infoLog = new Uint8Array(LOG_BYTES);
    const options = new Int32Array([CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES, CU_JIT_INFO_LOG_BUFFER, CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES]);
    // optionValues: two buffers and their sizes, as pointer-sized values.
    const errPtr = k.alloc("uint8_t", LOG_BYTES), infoPtr = k.alloc("uint8_t", LOG_BYTES);
    const values = k.alloc("uint64_t", 4);
    k.encode(values, 0, "uint64_t", k.address(errPtr));
    k.encode(values, 8, "uint64_t", BigInt(LOG_BYTES));
    k.encode(values, 16, "uint64_t", k.address(infoPtr));
    k.encode(values, 24, "uint64_t", BigInt(LOG_BYTES));
    const mod: unknown[] = [null];
    const rc = d.cuModuleLoadDataEx(mod, image, 4, options, values);
    errorLog.set(k.decode(errPtr, "uint8_t", LOG_BYTES) as number[]);
    infoLog.set(k.decode(infoPtr, "uint8_t", LOG_BYTES) as number[]);
    k.free(errPtr); k.free(infoPtr); k.free(values);
    if (rc !== 0) {
      const log = cString(errorLog) || cString(infoLog);
      // The PTX is validated by ptxas in gpuc's tests: a JIT failure is a gpuc bug or a driver too old for the PTX version.
      throw new InternalCompilerError(`the CUDA driver rejected the PTX of kernel ${quoteName(artifact.kernel)}: ${describeError(d, rc)}${log ? `\n${log}` : ""}`);
    }
    const fn: unknown[] = [null];
    check(d, d.cuModuleGetFunction(fn, mod[0], artifact.entry), "cuModuleGetFunction");
    // Relocations: each constant table is uploaded (a zero-length one gets a minimal allocation;
    // a view is copied from its offset), then its address is written into the module's global
    // (patch) or into a pointer table passed at every launch (table). `bake`: the data is in the code.
    const tables = this.uploadTables(resolved);
    if (layout.relocation === "patch") {
      layout.tables.forEach((t, i) => {
        const where = [0n], size = [0];
        check(d, d.cuModuleGetGlobal(where, size, mod[0], t.symbol), `cuModuleGetGlobal(${t.symbol})`);
        check(d, d.cuMemcpyHtoD(big(where[0]), new BigUint64Array([tables[i]]), 8), "cuMemcpyHtoD");
      });
    }
    let pointerTable = 0n;
    if (layout.relocation === "table" && tables.length) {
      pointerTable = this.alloc(tables.length * 8);
      check(d, d.cuMemcpyHtoD(pointerTable, new BigUint64Array(tables), tables.length * 8), "cuMemcpyHtoD");
      tables.push(pointerTable);
    }
    const kernel: CudaKernel = { artifact, module: mod[0], fn: fn[0], layout, tables, pointerTable };
    this.loaded.add(kernel);
    return kernel;
  }

  async launch(kernel: LoadedKernel, args: unknown[], grid: Grid): Promise<void> {
    this.checkOpen();
    const k = kernel as CudaKernel;
    const d = this.d, ffi = d.koffi;
    // Shared arrays sized at launch: the dynamic shared memory, laid out as the kernel lays it out
    // (targets/ptx/arrays.ts).
    const dynamicBytes = this.dynamicShared(k.artifact, args, grid, k.layout.sharedBytes, SHARED_BYTES).bytes;
    this.current();
    this.clearState();
    // The entry's parameters, each in its slot; kernelParams points at each.
    const params = k.layout.params;
    const slots = this.launchArgs(ffi, params.length);
    try {
      params.forEach((p, i) => {
        const a = args[p.index];
        switch (p.role) {
          case "value": slots.scalar(i, p.type, a); break;
          // (Copied back only where some parameter may write it: artifact params' readOnly.)
          case "pointer": slots.array(i, a, k.artifact.params[p.index]?.readOnly !== true); break;
          case "length": slots.u32(i, (a as { length: number }).length); break;
          case "state": slots.ptr(i, this.state); break;
          case "state-length": slots.u32(i, this.stateWords); break;
          case "tables": slots.ptr(i, k.pointerTable); break;
        }
      });
    } catch (e) { slots.release(); throw e; }
    const [gx, gy, gz] = grid.blocks, [bx, by, bz] = grid.threads;
    this.finishLaunch(k.artifact, slots, () => d.cuLaunchKernel(k.fn, gx, gy, gz, bx, by, bz, dynamicBytes, null, slots.pointers, null), () => d.cuCtxSynchronize(), "the CUDA driver", "CUDA context");
  }

  updateTable(kernel: LoadedKernel, name: string, values: HostArray): void {
    this.checkOpen();
    const k = kernel as CudaKernel;
    const i = tableSite(k, name, values);
    if (!values.byteLength) return;
    this.current();
    // patch and table: the code reads the device copy; bake: the data is the module's own global.
    if (k.layout.relocation !== "bake") { this.copyIn(k.tables[i], values); return; }
    const where = [0n], size = [0];
    check(this.d, this.d.cuModuleGetGlobal(where, size, k.module, k.layout.tables[i].symbol), `cuModuleGetGlobal(${k.layout.tables[i].symbol})`);
    this.copyIn(big(where[0]), values);
  }

  /** Wait for the GPU. */
  synchronize(): void { check(this.d, this.d.cuCtxSynchronize(), "cuCtxSynchronize"); }

  protected current(): void { check(this.d, this.d.cuCtxSetCurrent(this.ctx), "cuCtxSetCurrent"); }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.current();
    for (const k of this.loaded) this.d.cuModuleUnload(k.module);
    this.loaded.clear();
    this.freeAll();
    this.d.cuDevicePrimaryCtxRelease(this.ordinal);
  }
}

function check(d: Driver, rc: number, what: string): void {
  checkCall({ describe: (code) => describeError(d, code) }, rc, what);
}
