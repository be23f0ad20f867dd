// The specializer of one kernel (ARCHITECTURE.md, "Caches"): its table of specializations, keyed by
// the compile job's key, and the cache chain behind it — the table (current in this world), then
// the stores (a loaded image, the disk cache: entries filed by the job's owner), then the compiler.
// It checks code before its first load on a device, heals a revived entry that a device rejects
// (dropped where it came from, compiled afresh), and records what each compilation depended on when
// it is compiled. kernel.ts is the public object over it: options, argument typing, launch.

import { InternalCompilerError, KernelError, quoteName } from "./errors.js";
import type { Device, LoadedKernel } from "./devices/device.js";
import { tableOf, type HostArray } from "./typed-arrays.js";
import { changedSince, currentWorld } from "./registry.js";
import type { Artifact } from "./targets/target.js";
import type { CompilerModule, LoweredKernel } from "./compiler/job.js";
import type { CompileOptions } from "./compile-options.js";
import type { CacheOwner, CompileJob } from "./compiler/job.js";
import { entryKey, reviveArtifact, type CacheEntry, type Signature } from "./cache/entry.js";
import { methodFingerprint, valueFingerprint } from "./cache/fingerprint.js";
import { anyStore, dropEntry, findEntry, persisting } from "./cache/persistent.js";
import { imageProblems } from "./cache/image.js";
import { findPoison } from "./cache/poison.js";
import { ownerKey, runnableArches } from "./compiler/job.js";
import { runtimeFingerprint } from "./runtime/library-fingerprint.js";
import { foldedValues, type FoldedValues, type TableView } from "./captured-tables.js";

/** A specialization: the artifact, what it depended on, and where it is loaded. */
export interface Specialization {
  artifact: Artifact;
  /** The world it was compiled (or last revalidated) in. */
  world: number;
  /** Global names it resolved through the method table: an overlay of one of them invalidates it. */
  methodsUsed: ReadonlySet<string>;
  loaded: WeakMap<Device, LoadedKernel>;
  /** A revived artifact's tables (its sites resolved by name from the kernel's scope). */
  tables?: ReadonlyMap<string, HostArray>;
  /** Where it came from. */
  origin: "compiled" | "image" | "disk";
  /** The key of the entry it was revived from. */
  key?: string;
  /** The table elements its code holds as constants, with the values it was compiled with (captured-tables.ts). */
  folded: readonly FoldedValues[];
  /** The last tables view its folded elements were found to hold in (kernel.ts skips the check while the view is the same). */
  heldFor?: TableView;
}

/** What the specializer needs of its kernel. */
export interface KernelSource {
  readonly name: string;
  /** Its build-time id (the bundler plugin's), which covers the sources of its scope's functions; or null. */
  readonly id: string | null;
  /** Its function is the plugin's stand-in (KernelOptions.imageOnly): it runs from images only, never compiled. */
  readonly imageOnly: boolean;
  readonly scope: Record<string, unknown>;
  /** The scope names the kernel's code resolved, with the values they had (lowering fills it; a revived entry sets it). */
  readonly scopeDeps: Map<string, unknown>;
  /** The fingerprint of the kernel's source (and its declared types): part of every entry key. */
  fingerprint(): Promise<string>;
  /** While an image is being generated: another fingerprint its entries are filed under too (a bundled app's: the plugin's id), or null. */
  imageAlias(): Promise<string | null>;
  /** The kernel parsed and lowered (once). */
  lowered(): Promise<LoweredKernel>;
  /** Its parameter names and declared types (known before any compilation). */
  signature(): Signature;
  /** Told where each specialization it takes into its table came from (compile events: kernel.ts onCompile). */
  specialized(job: CompileJob, how: { origin: Specialization["origin"]; ms: number; inferenceReused?: boolean }, artifact: Artifact): void;
}

/**
 * Artifacts whose code passed the poison check (fresh output when compiled, revived entries where
 * they were read): a specialization's code is checked again before its first load on a device
 * only if it is not one of these (its table was changed behind the compiler's back).
 */
const checkedCode = new WeakSet<Artifact>();

/**
 * The compiler, with what a kernel does only where there is one (compiling.ts: a job compiled
 * afresh, checked, and kept where it persists). Given by the package's entry (index.ts), not by
 * the runtime-only entry (runtime-only.ts), whose processes and bundles never contain the parser,
 * inference, a back end or that code. Loaded once, on the first compilation.
 */
export interface Compiling {
  readonly compiler: CompilerModule;
  /** The job compiled afresh for `k`; `early`: its fingerprint and whether its code persists (persisting()), asked while the compiler loaded. */
  compileFresh(k: KernelSource, job: CompileJob, early: Promise<[string, boolean]>): Promise<Specialization>;
  /** compile() with `dump` or `optimize: false`: the job compiled as asked, nothing cached (the time it took, in ms). */
  compileUncached(job: CompileJob, lowered: () => Promise<LoweredKernel>, opts: Pick<CompileOptions, "target" | "dump" | "dumpSink" | "optimize">): Promise<{ artifact: Artifact; inferenceReused: boolean; ms: number }>;
}

