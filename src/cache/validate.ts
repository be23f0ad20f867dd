// The one validator of compiled code read back from anywhere (DESIGN §8): disk-cache files on
// load, `gpuc cache verify`, kernel-image entries in `loadImage` and `gpuc image inspect` all go
// through `checkEntry` (and disk files through `checkStoredFile` first), so each rejects the same
// entries with the same reason. An entry is accepted only when
//  - it parses into the typed record (the schema below: every field, nothing else);
//  - it is this gpuc's (version and build) and for a target this gpuc has;
//  - its key is the one its owner, kernel source and argument types give (it is filed where a
//    lookup of exactly that job would find it);
//  - its manifest belongs to its code (the hash over code, strategy and sites) and is persistable;
//  - its code defines, or is given, everything it refers to (code-check.ts: a parse of the JS,
//    the WGSL and PTX symbol tables and call forms, indirect calls included).
// Integrity and authenticity are the container's: a disk file's HMAC tag (auth.ts), an image's
// checksums and optional signature (image.ts). Whatever fails is discarded and recompiled
// (disk) or skipped with the reason (image); it is never used and never fatal.

import * as v from "valibot";
import type { CacheEntry, Signature } from "./entry.js";
import { entryKey } from "./entry.js";
import { findPoison } from "./poison.js";
import { manifestMismatch } from "../reloc/manifest.js";
import { TARGET_INFO } from "../targets/info.js";
import { GPUC_VERSION } from "../version.js";
import { GPUC_BUILD } from "../build-id.js";
import type { ResolvedLocation } from "../runtime/host.js";

const Scalar = v.picklist(["bool", "i32", "u32", "f32", "f64"]);
const Count = v.pipe(v.number(), v.integer(), v.minValue(0));
const Int = v.pipe(v.number(), v.integer());
const Dims = v.nullable(v.pipe(v.array(v.pipe(v.number(), v.integer(), v.minValue(1))), v.length(3)));

const OwnerSchema = v.strictObject({
  gpuc: v.string(), target: v.string(), arch: v.nullable(v.string()), fastMath: v.boolean(),
  maxThreads: Dims, requiredThreads: Dims, relocation: v.picklist(["bake", "patch", "table"]),
  boundsCheck: v.boolean(), debugLevel: v.picklist([0, 1, 2]), alwaysInline: v.boolean(),
});

export const SignatureSchema = v.strictObject({ paramNames: v.array(v.string()), declared: v.array(v.nullable(v.string())) });

const LocationSchema: v.GenericSchema<ResolvedLocation> = v.strictObject({
  file: v.string(), line: Count, column: Count, function: v.string(),
  inlinedAt: v.nullable(v.lazy(() => LocationSchema)),
});

const SiteSchema = v.strictObject({ name: v.string(), kind: v.literal("table"), elem: Scalar, length: Count, symbol: v.string() });
const ManifestSchema = v.strictObject({ strategy: v.picklist(["bake", "patch", "table"]), sites: v.array(SiteSchema), codeHash: v.string() });

const WGSLLayoutSchema = v.strictObject({
  bindings: v.array(v.strictObject({
    binding: Count, kind: v.picklist(["uniform", "storage"]), readOnly: v.boolean(), role: v.picklist(["params", "state", "param", "table"]), index: Int,
  })),
  fields: v.array(v.strictObject({ name: v.string(), type: v.picklist(["i32", "u32", "f32"]), source: v.strictObject({ param: Int, length: v.boolean() }) })),
  workgroupSize: v.tuple([v.string(), v.string(), v.string()]),
  lines: v.array(Int),
});

const PTXLayoutSchema = v.strictObject({
  arch: v.string(),
  params: v.array(v.strictObject({
    name: v.string(), role: v.picklist(["value", "pointer", "length", "state", "state-length", "tables"]), index: Int,
    type: v.picklist(["u64", "u32", "s32", "f32", "f64"]),
  })),
  relocation: v.picklist(["bake", "patch", "table"]),
  tables: v.array(v.strictObject({ symbol: v.string(), index: Count })),
  sharedBytes: Count,
  lines: v.array(Int),
});

const ArtifactSchema = v.strictObject({
  target: v.string(), kernel: v.string(), entry: v.string(), code: v.string(),
  params: v.array(v.strictObject({ name: v.string(), type: v.string() })),
  bindings: v.array(v.string()),
  manifest: ManifestSchema,
  layout: v.optional(WGSLLayoutSchema),
  ptx: v.optional(PTXLayoutSchema),
  runtime: v.strictObject({
    debugLevel: v.picklist([0, 1, 2]),
    messages: v.array(v.strictObject({ text: v.string(), kind: v.picklist(["bounds", "exception"]) })),
    locations: v.array(v.nullable(LocationSchema)),
    formats: v.array(v.strictObject({ parts: v.array(v.string()) })),
  }),
});

export const EntrySchema = v.strictObject({
  key: v.pipe(v.string(), v.regex(/^[0-9a-f]{64}$/)),
  owner: OwnerSchema,
  kernel: v.string(),
  fingerprint: v.string(),
  types: v.array(v.string()),
  signature: SignatureSchema,
  deps: v.array(v.tuple([v.string(), v.string()])),
  methods: v.array(v.tuple([v.string(), v.string()])),
  runtime: v.string(),
  artifact: ArtifactSchema,
});

