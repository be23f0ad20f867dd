// The source map of transpiled code (tsx, tsc, a bundle): Node's own where source maps are on,
// else read from the generated file's `//# sourceMappingURL=` (inline or beside it), so that
// `node out/app.js` without --enable-source-maps still leads back to the .ts. Light: no parser.

import { readFileSync } from "node:fs";
import { SourceMap, findSourceMap } from "node:module";
import { dirname, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

/** A position in an original source: its file path (or URL where it is not a file), 0-based line and column. */
interface OriginalPosition { file: string; line: number; column: number }

interface MappedSource {
  /** The original position of a generated one (0-based), or null where the map says nothing. */
  original(line: number, column: number): OriginalPosition | null;
  /** The original files the map names, as paths. */
  sources: string[];
}

const maps = new Map<string, MappedSource | null>();

/** The source map of a generated file (a path), or null where it has none. */
export function sourceMapOf(path: string): MappedSource | null {
  if (maps.has(path)) return maps.get(path)!;
  let found: MappedSource | null = null;
  try {
    const map = findSourceMap(path) || findSourceMap(pathToFileURL(path).href) || readSourceMap(path);   // (||: a bundler warns of ?? after the browser build's stand-in, which returns nothing)
    if (map) found = wrap(map, path);
  } catch {
    found = null;
  }
  maps.set(path, found);
  return found;
}

function readSourceMap(path: string): SourceMap | null {
  let text: string;
  try { text = readFileSync(path, "utf8"); } catch { return null; }
  const m = /\/[/*][#@]\s*sourceMappingURL=([^\s*]+)\s*(?:\*\/\s*)?$/.exec(text.slice(-100_000).trimEnd());
  if (!m) return null;
  const url = m[1];
  let json: string;
  if (url.startsWith("data:")) {
    const comma = url.indexOf(",");
    const body = url.slice(comma + 1);
    json = /;base64$/.test(url.slice(0, comma)) ? Buffer.from(body, "base64").toString("utf8") : decodeURIComponent(body);
  } else {
    json = readFileSync(url.startsWith("file:") ? fileURLToPath(url) : resolve(dirname(path), decodeURIComponent(url)), "utf8");
  }
  const payload = JSON.parse(json);
  // Sources are relative to the map's own location (or its sourceRoot): made absolute here, as Node's own are.
  const base = url.startsWith("data:") ? dirname(path) : dirname(url.startsWith("file:") ? fileURLToPath(url) : resolve(dirname(path), decodeURIComponent(url)));
  const root = typeof payload.sourceRoot === "string" && payload.sourceRoot ? resolve(base, payload.sourceRoot) : base;
  payload.sources = (payload.sources as string[]).map((s) => (/^[a-z]+:/i.test(s) ? s : pathToFileURL(resolve(root, s)).href));
  payload.sourceRoot = "";
  return new SourceMap(payload);
}

function wrap(map: SourceMap, path: string): MappedSource {
  const asPath = (s: string): string => (s.startsWith("file:") ? fileURLToPath(s) : /^[a-z]+:/i.test(s) ? s : resolve(dirname(path), s));
  return {
    sources: (map.payload.sources ?? []).map(asPath),
    original(line, column) {
      const e = map.findEntry(line, column) as { originalSource?: string; originalLine?: number; originalColumn?: number };
      if (!e?.originalSource || e.originalLine === undefined) return null;
      return { file: asPath(e.originalSource), line: e.originalLine, column: e.originalColumn ?? 0 };
    },
  };
}

/** Whether a path names a TypeScript source. */
export function isTypeScriptFile(path: string): boolean {
  return /\.[cm]?tsx?$/.test(path);
}