let loadCompiler: (() => Promise<Compiling>) | null = null;
let compilePath: Promise<Compiling> | null = null;

export function provideCompiler(load: () => Promise<Compiling>): void { loadCompiler ??= load; }

/**
 * The compiler's ES modules, where a module that imports them statically (the CLI, the bundler
 * plugin) has loaded them already: the process's compiler, instead of the entry's (the compiler
 * script: two copies of the compiler's modules in one process would share nothing).
 */
export function useLoadedCompiler(c: Compiling): void { compilePath ??= Promise.resolve(c); }

/** The compiler; without one (the runtime-only entry), `missing`'s error: the kernel had to be in a loaded image. */
export function compiler(missing: () => Error): Promise<Compiling> {
  if (compilePath) return compilePath;
  if (!loadCompiler) return Promise.reject(missing());
  return (compilePath = loadCompiler());
}

/**
 * The error of a kernel the runtime-only entry cannot run: it is not in the loaded images. Where
 * the target has architectures, the one the device needs is named ("for llvm on gfx940": an AMD
 * code object runs on its own architecture only; "on sm_90 or older" where code is
 * forward-compatible).
 */
export function notInImages(kernel: string, target: string | null, types: readonly string[] | null, arch: string | null = null, imageOnly = false): KernelError {
  const problems = imageProblems(kernel);
  const on = target && arch ? ` on ${arch}${runnableArches(target, arch).length > 1 ? " or older" : ""}` : "";
  // (imageOnly: the plugin left the kernel's body out of the bundle, so not even a loaded compiler could compile it.)
  const fix = imageOnly
    ? "gpuc/plugin left its body out of this bundle (its module imports gpuc/runtime): build the image for the targets and types it runs with"
    : "compile it at build time (gpuc/plugin, gpuc precompile) or import 'gpuc' instead of 'gpuc/runtime'";
  return new KernelError("not-precompiled",
    `kernel ${quoteName(kernel)}${types ? ` (${types.join(", ")})` : ""}${target ? ` for ${target}${on}` : ""} is not in the loaded images; ${fix}${problems.length ? ` (${problems.join("; ")})` : ""}`);
}

export class Specializer {
  private readonly table = new Map<string, Specialization>();

  constructor(private readonly k: KernelSource) {}

  /** The specialization under a job's key if it is current (the launch path's one lookup), else undefined. */
  current(key: string): Specialization | undefined {
    const spec = this.table.get(key);
    return spec && spec.world === currentWorld() ? spec : undefined;
  }

  /** Forget every specialization (the kernel's source or scope changed). */
  clear(): void { this.table.clear(); }

  /** Forget the job's specialization (its code holds table values that changed: OpenCL's bake). */
  forget(job: CompileJob): void { this.table.delete(job.key); }

  /** The job's specialization: current in the table, revived from a store, or compiled (with `stored`, null instead of a compile). */
  async get(job: CompileJob): Promise<Specialization>;
  async get(job: CompileJob, stored: true): Promise<Specialization | null>;
  async get(job: CompileJob, stored?: true): Promise<Specialization | null> {
    let spec = this.table.get(job.key);
    const world = currentWorld();
    if (spec && spec.world !== world) {
      // Something was redefined since: recompile only if this code used it.
      const changed = changedSince(spec.world);
      // (A redefined runtime-library function reaches nearly every kernel: all recompile.)
      if ([...changed].some((n) => spec!.methodsUsed.has(n) || n.startsWith("runtime:"))) { this.table.delete(job.key); spec = undefined; }
      else spec.world = world;
    }
    if (!spec) {
      const t0 = now();
      const revived = await this.revive(job);
      if (revived) this.k.specialized(job, { origin: revived.origin, ms: now() - t0 }, revived.artifact);
      else if (stored) return null;
      spec = revived ?? (await this.compileFresh(job));
      this.table.set(job.key, spec);
    }
    return spec;
  }

  /**
   * The specialization loaded on a device (once per device). Code is scanned before it is first
   * linked: a poisoned specialization (in this kernel's own table) is compiled afresh; revived
   * code the device refuses to load is healed.
   */
  async loadOn(dev: Device, job: CompileJob, spec: Specialization): Promise<{ spec: Specialization; k: LoadedKernel }> {
    let k = spec.loaded.get(dev);
    if (k) return { spec, k };
    if (!checkedCode.has(spec.artifact) && (await findPoison(spec.artifact))) {
      spec = await this.compileFresh(job);
      this.table.set(job.key, spec);
    }
    try { k = dev.load(spec.artifact, spec.tables); }
    catch (e) {
      if (!this.healable(spec, e)) throw e;
      spec = await this.heal(job, spec);
      k = dev.load(spec.artifact, spec.tables);
    }
    spec.loaded.set(dev, k);
    return { spec, k };
  }

  /**
   * Revived code that a device rejects at launch (a shader its compiler refuses) was not made by
   * this gpuc as it is: the entry goes, the job is compiled afresh and loaded, for the caller to
   * launch again (the failed launch ran nothing). Any other failure is the caller's to throw.
   */
  async healLaunch(dev: Device, job: () => CompileJob, spec: Specialization, e: unknown): Promise<LoadedKernel> {
    if (!this.healable(spec, e)) throw e;
    const fresh = await this.heal(job(), spec);
    const k = dev.load(fresh.artifact, fresh.tables);
    fresh.loaded.set(dev, k);
    return k;
  }

