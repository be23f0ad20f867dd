// kernel(): the public kernel object — its options, the typing of its arguments, compile() and
// launch(). Each specialization is a compile job (compiler/job.ts: target, features, argument
// types, owner) that the kernel's specializer (specializer.ts) finds or compiles: its own table
// (a Map lookup on the job's key: all a launch does once warm); a loaded kernel image or the disk
// cache (an entry whose owner, kernel source and dependencies all match is revived without
// compiling — no parser, inference or back end is even loaded); else the compiler
// (compiler/compile.ts, imported on first need), whose persistable output is stored for next time.

import { CompileError, KernelError } from "./errors.js";
import { callerLocation, callerSourceFile } from "./frontend/caller.js";
import { DeviceArray, hostArrayElement, normalizeGrid, type Device, type HostArray, type LaunchConfig, type LoadedKernel } from "./devices/device.js";
import { describeValue, tableElement } from "./typed-arrays.js";
import { advanceWorld } from "./registry.js";
import { type Scalar, type Type, parseTypeName } from "./ir/types.js";
import type { DumpStage } from "./compiler/pipeline.js";
import type { Artifact, TargetFeatures } from "./targets/target.js";
import { TARGET_NAMES, loadTarget, targetInfo } from "./targets/index.js";
import { RELOCATION_STRATEGIES, type RelocationStrategy } from "./reloc/manifest.js";
import type { LoweredKernel } from "./compiler/compile.js";
import { compileJob, jobKeyPrefix, type CompileJob } from "./compiler/job.js";
import type { Signature } from "./cache/entry.js";
import { sourceFingerprint } from "./cache/fingerprint.js";
import { anyStore, findSignature, warmUp } from "./cache/persistent.js";
import { whileOpening } from "./devices/index.js";
import { generating } from "./cache/image.js";
import { Specializer, compiler } from "./specializer.js";

// While a device opens, the stores its first launch reads get ready (persistent.ts, warmUp).
whileOpening(warmUp);

export interface KernelOptions {
  /** Helper functions and captured constants the kernel may name. */
  scope?: Record<string, unknown>;
  /** Parameter types by name, e.g. `{ a: "f32", n: "i32" }`. */
  types?: Record<string, string>;
  name?: string;
  /** Check array accesses against their length (default true). */
  boundsCheck?: boolean;
  /** Device exceptions: 0 — only that one happened; 1 (default) — message and location; 2 — also the call chain. */
  debugLevel?: 0 | 1 | 2;
  /** Faster, less exact f32 division and square root on GPU targets that have them (PTX). */
  fastMath?: boolean;
  /** Launch bounds: the most threads per block any launch uses (PTX `.maxntid`); a bigger launch fails. */
  maxThreads?: number | readonly number[];
  /** Launch bounds: the exact block size of every launch (PTX `.reqntid`); another size fails. */
  requiredThreads?: number | readonly number[];
  /** How compiled code reaches constant tables (`bake`, `patch`, `table`; default: the target's). */
  relocation?: RelocationStrategy;
  /**
   * Scope tables whose values the host replaces between launches with `setTable` (the
   * `cudaMemcpyToSymbol` pattern): the code always reads them from the table (a read at a
   * constant index is not folded into a constant), and a new value reaches every device's later
   * launches without recompiling.
   */
  rewritable?: readonly string[];
}

const KERNEL_OPTIONS = ["scope", "types", "name", "boundsCheck", "debugLevel", "fastMath", "maxThreads", "requiredThreads", "relocation", "rewritable"];

/** Options a kernel cannot use are an invalid-argument error at kernel(), not a silent default. */
function checkKernelOptions(o: KernelOptions, name: string): void {
  const bad = (what: string) => CompileError.single("invalid-argument", `kernel '${name}': ${what}`);
  if (typeof o !== "object" || o === null) throw bad(`options must be an object, got ${describeValue(o)}`);
  for (const key of Object.keys(o))
    if (!KERNEL_OPTIONS.includes(key)) throw bad(`unknown option '${key}' (options: ${KERNEL_OPTIONS.join(", ")})`);
  for (const key of ["boundsCheck", "fastMath"] as const)
    if (o[key] !== undefined && typeof o[key] !== "boolean") throw bad(`${key} must be true or false, got ${JSON.stringify(o[key])}`);
  if (o.debugLevel !== undefined && o.debugLevel !== 0 && o.debugLevel !== 1 && o.debugLevel !== 2) throw bad(`debugLevel must be 0, 1 or 2, got ${JSON.stringify(o.debugLevel)}`);
  if (o.name !== undefined && (typeof o.name !== "string" || !o.name)) throw bad(`name must be a non-empty string, got ${JSON.stringify(o.name)}`);
  for (const key of ["scope", "types"] as const)
    if (o[key] !== undefined && (typeof o[key] !== "object" || o[key] === null)) throw bad(`${key} must be an object, got ${describeValue(o[key])}`);
  if (o.rewritable !== undefined) {
    if (!Array.isArray(o.rewritable)) throw bad(`rewritable must be an array of scope names, got ${describeValue(o.rewritable)}`);
    for (const n of o.rewritable) {
      const v = typeof n === "string" && o.scope && Object.prototype.hasOwnProperty.call(o.scope, n) ? o.scope[n] : undefined;
      if (!tableElement(v)) throw bad(`rewritable: '${String(n)}' is not a typed array of the kernel's scope (Float32Array, Float64Array, Int32Array or Uint32Array)`);
    }
  }
}

