// Kernel images (DESIGN §4, §8): the compiled kernels a package ships, made at build time by
// running its workload (`gpuc precompile`) and revived at run time (`loadImage`) without compiling.
// An image is code from its publisher: loading one runs what it holds. Verify its signature
// (`loadImage(src, { publicKey })`) where the image travels through hands you do not trust.
// The file format, signatures and validation are in image-file.ts (loaded by loadImage, not at
// gpuc's import); this module holds what a process has loaded and the collector of
// `gpuc precompile`.
//
// Validation of a loaded image's entries is split in two: everything but the code check when
// the image is loaded (a malformed entry, another gpuc's, one filed under another job, one whose
// manifest does not belong to its code: skipped, in the report `loadImage` returns); the code
// check (code-check.ts) when an entry is first used, so that a process parses only the code it
// runs — a WebGPU program never loads the JavaScript parser for an image's JS entries. An entry
// whose code fails then is skipped too: the report gains it, and the kernel is compiled.

import type { CacheEntry, Signature } from "./entry.js";
import { KernelError } from "../errors.js";
import { findPoison } from "./poison.js";

export interface ImageReport {
  /** Where the image came from. */
  source: string;
  gpuc: string;
  /** Whether the image's signature was verified against the public key given to loadImage. */
  signed: boolean;
  /** Entries made available. */
  loaded: { kernel: string; target: string; types: string[] }[];
  /** Entries left out, and why (an entry whose code fails its check on first use is added then). */
  skipped: { kernel: string; target: string; reason: string }[];
}

/** A loaded image's entry: whether its code is still to be checked (on first use), and the report to tell. */
interface LoadedEntry { entry: CacheEntry; report: ImageReport; codeChecked: boolean; authenticated: boolean }

/** Entries revived from loaded images, by key; signatures by kernel fingerprint. */
const imageEntries = new Map<string, LoadedEntry>();
export const imageSignatures = new Map<string, Signature>();

/** Whether any image entry is loaded. */
export function imagesLoaded(): boolean { return imageEntries.size > 0; }

/** The loaded image entry of a job, its code checked on this first use (null, and skipped with the reason, if it fails). */
export async function imageEntry(key: string): Promise<CacheEntry | null> {
  const loaded = imageEntries.get(key);
  if (!loaded) return null;
  if (!loaded.codeChecked) {
    const { entry, report } = loaded;
    // A verified signature stands for the code check, as a disk file's tag does (validate.ts).
    const poison = loaded.authenticated ? null : await findPoison(entry.artifact);
    if (imageEntries.get(key) !== loaded) return imageEntry(key);
    if (poison) {
      imageEntries.delete(key);
      const i = report.loaded.findIndex((l) => l.kernel === entry.kernel && l.target === entry.owner.target && l.types.join() === entry.types.join());
      if (i >= 0) report.loaded.splice(i, 1);
      report.skipped.push({ kernel: entry.kernel, target: entry.owner.target, reason: `poisoned: ${poison}` });
      return null;
    }
    loaded.codeChecked = true;
  }
  return loaded.entry;
}

/** An image entry found wanting after it was revived (a device rejected it): gone for this process. */
export function dropImageEntry(key: string): void { imageEntries.delete(key); }

export interface LoadImageOptions {
  /** Verify the image's Ed25519 signature with this public key (PEM) before using anything in it. */
  publicKey?: string | object;
}

/**
 * Make a kernel image's entries available to this process: `loadImage("kernels.gpucimg")`,
 * `loadImage(new URL("./kernels.gpucimg", import.meta.url))`, or the bytes. In Node, images are
 * read from files (paths, `file:` URLs) or given as bytes; fetching `http(s):` URLs is left to
 * browsers (in Node, fetch the bytes yourself if you mean to run code from the network). A launch
 * whose job (kernel source, argument types, owner) matches an entry revives it without compiling.
 * Returns what was loaded and what was skipped, with the reasons.
 */
export async function loadImage(source: string | URL | Uint8Array | ArrayBuffer, options: LoadImageOptions = {}): Promise<ImageReport> {
  const file = await import("./image-file.js");
  let bytes: Uint8Array, name: string;
  if (source instanceof Uint8Array) { bytes = source; name = "<bytes>"; }
  else if (source instanceof ArrayBuffer) { bytes = new Uint8Array(source); name = "<bytes>"; }
  else {
    name = String(source);
    const url = source instanceof URL ? source : /^[a-z][a-z0-9+.-]*:\/\//i.test(source) ? new URL(source) : null;
    if (url && url.protocol !== "file:" && isNode())
      throw new KernelError("invalid-image", `loadImage reads kernel images from files and bytes in Node, not from ${url.protocol}// URLs (${name}): an image is code; fetch it yourself and pass the bytes if you mean to run it`);
    try {
      if (url && url.protocol !== "file:") {
        const response = await fetch(url);
        if (!response.ok) throw new Error(`HTTP ${response.status} ${response.statusText}`);
        bytes = new Uint8Array(await response.arrayBuffer());
      } else {
        const fs = await import("node:fs");
        bytes = fs.readFileSync(url ?? (source as string));
      }
    } catch (e) {
      throw new KernelError("invalid-image", `cannot read the kernel image ${name}: ${(e as Error).message}`);
    }
  }
  const signed = options.publicKey !== undefined;
  if (signed) await file.verifyImage(bytes, options.publicKey!, name);
  const { report, entries } = await file.parseImage(bytes, name, { code: false });
  report.signed = signed;
  for (const e of entries) {
    imageEntries.set(e.key, { entry: e, report, codeChecked: false, authenticated: signed });
    imageSignatures.set(e.fingerprint, e.signature);
  }
  return report;
}

export function isNode(): boolean {
  return typeof process !== "undefined" && typeof process.versions?.node === "string";
}

// ---- generating an image ----------------------------------------------------------------------

let collector: Map<string, CacheEntry> | null = null;

/** Whether compilations are being collected for an image (`gpuc precompile`). */
export function generating(): boolean { return collector !== null; }

export function startGenerating(): void { collector = new Map(); }

/** Stop collecting; returns what was collected. */
export function stopGenerating(): CacheEntry[] {
  const out = collector ? [...collector.values()] : [];
  collector = null;
  return out;
}

/** Record a compiled (or revived) specialization for the image being generated. */
export function collect(entry: CacheEntry): void {
  collector?.set(entry.key, entry);
}
