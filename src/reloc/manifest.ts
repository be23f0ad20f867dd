// Relocatable code (ARCHITECTURE.md, "Relocations"): the relocation manifest of an artifact, its
// strategies, freezing with the code's hash, and resolution against a session's values.
//
// A relocation site is a reference from compiled code to something that belongs to one process
// or one device context. In gpuc that is a constant table: a typed array captured through a
// kernel's `scope`. (The kernel state — exception record and print area — is a launch argument
// on every target, so code never embeds its address.) Scalars are constants in the code, and a
// table read only at constant indices is folded into constants and is no site either.
//
// Sites are named by the scope name that captured them ("LUT"): deterministic, never from an
// object's identity or an address. The manifest lists them sorted by name with their type and
// length (the code depends on both; not on the contents, except under `bake`), the strategy the
// back end lowered them with, the table elements the code holds as constants (`folded`: reads at
// constant indices; a launch checks that the tables still hold those values) and a hash of the
// code it belongs to. It is frozen after emission.

import { InternalCompilerError, KernelError, quoteName } from "../errors.js";
import { sha256 } from "../sha256.js";
import type { Scalar } from "../ir/types.js";
import type { HostArray } from "../typed-arrays.js";

/**
 * How a back end lowers the sites:
 * - `bake`: the session's values are bound when the code is made (or embedded in it); the
 *   artifact is session-local and never persisted.
 * - `patch`: named writable globals in the code that the loader fills after loading (CUDA:
 *   cuModuleGetGlobal and a copy, before the first launch).
 * - `table`: the code reaches the values through a table given at launch (WebGPU: one binding
 *   per site; PTX: a pointer table passed as an entry parameter; JS: bound at load by name).
 */
export type RelocationStrategy = "bake" | "patch" | "table";
export const RELOCATION_STRATEGIES: readonly RelocationStrategy[] = ["bake", "patch", "table"];

export interface RelocationSite {
  /** The scope name that captured the table. */
  readonly name: string;
  readonly kind: "table";
  readonly elem: Scalar;
  readonly length: number;
  /** `patch`: the global the loader fills; `table`: the binding or slot; `bake`: the code's name for it. */
  readonly symbol: string;
}

/** The elements of one table that the code holds as constants (read at constant indices, folded). */
export interface FoldedTable {
  /** The scope name of the table (it may be a site too, for its other reads, or none). */
  readonly name: string;
  /** The indices whose values are in the code, ascending. */
  readonly indices: readonly number[];
  /**
   * The value the code holds for each index, as text that JSON keeps (`foldedValueText`: "-0",
   * "NaN" and "Infinity" included): the table must hold exactly these (Object.is) for the code to
   * be right. (A stored entry's tables are then recorded by type and length alone.)
   */
  readonly values: readonly string[];
}

/** A folded value as the manifest holds it (numbers as JavaScript prints them, which reads them back exactly; -0 kept). */
function foldedValueText(v: number): string { return Object.is(v, -0) ? "-0" : String(v); }

/** The number a manifest's folded value text stands for (NaN for text that is no number: the schema refuses it first). */
export function foldedValue(text: string): number { return text === "-0" ? -0 : Number(text); }

export interface RelocationManifest {
  readonly strategy: RelocationStrategy;
  /** Sorted by name; the artifact's `globals` (this session's values) follow this order. */
  readonly sites: readonly RelocationSite[];
  /**
   * The table elements the code holds as constants, by table name (sorted); absent when there
   * are none. The code is right only while each table holds at those indices the values it was
   * compiled with: kernel.ts checks them at every launch (captured tables mean what JavaScript
   * means) and recompiles the kernel without folding a table that changed.
   */
  readonly folded?: readonly FoldedTable[];
  /**
   * A hash of the code the manifest belongs to together with the manifest's own strategy and
   * sites (names, order, types, lengths, symbols): see `manifestHash`. Code and manifest made
   * apart — or a manifest whose sites were renamed or reordered — do not match.
   */
  readonly codeHash: string;
}

/** The manifest of freshly emitted code, frozen: nothing can add sites after lowering. */
export function freezeManifest(strategy: RelocationStrategy, sites: RelocationSite[], code: string | Uint8Array, folded?: ReadonlyMap<string, ReadonlyMap<number, number>>): RelocationManifest {
  const sorted = [...sites].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (let i = 1; i < sorted.length; i++)
    if (sorted[i].name === sorted[i - 1].name) throw new InternalCompilerError(`two relocation sites named '${sorted[i].name}'`);
  const tables = [...(folded ?? [])].filter(([, at]) => at.size).sort(([a], [b]) => (a < b ? -1 : 1)).map(([name, at]) => {
    const indices = [...at.keys()].sort((x, y) => x - y);
    return { name, indices, values: indices.map((i) => foldedValueText(at.get(i)!)) };
  });
  return freezeManifestOf({ strategy, sites: sorted, ...(tables.length ? { folded: tables } : {}), codeHash: manifestHash(strategy, sorted, code, tables) });
}

