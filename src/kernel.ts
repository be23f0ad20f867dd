// kernel(): the public kernel object — its options, the typing of its arguments, compile() and
// launch(). Each specialization is a compile job (compiler/job.ts: target, features, argument
// types, owner) that the kernel's specializer (specializer.ts) finds or compiles: its own table
// (a Map lookup on the job's key: all a launch does once warm); a loaded kernel image or the disk
// cache (an entry whose owner, kernel source and dependencies all match is revived without
// compiling — no parser, inference or back end is even loaded); else the compiler
// (compiler/compile.ts, imported on first need), whose persistable output is stored for next time.

import { CompileError, KernelError, quoteName, unknownOption, type CompileErrorKind, type KernelErrorKind } from "./errors.js";
import { atCallSite, callSite, callerPosition } from "./frontend/caller.js";
import { DeviceArray, deviceArrayElement, hostArrayElement, normalizeGrid, type Device, type Grid, type HostArray, type LaunchConfig, type LoadedKernel } from "./devices/device.js";
import { numberTypeName, structArrayTypeName } from "./struct-arrays.js";
import { describeArgument, describeConfig, describeValue, isDetached, tableOf, type TableValue } from "./typed-arrays.js";
import type { ArgumentMistake } from "./argument-errors.js";
import { advanceWorld } from "./registry.js";
import type { Scalar } from "./ir/types.js";
import type { Artifact, TargetFeatures } from "./targets/target.js";
import { TARGET_NAMES, targetInfo } from "./targets/index.js";
import { RELOCATION_STRATEGIES, type RelocationStrategy } from "./reloc/manifest.js";
import { compileJob, dims3, jobKeyPrefix, type CompileJob, type DumpStage, type LoweredKernel } from "./compiler/job.js";
import type { CompileOptions } from "./compile-options.js";
import type { Signature } from "./cache/entry.js";
import { sourceFingerprint } from "./cache/fingerprint.js";
import { anyStore, findSignature, warmUp } from "./cache/persistent.js";
import { whileOpening } from "./devices/index.js";
import { generating, pluginId } from "./cache/image.js";
import { Specializer, compiler, notInImages, type Specialization } from "./specializer.js";
import { CapturedTables, staleWithoutCompiler, type TableView } from "./captured-tables.js";
import type { DeviceFeatures } from "./launch-variant.js";

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
  /**
   * The kernel's build-time identity, written by gpuc's bundler plugin (gpuc/plugin), not by hand:
   * a hash of its source as the build read it (ARCHITECTURE.md, "Kernel identity"). Caches and
   * images then key the kernel by it instead of by its function's text, which a minifier changes.
   */
  id?: string;
  /**
   * Written by gpuc's bundler plugin with `id`, not by hand, where the module imports gpuc/runtime:
   * the function given is a stand-in with the kernel's parameters and no body (the device code is in
   * the image; ARCHITECTURE.md, "Device code stays out of an app's JavaScript"). The kernel runs
   * from the loaded images only: a specialization they lack is a not-precompiled error even where a
   * compiler is loaded, never a compile of the stand-in.
   */
  imageOnly?: boolean;
}

const KERNEL_OPTIONS = ["scope", "types", "name", "boundsCheck", "debugLevel", "fastMath", "maxThreads", "requiredThreads", "relocation", "rewritable", "id", "imageOnly"];

/** Options a kernel cannot use are an invalid-option error at kernel(), not a silent default. */
function checkKernelOptions(o: KernelOptions, name: string): void {
  const bad = (what: string) => CompileError.single("invalid-option", `kernel ${quoteName(name)}: ${what}`);
  // (Options are the caller's objects: one that cannot be read, a revoked Proxy, is said as such.)
  try { checkKernelOptionValues(o, name, bad); }
  catch (e) { throw e instanceof CompileError ? e : bad(`its options cannot be read (${e instanceof Error ? e.message : describeArgument(e)})`); }
}