export interface CompileOptions {
  target: string;
  /** The target's variant, e.g. `{ arch: "sm_90" }` for PTX. */
  features?: TargetFeatures;
  /** Example arguments to specialize on… */
  args?: unknown[];
  /** …or their types, in parameter order (["f32", "f32[]"]) or by name ({ a: "f32" }). */
  types?: string[] | Record<string, string>;
  /** Print the IR after these stages. */
  dump?: DumpStage[];
  /** Where dumps go (default: stderr). */
  dumpSink?: (stage: DumpStage, text: string) => void;
  /** Run inlining, folding and dead-code elimination (default true). */
  optimize?: boolean;
}

/**
 * Called with every specialization a kernel compiles (internal: the tests use it to assemble
 * each kernel they run with ptxas too). Not part of the public API.
 */
export const specializationHooks = new Set<(kernel: Kernel, target: string, types: string[]) => void>();

export class Kernel {
  readonly name: string;
  private source: LoweredKernel | null = null;
  /** Parameter names and declared types: from lowering, or from a cache without parsing. */
  private signature: Signature | null = null;
  private fingerprintOf: Promise<string> | null = null;
  private readonly specs: Specializer;
  /** The scope names the kernel's code resolved, with the values they had then. */
  private readonly scopeDeps = new Map<string, unknown>();
  /** The .ts file kernel() was called from, when a loader transpiled it (for its annotations). */
  private readonly tsFile: string | null;
  /** Values `setTable` gave rewritable tables; the version counts the calls (0: none yet). */
  private readonly tableValues = new Map<string, HostArray>();
  private tableVersion = 0;
  /** The version each loaded instance's tables were brought to. */
  private readonly syncedVersion = new WeakMap<LoadedKernel, number>();

  constructor(private readonly fn: Function, private readonly options: KernelOptions = {}) {
    if (typeof fn !== "function") throw CompileError.single("unsupported-value", `kernel() needs a function, got ${describeValue(fn)}`);
    this.name = options.name ?? (fn.name || "kernel");
    checkKernelOptions(options, this.name);
    this.tsFile = callerSourceFile();
    this.specs = new Specializer({
      name: this.name,
      scope: options.scope ?? {},
      scopeDeps: this.scopeDeps,
      fingerprint: () => this.fingerprint(),
      lowered: () => this.lowered(),
      signature: () => this.signature!,
      compiled: (job) => { for (const hook of specializationHooks) hook(this, job.target, [...job.types]); },
    });
  }

  /** The compile job of a specialization (compiler/job.ts): this kernel's parameters with a target, its features and argument types. */
  private job(target: string, features: TargetFeatures, types: readonly string[]): CompileJob {
    return compileJob({ kernel: this.name, target, features, types, ...this.params(), forImage: generating() });
  }

  /** Compile for a target without launching; returns the artifact (code, entry, parameter layout). */
  async compile(opts: CompileOptions): Promise<Artifact> {
    if (typeof opts !== "object" || opts === null)
      throw CompileError.single("invalid-argument", `compile() needs options: { target, types } or { target, args } (targets: ${TARGET_NAMES.join(", ")})`);
    const info = targetInfo(opts.target);
    if (!info)
      throw CompileError.single("unknown-target", `unknown target '${opts?.target}' (available: ${TARGET_NAMES.join(", ")})`);
    this.revalidateScope();
    await this.ensureSignature();
    let types: string[];
    if (opts.types) types = this.typesFromNames(opts.types);
    else if (opts.args) types = this.typesOf(opts.args);
    else throw CompileError.single("invalid-argument", `compile() needs 'args' or 'types' to specialize '${this.name}' on`);
    if (opts.features?.arch !== undefined && !info.arches?.includes(opts.features.arch))
      throw CompileError.single("unknown-target", `'${opts.features.arch}' is not an architecture of target '${opts.target}'${info.arches ? ` (available: ${info.arches.join(", ")})` : ""}`);
    const job = this.job(opts.target, this.features(opts.features), types);
    if (opts.dump?.length || opts.optimize === false) {
      const sink = opts.dumpSink ?? ((stage: DumpStage, text: string) => console.error(`;; ---- IR after ${stage} ----\n${text}`));
      const [c, backEnd, src] = await Promise.all([compiler(), loadTarget(opts.target), this.lowered()]);
      return c.compileLowered(src, job, backEnd!, {
        optimize: opts.optimize ?? true,
        dump: opts.dump?.length ? { stages: new Set(opts.dump), sink } : undefined,
      }).artifact;
    }
    return (await this.specs.get(job)).artifact;
  }