/** A manifest deeply frozen (its sites and folded tables too): what a loader verifies is what it resolves. */
export function freezeManifestOf(m: RelocationManifest): RelocationManifest {
  return Object.freeze({
    strategy: m.strategy, sites: Object.freeze(m.sites.map((s) => Object.freeze({ ...s }))),
    ...(m.folded ? { folded: Object.freeze(m.folded.map((t) => Object.freeze({ name: t.name, indices: Object.freeze([...t.indices]), values: Object.freeze([...t.values]) }))) } : {}),
    codeHash: m.codeHash,
  });
}

/**
 * The hash a manifest carries: of its strategy, its sites in order (every field), its folded
 * elements (where there are any: a manifest that lost them would let a changed table go unseen)
 * and the code (SHA-256, 128 bits of it: node:crypto's where there is one — a loader computes it
 * for every artifact it loads, and a hash loop in JS, cold, cost 0.4 ms per kernel on a warm start).
 */
export function manifestHash(strategy: RelocationStrategy, sites: readonly RelocationSite[], code: string | Uint8Array, folded?: readonly FoldedTable[]): string {
  const sitesText = JSON.stringify(sites.map((s) => [s.name, s.kind, s.elem, s.length, s.symbol]));
  const foldedText = folded?.length ? `${JSON.stringify(folded.map((t) => [t.name, t.indices, t.values]))}\n` : "";
  return sha256(`${strategy}\n${sitesText}\n${foldedText}`).slice(0, 16) + sha256(code).slice(0, 16);
}

interface ManifestOwner {
  kernel: string;
  code: string | Uint8Array;
  manifest: RelocationManifest;
  globals: { name: string; value: ArrayLike<number> }[];
}

/** A loader's first check: the manifest was made for this code. */
export function verifyManifest(artifact: ManifestOwner): void {
  const why = manifestMismatch(artifact);
  if (why) throw new KernelError("launch", `the relocation manifest of kernel ${quoteName(artifact.kernel)} does not belong to this code (${why})`);
}

/** Why a manifest does not belong to its code (or was altered), or null when it does. */
export function manifestMismatch(artifact: { code: string | Uint8Array; manifest: RelocationManifest }): string | null {
  const m = artifact.manifest;
  if (!m || typeof m.codeHash !== "string" || !Array.isArray(m.sites) || (m.folded !== undefined && !Array.isArray(m.folded))) return "the manifest is missing or malformed";
  const want = manifestHash(m.strategy, m.sites, artifact.code, m.folded);
  return want === m.codeHash ? null : `manifest does not belong to this code: its hash is ${m.codeHash}, the code and sites give ${want}`;
}

/**
 * The value of every site, in manifest order, checked against the site: from `values` (by site
 * name: a revived artifact's tables, from the kernel's scope) or else from the artifact's own
 * session values. A value may be a zero-length array or a view into a larger buffer.
 */
export function resolveSites(artifact: ManifestOwner, values?: ReadonlyMap<string, HostArray>): HostArray[] {
  verifyManifest(artifact);
  return artifact.manifest.sites.map((site, i) => {
    const v = (values?.get(site.name) ?? artifact.globals[i]?.value) as HostArray | undefined;
    if (!v) throw new KernelError("launch", `kernel ${quoteName(artifact.kernel)} refers to the table '${site.name}', which has no value here`);
    const elem = v instanceof Float32Array ? "f32" : v instanceof Float64Array ? "f64" : v instanceof Int32Array ? "i32" : v instanceof Uint32Array ? "u32" : null;
    if (elem !== site.elem || v.length !== site.length)
      throw new KernelError("launch", `the table '${site.name}' of kernel ${quoteName(artifact.kernel)} is ${elem ?? "not a typed array"}[${v.length}] here, but the code was compiled for ${site.elem}[${site.length}]`);
    return v;
  });
}

/** Whether an artifact may be kept beyond this process (a disk cache, a kernel image): no session-local values in it. */
export function isPersistable(artifact: { manifest?: RelocationManifest }): boolean {
  const m = artifact.manifest;
  if (!m) return false;
  return m.sites.length === 0 || m.strategy === "patch" || m.strategy === "table";
}
