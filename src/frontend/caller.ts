// Which file a kernel() call came from (a .ts file, or code generated from one), for the
// kernel's annotations. Light: no parser; the annotations are read only when the kernel compiles.

import { fileURLToPath } from "node:url";
import { CompileError, KernelError, formatLocation } from "../errors.js";

/** The first stack frame outside gpuc (where kernel() was called; source-mapped where source maps are on), or null. */
export function callerPosition(): { file: string; line: number; column: number } | null {
  const saved = Error.stackTraceLimit;
  Error.stackTraceLimit = 8;
  const site = new Error();
  Error.stackTraceLimit = saved;
  return callerLocation(site);
}
/**
 * Where the user's code called into gpuc: the first stack frame outside gpuc, as file:line:col
 * (async callers included: V8 keeps the awaiting frames). For errors about a call's arguments;
 * computed only when one is thrown.
 */
function callerLocation(site: Error | null = null): { file: string; line: number; column: number } | null {
  const stack = (site ?? callSite()).stack ?? "";
  for (const line of stack.split("\n").slice(1)) {
    const m = /\(?((?:file:\/\/)?[^\s()]+):(\d+):(\d+)\)?\s*$/.exec(line);
    if (!m || m[1].startsWith("node:")) continue;
    let path = m[1];
    try { if (path.startsWith("file:")) path = fileURLToPath(path); } catch { continue; }
    if (path.startsWith(ownRoot + "src/") || path.startsWith(ownRoot + "dist/")) continue;
    return { file: path, line: Number(m[2]), column: Number(m[3]) };
  }
  return null;
}

// gpuc's own frames: this code is in <package>/src/ or in <package>/dist/ (a module, or a bundle
// or chunk of scripts/bundle-node.mjs), and stack traces through the built code may be
// source-mapped back to src/.
const ownRoot = ((here: string) => here.slice(0, Math.max(here.lastIndexOf("/dist/"), here.lastIndexOf("/src/")) + 1))(fileURLToPath(import.meta.url).replaceAll("\\", "/"));

/**
 * The stack here, for callerLocation later: capturing it is cheap, formatting it (reading
 * `.stack`) is what costs, and happens only on an error. For calls that await before they can
 * tell a mistake: after an await, V8 shows only the frames that awaited.
 */
export function callSite(): Error {
  const saved = Error.stackTraceLimit;
  Error.stackTraceLimit = 16;
  const site = new Error();
  Error.stackTraceLimit = saved;
  return site;
}

/**
 * A mistake in a call (its options, its arguments) said where the user's code made the call: a
 * CompileError or KernelError without a location gets the first stack frame outside gpuc of
 * `site` (captured at the call, before anything awaited) as its location and message prefix.
 * Anything else is returned as it is.
 */
export function atCallSite(e: unknown, site: Error | null): unknown {
  if (e instanceof CompileError && !e.location && e.diagnostics.length === 1) {
    const d = e.diagnostics[0];
    const where = callerLocation(site);
    return where ? CompileError.single(e.kind, d.message, where, d.hint) : e;
  }
  if (e instanceof KernelError && !e.location) {
    const where = callerLocation(site);
    return where ? new KernelError(e.kind, `${formatLocation(where)}: ${e.message}`, { location: where }) : e;
  }
  return e;
}
