// `gpuc cache …`, `gpuc precompile …` and `gpuc image inspect …`: the persistent caches from the
// command line.

import { existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { basename, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { DiskCache, defaultCacheDir, directoryProblem, openUserCache } from "../cache/disk.js";
import { startGenerating, stopGenerating } from "../cache/image.js";
import { imageSha256, parseImage, serializeImage, signImage, verifyImage } from "../cache/image-file.js";
import { storedCode, type CacheEntry } from "../cache/entry.js";
import { ownerKey, pickArch } from "../compiler/job.js";
import { targetInfo } from "../targets/index.js";
import { pluginIdFinder } from "./build-ids.js";

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
export async function cacheCommand(args: string[], out: (s: string) => void): Promise<number> {
  const dir = defaultCacheDir();
  /** The cache with the user's key (ls and verify authenticate what they read). */
  const keyed = (): DiskCache => {
    const opened = openUserCache(dir);
    if ("refused" in opened) throw new CommandError(`cannot use the disk cache: ${opened.refused}`);
    return opened.cache;
  };
  switch (args[0]) {
    case "ls": {
      const cache = keyed();
      const list = (await cache.list()).sort((a, b) => b.used.getTime() - a.used.getTime());
      for (const e of list) out(`${e.key.slice(0, 16)}  ${e.target.padEnd(4)}  ${e.kernel}(${e.types.join(", ")})${e.variant ? " (its variant for launches that prove its checks)" : ""}  ${e.bytes} bytes  used ${e.used.toISOString()}`);
      out(`${list.length} entr${list.length === 1 ? "y" : "ies"} in ${cache.dir}`);
      for (const [path, reason] of cache.rejected) out(`bad, removed: ${path}: ${reason}`);
      return 0;
    }
    case "stats": {
      const s = new DiskCache(dir, null).stats();
      out(`directory   ${s.dir}${process.env.GPUC_CACHE === "0" ? " (disabled: GPUC_CACHE=0)" : ""}`);
      const problem = directoryProblem(dir);
      if (problem) out(`refused     ${problem}`);
      out(`entries     ${s.entries}`);
      out(`signatures  ${s.signatures}`);
      out(`code cache  ${s.code} file(s) of gpuc's own compiled code${process.env.GPUC_CODE_CACHE === "0" ? " (disabled: GPUC_CODE_CACHE=0)" : ""}`);
      if (s.objects) out(`objects     ${s.objects} AMD code object(s)`);
      out(`size        ${mib(s.bytes)} of ${mib(s.limit)} (least recently used entries are evicted beyond it)`);
      return 0;
    }
    case "clear": {
      const cache = new DiskCache(dir, null);
      const r = cache.clear();
      out(`removed ${r.removed} file(s) from ${cache.dir}`);
      if (!r.failed.length) return 0;
      for (const f of r.failed.slice(0, 10)) out(`could not remove ${f.path} (${f.error})`);
      out(`could not remove ${r.failed.length} file(s)${r.failed.some((f) => f.error === "EACCES" || f.error === "EPERM" || f.error === "EROFS") ? ": the directory is read-only for this user" : ""}`);
      return 1;
    }
    case "verify": {
      const cache = keyed();
      const r = await cache.verify();
      for (const b of r.bad) out(`bad, ${b.removed ? "removed" : `could not remove (${b.error})`}: ${b.path}: ${b.reason}`);
      const kept = r.bad.filter((b) => !b.removed).length;
      out(`${r.checked} file(s) checked, ${r.bad.length} bad${r.bad.length ? `, ${r.bad.length - kept} removed` : ""}${kept ? `, ${kept} could not be removed` : ""}`);
      return r.bad.length ? 1 : 0;
    }
    default: throw new CommandError(args[0] ? `unknown cache command '${args[0]}' (ls, stats, clear, verify)` : "missing the cache command (ls, stats, clear, verify)", true);
  }
}

/**
 * `gpuc precompile <workload> -o <image>`: import the workload module, await its default export
 * (an async function that compiles or launches the package's kernels) while every persistable
 * specialization is collected, then write the image. A workload that fails writes nothing. A
 * kernel the bundler plugin would give an id (cli/build-ids.ts) has its entries under that id's
 * fingerprint too: the image serves the package imported as it is and an app bundled with the plugin.
 */
export async function precompile(workload: string, output: string, out: (s: string) => void, pinModule?: string): Promise<number> {
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
  // The compiler, for kernels imported from gpuc/runtime as well (a plugin-built app's modules,
  // precompiled unbundled): the runtime-only entry has none of its own.
  await import("../index.js");
  // Each entry under the plugin's id of its kernel() call too (cli/build-ids.ts): the same kernel in
  // an app bundled with the plugin is the same key.
  startGenerating(pluginIdFinder());
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
  const hash = imageSha256(bytes, output);
  out(`wrote ${output}: ${entries.length} specialization(s) of ${kernels.size} kernel(s), ${bytes.length} bytes, sha256 ${hash}`);
  // The pin, where the kernels' own source is not (a kernel file's text is part of its
  // fingerprint): the package's loader imports it and passes it to loadImage.
  if (pinModule !== undefined) {
    const tmpPin = `${pinModule}.${process.pid}.tmp`;
    writeFileSync(tmpPin, `// Written by gpuc precompile: the SHA-256 of ${basename(output)}. Pass it to loadImage (its sha256\n// option), which then refuses any other image and needs no check of this one's code.\nexport const sha256 = ${JSON.stringify(hash)};\n`);
    renameSync(tmpPin, pinModule);
    out(`wrote ${pinModule}: export const sha256 = "${hash}" (loadImage(url, { sha256 }))`);
  }
  return 0;
}

/** `gpuc image inspect <file> [--public-key <pem>]`: what an image holds, and what this gpuc would skip and why. */
export async function inspectImage(file: string, publicKeyFile: string | undefined, out: (s: string) => void): Promise<number> {
  const bytes = readInput(file, "image");
  if (publicKeyFile !== undefined) await verifyImage(bytes, readInput(publicKeyFile, "public key").toString(), file);
  const { report, entries } = await parseImage(bytes, file);
  out(`${file}: kernel image made by gpuc ${report.gpuc}${publicKeyFile !== undefined ? `, signature verified with ${publicKeyFile}` : ""}, sha256 ${imageSha256(bytes, file)}`);
  // The same code filed under several keys (`gpuc precompile` files a kernel under its source
  // text's fingerprint and under the bundler plugin's id) is one line, with its number of keys.
  const lines = new Map<string, { line: string; keys: number }>();
  for (const e of entries) {
    const o = e.owner;
    const feats = [o.arch, o.fastMath ? "fastMath" : null, `relocation ${o.relocation}`, `checks ${o.boundsCheck ? "on" : "off"}`, o.provenChecks ? "the variant for launches that prove its checks" : null, `debug ${o.debugLevel}`].filter(Boolean).join(", ");
    const code = storedCode(e.artifact);
    const line = `  ${o.target.padEnd(4)}  ${e.kernel}(${e.types.join(", ")})  [${feats}]  ${code.length} bytes, ${e.artifact.manifest.sites.length} relocation site(s)`;
    const same = `${ownerKey(o)}\0${line}\0${code}`;
    const seen = lines.get(same);
    if (seen) seen.keys++; else lines.set(same, { line, keys: 1 });
  }
  for (const { line, keys } of lines.values()) out(keys > 1 ? `${line}, under ${keys} keys (its source text's and the bundler plugin's id)` : line);
  for (const line of archPicks(entries)) out(line);
  for (const s of report.skipped) out(`  skipped: ${s.target} ${s.kernel}: ${s.reason}`);
  out(`${report.loaded.length} usable, ${report.skipped.length} skipped`);
  return report.skipped.length ? 1 : 0;
}

/**
 * For targets with architectures: which entry a device of each architecture would use, per kernel
 * specialization — PTX runs on newer ones (the newest it can run), an AMD code object (llvm) on
 * its own only; none: it compiles (gpuc/runtime: not-precompiled).
 */
function archPicks(entries: readonly CacheEntry[]): string[] {
  const groups = new Map<string, { target: string; title: string; arches: string[] }>();
  for (const e of entries) {
    const info = targetInfo(e.owner.target);
    if (!info?.arches || info.arches.length < 2 || e.owner.arch === null) continue;
    const key = JSON.stringify([ownerKey({ ...e.owner, arch: null }), e.fingerprint, e.types]);
    const g = groups.get(key) ?? { target: e.owner.target, title: `${e.kernel}(${e.types.join(", ")})`, arches: [] };
    g.arches.push(e.owner.arch);
    groups.set(key, g);
  }
  return [...groups.values()].map((g) => {
    const picks = targetInfo(g.target)!.arches!.map((device) => `${device} → ${pickArch(g.target, g.arches, device) ?? "compiles"}`);
    return `  ${g.target.padEnd(4)}  ${g.title}: a device of ${picks.join(", ")}`;
  });
}

/** `gpuc image sign <file> --key <private key pem>`: add an Ed25519 signature to the image (rewritten in place). */
export async function signImageFile(file: string, keyFile: string, out: (s: string) => void): Promise<number> {
  const signed = await signImage(readInput(file, "image"), readInput(keyFile, "private key").toString(), file);
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, signed);
  renameSync(tmp, file);
  out(`signed ${file} with ${keyFile}`);
  return 0;
}

/** `gpuc image keygen <name>`: an Ed25519 key pair, <name>.pem (private, mode 0600) and <name>.pub.pem. */
export async function keygen(name: string, out: (s: string) => void): Promise<number> {
  const { generateKeyPairSync } = await import("node:crypto");
  const { privateKey, publicKey } = generateKeyPairSync("ed25519");
  if (existsSync(`${name}.pem`)) throw new CommandError(`${name}.pem exists; not overwriting a key`);
  writeFileSync(`${name}.pem`, privateKey.export({ type: "pkcs8", format: "pem" }), { mode: 0o600, flag: "wx" });
  writeFileSync(`${name}.pub.pem`, publicKey.export({ type: "spki", format: "pem" }));
  out(`wrote ${name}.pem (private: keep it secret) and ${name}.pub.pem (public: give it to loadImage(src, { publicKey }))`);
  return 0;
}

function readInput(file: string, what: string): Buffer {
  try { return readFileSync(file); } catch (e) { throw new CommandError(`cannot read the ${what} '${file}': ${(e as NodeJS.ErrnoException).code === "ENOENT" ? "no such file" : (e as Error).message}`); }
}