  /** Launch on a device. Host typed arrays are copied in and back; device arrays stay on the device. */
  async launch(dev: Device, cfg: LaunchConfig, ...args: unknown[]): Promise<void> {
    // The launch configuration forgotten (an array where it goes): said as such, at the call.
    if (cfg === null || typeof cfg !== "object" || ArrayBuffer.isView(cfg) || cfg instanceof DeviceArray || !("blocks" in cfg || "threads" in cfg)) {
      const where = callerLocation();
      throw new KernelError("launch", `${where ? `${where.file}:${where.line}:${where.column}: ` : ""}kernel '${this.name}': launch(device, { blocks, threads }, ...arguments) takes the launch configuration second, got ${describeValue(cfg)}`, { location: where });
    }
    if (this.scopeDeps.size) this.revalidateScope();
    if (!this.signature) await this.ensureSignature();
    const { features, keyPrefix } = this.deviceFeatures(dev);
    const types = this.typesOf(args);
    // The warm path: one Map lookup; the slow path (first launch, redefinitions) makes the job.
    let spec = this.specs.current(keyPrefix + types.join(","));
    let job: CompileJob | undefined;
    if (!spec) spec = await this.specs.get((job = this.job(dev.target, features, types)));
    let k = spec.loaded.get(dev);
    if (!k) ({ spec, k } = await this.specs.loadOn(dev, (job ??= this.job(dev.target, features, types)), spec));
    const grid = normalizeGrid(cfg);
    this.checkLaunchBounds(grid.threads);
    for (let i = 0; i < args.length; i++) {
      const a = args[i];
      if (a instanceof DeviceArray) {
        if (a.device !== dev) throw new KernelError("launch", `argument '${this.signature!.paramNames[i]}' is an array on another device (${a.device.kind})`);
      } else if (typeof a === "number") {
        args[i] = coerceScalar(a, k.artifact.params[i].type as Scalar);
      }
    }
    if (this.tableVersion) this.syncTables(dev, k);
    try { await dev.launch(k, args, grid); }
    catch (e) {
      // Revived code that the device rejects is healed (specializer.ts) and launched again.
      const healed = await this.specs.healLaunch(dev, () => job ?? this.job(dev.target, features, types), spec, e);
      if (this.tableVersion) this.syncTables(dev, healed);
      await dev.launch(healed, args, grid);
    }
  }

  /**
   * Replace the values of a rewritable scope table (the `rewritable` option) for every later
   * launch of this kernel, on every device, without recompiling — the `cudaMemcpyToSymbol`
   * pattern. `values` has the table's element type and length; it is copied, and the array in
   * `scope` is left as it is. Changing that array in place changes nothing (captured tables are
   * constants until `setTable` replaces them).
   */
  setTable(name: string, values: HostArray): void {
    const scope = this.options.scope;
    if (!this.options.rewritable?.includes(name))
      throw new KernelError("launch", `kernel '${this.name}': '${name}' is not a rewritable table (name it in the kernel's rewritable option: kernel(fn, { scope, rewritable: ["${name}"] }))`);
    const current = scope![name] as HostArray;
    if (hostArrayElement(values) !== hostArrayElement(current) || values.length !== current.length)
      throw new KernelError("launch", `kernel '${this.name}': table '${name}' is ${current.constructor.name}(${current.length}); setTable got ${hostArrayElement(values) ? `${values.constructor.name}(${values.length})` : describeValue(values)}`);
    this.tableValues.set(name, values.slice());
    this.tableVersion++;
  }

