// The WebGPU device: runs WGSL artifacts on Dawn (the npm `webgpu` package) in Node, or on any
// `GPU` object (navigator.gpu in a browser).
//
// Per launch: host typed arrays are uploaded into pooled storage buffers and the ones the kernel
// writes are copied back; scalar parameters and array lengths go in a uniform block; the kernel
// state's header is cleared, read back with the results (with it, where the kernel raises, the
// exception record's texture: see RECORD_WORDS), and decoded exactly as on the CPU device (the
// print area is read only when something was printed).

/// <reference types="@webgpu/types" />

import { CompileError, InternalCompilerError, KernelError, quoteName } from "../errors.js";
import { elemBytes, isNarrow } from "../ir/types.js";
import { STATE } from "../runtime/state.js";
import { decodeException, decodePrints } from "../runtime/host.js";
import type { Artifact } from "../targets/target.js";
import { resolveSites } from "../reloc/manifest.js";
import { RECORD_FORMAT, RECORD_TEXELS, dynamicLength, wgslLayout, type WGSLLayout } from "../targets/wgsl/layout.js";
import { wgslInfo } from "../targets/wgsl/info.js";
import { ARRAY_CONSTRUCTOR, hostArrayElement, type ElementType, type HostArray } from "../typed-arrays.js";
import { dawnQuiet, loadDawn, releaseDawn } from "./dawn.js";
import { variantCode } from "./webgpu-variants.js";
import { DeviceArray, type CopyRange, type Device, type DeviceOptions, type Grid, type LoadedKernel } from "./device.js";
import { arrayElement, copyExtent, sharedSizes, tableSite } from "./common.js";

const CTOR = ARRAY_CONSTRUCTOR;

export class WebGPUArray extends DeviceArray {
  /**
   * `offset`: where the array starts in `buffer`, in elements (a view's; 0 for a whole buffer).
   * Buffers are whole 32-bit words (WebGPU's copies and WGSL's storage are); a view of 8- or
   * 16-bit elements may start and end inside a word.
   */
  constructor(private readonly dev: WebGPUDevice, elem: ElementType, length: number, readonly buffer: GPUBuffer, readonly offset = 0) { super(dev, elem, length); }
  protected view(offset: number, length: number): WebGPUArray { return new WebGPUArray(this.dev, this.elem, length, this.buffer, this.offset + offset); }
  protected async readData(): Promise<HostArray> {
    const out = new CTOR[this.elem](this.length);
    await this.dev.readInto(this.buffer, out, this.offset * elemBytes(this.elem));
    return out;
  }
  protected async writeData(data: HostArray): Promise<void> {
    if (hostArrayElement(data) !== this.elem || data.length !== this.length)
      throw new KernelError("launch", `write() needs a ${CTOR[this.elem].name} of length ${this.length}`);
    this.dev.writeAt(this.buffer, this.offset * elemBytes(this.elem), data);
  }
}

interface WebGPUKernel extends LoadedKernel, ShaderVariant {
  layout: WGSLLayout;
  /**
   * Variants of the shader for launches that pass one buffer to several array parameters, one of
   * which the kernel writes: WebGPU rejects a buffer bound twice in one dispatch where either
   * binding is writable, so the variant declares the buffer once (the writable binding) and every
   * other parameter of it names that one. Keyed by the merged bindings ("3>2,4>2").
   */
  aliased: Map<string, ShaderVariant>;
  /** Constant tables, uploaded once per load (relocation strategy `table`). */
  tables: GPUBuffer[];
  /**
   * The device's exception record, where the kernel raises (its layout binds one: the header's
   * read-back carries its texels too); null where it does not.
   */
  record: { texture: GPUTexture; view: GPUTextureView } | null;
}

/** A shader module with its layouts and its pipelines (one per workgroup size). */
interface ShaderVariant {
  /** Bindings this variant does not declare (their parameters use another binding's buffer). */
  merged: ReadonlySet<number>;
  module: GPUShaderModule;
  bindGroupLayout: GPUBindGroupLayout;
  pipelineLayout: GPUPipelineLayout;
  pipelines: Map<string, GPUComputePipeline>;
}

/**
 * Upload a host array. WebGPU's writeBuffer takes no SharedArrayBuffer: an array on one is copied
 * to a plain buffer first (a SharedArrayBuffer-backed array works like any other).
 */
function writeHost(q: GPUQueue, buffer: GPUBuffer, at: number, data: HostArray): void {
  const shared = typeof SharedArrayBuffer !== "undefined" && data.buffer instanceof SharedArrayBuffer;
  // writeBuffer writes whole words: a narrow array's last word is padded with zeros (the caller
  // writes at a word boundary into a buffer whose bytes after `data` are no other array's).
  if (shared || data.byteLength % 4) {
    const plain = new Uint8Array(Math.ceil(data.byteLength / 4) * 4);
    plain.set(new Uint8Array(data.buffer, data.byteOffset, data.byteLength));
    q.writeBuffer(buffer, at, plain.buffer, 0, plain.byteLength);
  } else q.writeBuffer(buffer, at, data.buffer as ArrayBuffer, data.byteOffset, data.byteLength);
}

