// What the device implementations (cpu.ts, webgpu.ts, cuda.ts, opencl.ts) share beyond device.ts:
// the checks of device()'s options, of arrays made from host arrays (and why an array is not one,
// which argument messages say too), of device-to-device copies, of table updates and of shared
// arrays sized at launch. Apart from device.ts, which the kernel layer imports at startup, so that
// these load with the first device opened or the first mistake.

import { CompileError, KernelError, quoteName, unknownOption } from "../errors.js";
import { elemBytes } from "../ir/types.js";
import type { Artifact } from "../targets/target.js";
import { ARRAY_CONSTRUCTOR, describeArgument, describeValue, hostArrayElement, isDetached, type ElementType, type HostArray } from "../typed-arrays.js";
import { evalSize, sizeText } from "../ir/size.js";
import { DEVICE_LABEL, DeviceArray, describeGrid, type CopyRange, type Device, type Grid, type LoadedKernel, type OpenOptions } from "./device.js";

/** The element type of the host array a device array is made from (`dev.array(data)`), or a launch error saying why it cannot be. */
export function arrayElement(data: unknown): ElementType {
  const elem = hostArrayElement(data);
  if (!elem) throw new KernelError("launch", `device arrays are made from typed arrays (${HOST_ARRAY_NAMES}), got ${unsupportedArray(data) ?? describeArgument(data)}`);
  if (isDetached(data as HostArray)) throw new KernelError("launch", `device arrays are made from typed arrays with data; this ${describeValue(data)}'s buffer was detached (transferred)`);
  return elem;
}

/** The index of a loaded kernel's table site `name`, checked against `values` (element type and length). */
export function tableSite(kernel: LoadedKernel, name: string, values: HostArray): number {
  const sites = kernel.artifact.manifest.sites;
  const i = sites.findIndex((s) => s.name === name);
  if (i < 0) throw new KernelError("launch", `kernel ${quoteName(kernel.artifact.kernel)} has no table '${name}' in its code`);
  if (hostArrayElement(values) !== sites[i].elem || values.length !== sites[i].length)
    throw new KernelError("launch", `table '${name}' of kernel ${quoteName(kernel.artifact.kernel)} is ${sites[i].elem}[${sites[i].length}], not ${hostArrayElement(values) ?? "a typed array"}[${values.length}]`);
  return i;
}

/**
 * The element counts of an artifact's shared arrays sized at launch, at this launch (ir/size.ts),
 * each at least one element, and all shared memory (these and `staticBytes`) within `maxBytes`.
 */
export function sharedSizes(artifact: Artifact, args: readonly unknown[], grid: Grid, staticBytes: number, maxBytes: number, label: string): number[] {
  const dyn = artifact.dynamicShared;
  if (!dyn) return [];
  const sizes = dyn.map((d) => evalSize(d.size, args, grid.threads));
  let bytes = staticBytes;
  dyn.forEach((d, i) => {
    if (sizes[i] < 1) throw new KernelError("launch", `shared array '${d.name}' of kernel ${quoteName(artifact.kernel)} would have ${sizes[i]} elements at this launch (${sizeText(d.size, artifact.params.map((p) => p.name))}); it needs at least one`);
    bytes += Math.ceil((sizes[i] * elemBytes(d.elem)) / 4) * 4;
  });
  if (bytes > maxBytes) throw new KernelError("launch", `kernel ${quoteName(artifact.kernel)} would use ${bytes} bytes of shared memory per block at this launch (${dyn.map((d, i) => `'${d.name}': ${sizes[i]} elements`).join(", ")}); the ${label} device has ${maxBytes}`);
  return sizes;
}

