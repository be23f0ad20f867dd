// The disk cache: a content-addressed store of persistable artifacts (DESIGN §4), shared by
// every process of the user. Node only.
//
// Layout under the cache directory (GPUC_CACHE_DIR, default $XDG_CACHE_HOME/gpuc or
// ~/.cache/gpuc): `v1/<key[0..2]>/<key>.entry` for compiled specializations and
// `v1/sig/<fingerprint>.sig` for kernel signatures (parameter names and declared types, so a
// revived kernel needs no parsing). Each file is a header line `gpuc-cache 1 <sha256 of body>`
// and the body (JSON). Writes go to a temporary file in the same directory and are renamed into
// place (atomic: a reader sees a whole file or none, and processes writing the same key at once
// all succeed). A file whose checksum fails (corrupt, truncated) is deleted and reads as a miss.
// Hits refresh the file's time; when the store grows past its limit (GPUC_CACHE_SIZE bytes,
// default 256 MiB) the least recently used files are evicted.

import { closeSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, rmSync, statSync, unlinkSync, utimesSync, writeSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join } from "node:path";
import { sha256 } from "./sha256.js";
import { GPUC_BUILD } from "../build-id.js";
import type { CacheEntry, Signature } from "./entry.js";

const FORMAT = 1;

export interface DiskCacheStats { dir: string; entries: number; signatures: number; bytes: number; limit: number }

export class DiskCache {
  readonly root: string;
  constructor(readonly dir: string, readonly limit: number = defaultLimit()) {
    this.root = join(dir, `v${FORMAT}`);
  }

  private entryPath(key: string): string { return join(this.root, key.slice(0, 2), `${key}.entry`); }
  private sigPath(fingerprint: string): string { return join(this.root, "sig", `${fingerprint}.sig`); }

  /** The entry stored under `key`, or null (missing, or discarded because its checksum failed). */
  get(key: string): CacheEntry | null {
    return this.readFile(this.entryPath(key)) as CacheEntry | null;
  }

  /** This process's estimate of the store's size: listed once, then kept up by what it writes. */
  private bytesEstimate: number | null = null;

  put(entry: CacheEntry): void {
    const written = this.writeFile(this.entryPath(entry.key), entry);
    // Listing the store on every write would cost O(entries): the size is listed once per
    // process, kept up by what this process writes, and listed again only past the limit (other
    // processes' writes are seen then).
    this.bytesEstimate = this.bytesEstimate === null ? this.files().reduce((n, f) => n + f.bytes, 0) : this.bytesEstimate + written;
    if (this.bytesEstimate > this.limit) { this.evictIfNeeded(); this.bytesEstimate = null; }
  }

  /** Remove an entry (poisoned, or no longer valid). */
  remove(key: string): void {
    try { unlinkSync(this.entryPath(key)); } catch { /* already gone */ }
  }

  signature(fingerprint: string): Signature | null {
    return this.readFile(this.sigPath(fingerprint)) as Signature | null;
  }

  putSignature(fingerprint: string, sig: Signature): void {
    this.writeFile(this.sigPath(fingerprint), sig);
  }

  /** A file's body if its checksum holds (else it is deleted: null); `touch` marks it used (hits do, listings do not). */
  private readFile(path: string, touch = true): unknown {
    let text: string;
    try { text = readFileSync(path, "utf8"); } catch { return null; }
    const nl = text.indexOf("\n");
    const m = /^gpuc-cache (\d+) ([0-9a-f]{64})$/.exec(nl < 0 ? text : text.slice(0, nl));
    const body = text.slice(nl + 1);
    if (!m || Number(m[1]) !== FORMAT || sha256(body) !== m[2]) {
      // Corrupt or truncated: discard it; the kernel is compiled again and the entry rewritten.
      try { unlinkSync(path); } catch { /* another process did */ }
      return null;
    }
    if (touch) {
      try {
        const now = new Date();
        utimesSync(path, now, now);   // least recently used: a hit makes the file recent
      } catch { /* evicted meanwhile: the read still counts */ }
    }
    return JSON.parse(body);
  }

