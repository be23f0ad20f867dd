// A kernel's captured tables as its launches see them: JavaScript's meaning. A kernel run as
// plain JavaScript reads a scope table when it runs, so a launch sees each table's contents as
// they are when `launch()` is called — a table the host rewrote in place since the last launch
// (Rodinia's k-means rewrites its centroids before every iteration, `cudaMemcpyToSymbol`'s
// pattern) reaches the device, never the values of an earlier launch or of the compile.
//
// How (ARCHITECTURE.md, "Captured tables"): each launch compares the tables the kernel's code
// reads with the copies it saw last (`observe`: 4-byte words, so NaNs and -0 compare by bits)
// and makes a new copy of one that changed. Every loaded instance of the kernel is brought to
// that view before it runs (`sync`: `Device.updateTable`, only the tables that changed, once per
// change and instance). Code that holds table elements as constants (reads at constant indices,
// folded: the manifest's `folded`) is right only while the tables still hold those values:
// `stale` says which table changed under a specialization, and the kernel recompiles it with that
// table no longer folded (as if `rewritable`: its code then reads the table, and later changes
// are uploads; the table is still compared). Tables named `rewritable` are the explicit form: their values are the kernel's (the
// ones at compile time, then each `setTable`'s), never compared, so they cost nothing per launch.

import { KernelError, quoteName } from "./errors.js";
import type { Device, LoadedKernel } from "./devices/device.js";
import { tableElement, tableOf, type HostArray, type TableValue } from "./typed-arrays.js";
import { foldedValue, type FoldedTable, type RelocationManifest } from "./reloc/manifest.js";

/** The tables' values one launch sees: a new view (and version) whenever one of them changed. The arrays are never written. */
export interface TableView {
  readonly version: number;
  readonly values: ReadonlyMap<string, HostArray>;
}

/** The elements a specialization's code holds as constants, with the values it was compiled with. */
export interface FoldedValues { readonly name: string; readonly indices: readonly number[]; readonly values: readonly number[] }

/** The values a specialization's code holds as constants (its manifest's, as numbers). */
export function foldedValues(manifest: RelocationManifest): FoldedValues[] {
  return (manifest.folded ?? []).map((t) => ({ name: t.name, indices: t.indices, values: t.values.map(foldedValue) }));
}

/** Whether two typed arrays of one element type and length hold the same bits (4-byte words: -0 is not 0, a NaN is itself). */
export function sameBits(a: HostArray, b: HostArray): boolean {
  return a.byteLength === b.byteLength && sameWords(words(a), words(b));
}

/**
 * Whether two word views hold the same words. Node: memcmp (Buffer.compare) past 1 KiB; elsewhere,
 * and below that, a loop (a Buffer per compare costs more than a short loop).
 */
function sameWords(x: Int32Array, y: Int32Array): boolean {
  if (x.length !== y.length) return false;
  if (x.length >= 256 && nodeBuffer) return nodeBuffer.compare(nodeBuffer.from(x.buffer, x.byteOffset, x.byteLength), nodeBuffer.from(y.buffer, y.byteOffset, y.byteLength)) === 0;
  for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return false;
  return true;
}

const nodeBuffer = (globalThis as { Buffer?: { compare(a: Uint8Array, b: Uint8Array): number; from(b: ArrayBufferLike, o: number, n: number): Uint8Array } }).Buffer;

/** A table's contents as 4-byte words (every table element is 4 or 8 bytes, aligned). */
function words(a: HostArray): Int32Array {
  return a instanceof Int32Array ? a : new Int32Array(a.buffer, a.byteOffset, a.byteLength >> 2);
}

/** Each loaded instance: the view it was brought to, and the arrays its sites hold (by name). */
interface InstanceTables { version: number; given: Map<string, HostArray> }

/**
 * A table compared at each launch: the live array last seen under its name and its words, and the
 * words of the view's copy (views made once, so a launch compares without allocating).
 */
