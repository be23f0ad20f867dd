// The CPU device's sanitizer (`device("cpu", { sanitize: true })`, ARCHITECTURE.md "The
// sanitizer instruments the JavaScript"): the JavaScript target's code compiled with the
// `sanitize` feature calls it at every access of a global or shared array, at the start of every
// block and thread, at barriers, subgroup operations and fences; it keeps a shadow record of each
// element's last write and two readers and reports, when the launch ends, what a GPU would not
// run the same way twice:
//
//  - a data race: two accesses of one element by different threads, at least one a write, neither
//    atomic, and not ordered. Ordered means: the same thread (program order); the same block with a
//    barrier between them; the same subgroup with a subgroup operation between them (intervals,
//    below); or a release the second access's thread acquired (below). Two writes of the value the
//    element already holds are no race (it ends the same in any order).
//  - an uninitialized read: a thread reads (or atomically updates) an element of a shared array
//    that no thread of its block wrote before it in this launch (CUDA leaves shared memory
//    uninitialized; gpuc's zero-fill is once per launch, so a later block reads an earlier one's);
//    the device keeps it only where the launch's results depend on the values read (Sanitizer.launch:
//    a second run with shared memory poisoned).
//  - divergence: a subgroupBarrier() that some of its subgroup's running lanes reach and others do
//    not (syncthreads() under a divergent condition is reported by the code itself, always).
// Reports are kept once per array and pair of source locations (32 at most a launch), races first.
//
// Release and acquire across blocks (the last-block pattern: a block writes its partial result,
// threadfence(), then an atomic on a counter; the block that takes the last ticket reads them all):
// an atomic by a thread that has executed a fence releases, on that element, everything its thread
// did up to the atomic and everything its block did before the barrier preceding the fence; any
// atomic on the element acquires every release made on it before. What a thread acquired passes to
// its block at the next barrier, and is passed on by its own releases (transitively).
//
// Blocks run one after another and each barrier interval's threads one after another, so the
// shadow sees every access in an order a GPU might have run them; `threadOrder: "reversed"` runs
// each interval's threads and the blocks last first (a result that changes with it depends on an
// order no GPU promises). The shadow costs 36 bytes per element of each array a launch may write
// (an array only read, on a buffer no written parameter shares, is not checked: nothing races on
// it; nor is an array the kernel reaches at its thread's global x index only, in a launch of one
// row of threads and blocks, where no other argument shares its buffer);
// it lives as long as the array's buffer, and is never cleared: a record counts only if its
// interval is the launch's (the block's, for shared memory), so a launch costs no pass over it.
//
// Time is counted in intervals (a counter over the launch): a block's start and each of its
// barriers begin a new interval for all its threads, a subgroup operation for its subgroup's lanes,
// a fence for its thread. An access records its thread and that thread's interval; an earlier
// access of the same block is ordered before the running thread's if its interval is older than
// the block's last barrier, or, in the same subgroup, than the subgroup's last operation.

import { KernelError, quoteName, type Dim3, type SanitizerAccess, type SanitizerReport, type SourceLocation } from "../errors.js";
import type { RuntimeTables } from "../runtime/tables.js";
import { decodeException, newState, resetState } from "../runtime/host.js";
import { STATE } from "../runtime/state.js";
import type { Grid } from "./device.js";
import type { HostArray } from "../typed-arrays.js";
import { TRAP, argumentRanges, viewsOver, type CpuHost, type CpuKernel } from "./cpu-launch.js";

/**
 * An element's shadow, nine words: its last write and two readers (see read()); each as its thread
 * (global linear id + 1), interval (0: cleared or never written), and site (its index in the
 * code's sites, times two, plus one for an atomic access).
 */
const WT = 0, WI = 1, WS = 2, R1T = 3, R1I = 4, R1S = 5, R2T = 6, R2I = 7, R2S = 8, STRIDE = 9;

/** A release: a thread's atomic after a fence, on one element. */
interface Release { block: number; thread: number; interval: number; blockInterval: number; seq: number; acquired: Acquired[] }
/** An element's releases: by block, in the order they were made; `seq` counts them. */
interface Releases { byBlock: Map<number, Release[]>; seq: number }
/** What an atomic acquired: the element's releases made before it. */
interface Acquired { from: Releases; before: number }

