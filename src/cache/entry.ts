// A cache entry: one compiled specialization as plain data, for the disk cache and kernel
// images. It holds the artifact (code, layouts, manifest, runtime tables with locations already
// resolved to file:line:col — never a session value), the owner it was compiled under, and what
// the code depended on, so that a later process can tell whether it still fits:
//  - `fingerprint`: the kernel's source (its text, and the .ts file its annotations came from);
//  - `deps`: every scope name the code resolved, with a fingerprint of the value it had;
//  - `methods`: every global name it resolved through the method table, with the user overlay
//    (if any) that implemented it.

import type { Artifact } from "../targets/target.js";
import type { PrintPart } from "../ir/module.js";
import { RuntimeTables, type ResolvedLocation } from "../runtime/tables.js";
import { freezeManifestOf, type RelocationManifest } from "../reloc/manifest.js";
import type { CacheOwner } from "../compiler/job.js";
import { ownerKey } from "../compiler/job.js";
import { sha256 } from "../sha256.js";

export interface Signature {
  /** Parameter names, in order. */
  paramNames: string[];
  /** Declared parameter types ("f32", "f32[]") or null. */
  declared: (string | null)[];
}

interface StoredArtifact {
  target: string;
  kernel: string;
  entry: string;
  /** The code: text, or a binary target's bytes in base64 (`binary`). */
  code: string;
  binary?: true;
  params: { name: string; type: string }[];
  bindings: string[];
  manifest: RelocationManifest;
  layout?: Artifact["layout"];
  dynamicShared?: Artifact["dynamicShared"];
  launchProof?: Artifact["launchProof"];
  runtime: {
    debugLevel: 0 | 1 | 2;
    messages: { text: string; kind: "bounds" | "exception" }[];
    locations: (ResolvedLocation | null)[];
    formats: { parts: PrintPart[] }[];
  };
}

export interface CacheEntry {
  /** sha256(owner key, source fingerprint, argument types): where the entry is stored. */
  key: string;
  owner: CacheOwner;
  kernel: string;
  fingerprint: string;
  types: string[];
  signature: Signature;
  deps: [string, string][];
  methods: [string, string][];
  /** The runtime library the code was linked with (see runtime/functions.ts). */
  runtime: string;
  artifact: StoredArtifact;
}

/** The key of a job: its owner, its kernel's source fingerprint and its argument types. */
export function entryKey(owner: CacheOwner, fingerprint: string, types: string): string {
  return sha256(`${ownerKey(owner)}\n${fingerprint}\n${types}`);
}

/** An artifact as plain data (its session values are left behind: a loader resolves them by name). */
export function storeArtifact(a: Artifact): StoredArtifact {
  const out: StoredArtifact = {
    target: a.target, kernel: a.kernel, entry: a.entry, code: typeof a.code === "string" ? a.code : toBase64(a.code), params: a.params, bindings: a.bindings, manifest: a.manifest,
    runtime: { debugLevel: a.runtime.debugLevel, messages: a.runtime.messages, locations: a.runtime.allLocations(), formats: a.runtime.formats },
  };
  if (typeof a.code !== "string") out.binary = true;
  if (a.layout) out.layout = a.layout;
  if (a.dynamicShared) out.dynamicShared = a.dynamicShared;
  if (a.launchProof) out.launchProof = a.launchProof;
  return JSON.parse(JSON.stringify(out)) as StoredArtifact;
}

/** A stored artifact's code as the artifact had it: text, or a binary target's bytes. */
export function storedCode(s: StoredArtifact): string | Uint8Array { return s.binary ? fromBase64(s.code) : s.code; }

/** The artifact again, with no session values: `Device.load(artifact, tables)` resolves its sites by name. */
export function reviveArtifact(s: StoredArtifact): Artifact {
  const manifest = freezeManifestOf(s.manifest);
  const a: Artifact = {
    target: s.target, kernel: s.kernel, entry: s.entry, code: storedCode(s), params: s.params, bindings: s.bindings, manifest,
    globals: [],
    runtime: RuntimeTables.fromResolved(s.runtime.debugLevel, s.runtime.messages, s.runtime.locations, s.runtime.formats),
  };
  if (s.layout) a.layout = s.layout;
  if (s.dynamicShared) a.dynamicShared = s.dynamicShared;
  if (s.launchProof) a.launchProof = s.launchProof;
  return a;
}

// Base64 of a binary target's code (SPIR-V) in stored entries: btoa/atob, which Node and browsers have.
function toBase64(bytes: Uint8Array): string {
  let text = "";
  for (let i = 0; i < bytes.length; i += 0x8000) text += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(text);
}

/** The bytes again; text that is no base64 gives none (the code check then refuses the entry). */
function fromBase64(text: string): Uint8Array {
  let raw: string;
  try { raw = atob(text); } catch { return new Uint8Array(0); }
  const out = new Uint8Array(raw.length);
  for (let i = 0; i < raw.length; i++) out[i] = raw.charCodeAt(i);
  return out;
}