interface Tracked {
  name: string; live: HostArray | null; liveWords: Int32Array | null; seenWords: Int32Array | null;
  /** A table made from plain Arrays: its element type and shape when first seen (its code's). */
  shape?: string;
}

function isArray(v: unknown): boolean {
  try { return Array.isArray(v); } catch { return false; }   // (a revoked Proxy)
}

/** A table of tables, or a plain Array of numbers, as a launch sees it: flattened again each launch (typed-arrays.ts, tableOf). */
function arrayTable(v: unknown): TableValue | null {
  const t = tableOf(v);
  return t && !("problem" in t) ? t : null;
}

export class CapturedTables {
  private view: TableView = { version: 0, values: new Map() };
  /** The tables compared at each launch; recomputed when the code's scope names change (`invalidate`, or new ones read). */
  private tracked: Tracked[] | null = null;
  private trackedFrom = -1;
  private readonly instances = new WeakMap<LoadedKernel, InstanceTables>();

  constructor(
    /** The kernel's scope object (the caller's). */
    private readonly scope: Record<string, unknown>,
    /** The scope names its code read, with their values then (the kernel's scopeDeps; empty before its first lowering or revival). */
    private readonly deps: ReadonlyMap<string, unknown>,
    /** The tables the user named `rewritable`: their values are the kernel's (setTable's), never compared. */
    private readonly rewritable: ReadonlySet<string>,
  ) {}

  /**
   * Set by `observe` when a table made from plain Arrays changed its element type or shape in
   * place: the kernel's code no longer fits it, and the kernel is lowered again (its scope
   * revalidated) before the launch goes on.
   */
  reshaped = false;

  /** The scope names to compare may have changed (the kernel is lowered again). */
  invalidate(): void { this.tracked = null; this.reshaped = false; }

  /**
   * The tables as this launch sees them: each compared (by bits) with the copy seen last, and
   * copied anew where it changed. Called synchronously at the start of every launch. Before the
   * kernel's code is known (its first launch), every table of its scope is compared; then the
   * ones its code reads.
   */
  observe(): TableView {
    this.reshaped = false;
    if (this.tracked === null || this.trackedFrom !== this.deps.size) this.track();
    const tracked = this.tracked!;
    if (!tracked.length) return this.view;
    let changed: Map<string, HostArray> | null = null;
    for (const t of tracked) {
      let live = this.scope[t.name];
      // (A table made from plain Arrays is flattened anew: its rows may have changed in place.)
      if (!tableElement(live)) {
        const table = arrayTable(live);
        // (One that is no table now, a row made longer: lowered again, it is the error that says why.)
        if (!table) { if (this.deps.size) this.reshaped = true; continue; }
        // A new element type or shape (an integer that became a fraction, a longer row) needs new
        // code: the kernel is lowered again (reshaped), as for a name bound to something else.
        const shape = `${table.flat.constructor.name}[${table.dims ?? table.flat.length}]`;
        if ((t.shape ??= shape) !== shape) { this.reshaped = true; continue; }
        const flat = table.flat;
        const seen = this.view.values.get(t.name);
        if (seen && seen.constructor === flat.constructor && sameBits(seen, flat)) continue;
        t.live = null;
        (changed ??= new Map(this.view.values)).set(t.name, flat);
        continue;
      }
      if (live !== t.live) {
        // (A name bound to something else now is the kernel's revalidateScope's: the code recompiles.)
        if (!tableElement(live)) continue;
        // (Another array under the name: compared as any, but never taken for the copy of another type.)
        const seen = this.view.values.get(t.name);
        t.live = live as HostArray;
        t.liveWords = words(t.live);
        t.seenWords = seen && seen.constructor === t.live.constructor ? words(seen) : null;
      }
      if (t.seenWords && sameWords(t.liveWords!, t.seenWords)) continue;
      const copy = t.live!.slice();
      t.seenWords = words(copy);
      (changed ??= new Map(this.view.values)).set(t.name, copy);
    }
    if (changed) this.view = { version: this.view.version + 1, values: changed };
    return this.view;
  }

