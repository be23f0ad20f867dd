// The location table every back end builds as its code refers to source locations (exception
// records carry location ids; the host resolves them through the artifact's runtime tables).

import type { Loc } from "../ir/module.js";

/** Source locations by id, for exception records; equal sites share an id. */
export class LocationTable {
  readonly list: Loc[] = [];
  private ids = new Map<string, number>();
  id(loc: Loc | null | undefined): number {
    if (!loc) return -1;
    const key = siteKey(loc);
    let id = this.ids.get(key);
    if (id === undefined) { id = this.list.length; this.list.push(loc); this.ids.set(key, id); }
    return id;
  }
}

/**
 * Lines of generated text, each with the id of the source location its statement came from (-1:
 * none), and the location table they fill: what the text back ends of the C family (WGSL, OpenCL
 * C) write a function's body into.
 */
export class LineWriter {
  lines: string[] = [];
  lineLocs: number[] = [];
  /** The location of the statement being emitted. */
  stmtLoc: Loc | null = null;
  readonly locations = new LocationTable();

  /** A line at depth `d` (two spaces a level), of the current statement's location. */
  line(d: number, text: string): void {
    this.lines.push("  ".repeat(d) + text);
    this.lineLocs.push(this.stmtLoc ? this.locations.id(this.stmtLoc) : -1);
  }

  /** `emit` run into lines of its own (a function apart from the one being emitted): those lines. */
  apart(emit: () => void): string[] {
    const saved = { lines: this.lines, lineLocs: this.lineLocs, stmtLoc: this.stmtLoc };
    this.lines = [];
    this.lineLocs = [];
    emit();
    const out = this.lines;
    Object.assign(this, saved);
    return out;
  }
}

function siteKey(l: Loc): string {
  return `${l.src.name}@${l.at}${l.inlinedAt ? "<" + siteKey(l.inlinedAt) : ""}`;
}