/**
 * Copies bytes between buffers at any byte offsets (copyBufferToBuffer takes multiples of 4):
 * one thread per destination word, which keeps the word's bytes outside the range. Used for the
 * copies and writes of 8- and 16-bit arrays that do not start and end on word boundaries.
 */
const BYTE_COPY_WGSL = `struct P { dst: u32, src: u32, n: u32, stride: u32 }
@group(0) @binding(0) var<storage, read_write> d: array<u32>;
@group(0) @binding(1) var<storage, read> s: array<u32>;
@group(0) @binding(2) var<uniform> p: P;
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) g: vec3<u32>) {
  let end = p.dst + p.n;
  for (var w = (p.dst >> 2u) + g.x; w < ((end + 3u) >> 2u); w = w + p.stride) {
    var word = d[w];
    for (var k = 0u; k < 4u; k = k + 1u) {
      let b = w * 4u + k;
      if (b >= p.dst && b < end) {
        let at = p.src + (b - p.dst);
        let v = (s[at >> 2u] >> ((at & 3u) * 8u)) & 0xffu;
        word = (word & ~(0xffu << (k * 8u))) | (v << (k * 8u));
      }
    }
    d[w] = word;
  }
}`;

const STORAGE = 0x80, COPY_SRC = 0x04, COPY_DST = 0x08, UNIFORM = 0x40, MAP_READ = 0x01;
const TEXTURE_COPY_SRC = 0x01, TEXTURE_STORAGE = 0x08;

/**
 * WGSL's exception record (targets/wgsl/layout.ts, RECORD_FORMAT), written by the thread that won
 * the claim on the state's claim word. One texture per device serves every launch: each launch
 * copies it out right after its dispatch (the queue runs launches in order), and it is read only
 * where the launch's claim word says a thread wrote it then.
 */
const RECORD_WORDS = RECORD_TEXELS * 4;

/** The record's words, read back beside the header, put where the other targets' code stores them (runtime/state.ts). */
function placeRecord(header: Int32Array, record: Int32Array): void {
  header.set(record.subarray(0, 5), STATE.CODE);   // code, location, a, b, then the packed threadIdx
  header.set(record.subarray(5, 8), STATE.BLOCK);
}
const align4 = (n: number) => Math.max(4, Math.ceil(n / 4) * 4);

/** Open a WebGPU device (devices/index.ts), or say why it cannot be opened here. */
export async function openDevice(options: DeviceOptions & { gpu?: GPU }): Promise<WebGPUDevice | string> {
  return (await WebGPUDevice.open(options)) ?? "no WebGPU adapter was found (Dawn found no Vulkan driver here?)";
}

export class WebGPUDevice implements Device {
  readonly kind = "webgpu";
  readonly target = "wgsl";
  readonly name: string;
  /** Set by close(); arrays and launches on a closed device are device-unavailable errors. */
  closed = false;
  private readonly state: GPUBuffer;
  private readonly stateWords: number;
  private readonly print: (line: string) => void;
  /** Free storage buffers by byte size, reused across launches. */
  private pool = new Map<number, GPUBuffer[]>();
  /** The exception record's texture (see RECORD_WORDS), made when the first kernel that raises loads. */
  private record: { texture: GPUTexture; view: GPUTextureView } | null = null;

  private constructor(
    /** Kept alive for the device's lifetime: a collected Dawn instance aborts the process. */
    private instance: unknown,
    readonly gpu: GPUDevice,
    adapterName: string,
    options: DeviceOptions,
  ) {
    this.name = `WebGPU (${adapterName})`;
    this.stateWords = STATE.PRINT_BASE + (options.printBufferWords ?? 1 << 16);
    this.state = gpu.createBuffer({ size: this.stateWords * 4, usage: STORAGE | COPY_SRC | COPY_DST });
    this.print = options.print ?? ((line) => console.log(line));
  }