class Shadow {
  releases: Map<number, Releases> | null = null;
  shared = false;
  constructor(readonly words: Int32Array, public name: string | null, readonly base: number, readonly checked: boolean) {}
}
/** A site: the array's name there, its location id, what it does; `own`: the kernel reaches this parameter at the thread's global x index only (targets/js/function.ts, ownIndexParams). */
interface Site { name: string; loc: number; access: "read" | "write" | "atomic"; own?: true }

const KIND_ORDER: Record<SanitizerReport["kind"], number> = { race: 0, divergence: 1, uninitialized: 2 };

/** The most reports a launch keeps (the error says how many more there were). */
const MAX_REPORTS = 32;
const NO_SHADOW = new Shadow(new Int32Array(0), null, 0, false);
/** Intervals restart (and every shadow with them) before they would pass what an Int32Array holds. */
const MAX_INTERVAL = 0x7fff0000;

/** A sanitizer for a CPU device that sanitizes (or, where a bundle left it out, why there is none). */
export function openSanitizer(): Sanitizer | string {
  return new Sanitizer();
}

export class Sanitizer {
  /** The generated code's sites: for each instrumented access, the array's name there and its location id. */
  private sites: Site[] = [];
  /** Per site: the array it last saw, that array's shadow, its first element's index there, its length (0: not checked). */
  private siteArray: unknown[] = [];
  private siteShadow: Shadow[] = [];
  private siteBase = new Int32Array(0);
  private siteLength = new Int32Array(0);
  /** This launch's shadows by buffer and element size (views of one buffer share one). */
  private byBuffer = new Map<ArrayBufferLike, Map<number, Shadow>>();
  /** Every buffer's shadow words, kept across launches while the buffer lives. */
  private words = new WeakMap<ArrayBufferLike, Map<number, Int32Array>>();
  private shared: Shadow[] = [];
  /** The launch's parameters' arrays: buffer → [byte offset, element size, name, whether the code may write it]. */
  private params = new Map<ArrayBufferLike, { offset: number; bytes: number; name: string; written: boolean }[]>();

  /** Whether each barrier interval's threads, and the blocks, run last first. */
  rev = false;
  private nt = 1;
  private grid: number[] = [1, 1, 1, 1, 1, 1];
  private subgroupSize = 32;
  /** The running thread: its global linear id + 1, its index in the block, its interval; its block and that block's first global id. */
  private me = 1;
  private t = 0;
  private interval = 0;
  private block = 0;
  private first = 0;
  /** The next interval; the block's last barrier's (or its start's); each subgroup's last operation's. */
  private nextInterval = 1;
  /** The launch's first interval, and the block's: records of older intervals are not this launch's (block's). */
  private launchStart = 1;
  private blockStart = 1;
  private barrierInterval = 0;
  /** barrierInterval − blockStart: the intervals of this block before its last barrier. */
  private span = 0;
  private subgroupInterval = new Int32Array(1);
  /**
   * Per thread: its interval where newer than the block's last barrier (set by a subgroup operation
   * or a fence; an older value, a barrier's or another block's, means the barrier's). Nothing per
   * thread or subgroup is cleared when a block begins (a block of 1,024 threads would pay for it
   * thousands of times a launch): what must start afresh is stamped with the block it is of.
   */
  private threadInterval = new Int32Array(1);
  /** Per thread, for the block `stamp` says (else empty): its subgroup operations, its last fence's barrier interval (-1: none), what it acquired since the last barrier. */
  private stamp = new Int32Array(1);
  private subgroupOps = new Int32Array(1);
  private fenced = new Int32Array(1);
  private acquired: (Acquired[] | null)[] = [];
  /** Per subgroup, for the block `subgroupStamp` says: how many operations it has begun. */
  private subgroupStamp = new Int32Array(1);
  private subgroupOpsMade = new Int32Array(1);
  /** The threads that acquired something since the last barrier; what the block acquired before it. */
  private acquiring: number[] = [];
  private blockAcquired: Acquired[] = [];

  private reports: SanitizerReport[] = [];
  private seen = new Set<string>();
  private more = 0;
  private tables: RuntimeTables | null = null;

