// The disk cache: a content-addressed store of persistable artifacts (ARCHITECTURE.md, "Caches"),
// shared by every process of the user. Node only.
//
// Layout under the cache directory (GPUC_CACHE_DIR, default $XDG_CACHE_HOME/gpuc or
// ~/.cache/gpuc; created 0700, refused when other users can write it): `v2/<key[0..2]>/<key>.entry`
// for compiled specializations and `v2/sig/<fingerprint>.sig` for kernel signatures (parameter
// names and declared types, so a revived kernel needs no parsing); and `v2/pocl/<hash>.built`,
// the OpenCL device's record of the builds PoCL survived (devices/opencl-probe.ts; this module
// neither reads nor evicts them, and `clear` removes them with the rest). Each entry and
// signature file is a header line `gpuc-cache 2 <HMAC-SHA256 of the body under the user's key>`
// and the body (JSON). Writes go to a temporary file in the same directory and are renamed into
// place (atomic: a reader sees a whole file or none, and processes writing the same key at once
// all succeed). `v2/code/<name>.v8` holds gpuc's own code cache (code-file.ts, written by
// compiler-script.ts), and `v2/objects/<hash>.o` the AMD GPU device's code objects (the same
// format: devices/amdgpu.ts): listed, evicted, verified and cleared here with the rest.
//
// Every file read back goes through the validator (validate.ts): its tag, its record, its code.
// One that fails anything — corrupt, truncated, edited, planted, malformed, for another job, with
// a manifest of other code, calling what it does not define — is deleted and reads as a miss, so
// the kernel is compiled again and the entry rewritten: the cache heals itself. Hits refresh the
// file's time; past the size limit (GPUC_CACHE_SIZE bytes, default 256 MiB) the least recently
// used files are evicted, down to nine tenths of it (so that the next writes do not list the
// store again). Temporary files left by interrupted writes are removed once stale.

import { closeSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, rmSync, statSync, unlinkSync, utimesSync, writeSync } from "node:fs";
import { dirname, join } from "node:path";
import { GPUC_BUILD } from "../build-id.js";
import { GPUC_VERSION } from "../version.js";
import type { CacheEntry, Signature } from "./entry.js";
import { openAuthenticator, type Authenticator } from "./auth.js";
import { checkEntry, checkSignature, parseJSON, type Verdict } from "./validate.js";
import { InternalCompilerError } from "../errors.js";
import { FORMAT, defaultCacheDir, directoryProblem, storeDir } from "./dir.js";
import { CODE_KINDS, codeFileBytes, readCodeFile, type CodeFile, type CodeKind } from "./code-file.js";

export { defaultCacheDir, directoryProblem } from "./dir.js";

/** A temporary file older than this was left by an interrupted write (a live one is renamed within milliseconds). */
const STALE_TMP_MS = 10 * 60 * 1000;

interface DiskCacheStats { dir: string; entries: number; signatures: number; code: number; objects: number; bytes: number; limit: number }
type FileKind = "entry" | "signature" | "code" | "object" | "temporary";
interface CacheFile { path: string; kind: FileKind; bytes: number; used: number }
interface BadFile { path: string; reason: string; removed: boolean; error?: string }

export class DiskCache {
  readonly root: string;
  /** Files found bad by this process (path → reason), for `gpuc cache` to report. */
  readonly rejected = new Map<string, string>();
  /** `auth`: the user's key (null: nothing read back is trusted, as for a command that only clears). */
  constructor(readonly dir: string, private readonly auth: Authenticator | null, readonly limit: number = defaultLimit()) {
    this.root = storeDir(dir);
  }

  private entryPath(key: string): string { return join(this.root, key.slice(0, 2), `${key}.entry`); }
  private sigPath(fingerprint: string): string { return join(this.root, "sig", `${fingerprint}.sig`); }

  /** The entry stored under `key`, or null (missing, or discarded because it failed validation). */
  async get(key: string): Promise<CacheEntry | null> {
    return (await this.read(this.entryPath(key), "entry", key)) as CacheEntry | null;
  }

  /** This process's estimate of the store's size: listed once, then kept up by what it writes. */
  private bytesEstimate: number | null = null;