/** A copy checked against both arrays: offsets and a length in elements, and both arrays this device's. */
export function copyExtent(dev: Device, dst: DeviceArray, src: DeviceArray, given: CopyRange = {}): { srcOffset: number; dstOffset: number; length: number } {
  const label = DEVICE_LABEL[dev.kind] ?? dev.kind;
  if (dev.closed) throw new KernelError("device-unavailable", `this ${label} device was closed`);
  for (const [what, a] of [["destination", dst], ["source", src]] as const) {
    let array = false;
    try { array = a instanceof DeviceArray; } catch { /* a revoked Proxy */ }
    if (!array || a.device !== dev) throw new KernelError("launch", `copy(): the ${what} must be an array of this ${label} device (dev.array(...)), got ${array ? `an array of a ${DEVICE_LABEL[a.device.kind] ?? a.device.kind} device` : describeArgument(a)}`);
  }
  if (dst.elem !== src.elem) throw new KernelError("launch", `copy(): the arrays hold different element types (${dst.elem} and ${src.elem})`);
  let range: CopyRange;
  if (given === null || typeof given !== "object") throw new KernelError("launch", `copy(): the range is an object { srcOffset, dstOffset, length } (in elements, each optional), got ${describeArgument(given)}`);
  try { range = { srcOffset: given.srcOffset, dstOffset: given.dstOffset, length: given.length }; }
  catch (e) { throw new KernelError("launch", `copy(): its range cannot be read (${(e as Error)?.message})`); }
  const int = (v: unknown, what: string, dflt: number): number => {
    if (v === undefined) return dflt;
    if (typeof v !== "number" || !Number.isInteger(v) || v < 0) throw new KernelError("launch", `copy(): ${what} must be a non-negative integer (elements), got ${describeGrid(v)}`);
    return v;
  };
  const srcOffset = int(range.srcOffset, "srcOffset", 0), dstOffset = int(range.dstOffset, "dstOffset", 0);
  if (range.length === undefined && range.srcOffset === undefined && range.dstOffset === undefined && dst.length !== src.length)
    throw new KernelError("launch", `copy(): the arrays have different lengths (${dst.length} and ${src.length}); give { length } (and offsets) to copy part of one`);
  const length = int(range.length, "length", Math.max(0, src.length - srcOffset));
  if (srcOffset + length > src.length) throw new KernelError("launch", `copy(): ${length} elements from offset ${srcOffset} run past the source's end (length ${src.length})`);
  if (dstOffset + length > dst.length) throw new KernelError("launch", `copy(): ${length} elements to offset ${dstOffset} run past the destination's end (length ${dst.length})`);
  return { srcOffset, dstOffset, length };
}

/** The names of the host arrays kernels take, for messages. */
export const HOST_ARRAY_NAMES = Object.values(ARRAY_CONSTRUCTOR).map((c) => c.name).join(", ");

/** Whether an Array holds only numbers (holes are not). */
function isNumbers(a: readonly unknown[]): boolean {
  for (let i = 0; i < a.length; i++) if (typeof a[i] !== "number") return false;
  return true;
}

/**
 * Why `v` is an array kernels do not take (BigInt64Array, DataView, a plain Array, an ArrayBuffer,
 * a Proxy of a typed array), said for messages; null when it is no array at all (or one they take).
 */
export function unsupportedArray(v: unknown): string | null {
  if (hostArrayElement(v)) return null;
  if (ArrayBuffer.isView(v)) return `${describeValue(v)}, an array kind kernels do not take`;
  try {
    if (v instanceof ArrayBuffer || (typeof SharedArrayBuffer !== "undefined" && v instanceof SharedArrayBuffer))
      return `${describeValue(v)}, which kernels take through a typed array over it (new Float32Array(buffer))`;
    if (Array.isArray(v)) return v.some((x) => typeof x === "object" && x !== null && !Array.isArray(x))
      ? "an Array whose elements are not objects of one shape with number fields, which kernels take as arrays of objects (every element an object with the same fields, each a number, an object of such fields, or an Array of numbers or of such objects as long in every element; or a structArray)"
      : isNumbers(v) ? "an Array of numbers, which kernels take as f64[] (JavaScript's numbers; for another element type convert it: Float32Array.from(array))"
      : "an Array whose elements are not all numbers, which kernels do not take (an Array of numbers is an f64[], an Array of objects of one shape an array of objects; a typed array takes the rest: Uint8Array.from(flags))";
  } catch { return "a revoked Proxy, which kernels do not take"; }
  const name = describeValue(v);
  if (/^(Big)?(Int|Uint|Float)(8|16|32|64)(Clamped)?Array$|^DataView$/.test(name))
    return `an object that is not itself a ${name} (a Proxy of one?), which kernels do not take (pass the typed array itself)`;
  return null;
}