  /** Whether a failure to load or launch revived code is the code's (then the entry is bad), not the user's or the device's. */
  private healable(spec: Specialization, e: unknown): boolean {
    if (spec.origin === "compiled") return false;
    if (e instanceof InternalCompilerError) return true;
    return e instanceof KernelError && e.kind === "launch" && /does not belong to this code|refers to the table|but the code was compiled for/.test(e.message);
  }

  /** Drop a revived entry that failed on a device from where it came from, and compile the job afresh. */
  private async heal(job: CompileJob, bad: Specialization): Promise<Specialization> {
    if (bad.key && bad.origin !== "compiled") await dropEntry(bad.key, bad.origin);
    const fresh = await this.compileFresh(job);
    this.table.set(job.key, fresh);
    return fresh;
  }

  /**
   * A stored entry for this job (image, then disk), if it still fits: same owner, same kernel
   * source, every scope value and overlay it depended on unchanged, its tables in the scope, no
   * poison. A poisoned entry is removed from where it came from; the caller compiles instead.
   */
  private async revive(job: CompileJob): Promise<Specialization | null> {
    if (!(await anyStore())) return null;
    const fingerprint = await this.k.fingerprint();
    // The job's own architecture first, then older ones whose code the device runs (PTX); then
    // the kernel's code for any block size, where the job's block size is only the launch's.
    const owners = runnableArches(job.target, job.owner.arch).map((arch) => (arch === job.owner.arch ? job.owner : { ...job.owner, arch }));
    if (job.general) owners.push(job.general);
    for (const owner of owners) {
      const key = entryKey(owner, fingerprint, job.types.join(","));
      const found = await findEntry(key);
      if (!found) continue;
      try {
        const revived = this.reviveEntry(job, owner, key, found.entry, found.from);
        if (revived) return revived;
      } catch {
        // Whatever an entry that passed the validator still gets wrong is a bad entry, never a crash.
        await dropEntry(key, found.from);
      }
    }
    return null;
  }

  private reviveEntry(job: CompileJob, owner: CacheOwner, key: string, entry: CacheEntry, from: "image" | "disk"): Specialization | null {
    // The entry passed the validator where it was read (validate.ts: the disk cache on load,
    // loadImage); what is left to check is what it depended on in this process. `owner` is the
    // job's, or the job's with an older architecture whose code the device runs.
    if (ownerKey(entry.owner) !== ownerKey(owner)) return null;
    const scope = this.k.scope;
    const valueOf = (name: string) => (Object.prototype.hasOwnProperty.call(scope, name) ? scope[name] : undefined);
    for (const [name, f] of entry.deps) if (valueFingerprint(valueOf(name), this.k.id !== null) !== f) return null;
    for (const [name, f] of entry.methods) if (methodFingerprint(job.target, name) !== f) return null;
    // Code linked with another runtime library (a redefined runtime function) is compiled afresh.
    if (entry.runtime !== runtimeFingerprint()) return null;
    const tables = new Map<string, HostArray>();
    for (const site of entry.artifact.manifest.sites) {
      const t = tableOf(valueOf(site.name));
      if (!t || "problem" in t) return null;
      tables.set(site.name, t.copied ? t.flat : t.flat.slice());   // a snapshot, as compiled code keeps (snapshotTables)
    }
    for (const [name] of entry.deps) this.k.scopeDeps.set(name, valueOf(name));
    const artifact = reviveArtifact(entry.artifact);
    checkedCode.add(artifact);   // by the validator, where the entry was read
    // (Whether the tables still hold the values the code folded is each launch's to check.)
    return { artifact, world: currentWorld(), methodsUsed: new Set(entry.methods.map((m) => m[0])), loaded: new WeakMap(), tables, origin: from, key, folded: foldedValues(artifact.manifest) };
  }

  /** The job compiled afresh (compiling.ts, with the compiler: without one, the not-precompiled error). */
  private async compileFresh(job: CompileJob): Promise<Specialization> {
    // What the compile needs besides the compiler, asked while it loads: the kernel's fingerprint,
    // and whether the code is kept beyond this process (a disk cache, an image being generated).
    const early = Promise.all([this.k.fingerprint(), persisting()]);
    early.catch(() => {});   // (the compile awaits it; without a compiler nothing does)
    const c = await compiler(() => notInImages(this.k.name, job.target, job.types, job.owner.arch));
    // (A stand-in — the plugin left the kernel's body out — is never compiled, even by a compiler the bundle has.)
    if (this.k.imageOnly) throw notInImages(this.k.name, job.target, job.types, job.owner.arch, true);
    const spec = await c.compileFresh(this.k, job, early);
    checkedCode.add(spec.artifact);   // by the poison check of fresh code, there
    return spec;
  }


}





/** Milliseconds, for compile events (performance.now where there is one). */
export function now(): number { return typeof performance !== "undefined" ? performance.now() : Date.now(); }
