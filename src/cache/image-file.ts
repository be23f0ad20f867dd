// The kernel image file (ARCHITECTURE.md, "Caches"), format 2, as the tools see it: written
// (serializeImage: entries sorted by key, each with its own sha256, no timestamps, so the same
// workload gives the same bytes), signed, pinned (imageSha256) and inspected whole (parseImage:
// every entry through the validator at once), with what a program reads (image-read.ts). An image
// holds only persistable artifacts (`patch`/`table` relocations, or none): never session-local
// code and never runtime-library entries (the runtime's code inside a kernel's artifact is part of
// that kernel and is checked with it). The plugin, the CLI and the tests import this module; the
// runtime imports image-read.ts only.

import { GPUC_VERSION } from "../version.js";
import { GPUC_BUILD } from "../build-id.js";
import type { CacheEntry } from "./entry.js";
import { sha256 } from "../sha256.js";
import { KernelError } from "../errors.js";
import { IMAGE_FORMAT, checkImageEntry, openImage, splitImage, type ImageKey, type ImageReport } from "./image-read.js";

// (What the tools use of the reading side: `gpuc image verify`, scripts/fuzz-stores.mjs.)
export { checkImageEntry, openImage, verifyImage, type ImageReport } from "./image-read.js";

/**
 * Parse an image and validate every entry (`gpuc image inspect`, the tests); throws a KernelError
 * (invalid-image) saying why a file is not a usable image at all. Entries that fail are skipped
 * with the reason.
 */
export async function parseImage(bytes: Uint8Array, source: string, opts: { signatureVerified?: boolean } = {}): Promise<{ report: ImageReport; entries: CacheEntry[] }> {
  const image = await openImage(bytes, source);
  const report: ImageReport = { source, gpuc: image.gpuc, signed: false, pinned: false, loaded: [], skipped: [] };
  const entries: CacheEntry[] = [];
  for (const raw of image.entries) {
    const verdict = await checkImageEntry(raw, opts);
    if (!verdict.ok) { report.skipped.push({ kernel: raw.kernel, target: raw.target, reason: verdict.reason }); continue; }
    entries.push(verdict.value);
    report.loaded.push({ kernel: raw.kernel, target: raw.target, types: verdict.value.types });
  }
  return { report, entries };
}

/** An image's SHA-256 (of its body: what loadImage's `sha256` pins, the same signed or not), its checksum verified. */
export function imageSha256(bytes: Uint8Array, source = "<bytes>"): string {
  return splitImage(bytes, source).hash;
}

/** The bytes of an image holding `entries` (sorted by key: the same entries give the same bytes). */
export function serializeImage(entries: CacheEntry[]): Uint8Array {
  const sorted = [...entries].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  const body = JSON.stringify({ gpuc: `${GPUC_VERSION}+${GPUC_BUILD}`, entries: sorted.map((entry) => ({ checksum: sha256(JSON.stringify(entry)), entry })) });
  return new TextEncoder().encode(`gpuc-image ${IMAGE_FORMAT} ${sha256(body)}\n${body}`);
}

/** The image signed with an Ed25519 private key (Node): the header gains the body's signature. */
export async function signImage(bytes: Uint8Array, privateKey: ImageKey, source = "<bytes>"): Promise<Uint8Array> {
  const { hash, body } = splitImage(bytes, source);
  const crypto = await import("node:crypto");
  let signature: Buffer;
  try { signature = crypto.sign(null, Buffer.from(body), privateKey as never); }
  catch (e) { throw new KernelError("invalid-image", `cannot sign ${source}: ${(e as Error).message} (an Ed25519 private key in PEM is needed: openssl genpkey -algorithm ed25519)`); }
  return new TextEncoder().encode(`gpuc-image ${IMAGE_FORMAT} ${hash} ed25519:${signature.toString("base64")}\n${body}`);
}

