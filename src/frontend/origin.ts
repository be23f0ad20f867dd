// Where a function object was defined: its file and position, from V8's [[FunctionLocation]]
// (through the in-process inspector, which answers synchronously). Used to render error
// locations, and to find a transpiled function's TypeScript declaration (annotations.ts).

import { Session } from "node:inspector";
import { fileURLToPath } from "node:url";

export interface FunctionOrigin {
  /** File path (or URL for non-file scripts). */
  path: string;
  /** 0-based line and column V8 reports for the function (the start of its parameter list). */
  line: number;
  column: number;
}

/** Looked up once per function object. */
const origins = new WeakMap<Function, FunctionOrigin | null>();
/**
 * Script ids (unique within the process) → URLs, from the debugger's replay of every loaded
 * script: enabling it costs milliseconds, so it is done only for a script not seen before.
 */
const scriptUrls = new Map<string, string>();

export function functionOrigin(fn: Function): FunctionOrigin | null {
  if (origins.has(fn)) return origins.get(fn)!;
  const found = lookupOrigin(fn);
  origins.set(fn, found);
  return found;
}

function lookupOrigin(fn: Function): FunctionOrigin | null {
  let session: Session | null = null;
  const probe = "__gpucFunctionOriginProbe";
  try {
    session = new Session();
    session.connect();
    let location: { scriptId: string; lineNumber: number; columnNumber: number } | null = null;
    session.on("Debugger.scriptParsed", (m: { params: { scriptId: string; url: string } }) => scriptUrls.set(m.params.scriptId, m.params.url));
    (globalThis as Record<string, unknown>)[probe] = fn;
    session.post("Runtime.evaluate", { expression: `globalThis.${probe}` }, (err, r) => {
      if (err || !r?.result?.objectId) return;
      session!.post("Runtime.getProperties", { objectId: r.result.objectId, ownProperties: true }, (_err, r2) => {
        const p = r2?.internalProperties?.find((x) => x.name === "[[FunctionLocation]]");
        location = (p?.value?.value as typeof location) ?? null;
      });
    });
    if (!location) return null;
    const loc = location as { scriptId: string; lineNumber: number; columnNumber: number };
    if (!scriptUrls.has(loc.scriptId)) {
      // Enabling the debugger replays scriptParsed for every loaded script: scriptId → URL.
      session.post("Debugger.enable", () => {});
      session.post("Debugger.disable", () => {});
    }
    const url = scriptUrls.get(loc.scriptId);
    if (!url) return null;
    return { path: url.startsWith("file:") ? fileURLToPath(url) : url, line: loc.lineNumber, column: loc.columnNumber };
  } catch {
    return null;
  } finally {
    delete (globalThis as Record<string, unknown>)[probe];
    session?.disconnect();
  }
}