  /** Bring a loaded instance's rewritable tables up to the last `setTable` (once per instance and version). */
  private syncTables(dev: Device, k: LoadedKernel): void {
    if (this.syncedVersion.get(k) === this.tableVersion) return;
    const sites = new Set(k.artifact.manifest.sites.map((s) => s.name));
    for (const [name, values] of this.tableValues) if (sites.has(name)) dev.updateTable(k, name, values);
    this.syncedVersion.set(k, this.tableVersion);
  }

  private params(): { boundsCheck: boolean; debugLevel: 0 | 1 | 2 } {
    return { boundsCheck: this.options.boundsCheck ?? true, debugLevel: this.options.debugLevel ?? 1 };
  }

  private fingerprint(): Promise<string> {
    return (this.fingerprintOf ??= sourceFingerprint(this.fn, this.tsFile, this.name, this.options.types, this.options.rewritable));
  }

  /**
   * A scope name now bound to another value (a redefined helper, a changed constant) makes the
   * kernel's code stale: advance the world, lower the kernel again, recompile on next use.
   */
  private revalidateScope(): void {
    const scope = this.options.scope;
    if (!scope) return;
    for (const [name, value] of this.scopeDeps) {
      if (scope[name] !== value) {
        advanceWorld(`scope:${name}`);
        this.source = null;
        this.scopeDeps.clear();
        this.specs.clear();
        return;
      }
    }
  }

  /** The kernel's own features (fast math, launch bounds) over the device's or the caller's (architecture). */
  private features(base: TargetFeatures | undefined): TargetFeatures {
    const o = this.options;
    const out: TargetFeatures = { ...base };
    if (o.fastMath) out.fastMath = true;
    if (o.maxThreads !== undefined) out.maxThreads = dims3(o.maxThreads, "maxThreads", this.name);
    if (o.requiredThreads !== undefined) out.requiredThreads = dims3(o.requiredThreads, "requiredThreads", this.name);
    if (o.relocation !== undefined) {
      if (!RELOCATION_STRATEGIES.includes(o.relocation))
        throw CompileError.single("invalid-argument", `kernel '${this.name}': relocation must be one of ${RELOCATION_STRATEGIES.join(", ")}, got ${JSON.stringify(o.relocation)}`);
      out.relocation = o.relocation;
    }
    return out;
  }

  /** Per device, computed once: the device's features (its architecture) with the kernel's. */
  private readonly deviceFeatureCache = new WeakMap<Device, { features: TargetFeatures; keyPrefix: string }>();
  private deviceFeatures(dev: Device): { features: TargetFeatures; keyPrefix: string } {
    let f = this.deviceFeatureCache.get(dev);
    if (!f) {
      const features = this.features(dev.features);
      f = { features, keyPrefix: jobKeyPrefix(dev.target, features) };
      this.deviceFeatureCache.set(dev, f);
    }
    return f;
  }

  /** A launch outside the kernel's declared launch bounds fails before it reaches the device. */
  private checkLaunchBounds(threads: [number, number, number]): void {
    const { maxThreads, requiredThreads } = this.options;
    if (requiredThreads !== undefined) {
      const want = dims3(requiredThreads, "requiredThreads", this.name);
      if (want.some((w, i) => w !== threads[i]))
        throw new KernelError("launch", `kernel '${this.name}' was compiled for blocks of exactly ${want.join("×")} threads (requiredThreads), launched with ${threads.join("×")}`);
    }
    if (maxThreads !== undefined) {
      const max = dims3(maxThreads, "maxThreads", this.name);
      if (threads[0] * threads[1] * threads[2] > max[0] * max[1] * max[2] || threads.some((t, i) => t > max[i]))
        throw new KernelError("launch", `kernel '${this.name}' was compiled for blocks of at most ${max.join("×")} threads (maxThreads), launched with ${threads.join("×")}`);
    }
  }

  /** Parse and lower the kernel once; lowering errors surface when it is first compiled. */
  private async lowered(): Promise<LoweredKernel> {
    if (this.source) return this.source;
    const c = await compiler();
    this.source = c.lowerKernel(this.fn, this.name, this.options.scope, this.options.types, this.tsFile, this.scopeDeps, this.options.rewritable ? new Set(this.options.rewritable) : undefined);
    this.signature = { paramNames: this.source.paramNames, declared: this.source.declared.map((t) => (t ? c.typeNameOf(t) : null)) };
    return this.source;
  }

  /** Parameter names and declared types: from a cache entry's record (no parsing) or by lowering. */
  private async ensureSignature(): Promise<Signature> {
    if (this.signature) return this.signature;
    const sig = (await anyStore()) ? await findSignature(await this.fingerprint()) : null;
    if (sig) { this.signature = sig; return sig; }
    await this.lowered();
    return this.signature!;
  }