  put(entry: CacheEntry): void {
    const written = this.writeFile(this.entryPath(entry.key), entry);
    // Listing the store on every write would cost O(entries): the size is listed once per
    // process, kept up by what this process writes, and listed again only past the limit (other
    // processes' writes are seen then).
    // Past the limit the store is listed and evicted down to nine tenths of it, and the estimate is
    // what is left: a store kept at its limit would otherwise be listed at every write (52,224
    // entries: seconds a compile).
    this.bytesEstimate = this.bytesEstimate === null ? this.files().reduce((n, f) => n + f.bytes, 0) : this.bytesEstimate + written;
    if (this.bytesEstimate > this.limit) this.bytesEstimate = this.evictIfNeeded();
  }

  /** Remove an entry (found wanting after it was read: stale, or rejected by a device). */
  remove(key: string): void {
    try { unlinkSync(this.entryPath(key)); } catch { /* already gone */ }
  }

  async signature(fingerprint: string): Promise<Signature | null> {
    return (await this.read(this.sigPath(fingerprint), "signature")) as Signature | null;
  }

  putSignature(fingerprint: string, sig: Signature): void {
    // With the build that wrote it: a signature file is shared by every gpuc of the user.
    this.writeFile(this.sigPath(fingerprint), { gpuc: `${GPUC_VERSION}+${GPUC_BUILD}`, signature: sig });
  }

  /** A file's record if it passes validation; else it is deleted (healing) and null. `touch` marks it used (hits do, listings do not). */
  private async read(path: string, kind: "entry" | "signature", key?: string, touch = true): Promise<unknown> {
    let text: string;
    try { text = readFileSync(path, "utf8"); } catch { return null; }
    const verdict = await this.check(text, kind, { key, authenticated: true });
    if (!verdict.ok) {
      this.rejected.set(path, verdict.reason);
      try { unlinkSync(path); } catch { /* another process did, or the directory is read-only */ }
      return null;
    }
    if (touch) {
      try {
        const now = new Date();
        utimesSync(path, now, now);   // least recently used: a hit makes the file recent
      } catch { /* evicted meanwhile, or read-only: the read still counts */ }
    }
    return verdict.value;
  }

  /**
   * The validator of a file's text: header, the user's tag, JSON, then the record (validate.ts);
   * `authenticated`: a load, which may rely on the tag for the JS parse (validate.ts says why).
   */
  async check(text: string, kind: "entry" | "signature", opts: { key?: string; authenticated?: boolean } = {}): Promise<Verdict<unknown>> {
    const nl = text.indexOf("\n");
    const m = /^gpuc-cache (\d+) ([0-9a-f]{64})$/.exec(nl < 0 ? text.slice(0, 200) : text.slice(0, nl));
    if (!m) return { ok: false, reason: "not a gpuc cache file (no header), or truncated" };
    if (Number(m[1]) !== FORMAT) return { ok: false, reason: `cache format ${m[1]}; this gpuc writes format ${FORMAT}` };
    const body = text.slice(nl + 1);
    if (!this.auth) return { ok: false, reason: "no key to authenticate it with" };
    if (!this.auth.verify(body, m[2])) return { ok: false, reason: "its tag does not verify under this user's key (edited, corrupt, or not written by this user's gpuc)" };
    const json = parseJSON(body);
    if (!json.ok) return json;
    return kind === "entry" ? checkEntry(json.value, opts) : checkSignature(json.value, opts);
  }

  /** Write atomically (a temporary file renamed into place); returns the bytes written. */
  private writeFile(path: string, value: unknown): number {
    if (!this.auth) throw new InternalCompilerError("writing to a disk cache opened without a key");
    const body = JSON.stringify(value);
    return writeAtomically(path, `gpuc-cache ${FORMAT} ${this.auth.tag(body)}\n${body}`);
  }

  private codePath(name: string, kind: CodeKind): string { return join(this.root, CODE_KINDS[kind].folder, `${name}${CODE_KINDS[kind].suffix}`); }

  /**
   * gpuc's own code cache file `name` (compiler-script.ts), or a device's code object (`object`),
   * if it verifies under the user's key and is of the script (the code) with this SHA-256; else it
   * is deleted (healing) and null.
   */
  readCode(name: string, script: string, kind: CodeKind = "v8"): CodeFile | null {
    if (!this.auth) return null;
    const path = this.codePath(name, kind);
    let bytes: Buffer;
    try { bytes = readFileSync(path); } catch { return null; }
    const f = readCodeFile(this.auth, bytes);
    if ("refused" in f || f.script !== script) {
      this.rejected.set(path, "refused" in f ? f.refused : kind === "v8" ? "made for another build of gpuc's compiler" : "made from other code");
      try { unlinkSync(path); } catch { /* another process did */ }
      return null;
    }
    try { const now = new Date(); utimesSync(path, now, now); } catch { /* evicted meanwhile: the read still counts */ }
    return f;
  }

