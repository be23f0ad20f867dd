// Source text of a kernel or helper and the mapping from offsets to file:line:col.
//
// A function object's source (fn.toString()) has no file. When an error needs a location, we ask
// V8 where the function was defined (origin.ts) and find its text in that file, so locations read
// `examples/saxpy.mjs:12:9`. When the text is not there (e.g. a loader transpiled TypeScript),
// they read `saxpy:3:9`, relative to the function's own first line.

import { readFileSync } from "node:fs";
import { findSourceMap } from "node:module";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { SourceLocation } from "../errors.js";
import type { FunctionOrigin } from "./origin.js";

export interface Span { start: number; end: number }

export class SourceText {
  private lineStarts: number[] | null = null;
  private resolved = false;
  private fileName: string;
  private base = { offset: 0, lineStarts: null as number[] | null };

  /**
   * @param text       the text the parser saw
   * @param name       name used in locations when no file is known
   * @param prefixLen  characters the front end prepended to the user's text (e.g. "(" to parse it)
   * @param suffixLen  characters the front end appended (e.g. ")")
   * @param origin     the file this text is (a string), or how to find the file it is inside (lazily)
   */
  constructor(
    readonly text: string,
    readonly name: string,
    readonly prefixLen = 0,
    private readonly suffixLen = 0,
    private readonly origin: string | (() => FunctionOrigin | null) | null = null,
  ) {
    this.fileName = typeof origin === "string" ? relativeToCwd(origin) : name;
  }

  /** Location of an offset in `text`, resolved to the file when possible. */
  locate(offset: number): SourceLocation {
    if (!this.resolved) this.resolve();
    if (this.mapped) {
      const m = this.mapped(Math.max(0, offset - this.prefixLen));
      if (m) return m;
    }
    const user = Math.max(0, offset - this.prefixLen) + this.base.offset;
    const hay = this.base.lineStarts ?? this.starts();
    let lo = 0, hi = hay.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (hay[mid] <= user) lo = mid; else hi = mid - 1;
    }
    return { file: this.fileName, line: lo + 1, column: user - hay[lo] + 1 };
  }

  private userText(): string { return this.text.slice(this.prefixLen, this.text.length - this.suffixLen); }

  private starts(): number[] {
    if (!this.lineStarts) this.lineStarts = lineStartsOf(this.userText());
    return this.lineStarts;
  }

  /** Find the function's text in the file it came from, so locations are file:line:col. */
  private resolve(): void {
    this.resolved = true;
    if (typeof this.origin !== "function") return;
    const o = this.origin();
    if (!o) return;
    try {
      const content = readFileSync(o.path, "utf8");
      const starts = lineStartsOf(content);
      const near = (starts[o.line] ?? 0) + o.column;
      const user = this.userText();
      // V8 points into the function's head; its text starts at or shortly before that point.
      const at = content.lastIndexOf(user, near);
      if (at >= 0 && near - at <= 4096) {
        this.base = { offset: at, lineStarts: starts };
        this.fileName = relativeToCwd(o.path);
        return;
      }
    } catch {
      // No readable file: try the source map, else keep function-relative locations.
    }
    this.mapped = sourceMapped(o, this.userText());
  }

  /** Set when the function came from transpiled code (tsx, a bundler) with a source map. */
  private mapped: ((userOffset: number) => SourceLocation | null) | null = null;
}

/**
 * Locations through the source map of transpiled code: the function's text is a contiguous part
 * of the generated file, whose head V8 reported; offsets map to generated positions and then
 * to the original file.
 */
function sourceMapped(o: FunctionOrigin, user: string): ((userOffset: number) => SourceLocation | null) | null {
  const map = findSourceMap(o.path) || findSourceMap(pathToFileURL(o.path).href);
  if (!map) return null;
  const head = Math.max(0, user.indexOf("("));
  const startCol = o.column - head;
  if (startCol < 0) return null;
  const starts = lineStartsOf(user);
  return (offset) => {
    let li = 0;
    while (li + 1 < starts.length && starts[li + 1] <= offset) li++;
    const col = offset - starts[li];
    const e = map.findEntry(o.line + li, li === 0 ? startCol + col : col) as { originalSource?: string; originalLine?: number; originalColumn?: number };
    if (!e?.originalSource || e.originalLine === undefined) return null;
    const file = e.originalSource.startsWith("file:") ? fileURLToPath(e.originalSource) : e.originalSource;
    return { file: relativeToCwd(file), line: e.originalLine + 1, column: (e.originalColumn ?? 0) + 1 };
  };
}

function lineStartsOf(text: string): number[] {
  const starts = [0];
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) starts.push(i + 1);
  return starts;
}

function relativeToCwd(path: string): string {
  if (typeof process === "undefined") return path; // a browser: no working directory
  const cwd = process.cwd() + "/";
  return path.startsWith(cwd) ? path.slice(cwd.length) : path;
}
