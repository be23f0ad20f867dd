// Authentication of the disk cache (ARCHITECTURE.md, "Caches"): only code this user's gpuc produced
// runs from it. Every file gpuc writes there carries an HMAC-SHA256 tag under a per-user key kept
// outside the cache directory ($XDG_CONFIG_HOME/gpuc/cache-key, else ~/.config/gpuc/cache-key;
// GPUC_KEY_FILE overrides), created on first use with mode 0600. A file without a valid tag —
// copied from another machine or user, edited, planted by anything that could write the cache
// directory — is never used. Node only.

import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { mkdirSync, openSync, readFileSync, statSync, writeSync, closeSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join, relative, isAbsolute, resolve } from "node:path";

/** Where the key lives. */
export function keyFile(): string {
  if (process.env.GPUC_KEY_FILE) return resolve(process.env.GPUC_KEY_FILE);
  const base = process.env.XDG_CONFIG_HOME || join(homedir(), ".config");
  return resolve(base, "gpuc", "cache-key");
}

/** What is tagged: a text, or parts taken in order (a header and binary data). */
export type Tagged = string | readonly (string | Uint8Array)[];

export interface Authenticator {
  /** The tag of a body (hex). */
  tag(body: Tagged): string;
  /** Whether `tag` is the body's tag (constant time). */
  verify(body: Tagged, tag: string): boolean;
}

/**
 * The user's key (created when missing), as an authenticator; or the reason there is none (the
 * key cannot be read or made, is readable by others, or lies inside the cache directory it
 * would protect).
 */
export function openAuthenticator(cacheDir: string): Authenticator | { refused: string } {
  const path = keyFile();
  const inside = relative(resolve(cacheDir), path);
  if (!inside.startsWith("..") && !isAbsolute(inside))
    return { refused: `its key file ${path} is inside the cache directory (it must be kept apart from what it protects; set GPUC_KEY_FILE)` };
  let key: Buffer;
  try {
    key = readKey(path);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "ENOENT") return { refused: `its key file ${path} cannot be read: ${(e as Error).message}` };
    try {
      mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
      // 'wx': exactly one process creates it; the others read what it wrote.
      const fd = openSync(path, "wx", 0o600);
      try { writeSync(fd, randomBytes(32).toString("hex")); } finally { closeSync(fd); }
    } catch (e2) {
      if ((e2 as NodeJS.ErrnoException).code !== "EEXIST") return { refused: `its key file ${path} cannot be created: ${(e2 as Error).message}` };
    }
    try { key = readKey(path); } catch (e3) { return { refused: `its key file ${path} cannot be read: ${(e3 as Error).message}` }; }
  }
  const hmac = (body: Tagged): string => {
    const h = createHmac("sha256", key);
    for (const part of typeof body === "string" ? [body] : body) h.update(part);
    return h.digest("hex");
  };
  return {
    tag: hmac,
    verify(body, tag) {
      if (!/^[0-9a-f]{64}$/.test(tag)) return false;
      return timingSafeEqual(Buffer.from(hmac(body)), Buffer.from(tag));
    },
  };
}

function readKey(path: string): Buffer {
  const st = statSync(path);
  if (st.mode & 0o077) throw new Error(`it is readable or writable by other users (mode ${(st.mode & 0o777).toString(8)}); chmod 600 it`);
  const text = readFileSync(path, "utf8").trim();
  if (!/^[0-9a-f]{64}$/.test(text)) throw new Error("it does not hold a key (64 hex digits)");
  return Buffer.from(text, "hex");
}