  /** Write atomically (a temporary file renamed into place); returns the bytes written. */
  private writeFile(path: string, value: unknown): number {
    const body = JSON.stringify(value);
    mkdirSync(dirname(path), { recursive: true });
    const tmp = `${path}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
    const fd = openSync(tmp, "w");
    const text = `gpuc-cache ${FORMAT} ${sha256(body)}\n${body}`;
    try { writeSync(fd, text); } finally { closeSync(fd); }
    renameSync(tmp, path);
    return Buffer.byteLength(text);
  }

  /** Every file of the store with its size and last use. */
  files(): { path: string; kind: "entry" | "signature"; bytes: number; used: number }[] {
    const out: { path: string; kind: "entry" | "signature"; bytes: number; used: number }[] = [];
    let dirs: string[];
    try { dirs = readdirSync(this.root); } catch { return out; }
    for (const d of dirs) {
      let names: string[];
      try { names = readdirSync(join(this.root, d)); } catch { continue; }
      for (const n of names) {
        if (!n.endsWith(".entry") && !n.endsWith(".sig")) continue;
        const path = join(this.root, d, n);
        try {
          const st = statSync(path);
          out.push({ path, kind: n.endsWith(".entry") ? "entry" : "signature", bytes: st.size, used: st.mtimeMs });
        } catch { /* removed meanwhile */ }
      }
    }
    return out;
  }

  /** The entries, as `gpuc cache ls` lists them. */
  list(): { key: string; kernel: string; target: string; types: string[]; bytes: number; used: Date }[] {
    return this.files().filter((f) => f.kind === "entry").flatMap((f) => {
      const e = this.readFile(f.path, false) as CacheEntry | null;
      return e ? [{ key: e.key, kernel: e.kernel, target: e.owner.target, types: e.types, bytes: f.bytes, used: new Date(f.used) }] : [];
    });
  }

  stats(): DiskCacheStats {
    const files = this.files();
    return {
      dir: this.dir, entries: files.filter((f) => f.kind === "entry").length, signatures: files.filter((f) => f.kind === "signature").length,
      bytes: files.reduce((n, f) => n + f.bytes, 0), limit: this.limit,
    };
  }

  /** Check every file's checksum; corrupt ones are removed. */
  verify(): { checked: number; removed: string[] } {
    const removed: string[] = [];
    const files = this.files();
    for (const f of files) if (this.readFile(f.path, false) === null) removed.push(f.path);
    return { checked: files.length, removed };
  }

  clear(): number {
    const n = this.files().length;
    rmSync(this.root, { recursive: true, force: true });
    return n;
  }

  /** Evict the least recently used files until the store fits its limit. */
  evictIfNeeded(): void {
    const files = this.files();
    let total = files.reduce((n, f) => n + f.bytes, 0);
    if (total <= this.limit) return;
    files.sort((a, b) => a.used - b.used);
    for (const f of files) {
      if (total <= this.limit) break;
      try { unlinkSync(f.path); total -= f.bytes; } catch { /* another process evicted it */ }
    }
  }
}

function defaultLimit(): number {
  const v = Number(process.env.GPUC_CACHE_SIZE);
  return Number.isFinite(v) && v > 0 ? v : 256 * 1024 * 1024;
}

/** The user's cache directory for gpuc (GPUC_CACHE_DIR overrides it). */
export function defaultCacheDir(): string {
  if (process.env.GPUC_CACHE_DIR) return process.env.GPUC_CACHE_DIR;
  const base = process.env.XDG_CACHE_HOME || join(homedir(), ".cache");
  return join(base, "gpuc");
}

/**
 * The disk cache of this process, or null when GPUC_CACHE=0 disables it — or when gpuc runs from
 * its sources (build "dev": its code may change under the same version, and entries made by an
 * earlier state of it would be revived), unless GPUC_CACHE=1 asks for it.
 */
export function openDiskCache(): DiskCache | null {
  if (process.env.GPUC_CACHE === "0") return null;
  if (GPUC_BUILD === "dev" && process.env.GPUC_CACHE !== "1") return null;
  return new DiskCache(defaultCacheDir());
}