  /** Keep gpuc's own code cache file (or a code object) `name`; a full or read-only disk leaves the next process to compile (a cache is an optimization). */
  writeCode(name: string, script: string, targets: readonly string[], data: Uint8Array, kind: CodeKind = "v8"): void {
    if (!this.auth) throw new InternalCompilerError("writing to a disk cache opened without a key");
    try { writeAtomically(this.codePath(name, kind), codeFileBytes(this.auth, script, targets, data)); } catch { /* not kept */ }
  }

  /** Every file of the store with its size and last use (temporary files included). */
  files(): CacheFile[] {
    const out: CacheFile[] = [];
    let dirs: string[];
    try { dirs = readdirSync(this.root); } catch { return out; }
    for (const d of dirs) {
      let names: string[];
      try { names = readdirSync(join(this.root, d)); } catch { continue; }
      for (const n of names) {
        const kind: FileKind | null = n.endsWith(".entry") ? "entry" : n.endsWith(".sig") ? "signature" : n.endsWith(".tmp") ? "temporary"
          : d === CODE_KINDS.v8.folder && n.endsWith(CODE_KINDS.v8.suffix) ? "code" : d === CODE_KINDS.object.folder && n.endsWith(CODE_KINDS.object.suffix) ? "object" : null;
        if (!kind) continue;
        const path = join(this.root, d, n);
        try {
          const st = statSync(path);
          out.push({ path, kind, bytes: st.size, used: st.mtimeMs });
        } catch { /* removed meanwhile */ }
      }
    }
    return out;
  }

  /** The valid entries, as `gpuc cache ls` lists them (bad ones are removed and reported in `rejected`). */
  async list(): Promise<{ key: string; kernel: string; target: string; types: string[]; bytes: number; used: Date; variant: boolean }[]> {
    const out: { key: string; kernel: string; target: string; types: string[]; bytes: number; used: Date; variant: boolean }[] = [];
    for (const f of this.files()) {
      if (f.kind !== "entry") continue;
      const e = (await this.read(f.path, "entry", undefined, false)) as CacheEntry | null;
      // (variant: the kernel's code for launches that prove its checks, beside the kernel's own.)
      if (e) out.push({ key: e.key, kernel: e.kernel, target: e.owner.target, types: e.types, bytes: f.bytes, used: new Date(f.used), variant: e.owner.provenChecks === true });
    }
    return out;
  }

  stats(): DiskCacheStats {
    const files = this.files();
    return {
      dir: this.dir, entries: files.filter((f) => f.kind === "entry").length, signatures: files.filter((f) => f.kind === "signature").length,
      code: files.filter((f) => f.kind === "code").length, objects: files.filter((f) => f.kind === "object").length,
      bytes: files.reduce((n, f) => n + f.bytes, 0), limit: this.limit,
    };
  }

  /**
   * Validate every file as a load would (the same validator) and remove what fails, and stale
   * temporary files; each bad file with its reason, and whether it could be removed.
   */
  async verify(): Promise<{ checked: number; bad: BadFile[] }> {
    const bad: BadFile[] = [];
    const files = this.files();
    const now = Date.now();
    for (const f of files) {
      let reason: string | null = null;
      if (f.kind === "temporary") {
        if (now - f.used < STALE_TMP_MS) continue;
        reason = "a temporary file left by an interrupted write";
      } else if (f.kind === "code" || f.kind === "object") {
        let bytes: Buffer;
        try { bytes = readFileSync(f.path); } catch { continue; }
        const r = this.auth ? readCodeFile(this.auth, bytes) : { refused: "no key to authenticate it with" };
        if ("refused" in r) reason = r.refused;
      } else {
        let text: string;
        try { text = readFileSync(f.path, "utf8"); } catch { continue; }
        const key = f.kind === "entry" ? f.path.slice(f.path.lastIndexOf("/") + 1, -".entry".length) : undefined;
        const verdict = await this.check(text, f.kind, { key });
        if (!verdict.ok) reason = verdict.reason;
      }
      if (reason === null) continue;
      try { unlinkSync(f.path); bad.push({ path: f.path, reason, removed: true }); }
      catch (e) { bad.push({ path: f.path, reason, removed: false, error: (e as NodeJS.ErrnoException).code ?? (e as Error).message }); }
    }
    return { checked: files.length, bad };
  }