  /**
   * A launch of the CPU device's under this sanitizer (cpu.ts, for kernels compiled with the
   * `sanitize` feature): on the calling thread (a signal is seen before it starts), as
   * JavaScript; the kernel's own exception first, then the sanitizer's findings.
   *
   * An uninitialized read is reported where the launch's results depend on it: the launch runs
   * again, on copies of what it may write as they were before it, with each block's shared arrays
   * filled with other values (NaN, a bit pattern); where that run's results are the first's, the
   * values read did not matter (cuda-samples' shfl_intimage_rows reads a shared slot per lane of
   * warp 0, past the warps there are, and discards what it read) and its uninitialized reads are
   * not reported. Only a launch with such a read runs twice.
   */
  launch(host: CpuHost, k: CpuKernel, args: unknown[], grid: Grid): void {
    const [gx, gy, gz] = grid.blocks, [dx, dy, dz] = grid.threads;
    const names = k.artifact.params.map((p) => p.name), written = k.readOnly.map((r) => !r);
    const a = k.artifact;
    // What the launch may write, as it was (only a kernel with shared arrays reads uninitialized memory).
    const before = k.sanShared ? snapshot(args, written) : null;
    const run = (state: Int32Array, runArgs: unknown[], poison: boolean): SanitizerReport[] => {
      resetState(state);
      this.begin(k.sanSites, runArgs, names, written, [gx, gy, gz, dx, dy, dz], host.subgroupSize, host.reversed, a.runtime, poison);
      try { k.run(state, ...runArgs, gx, gy, gz, dx, dy, dz); }
      catch (e) { if (e !== TRAP) { this.end(); throw e; } }
      return this.end();
    };
    let reports: SanitizerReport[];
    try { reports = run(host.state, args, false); }
    catch (e) { host.flushPrints(a); throw e; }
    if (before && reports.some((r) => r.kind === "uninitialized")) {
      const again = before.restore();
      let differs: string | null;
      try { run(newState(host.state.length - STATE.PRINT_BASE), again.args, true); differs = again.differs(args, names); }
      catch { differs = "the second run raised an error"; }
      if (differs === null) reports = reports.filter((r) => r.kind !== "uninitialized");
      else for (const r of reports) if (r.kind === "uninitialized") r.message += `; the launch's results depend on it (with other values in shared memory, ${differs})`;
    }
    host.flushPrints(a);
    const err = decodeException(host.state, a.runtime, a.kernel);
    if (err) throw err;
    const report = this.error(a.kernel, reports);
    if (report) throw report;
  }

  /** A launch begins: the code's sites, its parameters (arrays, names, which the code may write), its grid. */
  begin(sites: unknown, args: readonly unknown[], names: readonly string[], written: readonly boolean[], grid: readonly number[], subgroupSize: number, rev: boolean, tables: RuntimeTables, poison = false): void {
    this.poison = poison;
    this.sites = Array.isArray(sites) ? sites as Site[] : [];
    const n = this.sites.length;
    this.siteArray = new Array(n).fill(null);
    this.siteShadow = new Array(n).fill(NO_SHADOW);
    this.siteBase = new Int32Array(n);
    this.siteLength = new Int32Array(n);
    this.byBuffer.clear();
    this.shared = [];
    this.params.clear();
    args.forEach((a, i) => {
      if (!ArrayBuffer.isView(a)) return;
      const view = a as unknown as { buffer: ArrayBufferLike; byteOffset: number; BYTES_PER_ELEMENT: number };
      const list = this.params.get(view.buffer) ?? [];
      list.push({ offset: view.byteOffset, bytes: view.BYTES_PER_ELEMENT, name: names[i] ?? `argument ${i}`, written: written[i] !== false });
      this.params.set(view.buffer, list);
    });
    this.grid = [...grid];
    this.nt = grid[3] * grid[4] * grid[5];
    this.subgroupSize = subgroupSize;
    this.subgroupInterval = new Int32Array(Math.ceil(this.nt / subgroupSize));
    this.subgroupOpsMade = new Int32Array(this.subgroupInterval.length);
    this.subgroupStamp = new Int32Array(this.subgroupInterval.length);
    this.threadInterval = new Int32Array(this.nt);
    this.stamp = new Int32Array(this.nt);
    this.subgroupOps = new Int32Array(this.nt);
    this.fenced = new Int32Array(this.nt);
    this.acquired = new Array(this.nt).fill(null);
    this.acquiring = [];
    if (this.nextInterval > MAX_INTERVAL) { this.nextInterval = 1; this.words = new WeakMap(); }
    this.launchStart = this.nextInterval;
    this.rev = rev;
    this.reports = [];
    this.seen.clear();
    this.more = 0;
    this.tables = tables;
  }

