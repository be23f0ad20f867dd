// Reading kernel image files (ARCHITECTURE.md, "Caches"), format 2: a header line `gpuc-image 2
// <sha256 of the body>` — followed, in a signed image, by ` ed25519:<base64 signature of the
// body>` — then the body, JSON: `{ gpuc, entries: [{ checksum, entry }] }`, entries sorted by key,
// each (see entry.ts) with its own sha256. Every entry goes through the validator the disk cache
// uses (validate.ts), each on its first use for loadImage (image.ts); one that fails is skipped
// with the reason. What a program that runs kernels needs of images, and only that: writing,
// signing and inspecting them (image-file.ts) is the tools' (the plugin, the CLI), so an app's
// bundle, which loads this module with loadImage, carries none of it.

import { GPUC_VERSION } from "../version.js";
import type { CacheEntry } from "./entry.js";
import { sha256 } from "../sha256.js";
import { CompileError, KernelError, unknownOption } from "../errors.js";
import { describeArgument, describeValue, isDetached } from "../typed-arrays.js";
import { checkEntry, checkImageDocument, checkSignature, checks, otherGpuc, warmUp, type Verdict } from "./validate.js";
import type { Signature } from "./entry.js";

export interface ImageReport {
  /** Where the image came from. */
  source: string;
  gpuc: string;
  /** Whether the image's signature was verified against the public key given to loadImage. */
  signed: boolean;
  /** Whether the image is the one loadImage's `sha256` pins. */
  pinned: boolean;
  /** Entries made available (each is validated when first used: one that fails moves to `skipped`). */
  loaded: { kernel: string; target: string; types: string[] }[];
  /** Entries left out, and why (an entry that fails its check on first use is added then). */
  skipped: { kernel: string; target: string; reason: string }[];
}

/** Whether this is Node (where images are read from files and bytes only). */
export function isNode(): boolean {
  return typeof process !== "undefined" && typeof process.versions?.node === "string";
}

export const IMAGE_FORMAT = 2;

/** An image file's header fields and body text (its checksum verified). */
export interface ImageParts { hash: string; signature: string | null; body: string }

/** The parts of an image file: its header fields and body text. */
export function splitImage(bytes: Uint8Array, source: string): ImageParts {
  const text = new TextDecoder().decode(bytes);
  const nl = text.indexOf("\n");
  const m = /^gpuc-image (\d+) ([0-9a-f]{64})(?: ed25519:([A-Za-z0-9+/=]+))?$/.exec(nl < 0 ? text.slice(0, 300) : text.slice(0, nl));
  if (!m) {
    const format = /^gpuc-image (\d+) /.exec(text.slice(0, 40));
    if (format && Number(format[1]) !== IMAGE_FORMAT) throw new KernelError("invalid-image", `${source} is a kernel image of format ${format[1]}; this gpuc (${GPUC_VERSION}) reads format ${IMAGE_FORMAT}`);
    throw new KernelError("invalid-image", `${source} is not a gpuc kernel image (no 'gpuc-image' header)`);
  }
  if (Number(m[1]) !== IMAGE_FORMAT) throw new KernelError("invalid-image", `${source} is a kernel image of format ${m[1]}; this gpuc (${GPUC_VERSION}) reads format ${IMAGE_FORMAT}`);
  const body = text.slice(nl + 1);
  if (sha256(body) !== m[2]) throw new KernelError("invalid-image", `${source} is corrupt: its checksum does not match (truncated or modified)`);
  return { hash: m[2], signature: m[3] ?? null, body };
}

/**
 * An image's entry as read, before it is validated: what the report needs, and the record.
 * `intact`: whether the record matches its checksum, once computed (entryIntact).
 */
export interface RawImageEntry { key: string | null; kernel: string; target: string; fingerprint: string | null; checksum: string; entry: unknown; intact?: boolean }

/** Whether an entry matches its own checksum (computed once per entry: its validation and its signature's lookup both ask). */
function entryIntact(e: RawImageEntry): boolean {
  return (e.intact ??= sha256(JSON.stringify(e.entry)) === e.checksum);
}

/**
 * Open an image: its header, checksum and envelope (a KernelError, invalid-image, says why a file
 * is not a usable image at all), and its entries as read, each still to be validated with
 * checkImageEntry — by parseImage at once, by loadImage when the entry is first used.
 */
