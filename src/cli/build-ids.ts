// The build-time id the bundler plugin writes into a kernel() call (ARCHITECTURE.md, "Kernel
// identity"), found for a kernel made at run time from where its kernel() call ran: `gpuc
// precompile` files each entry under that id's fingerprint as well as under the source-text one,
// so that its image serves a package imported as it is and an app bundled with the plugin alike.
//
// The id is the plugin's own (cli/file-kernels.ts over the same file, buildPlan's same test of
// whether the plugin compiles the call): the file kernel() was called from, or, for generated
// JavaScript, the .ts source its source map leads to (what the plugin reads when it bundles the
// .ts). A kernel whose id cannot be told (its file unreadable, its call not one the plugin
// compiles, no call at that position) has none: its entries keep the source-text key alone.

import { readFileSync } from "node:fs";
import { buildPlan, fileKernels, type FileKernel } from "./file-kernels.js";
import { isTypeScriptFile, sourceMapOf } from "../frontend/source-map.js";
import type { CallPosition, PluginIdOf } from "../cache/image.js";
import { typeNameOf } from "../compiler/compile.js";


/**
 * A finder of the id and name the plugin would write into the kernel() call at a position, if
 * the plugin compiles the call there and the kernel it makes has the signature of the one that
 * ran (the same parameter names and declared types: a position mapped wrong never files one
 * kernel's code under another's id); else null. The name is the plugin's (a transpiler may have
 * renamed the function: esbuild's `shifted2`). Each finder reads a file once (one per precompile:
 * a file edited since is read again by the next).
 */
export function pluginIdFinder(): PluginIdOf {
  const files = new Map<string, { text: string; kernels: FileKernel[] } | null>();
  const kernelsOf = (path: string) => {
    if (!files.has(path)) files.set(path, readKernels(path));
    return files.get(path)!;
  };
  return (at, signature) => {
    const pos = typeScriptPosition(at);
    if (!pos) return null;
    const file = kernelsOf(pos.file);
    if (!file) return null;
    const offset = offsetOf(file.text, pos.line, pos.column);
    // The innermost call around the position (a kernel() call inside another's arguments is its own).
    let found: FileKernel | null = null;
    for (const k of file.kernels) {
      const c = k.call;
      if (c && c.start <= offset && offset < c.end && (!found || c.start >= found.call!.start)) found = k;
    }
    if (!found) return null;
    let plan;
    try { plan = buildPlan(found, found.call!); }
    catch { return null; }   // the plugin's build would fail on it: no bundle has its id
    if (!("lowered" in plan)) return null;
    const declared = plan.lowered.declared.map((t) => (t ? typeNameOf(t) : null));
    const same = JSON.stringify([plan.lowered.paramNames, declared]) === JSON.stringify([signature.paramNames, signature.declared]);
    return same ? { id: found.call!.id, name: found.name } : null;
  };
}

/**
 * The position in the source the plugin would read: as given (a .ts file; or source maps are on,
 * tsx's or --enable-source-maps, and stack frames are already original positions), or through the
 * generated file's source map.
 */
function typeScriptPosition(at: CallPosition): CallPosition | null {
  if (isTypeScriptFile(at.file) || (process as { sourceMapsEnabled?: boolean }).sourceMapsEnabled) return at;
  const map = sourceMapOf(at.file);
  if (!map) return at;   // plain JavaScript: the plugin reads it as it is
  const o = map.original(at.line - 1, at.column - 1);
  return o && isTypeScriptFile(o.file) ? { file: o.file, line: o.line + 1, column: o.column + 1 } : null;
}

function readKernels(path: string): { text: string; kernels: FileKernel[] } | null {
  try {
    const text = readFileSync(path, "utf8");
    return { text, kernels: fileKernels(path, text) };
  } catch {
    return null;   // unreadable, or not a file the parser takes: no id
  }
}

/** The offset of a 1-based line and column (in UTF-16 units, as stack frames and the parser's offsets count). */
function offsetOf(text: string, line: number, column: number): number {
  let at = 0;
  for (let l = 1; l < line; l++) {
    const nl = text.indexOf("\n", at);
    if (nl < 0) return text.length;
    at = nl + 1;
  }
  return at + column - 1;
}