  /** The launch ends: its findings (races first: see error()). */
  end(): SanitizerReport[] {
    this.byBuffer.clear();
    this.shared = [];
    this.sharedArrays = [];
    this.params.clear();
    this.siteArray = [];
    this.siteShadow = [];
    // Races first: a read of an element its neighbour writes later in the same interval is also
    // a read of uninitialized shared memory in the order the threads ran, but the race is the defect.
    return [...this.reports].sort((a, b) => KIND_ORDER[a.kind] - KIND_ORDER[b.kind]);
  }

  /** Findings as one error (null: none), the first one's kind. */
  error(kernel: string, r: SanitizerReport[]): KernelError | null {
    if (!r.length) return null;
    const lines = r.map((x) => x.message);
    const message = `sanitizer: ${lines[0]} in kernel ${quoteName(kernel)}` +
      lines.slice(1).map((l) => `\n  also: ${l}`).join("") + (this.more ? `\n  and ${this.more} more` : "");
    const first = r[0];
    const err = new KernelError(first.kind, message, { location: first.second.location, thread: first.second.thread, block: first.second.block });
    (err as { reports?: SanitizerReport[] }).reports = r;
    return err;
  }

  // ---- what the generated code calls -----------------------------------------------------------

  /** A shared array of the launch (allocated once; its shadow starts afresh with each block). */
  sh(a: ArrayLike<number>, name: string): void {
    const s = this.shadowOf(a as never);
    s.shared = true;
    s.name = name;
    this.shared.push(s);
    this.sharedArrays.push(a as unknown as { fill(v: number): void; BYTES_PER_ELEMENT: number; constructor: unknown });
  }

  /**
   * Whether each block's shared arrays start filled with other values than the first run left
   * (a run that tells whether the launch's results depend on the uninitialized values it read).
   */
  private poison = false;
  private sharedArrays: { fill(v: number): void; BYTES_PER_ELEMENT: number; constructor: unknown }[] = [];

  /** Block `b` (linear) begins. */
  b(b: number): void {
    this.block = b;
    this.first = b * this.nt;
    this.blockStart = this.barrierInterval = this.nextInterval++;
    this.span = 0;
    if (this.blockAcquired.length) this.blockAcquired = [];
    this.acquiring.length = 0;
    // (NaN for floats, a pattern for integers: values a computation seldom makes by chance.)
    if (this.poison) for (const a of this.sharedArrays) a.fill(a.constructor === Float32Array || a.constructor === Float64Array ? NaN : 0x5a5a5a5a);
  }

  /** Thread `t` of the block runs. */
  t_(t: number): void {
    this.t = t;
    this.me = this.first + t + 1;
    const own = this.threadInterval[t];
    this.interval = own > this.barrierInterval ? own : this.barrierInterval;
  }

  /** Thread t's per-block state, made this block's (rare paths only: operations, fences, atomics). */
  private fresh(t: number): void {
    if (this.stamp[t] === this.blockStart) return;
    this.stamp[t] = this.blockStart;
    this.subgroupOps[t] = 0;
    this.fenced[t] = -1;
    this.acquired[t] = null;
  }

  /** Every thread of the block passed a barrier. */
  bar(): void {
    this.interval = this.barrierInterval = this.nextInterval++;
    this.span = this.barrierInterval - this.blockStart;
    for (const i of this.acquiring) {
      const a = this.acquired[i];
      if (a) { for (const x of a) this.blockAcquired.push(x); this.acquired[i] = null; }
    }
    this.acquiring.length = 0;
  }

  /** The running thread took part in a subgroup operation (its k-th: the subgroup's k-th begins a new interval). */
  sgop(): void {
    const t = this.t, g = (t / this.subgroupSize) | 0;
    this.fresh(t);
    if (this.subgroupStamp[g] !== this.blockStart) { this.subgroupStamp[g] = this.blockStart; this.subgroupOpsMade[g] = 0; }
    const k = ++this.subgroupOps[t];
    if (this.subgroupOpsMade[g] < k) { this.subgroupOpsMade[g] = k; this.subgroupInterval[g] = this.nextInterval++; }
    this.threadInterval[t] = this.interval = Math.max(this.interval, this.subgroupInterval[g]);
  }