function checkKernelOptionValues(o: KernelOptions, name: string, bad: (what: string) => CompileError): void {
  if (typeof o !== "object" || o === null) throw bad(`options must be an object, got ${describeArgument(o)}`);
  let unknown: string | null;
  try { unknown = unknownOption(o, KERNEL_OPTIONS); } catch { throw bad("its options cannot be read (a revoked Proxy?)"); }
  if (unknown) throw bad(unknown);
  for (const key of ["boundsCheck", "fastMath", "imageOnly"] as const)
    if (o[key] !== undefined && typeof o[key] !== "boolean") throw bad(`${key} must be true or false, got ${describeArgument(o[key])}`);
  if (o.debugLevel !== undefined && o.debugLevel !== 0 && o.debugLevel !== 1 && o.debugLevel !== 2) throw bad(`debugLevel must be 0, 1 or 2, got ${describeArgument(o.debugLevel)}`);
  if (o.name !== undefined && (typeof o.name !== "string" || !o.name)) throw bad(`name must be a non-empty string, got ${describeArgument(o.name)}`);
  if (o.id !== undefined && (typeof o.id !== "string" || !o.id)) throw bad(`id must be a non-empty string (the bundler plugin writes it), got ${describeArgument(o.id)}`);
  for (const key of ["scope", "types"] as const)
    if (o[key] !== undefined && (typeof o[key] !== "object" || o[key] === null)) throw bad(`${key} must be an object, got ${describeArgument(o[key])}`);
  if (o.types) {
    let entries: [string, unknown][];
    try { entries = Object.entries(o.types); } catch { throw bad("types cannot be read (a revoked Proxy?)"); }
    for (const [param, t] of entries)
      if (typeof t !== "string") throw bad(`types.${param} must be a type name such as "f32", "i32" or "f32[]", got ${describeArgument(t)}`);
  }
  if (o.scope) {
    try { Object.keys(o.scope); } catch { throw bad("scope cannot be read (a revoked Proxy?)"); }
  }
  if (o.relocation !== undefined && !RELOCATION_STRATEGIES.includes(o.relocation))
    throw bad(`relocation must be one of ${RELOCATION_STRATEGIES.join(", ")}, got ${describeConfig(o.relocation)}`);
  for (const key of ["maxThreads", "requiredThreads"] as const) if (o[key] !== undefined) dims3(o[key]!, key, name);
  if (o.rewritable !== undefined) {
    if (!Array.isArray(o.rewritable)) throw bad(`rewritable must be an array of scope names, got ${describeValue(o.rewritable)}`);
    for (const n of o.rewritable) {
      const v = typeof n === "string" && o.scope && Object.prototype.hasOwnProperty.call(o.scope, n) ? o.scope[n] : undefined;
      const t = tableOf(v);
      if (!t || "problem" in t) throw bad(`rewritable: '${String(n)}' is not a table of the kernel's scope (a Float32Array, Float64Array, Int32Array or Uint32Array, or an Array of them or of numbers)`);
    }
  }
}

export type { CompileOptions } from "./compile-options.js";

/** Where one specialization of a kernel came from: compiled, or revived from the disk cache or a loaded image. */
export interface CompileEvent {
  readonly kernel: Kernel;
  readonly target: string;
  /** Its argument types ("f32[]", "i32"). */
  readonly types: readonly string[];
  readonly origin: "compiled" | "disk" | "image";
  /** For a compile: whether its inference came from an earlier compile of the same job (another block size, a recompile, a dump). */
  readonly inferenceReused?: boolean;
  /** How long it took, in milliseconds: the compile, or finding and reviving the entry. */
  readonly ms: number;
  /** The kernel's variant without the checks a launch proved (ARCHITECTURE.md, "Checks a launch proves"). */
  readonly provenChecks?: true;
  /** For a variant: how many checks and versioned loops' tests it leaves out (0: it is the kernel's code). */
  readonly checksLeftOut?: number;
}

const compileListeners = new Set<(e: CompileEvent) => void>();

/**
 * Be told of every specialization any kernel of this process compiles or revives from a cache —
 * to log what is compiled when (a launch whose table changed under folded code compiles again),
 * time it, or check its code with another tool. Returns the function that stops it.
 */
export function onCompile(listener: (e: CompileEvent) => void): () => void {
  compileListeners.add(listener);
  return () => { compileListeners.delete(listener); };
}

function compileEvent(e: CompileEvent): void {
  for (const listener of compileListeners) {
    try { listener(e); } catch (err) { queueMicrotask(() => { throw err; }); }   // a listener's failure is its own, not the launch's
  }
}

export class Kernel {
  readonly name: string;
  private source: LoweredKernel | null = null;
  /** Parameter names and declared types: from lowering, or from a cache without parsing. */
  private signature: Signature | null = null;
  private fingerprintOf: Promise<string> | null = null;
  private readonly specs: Specializer;
  /** The scope names the kernel's code resolved, with the values they had then. */
  private readonly scopeDeps = new Map<string, unknown>();
  /** The file kernel() was called from (a .ts file, or generated code whose source map leads to one: the annotations). */
  private readonly callerFile: string | null;
  /** Where in it (the call's frame): `gpuc precompile` finds the plugin's id of the call there (imageAlias). */
  private readonly callerAt: { file: string; line: number; column: number } | null;
  /** Its captured tables as launches see them (captured-tables.ts): compared at each launch, uploaded where changed. */
  private readonly tables: CapturedTables;
  /**
   * Tables that changed under code holding some of their elements as constants: the kernel is
   * compiled as if they were rewritable (never folded), for the rest of its life.
   */
  private readonly unfolded = new Set<string>();

