// Which .ts file a kernel() call came from (when a loader such as tsx transpiled it), for the
// kernel's annotations. Light: no parser; the annotations are read only when the kernel compiles.

import { fileURLToPath } from "node:url";

/** The .ts file of the first stack frame outside gpuc (where kernel() was called), or null. */
export function callerSourceFile(): string | null {
  const saved = Error.stackTraceLimit;
  Error.stackTraceLimit = 8;
  const stack = new Error().stack ?? "";
  Error.stackTraceLimit = saved;
  for (const line of stack.split("\n").slice(1)) {
    const m = /\(?((?:file:\/\/)?[^\s()]+\.[cm]?tsx?):\d+:\d+\)?\s*$/.exec(line);
    if (!m) continue;
    const path = m[1].startsWith("file:") ? fileURLToPath(m[1]) : m[1];
    if (path.startsWith(ownRoot + "src/") || path.startsWith(ownRoot + "dist/")) continue;
    return path;
  }
  return null;
}
// gpuc's own frames: this file is <package>/src/frontend or <package>/dist/frontend, and stack
// traces through the built code are source-mapped back to src/.
const ownRoot = fileURLToPath(new URL("../../", import.meta.url));