export async function openImage(image: Uint8Array | ImageParts, source: string, opts: { signatureVerified?: boolean } = {}): Promise<{ gpuc: string; entries: RawImageEntry[] }> {
  const { body } = image instanceof Uint8Array ? splitImage(image, source) : image;
  let raw: unknown;
  try { raw = JSON.parse(body); } catch (e) { throw new KernelError("invalid-image", `${source} is not a usable kernel image: its body is not JSON (${(e as Error).message})`); }
  const doc = await checkImageDocument(raw, { authenticated: opts.signatureVerified === true });
  if (!doc.ok) throw new KernelError("invalid-image", `${source} is not a usable kernel image: ${doc.reason.replace(/^malformed record/, "malformed")}`);
  const text = (v: unknown): string | null => (typeof v === "string" ? v : null);
  const entries = doc.value.entries.map((item): RawImageEntry => {
    const { checksum, entry } = (item ?? {}) as { checksum?: unknown; entry?: unknown };
    const e = entry as { key?: unknown; kernel?: unknown; fingerprint?: unknown; owner?: { target?: unknown } } | null;
    return { key: text(e?.key), kernel: text(e?.kernel) ?? "?", target: text(e?.owner?.target) ?? "?", fingerprint: text(e?.fingerprint), checksum: text(checksum) ?? "", entry };
  });
  return { gpuc: doc.value.gpuc, entries };
}

/**
 * Validate one entry of an image as the disk cache validates its files (validate.ts), after its
 * own checksum. `signatureVerified`: the image's signature was verified with the publisher's key
 * (see CheckOptions).
 */
export async function checkImageEntry(e: RawImageEntry, opts: { signatureVerified?: boolean } = {}): Promise<Verdict<CacheEntry>> {
  if (!entryIntact(e)) return { ok: false, reason: "its checksum does not match" };
  return checkEntry(e.entry, { authenticated: opts.signatureVerified === true });
}

/** A public or private key: PEM text, or (Node) a KeyObject. */
export type ImageKey = string | object;

/** Check an image's signature against a public key; throws invalid-image when it is unsigned or does not verify. */
export async function verifyImage(image: Uint8Array | ImageParts, publicKey: ImageKey, source = "<bytes>"): Promise<void> {
  const { signature, body } = image instanceof Uint8Array ? splitImage(image, source) : image;
  if (!signature) throw new KernelError("invalid-image", `${source} is not signed, but a public key was given to verify it (sign it with 'gpuc image sign')`);
  let ok: boolean;
  try { ok = await verifyEd25519(new TextEncoder().encode(body), base64(signature), publicKey); }
  catch (e) { throw new KernelError("invalid-image", `cannot verify the signature of ${source}: ${(e as Error).message}`); }
  if (!ok) throw new KernelError("invalid-image", `${source}: its signature does not verify with the given public key (modified, or signed by another key)`);
}

function base64(text: string): Uint8Array {
  const bin = atob(text);
  return Uint8Array.from(bin, (c) => c.charCodeAt(0));
}

async function verifyEd25519(data: Uint8Array, sig: Uint8Array, key: ImageKey): Promise<boolean> {
  if (isNode()) {
    const crypto = await import("node:crypto");
    return crypto.verify(null, data, key as never, sig);
  }
  // Browsers: WebCrypto's Ed25519 with the key's SubjectPublicKeyInfo (the PEM's base64).
  if (typeof key !== "string") throw new Error("in the browser the public key is PEM text");
  const der = base64(key.replace(/-----[^-]+-----/g, "").replace(/\s+/g, ""));
  const k = await crypto.subtle.importKey("spki", der as Uint8Array<ArrayBuffer>, { name: "Ed25519" }, false, ["verify"]);
  return crypto.subtle.verify({ name: "Ed25519" }, k, sig as Uint8Array<ArrayBuffer>, data as Uint8Array<ArrayBuffer>);
}

