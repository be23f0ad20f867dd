// The checks of unauthenticated records and code (checks.ts) left out: what gpuc/plugin resolves
// checks.ts to in an app's bundle (ARCHITECTURE.md, "An app's bundle has no checks"). Same exports, each refusing: an
// app bundled this way loads the image its bundle pins, signed images, and its own tagged disk
// cache files — all authenticated, none needing these checks — and refuses any other record with
// the reason below instead of trusting it. No parser and no schema library come with it.

import type { CacheEntry } from "./entry.js";
import type { CheckedArtifact } from "../targets/target.js";
import type { Signature } from "./entry.js";

export type Verdict<T> = { ok: true; value: T } | { ok: false; reason: string };

/** Why the checks are not here. */
export const unavailable: string | null =
  "this app was bundled by gpuc/plugin, which leaves out gpuc's checks of records and code that nothing authenticates (their parser and schemas): " +
  "it loads only images that are pinned (loadImage(src, { sha256 }), as the plugin pins the app's own) or signed (loadImage(src, { publicKey })); " +
  "to load other images, give the plugin the option checks: true";

const refused = { ok: false as const, reason: unavailable! };

export async function parseEntry(_raw: unknown, _target: string | undefined): Promise<Verdict<CacheEntry>> { return refused; }
export function parseSignature(_raw: unknown): Verdict<Signature> { return refused; }
export function parseImageDocument(_raw: unknown): Verdict<{ gpuc: string; entries: { checksum: string; entry: unknown }[] }> { return refused; }
export async function checkCode(_a: CheckedArtifact): Promise<string | null> { return unavailable; }
export function prefetchCodeCheck(_target: string | null): void {}
