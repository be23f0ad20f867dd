// Collects CompileError diagnostics during a compilation and throws them once.

import { CompileError, type CompileErrorKind, type Diagnostic, type Frame } from "../errors.js";
import type { SourceText, Span } from "./source.js";

export class Diagnostics {
  readonly list: Diagnostic[] = [];
  private seen = new Set<string>();

  /** Record a problem at `span` of `source`. `frames` is the call chain, innermost first. */
  error(kind: CompileErrorKind, message: string, source: SourceText, span: Span, frames: Frame[] = [], hint?: string): void {
    this.add({ kind, message, location: source.locate(span.start), frames, hint });
  }

  add(d: Diagnostic): void {
    // De-duplicate: the same problem found twice (e.g. in two specializations) is reported once.
    const key = `${d.kind}|${d.message}|${d.location?.file}:${d.location?.line}:${d.location?.column}`;
    if (this.seen.has(key)) return;
    this.seen.add(key);
    this.list.push(d);
  }

  get count(): number { return this.list.length; }

  /** Throw every problem found so far as one CompileError. */
  throwIfAny(): void {
    if (this.list.length) throw new CompileError(this.list.slice());
  }
}
