// Kernel images (ARCHITECTURE.md, "Caches"): the compiled kernels a package ships, made at build
// time by running its workload (`gpuc precompile`) and revived at run time (`loadImage`) without
// compiling. An image is code from its publisher: loading one runs what it holds. Verify its
// signature (`loadImage(src, { publicKey })`) where the image travels through hands you do not
// trust. The file format, signatures, validation and the reading of an image from where it is are
// in image-read.ts (loaded by loadImage, not at gpuc's import); this module holds what a process
// has loaded and the collector of `gpuc precompile`.
//
// A loaded image's entries are validated one by one, each when it is first used (image-read.ts's
// checkImageEntry: its checksum, its record, its manifest, its code — code-check.ts), so that a
// process pays for the entries it runs, not for the image: a program that runs one kernel of a
// package of forty checks one, and a WebGPU program never loads the JavaScript parser for the
// image's JS entries. loadImage itself checks the file (header, checksum, envelope; a file that
// is not a usable image is an invalid-image KernelError). An entry that fails its check is
// skipped: the report (which listed it as loaded) gains it with the reason, and the kernel is
// compiled. `gpuc image inspect` checks every entry at once, with the same code.

import type { CacheEntry, Signature } from "./entry.js";
import type { ImageReport, LoadImageOptions, LoadedEntry } from "./image-read.js";
import { CompileError } from "../errors.js";
import { atCallSite, callSite } from "../frontend/caller.js";

export type { ImageReport, LoadImageOptions };


/** Entries of loaded images, by key; by kernel fingerprint, an entry that holds the kernel's signature. */
const imageEntries = new Map<string, LoadedEntry>();
const imageSignatureSources = new Map<string, LoadedEntry[]>();
/** Signatures validated so far (a failing one is null). */
const imageSignatureCache = new Map<string, Signature | null>();

/** Whether any image entry is loaded. */
export function imagesLoaded(): boolean { return imageEntries.size > 0; }

/** Whether an unsigned image's entry is loaded (its records are checked against the schemas). */
export function unsignedImagesLoaded(): boolean {
  for (const e of imageEntries.values()) if (!e.authenticated) return true;
  return false;
}

/**
 * Whether the image entry of a job, if there is one, would be checked in full on its first use:
 * loaded from an unsigned image and not yet validated (the JS parser, for JavaScript). A disk
 * cache entry of the same job, authenticated by the user's key, is then the cheaper copy.
 */
export function imageEntryUnchecked(key: string): boolean {
  const loaded = imageEntries.get(key);
  return !!loaded && !loaded.authenticated && loaded.checked === null;
}

/** The loaded image entry of a job, validated on this first use (null, and skipped with the reason, if it fails). */
export async function imageEntry(key: string): Promise<CacheEntry | null> {
  const loaded = imageEntries.get(key);
  if (!loaded) return null;
  loaded.checked ??= import("./image-read.js").then((file) => file.checkLoadedEntry(loaded));
  const entry = await loaded.checked;
  if (!entry && imageEntries.get(key) === loaded) imageEntries.delete(key);
  return entry;
}

/** The signature (parameter names, declared types) of a kernel an image holds, validated on first use; or null. */
export async function imageSignature(fingerprint: string): Promise<Signature | null> {
  if (imageSignatureCache.has(fingerprint)) return imageSignatureCache.get(fingerprint)!;
  // (The validator loads beside the file's module: in a browser each is a fetch.)
  import("./validate.js").catch(() => {});
  const sig = await (await import("./image-read.js")).entriesSignature(imageSignatureSources.get(fingerprint) ?? []);
  imageSignatureCache.set(fingerprint, sig);
  return sig;
}

/** An image entry found wanting after it was revived (a device rejected it): gone for this process. */
export function dropImageEntry(key: string): void { imageEntries.delete(key); }

/**
 * Make a kernel image's entries available to this process: `loadImage("kernels.gpucimg")`,
 * `loadImage(new URL("./kernels.gpucimg", import.meta.url))`, or the bytes. In Node, images are
 * read from files (paths, `file:` URLs) or given as bytes; fetching `http(s):` URLs is left to
 * browsers (in Node, fetch the bytes yourself if you mean to run code from the network). A launch
 * whose job (kernel source, argument types, owner) matches an entry revives it without compiling.
 * Returns what was loaded and what was skipped, with the reasons. A launch made while an image
 * loads waits for it (so `loadImage(…)` need not be awaited before launching: the bundler
 * plugin's image loads while the program opens its device).
 */