  /** The options as given when kernel() was called (a shallow copy: the scope object is the caller's own). */
  private readonly options: KernelOptions;

  constructor(private readonly fn: Function, options: KernelOptions = {}) {
    try {
      if (typeof fn !== "function") throw CompileError.single("unsupported-value", `kernel() needs a function, got ${describeArgument(fn)}`);
      let own: unknown;
      try { own = fn.name; Function.prototype.toString.call(fn); }
      catch { throw CompileError.single("unsupported-value", "kernel() needs a function, got a Proxy of one (its source cannot be read)"); }
      // (`name` can be anything a property holds: Object.defineProperty(fn, "name", …).)
      const fromOptions = options !== null && typeof options === "object" ? optionName(options) : undefined;
      this.name = typeof fromOptions === "string" && fromOptions ? fromOptions : typeof own === "string" && own ? own : "kernel";
      checkKernelOptions(options, this.name);
      this.options = { ...options };
    } catch (e) { throw atCaller(e, null); }
    this.callerAt = callerPosition();
    this.callerFile = this.callerAt?.file ?? null;
    this.tables = new CapturedTables(this.options.scope ?? {}, this.scopeDeps, new Set(this.options.rewritable ?? []));
    this.specs = new Specializer({
      name: this.name,
      id: options.id ?? null,
      imageOnly: options.imageOnly === true,
      scope: options.scope ?? {},
      scopeDeps: this.scopeDeps,
      fingerprint: () => this.fingerprint(),
      imageAlias: () => this.imageAlias(),
      lowered: () => this.lowered(),
      signature: () => this.signature!,
      specialized: (job, how, artifact) => {
        if (compileListeners.size)
          compileEvent({ kernel: this, target: job.target, types: [...job.types], ...how, ...(job.owner.provenChecks ? { provenChecks: true, checksLeftOut: artifact.launchProof?.obligations.length ?? 0 } : {}) });
      },
    });
  }

  /** The compile job of a specialization (compiler/job.ts): this kernel's parameters with a target, its features and argument types. */
  private job(target: string, features: TargetFeatures, types: readonly string[], launch = false): CompileJob {
    // A launch's block size the kernel did not declare (deviceFeatures).
    const launchThreads = launch && features.requiredThreads !== undefined && this.options.requiredThreads === undefined;
    return compileJob({ kernel: this.name, target, features, types, ...this.params(), forImage: generating(), launchThreads });
  }

  /** Compile for a target without launching; returns the artifact (code, entry, parameter layout). */
  async compile(opts: CompileOptions): Promise<Artifact> {
    const site = callSite();
    try { return await this.compileChecked(opts); }
    catch (e) { throw atCaller(e instanceof Mistake ? await explain(e) : e, site); }
  }

  private async compileChecked(given: CompileOptions): Promise<Artifact> {
    // (Read before the first await: the caller's object may change meanwhile.)
    const opts = readCompileOptions(given);
    // compile()'s checks load with its first call: a program that only launches never reads them.
    // (Memoized: an import() per call is a resolution each time, and a round trip to the loader's
    // thread where a loader hook is registered, as tsx's is.)
    const check = await (compileOptions ??= import("./compile-options.js"));
    const info = check.compileTarget(opts);
    this.revalidateScope();
    await this.ensureSignature();
    let types: string[];
    if (opts.types) types = check.typesFromNames(opts.types, this.signature!, this.name);
    else if (opts.args) {
      try { types = this.typesOf(opts.args); }
      catch (e) { if (e !== NEEDS_OBJECTS) throw e; await loadObjectArguments(); types = this.typesOf(opts.args); }
    } else throw CompileError.single("invalid-option", `compile() needs 'args' or 'types' to specialize ${quoteName(this.name)} on`);
    check.checkArch(opts, info);
    const job = this.job(opts.target, this.features(opts.features), types);
    if (opts.dump?.length || opts.optimize === false) {
      check.checkDumpStages(opts.dump);
      // (Compiled afresh, nothing cached: compiling.ts, with the compiler.)
      const c = await compiler(() => notInImages(this.name, opts.target, job.types, job.owner.arch));
      const out = await c.compileUncached(job, () => this.lowered(), opts);
      if (compileListeners.size) compileEvent({ kernel: this, target: job.target, types: [...job.types], origin: "compiled", inferenceReused: out.inferenceReused, ms: out.ms });
      return out.artifact;
    }
    // (Its folded elements as the tables hold them now, as a launch's would be.)
    let view = this.tables.observe();
    if (this.tables.reshaped) { this.rescope("a table's shape"); view = this.tables.observe(); }
    let spec = await this.specs.get(job);
    for (let stale = this.tables.stale(spec.folded, view); stale; stale = this.tables.stale(spec.folded, view)) spec = await this.unfold(stale, job);
    // An image holds beside a kernel its variant for launches that prove its checks (a launch from
    // an image takes the variant only from there: ARCHITECTURE.md, "Checks a launch proves").
    if (generating() && spec.artifact.launchProof && !spec.artifact.launchProof.assumed)
      await this.specs.get(this.job(opts.target, { ...job.features, provenChecks: true }, types));
    return check.artifactCopy(spec.artifact);
  }

