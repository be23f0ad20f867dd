// Where compiled specializations persist beyond a process: the entries of loaded kernel images
// (first; but see findEntry for an unsigned image's entry) and the disk cache (then), opened on
// first use, in Node only; GPUC_CACHE=0 turns the disk cache off (images are loaded only on
// request, with loadImage). While an image is being generated (`gpuc precompile`) neither is
// consulted nor written: the image holds only what this compiler produces now, whatever the
// user's cache or loaded images hold.

import type { CacheEntry, Signature } from "./entry.js";
import { collect, dropImageEntry, generating, imageEntry, imageEntryUnchecked, imagesLoaded, imagesLoading, imagesSettled, imageSignature, unsignedImagesLoaded } from "./image.js";
import type { DiskCache } from "./disk.js";

type DiskModule = typeof import("./disk.js");
/**
 * The disk cache's module (the store, the user's key, the tags): imported when it is first
 * opened, at a path of its own that gpuc/plugin resolves to a stand-in in an app whose image is
 * pinned (an app's bundle can compile nothing, and its image's entries need no checked copies:
 * ARCHITECTURE.md "An app's bundle has no checks"). The package's full entry (index.ts) hands it
 * over loaded: with the rest of the module graph it cost 0.6 ms more to import and 3.6 ms less to
 * the first result than an import at the first launch (measured; bench/ttfk.ts). Nothing is
 * opened or read until a launch asks.
 */
let diskModule = (): Promise<DiskModule> => import("./disk.js");
export function provideDiskModule(m: DiskModule): void { diskModule = () => Promise.resolve(m); }

let disk: Promise<DiskCache | null> | null = null;

/** This process's disk cache (opened on first use), or null. */
export function diskCache(): Promise<DiskCache | null> {
  const isNode = typeof process !== "undefined" && typeof process.versions?.node === "string";
  disk ??= isNode ? diskModule().then((m) => m.openDiskCache()).catch(() => null) : Promise.resolve(null);
  return disk;
}

/**
 * Start what the first launch will need from the stores, without waiting for it (called while a
 * GPU device is being opened, which mostly waits on the driver): the disk cache opened (its
 * directory and key), and, when an unsigned image is loaded, the validator's schemas (not the
 * code checker: a process that meets no code to check never loads it). Each is memoized, so the
 * first launch awaits the same work instead of doing it again. Given the device's target, also the
 * check of that target's code (an unsigned image's entries are checked on first use).
 */
export function warmUp(target: string | null = null): void {
  if (generating()) return;
  diskCache().catch(() => {});
  if (!unsignedImagesLoaded() && !imagesLoading()) return;
  import("./validate.js").then((v) => v.warmUp()).catch(() => {});
  // The check of the device's code read back, where no disk cache can hold a checked copy (in a
  // browser: a chain of module fetches otherwise made one after another on the first launch).
  if (target !== null) diskCache().then((d) => (d ? undefined : import("./checks.js").then((c) => c.prefetchCodeCheck(target)))).catch(() => {});
}

/** Whether there is anywhere to look (images loaded — once those being loaded are —, or the disk cache on): else no fingerprints are computed. */
export async function anyStore(): Promise<boolean> {
  if (generating()) return false;
  await imagesSettled();
  return imagesLoaded() || (await diskCache()) !== null;
}

/**
 * The entry of a job: from a loaded image, else from the disk cache. An unsigned image's entry
 * is checked in full on its first use in each process (its code parsed: it is anyone's code);
 * once it passes, it is also kept in the disk cache, tagged with the user's key like everything
 * this user's gpuc writes there, and later processes take that copy (same job, same key, checked
 * once) before the image's.
 */
export async function findEntry(key: string): Promise<{ entry: CacheEntry; from: "image" | "disk" } | null> {
  if (generating()) return null;
  if (imageEntryUnchecked(key)) {
    const d = await diskCache();
    const fromDisk = d ? await d.get(key) : null;
    if (fromDisk) return { entry: fromDisk, from: "disk" };
    const fromImage = await imageEntry(key);
    // Kept after this launch (a write, and the first one lists the store: off the path to the result).
    if (fromImage && d) setTimeout(() => { saveEntry(fromImage).catch(() => {}); }, 0);
    return fromImage ? { entry: fromImage, from: "image" } : null;
  }
  const fromImage = await imageEntry(key);
  if (fromImage) return { entry: fromImage, from: "image" };
  const d = await diskCache();
  const fromDisk = d ? await d.get(key) : null;
  return fromDisk ? { entry: fromDisk, from: "disk" } : null;
}

export async function findSignature(fingerprint: string): Promise<Signature | null> {
  if (generating()) return null;
  const fromImage = await imageSignature(fingerprint);
  if (fromImage) return fromImage;
  const d = await diskCache();
  return d ? d.signature(fingerprint) : null;
}

/** Whether anything would keep an entry (the disk cache is on, or an image is being generated). */
export async function persisting(): Promise<boolean> {
  return generating() || (await diskCache()) !== null;
}

/** Keep a persistable specialization: on disk, and in the image being generated. */
export async function saveEntry(entry: CacheEntry): Promise<void> {
  if (generating()) { collect(entry); return; }
  const d = await diskCache();
  if (!d) return;
  try {
    d.put(entry);
    d.putSignature(entry.fingerprint, entry.signature);
  } catch { /* a read-only or full disk: the cache is an optimization */ }
}

/** An entry found wanting (poisoned, stale): gone from where it came from. */
export async function dropEntry(key: string, from: "image" | "disk"): Promise<void> {
  if (from === "image") { dropImageEntry(key); return; }
  (await diskCache())?.remove(key);
}
