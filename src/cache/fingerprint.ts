// Fingerprints of what compiled code depends on, computed without the compiler: a kernel's
// source, the values of the scope names it read, and the user overlays of the global names it
// resolved. A stored entry is revived only when every fingerprint it recorded still holds.

import { DEVICE_FUNCTION, GENERATED, userOverlays } from "../registry.js";
import { hostArrayElement } from "../typed-arrays.js";
import { sha256 } from "../sha256.js";
import { isTypeScriptFile, sourceMapOf } from "../frontend/source-map.js";

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
 * The kernel's source: its text, the .ts files its annotations may come from (the file kernel() was
 * called from, or the .ts sources of its source map: the generated code stays the same when only
 * an annotation changes), its name and declared types.
 */
export async function sourceFingerprint(fn: Function, callerFile: string | null, name: string, types: Record<string, string> | undefined, rewritable: readonly string[] = []): Promise<string> {
  const sources = !callerFile ? [] : isTypeScriptFile(callerFile) ? [callerFile] : (sourceMapOf(callerFile)?.sources ?? []).filter(isTypeScriptFile);
  const file = (await Promise.all(sources.map(fileHash))).join(",");
  // Rewritable tables are never folded into the code: which ones are changes the code.
  return sha256(JSON.stringify([fn.toString(), file, name, types ?? null, ...(rewritable.length ? [[...rewritable].sort()] : [])]));
}

/** A scope value as the code saw it: numbers and booleans by value, functions by source, tables by type, length and contents. */
export function valueFingerprint(v: unknown): string {
  if (typeof v === "number") return `n:${Object.is(v, -0) ? "-0" : String(v)}`;
  if (typeof v === "boolean") return `b:${v}`;
  if (typeof v === "function") {
    const f = v as Function & { [DEVICE_FUNCTION]?: string; [GENERATED]?: { gen: Function; name: string } };
    if (f[DEVICE_FUNCTION]) return `d:${f[DEVICE_FUNCTION]}`;
    if (f[GENERATED]) return `g:${sha256(f[GENERATED].gen.toString())}`;
    return `f:${sha256(f.toString())}`;
  }
  const elem = hostArrayElement(v);
  if (elem) {
    const a = v as ArrayBufferView & { length: number };
    return `t:${elem}[${a.length}]:${sha256(new Uint8Array(a.buffer, a.byteOffset, a.byteLength))}`;
  }
  return `x:${v === null ? "null" : typeof v}`;
}

/** How a global name resolves for a target: through a user overlay (by its source) or gpuc's own table. */
export function methodFingerprint(target: string, name: string): string {
  const impl = userOverlays.get(target)?.get(name) ?? userOverlays.get("*")?.get(name);
  return impl ? `o:${sha256(impl.toString())}` : "builtin";
}