  /** Launch on a device. Host typed arrays are copied in and back; device arrays stay on the device. */
  async launch(dev: Device, cfg: LaunchConfig, ...args: unknown[]): Promise<void> {
    // Every mistake in the call (the device, the configuration, the arguments) is said where the
    // user's code made it (atCaller), whether found here or by the device. A warm launch finds
    // them before its first await, where the stack is the caller's own; a cold one (compiling,
    // loading) keeps its call site first (callSite: the stack captured, formatted only on error),
    // since after an await V8 shows only the frames that awaited it.
    let site: Error | null = null;
    try {
      checkDevice(dev, this.name);
      const grid = launchGrid(cfg, this.name);
      this.checkLaunchBounds(grid.threads);
      if (this.scopeDeps.size) this.revalidateScope();
      // The captured tables as JavaScript would read them now, before anything awaits.
      let view = this.tables.observe();
      if (this.tables.reshaped) { this.rescope("a table's shape"); view = this.tables.observe(); }
      if (!this.signature) { site = callSite(); await this.ensureSignature(); }
      const forDevice = this.deviceFeatures(dev, grid.threads), keyPrefix = forDevice.keyPrefix;
      let features = forDevice.features;
      let types: string[];
      try { types = this.typesOf(args); }
      catch (e) {
        // The first launch given an object or an Array: its types are object-arguments.ts's.
        if (e !== NEEDS_OBJECTS) throw e;
        site ??= callSite();
        await loadObjectArguments();
        types = this.typesOf(args);
      }
      // The warm path: one Map lookup; the slow path (first launch, redefinitions) makes the job.
      let found = this.specs.current(keyPrefix + types.join(","));
      let job: CompileJob | undefined;
      // A launch that proves the checks the kernel has outside its loops runs its variant without
      // them (launch-variant.ts): one an earlier launch proved; or, on a target whose launches
      // prove checks, the variant first where nothing of the kernel's is at hand (one compile, not
      // two), else the one the kernel's record proves.
      let v = !found && launchVariant ? launchVariant.currentVariant(this.specs, forDevice, types, args, grid) : null;
      if (!v && (found ? found.artifact.launchProof?.assumed === false : targetInfo(dev.target)?.launchProofs && this.options.boundsCheck !== false))
        v = await (launchVariant ??= await import("./launch-variant.js")).provenVariant(this.specs, forDevice, dev.target, types, found ?? null, args, grid, (f) => { site ??= callSite(); return this.job(dev.target, f, types, true); });
      if (!v && !found) { site ??= callSite(); found = await this.specs.get((job = this.job(dev.target, features, types, true))); }
      if (v) { features = v.features; job = undefined; }
      let spec = v ? v.spec : found!;
      let k = spec.loaded.get(dev);
      if (!k) { site ??= callSite(); ({ spec, k } = await this.specs.loadOn(dev, (job ??= this.job(dev.target, features, types, true)), spec)); }
      // Code holding a table element that changed since it was compiled is compiled again;
      // every instance runs with the tables of this launch (uploaded where they changed).
      if (view.version) {
        let fits = spec.heldFor === view || !this.tables.stale(spec.folded, view);
        if (fits) spec.heldFor = view;
        fits &&= this.tables.sync(dev, k, view, initialTables(spec));
        if (!fits) ({ spec, k } = await this.refreshTables(dev, () => (job ??= this.job(dev.target, features, types, true)), spec, k, view));
      }
      this.checkArrays(dev, args);
      // Absent optional arrays have no parameter in the code (their absence is compiled in); an
      // object is its leaves; an Array of objects is its fields' arrays and an Array of numbers a
      // Float64Array, copied back into the Arrays after the launch.
      let writeBack: (() => void) | null = null;
      // (Plain Arrays load object-arguments.ts when typed: until then there are none to expand.)
      if (types.some((t) => t.startsWith("{")) || (objectArguments && args.some(Array.isArray))) {
        if (!objectArguments) { site ??= callSite(); await loadObjectArguments(); }
        ({ args, writeBack } = objectArguments!.expandObjects(args, types, dev));
      }
      if (args.includes(null) || args.includes(undefined)) args = args.filter((a) => a !== null && a !== undefined);
      for (let i = 0; i < args.length; i++) if (typeof args[i] === "number") args[i] = coerceScalar(args[i] as number, k.artifact.params[i].type as Scalar);
      // A signal already aborted cancels on every device (the CPU device also stops a running launch).
      if (grid.signal?.aborted) throw new KernelError("cancelled", `the launch of kernel ${quoteName(this.name)} was cancelled (its AbortSignal was aborted)`);
      try { await dev.launch(k, args, grid); }
      catch (e) {
        // Revived code that the device rejects is healed (specializer.ts) and launched again.
        const healed = await this.specs.healLaunch(dev, () => job ?? this.job(dev.target, features, types, true), spec, e);
        if (view.version && !this.tables.sync(dev, healed, view, initialTables({ artifact: healed.artifact }))) throw e;
        await dev.launch(healed, args, grid);
      }
      writeBack?.();
    } catch (e) {
      // (The call site before the await: after it, V8 shows only the frames that awaited.)
      if (e instanceof Mistake) { site ??= callSite(); e = await explain(e); }
      throw atCaller(e, site);
    }
  }