  /** The running thread executed a fence: a new interval of its own. */
  fence(): void {
    this.fresh(this.t);
    this.fenced[this.t] = this.barrierInterval;
    this.threadInterval[this.t] = this.interval = this.nextInterval++;
  }

  /** A subgroupBarrier() that only some of the subgroup's running lanes reached. */
  div(site: number): void {
    const s = this.sites[site];
    this.report("divergence", `divergence:${s?.loc ?? site}`, null, null, null, this.access(this.me - 1, s?.loc ?? -1, "atomic"),
      (second) => `subgroupBarrier() at ${where(second.location)} is reached by thread ${dim(second.thread)} of block ${dim(second.block)} but not by every running lane of its subgroup`);
  }

  /**
   * A load of element i (the code reads `a[r(a, i, site)]`): checks it and records it; gives i.
   * Two readers are kept: the first of another thread whose read the running thread's is not
   * ordered after (R1), and a second one (R2); a write by any thread then meets a read of another
   * among them. Readers ordered before the running thread (an older interval of its block) make
   * room. So a value many threads read after a barrier costs two records, then none.
   */
  r(a: ArrayLike<number>, i: number, site: number): number {
    // (Small enough for the engine to inline at each site: an unchecked array's access costs a test.)
    return this.siteArray[site] === a && i >>> 0 >= this.siteLength[site] ? i : this.read(a, i, site);
  }

  // (In what follows a record is this launch's — this block's, for shared memory — where its
  // interval is at least `valid`; a cleared or never written one has interval 0. The records of
  // this block are those from blockStart on (blocks run one after another), and those ordered
  // before the running thread by a barrier lie in [blockStart, barrierInterval): one unsigned
  // compare, `(interval - blockStart) >>> 0 < span`. Anything else takes the slow tests.)

  private read(a: ArrayLike<number>, i: number, site: number): number {
    if (this.siteArray[site] !== a) { this.bind(a, site); if (i >>> 0 >= this.siteLength[site]) return i; }
    const sh = this.siteShadow[site];
    const w = sh.words, o = (this.siteBase[site] + i) * STRIDE, me = this.me, bs = this.blockStart, span = this.span;
    const valid = sh.shared ? bs : this.launchStart;
    const wt = w[o + WT], wi = w[o + WI];
    if (wt !== me && (wi - bs) >>> 0 >= span) {
      if (wi < valid) { if (sh.shared) this.uninitialized(sh, o / STRIDE, site); }
      else if ((w[o + WS] & 1) === 0 && !this.near(wt, wi)) this.check(sh, o, WT, site, "read");
    }
    const r1i = w[o + R1I];
    if (w[o + R1T] === me || r1i < valid || (r1i - bs) >>> 0 < span) {
      w[o + R1T] = me; w[o + R1I] = this.interval; w[o + R1S] = site << 1;
      return i;
    }
    const r2i = w[o + R2I];
    if (w[o + R2T] === me || r2i < valid || (r2i - bs) >>> 0 < span) {
      w[o + R2T] = me; w[o + R2I] = this.interval; w[o + R2S] = site << 1;
    }
    return i;
  }

  /** The value of the store being checked (the code stores it after w()). */
  v: unknown = 0;

  /**
   * A store of v to element i (the code writes `a[w(a, i, site, v)] = v`): checks it and records
   * it; gives i. Two writes of the value the element holds are no race: it ends the same in any order.
   */
  w(a: ArrayLike<number>, i: number, site: number, v: unknown): number {
    this.v = v;
    return this.siteArray[site] === a && i >>> 0 >= this.siteLength[site] ? i : this.write(a, i, site, v);
  }

