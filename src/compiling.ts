// What a kernel does only where there is a compiler (ARCHITECTURE.md, "Caches"): a compile job
// compiled afresh, its code checked, and kept where it persists — with the record of what the
// compilation depended on, made when it is compiled — and compile()'s uncached compile (dumps,
// `optimize: false`). The specializer (specializer.ts) and kernel.ts reach it
// through `compiler()`, which the full entry provides with the compiler (index.ts; the CLI and the
// bundler plugin with the compiler they loaded): the runtime-only entry never imports this module,
// so neither its process nor an app's bundle holds code that only a compiler's process runs.

import { InternalCompilerError, quoteName } from "./errors.js";
import type { HostArray } from "./typed-arrays.js";
import { currentWorld } from "./registry.js";
import type { Artifact } from "./targets/target.js";
import { isPersistable } from "./reloc/manifest.js";
import type { CompileJob, CompilerModule, DumpStage, LoweredKernel } from "./compiler/job.js";
import type { CompileOptions } from "./compile-options.js";
import { entryKey, storeArtifact, type CacheEntry } from "./cache/entry.js";
import { IN_ID, methodFingerprint, valueFingerprint } from "./cache/fingerprint.js";
import { persisting, saveEntry } from "./cache/persistent.js";
import { findPoison } from "./cache/poison.js";
import { runtimeFingerprint } from "./runtime/library-fingerprint.js";
import { foldedValues } from "./captured-tables.js";
import { now, type Compiling, type KernelSource, type Specialization } from "./specializer.js";

/** The compiler with what a kernel does with it (specializer.ts's `Compiling`). */
export function compiling(compiler: CompilerModule): Compiling {
  return { compiler, compileFresh: (k, job, early) => compileFresh(compiler, k, job, early), compileUncached: (job, lowered, opts) => compileUncached(compiler, job, lowered, opts) };
}

/** compile() with `dump` or `optimize: false` (kernel.ts): the job compiled as asked, nothing cached, the IR after each stage asked for given to the sink. */
async function compileUncached(c: CompilerModule, job: CompileJob, lowered: () => Promise<LoweredKernel>, opts: Pick<CompileOptions, "target" | "dump" | "dumpSink" | "optimize">) {
  const sink = opts.dumpSink ?? ((stage: DumpStage, text: string) => console.error(`;; ---- IR after ${stage} ----\n${text}`));
  const [backEnd, src] = await Promise.all([c.loadTarget(opts.target), lowered()]);
  const t0 = now();
  const out = c.compileLowered(src, job, backEnd!, {
    optimize: opts.optimize ?? true,
    dump: opts.dump?.length ? { stages: new Set(opts.dump), sink } : undefined,
  });
  return { artifact: out.artifact, inferenceReused: out.inferenceReused, ms: now() - t0 };
}

/**
 * The job compiled afresh for kernel `k` (`early`: its fingerprint and whether its code is kept
 * beyond this process, asked while the compiler loaded). Its code passes the poison check
 * before anything uses it; its record is made only where the code is kept (a disk cache, an image
 * being generated).
 */
async function compileFresh(c: CompilerModule, k: KernelSource, job: CompileJob, early: Promise<[string, boolean]>): Promise<Specialization> {
  const [backEnd, src, [fingerprint, keep]] = await Promise.all([c.loadTarget(job.target), k.lowered(), early]);
  if (!backEnd) throw new InternalCompilerError(`compile job for '${job.target}', which is not a target`);
  const t0 = now();
  const { artifact, methodsUsed, inferenceReused } = c.compileLowered(src, job, backEnd);
  const ms = now() - t0;
  // From here until the record is made nothing awaits: the record's facts (the scope values,
  // overlays and runtime library the code was compiled against) are those of this compilation,
  // whatever the program redefines after it.
  snapshotTables(artifact);
  const made = keep ? entryRecord(k, job, fingerprint, artifact, methodsUsed) : null;
  // Fresh code with a call to something it does not define is a compiler bug: never kept.
  const poison = await findPoison(artifact);
  if (poison) throw new InternalCompilerError(`the ${job.target} code of kernel ${quoteName(k.name)} is poisoned: ${poison}`);
  const spec: Specialization = { artifact, world: currentWorld(), methodsUsed: new Set(methodsUsed), loaded: new WeakMap(), origin: "compiled", folded: foldedValues(artifact.manifest) };
  k.specialized(job, { origin: "compiled", ms, inferenceReused }, artifact);
  // An image being generated needs the entry now; the disk cache can have it after this
  // launch (making an entry resolves every source location: off the path to the result).
  if (made) {
    if (job.forImage) await persist(made, artifact, await k.imageAlias());
    else persistLater(made, artifact);
  }
  return spec;
}