  /** Array arguments the device cannot take: another device's, or a host array whose buffer was detached. */
  private checkArrays(dev: Device, args: unknown[]): void {
    for (let i = 0; i < args.length; i++) {
      const a = args[i];
      if (typeof a !== "object" || a === null) continue;
      // (Checked after compiling and loading: a buffer can be transferred meanwhile.)
      if (a instanceof DeviceArray ? a.device !== dev : ArrayBuffer.isView(a) && isDetached(a))
        throw new Mistake(a, null, this.signature!.paramNames[i], this.name, dev);
    }
  }

  /**
   * Replace the values of a rewritable scope table (the `rewritable` option) for every later
   * launch of this kernel, on every device, without recompiling — the `cudaMemcpyToSymbol`
   * pattern. `values` has the table's element type and length; it is copied, and the array in
   * `scope` is left as it is. A rewritable table's values are the kernel's own: the array in
   * `scope` is read when the kernel is compiled and is not compared at each launch (the cheapest
   * form; any other table is compared, and a change made in place is seen by the next launch).
   */
  setTable(name: string, values: HostArray | readonly unknown[]): void {
    const scope = this.options.scope;
    if (!this.options.rewritable?.includes(name))
      throw new KernelError("launch", `kernel ${quoteName(this.name)}: '${name}' is not a rewritable table (name it in the kernel's rewritable option: kernel(fn, { scope, rewritable: ["${name}"] }))`);
    // (A table of tables takes its rows, or its elements row by row in one typed array.)
    const current = (tableOf(scope![name]) as TableValue).flat, given = tableOf(values);
    const flat = given && !("problem" in given) ? given.flat : null;
    if (!flat || flat.constructor !== current.constructor || flat.length !== current.length)
      throw new KernelError("launch", `kernel ${quoteName(this.name)}: table '${name}' is ${current.constructor.name}(${current.length}); setTable got ${flat ? `${flat.constructor.name}(${flat.length})` : given && "problem" in given ? given.problem : describeValue(values)}`);
    this.tables.setTable(name, flat);
  }

  /**
   * A launch's specialization and instance brought to the tables it sees (`view`): code holding
   * an element of a table that changed since it was compiled is compiled again with that table
   * no longer folded (`unfolded`: for every later compile of the kernel too, so a table the host
   * rewrites costs one recompile, then uploads); an instance whose tables are part of its program
   * (OpenCL's bake) is compiled again with the new values. Without the compiler (gpuc/runtime)
   * the first is a not-precompiled error that says what to change.
   */
  private async refreshTables(dev: Device, job: () => CompileJob, spec: Specialization, k: LoadedKernel, view: TableView): Promise<{ spec: Specialization; k: LoadedKernel }> {
    // (Each round either unfolds one more table or recompiles with the tables as they are now;
    // only tables rewritten again and again while the kernel compiles keep it going.)
    for (let round = 0; round < 8; round++) {
      const stale = this.tables.stale(spec.folded, view);
      if (stale) spec = await this.unfold(stale, job());
      else if (this.tables.sync(dev, k, view, initialTables(spec))) {
        spec.heldFor = view;
        return { spec, k };
      } else {
        this.specs.forget(job());
        spec = await this.specs.get(job());
      }
      ({ spec, k } = await this.specs.loadOn(dev, job(), spec));
    }
    throw new KernelError("launch", `kernel ${quoteName(this.name)}: its captured tables kept changing while it was compiled for them; change them between launches (await each launch that must see them)`);
  }

  /** The job compiled again with `stale`'s table no longer folded (for the kernel's life); without the compiler, the error that says so. */
  private async unfold(stale: NonNullable<ReturnType<CapturedTables["stale"]>>, job: CompileJob): Promise<Specialization> {
    this.unfolded.add(stale.name);
    this.source = null;
    this.fingerprintOf = null;
    this.specs.clear();
    this.tables.invalidate();
    try { return await this.specs.get(job); }
    catch (e) { throw e instanceof KernelError && e.kind === "not-precompiled" ? staleWithoutCompiler(this.name, stale, e.message) : e; }
  }
  /** The tables its code never folds: the rewritable ones, and those unfolded because they changed under folded code. */
  private rewritable(): string[] {
    return this.unfolded.size ? [...new Set([...(this.options.rewritable ?? []), ...this.unfolded])] : [...(this.options.rewritable ?? [])];
  }