  private write(a: ArrayLike<number>, i: number, site: number, v: unknown): number {
    if (this.siteArray[site] !== a) { this.bind(a, site); if (i >>> 0 >= this.siteLength[site]) return i; }
    const sh = this.siteShadow[site];
    const w = sh.words, o = (this.siteBase[site] + i) * STRIDE, me = this.me, bs = this.blockStart, span = this.span;
    const valid = sh.shared ? bs : this.launchStart;
    // (A write of the value the element holds meets no earlier write.)
    let t = w[o + WT], ti = w[o + WI];
    if (t !== me && ti >= valid && (ti - bs) >>> 0 >= span && (w[o + WS] & 1) === 0 && a[i] !== v && !this.near(t, ti)) this.check(sh, o, WT, site, "write");
    t = w[o + R1T]; ti = w[o + R1I];
    if (t !== me && ti >= valid && (ti - bs) >>> 0 >= span && !this.near(t, ti)) this.check(sh, o, R1T, site, "write");
    else {
      t = w[o + R2T]; ti = w[o + R2I];
      if (t !== me && ti >= valid && (ti - bs) >>> 0 >= span && !this.near(t, ti)) this.check(sh, o, R2T, site, "write");
    }
    w[o + R1I] = 0;
    w[o + R2I] = 0;
    w[o + WT] = me;
    w[o + WI] = this.interval;
    w[o + WS] = site << 1;
    return i;
  }

  /** An atomic read-modify-write of element i (the code does it after): checks it and records it as a read and a write. */
  x(a: ArrayLike<number>, i: number, site: number): void {
    if (this.siteArray[site] !== a) this.bind(a, site);
    if (i >>> 0 >= this.siteLength[site]) return;
    const sh = this.siteShadow[site];
    const w = sh.words, o = (this.siteBase[site] + i) * STRIDE, me = this.me;
    const valid = sh.shared ? this.blockStart : this.launchStart;
    // (An atomic races with nothing: a race is of two plain accesses. It leaves the plain records
    // as they are — a plain write before it still meets a plain read after it — and stands as the
    // element's write only where it is the first, so that the element counts as written.)
    if (w[o + WI] < valid) {
      if (sh.shared) this.uninitialized(sh, o / STRIDE, site);
      w[o + WT] = me;
      w[o + WI] = this.interval;
      w[o + WS] = (site << 1) | 1;
    }
    this.atomicSync(sh, o / STRIDE);
  }

  // ---- the shadow -----------------------------------------------------------------------------

  /** Whether an access by thread `t` (global id + 1) in `interval` is ordered before the running thread's by its block's barriers or its subgroup's operations. */
  private near(t: number, interval: number): boolean {
    const local = t - 1 - this.first;
    if (local >>> 0 >= this.nt) return false;
    return interval < this.barrierInterval || (((local / this.subgroupSize) | 0) === ((this.t / this.subgroupSize) | 0) && interval < this.subgroupInterval[(this.t / this.subgroupSize) | 0]);
  }

  private bind(a: ArrayLike<number>, site: number): void {
    this.siteArray[site] = a;
    const s = this.shadowOf(a as never);
    this.siteShadow[site] = s;
    const v = a as unknown as { byteOffset: number; BYTES_PER_ELEMENT: number };
    this.siteBase[site] = v.byteOffset / v.BYTES_PER_ELEMENT;
    this.siteLength[site] = s.checked && !this.own(site, a) ? a.length : 0;
  }

  /**
   * Whether a site's array is its thread's alone: the kernel reaches it at the thread's global x
   * index only, the launch has one row of threads per block and one row of blocks (so each thread
   * has its own index), and no other argument shares its buffer. Nothing else reaches its elements.
   */
  private own(site: number, a: ArrayLike<number>): boolean {
    const g = this.grid;
    // (And the global x index does not wrap around i32: fewer than 2^31 threads along x.)
    if (!this.sites[site]?.own || g[1] !== 1 || g[2] !== 1 || g[4] !== 1 || g[5] !== 1 || g[0] * g[3] > 2 ** 31) return false;
    return (this.params.get((a as unknown as { buffer: ArrayBufferLike }).buffer)?.length ?? 0) === 1;
  }