  /** Open a WebGPU device on `gpu` (navigator.gpu, or Dawn's in Node), or null when no adapter exists. */
  static async open(options: DeviceOptions & { gpu?: GPU; powerPreference?: "high-performance" | "low-power" } = {}): Promise<WebGPUDevice | null> {
    let gpu = options.gpu ?? (globalThis as { navigator?: { gpu?: GPU } }).navigator?.gpu;
    let instance: unknown = gpu;
    if (!gpu) {
      const dawn = await loadDawn();
      if (!dawn) return null;
      gpu = dawn;
      instance = dawn;
    }
    // Dawn's warnings (lavapipe: "… artificially reduced …") are said while these calls run.
    const quiet = dawnQuiet(instance);
    const on = gpu;
    const adapter = await quiet(() => on.requestAdapter({ powerPreference: options.powerPreference ?? "high-performance" }));
    if (!adapter) { releaseDawn(instance); return null; }
    const limits = adapter.limits;
    const device = await quiet(() => adapter.requestDevice({
      // Subgroup operations, where the adapter has them (kernels without them run either way).
      requiredFeatures: adapter.features.has("subgroups") ? ["subgroups" as GPUFeatureName] : [],
      requiredLimits: {
        maxStorageBuffersPerShaderStage: limits.maxStorageBuffersPerShaderStage,
        maxComputeInvocationsPerWorkgroup: Math.min(1024, limits.maxComputeInvocationsPerWorkgroup),
        maxComputeWorkgroupSizeX: Math.min(1024, limits.maxComputeWorkgroupSizeX),
        maxComputeWorkgroupSizeY: Math.min(1024, limits.maxComputeWorkgroupSizeY),
        maxComputeWorkgroupSizeZ: Math.min(64, limits.maxComputeWorkgroupSizeZ),
        maxComputeWorkgroupStorageSize: limits.maxComputeWorkgroupStorageSize,
        maxStorageBufferBindingSize: limits.maxStorageBufferBindingSize,
        maxBufferSize: limits.maxBufferSize,
      },
    }));
    const info = (adapter as { info?: { description?: string; vendor?: string; architecture?: string } }).info;
    const label = [info?.description, info?.vendor, info?.architecture].filter(Boolean).join(", ") || "adapter";
    return new WebGPUDevice(instance, device, label, options);
  }

  array(data: HostArray): WebGPUArray {
    this.check();
    const elem = arrayElement(data);
    if (elem === "f64") throw new KernelError("launch", "the WebGPU device has no f64: use a Float32Array");
    const buffer = this.gpu.createBuffer({ size: align4(data.byteLength), usage: STORAGE | COPY_SRC | COPY_DST });
    writeHost(this.gpu.queue, buffer, 0, data);
    return new WebGPUArray(this, elem, data.length, buffer);
  }

  load(artifact: Artifact, values?: ReadonlyMap<string, HostArray>): WebGPUKernel {
    this.check();
    const layout = wgslLayout(artifact);
    if (!layout) throw new KernelError("launch", `the WebGPU device runs 'wgsl' artifacts, not '${artifact.target}'`);
    if (/^enable subgroups;$/m.test(artifact.code as string) && !this.gpu.features.has("subgroups")) throw this.noSubgroups(artifact, layout);
    const storage = layout.bindings.filter((b) => b.kind === "storage").length;
    const limit = this.gpu.limits.maxStorageBuffersPerShaderStage;
    if (storage > limit)
      throw new KernelError("launch", `kernel ${quoteName(artifact.kernel)} needs ${storage} storage buffers (its arrays, constant tables and the kernel state); this WebGPU device allows ${limit}`);
    const variant = this.variant(artifact, layout, new Map());
    // Relocations (table): each constant table is a storage buffer bound at launch. A
    // zero-length table gets a minimal buffer (WebGPU has no zero-sized bindings); a view into a
    // larger buffer is uploaded from its offset.
    const tables = resolveSites(artifact, values).map((v) => {
      const buf = this.gpu.createBuffer({ size: align4(v.byteLength), usage: STORAGE | COPY_DST });
      if (v.byteLength) writeHost(this.gpu.queue, buf, 0, v);
      return buf;
    });
    const record = layout.bindings.some((b) => b.role === "record") ? (this.record ??= this.recordTexture()) : null;
    return { artifact, layout, ...variant, aliased: new Map(), tables, record };
  }

  /**
   * The shader, with each binding in `merge` (removed → kept) left undeclared and named as the
   * kept one, and each access of a binding in `shift` at its view's offset (webgpu-variants.ts),
   * and its layouts.
   */
  private variant(artifact: Artifact, layout: WGSLLayout, merge: ReadonlyMap<number, number>, shift: ReadonlyMap<number, number> = new Map()): ShaderVariant {
    const code = merge.size || shift.size ? variantCode(artifact.kernel, artifact.code as string, layout, merge, shift) : artifact.code as string;
    // A WGSL error is the pipeline's to report, from the module's compilation info (shaderError);
    // in a scope of its own, Dawn does not also print it as an uncaptured error.
    this.gpu.pushErrorScope("validation");
    const module = this.gpu.createShaderModule({ code, label: artifact.kernel });
    this.gpu.popErrorScope().catch(() => {});
    const bindGroupLayout = this.gpu.createBindGroupLayout({
      entries: layout.bindings.filter((b) => !merge.has(b.binding)).map((b): GPUBindGroupLayoutEntry => (b.kind === "texture"
        ? { binding: b.binding, visibility: 4 /* COMPUTE */, storageTexture: { access: "write-only", format: RECORD_FORMAT, viewDimension: "1d" } }
        : { binding: b.binding, visibility: 4, buffer: { type: b.kind === "uniform" ? "uniform" : b.readOnly ? "read-only-storage" : "storage" } })),
    });
    const pipelineLayout = this.gpu.createPipelineLayout({ bindGroupLayouts: [bindGroupLayout] });
    return { merged: new Set(merge.keys()), module, bindGroupLayout, pipelineLayout, pipelines: new Map() };
  }