  private params(): { boundsCheck: boolean; debugLevel: 0 | 1 | 2 } {
    return { boundsCheck: this.options.boundsCheck ?? true, debugLevel: this.options.debugLevel ?? 1 };
  }

  private fingerprint(): Promise<string> {
    return (this.fingerprintOf ??= sourceFingerprint(this.fn, this.callerFile, this.name, this.options.types, this.rewritable(), this.options.id));
  }

  /**
   * While `gpuc precompile` generates an image: the fingerprint a bundle built with the plugin
   * gives this kernel (the plugin's id and name of its kernel() call, found in the file the call
   * ran in: cli/build-ids.ts), under which its entries are filed too; null if the kernel has an id
   * of its own or the plugin would give it none.
   */
  private async imageAlias(): Promise<string | null> {
    if (this.options.id !== undefined || !this.callerAt || !this.signature) return null;
    // (The plugin's name: a transpiler may have renamed the function, and the name is in the fingerprint.)
    const found = pluginId(this.callerAt, this.signature);
    return found === null ? null : sourceFingerprint(this.fn, null, found.name, this.options.types, this.rewritable(), found.id);
  }

  /**
   * A scope name now bound to another value (a redefined helper, a changed constant) makes the
   * kernel's code stale: advance the world, lower the kernel again, recompile on next use.
   */
  private revalidateScope(): void {
    const scope = this.options.scope;
    if (!scope) return;
    for (const [name, value] of this.scopeDeps) if (scope[name] !== value) return this.rescope(name);
  }

  /** What the kernel's code read of its scope changed (`what`): it is lowered and compiled again. */
  private rescope(what: string): void {
    advanceWorld(`scope:${what}`);
    this.source = null;
    this.scopeDeps.clear();
    this.specs.clear();
    this.tables.invalidate();
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
        throw CompileError.single("invalid-option", `kernel ${quoteName(this.name)}: relocation must be one of ${RELOCATION_STRATEGIES.join(", ")}, got ${describeConfig(o.relocation)}`);
      out.relocation = o.relocation;
    }
    return out;
  }

  /**
   * Per device, computed once: the device's features (its architecture) with the kernel's; on a
   * target that specializes on the block size (TargetInfo.specializeThreads) and a kernel without
   * launch bounds of its own, per block size too, with `requiredThreads` the launch's.
   */
  private readonly deviceFeatureCache = new WeakMap<Device, DeviceFeatures & { byThreads: Map<string, DeviceFeatures> | null }>();
  private deviceFeatures(dev: Device, threads?: readonly number[]): DeviceFeatures {
    let f = this.deviceFeatureCache.get(dev);
    if (!f) {
      const features = this.features(dev.features);
      const perThreads = targetInfo(dev.target)?.specializeThreads && features.requiredThreads === undefined && features.maxThreads === undefined;
      f = { features, keyPrefix: jobKeyPrefix(dev.target, features), byThreads: perThreads ? new Map() : null };
      this.deviceFeatureCache.set(dev, f);
    }
    if (!f.byThreads || !threads) return f;
    const key = `${threads[0]},${threads[1]},${threads[2]}`;
    let t = f.byThreads.get(key);
    if (!t) {
      const features: TargetFeatures = { ...f.features, requiredThreads: [threads[0], threads[1], threads[2]] };
      t = { features, keyPrefix: jobKeyPrefix(dev.target, features) };
      f.byThreads.set(key, t);
    }
    return t;
  }

  /** A launch outside the kernel's declared launch bounds fails before it reaches the device. */
  private checkLaunchBounds(threads: [number, number, number]): void {
    const { maxThreads, requiredThreads } = this.options;
    if (requiredThreads !== undefined) {
      const want = dims3(requiredThreads, "requiredThreads", this.name);
      if (want.some((w, i) => w !== threads[i]))
        throw new KernelError("launch-config", `kernel ${quoteName(this.name)} was compiled for blocks of exactly ${want.join("×")} threads (requiredThreads), launched with ${threads.join("×")}`);
    }
    if (maxThreads !== undefined) {
      const max = dims3(maxThreads, "maxThreads", this.name);
      if (threads[0] * threads[1] * threads[2] > max[0] * max[1] * max[2] || threads.some((t, i) => t > max[i]))
        throw new KernelError("launch-config", `kernel ${quoteName(this.name)} was compiled for blocks of at most ${max.join("×")} threads (maxThreads), launched with ${threads.join("×")}`);
    }
  }

  /** Parse and lower the kernel once; lowering errors surface when it is first compiled. */
  private async lowered(): Promise<LoweredKernel> {
    if (this.source) return this.source;
    const { compiler: c } = await compiler(() => notInImages(this.name, null, null));
    // (A stand-in's body is not the kernel's: imageOnly.)
    if (this.options.imageOnly) throw notInImages(this.name, null, null, null, true);
    const rewritable = this.rewritable();
    this.source = await c.lowerKernel(this.fn, this.name, this.options.scope, this.options.types, this.callerFile, this.scopeDeps, rewritable.length ? new Set(rewritable) : undefined);
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

  /** The type name of each argument: declared types first, then the value. */
  private typesOf(args: unknown[]): string[] {
    const sig = this.signature!;
    if (args.length !== sig.paramNames.length)
      throw CompileError.single("arity", `kernel ${quoteName(this.name)} takes ${sig.paramNames.length} argument${sig.paramNames.length === 1 ? "" : "s"} (${sig.paramNames.join(", ")}), got ${args.length}`, null,
        args.length < sig.paramNames.length ? "a launch passes every argument: an optional array not given is passed as undefined or null" : undefined);
    const out: string[] = new Array(args.length);
    for (let i = 0; i < args.length; i++) {
      const t = argumentType(args[i], sig.declared[i]);
      if (t === null) throw new Mistake(args[i], sig.declared[i], sig.paramNames[i], this.name);
      out[i] = t;
    }
    return out;
  }
}