  private shadowOf(a: { buffer: ArrayBufferLike; BYTES_PER_ELEMENT: number }): Shadow {
    let m = this.byBuffer.get(a.buffer);
    if (!m) this.byBuffer.set(a.buffer, (m = new Map()));
    let s = m.get(a.BYTES_PER_ELEMENT);
    if (!s) {
      const list = this.params.get(a.buffer);
      const p = list?.find((x) => x.bytes === a.BYTES_PER_ELEMENT) ?? null;
      // (An array only read, on a buffer no parameter the code may write shares, cannot race.)
      const checked = !list || list.some((x) => x.written);
      let kept = this.words.get(a.buffer);
      if (!kept) this.words.set(a.buffer, (kept = new Map()));
      let words = kept.get(a.BYTES_PER_ELEMENT);
      if (!words && checked) kept.set(a.BYTES_PER_ELEMENT, (words = new Int32Array(((a.buffer.byteLength / a.BYTES_PER_ELEMENT) | 0) * STRIDE)));
      s = new Shadow(checked ? words! : NO_SHADOW.words, p?.name ?? null, p ? p.offset / p.bytes : 0, checked);
      m.set(a.BYTES_PER_ELEMENT, s);
    }
    return s;
  }

  /** The slow path: whether the access recorded at `at` is ordered before the running thread's by a release it acquired; if not, a race. */
  private check(sh: Shadow, o: number, at: number, site: number, access: SanitizerAccess["access"]): void {
    const w = sh.words;
    const other = w[o + at] - 1, interval = w[o + at + 1];
    const block = Math.floor(other / this.nt);
    this.fresh(this.t);
    const mine = this.acquired[this.t];
    if (covers(this.blockAcquired, block, other, interval, 0) || (mine !== null && covers(mine, block, other, interval, 0))) return;
    this.race(sh, o / STRIDE, w[o + at + 2], other, site, at === WT ? "write" : "read", access);
  }

  /** An atomic on element e: acquires the releases made on it before, and releases if its thread has fenced. */
  private atomicSync(sh: Shadow, e: number): void {
    const rel = (sh.releases ??= new Map()).get(e) ?? { byBlock: new Map(), seq: 0 };
    sh.releases.set(e, rel);
    this.fresh(this.t);
    if (rel.seq > 0) {
      if (!this.acquired[this.t]) { this.acquired[this.t] = []; this.acquiring.push(this.t); }
      this.acquired[this.t]!.push({ from: rel, before: rel.seq });
    }
    const fenceBlockInterval = this.fenced[this.t];
    if (fenceBlockInterval < 0) return;
    const mine = this.acquired[this.t];
    const r: Release = { block: this.block, thread: this.me - 1, interval: this.interval, blockInterval: fenceBlockInterval, seq: rel.seq++, acquired: [...this.blockAcquired, ...(mine ?? [])] };
    const list = rel.byBlock.get(this.block);
    if (list) list.push(r); else rel.byBlock.set(this.block, [r]);
  }

  // ---- reports --------------------------------------------------------------------------------

  private uninitialized(s: Shadow, e: number, site: number): void {
    const info = this.sites[site];
    const name = s.name ?? info?.name ?? "a shared array";
    this.report("uninitialized", `uninitialized:${name}:${info?.loc ?? site}`, name, e, null, this.access(this.me - 1, info?.loc ?? -1, info?.access ?? "read"),
      (second) => `${second.access === "atomic" ? "an atomic update" : "a read"} of ${elementText(name, e)} at ${where(second.location)} by thread ${dim(second.thread)} of block ${dim(second.block)} finds an element no thread of its block wrote (shared memory starts uninitialized on a GPU: write it, then syncthreads(), before reading it)`);
  }

  private race(s: Shadow, e: number, firstSite: number, firstThread: number, site: number, kind: "read" | "write", access: SanitizerAccess["access"]): void {
    const info = this.sites[site];
    const name = s.name ?? info?.name ?? "an array";
    const el = e - s.base;
    const before = this.sites[firstSite >> 1];
    const first = this.access(firstThread, before?.loc ?? -1, firstSite & 1 ? "atomic" : kind);
    const second = this.access(this.me - 1, info?.loc ?? -1, access);
    // (Once per array and pair of source locations: \`a[0] += x\` races as a read and as a write.)
    const l1 = before?.loc ?? -1, l2 = info?.loc ?? -1;
    const key = `race:${name}:${Math.min(l1, l2)}:${Math.max(l1, l2)}`;
    const sameBlock = first.block.x === second.block.x && first.block.y === second.block.y && first.block.z === second.block.z;
    const between = sameBlock ? "no syncthreads() or subgroup operation between them" : "different blocks, not ordered by a threadfence() and an atomic";
    this.report("race", key, name, el, first, second, () =>
      `data race on ${elementText(name, el)}: ${article(first.access)} at ${where(first.location)} by thread ${dim(first.thread)} of block ${dim(first.block)} and ${article(second.access)} at ${where(second.location)} by thread ${dim(second.thread)} of block ${dim(second.block)} (${between})`);
  }