/**
 * What a cache entry records about a compilation, made when the code is compiled
 * (ARCHITECTURE.md, "Caches"): its key and owner, the kernel's source and signature, and the
 * fingerprints of every scope value, overlay and runtime function the code depended on. Null when
 * the code cannot be kept beyond this process (session-local relocations, a generated function's
 * output).
 */
function entryRecord(k: KernelSource, job: CompileJob, fingerprint: string, artifact: Artifact, methodsUsed: string[]): EntryRecord | null {
  if (!isPersistable(artifact)) return null;
  const deps: [string, string][] = [...k.scopeDeps].map(([name, v]) => [name, valueFingerprint(v, k.id !== null)]);
  // A generated function's output is not determined by its source alone (it may close over
  // values): code that used one stays in this process.
  if (deps.some(([, f]) => f.startsWith("g:"))) return null;
  return {
    key: entryKey(job.owner, fingerprint, job.types.join(",")), owner: job.owner, kernel: k.name, fingerprint, types: [...job.types],
    signature: k.signature(), deps: deps.sort((a, b) => (a[0] < b[0] ? -1 : 1)),
    methods: [...methodsUsed].sort().map((n) => [n, methodFingerprint(job.target, n)]),
    runtime: runtimeFingerprint(),
  };
}

/** A compilation's record without its artifact (made at compile time; the artifact is stored later). */
type EntryRecord = Omit<CacheEntry, "artifact">;

/**
 * Keep a compiled specialization (disk cache; the image being generated): the record as made, with
 * the artifact as stored data; and, under an image alias (`gpuc precompile`: the fingerprint of
 * the plugin's id), the same code as a kernel with that id records it — its scope's plain
 * functions as IN_ID, their sources being in the id.
 */
async function persist(record: EntryRecord, artifact: Artifact, alias: string | null = null): Promise<void> {
  if (!(await persisting())) return;
  const stored = storeArtifact(artifact);
  await saveEntry({ ...record, artifact: stored });
  if (alias === null || alias === record.fingerprint) return;
  const deps = record.deps.map(([name, f]): [string, string] => [name, f.startsWith("f:") ? IN_ID : f]);
  await saveEntry({ ...record, key: entryKey(record.owner, alias, record.types.join(",")), fingerprint: alias, deps, artifact: stored });
}

/**
 * Writes an entry once this turn of the event loop is over. (A function of its own: the timer
 * holds what it writes, not the closure scope of compileFresh — the specializer, its kernel, the
 * lowered source and the inference cache's module — which a program compiling many kernels
 * before the event loop turns kept alive until then: at 600 compiles in one loop, 55 MB live and
 * scavenges that made each compile 1.45× slower: BENCHMARKS §p′.)
 */
function persistLater(record: EntryRecord, artifact: Artifact): void {
  setTimeout(() => { persist(record, artifact).catch(() => {}); }, 0);
}

/**
 * Compiled code loads with a copy of the values its tables had when it was compiled (the CPU binds
 * the copy, GPUs upload it): what the compile saw, whatever the host writes later. A launch then
 * brings every instance to the tables as it sees them (captured-tables.ts).
 */
function snapshotTables(artifact: Artifact): void {
  artifact.globals = artifact.globals.map((g) => ({ ...g, value: (g.value as HostArray).slice() }));
}