/**
 * The options each kind of device takes. device() without a kind takes any of them (each device
 * it tries uses its own); with a kind, another kind's option is a mistake like a misspelt one.
 */
const DEVICE_OPTIONS: Record<string, readonly (keyof OpenOptions)[]> = {
  cpu: ["print", "printBufferWords", "subgroupSize", "threads", "parallel", "wasm", "sanitize", "threadOrder"],
  webgpu: ["print", "printBufferWords", "gpu", "powerPreference"],
  cuda: ["print", "printBufferWords"],
  amdgpu: ["print", "printBufferWords"],
  opencl: ["print", "printBufferWords", "platform", "device", "spirv", "llvm"],
};

/**
 * device()'s options, as index.ts read them (a copy of the caller's keys), checked for the kind
 * asked for (any kind without one): an option the kind does not take — misspelt, or another
 * kind's — and a value it cannot use (a print sink that is no function would fail at the first
 * kernel that prints) are each an invalid-option CompileError naming it. The options given,
 * without those left undefined.
 */
export function checkOpenOptions(copy: OpenOptions, kind?: string): OpenOptions {
  const where = kind ? `device(${JSON.stringify(kind)})` : "device()";
  const bad = (what: string) => CompileError.single("invalid-option", `${where}: ${what}`);
  const known = kind ? DEVICE_OPTIONS[kind] : [...new Set(Object.values(DEVICE_OPTIONS).flat())];
  const unknown = unknownOption(copy, known);
  if (unknown) {
    const key = Object.keys(copy).find((k) => !(known as string[]).includes(k))!;
    const others = Object.keys(DEVICE_OPTIONS).filter((k) => (DEVICE_OPTIONS[k] as string[]).includes(key));
    throw bad(others.length ? `${unknown}; it is an option of ${others.map((k) => `device(${JSON.stringify(k)})`).join(" and ")}` : unknown);
  }
  if (copy.print !== undefined && typeof copy.print !== "function") throw bad(`print must be a function (line: string) => void, got ${typeof copy.print}`);
  const words = copy.printBufferWords;
  if (words !== undefined && !(typeof words === "number" && Number.isInteger(words) && words >= 1 && words <= 1 << 26))
    throw bad(`printBufferWords must be an integer from 1 to ${1 << 26}, got ${typeof words === "number" ? words : typeof words}`);
  if (copy.spirv !== undefined && typeof copy.spirv !== "boolean") throw bad(`spirv must be true or false, got ${typeof copy.spirv}`);
  if (copy.llvm !== undefined && typeof copy.llvm !== "boolean") throw bad(`llvm must be true or false, got ${typeof copy.llvm}`);
  if (copy.spirv && copy.llvm) throw bad("spirv and llvm cannot both be true: the device runs one target's code");
  if (copy.sanitize !== undefined && typeof copy.sanitize !== "boolean") throw bad(`sanitize must be true or false, got ${describeArgument(copy.sanitize)}`);
  if (copy.threadOrder !== undefined && copy.threadOrder !== "forward" && copy.threadOrder !== "reversed") throw bad(`threadOrder must be "forward" or "reversed", got ${describeArgument(copy.threadOrder)}`);
  if (copy.wasm !== undefined && typeof copy.wasm !== "boolean" && copy.wasm !== "always") throw bad(`wasm must be true, false or "always", got ${describeArgument(copy.wasm)}`);
  if (copy.powerPreference !== undefined && copy.powerPreference !== "high-performance" && copy.powerPreference !== "low-power")
    throw bad(`powerPreference must be "high-performance" or "low-power", got ${describeArgument(copy.powerPreference)}`);
  for (const what of ["platform", "device"] as const) {
    const v = copy[what];
    if (v !== undefined && !(typeof v === "string" || (typeof v === "number" && Number.isInteger(v) && v >= 0)))
      throw bad(`${what} must be an index (an integer from 0) or a part of its name, got ${typeof v === "number" ? v : typeof v}`);
  }
  for (const key of Object.keys(copy) as (keyof OpenOptions)[]) if (copy[key] === undefined) delete copy[key];
  return copy;
}
