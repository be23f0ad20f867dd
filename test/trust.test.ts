// Fault injection (ARCHITECTURE.md, "Caches"): every way of breaking a disk-cache entry or a kernel
// image, each met by a fresh process as a user would meet it. For each, the process gets the right
// results (the entry is discarded and recompiled, or skipped with a reason), the cache heals (the
// next process revives the rewritten entry without compiling), and `gpuc cache verify` or `gpuc
// image inspect` reports the same reason the load found. The processes run on the CPU device and on
// WebGPU.

import { after, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { createHmac } from "node:crypto";
import { chmodSync, chownSync, copyFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { CacheEntry } from "../src/cache/entry.ts";
import { checkEntry } from "../src/cache/validate.ts";
import { TARGETS } from "../src/targets/index.ts";
import { READ_BACK_TARGETS, readBackOf } from "../src/cache/read-backs.ts";
import { parseImage, serializeImage } from "../src/cache/image-file.ts";
import { manifestHash } from "../src/reloc/manifest.ts";
import { sha256 } from "../src/sha256.ts";

process.env.XDG_RUNTIME_DIR ??= "/tmp";
const root = fileURLToPath(new URL("..", import.meta.url));
const CLI = join(root, "dist/cli/main.js");
const APP = join(root, "test/fixtures/trust/app.mjs");
const TRACK = join(root, "test/fixtures/cache/track.mjs");
const WORKLOAD = join(root, "test/fixtures/cache/workload.mjs");
/** A temporary folder, removed when the file's tests are done. */
const tmpDirs: string[] = [];
const tmp = (name: string) => { const d = mkdtempSync(join(tmpdir(), `gpuc-trust-${name}-`)); tmpDirs.push(d); return d; };
after(() => { for (const d of tmpDirs) { try { rmSync(d, { recursive: true, force: true }); } catch { /* left for the OS */ } } });
process.env.GPUC_KEY_FILE = join(tmp("key"), "cache-key");
const KINDS = ["cpu", "webgpu"] as const;

interface Run { results: { y: number[]; o: number[]; aliased?: number[] } | null; compiled: boolean; codeChecked: boolean; schemaLoaded: boolean; image: { loaded: unknown[]; skipped: { kernel: string; target: string; reason: string }[] } | null; error: { name: string; kind?: string; message: string } | null }

function app(kind: string, env: Record<string, string>, ...args: string[]): Run {
  const r = spawnSync(process.execPath, ["--import", TRACK, APP, kind, ...args], { cwd: root, encoding: "utf8", env: { ...process.env, GPUC_CACHE: "1", ...env } });
  assert.equal(r.status, 0, r.stderr);
  return result(r.stdout);
}

/** The app's result line (Dawn may print its own validation messages on stdout too). */
const result = (stdout: string): Run => JSON.parse(stdout.split("\n").find((l) => l.startsWith("@@result "))!.slice(9)) as Run;

function gpuc(env: Record<string, string>, ...args: string[]): { code: number | null; out: string; err: string } {
  const r = spawnSync(process.execPath, [CLI, ...args], { cwd: root, encoding: "utf8", env: { ...process.env, GPUC_CACHE: "1", ...env } });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

/** The results plain compilation gives on each device (no cache, no image). */
const reference = new Map(KINDS.map((k) => [k, app(k, { GPUC_CACHE: "0" }).results]));

const entryFiles = (dir: string) => readdirSync(join(dir, "v2"), { recursive: true }).map(String).filter((f) => f.endsWith(".entry")).map((f) => join(dir, "v2", f));
const bodyOf = (path: string) => { const t = readFileSync(path, "utf8"); return JSON.parse(t.slice(t.indexOf("\n") + 1)) as CacheEntry; };
const tag = (body: string, keyFile = process.env.GPUC_KEY_FILE!) =>
  createHmac("sha256", Buffer.from(readFileSync(keyFile, "utf8").trim(), "hex")).update(body).digest("hex");
/** Write an entry as this user's gpuc would (a valid tag): only the validator's other checks can catch what is wrong in it. */
const plant = (path: string, e: unknown) => { const body = JSON.stringify(e); writeFileSync(path, `gpuc-cache 2 ${tag(body)}\n${body}`); };
const fixManifest = (e: CacheEntry) => { const m = e.artifact.manifest; (m as { codeHash: string }).codeHash = manifestHash(m.strategy, m.sites, e.artifact.code); };

/** Ways to break one disk file, and the reason the validator must give. */
const DISK_FAULTS: { name: string; reason: RegExp; break(path: string, dir: string): void }[] = [
  { name: "truncated", reason: /not a gpuc cache file \(no header\), or truncated|its tag does not verify/, break: (p) => writeFileSync(p, readFileSync(p, "utf8").slice(0, 150)) },
  { name: "bit-flipped", reason: /its tag does not verify under this user's key/, break: (p) => { const b = readFileSync(p); b[b.length - 40] ^= 4; writeFileSync(p, b); } },
  { name: "without a tag", reason: /not a gpuc cache file/, break: (p) => { const t = readFileSync(p, "utf8"); writeFileSync(p, `gpuc-cache 2\n${t.slice(t.indexOf("\n") + 1)}`); } },
  {
    name: "tagged with another user's key", reason: /its tag does not verify under this user's key/,
    break: (p) => {
      const other = tmp("otherkey");
      writeFileSync(join(other, "key"), "ab".repeat(32), { mode: 0o600 });
      const body = JSON.stringify(bodyOf(p));
      writeFileSync(p, `gpuc-cache 2 ${tag(body, join(other, "key"))}\n${body}`);
    },
  },
  { name: "malformed record with a valid tag", reason: /malformed record at 'owner\.debugLevel'/, break: (p) => { const e = bodyOf(p); (e.owner as { debugLevel: number }).debugLevel = 7; plant(p, e); } },
  { name: "a record that is not an object", reason: /malformed record/, break: (p) => plant(p, [1, 2, 3]) },
  {
    name: "the manifest of other code", reason: /manifest does not belong to this code/,
    break: (p) => { const e = bodyOf(p); const m = e.artifact.manifest; e.artifact.manifest = { ...m, codeHash: manifestHash(m.strategy, m.sites, "other code") }; plant(p, e); },
  },
  {
    name: "a renamed relocation site", reason: /manifest does not belong to this code/,
    break: (p) => { const e = bodyOf(p); const m = e.artifact.manifest as unknown as { sites: { name: string }[] }; if (m.sites.length) m.sites[0] = { ...m.sites[0], name: "OTHER" }; else (e.artifact as { code: string }).code += "\n"; plant(p, e); },
  },
  {
    name: "filed under another job's key", reason: /its key is not the one/,
    break: (p) => { const e = bodyOf(p); e.types = [...e.types, "i32"]; plant(p, e); },
  },
];

for (const kind of KINDS) {
  for (const fault of DISK_FAULTS) {
    test(`[${kind}] disk cache, an entry ${fault.name}: verify reports it, a fresh process discards it, recompiles and heals`, () => {
      const dir = tmp("disk");
      const env = { GPUC_CACHE_DIR: dir };
      app(kind, env);
      const files = entryFiles(dir);
      // (On WebGPU each kernel's variant without the checks its launches prove: the launches
      // prove them, so the kernels' own code was never compiled.)
      assert.equal(files.length, 2, "axpy and weigh");
      for (const f of files) fault.break(f, dir);
      const v = gpuc(env, "cache", "verify");
      assert.equal(v.code, 1, v.out + v.err);
      for (const f of files) assert.match(v.out, new RegExp(`bad, removed: ${f.replace(/[.$]/g, "\\$&")}: .*`), v.out);
      for (const line of v.out.split("\n").filter((l) => l.startsWith("bad"))) assert.match(line, fault.reason);
      // The entries come back (a miss: compiled and written), broken again, and now met by a
      // process that uses the kernels.
      assert.equal(app(kind, env).compiled, true);
      for (const f of entryFiles(dir)) fault.break(f, dir);
      const healed = app(kind, env);
      assert.equal(healed.error, null, healed.error?.message);
      assert.deepEqual(healed.results, reference.get(kind));
      assert.equal(healed.compiled, true, "the bad entries were not used");
      const again = app(kind, env);
      assert.deepEqual(again.results, reference.get(kind));
      assert.equal(again.compiled, false, "the rewritten entries are revived");
      assert.equal(gpuc(env, "cache", "verify").code, 0);
      rmSync(dir, { recursive: true, force: true });
    });
  }
}

test("[webgpu] disk cache: WGSL that calls a function it does not define, planted with the user's key, is rejected by the device, recompiled and healed; verify says why", async () => {
  const dir = tmp("wgslcall");
  const env = { GPUC_CACHE_DIR: dir };
  app("webgpu", env);
  const poison = () => {
    for (const f of entryFiles(dir)) {
      const e = bodyOf(f);
      (e.artifact as { code: string }).code = e.artifact.code.replace(/(fn \w+\([^)]*\)[^{]*\{)/, "$1\n  let zz = missing_fn(1u);");
      fixManifest(e);
      plant(f, e);
    }
  };
  poison();
  const healed = app("webgpu", env);
  assert.equal(healed.error, null, healed.error?.message);
  assert.deepEqual(healed.results, reference.get("webgpu"));
  assert.equal(healed.compiled, true, "rejected (a tag stands for the code check on load; the device's compiler refuses the shader)");
  assert.equal(app("webgpu", env).compiled, false, "healed");
  poison();
  const v = gpuc(env, "cache", "verify");
  assert.equal(v.code, 1);
  assert.equal((v.out.match(/bad, removed: .*\.entry: poisoned: it calls 'missing_fn', which/g) ?? []).length, 2, v.out);
  rmSync(dir, { recursive: true, force: true });
});

test("[webgpu] the validator checks an entry's layout with its target's schema: a malformed one, a missing one, one a target does not have", async () => {
  const dir = tmp("layout");
  app("webgpu", { GPUC_CACHE_DIR: dir });
  const wgsl = entryFiles(dir).map(bodyOf).find((e) => e.owner.target === "wgsl")!;
  assert.ok(wgsl, "the app stored a WGSL entry");
  assert.equal((await checkEntry(wgsl)).ok, true);
  const bad = structuredClone(wgsl);
  (bad.artifact.layout as { bindings: { binding: number }[] }).bindings[0].binding = -1;
  const v1 = await checkEntry(bad);
  assert.ok(!v1.ok && /^malformed record at 'artifact\.layout\.bindings\.0\.binding'/.test(v1.reason), JSON.stringify(v1));
  // Its sites (where the code names each array parameter's variable): offsets, in pairs for accesses.
  const negative = structuredClone(wgsl);
  (negative.artifact.layout as { sites: { accesses: number[] }[] }).sites[0].accesses[0] = -1;
  const v3 = await checkEntry(negative);
  assert.ok(!v3.ok && /^malformed record at 'artifact\.layout\.sites\.0\.accesses\.0'/.test(v3.reason), JSON.stringify(v3));
  const noSites = structuredClone(wgsl);
  delete (noSites.artifact.layout as { sites?: unknown }).sites;
  const v4 = await checkEntry(noSites);
  assert.ok(!v4.ok && /^malformed record at 'artifact\.layout\.sites'/.test(v4.reason), JSON.stringify(v4));
  // What a launch evaluates to run a kernel's variant without its checks: its shape, and the variant it belongs to.
  const proven = entryFiles(dir).map(bodyOf).find((e) => e.owner.target === "wgsl" && e.artifact.launchProof)!;
  assert.ok(proven, "the app stored a WGSL entry with a launch proof");
  // (`gpuc cache ls` tells a kernel's variant from the kernel.)
  assert.match(gpuc({ GPUC_CACHE_DIR: dir }, "cache", "ls").out, /^[0-9a-f]{16} {2}wgsl {2}\w+\([^)]*\) \(its variant for launches that prove its checks\) {2}\d+ bytes {2}used /m);
  assert.equal((await checkEntry(proven)).ok, true);
  const forged = structuredClone(proven);
  (forged.artifact.launchProof!.vars as unknown[]).push({ k: "var", index: 99 });
  const v5 = await checkEntry(forged);
  assert.ok(!v5.ok && /^malformed record at 'artifact\.launchProof': var \d+: a var read before it is made/.test(v5.reason), JSON.stringify(v5));
  const other = structuredClone(proven);
  other.artifact.launchProof!.assumed = !other.artifact.launchProof!.assumed;
  const v6 = await checkEntry(other);
  assert.ok(!v6.ok && /not the variant its owner names/.test(v6.reason), JSON.stringify(v6));
  const none = structuredClone(wgsl);
  delete none.artifact.layout;
  const v2 = await checkEntry(none);
  assert.ok(!v2.ok && /its wgsl artifact has no layout/.test(v2.reason), JSON.stringify(v2));
  // Every target has read-back checks, and they agree with its light info on whether it has a layout.
  assert.deepEqual([...READ_BACK_TARGETS].sort(), [...TARGETS.keys()].sort());
  for (const info of TARGETS.values()) assert.equal((await readBackOf(info.name)!).layoutSchema !== null, info.layout, info.name);
});

test("[webgpu] disk cache: a stored shader that WebGPU rejects (valid to the validator) is dropped at launch, recompiled and healed", async () => {
  const dir = tmp("shader");
  const env = { GPUC_CACHE_DIR: dir };
  app("webgpu", env);
  for (const f of entryFiles(dir)) {
    const e = bodyOf(f);
    // A type error only a WGSL compiler finds: an f32 assigned a u32.
    (e.artifact as { code: string }).code = e.artifact.code.replace(/(fn \w+\([^)]*\)[^{]*\{)/, "$1\n  var gpuc_bad: f32 = 1u;");
    fixManifest(e);
    plant(f, e);
    assert.equal((await checkEntry(bodyOf(f))).ok, true, "the validator cannot see a type error");
  }
  const healed = app("webgpu", env);
  assert.equal(healed.error, null, healed.error?.message);
  assert.deepEqual(healed.results, reference.get("webgpu"));
  assert.equal(healed.compiled, true);
  const again = app("webgpu", env);
  assert.equal(again.compiled, false, "healed: the rewritten entries load");
  assert.deepEqual(again.results, reference.get("webgpu"));
  rmSync(dir, { recursive: true, force: true });
});

test("[webgpu] disk cache: WGSL whose layout's sites are forged (planted with the user's key) is refused when a launch needs a variant of it, recompiled and healed", () => {
  const dir = tmp("sites");
  const env = { GPUC_CACHE_DIR: dir, GPUC_TRUST_ALIASED: "1" };
  const want = app("webgpu", { GPUC_CACHE: "0", GPUC_TRUST_ALIASED: "1" }).results;
  assert.equal(want?.aliased?.length, 50);
  app("webgpu", env);
  type Sites = { binding: number; accesses: number[] }[];
  const forgeries: [string, (sites: Sites) => void][] = [
    // The device checks each site against the code: an InternalCompilerError, healed.
    ["every access one character later", (sites) => { for (const s of sites) s.accesses = s.accesses.map((x, i) => (i % 2 ? x : x + 1)); }],
    // Sites that fit the code but leave an access out: the variant names a variable it no longer
    // declares, which WebGPU's compiler refuses (an InternalCompilerError too), healed.
    ["an access left out", (sites) => { for (const s of sites) s.accesses = s.accesses.slice(2); }],
  ];
  for (const [what, forge] of forgeries) {
    for (const f of entryFiles(dir)) {
      const e = bodyOf(f);
      if (e.owner.target !== "wgsl") continue;
      forge((e.artifact.layout as { sites: Sites }).sites);
      plant(f, e);
    }
    const healed = app("webgpu", env);
    assert.equal(healed.error, null, `${what}: ${healed.error?.message}`);
    assert.deepEqual(healed.results, want, what);
    assert.equal(healed.compiled, true, `${what}: the forged entry was not used`);
    const again = app("webgpu", env);
    assert.deepEqual(again.results, want, what);
    assert.equal(again.compiled, false, `${what}: healed, the rewritten entries are revived`);
  }
  rmSync(dir, { recursive: true, force: true });
});

test("disk cache: stray temporary files of interrupted writes are removed by verify", () => {
  const dir = tmp("stray");
  const env = { GPUC_CACHE_DIR: dir };
  app("cpu", env);
  const [f] = entryFiles(dir);
  const stray = `${f}.12345.abc.tmp`, fresh = `${f}.12346.def.tmp`;
  writeFileSync(stray, "gpuc-cache 2 half a wri");
  writeFileSync(fresh, "being written");
  const old = new Date(Date.now() - 3600_000);
  utimesSync(stray, old, old);
  const v = gpuc(env, "cache", "verify");
  assert.equal(v.code, 1);
  assert.match(v.out, /bad, removed: .*\.12345\.abc\.tmp: a temporary file left by an interrupted write/);
  assert.equal(existsSync(stray), false);
  assert.equal(existsSync(fresh), true, "a temporary file being written now is left alone");
  rmSync(dir, { recursive: true, force: true });
});

test("disk cache: a directory other users can write is refused with a clear message; the key file lives outside the cache", () => {
  const dir = tmp("open");
  chmodSync(dir, 0o777);
  const r = app("cpu", { GPUC_CACHE_DIR: dir });
  assert.deepEqual(r.results, reference.get("cpu"));
  assert.equal(existsSync(join(dir, "v2")), false, "nothing written there");
  const ls = gpuc({ GPUC_CACHE_DIR: dir }, "cache", "ls");
  assert.equal(ls.code, 1);
  assert.match(ls.err, /cannot use the disk cache: the cache directory .* is writable by other users \(mode 777\); chmod 700 it, or set GPUC_CACHE_DIR/);
  const inside = gpuc({ GPUC_CACHE_DIR: dir, GPUC_KEY_FILE: join(dir, "key") }, "cache", "ls");
  chmodSync(dir, 0o700);
  assert.match(gpuc({ GPUC_CACHE_DIR: dir, GPUC_KEY_FILE: join(dir, "key") }, "cache", "ls").err, /its key file .* is inside the cache directory/);
  assert.equal(inside.code, 1);
  // A fresh directory is created private.
  const made = join(dir, "sub", "cache");
  app("cpu", { GPUC_CACHE_DIR: made });
  assert.equal(readdirSync(join(made, "v2")).length > 0, true);
  assert.equal((spawnSync("stat", ["-c", "%a", made], { encoding: "utf8" }).stdout.trim()), "700");
  rmSync(dir, { recursive: true, force: true });
});

/** Run `fn` as a user that cannot write `dir` (as root: the nobody user, whom permissions bind). */
function readOnlyRunner(dir: string): { env: Record<string, string>; spawnAs: { uid?: number; gid?: number } } | string {
  if (process.getuid?.() !== 0) { chmodSync(dir, 0o700); return { env: {}, spawnAs: {} }; }
  const probe = spawnSync(process.execPath, ["-e", `require("fs").accessSync(${JSON.stringify(CLI)}); require("fs").accessSync(${JSON.stringify(join(root, "node_modules/valibot/package.json"))})`], { uid: 65534, gid: 65534 });
  if (probe.status !== 0) return "the nobody user cannot read this checkout";
  return { env: {}, spawnAs: { uid: 65534, gid: 65534 } };
}

test("disk cache: on a read-only directory verify says what it could not remove and clear fails with the reason; the kernels still run", (t) => {
  const dir = tmp("ro");
  const keyDir = tmp("rokey");
  const runner = readOnlyRunner(dir);
  if (typeof runner === "string") { t.skip(`SKIPPED: ${runner}`); return; }
  const as = runner.spawnAs;
  const env = { ...process.env, GPUC_CACHE: "1", GPUC_CACHE_DIR: join(dir, "cache"), GPUC_KEY_FILE: join(keyDir, "key") };
  if (as.uid !== undefined) { chownSync(dir, as.uid, as.gid!); chownSync(keyDir, as.uid, as.gid!); }
  const run = (args: string[]) => spawnSync(process.execPath, args, { cwd: root, encoding: "utf8", env, ...as });
  assert.equal(run(["--import", TRACK, APP, "cpu"]).status, 0);
  const files = readdirSync(join(dir, "cache", "v2"), { recursive: true }).map(String).filter((f) => f.endsWith(".entry")).map((f) => join(dir, "cache", "v2", f));
  for (const f of files) writeFileSync(f, readFileSync(f, "utf8").slice(0, 100));    // broken, as root or owner
  for (const d of readdirSync(join(dir, "cache", "v2"))) chmodSync(join(dir, "cache", "v2", d), 0o555);
  chmodSync(join(dir, "cache", "v2"), 0o555);
  try {
    const v = run([CLI, "cache", "verify"]);
    assert.equal(v.status, 1, v.stdout + v.stderr);
    assert.match(v.stdout, /bad, could not remove \(EACCES\): .*\.entry: /);
    assert.match(v.stdout, /could not be removed/);
    assert.doesNotMatch(v.stdout, /bad, removed/);
    const c = run([CLI, "cache", "clear"]);
    assert.equal(c.status, 1, c.stdout + c.stderr);
    assert.match(c.stdout, /could not remove \d+ file\(s\): the directory is read-only for this user/);
    const r = run(["--import", TRACK, APP, "cpu"]);
    assert.equal(r.status, 0, r.stderr);
    const out = result(r.stdout);
    assert.deepEqual(out.results, reference.get("cpu"));
    assert.equal(out.compiled, true);
  } finally {
    chmodSync(join(dir, "cache", "v2"), 0o755);
    for (const d of readdirSync(join(dir, "cache", "v2"))) chmodSync(join(dir, "cache", "v2", d), 0o755);
    rmSync(dir, { recursive: true, force: true });
    rmSync(keyDir, { recursive: true, force: true });
  }
});

// ---- images --------------------------------------------------------------------------------------

const imageDir = tmp("image");
const GOOD = join(imageDir, "good.gpucimg");
{
  const p = gpuc({ GPUC_CACHE: "0" }, "precompile", WORKLOAD, "-o", GOOD);
  assert.equal(p.code, 0, p.err);
}
const goodEntries = async () => (await parseImage(readFileSync(GOOD), GOOD)).entries.map((e) => JSON.parse(JSON.stringify(e)) as CacheEntry);
/** An image whose entries of `target` are edited (checksums fixed: a valid image file). */
async function imageWith(name: string, target: string, edit: (e: CacheEntry, all: CacheEntry[]) => void): Promise<string> {
  const all = await goodEntries();
  for (const e of all) if (e.owner.target === target) edit(e, all);
  const path = join(imageDir, `${name}.gpucimg`);
  writeFileSync(path, serializeImage(all));
  return path;
}
/** A raw image body (checksum fixed), for records the serializer would not write. */
function rawImage(name: string, doc: unknown): string {
  const body = JSON.stringify(doc);
  const path = join(imageDir, `${name}.gpucimg`);
  writeFileSync(path, `gpuc-image 2 ${sha256(body)}\n${body}`);
  return path;
}
const editCode = (f: (code: string) => string) => (e: CacheEntry) => { (e.artifact as { code: string }).code = f(e.artifact.code); fixManifest(e); };

const IMAGE_FAULTS: { name: string; target: string; reason: RegExp; make(): string | Promise<string> }[] = [
  { name: "a malformed record (valid checksums)", target: "js", reason: /malformed record at 'artifact\.bindings'/, make: () => imageWith("malformed", "js", (e) => { (e.artifact as { bindings: unknown }).bindings = "x"; }) },
  { name: "the manifest of other code", target: "js", reason: /manifest does not belong to this code/, make: () => imageWith("othermanifest", "js", (e, all) => { e.artifact.manifest = all.find((o) => o !== e && o.owner.target === "js")!.artifact.manifest; }) },
  { name: "an entry checksum that does not match", target: "js", reason: /its checksum does not match/, make: () => {
    const body = JSON.parse(readFileSync(GOOD, "utf8").split("\n")[1]) as { entries: { entry: CacheEntry }[] };
    for (const x of body.entries) if (x.entry.owner.target === "js") x.entry.kernel += "X";
    return rawImage("badsum", body);
  } },
  { name: "JS calling a function it does not define", target: "js", reason: /poisoned: .*gpuc_missing\$\d+/, make: () => imageWith("jsundef", "js", editCode((c) => c.replace(/(?<!function )gpuc_report_exception\$(\d+)\(/, "gpuc_missing$$$1("))) },
  { name: "JS reaching for the host (process)", target: "js", reason: /poisoned: .*'process'/, make: () => imageWith("jsprocess", "js", editCode((c) => c.replace(/\{\n/, "{\n  process.exit(3);\n"))) },
  { name: "WGSL calling an undefined function without gpuc's prefix", target: "wgsl", reason: /poisoned: .*'helper_nope'/, make: () => imageWith("wgslundef", "wgsl", editCode((c) => c.replace(/(fn \w+\([^)]*\)[^{]*\{)/, "$1\n  let zz = helper_nope(1u);"))) },
  { name: "PTX with an indirect call", target: "ptx", reason: /poisoned: .*indirect call/, make: () => imageWith("ptxindirect", "ptx", editCode((c) => c.replace(/(\.visible \.entry \w+\([^)]*\)\s*\{)/, "$1\n\t.reg .b64 %fp;\n\tproto: .callprototype _ ();\n\tmov.u64 %fp, 0;\n\tcall.uni %fp, proto;"))) },
  { name: "PTX calling an undefined function with no arguments", target: "ptx", reason: /poisoned: .*'gpuc_nothing'/, make: () => imageWith("ptxnoargs", "ptx", editCode((c) => c.replace(/(\.visible \.entry \w+\([^)]*\)\s*\{)/, "$1\n\tcall.uni gpuc_nothing;"))) },
];

for (const fault of IMAGE_FAULTS) {
  test(`kernel image with ${fault.name}: inspect and loadImage skip those entries with the reason; the kernels run right`, async () => {
    const image = await fault.make();
    const inspect = gpuc({}, "image", "inspect", image);
    assert.equal(inspect.code, 1, inspect.out + inspect.err);
    const skippedLines = inspect.out.split("\n").filter((l) => l.includes("skipped:"));
    assert.ok(skippedLines.length > 0, inspect.out);
    for (const l of skippedLines) { assert.match(l, new RegExp(`skipped: ${fault.target} `)); assert.match(l, fault.reason); }
    for (const kind of KINDS) {
      const r = app(kind, { GPUC_CACHE: "0" }, image);
      assert.equal(r.error, null, r.error?.message);
      assert.deepEqual(r.results, reference.get(kind));
      // loadImage skips what inspect skips, when the process first uses the entry (its report
      // gains it then): entries of other targets, and of kernels the app does not run, never are.
      const used = (kind === "cpu" ? "js" : "wgsl") === fault.target;
      const runs = skippedLines.filter((l) => / (axpy|weigh)X?: /.test(l)).length;   // the kernels the app runs (not expo; X: renamed by a fault)
      assert.equal(r.image!.skipped.length, used ? runs : 0, "loadImage skips what inspect skips, as it uses them");
      for (const s of r.image!.skipped) assert.match(s.reason, fault.reason);
      // The device's own target was broken: compiled afresh; otherwise revived from the image.
      assert.equal(r.compiled, used, kind);
    }
  });
}

test("an unsigned image's entry, checked in full once, is kept in the disk cache: the next process takes that copy and parses nothing", async () => {
  for (const kind of KINDS) {
    const cache = tmp(`imgdisk-${kind}`);
    const first = app(kind, { GPUC_CACHE_DIR: cache }, GOOD);
    assert.deepEqual(first.results, reference.get(kind));
    assert.equal(first.compiled, false, kind);
    assert.equal(first.codeChecked, true, `${kind}: the image's code is checked on its first use`);
    const second = app(kind, { GPUC_CACHE_DIR: cache }, GOOD);
    assert.deepEqual(second.results, reference.get(kind));
    assert.equal(second.compiled, false, kind);
    assert.equal(second.codeChecked, false, `${kind}: the checked copy on disk is taken, not parsed again`);
    assert.deepEqual(second.image!.skipped, []);
  }
  // A poisoned entry is never kept: the next process compiles (its own fresh code is kept), not the poison.
  const poisoned = await IMAGE_FAULTS.find((f) => f.name === "JS calling a function it does not define")!.make();
  {
    const cache = tmp("imgdisk-poison");
    const first = app("cpu", { GPUC_CACHE_DIR: cache }, poisoned);
    assert.deepEqual(first.results, reference.get("cpu"));
    assert.equal(first.compiled, true);
    const entries = readdirSync(cache, { recursive: true }).map(String).filter((f) => f.endsWith(".entry"));
    for (const f of entries) assert.doesNotMatch(readFileSync(join(cache, f), "utf8"), /gpuc_missing\$/, "the poisoned code was kept on disk");
    const second = app("cpu", { GPUC_CACHE_DIR: cache }, poisoned);
    assert.deepEqual(second.results, reference.get("cpu"));
    assert.equal(second.compiled, false, "the fresh compile's entry is revived");
  }
});

test("the stores fuzzer: 400 mutants of images and disk files (bytes; records inside valid containers) — nothing throws, every verdict is an entry or a reason", () => {
  const r = spawnSync(process.execPath, [join(root, "scripts/fuzz-stores.mjs"), "--count", "400", "--seed", "7"], { cwd: root, encoding: "utf8", env: { ...process.env, GPUC_CACHE: "0" } });
  assert.equal(r.status, 0, r.stdout + r.stderr);
  const m = /^400 mutants of kernel images and disk-cache files: 0 threw, (\d+) files refused as not an image, (\d+) entries accepted \((\d+) JS entries loaded on the CPU device\), (\d+) rejected with a reason; of accepted WGSL entries, (\d+) WebGPU variants made, (\d+) refused/m.exec(r.stdout);
  assert.ok(m, r.stdout);
  // The mutants reach every outcome: refused files, accepted entries that load, rejected ones,
  // WGSL entries whose variants are made and ones whose sites the device refuses.
  for (const n of m.slice(1)) assert.ok(Number(n) > 0, r.stdout);
});

test("kernel images that are not usable at all are invalid-image errors: truncated, bit-flipped, malformed with a valid checksum", () => {
  const bytes = readFileSync(GOOD);
  const cases: [string, Buffer | string, RegExp][] = [
    ["truncated", bytes.subarray(0, bytes.length - 100), /is corrupt: its checksum does not match/],
    ["bit-flipped", (() => { const b = Buffer.from(bytes); b[b.length - 50] ^= 1; return b; })(), /is corrupt: its checksum does not match/],
    ["entries not a list", rawImage("notalist", { gpuc: "0.1.0", entries: 5 }), /not a usable kernel image: malformed at 'entries'/],
    ["not JSON", (() => { const body = "{nope"; return Buffer.from(`gpuc-image 2 ${sha256(body)}\n${body}`); })(), /not a usable kernel image: its body is not JSON/],
    ["an older format", Buffer.from(`gpuc-image 1 ${"0".repeat(64)}\n{}`), /is a kernel image of format 1; this gpuc \(.*\) reads format 2/],
  ];
  for (const [name, what, reason] of cases) {
    const path = typeof what === "string" ? what : join(imageDir, `${name.replace(/\W/g, "")}.gpucimg`);
    if (typeof what !== "string") writeFileSync(path, what);
    const inspect = gpuc({}, "image", "inspect", path);
    assert.equal(inspect.code, 1, name);
    assert.match(inspect.err, reason, name);
    const r = app("cpu", { GPUC_CACHE: "0" }, path);
    assert.equal(r.error?.name, "KernelError", name);
    assert.equal(r.error?.kind, "invalid-image", name);
    assert.match(r.error!.message, reason, name);
  }
});

test("kernel images: the same workload gives the same bytes; precompile ignores the user's cache (a stale entry there never ships)", () => {
  const again = join(imageDir, "again.gpucimg");
  assert.equal(gpuc({ GPUC_CACHE: "0" }, "precompile", WORKLOAD, "-o", again).code, 0);
  assert.deepEqual(readFileSync(again), readFileSync(GOOD), "reproducible");
  // A user cache holding an edited (but validly tagged) entry for the same job.
  const dir = tmp("usercache");
  app("cpu", { GPUC_CACHE_DIR: dir });
  for (const f of entryFiles(dir)) { const e = bodyOf(f); (e.artifact as { code: string }).code = e.artifact.code.replace(/\* 2/g, "* 3"); fixManifest(e); plant(f, e); }
  const shipped = join(imageDir, "withcache.gpucimg");
  assert.equal(gpuc({ GPUC_CACHE_DIR: dir }, "precompile", WORKLOAD, "-o", shipped).code, 0);
  assert.deepEqual(readFileSync(shipped), readFileSync(GOOD), "the user's cache did not reach the image");
  rmSync(dir, { recursive: true, force: true });
});

test("kernel images: signed with Ed25519, verified with the public key; unsigned, tampered or other-key images are refused", async () => {
  const keys = join(imageDir, "publisher");
  assert.equal(gpuc({}, "image", "keygen", keys).code, 0);
  const signed = join(imageDir, "signed.gpucimg");
  copyFileSync(GOOD, signed);
  const s = gpuc({}, "image", "sign", signed, "--key", `${keys}.pem`);
  assert.equal(s.code, 0, s.err);
  assert.match(readFileSync(signed, "utf8").split("\n")[0], /^gpuc-image 2 [0-9a-f]{64} ed25519:[A-Za-z0-9+/=]+$/);
  const ok = app("cpu", { GPUC_CACHE: "0" }, signed, `${keys}.pub.pem`);
  assert.equal(ok.error, null, ok.error?.message);
  assert.equal(ok.compiled, false);
  assert.deepEqual(ok.results, reference.get("cpu"));
  // The signature stands for the checks of what this build writes: no schema, no code parse.
  assert.equal(ok.codeChecked, false, "a verified image of this build has its code checked again");
  assert.equal(ok.schemaLoaded, false, "a verified image of this build has its records checked against the schema again");
  const unsignedRun = app("cpu", { GPUC_CACHE: "0" }, GOOD);
  assert.equal(unsignedRun.codeChecked && unsignedRun.schemaLoaded, true, "an unsigned image is checked in full");
  assert.match(gpuc({}, "image", "inspect", signed, "--public-key", `${keys}.pub.pem`).out, /signature verified with/);
  const refused = (path: string, re: RegExp) => {
    const r = app("cpu", { GPUC_CACHE: "0" }, path, `${keys}.pub.pem`);
    assert.equal(r.error?.kind, "invalid-image");
    assert.match(r.error!.message, re);
    assert.match(gpuc({}, "image", "inspect", path, "--public-key", `${keys}.pub.pem`).err, re);
  };
  refused(GOOD, /is not signed, but a public key was given/);
  // Edited code with every checksum fixed up, under the old signature.
  const entries = (await parseImage(readFileSync(signed), signed)).entries.map((e) => JSON.parse(JSON.stringify(e)) as CacheEntry);
  for (const e of entries) if (e.owner.target === "js") { (e.artifact as { code: string }).code = e.artifact.code.replace(/\* 2/g, "* 3"); fixManifest(e); }
  const forgedBody = new TextDecoder().decode(serializeImage(entries)).split("\n")[1];
  const forged = join(imageDir, "forged.gpucimg");
  writeFileSync(forged, `gpuc-image 2 ${sha256(forgedBody)} ${readFileSync(signed, "utf8").split("\n")[0].split(" ")[3]}\n${forgedBody}`);
  refused(forged, /its signature does not verify with the given public key/);
  const other = join(imageDir, "other");
  gpuc({}, "image", "keygen", other);
  const otherSigned = join(imageDir, "othersigned.gpucimg");
  copyFileSync(GOOD, otherSigned);
  gpuc({}, "image", "sign", otherSigned, "--key", `${other}.pem`);
  refused(otherSigned, /its signature does not verify/);
});

test("kernel images pinned by their SHA-256: gpuc precompile --pin writes it; the pinned image runs with no schema and no code check; any other image is refused naming both hashes", async () => {
  const pinned = join(imageDir, "pinned.gpucimg"), pinModule = join(imageDir, "kernels.pin.mjs");
  const p = gpuc({ GPUC_CACHE: "0" }, "precompile", WORKLOAD, "-o", pinned, "--pin", pinModule);
  assert.equal(p.code, 0, p.err);
  const { sha256: pin } = (await import(pathToFileURL(pinModule).href)) as { sha256: string };
  assert.match(pin, /^[0-9a-f]{64}$/);
  assert.equal(pin, readFileSync(pinned, "utf8").split("\n")[0].split(" ")[2], "the pin is the image's SHA-256 (its header's)");
  assert.match(p.out, new RegExp(`sha256 ${pin}`));
  assert.match(gpuc({}, "image", "inspect", pinned).out, new RegExp(`sha256 ${pin}`));
  for (const kind of KINDS) {
    const ok = app(kind, { GPUC_CACHE: "0" }, pinned, `sha256:${pin.toUpperCase()}`);
    assert.equal(ok.error, null, ok.error?.message);
    assert.deepEqual(ok.results, reference.get(kind));
    assert.equal(ok.compiled, false, kind);
    assert.equal((ok.image as { pinned?: boolean }).pinned, true);
    assert.equal(ok.codeChecked, false, `${kind}: a pinned image has its code checked again`);
    assert.equal(ok.schemaLoaded, false, `${kind}: a pinned image has its records checked against the schema again`);
  }
  // Signing changes the header, not the body: the pin still holds.
  const keys = join(imageDir, "pinkeys");
  gpuc({}, "image", "keygen", keys);
  const signed = join(imageDir, "pinned-signed.gpucimg");
  copyFileSync(pinned, signed);
  assert.equal(gpuc({}, "image", "sign", signed, "--key", `${keys}.pem`).code, 0);
  assert.equal(app("cpu", { GPUC_CACHE: "0" }, signed, `sha256:${pin}`).error, null);
  // Another image (edited code, every checksum fixed up), under the old pin: refused, both hashes named.
  const entries = await goodEntries();
  for (const e of entries) if (e.owner.target === "js") { (e.artifact as { code: string }).code = e.artifact.code.replace(/\* 2/g, "* 3"); fixManifest(e); }
  const other = join(imageDir, "repinned.gpucimg");
  writeFileSync(other, serializeImage(entries));
  const otherHash = readFileSync(other, "utf8").split("\n")[0].split(" ")[2];
  assert.notEqual(otherHash, pin);
  const r = app("cpu", { GPUC_CACHE: "0" }, other, `sha256:${pin}`);
  assert.equal(r.error?.kind, "invalid-image");
  assert.match(r.error!.message, new RegExp(`is not the kernel image this program pins: its SHA-256 is ${otherHash}, the program's loadImage expects ${pin}`));
  // A pin that is no SHA-256 is the caller's mistake.
  const bad = app("cpu", { GPUC_CACHE: "0" }, pinned, "sha256:abc");
  assert.equal(bad.error?.kind, "invalid-option");
  assert.match(bad.error!.message, /loadImage\(\): sha256 must be the image's SHA-256 as 64 hex digits/);
});

test("loadImage in Node reads files and bytes, not http(s) URLs", () => {
  const r = app("cpu", { GPUC_CACHE: "0" }, "http://127.0.0.1:9/kernels.gpucimg");
  assert.equal(r.error?.kind, "invalid-image");
  assert.match(r.error!.message, /loadImage reads kernel images from files and bytes in Node, not from http:\/\/ URLs/);
});

// ---- what an entry records is what the code was compiled against ---------------------------------

for (const kind of KINDS) {
  test(`[${kind}] an overlay and a table redefined right after a launch: the next process gets the new definitions' results, this one recompiles for the overlay and reads the table as it is now`, () => {
    const dir = tmp("redefine");
    const run = (mode: string) => {
      const r = spawnSync(process.execPath, [join(root, "test/fixtures/trust/redefine.mjs"), mode, kind], { cwd: root, encoding: "utf8", env: { ...process.env, GPUC_CACHE: "1", GPUC_CACHE_DIR: dir } });
      assert.equal(r.status, 0, r.stderr);
      return JSON.parse(r.stdout.split("\n").find((l) => l.startsWith("@@result "))!.slice(9)) as Record<string, number>;
    };
    assert.deepEqual(run("first"), { g: 1000, lut: 103, gAfter: 2000, lutAfter: 400 });
    assert.deepEqual(run("second"), { g: 2000, lut: 400 });
    rmSync(dir, { recursive: true, force: true });
  });
}

test("a runtime-library function redefined after a kernel ran: the kernel recompiles in this process", async () => {
  const { kernel, device, threadIdx } = await import("../src/index.ts");
  const { RUNTIME } = await import("../src/runtime/functions.ts");
  const dev = await device("cpu");
  const k = kernel(function usesRuntime(o: Int32Array) { o[threadIdx.x + 1] = 1; });
  const o = new Int32Array(1);
  await assert.rejects(k.launch(dev, { blocks: 1, threads: 1 }, o), /index 1 out of bounds/);
  const before = (k as unknown as { specs: { table: Map<string, { artifact: unknown }> } }).specs.table;
  const [key, spec] = [...before][0];
  const r = RUNTIME.get("gpuc_report_exception")!;
  (RUNTIME as Map<string, typeof r>).set("gpuc_report_exception", { ...r, fn: new Function(`return ${r.fn.toString().replace("{", "{ /* redefined */")}`)() });
  try {
    await assert.rejects(k.launch(dev, { blocks: 1, threads: 1 }, o), /index 1 out of bounds/);
    assert.notEqual(before.get(key)!.artifact, spec.artifact, "compiled again");
  } finally {
    (RUNTIME as Map<string, typeof r>).set("gpuc_report_exception", r);
    dev.close();
  }
});