/** What a specialization's instances were loaded with: a revived one's tables, else its artifact's own (the compile's copy). */
function initialTables(spec: { artifact: Artifact; tables?: ReadonlyMap<string, HostArray> }): (name: string) => HostArray | undefined {
  return (name) => spec.tables?.get(name) ?? (spec.artifact.globals.find((g) => g.name === name)?.value as HostArray | undefined);
}

/** The type name of an argument, given the parameter's declared type name (or null); null for one the parameter cannot take. */
function argumentType(a: unknown, declared: string | null): string | null {
  if (typeof a === "number") {
    if (!declared) return numberTypeName(a);
    // JavaScript would wrap 2.5 or 2**32 into an i32 without a word: gpuc says so instead.
    const fits = !declared.endsWith("[]") && !(declared === "i32" && (a | 0) !== a) && !(declared === "u32" && a >>> 0 !== a);
    return fits ? declared : null;
  }
  if (typeof a === "boolean") return !declared || declared === "bool" ? "bool" : null;
  // An absent optional array (CUDA's NULL pointer): the kernel is specialized on its absence.
  if (a === null || a === undefined) return !declared || declared.endsWith("[]") ? (a === null ? "null" : "undefined") : null;
  const elem = hostArrayElement(a) ?? deviceArrayElement(a);
  if (elem) return !declared || declared === `${elem}[]` ? `${elem}[]` : null;
  // A struct array; an object of numbers (its leaves at launch), or an Array of objects of one
  // shape: typed by their fields (structure of arrays at launch), once object-arguments.ts is here.
  let t = structArrayTypeName(a);
  if (!t && typeof a === "object" && a !== null) {
    if (!objectArguments) throw NEEDS_OBJECTS;
    t = objectArguments.plainArrayTypeName(a) ?? objectArguments.objectTypeName(a);
  }
  return t && (!declared || declared === t) ? t : null;
}


/** launch-variant.ts, once a launch has a kernel whose checks a launch may prove. */
let launchVariant: typeof import("./launch-variant.js") | null = null;

/** object-arguments.ts, once a launch or compile() has been given an object or an Array. */
let objectArguments: typeof import("./object-arguments.js") | null = null;
async function loadObjectArguments(): Promise<typeof import("./object-arguments.js")> {
  return (objectArguments ??= await import("./object-arguments.js"));
}
/** Thrown by typesOf where an argument's type needs object-arguments.ts, not yet loaded. */
const NEEDS_OBJECTS = Symbol("gpuc.needsObjectArguments");

/**
 * An argument its parameter cannot take, found on the synchronous path of a launch or compile():
 * the CompileError that says why is made from it where the call's errors are located (explain),
 * with argument-errors.ts loaded then. Never leaves kernel.ts.
 */
class Mistake implements ArgumentMistake {
  constructor(readonly value: unknown, readonly declared: string | null, readonly param: string, readonly kernel: string, readonly device: Device | null = null) {}
}

async function explain(m: Mistake): Promise<CompileError> {
  return (await import("./argument-errors.js")).argumentError(m);
}

/** A number argument as JavaScript converts it to the parameter's type. */
function coerceScalar(v: number, t: Scalar): number | boolean {
  switch (t) {
    case "f32": return Math.fround(v);
    case "i32": return v | 0;
    case "u32": return v >>> 0;
    case "bool": return Boolean(v);
    default: return v;
  }
}

