// Source text of a kernel or helper and the mapping from offsets to file:line:col.
//
// A function object's source (fn.toString()) has no file. When we know the file that created the
// kernel (from the stack at kernel()), we look for the function's text in that file, lazily and
// only when an error needs a location, so locations read `examples/saxpy.ts:12:9`. When the text
// is not found (e.g. TypeScript stripped by a loader), they read `saxpy:3:9`, relative to the
// function's own first line.

import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { SourceLocation } from "../errors.js";

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
   * @param file       file this text is (isFile) or may be inside (candidate, searched lazily)
   * @param suffixLen  characters the front end appended (e.g. ")")
   */
  constructor(
    readonly text: string,
    readonly name: string,
    readonly prefixLen = 0,
    private file: string | null = null,
    private readonly isFile = false,
    private readonly suffixLen = 0,
  ) {
    this.fileName = isFile && file ? file : name;
  }

  /** Location of an offset in `text`, resolved to the file when possible. */
  locate(offset: number): SourceLocation {
    if (!this.resolved) this.resolve();
    const user = Math.max(0, offset - this.prefixLen) + this.base.offset;
    const hay = this.base.lineStarts ?? this.starts();
    let lo = 0, hi = hay.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (hay[mid] <= user) lo = mid; else hi = mid - 1;
    }
    return { file: this.fileName, line: lo + 1, column: user - hay[lo] + 1 };
  }

  private starts(): number[] {
    if (!this.lineStarts) this.lineStarts = lineStartsOf(this.text.slice(this.prefixLen, this.text.length - this.suffixLen));
    return this.lineStarts;
  }

  private resolve(): void {
    this.resolved = true;
    if (this.isFile || !this.file) return;
    try {
      const path = this.file.startsWith("file:") ? fileURLToPath(this.file) : this.file;
      const content = readFileSync(path, "utf8");
      const user = this.text.slice(this.prefixLen, this.text.length - this.suffixLen);
      const at = content.indexOf(user);
      // Only trust a unique match: two identical functions in one file would be ambiguous.
      if (at < 0 || content.indexOf(user, at + 1) >= 0) return;
      this.base = { offset: at, lineStarts: lineStartsOf(content) };
      this.fileName = relativeToCwd(path);
    } catch {
      // No readable file: keep function-relative locations.
    }
  }
}

function lineStartsOf(text: string): number[] {
  const starts = [0];
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) starts.push(i + 1);
  return starts;
}

function relativeToCwd(path: string): string {
  const cwd = process.cwd() + "/";
  return path.startsWith(cwd) ? path.slice(cwd.length) : path;
}

// gpuc's own code lives in <package>/src (run from source) or <package>/dist (built).
const packageRoot = fileURLToPath(new URL("../../", import.meta.url));
const ownSrc = packageRoot + "src/";
const ownDist = packageRoot + "dist/";

/** The file of the first stack frame outside gpuc: where the user called kernel(). */
export function callerFile(): string | null {
  const saved = Error.stackTraceLimit;
  Error.stackTraceLimit = 12;
  const stack = new Error().stack ?? "";
  Error.stackTraceLimit = saved;
  for (const line of stack.split("\n").slice(1)) {
    const m = /\(?((?:file:\/\/)?\/[^():]+|[A-Za-z]:\\[^():]+):\d+:\d+\)?\s*$/.exec(line);
    if (!m) continue;
    const f = m[1];
    const path = f.startsWith("file:") ? fileURLToPath(f) : f;
    if (path.startsWith(ownSrc) || path.startsWith(ownDist)) continue;
    return f;
  }
  return null;
}
