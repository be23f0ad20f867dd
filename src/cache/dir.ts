// The user's cache directory for gpuc: where it is, the check that it is the user's own, and the
// folder of the disk cache's store in it (disk.ts). Light (Node's fs, os and path only): the
// OpenCL device keeps the verdicts of its probes there too (devices/opencl-probe.ts).

import { mkdirSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";

/** The format of the store's files; the store is the folder `v<FORMAT>` (a file of another format is never read). */
export const FORMAT = 2;

/** The store's folder in a cache directory: what `gpuc cache clear` removes. */
export function storeDir(dir: string): string { return join(dir, `v${FORMAT}`); }

/** The user's cache directory for gpuc (GPUC_CACHE_DIR overrides it). */
export function defaultCacheDir(): string {
  if (process.env.GPUC_CACHE_DIR) return process.env.GPUC_CACHE_DIR;
  const base = process.env.XDG_CACHE_HOME || join(homedir(), ".cache");
  return join(base, "gpuc");
}

/**
 * Why the cache directory may not be used, or null: it must be a directory owned by this user
 * that no other user can write (else anyone who can write it could plant code that this user's
 * processes would run). Created 0700 when missing.
 */
export function directoryProblem(dir: string): string | null {
  try { mkdirSync(dir, { recursive: true, mode: 0o700 }); } catch (e) { return `the cache directory ${dir} cannot be created: ${(e as Error).message}`; }
  let st;
  try { st = statSync(dir); } catch (e) { return `the cache directory ${dir} cannot be read: ${(e as Error).message}`; }
  if (!st.isDirectory()) return `the cache directory ${dir} is not a directory`;
  const uid = process.getuid?.();
  if (uid !== undefined && st.uid !== uid) return `the cache directory ${dir} belongs to another user (uid ${st.uid}); set GPUC_CACHE_DIR to a directory of your own`;
  if (st.mode & 0o022) return `the cache directory ${dir} is writable by other users (mode ${(st.mode & 0o777).toString(8)}); chmod 700 it, or set GPUC_CACHE_DIR`;
  return null;
}