  /**
   * The pipeline for one workgroup size. A new one is created synchronously inside its own error
   * scope, whose verdict (`check`) the launch awaits together with its results: one wait on the
   * device per launch. WGSL errors surface there, as CompileErrors with gpuc's locations.
   */
  private pipeline(k: WebGPUKernel, v: ShaderVariant, threads: [number, number, number], sizes: number[]): { pipeline: GPUComputePipeline; key: string; check: Promise<GPUError | null> | null } {
    const key = [threads.join("x"), ...sizes].join(",");
    const cached = v.pipelines.get(key);
    if (cached) return { pipeline: cached, key, check: null };
    const [wgx, wgy, wgz] = k.layout.workgroupSize;
    this.gpu.pushErrorScope("validation");
    const pipeline = this.gpu.createComputePipeline({
      layout: v.pipelineLayout,
      compute: { module: v.module, entryPoint: k.artifact.entry, constants: { [wgx]: threads[0], [wgy]: threads[1], [wgz]: threads[2], ...Object.fromEntries(sizes.map((n, i) => [dynamicLength(i), n])) } },
    });
    const check = this.gpu.popErrorScope();
    v.pipelines.set(key, pipeline);
    return { pipeline, key, check };
  }

  /** Bytes of the kernel's shared arrays of constant size (from its WGSL declarations). */
  private staticShared(k: WebGPUKernel): number {
    let bytes = 0;
    for (const m of (k.artifact.code as string).matchAll(/^var<workgroup> \w+: array<(?:atomic<)?(\w+)>?, (\d+)>;$/gm)) bytes += Number(m[2]) * 4;
    return bytes;
  }