export function loadImage(source: string | URL | Uint8Array | ArrayBuffer, options: LoadImageOptions = {}): Promise<ImageReport> {
  // A mistake in the options is said at the user's call (its stack taken before anything awaits).
  const site = callSite();
  const loading = loadImageNow(source, options).catch((e: unknown) => { throw e instanceof CompileError ? atCallSite(e, site) : e; });
  pendingLoads.add(loading);
  loading.then(() => { pendingLoads.delete(loading); }, (e: unknown) => {
    pendingLoads.delete(loading);
    loadFailures.push(e instanceof Error ? e.message : String(e));
  });
  return loading;
}

/** Why loadImage calls of this process failed. */
const loadFailures: string[] = [];
/** Every loaded image's report (what it skipped, and why). */
const reports: ImageReport[] = [];

/**
 * What went wrong with the images for a kernel: the loads that failed, and its entries that were
 * skipped (another gpuc's, corrupt…). A kernel then missing from the images says so.
 */
export function imageProblems(kernel: string): string[] {
  const skipped = reports.flatMap((r) => r.skipped.filter((s) => s.kernel === kernel).map((s) => `${r.source}: its ${s.target} entry was skipped: ${s.reason}`));
  return [...loadFailures.map((m) => `a kernel image failed to load: ${m}`), ...new Set(skipped)];
}

/** Images being loaded (loadImage not settled yet). */
const pendingLoads = new Set<Promise<ImageReport>>();

/** Whether an image is being loaded. */
export function imagesLoading(): boolean { return pendingLoads.size > 0; }

/** Once every image being loaded has loaded or failed (a failure is loadImage's caller's to see). */
export async function imagesSettled(): Promise<void> {
  if (pendingLoads.size) await Promise.allSettled([...pendingLoads]);
}

async function loadImageNow(source: string | URL | Uint8Array | ArrayBuffer, options: LoadImageOptions): Promise<ImageReport> {
  // (The validator loads beside the file's module and bytes: in a browser each is a fetch.)
  import("./validate.js").catch(() => {});
  const { report, entries } = await (await import("./image-read.js")).readImage(source, options);
  reports.push(report);
  for (const loaded of entries) {
    imageEntries.set(loaded.raw.key, loaded);
    if (loaded.raw.fingerprint !== null) {
      const sources = (imageSignatureSources.get(loaded.raw.fingerprint) ?? []).filter((o) => o.raw.key !== null && imageEntries.get(o.raw.key) === o);
      imageSignatureSources.set(loaded.raw.fingerprint, [loaded, ...sources]);   // the latest image first
      imageSignatureCache.delete(loaded.raw.fingerprint);
    }
  }
  return report;
}

// ---- generating an image ----------------------------------------------------------------------

let collector: Map<string, CacheEntry> | null = null;

/** Where a kernel() call ran: a file and a 1-based line and column. */
export interface CallPosition { file: string; line: number; column: number }

/**
 * The id and name the bundler plugin writes into the kernel() call that ran at a position, if the
 * kernel it makes there has this signature (cli/build-ids.ts), or null: `gpuc precompile` files a
 * kernel's entries under that id's fingerprint too (Kernel.imageAlias), so that a plugin-built
 * app finds them.
 */
export type PluginIdOf = (at: CallPosition, signature: Signature) => { id: string; name: string } | null;
let pluginIdOf: PluginIdOf | null = null;

/** Whether compilations are being collected for an image (`gpuc precompile`). */
export function generating(): boolean { return collector !== null; }

/** Collect compilations from now on; `idOf` (precompile's) tells kernels without an id the plugin's. */
export function startGenerating(idOf: PluginIdOf | null = null): void { collector = new Map(); pluginIdOf = idOf; }

/** Stop collecting; returns what was collected. */
export function stopGenerating(): CacheEntry[] {
  const out = collector ? [...collector.values()] : [];
  collector = null;
  pluginIdOf = null;
  return out;
}

/** While an image is being generated with an id finder: the plugin's id and name for the kernel() call at a position; else null. */
export function pluginId(at: CallPosition, signature: Signature): { id: string; name: string } | null {
  return collector && pluginIdOf ? pluginIdOf(at, signature) : null;
}

/** Record a compiled (or revived) specialization for the image being generated. */
export function collect(entry: CacheEntry): void {
  collector?.set(entry.key, entry);
}