/** launch()'s first argument is a device (from device()), or the call is a launch-config error. */
function checkDevice(dev: unknown, kernel: string): asserts dev is Device {
  let ok = false;
  try {
    const d = dev as Device;
    ok = typeof d === "object" && d !== null && typeof d.launch === "function" && typeof d.load === "function" && typeof d.target === "string";
  } catch { /* a revoked Proxy: not a device */ }
  if (!ok) throw new KernelError("launch-config", `kernel ${quoteName(kernel)}: launch(device, { blocks, threads }, ...arguments) takes a device first (await device("cpu"), device("webgpu"), …), got ${describeArgument(dev)}`);
}

/**
 * `{ blocks, threads }` checked and normalized (devices/device.ts): every mistake, the forgotten
 * configuration (an array where it goes) and an object that cannot be read (a revoked Proxy)
 * included, is a launch-config error.
 */
function launchGrid(cfg: unknown, kernel: string): Grid {
  try {
    // (An object of other keys is a configuration with misspelt ones: normalizeGrid names them.)
    if (cfg === null || typeof cfg !== "object" || ArrayBuffer.isView(cfg) || cfg instanceof DeviceArray || Array.isArray(cfg))
      throw new KernelError("launch-config", `kernel ${quoteName(kernel)}: launch(device, { blocks, threads }, ...arguments) takes the launch configuration second, got ${describeArgument(cfg)}`);
    return normalizeGrid(cfg as LaunchConfig);
  } catch (e) {
    if (e instanceof KernelError) throw e;
    throw new KernelError("launch-config", `kernel ${quoteName(kernel)}: the launch configuration cannot be read (${e instanceof Error ? e.message : describeArgument(e)})`);
  }
}

/**
 * compile()'s options read once into objects of gpuc's own (arrays and objects copied one level
 * down): the caller's may change meanwhile, and one that cannot be read (a revoked Proxy, a getter
 * that throws) is an invalid-option error here rather than a TypeError somewhere later. An option
 * compile() does not know (a misspelling) is one too, naming it.
 */
function readCompileOptions(o: CompileOptions): CompileOptions {
  if (typeof o !== "object" || o === null)
    throw CompileError.single("invalid-option", `compile() needs options: { target, types } or { target, args } (targets: ${TARGET_NAMES.join(", ")})`);
  const copy = (v: unknown): unknown => (Array.isArray(v) ? [...v] : v !== null && typeof v === "object" && !ArrayBuffer.isView(v) ? { ...v } : v);
  let unknown: string | null;
  try {
    unknown = unknownOption(o, COMPILE_OPTIONS);
    if (!unknown) return { target: o.target, features: copy(o.features) as TargetFeatures, args: copy(o.args) as unknown[], types: copy(o.types) as string[],
      dump: copy(o.dump) as DumpStage[], dumpSink: o.dumpSink, optimize: o.optimize };
  } catch (e) {
    throw CompileError.single("invalid-option", `compile(): its options cannot be read (${e instanceof Error ? e.message : describeArgument(e)})`);
  }
  throw CompileError.single("invalid-option", `compile(): ${unknown}`);
}

const COMPILE_OPTIONS = ["target", "features", "args", "types", "dump", "dumpSink", "optimize"];

/** The `name` option, read once (an options object is checked after the kernel's name is known). */
function optionName(o: object): unknown {
  try { return (o as KernelOptions).name; } catch { return undefined; }
}

/** compile()'s checks (compile-options.ts), loaded by the first compile() call. */
let compileOptions: Promise<typeof import("./compile-options.js")> | null = null;

/** The errors of a call's own mistakes, which the user's code made at the call: located there. */
const CALL_COMPILE_KINDS: ReadonlySet<CompileErrorKind> = new Set(["invalid-option", "arity", "argument-type", "unsupported-array", "unknown-target", "unsupported-value"]);
const CALL_KERNEL_KINDS: ReadonlySet<KernelErrorKind> = new Set(["launch-config", "launch", "device-unavailable"]);

/**
 * An error about the call itself (its arguments, its configuration, its device), without a
 * location yet, located at the first stack frame outside gpuc (frontend/caller.ts): `.location`
 * and the message's `file:line:col: ` prefix. Errors located in the kernel's source, and errors
 * raised on the device, are left as they are.
 */
function atCaller(e: unknown, site: Error | null = null): unknown {
  if (e instanceof CompileError ? CALL_COMPILE_KINDS.has(e.kind) : e instanceof KernelError && CALL_KERNEL_KINDS.has(e.kind)) return atCallSite(e, site);
  return e;
}

/** Define a kernel. */
export function kernel(fn: Function, options?: KernelOptions): Kernel {
  return new Kernel(fn, options);
}