export type Verdict<T> = { ok: true; value: T } | { ok: false; reason: string };

/** The first schema problem, as `at <path>: <message>`. */
function schemaProblem(issues: readonly v.BaseIssue<unknown>[]): string {
  const first = issues[0];
  const path = v.getDotPath(first);
  return `malformed record${path ? ` at '${path}'` : ""}: ${first.message}`;
}

export interface CheckOptions {
  /** The key the record was looked up under (a disk file's name). */
  key?: string;
  /**
   * The container authenticated the record: a disk file whose tag verifies under this user's key
   * (written by this user's gpuc), or an image entry under a signature verified with the
   * publisher's key the user gave. Its code is then not checked again on load: such a record
   * was made only from fresh output of this gpuc build, which passed this same code check when
   * it was compiled (fresh poisoned code is an internal error, never stored), and the tag or
   * signature covers every byte since. (The check costs a warm start most: the JS parser's load,
   * and each checker's first, unoptimized runs.) `gpuc cache verify`, unsigned images and
   * `inspect` check everything.
   */
  authenticated?: boolean;
  /** Check the code (default true); false: the caller checks it later, before the code is used (image.ts). */
  code?: boolean;
}

/** Accept `raw` as a cache entry of this gpuc, or say why not (see the file's head). */
export async function checkEntry(raw: unknown, opts: CheckOptions = {}): Promise<Verdict<CacheEntry>> {
  const expectedKey = opts.key;
  const parsed = v.safeParse(EntrySchema, raw);
  if (!parsed.success) return { ok: false, reason: schemaProblem(parsed.issues) };
  const e = parsed.output as CacheEntry;
  const [version, build] = e.owner.gpuc.split("+");
  if (version !== GPUC_VERSION) return { ok: false, reason: `compiled by gpuc ${version}; this is gpuc ${GPUC_VERSION}` };
  // Another build of this version (a changed compiler): its code is not this build's. (Running
  // from the sources, the build is "dev" and cannot tell; owners still must match to revive.)
  if (GPUC_BUILD !== "dev" && build !== GPUC_BUILD) return { ok: false, reason: `compiled by another build of gpuc ${version} (${build}); this is build ${GPUC_BUILD}` };
  if (!Object.prototype.hasOwnProperty.call(TARGET_INFO, e.owner.target)) return { ok: false, reason: `for target '${e.owner.target}', which this gpuc does not have` };
  const a = e.artifact;
  if (a.target !== e.owner.target || a.kernel !== e.kernel) return { ok: false, reason: `its artifact (${a.target}, '${a.kernel}') is not the entry's (${e.owner.target}, '${e.kernel}')` };
  const key = entryKey(e.owner, e.fingerprint, e.types.join(","));
  if (e.key !== key || (expectedKey !== undefined && expectedKey !== key)) return { ok: false, reason: "its key is not the one its owner, kernel source and argument types give (filed under another job)" };
  if (e.types.length !== e.signature.paramNames.length || a.params.length !== e.types.length) return { ok: false, reason: "its parameter lists disagree (signature, argument types, artifact)" };
  if (a.manifest.sites.length && a.manifest.strategy === "bake") return { ok: false, reason: "its code has session-local relocations (bake), which are never persisted" };
  const mismatch = manifestMismatch(a);
  if (mismatch) return { ok: false, reason: `its relocation ${mismatch}` };
  if (a.target === "wgsl" && !a.layout) return { ok: false, reason: "its WGSL artifact has no binding layout" };
  if (a.target === "ptx" && !a.ptx) return { ok: false, reason: "its PTX artifact has no parameter layout" };
  const poison = opts.code === false || opts.authenticated ? null : await findPoison(a);
  if (poison) return { ok: false, reason: `poisoned: ${poison}` };
  return { ok: true, value: e };
}

/** Accept `raw` as a kernel signature record, or say why not. */
export function checkSignature(raw: unknown): Verdict<Signature> {
  const parsed = v.safeParse(SignatureSchema, raw);
  if (!parsed.success) return { ok: false, reason: schemaProblem(parsed.issues) };
  if (parsed.output.declared.length !== parsed.output.paramNames.length) return { ok: false, reason: "its parameter names and declared types disagree" };
  return { ok: true, value: parsed.output };
}

const ImageSchema = v.strictObject({
  gpuc: v.string(),
  entries: v.array(v.strictObject({ checksum: v.string(), entry: v.unknown() })),
});

/** Accept `raw` as a kernel image's body (its entries each still to be checked with checkEntry), or say why not. */
export function checkImageDocument(raw: unknown): Verdict<{ gpuc: string; entries: { checksum: string; entry: unknown }[] }> {
  const parsed = v.safeParse(ImageSchema, raw);
  return parsed.success ? { ok: true, value: parsed.output } : { ok: false, reason: schemaProblem(parsed.issues) };
}

/** JSON text to a value, or why it is not JSON. */
export function parseJSON(text: string): Verdict<unknown> {
  try { return { ok: true, value: JSON.parse(text) }; } catch (e) { return { ok: false, reason: `not JSON (${(e as Error).message})` }; }
}
