// The files of gpuc's own code cache (compiler-script.ts asks for them; the disk cache, disk.ts,
// reads, writes, lists, evicts, verifies and clears them with its other files): `v2/code/<name>.v8`
// in the cache directory, a header line `gpuc-code 1 <tag> <script SHA-256> <targets>` and V8's
// code cache data. The tag is the HMAC-SHA256 under the user's key of `gpuc-code <SHA-256>
// <targets>\n` and the data: data made for other code, or by anything but this user's gpuc,
// never reaches V8.

import type { Authenticator } from "./auth.js";

/** A code cache file's header line. */
const HEADER = /^gpuc-code 1 ([0-9a-f]{64}) ([0-9a-f]{64}) ([a-z,]*)$/;

/**
 * The two kinds of such files, each a folder of the store and a suffix: gpuc's own code cache
 * (`v8`: V8's data for the compiler script) and device code objects (`object`: an AMD GPU's,
 * linked by the AMD GPU device from a kernel's LLVM IR; `script` is then the hash of what it was
 * made from, and `targets` empty).
 */
export const CODE_KINDS = { v8: { folder: "code", suffix: ".v8" }, object: { folder: "objects", suffix: ".o" } } as const;
export type CodeKind = keyof typeof CODE_KINDS;

/** What a code cache file holds. */
export interface CodeFile {
  /** The SHA-256 of the script whose data it is. */
  script: string;
  /** The targets whose compile had run when the data was made. */
  targets: string[];
  data: Buffer;
}

const tagged = (script: string, targets: string, data: Uint8Array) => [`gpuc-code ${script} ${targets}\n`, data] as const;

/** A code cache file's bytes. */
export function codeFileBytes(auth: Authenticator, script: string, targets: readonly string[], data: Uint8Array): Buffer {
  const list = targets.filter((t) => /^[a-z]+$/.test(t)).sort().join(",");
  return Buffer.concat([Buffer.from(`gpuc-code 1 ${auth.tag(tagged(script, list, data))} ${script} ${list}\n`, "latin1"), data]);
}

/** A code cache file's record, or why it is refused (no header, or a tag that does not verify). */
export function readCodeFile(auth: Authenticator, bytes: Buffer): CodeFile | { refused: string } {
  const nl = bytes.indexOf(10);
  const m = nl > 0 && nl < 200 ? HEADER.exec(bytes.subarray(0, nl).toString("latin1")) : null;
  if (!m) return { refused: "not a gpuc code cache file (no header), or truncated" };
  const data = bytes.subarray(nl + 1);
  if (!auth.verify(tagged(m[2], m[3], data), m[1])) return { refused: "its tag does not verify under this user's key (edited, corrupt, or not written by this user's gpuc)" };
  return { script: m[2], targets: m[3] ? m[3].split(",") : [], data };
}
