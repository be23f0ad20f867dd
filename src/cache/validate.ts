// The one validator of compiled code read back from anywhere (ARCHITECTURE.md, "Caches"):
// disk-cache files on load, `gpuc cache verify`, kernel-image entries in `loadImage` and `gpuc
// image inspect` all go through `checkEntry` (and disk files through `DiskCache.check` first), so
// each rejects the same entries with the same reason. An entry is accepted only when
//  - it parses into the typed record (schema.ts through checks.ts: every field, nothing else) — unless its container
//    authenticated it as written by this very build (a tag under the user's key, a verified
//    signature, the image's SHA-256 pinned by the program), whose records have this build's
//    shape by construction;
//  - it is this gpuc's (version and build) and for a target this gpuc has;
//  - its key is the one its owner, kernel source and argument types give (it is filed where a
//    lookup of exactly that job would find it);
//  - its manifest belongs to its code (the hash over code, strategy and sites) and is persistable;
//  - its code defines, or is given, everything it refers to (code-check.ts asks the target: a parse of the JS,
//    the WGSL and PTX symbol tables and call forms, indirect calls included).
// The schemas and the code check load through one module, checks.ts (the seam a bundle leaves out).
// Integrity and authenticity are the container's: a disk file's HMAC tag (auth.ts), an image's
// checksums and optional signature or pin (image-file.ts). Whatever fails is discarded and recompiled
// (disk) or skipped with the reason (image); it is never used and never fatal.

import type { CacheEntry, Signature } from "./entry.js";
import { entryKey, storedCode } from "./entry.js";
import { findPoison } from "./poison.js";
import { manifestMismatch } from "../reloc/manifest.js";
import { codeParameters } from "../ir/types.js";
import { targetInfo } from "../targets/index.js";
import { GPUC_VERSION } from "../version.js";
import { GPUC_BUILD } from "../build-id.js";

import type { Verdict } from "./checks.js";
export type { Verdict } from "./checks.js";

/** The checks (the schemas with the schema library; the code check), loaded on the first shape check. */
let checksModule: Promise<typeof import("./checks.js")> | null = null;
export const checks = () => (checksModule ??= import("./checks.js"));

/**
 * Whether a record that its container authenticated (see CheckOptions) was written by this very
 * build of gpuc: then its shape is the one this build writes, and the schema check is skipped (a
 * build running from its sources, "dev", cannot tell its states apart: it checks always).
 */
function thisBuilds(raw: unknown, authenticated: boolean | undefined): boolean {
  if (!authenticated || GPUC_BUILD === "dev" || typeof raw !== "object" || raw === null) return false;
  const r = raw as { owner?: { gpuc?: unknown }; gpuc?: unknown };
  const gpuc = typeof r.owner === "object" && r.owner !== null ? r.owner.gpuc : r.gpuc;
  return gpuc === `${GPUC_VERSION}+${GPUC_BUILD}`;
}

export interface CheckOptions {
  /** The key the record was looked up under (a disk file's name). */
  key?: string;
  /**
   * The container authenticated the record: a disk file whose tag verifies under this user's key
   * (written by this user's gpuc), or an image entry under a signature verified with the
   * publisher's key the user gave, or of the image whose SHA-256 the program pins (loadImage's
   * `sha256`: the program was made with that image). Its code is then not checked again on load: such a record
   * was made only from fresh output of this gpuc build, which passed this same code check when
   * it was compiled (fresh poisoned code is an internal error, never stored), or — a disk file —
   * from an unsigned image's entry that passed every check here, code included, in a process of
   * this build (persistent.ts, findEntry); and the tag or signature covers every byte since.
   * (The check costs a warm start most: the JS parser's load, and each checker's first,
   * unoptimized runs.) `gpuc cache verify`, unsigned images and `inspect` check everything.
   */
  authenticated?: boolean;
}

/** Load the schemas ahead of their first use (persistent.ts, warmUp). */
export function warmUp(): void {
  checks().catch(() => {});
}

/** Accept `raw` as a cache entry of this gpuc, or say why not (see the file's head). */
export async function checkEntry(raw: unknown, opts: CheckOptions = {}): Promise<Verdict<CacheEntry>> {
  const expectedKey = opts.key;
  const own = thisBuilds(raw, opts.authenticated);
  let e: CacheEntry;
  if (own) e = raw as CacheEntry;
  else {
    // The layout is the target's to check (its read-back checks).
    const target = (raw as { owner?: { target?: unknown } } | null)?.owner?.target;
    const parsed = await (await checks()).parseEntry(raw, typeof target === "string" && targetInfo(target) ? target : undefined);
    if (!parsed.ok) return parsed;
    e = parsed.value;
  }
  try {
    return await checkParsedEntry(e, opts, expectedKey);
  } catch (err) {
    // Only a record this build wrote skips the schema; should one still be malformed, it is bad.
    return { ok: false, reason: `malformed record (${(err as Error).message})` };
  }
}

