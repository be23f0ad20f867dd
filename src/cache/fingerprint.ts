// Fingerprints of what compiled code depends on, computed without the compiler: a kernel's
// source, the values of the scope names it read, and the user overlays of the global names it
// resolved. A stored entry is revived only when every fingerprint it recorded still holds.

import { DEVICE_FUNCTION, GENERATED, userOverlays } from "../registry.js";
import { hostArrayElement, tableOf } from "../typed-arrays.js";
import { sha256 } from "../sha256.js";

const fileHashes = new Map<string, string>();
let readText: ((path: string) => string) | null | undefined;

/** The contents hash of a source file (its annotations are part of the kernel's source); "" where it cannot be read. */
async function fileHash(path: string): Promise<string> {
  let h = fileHashes.get(path);
  if (h !== undefined) return h;
  if (readText === undefined) {
    try { const fs = await import("node:fs"); readText = (p) => fs.readFileSync(p, "utf8"); } catch { readText = null; }
  }
  try { h = readText ? sha256(readText(path)) : ""; } catch { h = ""; }
  fileHashes.set(path, h);
  return h;
}

/**
 * The kernel's source. With a build-time id (the bundler plugin's: a hash of the kernel's and its
 * scope helpers' syntax trees as the build read them), the id, its name and declared types: a
 * minified or bundled copy of the kernel is the same kernel. Without one, its text, the .ts files its annotations may come from (the file kernel() was
 * called from, or the .ts sources of its source map: the generated code stays the same when only
 * an annotation changes), its name and declared types.
 */
export async function sourceFingerprint(fn: Function, callerFile: string | null, name: string, types: Record<string, string> | undefined, rewritable: readonly string[] = [], id?: string): Promise<string> {
  // Rewritable tables are never folded into the code: which ones are changes the code.
  const tables = rewritable.length ? [[...rewritable].sort()] : [];
  if (id !== undefined) return idFingerprint(id, name, types, tables);
  const sources = callerFile ? await typeScriptSources(callerFile) : [];
  const file = (await Promise.all(sources.map(fileHash))).join(",");
  return sha256(JSON.stringify([fn.toString(), file, name, types ?? null, ...tables]));
}

type SourceMapModule = typeof import("../frontend/source-map.js");
/** Source maps' module: loaded on first use, or handed over loaded by the full entry (as devices/index.ts's modules). */
let sourceMaps = (): Promise<SourceMapModule> => import("../frontend/source-map.js");
export function provideSourceMaps(m: SourceMapModule): void { sourceMaps = () => Promise.resolve(m); }

/**
 * The .ts files a kernel's annotations may come from: the file kernel() was called from, or the
 * .ts sources of its source map. Source maps load here, not at gpuc's import (a bundled kernel has
 * an id and never gets here).
 */
async function typeScriptSources(file: string): Promise<string[]> {
  const { isTypeScriptFile, sourceMapOf } = await sourceMaps();
  return isTypeScriptFile(file) ? [file] : (sourceMapOf(file)?.sources ?? []).filter(isTypeScriptFile);
}

/** The fingerprint of a kernel with a build-time id (the same at build time, from the source, and in the bundle). */
export function idFingerprint(id: string, name: string, types: Record<string, string> | undefined, tables: string[][] = []): string {
  return sha256(JSON.stringify([{ id }, name, types ?? null, ...tables]));
}

/** How a plain function of the scope is recorded for a kernel with a build-time id: its source is part of the id. */
export const IN_ID = "f:in-id";

/**
 * A scope value as the code saw it: numbers and booleans by value, functions by source, tables by
 * type and length. (Not by contents: stored code reads its tables at launch, and the elements it
 * holds as constants are in its manifest with their values, which every launch checks.) `inId`: the kernel has a build-time id, which covers its helpers'
 * sources (a minifier changes their text, not what they mean).
 */
export function valueFingerprint(v: unknown, inId = false): string {
  if (typeof v === "number") return `n:${Object.is(v, -0) ? "-0" : String(v)}`;
  if (typeof v === "boolean") return `b:${v}`;
  if (typeof v === "function") {
    const f = v as Function & { [DEVICE_FUNCTION]?: string; [GENERATED]?: { gen: Function; name: string } };
    if (f[DEVICE_FUNCTION]) return `d:${f[DEVICE_FUNCTION]}`;
    if (f[GENERATED]) return `g:${sha256(f[GENERATED].gen.toString())}`;
    return inId ? IN_ID : `f:${sha256(f.toString())}`;
  }
  const elem = hostArrayElement(v);
  if (elem) {
    return `t:${elem}[${(v as ArrayBufferView & { length: number }).length}]`;
  }
  // A table made from plain Arrays: its element type (from its numbers) and shape.
  const table = tableOf(v);
  if (table && !("problem" in table)) return `t:${hostArrayElement(table.flat)}[${(table.dims ?? [table.flat.length]).join("][")}]a`;
  return `x:${v === null ? "null" : typeof v}`;
}

/** How a global name resolves for a target: through a user overlay (by its source) or gpuc's own table. */
export function methodFingerprint(target: string, name: string): string {
  const impl = userOverlays.get(target)?.get(name) ?? userOverlays.get("*")?.get(name);
  return impl ? `o:${sha256(impl.toString())}` : "builtin";
}