  private report(kind: SanitizerReport["kind"], key: string, array: string | null, element: number | null, first: SanitizerAccess | null, second: SanitizerAccess, text: (second: SanitizerAccess) => string): void {
    if (this.seen.has(key)) return;
    this.seen.add(key);
    if (this.reports.length >= MAX_REPORTS) { this.more++; return; }
    this.reports.push({ kind, array, element, first, second, message: text(second) });
  }

  private access(global: number, loc: number, access: SanitizerAccess["access"]): SanitizerAccess {
    const [gx, gy, , dx, dy] = this.grid;
    const b = Math.floor(global / this.nt), t = global - b * this.nt;
    const l = loc >= 0 ? this.tables?.location(loc) ?? null : null;
    return {
      access,
      location: l ? { file: l.file, line: l.line, column: l.column } : null,
      thread: { x: t % dx, y: Math.floor(t / dx) % dy, z: Math.floor(t / (dx * dy)) },
      block: { x: b % gx, y: Math.floor(b / gx) % gy, z: Math.floor(b / (gx * gy)) },
    };
  }
}

/** Whether a release in `acquired` (or what its releaser had acquired, transitively) covers thread `thread`'s access of `block` in `interval`. */
function covers(acquired: readonly Acquired[], block: number, thread: number, interval: number, depth: number): boolean {
  for (const a of acquired) {
    const list = a.from.byBlock.get(block);
    if (list) {
      for (const r of list) {
        if (r.seq >= a.before) break;
        if ((r.thread === thread && interval <= r.interval) || interval < r.blockInterval) return true;
      }
    }
    if (depth < 4) {
      for (const [, l] of a.from.byBlock) for (const r of l) if (r.seq < a.before && r.acquired.length && covers(r.acquired, block, thread, interval, depth + 1)) return true;
    }
  }
  return false;
}

/** An element as the source names it: `a[3]`, and a struct array's field (parameter `a.x`) `a[3].x`. */
const elementText = (name: string, e: number): string => {
  const dot = name.indexOf(".");
  return dot < 0 ? `${name}[${e}]` : `${name.slice(0, dot)}[${e}]${name.slice(dot)}`;
};
const where = (l: SourceLocation | null): string => (l ? `${l.file}:${l.line}:${l.column}` : "an unknown location");
const dim = (d: Dim3): string => `(${d.x}, ${d.y}, ${d.z})`;
const article = (a: SanitizerAccess["access"]): string => (a === "atomic" ? "an atomic update" : `a ${a}`);

/**
 * The arguments a launch may write, as they are now: `restore` gives the arguments again over
 * fresh copies of them, `differs` says where those differ after a run from the first run's (null:
 * nowhere).
 */
function snapshot(args: readonly unknown[], written: readonly boolean[]) {
  const ranges = argumentRanges(args, (i) => written[i], () => true);
  const saved = new Map([...ranges].map(([buffer, r]) => [buffer, new Uint8Array(buffer, r.lo, r.hi - r.lo).slice()]));
  return {
    restore() {
      for (const [buffer, r] of ranges) r.copy = saved.get(buffer)!.slice();
      const again = viewsOver(args, ranges);
      return {
        args: again,
        differs(first: readonly unknown[], names: readonly string[]): string | null {
          for (let i = 0; i < first.length; i++) {
            const x = first[i], y = again[i];
            if (!ArrayBuffer.isView(x) || x === y || !written[i]) continue;
            const bx = new Uint8Array(x.buffer, x.byteOffset, x.byteLength), by = new Uint8Array((y as HostArray).buffer, (y as HostArray).byteOffset, x.byteLength);
            for (let j = 0; j < bx.length; j++) {
              if (bx[j] !== by[j]) return `${names[i] ?? `argument ${i}`}[${Math.floor(j / (x as HostArray).BYTES_PER_ELEMENT)}] differs`;
            }
          }
          return null;
        },
      };
    },
  };
}
