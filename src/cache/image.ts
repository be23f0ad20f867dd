// Kernel images (DESIGN §4): the compiled kernels a package ships, made at build time by running
// its workload (`gpuc precompile`) and revived at run time (`loadImage`) without compiling.
//
// Format (version 1): a header line `gpuc-image 1 <sha256 of the body>`, then the body, JSON:
// `{ gpuc, created, entries: [{ checksum, entry }] }`, each entry (see entry.ts) with its own
// sha256. An image holds only persistable artifacts (`patch`/`table` relocations, or none):
// never session-local code and never runtime-library entries (the runtime's code inside a
// kernel's artifact is part of that kernel and is checked with it). Entries of another gpuc
// version, or of a target this gpuc does not have, are skipped with the reason.

import { TARGET_INFO } from "../targets/info.js";
import { GPUC_VERSION } from "../version.js";
import { GPUC_BUILD } from "../build-id.js";
import type { CacheEntry, Signature } from "./entry.js";
import { findPoison } from "./poison.js";
import { sha256 } from "./sha256.js";
import { KernelError } from "../errors.js";

export const IMAGE_FORMAT = 1;

export interface ImageReport {
  /** Where the image came from. */
  source: string;
  gpuc: string;
  created: string;
  /** Entries made available. */
  loaded: { kernel: string; target: string; types: string[] }[];
  /** Entries left out, and why. */
  skipped: { kernel: string; target: string; reason: string }[];
}

/** Entries revived from loaded images, by key; signatures by kernel fingerprint. */
export const imageEntries = new Map<string, CacheEntry>();
export const imageSignatures = new Map<string, Signature>();

/** Parse an image; throws a KernelError (invalid-image) saying why a file is not a usable image at all. */
export function parseImage(bytes: Uint8Array, source: string): { report: ImageReport; entries: CacheEntry[] } {
  const text = new TextDecoder().decode(bytes);
  const nl = text.indexOf("\n");
  const m = /^gpuc-image (\d+) ([0-9a-f]{64})$/.exec(nl < 0 ? text.slice(0, 200) : text.slice(0, nl));
  if (!m) throw new KernelError("invalid-image", `${source} is not a gpuc kernel image (no 'gpuc-image' header)`);
  if (Number(m[1]) !== IMAGE_FORMAT) throw new KernelError("invalid-image", `${source} is a kernel image of format ${m[1]}; this gpuc (${GPUC_VERSION}) reads format ${IMAGE_FORMAT}`);
  const body = text.slice(nl + 1);
  if (sha256(body) !== m[2]) throw new KernelError("invalid-image", `${source} is corrupt: its checksum does not match (truncated or modified)`);
  const doc = JSON.parse(body) as { gpuc: string; created: string; entries: { checksum: string; entry: CacheEntry }[] };
  const report: ImageReport = { source, gpuc: doc.gpuc, created: doc.created, loaded: [], skipped: [] };
  const entries: CacheEntry[] = [];
  for (const { checksum, entry } of doc.entries) {
    const skip = (reason: string) => report.skipped.push({ kernel: entry.kernel, target: entry.owner?.target ?? "?", reason });
    if (sha256(JSON.stringify(entry)) !== checksum) { skip("its checksum does not match"); continue; }
    const [version, build] = entry.owner.gpuc.split("+");
    if (version !== GPUC_VERSION) { skip(`compiled by gpuc ${version}; this is gpuc ${GPUC_VERSION}`); continue; }
    // Another build of this version (a changed compiler): its code is not this build's. (Running
    // from the sources, the build is "dev" and cannot tell; owners still must match to revive.)
    if (GPUC_BUILD !== "dev" && build !== GPUC_BUILD) { skip(`compiled by another build of gpuc ${version} (${build}); this is build ${GPUC_BUILD}`); continue; }
    if (!TARGET_INFO[entry.owner.target]) { skip(`for target '${entry.owner.target}', which this gpuc does not have`); continue; }
    const poison = findPoison(entry.artifact);
    if (poison) { skip(`poisoned: ${poison}`); continue; }
    entries.push(entry);
    report.loaded.push({ kernel: entry.kernel, target: entry.owner.target, types: entry.types });
  }
  return { report, entries };
}

/** The bytes of an image holding `entries`. */
export function serializeImage(entries: CacheEntry[]): Uint8Array {
  const body = JSON.stringify({ gpuc: `${GPUC_VERSION}+${GPUC_BUILD}`, created: new Date().toISOString(), entries: entries.map((entry) => ({ checksum: sha256(JSON.stringify(entry)), entry })) });
  return new TextEncoder().encode(`gpuc-image ${IMAGE_FORMAT} ${sha256(body)}\n${body}`);
}

/**
 * Make a kernel image's entries available to this process: `loadImage("kernels.gpucimg")`,
 * `loadImage(new URL("./kernels.gpucimg", import.meta.url))`, or the bytes. A launch whose job
 * (kernel source, argument types, owner) matches an entry revives it without compiling.
 * Returns what was loaded and what was skipped, with the reasons.
 */
export async function loadImage(source: string | URL | Uint8Array | ArrayBuffer): Promise<ImageReport> {
  let bytes: Uint8Array, name: string;
  if (source instanceof Uint8Array) { bytes = source; name = "<bytes>"; }
  else if (source instanceof ArrayBuffer) { bytes = new Uint8Array(source); name = "<bytes>"; }
  else {
    name = String(source);
    const url = source instanceof URL ? source : /^[a-z]+:\/\//i.test(source) ? new URL(source) : null;
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
  const { report, entries } = parseImage(bytes, name);
  for (const e of entries) { imageEntries.set(e.key, e); imageSignatures.set(e.fingerprint, e.signature); }
  return report;
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