  /** The type name of each argument: declared types first, then the value (DESIGN §1). */
  private typesOf(args: unknown[]): string[] {
    const sig = this.signature!;
    try {
      if (args.length !== sig.paramNames.length)
        throw CompileError.single("invalid-argument", `kernel '${this.name}' takes ${sig.paramNames.length} argument${sig.paramNames.length === 1 ? "" : "s"} (${sig.paramNames.join(", ")}), got ${args.length}`);
      const out: string[] = new Array(args.length);
      for (let i = 0; i < args.length; i++) out[i] = argumentType(args[i], sig.declared[i], sig.paramNames[i], this.name);
      return out;
    } catch (e) {
      // A mistake in the call's arguments: said where the user's code made the call.
      if (e instanceof CompileError && !e.location) throw CompileError.single(e.kind, e.diagnostics[0].message, callerLocation(), e.diagnostics[0].hint);
      throw e;
    }
  }

  private typesFromNames(types: string[] | Record<string, string>): string[] {
    const sig = this.signature!;
    const names = Array.isArray(types) ? types : sig.paramNames.map((n, i) => types[n] ?? sig.declared[i] ?? undefined);
    if (names.length !== sig.paramNames.length)
      throw CompileError.single("invalid-argument", `kernel '${this.name}' takes ${sig.paramNames.length} parameters (${sig.paramNames.join(", ")}), got ${names.length} types`);
    return names.map((n, i) => {
      const t = n === undefined ? null : parseTypeName(n);
      if (!t) throw CompileError.single("invalid-argument", `parameter '${sig.paramNames[i]}' of '${this.name}' needs a type (bool, i32, u32, f32, f64, or an array such as f32[])${n ? `, got '${n}'` : ""}`);
      return typeName(t);
    });
  }
}

function typeName(t: Type): string {
  return t.kind === "array" ? `${t.elem}[]` : (t as { scalar: Scalar }).scalar;
}

/** A launch-bounds option as three positive integer dimensions. */
function dims3(v: number | readonly number[], what: string, kernel: string): [number, number, number] {
  const list = typeof v === "number" ? [v] : Array.isArray(v) ? v : [];
  if (list.length < 1 || list.length > 3 || list.some((x) => !Number.isInteger(x) || x < 1) || list.reduce((a, b) => a * b, 1) > 1024)
    throw CompileError.single("invalid-argument", `kernel '${kernel}': ${what} must be 1 to 3 positive integers with a product of at most 1024, got ${JSON.stringify(v)}`);
  return [list[0], list[1] ?? 1, list[2] ?? 1];
}

/** The type name of an argument, given the parameter's declared type name (or null). */
function argumentType(a: unknown, declared: string | null, param: string, kernel: string): string {
  if (typeof a === "number") {
    if (declared) {
      if (declared.endsWith("[]")) throw argError(param, kernel, `is declared ${declared} but got the number ${a}`);
      if ((declared === "i32" && (a | 0) !== a) || (declared === "u32" && a >>> 0 !== a))
        throw argError(param, kernel, `is declared ${declared} but got ${a}, which is not a ${declared} value`);
      return declared;
    }
    return (a | 0) === a && !Object.is(a, -0) ? "i32" : "f32";
  }
  if (typeof a === "boolean") {
    if (declared && declared !== "bool") throw argError(param, kernel, `is declared ${declared} but got a boolean`);
    return "bool";
  }
  const elem = a instanceof DeviceArray ? a.elem : hostArrayElement(a);
  if (elem) {
    if (declared && declared !== `${elem}[]`)
      throw argError(param, kernel, `is declared ${declared} but got ${a instanceof DeviceArray ? `a device array of ${elem}` : describeValue(a)}`);
    return `${elem}[]`;
  }
  throw argError(param, kernel, `got ${describeValue(a)}; kernels take numbers, booleans, typed arrays (Float32Array, Float64Array, Int32Array, Uint32Array, Int8Array, Uint8Array, Uint8ClampedArray, Int16Array, Uint16Array) or device arrays`);
}

function argError(param: string, kernel: string, what: string): CompileError {
  return CompileError.single("invalid-argument", `argument '${param}' of kernel '${kernel}' ${what}`);
}

function coerceScalar(v: number, t: Scalar): number | boolean {
  switch (t) {
    case "f32": return Math.fround(v);
    case "i32": return v | 0;
    case "u32": return v >>> 0;
    case "bool": return v !== 0;
    default: return v;
  }
}

/** Define a kernel (DESIGN §1). */
export function kernel(fn: Function, options?: KernelOptions): Kernel {
  return new Kernel(fn, options);
}
