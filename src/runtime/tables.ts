// What an artifact carries for the host side of its runtime (host.ts): the exception messages,
// their locations and the print formats. Light: the caches and the targets hold these tables
// without loading the devices' decoding.

import type { SourceLocation } from "../errors.js";
import type { Loc, Module, PrintPart } from "../ir/module.js";

export interface ResolvedLocation extends SourceLocation { function: string; inlinedAt: ResolvedLocation | null }

/**
 * What an artifact carries for its runtime: message, location and print-format tables.
 * Locations are resolved to file:line:col only when an exception is reported (finding a
 * function's file is not free), and then once.
 */
export class RuntimeTables {
  private resolved: (ResolvedLocation | null | undefined)[] = [];
  private count: number;
  constructor(
    /** 0: only that an exception happened; 1: message and location; 2: also the call chain. */
    readonly debugLevel: 0 | 1 | 2,
    readonly messages: { text: string; kind: "bounds" | "exception" }[],
    private readonly sites: Loc[],
    readonly formats: { parts: PrintPart[] }[],
  ) { this.count = sites.length; }

  /** Tables revived from a cache or an image: their locations were resolved when they were stored. */
  static fromResolved(debugLevel: 0 | 1 | 2, messages: RuntimeTables["messages"], locations: (ResolvedLocation | null)[], formats: RuntimeTables["formats"]): RuntimeTables {
    const t = new RuntimeTables(debugLevel, messages, [], formats);
    t.resolved = locations.slice();
    t.count = locations.length;
    return t;
  }

  get locationCount(): number { return this.count; }

  /** Tables of their own with the same contents (compile() hands out copies: artifacts are values). */
  copy(): RuntimeTables {
    const t = new RuntimeTables(this.debugLevel, this.messages.map((m) => ({ ...m })), this.sites, this.formats.map((f) => ({ parts: f.parts.slice() })));
    t.resolved = this.resolved.slice();
    t.count = this.count;
    return t;
  }

  location(id: number): ResolvedLocation | null {
    if (id < 0 || id >= this.count) return null;
    let r = this.resolved[id];
    if (r === undefined) { r = resolveLocation(this.sites[id]); this.resolved[id] = r; }
    return r;
  }

  /** Every location resolved (to store the tables beyond this process). */
  allLocations(): (ResolvedLocation | null)[] {
    return Array.from({ length: this.count }, (_v, i) => this.location(i));
  }
}

function resolveLocation(loc: Loc | null | undefined): ResolvedLocation | null {
  if (!loc) return null;
  const l = loc.src.locate(loc.at);
  return { ...l, function: loc.fn ?? loc.src.name, inlinedAt: resolveLocation(loc.inlinedAt) };
}

/** The tables of a module with the location table its back end built, resolved to file:line:col. */
export function runtimeTables(m: Module, locations: Loc[], debugLevel: 0 | 1 | 2): RuntimeTables {
  return new RuntimeTables(debugLevel, m.messages.map((x) => ({ ...x })), locations, m.formats.map((f) => ({ parts: f.parts.slice() })));
}
