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

function siteKey(l: Loc): string {
  return `${l.src.name}@${l.at}${l.inlinedAt ? "<" + siteKey(l.inlinedAt) : ""}`;
}