  /** A rewritable table's new values (kernel.setTable), for every later launch. */
  setTable(name: string, values: HostArray): void {
    this.view = { version: this.view.version + 1, values: new Map(this.view.values).set(name, values.slice()) };
  }

  /**
   * The first table of a specialization's folded elements that no longer holds its compiled
   * value in `view`, with what changed (for messages); null when the code is right for it.
   */
  stale(folded: readonly FoldedValues[], view: TableView): { name: string; index: number; was: number; now: number } | null {
    for (const t of folded) {
      // (A table the view does not hold cannot change under the code: a rewritable one, whose
      // reads are never folded, or a generated function's own, which no launch sees.)
      const now = view.values.get(t.name);
      if (!now) continue;
      for (let j = 0; j < t.indices.length; j++)
        if (!Object.is(now[t.indices[j]], t.values[j])) return { name: t.name, index: t.indices[j], was: t.values[j], now: now[t.indices[j]] };
    }
    return null;
  }

  /**
   * Bring a loaded instance to `view` before it runs: each of its sites whose values differ from
   * the view's is updated on the device (once per change). `initial(name)` is what the instance
   * was loaded with. False when the instance cannot take a compared table's new values (its
   * tables are part of its program: OpenCL's `bake`): the caller compiles the kernel again.
   */
  sync(dev: Device, k: LoadedKernel, view: TableView, initial: (name: string) => HostArray | undefined): boolean {
    let inst = this.instances.get(k);
    if (inst?.version === view.version) return true;
    if (!inst) this.instances.set(k, (inst = { version: -1, given: new Map() }));
    for (const site of k.artifact.manifest.sites) {
      const want = view.values.get(site.name);
      if (!want) continue;
      const had = inst.given.get(site.name);
      if (had === want) continue;
      const was = had ?? initial(site.name);
      if (!was || !sameBits(was, want)) {
        // (A rewritable table's new values are setTable's, which a compile does not see: the
        // device says why it cannot take them.)
        if (k.tablesInCode && !this.rewritable.has(site.name)) return false;
        dev.updateTable(k, site.name, want);
      }
      inst.given.set(site.name, want);
    }
    inst.version = view.version;
    return true;
  }

  /** The names to compare: the tables of the scope the code reads (all of the scope's before that is known), less the rewritable ones. */
  private track(): void {
    const names = this.deps.size ? [...this.deps.keys()] : Object.keys(this.scope);
    // (An Array that is no table now stays tracked: its code was made for a table. The shapes seen
    // are kept until the kernel is lowered again.)
    const shapes = new Map(this.tracked?.map((t) => [t.name, t.shape]));
    this.tracked = names.filter((n) => !this.rewritable.has(n) && (tableElement(this.scope[n]) !== null || isArray(this.scope[n])))
      .map((name) => ({ name, live: null, liveWords: null, seenWords: null, shape: shapes.get(name) }));
    this.trackedFrom = this.deps.size;
  }
}

/** The error of a kernel gpuc/runtime cannot recompile: a table changed under an element its code holds as a constant. */
export function staleWithoutCompiler(kernel: string, s: { name: string; index: number; was: number; now: number }, cause: string): KernelError {
  return new KernelError("not-precompiled",
    `kernel ${quoteName(kernel)}: its code holds ${s.name}[${s.index}] = ${s.was} as a constant (a read at a constant index, folded when it was compiled), and the table now holds ${s.now}; ` +
    `without the compiler (gpuc/runtime) it cannot be compiled again: name the table in the kernel's rewritable option (kernel(fn, { scope, rewritable: ["${s.name}"] })), so that its code reads it, and build again (${cause})`);
}

export type { FoldedTable };
