// gpuc's own code cache (ARCHITECTURE.md, "gpuc's own code cache"): the compiler loaded as one
// classic script (dist/compiler/script.cjs, written by scripts/bundle-node.mjs) through node:vm,
// with the V8 code cache of an earlier process. Node 20 keeps no compiled code of ES modules
// between processes, and a first compile in a new process spent most of its time compiling gpuc's
// own functions; V8's code cache holds the bytecode of every function that had run when it was
// made, so it is made after a compile (and again after the first compile for another target).
//
// The cache is code, so it is kept as the disk cache keeps what it stores (code-file.ts): in the
// user's cache directory, authenticated under the user's key, evicted, verified and cleared with
// the rest. A file whose tag does not verify, or made for another script, is deleted and the
// script compiled afresh; V8 itself checks the data against its version and flags
// (`cachedDataRejected`), and a rejected file is rewritten. The file's name is the script's
// SHA-256 with Node's version and architecture, and the tag covers the SHA-256 (V8 checks only
// the script's length), so no data made for other code is ever given to V8. GPUC_CODE_CACHE=0
// turns it off: the compiler then loads as ES modules, as it does where there is no script (gpuc
// run from its sources) or no cache directory and key it may use. It is apart from GPUC_CACHE,
// which keeps compiled kernels: with the disk cache off, every compile still compiles.
// Node only (the browser build has src/platform/no-compiler-script.ts in its place).

import { readFileSync } from "node:fs";
import { createHash } from "node:crypto";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { Script } from "node:vm";
import type { CompilerModule } from "../compiler/job.js";
import type { CodeFile } from "./code-file.js";
import { openUserCache } from "./disk.js";
import { GPUC_BUILD } from "../build-id.js";

/** The script's first line: the build it belongs to, its SHA-256, and the ES modules of gpuc it requires. */
const HEADER = /^\/\/ gpuc compiler script ([0-9a-f]+) ([0-9a-f]{64}) (\[.*\])$/;

/**
 * The compiler from the package's script (dist/compiler/script.cjs: this module is
 * dist/cache/compiler-script.js, an entry of the bundle), with this user's code cache where there
 * is one; null where there is no script of this build (then the compiler is loaded as ES modules).
 */
export async function loadCompilerScript(): Promise<CompilerModule | null> {
  if (process.env.GPUC_CODE_CACHE === "0") return null;
  const dist = new URL("../", import.meta.url);
  const path = fileURLToPath(new URL("compiler/script.cjs", dist));
  let text: string;
  // (ASCII: the build makes sure of it. Read as Latin-1, it is one byte a character with no decoding.)
  try { text = readFileSync(path).toString("latin1"); } catch { return null; }
  const nl = text.indexOf("\n");
  const head = HEADER.exec(text.slice(0, nl));
  if (!head || head[1] !== GPUC_BUILD) return null;
  const sha = head[2];
  // Without a store (the cache directory or key refused) the ES modules load faster than the
  // script would without data (it holds every back end, which V8 still has to scan).
  const store = openCodeCache(sha, path);
  if (!store) return null;
  // gpuc's ES modules the script shares with the runtime: loaded (most are already) before it runs.
  const names = JSON.parse(head[3]) as string[];
  const modules = new Map<string, unknown>();
  await Promise.all(names.map(async (n) => { modules.set(`gpuc:${n}`, await import(new URL(n, dist).href)); }));
  const nodeRequire = createRequire(path);
  const require = (id: string): unknown => {
    if (modules.has(id)) return modules.get(id);
    if (id.startsWith("node:")) return nodeRequire(id);
    throw new Error(`gpuc's compiler script requires ${id}, which it was not built with`);
  };

  const cached = store.read();
  const script = new Script(text, { filename: path, cachedData: cached?.data });
  const module = { exports: {} as CompilerModule };
  (script.runInThisContext() as (e: unknown, r: typeof require, m: typeof module) => void)(module.exports, require, module);
  const compiler = module.exports;

  // Written after a compile: after the first one where there was no data or V8 refused it, and
  // after the first compile for each target the data was not made with (once more per target:
  // V8's data holds the functions that have run).
  const covered = new Set(cached && !script.cachedDataRejected ? cached.targets : []);
  let fresh = !cached || script.cachedDataRejected === true, pending = false;
  return {
    ...compiler,
    compileLowered(src, job, target, o) {
      try { return compiler.compileLowered(src, job, target, o); } finally {
        if (fresh || !covered.has(job.target)) {
          fresh = false;
          covered.add(job.target);
          // Off the compile's way, before the process goes on to its next task.
          if (!pending) setImmediate(() => { pending = false; store.write(script.createCachedData(), [...covered]); });
          pending = true;
        }
      }
    },
  };
}

/**
 * The code cache file of the script with this SHA-256 at `path` in the user's disk cache; null
 * where its directory or key is refused. (V8's data names the script it was made from, and the
 * functions it holds report that name in their stack frames: each installation of the same
 * script has a file of its own, so that its stacks name its own files.)
 */
function openCodeCache(sha: string, path: string): { read(): CodeFile | null; write(data: Buffer, targets: string[]): void } | null {
  const opened = openUserCache();
  if ("refused" in opened) return null;
  const cache = opened.cache;
  // (V8's data is of one Node version and architecture: each has a file of its own.)
  const name = createHash("sha256").update(`${sha}\0${process.version}\0${process.arch}\0${path}`).digest("hex");
  return { read: () => cache.readCode(name, sha), write: (data, targets) => cache.writeCode(name, sha, targets, data) };
}