async function checkParsedEntry(e: CacheEntry, opts: CheckOptions, expectedKey: string | undefined): Promise<Verdict<CacheEntry>> {
  const other = otherGpuc(e.owner.gpuc);
  if (other) return { ok: false, reason: other };
  const info = targetInfo(e.owner.target);
  if (!info) return { ok: false, reason: `for target '${e.owner.target}', which this gpuc does not have` };
  const a = e.artifact;
  if (a.target !== e.owner.target || a.kernel !== e.kernel) return { ok: false, reason: `its artifact (${a.target}, '${a.kernel}') is not the entry's (${e.owner.target}, '${e.kernel}')` };
  const key = entryKey(e.owner, e.fingerprint, e.types.join(","));
  if (e.key !== key || (expectedKey !== undefined && expectedKey !== key)) return { ok: false, reason: "its key is not the one its owner, kernel source and argument types give (filed under another job)" };
  // (An absent optional array has no parameter in the artifact, an array of objects one per field.)
  if (e.types.length !== e.signature.paramNames.length || a.params.length !== e.types.reduce((n, t) => n + codeParameters(t), 0)) return { ok: false, reason: "its parameter lists disagree (signature, argument types, artifact)" };
  if (a.manifest.sites.length && a.manifest.strategy === "bake") return { ok: false, reason: "its code has session-local relocations (bake), which are never persisted" };
  // Binary code (SPIR-V) is stored as base64: its hash and its check are of the bytes.
  const code = storedCode(a);
  const mismatch = manifestMismatch({ code, manifest: a.manifest });
  if (mismatch) return { ok: false, reason: `its relocation ${mismatch}` };
  if (info.layout !== (a.layout !== undefined))
    return { ok: false, reason: info.layout ? `its ${a.target} artifact has no layout` : `its ${a.target} artifact has a layout, which ${a.target} artifacts do not have` };
  const poison = opts.authenticated ? null : await findPoison({ ...a, code });
  if (poison) return { ok: false, reason: `poisoned: ${poison}` };
  return { ok: true, value: e };
}

/** Why code compiled by `gpuc` (an owner's "version+build") is not this gpuc's, or null. */
export function otherGpuc(gpuc: string): string | null {
  const [version, build] = gpuc.split("+");
  if (version !== GPUC_VERSION) return `compiled by gpuc ${version}; this is gpuc ${GPUC_VERSION}`;
  // Another build of this version (a changed compiler): its code is not this build's. (Running
  // from the sources, the build is "dev" and cannot tell; owners still must match to revive.)
  if (GPUC_BUILD !== "dev" && build !== GPUC_BUILD) return `compiled by another build of gpuc ${version} (${build}); this is build ${GPUC_BUILD}`;
  return null;
}

/** Accept `raw` as a kernel signature file's record (`{ gpuc, signature }`), or say why not. */
export async function checkSignature(raw: unknown, opts: { authenticated?: boolean } = {}): Promise<Verdict<Signature>> {
  const r = raw as { gpuc?: unknown; signature?: unknown } | null;
  if (typeof r !== "object" || r === null || typeof r.gpuc !== "string") return { ok: false, reason: "malformed record: not a signature record of this gpuc" };
  let sig: Signature;
  if (thisBuilds(raw, opts.authenticated)) sig = r.signature as Signature;
  else {
    const parsed = (await checks()).parseSignature(r.signature);
    if (!parsed.ok) return parsed;
    sig = parsed.value;
  }
  if (!Array.isArray(sig?.paramNames) || !Array.isArray(sig.declared) || sig.declared.length !== sig.paramNames.length)
    return { ok: false, reason: "its parameter names and declared types disagree" };
  return { ok: true, value: sig };
}

/** Accept `raw` as a kernel image's body (its entries each still to be checked with checkEntry), or say why not. */
export async function checkImageDocument(raw: unknown, opts: { authenticated?: boolean } = {}): Promise<Verdict<{ gpuc: string; entries: { checksum: string; entry: unknown }[] }>> {
  // A signed image of this very build: its body is what this build writes (see thisBuilds).
  if (thisBuilds(raw, opts.authenticated) && Array.isArray((raw as { entries?: unknown }).entries)) return { ok: true, value: raw as { gpuc: string; entries: { checksum: string; entry: unknown }[] } };
  return (await checks()).parseImageDocument(raw);
}

/** JSON text to a value, or why it is not JSON. */
export function parseJSON(text: string): Verdict<unknown> {
  try { return { ok: true, value: JSON.parse(text) }; } catch (e) { return { ok: false, reason: `not JSON (${(e as Error).message})` }; }
}
