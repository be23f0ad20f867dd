// `gpuc cache …`, `gpuc precompile …` and `gpuc image inspect …`: the persistent caches from the
// command line.

import { existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { DiskCache, defaultCacheDir } from "../cache/disk.js";
import { parseImage, serializeImage, startGenerating, stopGenerating } from "../cache/image.js";

export class CommandError extends Error {
  constructor(message: string, readonly usage = false) { super(message); }
}

/** A workload's own error: gpuc's errors pass as they are (the CLI prints them), others are the user's code failing. */
function workloadFailed(workload: string, what: string, e: unknown): Error {
  if (e instanceof Error && (e.name === "CompileError" || e.name === "KernelError")) return e;
  return new CommandError(`the workload '${workload}' ${what}; no image was written:\n${e instanceof Error ? e.stack ?? e.message : String(e)}`);
}

const mib = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MiB`;

/** `gpuc cache ls | stats | clear | verify` on the disk cache (GPUC_CACHE_DIR or the default). */
export function cacheCommand(args: string[], out: (s: string) => void): number {
  const cache = new DiskCache(defaultCacheDir());
  switch (args[0]) {
    case "ls": {
      const list = cache.list().sort((a, b) => b.used.getTime() - a.used.getTime());
      for (const e of list) out(`${e.key.slice(0, 16)}  ${e.target.padEnd(4)}  ${e.kernel}(${e.types.join(", ")})  ${e.bytes} bytes  used ${e.used.toISOString()}`);
      out(`${list.length} entr${list.length === 1 ? "y" : "ies"} in ${cache.dir}`);
      return 0;
    }
    case "stats": {
      const s = cache.stats();
      out(`directory   ${s.dir}${process.env.GPUC_CACHE === "0" ? " (disabled: GPUC_CACHE=0)" : ""}`);
      out(`entries     ${s.entries}`);
      out(`signatures  ${s.signatures}`);
      out(`size        ${mib(s.bytes)} of ${mib(s.limit)} (least recently used entries are evicted beyond it)`);
      return 0;
    }
    case "clear": out(`removed ${cache.clear()} file(s) from ${cache.dir}`); return 0;
    case "verify": {
      const r = cache.verify();
      for (const p of r.removed) out(`corrupt, removed: ${p}`);
      out(`${r.checked} file(s) checked, ${r.removed.length} corrupt`);
      return r.removed.length ? 1 : 0;
    }
    default: throw new CommandError(args[0] ? `unknown cache command '${args[0]}' (ls, stats, clear, verify)` : "missing the cache command (ls, stats, clear, verify)", true);
  }
}

/**
 * `gpuc precompile <workload> -o <image>`: import the workload module, await its default export
 * (an async function that compiles or launches the package's kernels) while every persistable
 * specialization is collected, then write the image. A workload that fails writes nothing.
 */
export async function precompile(workload: string, output: string, out: (s: string) => void): Promise<number> {
  const path = resolve(workload);
  if (!existsSync(path)) throw new CommandError(`cannot read '${workload}': no such file`);
  if (/\.[cm]?tsx?$/.test(path)) {
    try {
      const { register } = await import("tsx/esm/api");
      register();
    } catch {
      throw new CommandError(`precompiling a TypeScript workload needs tsx (npm i -D tsx), or compile '${workload}' to JavaScript first`);
    }
  }
  startGenerating();
  let entries;
  try {
    let mod: { default?: unknown };
    try { mod = (await import(pathToFileURL(path).href)) as { default?: unknown }; }
    catch (e) { throw workloadFailed(workload, "could not be imported", e); }
    if (typeof mod.default !== "function") throw new CommandError(`'${workload}' has no default export to run (export default async function () { … compile or launch the kernels … })`);
    try { await (mod.default as () => unknown)(); }
    catch (e) { throw workloadFailed(workload, "failed", e); }
  } finally {
    entries = stopGenerating();
  }
  const bytes = serializeImage(entries);
  const tmp = `${output}.${process.pid}.tmp`;
  writeFileSync(tmp, bytes);
  renameSync(tmp, output);
  const kernels = new Set(entries.map((e) => e.kernel));
  out(`wrote ${output}: ${entries.length} specialization(s) of ${kernels.size} kernel(s), ${bytes.length} bytes`);
  return 0;
}

/** `gpuc image inspect <file>`: what an image holds, and what this gpuc would skip and why. */
export function inspectImage(file: string, out: (s: string) => void): number {
  if (!existsSync(file)) throw new CommandError(`cannot read '${file}': no such file`);
  const { report, entries } = parseImage(readFileSync(file), file);
  out(`${file}: kernel image made by gpuc ${report.gpuc} on ${report.created}`);
  for (const e of entries) {
    const o = e.owner;
    const feats = [o.arch, o.fastMath ? "fastMath" : null, `relocation ${o.relocation}`, `checks ${o.boundsCheck ? "on" : "off"}`, `debug ${o.debugLevel}`].filter(Boolean).join(", ");
    out(`  ${o.target.padEnd(4)}  ${e.kernel}(${e.types.join(", ")})  [${feats}]  ${e.artifact.code.length} bytes, ${e.artifact.manifest.sites.length} relocation site(s)`);
  }
  for (const s of report.skipped) out(`  skipped: ${s.target} ${s.kernel}: ${s.reason}`);
  out(`${report.loaded.length} usable, ${report.skipped.length} skipped`);
  return 0;
}
