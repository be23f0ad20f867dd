// kernel(): a kernel object that specializes on argument types, compiles through the pipeline,
// caches each specialization, and launches on a device.

import { CompileError, KernelError } from "./errors.js";
import { lowerFunction } from "./frontend/lower.js";
import { applyOriginalAnnotations, callerSourceFile } from "./frontend/annotations.js";
import { parseFunctionSource } from "./frontend/parse.js";
import type { TypeName, UFunction } from "./frontend/uir.js";
import { DeviceArray, hostArrayElement, normalizeGrid, type Device, type LaunchConfig, type LoadedKernel } from "./devices/device.js";
import { describeValue } from "./typed-arrays.js";
import { scopeEnvironment } from "./frontend/scope.js";
import { advanceWorld, changedSince, currentWorld } from "./infer/overlays.js";
import { type Scalar, type Type, parseTypeName } from "./ir/types.js";
import { compileModule, defaultInline, type CompilerConfig, type DumpStage } from "./pipeline.js";
import { TARGETS, type Artifact } from "./targets/index.js";
import { featuresKey, type TargetFeatures } from "./targets/target.js";
import { RELOCATION_STRATEGIES, type RelocationStrategy } from "./reloc/manifest.js";

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

/** The parsed and lowered kernel, made on first use. */
interface KernelSource {
  ufn: UFunction;
  paramNames: string[];
  /** Declared type of each parameter (types option, then TS annotation), or null. */
  declared: (Type | null)[];
}

/** A compiled specialization: the artifact, what it depended on, and where it is loaded. */
interface Specialization {
  artifact: Artifact;
  /** The world it was compiled (or last revalidated) in. */
  world: number;
  /** Global names it resolved through the method table: an overlay of one of them invalidates it. */
  methodsUsed: ReadonlySet<string>;
  loaded: WeakMap<Device, LoadedKernel>;
}

export class Kernel {
  readonly name: string;
  private source: KernelSource | null = null;
  private readonly specializations = new Map<string, Specialization>();
  /** The scope names the kernel's code resolved, with the values they had then. */
  private readonly scopeDeps = new Map<string, unknown>();
  /** The .ts file kernel() was called from, when a loader transpiled it (for its annotations). */
  private readonly tsFile: string | null;

  constructor(private readonly fn: Function, private readonly options: KernelOptions = {}) {
    if (typeof fn !== "function") throw CompileError.single("unsupported-value", `kernel() needs a function, got ${describeValue(fn)}`);
    this.name = options.name ?? (fn.name || "kernel");
    this.tsFile = callerSourceFile();
  }

  /** Compile for a target without launching; returns the artifact (code, entry, parameter layout). */
  async compile(opts: CompileOptions): Promise<Artifact> {
    const target = TARGETS.get(opts?.target);
    if (!target) throw CompileError.single("unknown-target", `unknown target '${opts?.target}' (available: ${[...TARGETS.keys()].join(", ")})`);
    this.revalidateScope();
    let types: Type[];
    if (opts.types) types = this.typesFromNames(opts.types);
    else if (opts.args) types = this.typesOf(opts.args).map((t) => parseTypeName(t)!);
    else throw CompileError.single("invalid-argument", `compile() needs 'args' or 'types' to specialize '${this.name}' on`);
    if (opts.features?.arch !== undefined && !target.arches?.includes(opts.features.arch))
      throw CompileError.single("unknown-target", `'${opts.features.arch}' is not an architecture of target '${target.name}'${target.arches ? ` (available: ${target.arches.join(", ")})` : ""}`);
    const features = this.features(opts.features);
    if (opts.dump?.length || opts.optimize === false) return this.compileUncached(target.name, features, types, opts);
    const key = types.map((t) => (t.kind === "array" ? `${t.elem}[]` : t.kind === "scalar" ? t.scalar : "?")).join(",");
    return this.specialization(target.name, features, key).artifact;
  }