  /** Remove every file; returns how many went and the files that could not be removed (read-only). */
  clear(): { removed: number; failed: { path: string; error: string }[] } {
    const files = this.files();
    const failed: { path: string; error: string }[] = [];
    let removed = 0;
    for (const f of files) {
      try { unlinkSync(f.path); removed++; } catch (e) { failed.push({ path: f.path, error: (e as NodeJS.ErrnoException).code ?? (e as Error).message }); }
    }
    if (!failed.length) {
      try { rmSync(this.root, { recursive: true, force: true }); } catch { /* emptied anyway */ }
      // Files of the format before this one are never read again.
      try { rmSync(join(this.dir, "v1"), { recursive: true, force: true }); } catch { /* not there, or read-only */ }
    }
    return { removed, failed };
  }

  /**
   * Evict the least recently used files (stale temporary files first) until the store fits its
   * limit, down to nine tenths of it where it did not: the bytes left.
   */
  evictIfNeeded(): number {
    const files = this.files();
    const now = Date.now();
    for (const f of files) if (f.kind === "temporary" && now - f.used >= STALE_TMP_MS) { try { unlinkSync(f.path); f.bytes = 0; } catch { /* gone */ } }
    let total = files.reduce((n, f) => n + f.bytes, 0);
    if (total <= this.limit) return total;
    const target = Math.floor(this.limit * 0.9);
    files.sort((a, b) => a.used - b.used);
    for (const f of files) {
      if (total <= target) break;
      if (f.kind === "temporary") continue;
      try { unlinkSync(f.path); total -= f.bytes; } catch { /* another process evicted it */ }
    }
    return total;
  }
}

/** Write a file through a temporary one renamed into place (a reader sees all of it or none); the bytes written. */
function writeAtomically(path: string, content: string | Uint8Array): number {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const tmp = `${path}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  try {
    const fd = openSync(tmp, "w", 0o600);
    try { writeSync(fd, typeof content === "string" ? Buffer.from(content) : content); } finally { closeSync(fd); }
    renameSync(tmp, path);
  } catch (e) {
    try { unlinkSync(tmp); } catch { /* never made */ }
    throw e;
  }
  return typeof content === "string" ? Buffer.byteLength(content) : content.byteLength;
}

/** GPUC_CACHE_SIZE (bytes), else 256 MiB; a value that is no positive number is said once and the default kept (the cache is an optimization: it never stops a program). */
function defaultLimit(): number {
  const given = process.env.GPUC_CACHE_SIZE;
  const v = Number(given);
  if (given === undefined || given === "") return 256 * 1024 * 1024;
  if (Number.isFinite(v) && v > 0) return v;
  console.warn(`gpuc: GPUC_CACHE_SIZE must be a positive number of bytes, got ${JSON.stringify(given)}; the disk cache keeps its default, 256 MiB`);
  return 256 * 1024 * 1024;
}


/**
 * The disk cache of this process, or null when GPUC_CACHE=0 disables it — or when gpuc runs from
 * its sources (build "dev": its code may change under the same version, and entries made by an
 * earlier state of it would be revived), unless GPUC_CACHE=1 asks for it — or when its directory
 * or key is refused (said once on stderr).
 */
export function openDiskCache(): DiskCache | null {
  const on = process.env.GPUC_CACHE;
  if (on !== undefined && on !== "" && on !== "0" && on !== "1") console.warn(`gpuc: GPUC_CACHE is 0 (off) or 1 (on), got ${JSON.stringify(on)}; the disk cache stays ${GPUC_BUILD === "dev" ? "off (gpuc runs from its sources)" : "on"}`);
  if (on === "0") return null;
  if (GPUC_BUILD === "dev" && process.env.GPUC_CACHE !== "1") return null;
  const opened = openUserCache();
  if ("refused" in opened) {
    console.warn(`gpuc: not using the disk cache: ${opened.refused}`);
    return null;
  }
  return opened.cache;
}

/** The user's cache (directory checked, key opened), or why not. */
export function openUserCache(dir = defaultCacheDir()): { cache: DiskCache } | { refused: string } {
  const problem = directoryProblem(dir);
  if (problem) return { refused: problem };
  const auth = openAuthenticator(dir);
  if ("refused" in auth) return { refused: auth.refused };
  return { cache: new DiskCache(dir, auth) };
}