export interface LoadImageOptions {
  /** Verify the image's Ed25519 signature with this public key (PEM) before using anything in it. */
  publicKey?: string | object;
  /**
   * The SHA-256 (hex) of the image this program was made with (`gpuc precompile` and `gpuc image
   * inspect` print it): any other image is refused, and this one, as a verified signature does,
   * stands for the checks of its records and code (no schema, no parser).
   */
  sha256?: string;
}

/** A loaded image's entry (image.ts): as read, until its first use validates it (then the entry, or null: skipped). */
export interface LoadedEntry { raw: RawImageEntry; report: ImageReport; item: ImageReport["loaded"][number]; authenticated: boolean; checked: Promise<CacheEntry | null> | null }

/**
 * An image read from where loadImage was told (a path, a URL, the bytes) and opened: its header,
 * checksum and envelope checked, its signature verified when a public key is given. Every mistake
 * and every file that is not a usable image is an invalid-image KernelError. Returns its report
 * and the entries to load (each with a key; what can be told without validating an entry's record
 * is told now: an entry of another gpuc, an image made by another version or build, all of it,
 * will not do).
 */
export async function readImage(source: unknown, options: LoadImageOptions): Promise<{ report: ImageReport; entries: (LoadedEntry & { raw: { key: string } })[] }> {
  // (Mistakes in the options are the caller's, not the image's: invalid-option, as every call's.)
  if (options === null || typeof options !== "object")
    throw CompileError.single("invalid-option", `loadImage(): options must be an object ({ publicKey, sha256 }), got ${describeArgument(options)}`);
  let unknown: string | null, publicKey: LoadImageOptions["publicKey"], pin: unknown;
  try { unknown = unknownOption(options, ["publicKey", "sha256"]); publicKey = (options as LoadImageOptions).publicKey; pin = (options as LoadImageOptions).sha256; }
  catch (e) { throw CompileError.single("invalid-option", `loadImage(): its options cannot be read (${(e as Error)?.message})`); }
  if (unknown) throw CompileError.single("invalid-option", `loadImage(): ${unknown}`);
  if (pin !== undefined && (typeof pin !== "string" || !/^[0-9a-fA-F]{64}$/.test(pin)))
    throw CompileError.single("invalid-option", `loadImage(): sha256 must be the image's SHA-256 as 64 hex digits (gpuc precompile and gpuc image inspect print it), got ${describeArgument(pin)}`);
  const what = imageSource(source);
  let bytes: Uint8Array, name: string;
  if (what === "bytes") { bytes = copyBytes(source as ArrayBufferView | ArrayBuffer | SharedArrayBuffer); name = "<bytes>"; }
  else {
    name = String(source);
    let url: URL | null;
    try { url = source instanceof URL ? source : /^[a-z][a-z0-9+.-]*:\/\//i.test(source as string) ? new URL(source as string) : null; }
    catch (e) { throw new KernelError("invalid-image", `cannot read the kernel image ${name}: ${(e as Error).message}`); }
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
  const signed = publicKey !== undefined, pinned = pin !== undefined;
  // The program's pin or the publisher's signature stands for the checks of what this build
  // writes (ARCHITECTURE.md, "Caches"): the image is the one it was made with, or one its
  // publisher signed. Other images' entries have their code checked on first use: in a browser
  // (no disk cache holds a checked copy there) the check loads now.
  const trusted = signed || pinned;
  if (!trusted) {
    // (A bundle without the checks refuses such an image here, saying why: see checks.ts.)
    const { unavailable, prefetchCodeCheck } = await checks();
    if (unavailable) throw new KernelError("invalid-image", `${name} is neither pinned nor signed, so its records and code must be checked, and ${unavailable}`);
    if (!isNode()) prefetchCodeCheck(null);
  }
  const parts = splitImage(bytes, name);   // once: the header, and the body's checksum
  if (pinned && parts.hash !== (pin as string).toLowerCase())
    throw new KernelError("invalid-image", `${name} is not the kernel image this program pins: its SHA-256 is ${parts.hash}, the program's loadImage expects ${(pin as string).toLowerCase()} (an image replaced or rebuilt apart from the program: rebuild them together, or pin the new image)`);
  if (signed) await verifyImage(parts, publicKey!, name);
  const image = await openImage(parts, name, { signatureVerified: trusted });
  if (!trusted) warmUp();   // the validator's schemas, for the entries' first use
  const report: ImageReport = { source: name, gpuc: image.gpuc, signed, pinned, loaded: [], skipped: [] };
  const entries: (LoadedEntry & { raw: { key: string } })[] = [];
  for (const raw of image.entries) {
    const gpuc = (raw.entry as { owner?: { gpuc?: unknown } } | null)?.owner?.gpuc;
    const other = typeof gpuc === "string" ? otherGpuc(gpuc) : null;
    if (other || raw.key === null) { report.skipped.push({ kernel: raw.kernel, target: raw.target, reason: other ?? "malformed record: it has no key" }); continue; }
    const types = (raw.entry as { types?: unknown }).types;
    const item = { kernel: raw.kernel, target: raw.target, types: Array.isArray(types) ? types.map(String) : [] };
    report.loaded.push(item);
    entries.push({ raw: raw as RawImageEntry & { key: string }, report, item, authenticated: trusted, checked: null });
  }
  return { report, entries };
}

/** A loaded entry validated on its first use: the entry, or null (and skipped in its image's report, with the reason). */
export async function checkLoadedEntry(loaded: LoadedEntry): Promise<CacheEntry | null> {
  const { raw, report } = loaded;
  // A verified signature stands for the code check, as a disk file's tag does (validate.ts).
  const verdict = await checkImageEntry(raw, { signatureVerified: loaded.authenticated });
  if (verdict.ok) return verdict.value;
  const i = report.loaded.indexOf(loaded.item);
  if (i >= 0) report.loaded.splice(i, 1);
  report.skipped.push({ kernel: raw.kernel, target: raw.target, reason: verdict.reason });
  return null;
}

/**
 * A kernel's signature (parameter names, declared types) from the first of its loaded entries
 * that holds a valid one, or null. Any of the kernel's entries will do (they hold the same
 * signature), but only an intact one: an entry's checksum covers its signature.
 */
export async function entriesSignature(sources: readonly LoadedEntry[]): Promise<Signature | null> {
  for (const loaded of sources) {
    if (!entryIntact(loaded.raw)) continue;
    const raw = loaded.raw.entry as { signature?: unknown; owner?: { gpuc?: unknown } };
    const verdict = await checkSignature({ gpuc: raw.owner?.gpuc, signature: raw.signature }, { authenticated: loaded.authenticated });
    if (verdict.ok) return verdict.value;
  }
  return null;
}

/**
 * What loadImage was given: bytes (any typed array, DataView, ArrayBuffer or SharedArrayBuffer)
 * or a place (a path, a URL); anything else, or bytes it cannot read (a detached buffer, a
 * Proxy), is an invalid-image error, not an error from below (a number would be read as a file
 * descriptor).
 */
function imageSource(source: unknown): "bytes" | "place" {
  if (typeof source === "string") return "place";
  if (ArrayBuffer.isView(source)) {
    if (isDetached(source)) throw new KernelError("invalid-image", `loadImage got a ${describeValue(source)} whose buffer was detached (transferred): it has no bytes to read`);
    return "bytes";
  }
  let kind: "bytes" | "place" | null = null;
  try {
    if (source instanceof ArrayBuffer || (typeof SharedArrayBuffer !== "undefined" && source instanceof SharedArrayBuffer)) kind = "bytes";
    else if (source instanceof URL) kind = "place";
  } catch { /* a revoked Proxy */ }
  if (kind === "bytes") {
    try { new Uint8Array(source as ArrayBuffer, 0, 0); }
    catch { throw new KernelError("invalid-image", `loadImage got an ${describeValue(source)} that cannot be read (detached, or a Proxy of one)`); }
  }
  if (!kind) throw new KernelError("invalid-image", `loadImage takes a path, a URL or the image's bytes (a Uint8Array or an ArrayBuffer), got ${describeArgument(source)}`);
  return kind;
}

/** The bytes of an image given as bytes, in a Uint8Array of their own (the caller's buffer may change or be transferred while the image loads). */
function copyBytes(source: ArrayBufferView | ArrayBuffer | SharedArrayBuffer): Uint8Array {
  return ArrayBuffer.isView(source) ? new Uint8Array(source.buffer, source.byteOffset, source.byteLength).slice() : new Uint8Array(source).slice();
}