  /** Launch on a device. Host typed arrays are copied in and back; device arrays stay on the device. */
  async launch(dev: Device, cfg: LaunchConfig, ...args: unknown[]): Promise<void> {
    if (this.scopeDeps.size) this.revalidateScope();
    const spec = this.specialization(dev.target, this.deviceFeatures(dev), this.typesOf(args).join(","));
    let k = spec.loaded.get(dev);
    if (!k) { k = dev.load(spec.artifact); spec.loaded.set(dev, k); }
    const grid = normalizeGrid(cfg);
    this.checkLaunchBounds(grid.threads);
    for (let i = 0; i < args.length; i++) {
      const a = args[i];
      if (a instanceof DeviceArray) {
        if (a.device !== dev) throw new KernelError("launch", `argument '${this.source!.paramNames[i]}' is an array on another device (${a.device.kind})`);
      } else if (typeof a === "number") {
        args[i] = coerceScalar(a, k.artifact.params[i].type as Scalar);
      }
    }
    await dev.launch(k, args, grid);
  }

  /** The cached specialization for a target and argument types, compiled when missing or outdated. */
  private specialization(target: string, features: TargetFeatures, key: string): Specialization {
    const cacheKey = `${target}|${featuresKey(features)}|${key}`;
    let spec = this.specializations.get(cacheKey);
    const world = currentWorld();
    if (spec && spec.world !== world) {
      // Something was redefined since: recompile only if this code used it.
      const changed = changedSince(spec.world);
      if ([...changed].some((n) => spec!.methodsUsed.has(n))) { this.specializations.delete(cacheKey); spec = undefined; }
      else spec.world = world;
    }
    if (!spec) {
      const src = this.lowered();
      const types = key === "" ? [] : key.split(",").map((t) => parseTypeName(t)!);
      const { module, artifact } = compileModule(src.ufn, types, this.config(target, features));
      spec = { artifact, world, methodsUsed: new Set(module.methodsUsed), loaded: new WeakMap() };
      this.specializations.set(cacheKey, spec);
      for (const hook of specializationHooks) hook(this, target, key === "" ? [] : key.split(","));
    }
    return spec;
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
        this.specializations.clear();
        return;
      }
    }
  }

  private compileUncached(target: string, features: TargetFeatures, types: Type[], opts: CompileOptions): Artifact {
    const sink = opts.dumpSink ?? ((stage: DumpStage, text: string) => console.error(`;; ---- IR after ${stage} ----\n${text}`));
    const config: CompilerConfig = {
      ...this.config(target, features),
      optimize: opts.optimize ?? true,
      dump: opts.dump?.length ? { stages: new Set(opts.dump), sink } : undefined,
    };
    return compileModule(this.lowered().ufn, types, config).artifact;
  }

  private config(target: string, features: TargetFeatures): CompilerConfig {
    return {
      target: TARGETS.get(target)!, features, optimize: true, inline: defaultInline,
      boundsCheck: this.options.boundsCheck ?? true, debugLevel: this.options.debugLevel ?? 1,
    };
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
  private readonly deviceFeatureCache = new WeakMap<Device, TargetFeatures>();
  private deviceFeatures(dev: Device): TargetFeatures {
    let f = this.deviceFeatureCache.get(dev);
    if (!f) { f = this.features(dev.features); this.deviceFeatureCache.set(dev, f); }
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
  private lowered(): KernelSource {
    if (this.source) return this.source;
    const parsed = parseFunctionSource(this.fn, this.name);
    const env = scopeEnvironment(this.options.scope, { tsFile: this.tsFile, deps: this.scopeDeps });
    const ufn = lowerFunction(parsed.node, this.name, parsed.source, env);
    applyOriginalAnnotations(ufn, parsed.name, this.tsFile);
    const paramNames = ufn.params.map((p) => ufn.vars[p].name);
    const declaredByName = this.options.types ?? {};
    for (const n of Object.keys(declaredByName)) {
      if (!paramNames.includes(n)) throw CompileError.single("invalid-argument", `types: '${n}' is not a parameter of kernel '${this.name}' (parameters: ${paramNames.join(", ")})`);
    }
    const declared = paramNames.map((n, i) => {
      const name = declaredByName[n] ?? ufn.vars[ufn.params[i]].declared;
      if (name === undefined || name === null) return null;
      const t = parseTypeName(name);
      if (!t) throw CompileError.single("invalid-argument", `types: '${n}' has unknown type '${name}' (use bool, i32, u32, f32, f64 or an array of them, e.g. f32[])`);
      return t;
    });
    // Declared types become the parameters' declarations for inference as well.
    ufn.params.forEach((p, i) => { const d = declared[i]; if (d) ufn.vars[p].declared = typeNameOf(d); });
    this.source = { ufn, paramNames, declared };
    return this.source;
  }

  /** The type name of each argument: declared types first, then the value (DESIGN §1). */
  private typesOf(args: unknown[]): string[] {
    const src = this.lowered();
    if (args.length !== src.paramNames.length)
      throw CompileError.single("invalid-argument", `kernel '${this.name}' takes ${src.paramNames.length} argument${src.paramNames.length === 1 ? "" : "s"} (${src.paramNames.join(", ")}), got ${args.length}`);
    const out: string[] = new Array(args.length);
    for (let i = 0; i < args.length; i++) out[i] = argumentType(args[i], src.declared[i], src.paramNames[i], this.name);
    return out;
  }

  private typesFromNames(types: string[] | Record<string, string>): Type[] {
    const src = this.lowered();
    const names = Array.isArray(types) ? types : src.paramNames.map((n, i) => types[n] ?? (src.declared[i] ? typeNameOf(src.declared[i]!) : undefined));
    if (names.length !== src.paramNames.length)
      throw CompileError.single("invalid-argument", `kernel '${this.name}' takes ${src.paramNames.length} parameters (${src.paramNames.join(", ")}), got ${names.length} types`);
    return names.map((n, i) => {
      const t = n === undefined ? null : parseTypeName(n);
      if (!t) throw CompileError.single("invalid-argument", `parameter '${src.paramNames[i]}' of '${this.name}' needs a type (bool, i32, u32, f32, f64, or an array such as f32[])${n ? `, got '${n}'` : ""}`);
      return t;
    });
  }
}

/** A launch-bounds option as three positive integer dimensions. */
function dims3(v: number | readonly number[], what: string, kernel: string): [number, number, number] {
  const list = typeof v === "number" ? [v] : Array.isArray(v) ? v : [];
  if (list.length < 1 || list.length > 3 || list.some((x) => !Number.isInteger(x) || x < 1) || list.reduce((a, b) => a * b, 1) > 1024)
    throw CompileError.single("invalid-argument", `kernel '${kernel}': ${what} must be 1 to 3 positive integers with a product of at most 1024, got ${JSON.stringify(v)}`);
  return [list[0], list[1] ?? 1, list[2] ?? 1];
}

function typeNameOf(t: Type): TypeName {
  return (t.kind === "array" ? `${t.elem}[]` : (t as { scalar: Scalar }).scalar) as TypeName;
}

function argumentType(a: unknown, declared: Type | null, param: string, kernel: string): string {
  if (typeof a === "number") {
    if (declared) {
      if (declared.kind !== "scalar") throw argError(param, kernel, `is declared ${typeNameOf(declared)} but got the number ${a}`);
      if ((declared.scalar === "i32" && (a | 0) !== a) || (declared.scalar === "u32" && a >>> 0 !== a))
        throw argError(param, kernel, `is declared ${declared.scalar} but got ${a}, which is not a ${declared.scalar} value`);
      return declared.scalar;
    }
    return (a | 0) === a && !Object.is(a, -0) ? "i32" : "f32";
  }
  if (typeof a === "boolean") {
    if (declared && declared !== parseTypeName("bool")) throw argError(param, kernel, `is declared ${typeNameOf(declared)} but got a boolean`);
    return "bool";
  }
  const elem = a instanceof DeviceArray ? a.elem : hostArrayElement(a);
  if (elem) {
    if (declared && (declared.kind !== "array" || declared.elem !== elem))
      throw argError(param, kernel, `is declared ${typeNameOf(declared)} but got ${a instanceof DeviceArray ? `a device array of ${elem}` : describeValue(a)}`);
    return `${elem}[]`;
  }
  throw argError(param, kernel, `got ${describeValue(a)}; kernels take numbers, booleans, Float32Array, Float64Array, Int32Array, Uint32Array or device arrays`);
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