  /** A kernel with subgroup operations on an adapter without the `subgroups` feature: located at its first one. */
  private noSubgroups(artifact: Artifact, layout: WGSLLayout): CompileError {
    const lines = (artifact.code as string).split("\n");
    const at = lines.findIndex((l, i) => layout.lines[i] >= 0 && /\bsubgroup\w*\(|\bsg[ls]\b/.test(l));
    const loc = at >= 0 ? artifact.runtime.location(layout.lines[at]) : null;
    return new CompileError([{
      kind: "unsupported-feature", frames: [], location: loc ? { file: loc.file, line: loc.line, column: loc.column } : null,
      message: `kernel ${quoteName(artifact.kernel)} uses subgroup operations, which this WebGPU adapter (${this.name}) does not offer (no 'subgroups' feature)`,
      hint: "run it on the CPU device or on CUDA, or write the exchange with a shared array and syncthreads()",
    }]);
  }

  /** A WGSL error: a target limit the user hit (uniformity of barriers) or a gpuc bug. */
  private async shaderError(k: WebGPUKernel, v: ShaderVariant, message: string): Promise<Error> {
    const info = await v.module.getCompilationInfo();
    const first = info.messages.find((m) => m.type === "error");
    const loc = first ? k.artifact.runtime.location(k.layout.lines[first.lineNum - 1] ?? -1) : null;
    const text = first?.message ?? message;
    if (/uniform control flow/.test(text))
      return new CompileError([{
        kind: "unsupported-syntax", frames: [], location: loc ? { file: loc.file, line: loc.line, column: loc.column } : null,
        message: `syncthreads() is reached under a condition that may differ between threads, which WGSL rejects (WebGPU: ${text})`,
        hint: "every thread of a block must reach each syncthreads() under conditions WGSL can prove equal: no branch or loop exit around it that depends on the thread's index or on a value loaded from memory (a shared value that every thread reads at a constant index, outside any branch, is fine; so is an early return)",
      }]);
    return new InternalCompilerError(`the WGSL for kernel ${quoteName(k.artifact.kernel)} was rejected by WebGPU${loc ? ` at ${loc.file}:${loc.line}:${loc.column}` : ""}: ${text}`);
  }

  async launch(kernel: LoadedKernel, args: unknown[], grid: Grid): Promise<void> {
    this.check();
    const k = kernel as WebGPUKernel;
    const limits = this.gpu.limits;
    const per = grid.threads[0] * grid.threads[1] * grid.threads[2];
    if (per > limits.maxComputeInvocationsPerWorkgroup)
      throw new KernelError("launch-config", `${per} threads per block exceeds this WebGPU device's limit of ${limits.maxComputeInvocationsPerWorkgroup}`);
    // (WGSL code may rely on the target's limit: ir/passes/ranges.ts.)
    grid.blocks.forEach((b, i) => {
      const most = Math.min(limits.maxComputeWorkgroupsPerDimension, wgslInfo.maxBlocks![i]);
      if (b > most) throw new KernelError("launch-config", `blocks.${"xyz"[i]} = ${b} exceeds this WebGPU device's limit of ${most}`);
    });
    // One buffer passed to several array parameters (a device array, or the same host array,
    // passed twice), one of them written: a variant of the shader declares it once.
    // (A device array is its buffer's range: two views of one buffer are the same argument only
    // where their ranges are; overlapping different ranges with a write cannot be bound at all.)
    let v: ShaderVariant = k;
    const groups: { of: unknown; device: boolean; offset: number; length: number; bindings: WGSLLayout["bindings"] }[] = [];
    for (const b of k.layout.bindings) if (b.role === "param") {
      const a = args[b.index];
      const [of, offset, length] = a instanceof WebGPUArray ? [a.buffer, a.offset, a.length] : [a, 0, 0];
      const g = groups.find((x) => x.of === of && x.offset === offset && x.length === length);
      if (g) g.bindings.push(b); else groups.push({ of, device: a instanceof WebGPUArray, offset, length, bindings: [b] });
    }
    // Overlapping different ranges of one buffer, one of them written: WebGPU cannot bind them
    // together, so the whole buffer is bound once and each of them reads and writes it at its
    // own offset (`shift`: binding → element offset, in a variant of the shader).
    const shift = new Map<number, number>();
    const merge = new Map<number, number>();
    const overlapping = groups.filter((g, i) => g.device && groups.some((h, j) => j !== i && h.of === g.of
      && g.offset < h.offset + h.length && h.offset < g.offset + g.length && [...g.bindings, ...h.bindings].some((b) => !b.readOnly)));
    for (const buffer of new Set(overlapping.map((g) => g.of))) {
      const members = groups.filter((g) => g.of === buffer);
      const all = members.flatMap((g) => g.bindings);
      const kept = all.find((b) => !b.readOnly)!;
      // (Narrow arrays are not shifted in the code: their offset is a field of the params block.)
      for (const g of members) for (const b of g.bindings) { shift.set(b.binding, isNarrow((args[b.index] as WebGPUArray).elem) ? 0 : g.offset); if (b !== kept) merge.set(b.binding, kept.binding); }
    }
    for (const g of groups) {
      if (g.bindings.some((b) => shift.has(b.binding))) continue;
      const kept = g.bindings.find((b) => !b.readOnly);
      if (g.bindings.length > 1 && kept) for (const b of g.bindings) if (b !== kept) merge.set(b.binding, kept.binding);
    }
    if (merge.size || shift.size) {
      const vkey = [...merge].map(([r, kept]) => `${r}>${kept}`).join(",") + "|" + [...shift].map(([b, o]) => `${b}@${o}`).join(",");
      v = k.aliased.get(vkey) ?? this.variant(k.artifact, k.layout, merge, shift);
      k.aliased.set(vkey, v);
    }
    const sizes = !k.artifact.dynamicShared ? [] : sharedSizes(k.artifact, args, grid, this.staticShared(k), limits.maxComputeWorkgroupStorageSize, "WebGPU");
    const { pipeline, key: pipelineKey, check } = this.pipeline(k, v, grid.threads, sizes);
    const q = this.gpu.queue;

    // Parameters: scalars and array lengths in the uniform block.
    const fields = k.layout.fields;
    const params = new DataView(new ArrayBuffer(Math.ceil((fields.length * 4) / 16) * 16));
    const bindingOf = (param: number) => k.layout.bindings.find((b) => b.role === "param" && b.index === param)!;
    fields.forEach((f, i) => {
      const a = args[f.source.param];
      if (f.source.param < 0) return;
      if (f.source.length) params.setInt32(i * 4, (a as { length: number }).length, true);
      else if (f.source.offset) params.setUint32(i * 4, a instanceof WebGPUArray ? this.narrowBinding(a, shift.has(bindingOf(f.source.param).binding)).offset : 0, true);
      else if (f.type === "f32") params.setFloat32(i * 4, a as number, true);
      else if (f.type === "u32") params.setUint32(i * 4, typeof a === "boolean" ? Number(a) : (a as number) >>> 0, true);
      else params.setInt32(i * 4, a as number, true);
    });
    const paramBuf = this.take(params.byteLength, UNIFORM | COPY_DST);
    q.writeBuffer(paramBuf, 0, params.buffer);
    // A kernel without exception machinery (no state binding: every check proven away or off)
    // has no state to clear or read back.
    const usesState = k.layout.bindings.some((b) => b.role === "state");
    if (usesState) q.writeBuffer(this.state, 0, new Int32Array(STATE.PRINT_BASE));

    // Arrays: device arrays in place; host arrays uploaded, and copied back if the kernel writes them.
    const temps: { buf: GPUBuffer; host: HostArray; writes: boolean }[] = [];
    const entries: GPUBindGroupEntry[] = [];
    const enc = this.gpu.createCommandEncoder();
    // A view whose start WebGPU cannot bind at (offsets are multiples of
    // minStorageBufferOffsetAlignment) runs in a temporary copy of its range, copied back after.
    const staged: { view: WebGPUArray; buf: GPUBuffer; writes: boolean }[] = [];
    const align = limits.minStorageBufferOffsetAlignment;
    for (const b of k.layout.bindings) {
      if (v.merged.has(b.binding)) continue;
      if (b.role === "record") {
        entries.push({ binding: b.binding, resource: k.record!.view });
        continue;
      }
      let buffer: GPUBuffer;
      let range: { offset: number; size: number } | null = null;
      if (b.role === "params") buffer = paramBuf;
      else if (b.role === "state") buffer = this.state;
      else if (b.role === "table") buffer = k.tables[b.index];
      else {
        const a = args[b.index];
        const same = temps.find((t) => t.host === a);
        if (a instanceof WebGPUArray && isNarrow(a.elem)) { buffer = a.buffer; range = this.narrowBinding(a, shift.has(b.binding)).range; }
        else if (a instanceof WebGPUArray && (shift.has(b.binding) || (a.offset === 0 && a.length * 4 >= a.buffer.size - 3))) buffer = a.buffer;
        else if (a instanceof WebGPUArray && (a.offset * 4) % align === 0 && a.length > 0) { buffer = a.buffer; range = { offset: a.offset * 4, size: a.length * 4 }; }
        else if (a instanceof WebGPUArray) {
          const s = staged.find((x) => x.view.buffer === a.buffer && x.view.offset === a.offset && x.view.length === a.length);
          if (s) { buffer = s.buf; s.writes ||= !b.readOnly; }
          else {
            buffer = this.take(align4(a.length * 4), STORAGE | COPY_SRC | COPY_DST);
            if (a.length) enc.copyBufferToBuffer(a.buffer, a.offset * 4, buffer, 0, a.length * 4);
            staged.push({ view: a, buf: buffer, writes: !b.readOnly });
          }
        }
        else if (same) { buffer = same.buf; same.writes ||= !b.readOnly; }
        else {
          const host = a as HostArray;
          if (host instanceof Float64Array) throw new KernelError("launch", "the WebGPU device has no f64: pass a Float32Array");
          buffer = this.take(align4(host.byteLength), STORAGE | COPY_SRC | COPY_DST);
          if (host.byteLength) writeHost(q, buffer, 0, host);
          temps.push({ buf: buffer, host, writes: !b.readOnly });
        }
      }
      entries.push({ binding: b.binding, resource: range ? { buffer, ...range } : { buffer } });
    }
    // Validation errors of this launch (a buffer over a limit, …) become a KernelError, not a
    // message on the console and a silently wrong result.
    this.gpu.pushErrorScope("validation");
    this.gpu.pushErrorScope("out-of-memory");
    const bindGroup = this.gpu.createBindGroup({ layout: v.bindGroupLayout, entries });
    const pass = enc.beginComputePass();
    pass.setPipeline(pipeline);
    pass.setBindGroup(0, bindGroup);
    pass.dispatchWorkgroups(grid.blocks[0], grid.blocks[1], grid.blocks[2]);
    pass.end();
    for (const s of staged) if (s.writes && s.view.length) enc.copyBufferToBuffer(s.buf, 0, s.view.buffer, s.view.offset * 4, s.view.length * 4);
    // Read back the state header and the written host arrays in one submission.
    const reads: { staging: GPUBuffer; bytes: number; done: (data: ArrayBuffer) => void }[] = [];
    const header = new Int32Array(STATE.PRINT_BASE);
    if (usesState) {
      // The record's texels land after the header in the same staging buffer: one read.
      const record = k.record;
      const read = this.copyOut(enc, this.state, STATE.PRINT_BASE * 4, (d) => {
        header.set(new Int32Array(d, 0, STATE.PRINT_BASE));
        if (record && header[STATE.CLAIM] !== 0) placeRecord(header, new Int32Array(d, STATE.PRINT_BASE * 4, RECORD_WORDS));
      }, 0, record ? RECORD_WORDS * 4 : 0);
      if (record) enc.copyTextureToBuffer({ texture: record.texture }, { buffer: read.staging, offset: STATE.PRINT_BASE * 4 }, [RECORD_TEXELS]);
      reads.push(read);
    }
    for (const t of temps) {
      if (!t.writes || !t.host.byteLength) continue;
      reads.push(this.copyOut(enc, t.buf, t.host.byteLength, (d) => new Uint8Array(t.host.buffer, t.host.byteOffset, t.host.byteLength).set(new Uint8Array(d, 0, t.host.byteLength))));
    }
    q.submit([enc.finish()]);
    // The error scopes and the read-backs are awaited together: one wait for the device, not three.
    const popped = Promise.all([this.gpu.popErrorScope(), this.gpu.popErrorScope()]);
    // With nothing to read back, the launch still ends when the kernel has run.
    const mapped = reads.length ? Promise.allSettled(reads.map((r) => r.staging.mapAsync(1 /* READ */))) : q.onSubmittedWorkDone().then(() => []);
    const [pipelineError, [oom, invalid], maps] = await Promise.all([check, popped, mapped]);
    const failed = oom ?? invalid;
    if (pipelineError || failed || maps.some((m) => m.status === "rejected")) {
      for (const r of reads) { if (r.staging.mapState === "mapped") r.staging.unmap(); this.give(r.staging); }
      if (pipelineError) { v.pipelines.delete(pipelineKey); throw await this.shaderError(k, v, pipelineError.message); }
      const why = failed?.message ?? String((maps.find((m) => m.status === "rejected") as PromiseRejectedResult).reason);
      throw new KernelError("launch", `WebGPU rejected the launch of kernel ${quoteName(k.artifact.kernel)}: ${why.trim().split("\n")[0]}`);
    }
    this.takeMapped(reads);
    for (const t of temps) this.give(t.buf);
    for (const s of staged) this.give(s.buf);
    this.give(paramBuf);
    if (usesState) await this.report(k, header);
  }

  /** Decode the kernel state: prints first (they happened before any exception was raised), then the exception. */
  private async report(k: WebGPUKernel, header: Int32Array): Promise<void> {
    const cursor = header[STATE.PRINT_CURSOR], dropped = header[STATE.PRINT_DROPPED];
    if (cursor > 0 || dropped > 0) {
      const words = Math.min(STATE.PRINT_BASE + cursor, this.stateWords);
      const full = new Int32Array(words);
      await this.readInto(this.state, full);
      const state = new Int32Array(this.stateWords);
      state.set(full);
      for (const line of decodePrints(state, k.artifact.runtime)) this.print(line);
    }
    const err = decodeException(header, k.artifact.runtime, k.artifact.kernel);
    if (err) throw err;
  }

  /** A staging buffer for `bytes` of `src` from `at` (and `extra` bytes after them, for the caller to copy into). */
  private copyOut(enc: GPUCommandEncoder, src: GPUBuffer, bytes: number, done: (d: ArrayBuffer) => void, at = 0, extra = 0) {
    const size = align4(bytes);
    const staging = this.take(size + extra, MAP_READ | COPY_DST);
    enc.copyBufferToBuffer(src, at, staging, 0, size);
    return { staging, bytes: size + extra, done };
  }

  private recordTexture(): { texture: GPUTexture; view: GPUTextureView } {
    const texture = this.gpu.createTexture({ size: [RECORD_TEXELS], dimension: "1d", format: RECORD_FORMAT, usage: TEXTURE_STORAGE | TEXTURE_COPY_SRC });
    return { texture, view: texture.createView() };
  }

  private async finish(reads: { staging: GPUBuffer; done: (data: ArrayBuffer) => void }[]): Promise<void> {
    await Promise.all(reads.map((r) => r.staging.mapAsync(1 /* READ */)));
    this.takeMapped(reads);
  }

  /** Hand each mapped staging buffer's contents to its reader; the buffers go back to the pool. */
  private takeMapped(reads: { staging: GPUBuffer; done: (data: ArrayBuffer) => void }[]): void {
    for (const r of reads) {
      r.done(r.staging.getMappedRange().slice(0));
      r.staging.unmap();
      this.give(r.staging);
    }
  }

  updateTable(kernel: LoadedKernel, name: string, values: HostArray): void {
    this.check();
    const k = kernel as WebGPUKernel;
    if (values.byteLength) writeHost(this.gpu.queue, k.tables[tableSite(k, name, values)], 0, values);
    else tableSite(k, name, values);
  }

  /**
   * Where a narrow array argument is bound: from the last byte offset WebGPU can bind at
   * (minStorageBufferOffsetAlignment) at or before its start, or the whole buffer (`whole`, or
   * when that is its start); `offset` is where it starts from there, in elements (the kernel
   * reads it from its params block).
   */
  private narrowBinding(a: WebGPUArray, whole: boolean): { range: { offset: number; size: number } | null; offset: number } {
    const size = elemBytes(a.elem), at = a.offset * size;
    const base = whole ? 0 : at - (at % this.gpu.limits.minStorageBufferOffsetAlignment);
    if (base === 0 || base >= a.buffer.size) return { range: null, offset: a.offset };
    return { range: { offset: base, size: a.buffer.size - base }, offset: (at - base) / size };
  }

  /** The byte copy pipeline (BYTE_COPY_WGSL), made on first use. */
  private byteCopy: GPUComputePipeline | null = null;

  /** Encode a copy of `bytes` bytes between two different buffers at any byte offsets. */
  private copyBytes(enc: GPUCommandEncoder, src: GPUBuffer, srcAt: number, dst: GPUBuffer, dstAt: number, bytes: number, done: GPUBuffer[]): void {
    if (srcAt % 4 === 0 && dstAt % 4 === 0 && bytes % 4 === 0) { enc.copyBufferToBuffer(src, srcAt, dst, dstAt, bytes); return; }
    this.byteCopy ??= this.gpu.createComputePipeline({ layout: "auto", compute: { module: this.gpu.createShaderModule({ code: BYTE_COPY_WGSL, label: "gpuc byte copy" }), entryPoint: "main" } });
    const words = ((dstAt + bytes + 3) >> 2) - (dstAt >> 2);
    const groups = Math.min(Math.ceil(words / 64), this.gpu.limits.maxComputeWorkgroupsPerDimension);
    const uniform = this.take(16, UNIFORM | COPY_DST);
    this.gpu.queue.writeBuffer(uniform, 0, new Uint32Array([dstAt, srcAt, bytes, groups * 64]));
    done.push(uniform);
    const pass = enc.beginComputePass();
    pass.setPipeline(this.byteCopy);
    pass.setBindGroup(0, this.gpu.createBindGroup({ layout: this.byteCopy.getBindGroupLayout(0), entries: [
      { binding: 0, resource: { buffer: dst } }, { binding: 1, resource: { buffer: src } }, { binding: 2, resource: { buffer: uniform } },
    ] }));
    pass.dispatchWorkgroups(groups);
    pass.end();
  }

  /** Write a host array into a buffer at byte offset `at` (a narrow view's may be inside a word: through a temporary and the byte copy). */
  writeAt(buffer: GPUBuffer, at: number, data: HostArray): void {
    if (!data.byteLength) return;
    if (at % 4 === 0 && data.byteLength % 4 === 0) { writeHost(this.gpu.queue, buffer, at, data); return; }
    const tmp = this.take(Math.ceil(data.byteLength / 4) * 4, STORAGE | COPY_SRC | COPY_DST);
    writeHost(this.gpu.queue, tmp, 0, data);
    const enc = this.gpu.createCommandEncoder();
    const done = [tmp];
    this.copyBytes(enc, tmp, 0, buffer, at, data.byteLength, done);
    this.gpu.queue.submit([enc.finish()]);
    for (const b of done) this.give(b);
  }

  async copy(dst: DeviceArray, src: DeviceArray, range?: CopyRange): Promise<void> {
    const { srcOffset, dstOffset, length } = copyExtent(this, dst, src, range);
    if (!length) return;
    const size = elemBytes(src.elem);
    const s = (src as WebGPUArray).buffer, d = (dst as WebGPUArray).buffer, bytes = length * size;
    const so = (srcOffset + (src as WebGPUArray).offset) * size, dO = (dstOffset + (dst as WebGPUArray).offset) * size;
    const enc = this.gpu.createCommandEncoder();
    if (so % 4 || dO % 4 || bytes % 4) {
      // Inside words (8- and 16-bit elements): the words that hold the source (first into a
      // temporary when it is the destination's buffer), then the byte copy.
      const done: GPUBuffer[] = [];
      let from = s, at = so;
      if (s === d) {
        const lo = so - (so % 4), words = Math.ceil((so + bytes) / 4) * 4 - lo;
        from = this.take(words, STORAGE | COPY_SRC | COPY_DST);
        done.push(from);
        enc.copyBufferToBuffer(s, lo, from, 0, words);
        at = so - lo;
      }
      this.copyBytes(enc, from, at, d, dO, bytes, done);
      this.gpu.queue.submit([enc.finish()]);
      for (const b of done) this.give(b);
      return;
    }
    // WebGPU copies between two different buffers only: a copy within one goes through a temporary.
    if (s === d) {
      const tmp = this.take(align4(bytes), STORAGE | COPY_SRC | COPY_DST);
      enc.copyBufferToBuffer(s, so, tmp, 0, bytes);
      enc.copyBufferToBuffer(tmp, 0, d, dO, bytes);
      this.gpu.queue.submit([enc.finish()]);
      this.give(tmp);
      return;
    }
    enc.copyBufferToBuffer(s, so, d, dO, bytes);
    this.gpu.queue.submit([enc.finish()]);
  }

  /** Copy a buffer's bytes from `at` into a host array. */
  async readInto(src: GPUBuffer, out: HostArray, at = 0): Promise<void> {
    if (!out.byteLength) return;
    const enc = this.gpu.createCommandEncoder();
    // From the word that holds byte `at` (a narrow view may start inside one).
    const skip = at % 4;
    const r = this.copyOut(enc, src, skip + out.byteLength, (d) => new Uint8Array(out.buffer, out.byteOffset, out.byteLength).set(new Uint8Array(d, skip, out.byteLength)), at - skip);
    this.gpu.queue.submit([enc.finish()]);
    await this.finish([r]);
  }

  private take(size: number, usage: number): GPUBuffer {
    const key = size * 1024 + usage;
    const free = this.pool.get(key);
    return free?.pop() ?? this.gpu.createBuffer({ size, usage });
  }

  private give(buf: GPUBuffer): void {
    const key = buf.size * 1024 + buf.usage;
    let free = this.pool.get(key);
    if (!free) { free = []; this.pool.set(key, free); }
    if (free.length < 4) free.push(buf); else buf.destroy();
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    for (const list of this.pool.values()) for (const b of list) b.destroy();
    this.pool.clear();
    this.gpu.destroy();
    releaseDawn(this.instance);
    this.instance = null;
  }

  private check(): void {
    if (this.closed) throw new KernelError("device-unavailable", "this WebGPU device was closed");
  }
}
