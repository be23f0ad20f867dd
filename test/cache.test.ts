// Caches, owners and kernel images (ARCHITECTURE.md, "Caches"; issue #7), as a package and its
// users meet them: whole processes sharing a disk cache, an image made by `gpuc precompile` and
// revived by `loadImage`, and every way an entry can be wrong (stale, corrupt, poisoned, another
// version).

import { after, test } from "node:test";
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, existsSync, writeFileSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { device, kernel, loadImage, onCompile, KernelError, threadIdx, type Artifact } from "../src/index.ts";
import { InternalCompilerError as InternalCompilerErrorForTests } from "../src/errors.ts";
import { cacheOwner, ownerKey, pickArch, runnableArches, runtimeCacheToken } from "../src/compiler/job.ts";
import { entryKey, reviveArtifact, type CacheEntry } from "../src/cache/entry.ts";
import { findPoison } from "../src/cache/poison.ts";
import { DiskCache } from "../src/cache/disk.ts";
import { openAuthenticator, type Authenticator } from "../src/cache/auth.ts";
import { parseImage, serializeImage } from "../src/cache/image-file.ts";
import { spirvReadBack } from "../src/targets/spirv/read-back.ts";
import { createHash, createHmac } from "node:crypto";
import { manifestHash, type RelocationSite, type RelocationStrategy } from "../src/reloc/manifest.ts";
import { runtimeCacheKeys } from "../src/infer/infer.ts";
import { overlay } from "../src/index.ts";
import { loadTarget } from "../src/compiler/compile.ts";
import { GPUC_VERSION } from "../src/version.ts";

const root = fileURLToPath(new URL("..", import.meta.url));
const FIX = join(root, "test/fixtures/cache");
const CLI = join(root, "dist/cli/main.js");

interface AppRun { results: { y: number[]; o: number[] }; compiled: boolean; frontend: boolean; image: { loaded: unknown[]; skipped: { reason: string }[] } | null }

/** Run the package's app in a new process with the given cache environment. */
function app(env: Record<string, string>, image?: string): AppRun {
  const r = spawnSync(process.execPath, ["--import", join(FIX, "track.mjs"), join(FIX, "app.mjs"), ...(image ? [image] : [])], { cwd: root, encoding: "utf8", env: { ...process.env, GPUC_CACHE: "1", ...env } });
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout) as AppRun;
}

function gpuc(env: Record<string, string>, ...args: string[]): { code: number | null; out: string; err: string } {
  const r = spawnSync(process.execPath, [CLI, ...args], { cwd: root, encoding: "utf8", env: { ...process.env, GPUC_CACHE: "1", ...env } });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

/** false where an OpenCL device opens here (PoCL), else why the OpenCL test is skipped. */
const openclProbe: false | string = await device("opencl").then((d) => { d.close(); return false as const; }, (e: Error) => `SKIPPED: no OpenCL device: ${e.message}`);
if (openclProbe && (process.env.GPUC_REQUIRE_DEVICES ?? "").split(",").includes("opencl")) throw new Error(openclProbe);

/** A temporary folder, removed when the file's tests are done. */
const tmpDirs: string[] = [];
const tmp = (name: string) => { const d = mkdtempSync(join(tmpdir(), `gpuc-${name}-`)); tmpDirs.push(d); return d; };
after(() => { for (const d of tmpDirs) { try { rmSync(d, { recursive: true, force: true }); } catch { /* left for the OS */ } } });
// This file's processes (and the children they start) share one cache key, kept apart from the user's.
process.env.GPUC_KEY_FILE = join(tmp("key"), "cache-key");
// The files these tests count are the kernel cache's: gpuc's own code cache (written in the same
// directory, test/code-cache.test.ts) is off in their processes unless a test says otherwise.
process.env.GPUC_CODE_CACHE = "0";
const entryFiles = (dir: string) => readdirSync(join(dir, "v2"), { recursive: true }).map(String).filter((f) => f.endsWith(".entry")).map((f) => join(dir, "v2", f));

/** Rewrite a cache file's body and its tag under the user's key (a planted entry that passes authentication: only the validator's other checks can catch it). */
function rewriteEntry(path: string, edit: (e: CacheEntry) => void): void {
  const text = readFileSync(path, "utf8");
  const e = JSON.parse(text.slice(text.indexOf("\n") + 1)) as CacheEntry;
  edit(e);
  const body = JSON.stringify(e);
  const key = Buffer.from(readFileSync(process.env.GPUC_KEY_FILE!, "utf8").trim(), "hex");
  writeFileSync(path, `gpuc-cache 2 ${createHmac("sha256", key).update(body).digest("hex")}\n${body}`);
}

/** Plant poison: a call to a runtime function the code does not define (the manifest's hash fixed up to match). */
const poisonJS = (e: { artifact: { code: string; manifest: { strategy: RelocationStrategy; sites: readonly RelocationSite[]; codeHash: string } } }) => {
  e.artifact.code = e.artifact.code.replace(/(?<!function )gpuc_report_exception\$(\d+)\(/, "gpuc_missing$$$1(");
  const m = e.artifact.manifest;
  m.codeHash = manifestHash(m.strategy, m.sites, e.artifact.code);
};

// ---- owners -------------------------------------------------------------------------------------

test("owners are plain data, equal after serialization; host and device owners differ; every variant is its own owner", () => {
  const o = cacheOwner("ptx", { arch: "sm_90", relocation: "table" }, { boundsCheck: true, debugLevel: 1 });
  const back = JSON.parse(JSON.stringify(o));
  assert.deepEqual(back, o);
  assert.equal(ownerKey(back), ownerKey(o));
  assert.match(o.gpuc, new RegExp(`^${GPUC_VERSION.replace(/\./g, "\\.")}\\+(dev|[0-9a-f]{16})$`), "gpuc's version and build");
  const host = cacheOwner("js", {}, { boundsCheck: true, debugLevel: 1 });
  assert.notEqual(ownerKey(host), ownerKey(cacheOwner("wgsl", {}, { boundsCheck: true, debugLevel: 1 })));
  assert.equal(cacheOwner("wgsl", {}, { boundsCheck: true, debugLevel: 1 }).alwaysInline, true);
  assert.equal(host.relocation, "bake", "the target's default strategy is spelled out");
  for (const variant of [{ arch: "sm_80" }, { fastMath: true }, { relocation: "bake" as const }, { maxThreads: [64, 1, 1] as [number, number, number] }])
    assert.notEqual(ownerKey(cacheOwner("ptx", variant, { boundsCheck: true, debugLevel: 1 })), ownerKey(cacheOwner("ptx", {}, { boundsCheck: true, debugLevel: 1 })), JSON.stringify(variant));
  assert.notEqual(ownerKey(cacheOwner("js", {}, { boundsCheck: false, debugLevel: 1 })), ownerKey(host));
  assert.notEqual(entryKey(host, "fp", "f32[]"), entryKey(host, "fp", "f64[]"));
  const rt = runtimeCacheToken(host, false), gen = runtimeCacheToken(host, true);
  assert.notDeepEqual(rt, gen, "generating for an image is its own runtime owner");
  assert.equal(rt.parent, ownerKey(host));
  const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { version: string };
  assert.equal(GPUC_VERSION, pkg.version, "src/version.ts follows package.json");
});

test("the runtime library is compiled once per runtime owner and reused in memory", async () => {
  const before = new Set(runtimeCacheKeys());
  const k1 = kernel(function rtA(o: Float32Array) { o[threadIdx.x] = 1; });
  const k2 = kernel(function rtB(o: Float32Array) { o[threadIdx.x] = 2; });
  await k1.compile({ target: "js", types: ["f32[]"] });
  const added = runtimeCacheKeys().filter((k) => !before.has(k));
  await k2.compile({ target: "js", types: ["f32[]"] });
  assert.deepEqual(runtimeCacheKeys().filter((k) => !before.has(k)), added, "the second kernel reuses the runtime functions");
  await k1.compile({ target: "wgsl", types: ["f32[]"] });
  assert.ok(runtimeCacheKeys().some((k) => k.includes("wgsl") && k.endsWith("|gpuc_report_exception")), "another target, another runtime owner");
});

test("inference results are kept per (owner as inference reads it, method instance, world): a later compilation of the same job, or of its variant or block size, starts from them (compile events say which)", async () => {
  const k = kernel(function inferOnce(o: Float32Array, x: Float32Array) { o[threadIdx.x] = Math.cbrt(x[threadIdx.x]) + 1; });
  const events: string[] = [];
  const stop = onCompile((e) => { if (e.kernel === k) events.push(`${e.target}(${e.types.join(",")}) ${e.origin} ${e.inferenceReused ? "reused" : "inferred"}`); });
  try {
    await k.compile({ target: "js", types: ["f32[]", "f32[]"] });
    let dumped = "";
    await k.compile({ target: "js", types: ["f32[]", "f32[]"], dump: ["infer"], dumpSink: (_s, text) => { dumped = text; } });
    assert.match(dumped, /kernel #\d+ @inferOnce\(%0:o: f32\[\], %1:x: f32\[\]; state/);
    await k.compile({ target: "wgsl", types: ["f32[]", "f32[]"] });
    await k.compile({ target: "wgsl", types: ["f32[]", "f32[]"], features: { requiredThreads: [8, 1, 1], provenChecks: true } });
    await k.compile({ target: "js", types: ["f64[]", "f32[]"] });
    overlay("js", "Math.cbrt", function cbrtByPow(v: number) { return v ** (1 / 3); });
    await k.compile({ target: "js", types: ["f32[]", "f32[]"], dump: ["infer"], dumpSink: () => {} });
  } finally { stop(); }
  assert.deepEqual(events, [
    "js(f32[],f32[]) compiled inferred",
    "js(f32[],f32[]) compiled reused",      // same owner, instance and world
    "wgsl(f32[],f32[]) compiled inferred",  // another owner
    "wgsl(f32[],f32[]) compiled reused",    // another owner only in what passes after inference read
    "js(f64[],f32[]) compiled inferred",    // another instance
    "js(f32[],f32[]) compiled inferred",    // a new world (an overlay)
  ]);
});

// ---- the disk cache -------------------------------------------------------------------------------

test("a compile's pending cache write holds the entry it writes, not the kernel: kernels compiled in one loop are garbage before the event loop turns", () => {
  // The write waits for a timer; a program that compiles many kernels before the event loop turns
  // (a loop of awaits) kept each one alive through it (its specializer, lowered source and inferred
  // module), which made every later compile slower (BENCHMARKS §p′). The built package: how a
  // closure holds its scope is the bundle's (run from the sources, the scope was not held).
  const script = `
    import v8 from "node:v8";
    import { readFileSync, rmSync } from "node:fs";
    const { kernel } = await import(${JSON.stringify(pathToFileURL(join(root, "dist/index.js")).href)});
    for (let i = 0; i < 8; i++) {
      const k = kernel(function scale(y, a) { const i = blockIdx.x * blockDim.x + threadIdx.x; if (i < y.length) y[i] *= a; }, { name: "scale" });
      await k.compile({ target: "wgsl", types: ["f32[]", "f32"] });
    }
    globalThis.gc();
    const file = v8.writeHeapSnapshot(${JSON.stringify(join(tmp("retain-snapshot"), "heap.heapsnapshot"))});
    const snap = JSON.parse(readFileSync(file, "utf8"));
    rmSync(file);
    const { node_fields: fields, node_types: [types] } = snap.snapshot.meta;
    const n = fields.length, type = fields.indexOf("type"), name = fields.indexOf("name");
    let kernels = 0;
    for (let i = 0; i < snap.nodes.length; i += n) if (types[snap.nodes[i + type]] === "object" && snap.strings[snap.nodes[i + name]] === "Kernel") kernels++;
    process.stdout.write(JSON.stringify({ kernels }));`;
  for (const cache of ["1", "0"]) {
    const r = spawnSync(process.execPath, ["--expose-gc", "--input-type=module", "-e", script], { cwd: root, encoding: "utf8", env: { ...process.env, GPUC_CACHE: cache, GPUC_CACHE_DIR: tmp("retain") } });
    assert.equal(r.status, 0, r.stderr);
    // (The last one compiled is still referenced: the loop's last value.)
    assert.ok(JSON.parse(r.stdout).kernels <= 1, `GPUC_CACHE=${cache}: ${r.stdout} Kernel objects alive of 8`);
  }
});

test("disk cache: the second process revives its kernels without loading the compiler, with the same results", () => {
  const dir = tmp("disk");
  const first = app({ GPUC_CACHE_DIR: dir });
  assert.equal(first.compiled, true);
  assert.equal(entryFiles(dir).length, 2, "axpy and weigh (persistable: no tables, and `table` relocation)");
  const second = app({ GPUC_CACHE_DIR: dir });
  assert.deepEqual(second.results, first.results);
  assert.equal(second.compiled, false, "no compiler loaded");
  assert.equal(second.frontend, false, "no parser loaded");
  const off = tmp("off");
  app({ GPUC_CACHE_DIR: off, GPUC_CACHE: "0" });
  assert.equal(existsSync(join(off, "v2")), false, "GPUC_CACHE=0 writes nothing (the code cache is off in this file's processes)");
  // gpuc's own code cache is apart from GPUC_CACHE (test/code-cache.test.ts): with it on, such a
  // process writes its code and no kernel.
  const code = tmp("off-code");
  app({ GPUC_CACHE_DIR: code, GPUC_CACHE: "0", GPUC_CODE_CACHE: "" });
  assert.deepEqual(readdirSync(join(code, "v2")), ["code"]);
  rmSync(dir, { recursive: true, force: true });
});

test("disk cache: OpenCL C artifacts persist, revive in a new process without the compiler and run identically", { skip: openclProbe }, () => {
  const dir = tmp("disk-opencl");
  const env = { GPUC_CACHE_DIR: dir, GPUC_TEST_DEVICE: "opencl" };
  const first = app(env);
  assert.equal(first.compiled, true);
  assert.equal(entryFiles(dir).length, 2, "axpy and weigh (the table a kernel argument: relocation `table`)");
  const second = app(env);
  assert.equal(second.compiled, false, "no compiler loaded");
  assert.deepEqual(second.results, first.results);
  // The same values as the CPU device's (the kernels' f32 arithmetic is exact on both).
  assert.deepEqual(second.results, app({ GPUC_CACHE_DIR: tmp("disk-opencl-cpu") }).results);
  rmSync(dir, { recursive: true, force: true });
});

test("disk cache: a truncated or corrupt entry is discarded and recompiled; `gpuc cache verify` finds it", () => {
  const dir = tmp("corrupt");
  const first = app({ GPUC_CACHE_DIR: dir });
  const [a, b] = entryFiles(dir);
  writeFileSync(a, readFileSync(a, "utf8").slice(0, 200));                       // truncated
  const text = readFileSync(b, "utf8");
  writeFileSync(b, text.replace(/"kernel":"(\w)/, '"kernel":"X'));              // one changed byte
  const v = gpuc({ GPUC_CACHE_DIR: dir }, "cache", "verify");
  assert.equal(v.code, 1);
  assert.match(v.out, /4 file\(s\) checked, 2 bad, 2 removed\n$/);
  assert.equal(entryFiles(dir).length, 0, "verify removed them");
  writeFileSync(a, text.slice(0, 100));
  const again = app({ GPUC_CACHE_DIR: dir });
  assert.equal(again.compiled, true);
  assert.deepEqual(again.results, first.results);
  assert.equal(gpuc({ GPUC_CACHE_DIR: dir }, "cache", "verify").code, 0, "rewritten whole");
  rmSync(dir, { recursive: true, force: true });
});

test("disk cache: poisoned entries — planted without the user's key they fail authentication; planted with it, `gpuc cache verify` finds the undefined call; the cache heals", async () => {
  const dir = tmp("poison");
  const first = app({ GPUC_CACHE_DIR: dir });
  // As a planter without the key would: the JS edited and the file's checksum made to match.
  for (const f of entryFiles(dir)) {
    const t = readFileSync(f, "utf8");
    const e = JSON.parse(t.slice(t.indexOf("\n") + 1)) as CacheEntry;
    poisonJS(e);
    assert.match((await findPoison(e.artifact)) ?? "", /calls 'gpuc_missing\$\d+', which it does not define/);
    const body = JSON.stringify(e);
    writeFileSync(f, `gpuc-cache 2 ${createHash("sha256").update(body).digest("hex")}\n${body}`);
  }
  const healed = app({ GPUC_CACHE_DIR: dir });
  assert.equal(healed.compiled, true, "not this user's gpuc's: never run");
  assert.deepEqual(healed.results, first.results);
  for (const f of entryFiles(dir)) { const t = readFileSync(f, "utf8"); assert.equal(await findPoison(JSON.parse(t.slice(t.indexOf("\n") + 1)).artifact), null); }
  // With the key: the tag holds, and verify's parse of the code finds the call.
  for (const f of entryFiles(dir)) rewriteEntry(f, poisonJS);
  const v = gpuc({ GPUC_CACHE_DIR: dir }, "cache", "verify");
  assert.equal(v.code, 1);
  assert.match(v.out, /bad, removed: .*\.entry: poisoned: it calls 'gpuc_missing\$\d+', which it does not define/);
  assert.equal(app({ GPUC_CACHE_DIR: dir }).compiled, true);
  assert.equal(app({ GPUC_CACHE_DIR: dir }).compiled, false);
  rmSync(dir, { recursive: true, force: true });
});

test("disk cache: a stale entry (a scope value changed) is not revived", async () => {
  const dir = tmp("stale");
  app({ GPUC_CACHE_DIR: dir });
  // Same key (owner, source, types) but the helper the code inlined is now another function.
  for (const f of entryFiles(dir)) rewriteEntry(f, (e) => { for (const d of e.deps) if (d[0] === "twice") d[1] = "f:0000"; });
  const r = app({ GPUC_CACHE_DIR: dir });
  assert.equal(r.compiled, true, "weigh's entry no longer fits: compiled again");
  rmSync(dir, { recursive: true, force: true });
});

test("disk cache: specializations on an absent optional array (null) and on arrays of objects are stored and revived like any", () => {
  const dir = tmp("optional");
  const run = () => {
    const r = spawnSync(process.execPath, [join(FIX, "optional.mjs")], { cwd: root, encoding: "utf8", env: { ...process.env, GPUC_CACHE: "1", GPUC_CACHE_DIR: dir } });
    assert.equal(r.status, 0, r.stderr);
    return JSON.parse(r.stdout) as { a: number[]; b: number[]; q: number[]; origins: string[] };
  };
  const first = run(), second = run();
  assert.deepEqual(first.origins, ["f32[],null,i32 compiled", "f32[],f32[],i32 compiled", "{ x: f64, z: f64 }[],{ w: i32, y: f32 }[] compiled"]);
  assert.deepEqual(second.origins, ["f32[],null,i32 disk", "f32[],f32[],i32 disk", "{ x: f64, z: f64 }[],{ w: i32, y: f32 }[] disk"]);
  assert.deepEqual(second.q, [1.5, 2.5, 1, 2]);
  assert.deepEqual(second.a, [5, 5, 5, 5]);
  assert.deepEqual(second.b, [2, 4, 6, 8]);
  rmSync(dir, { recursive: true, force: true });
});

test("disk cache: processes compiling the same kernels at once all succeed and leave a consistent cache", async () => {
  const dir = tmp("race");
  const run = () => new Promise<AppRun>((resolve, reject) => {
    const p = spawn(process.execPath, ["--import", join(FIX, "track.mjs"), join(FIX, "app.mjs")], { cwd: root, env: { ...process.env, GPUC_CACHE: "1", GPUC_CACHE_DIR: dir } });
    let out = "", err = "";
    p.stdout.on("data", (d) => { out += d; });
    p.stderr.on("data", (d) => { err += d; });
    p.on("close", (code) => (code === 0 ? resolve(JSON.parse(out) as AppRun) : reject(new Error(err))));
  });
  const runs = await Promise.all([run(), run(), run(), run()]);
  for (const r of runs.slice(1)) assert.deepEqual(r.results, runs[0].results);
  assert.equal(entryFiles(dir).length, 2);
  const v = gpuc({ GPUC_CACHE_DIR: dir }, "cache", "verify");
  assert.equal(v.code, 0, v.out);
  assert.equal(readdirSync(join(dir, "v2"), { recursive: true }).map(String).filter((f) => f.endsWith(".tmp")).length, 0, "no temporary files left");
  assert.equal(app({ GPUC_CACHE_DIR: dir }).compiled, false);
  rmSync(dir, { recursive: true, force: true });
});

test("disk cache: beyond its size limit the least recently used entries are evicted; ls, stats, clear", () => {
  const dir = tmp("lru");
  app({ GPUC_CACHE_DIR: dir });
  const files = entryFiles(dir);
  const total = files.reduce((n, f) => n + statSync(f).size, 0);
  const ls = gpuc({ GPUC_CACHE_DIR: dir }, "cache", "ls");
  assert.equal(ls.code, 0);
  assert.match(ls.out, /^[0-9a-f]{16} {2}js {3} axpy\(f32, f32\[\], f32\[\]\) {2}\d+ bytes {2}used /m);
  assert.match(ls.out, /2 entries in /);
  const stats = gpuc({ GPUC_CACHE_DIR: dir }, "cache", "stats");
  assert.match(stats.out, /^entries {5}2$/m);
  assert.match(stats.out, /^signatures {2}2$/m);
  // A limit that holds one entry: the next write evicts down to it, oldest first.
  const r = app({ GPUC_CACHE_DIR: dir, GPUC_CACHE_SIZE: String(Math.ceil(total / 2) + 600), GPUC_CACHE: "1" });
  assert.equal(r.compiled, false);
  const limited = tmp("lru2");
  app({ GPUC_CACHE_DIR: limited, GPUC_CACHE_SIZE: "4000" });
  const left = gpuc({ GPUC_CACHE_DIR: limited }, "cache", "stats").out;
  assert.ok(Number(/size +([\d.]+) MiB/.exec(left)![1]) * 1024 * 1024 <= 4000 + 1, left);
  const cleared = gpuc({ GPUC_CACHE_DIR: dir }, "cache", "clear");
  assert.match(cleared.out, /^removed 4 file\(s\) from /);
  assert.match(gpuc({ GPUC_CACHE_DIR: dir }, "cache", "stats").out, /^entries {5}0$/m);
  rmSync(dir, { recursive: true, force: true });
  rmSync(limited, { recursive: true, force: true });
});

test("disk cache: a store at its size limit is listed once per eviction, not at every write (it evicts to nine tenths)", () => {
  const dir = tmp("lru3");
  const keyDir = tmp("lru3key");
  const before = process.env.GPUC_KEY_FILE;
  process.env.GPUC_KEY_FILE = join(keyDir, "key");
  try {
    const auth = openAuthenticator(dir);
    assert.ok(!("refused" in auth));
    const cache = new DiskCache(dir, auth as Authenticator, 20000);
    let listings = 0;
    const files = cache.files.bind(cache);
    cache.files = () => { listings++; return files(); };
    const pad = "x".repeat(900);
    for (let i = 0; i < 60; i++) cache.put({ key: i.toString(16).padStart(16, "0"), pad } as unknown as CacheEntry);
    const total = files().reduce((n, f) => n + f.bytes, 0);
    assert.ok(total <= 20000, `the store fits its limit (${total} bytes)`);
    // About 1 KB a write: past the limit, one listing per two writes at most (at every write, and
    // twice, when each eviction left the store at its limit).
    assert.ok(listings <= 25, `${listings} listings for 60 writes`);
  } finally {
    if (before === undefined) delete process.env.GPUC_KEY_FILE; else process.env.GPUC_KEY_FILE = before;
    rmSync(dir, { recursive: true, force: true });
    rmSync(keyDir, { recursive: true, force: true });
  }
});

// ---- kernel images ----------------------------------------------------------------------------------

test("kernel images: precompile a workload, revive it in a new process without compiling; inspect says what is in it", async () => {
  const dir = tmp("image");
  const image = join(dir, "kernels.gpucimg");
  const p = gpuc({ GPUC_CACHE: "0" }, "precompile", join(FIX, "workload.mjs"), "-o", image);
  assert.equal(p.code, 0, p.err);
  // (Three per target, and for WGSL each kernel's variant for launches that prove its checks.)
  assert.match(p.out, /^wrote .*kernels\.gpucimg: 11 specialization\(s\) of 3 kernel\(s\), \d+ bytes, sha256 [0-9a-f]{64}\n$/);
  const inspect = gpuc({}, "image", "inspect", image);
  assert.equal(inspect.code, 0);
  assert.match(inspect.out, / {2}wgsl {2}axpy\(f32, f32\[\], f32\[\]\) {2}\[relocation table, checks on, the variant for launches that prove its checks, debug 1\]/);
  assert.match(inspect.out, / {2}js {4}weigh\(f32\[\], f32\[\]\) {2}\[relocation table, checks on, debug 1\] {2}\d+ bytes, 1 relocation site\(s\)/);
  assert.match(inspect.out, / {2}ptx {3}expo\(f32\[\], f32\[\]\) {2}\[sm_75, relocation patch, checks on, debug 1\]/);
  assert.match(inspect.out, /\n11 usable, 0 skipped\n$/);
  const fresh = app({ GPUC_CACHE: "0" });
  const revived = app({ GPUC_CACHE: "0" }, image);
  assert.deepEqual(revived.results, fresh.results);
  assert.equal(revived.compiled, false, "no compiler loaded");
  assert.equal(revived.frontend, false);
  assert.equal(revived.image!.loaded.length, 11);
  // Host entries never hold a device-only function: `expo` (it calls fastExp, defined for ptx and
  // wgsl only) has no js entry, and no js entry contains fastExp's code.
  const { entries } = await parseImage(readFileSync(image), image);
  const host = entries.filter((e) => e.owner.target === "js");
  assert.deepEqual(host.map((e) => e.kernel).sort(), ["axpy", "weigh"]);
  for (const e of host) assert.doesNotMatch(e.artifact.code, /fastExp|424242/);
  assert.ok(entries.some((e) => e.owner.target === "ptx" && e.kernel === "expo"));
  for (const e of entries) assert.ok(e.artifact.manifest.strategy !== "bake" || e.artifact.manifest.sites.length === 0, "no session-local artifacts");
  // PTX is forward-compatible: the image's sm_75 code serves newer GPUs without a compile, and
  // inspect says which entry a device of each architecture takes.
  assert.match(inspect.out, / {2}ptx {3}axpy\(f32, f32\[\], f32\[\]\): a device of sm_75 → sm_75, sm_80 → sm_75, sm_86 → sm_75, sm_89 → sm_75, sm_90 → sm_75\n/);
  const r = spawnSync(process.execPath, ["--import", join(FIX, "track.mjs"), join(FIX, "ptx-arch.mjs"), image, "sm_90", "sm_80"], { cwd: root, encoding: "utf8", env: { ...process.env, GPUC_CACHE: "0" } });
  assert.equal(r.status, 0, r.stderr);
  assert.deepEqual(JSON.parse(r.stdout), { sm_90: ["sm_75", "sm_75"], sm_80: ["sm_75", "sm_75"], compiled: false });
  rmSync(dir, { recursive: true, force: true });
});

test("kernel images: OpenCL C entries revive in a new process on the OpenCL device without compiling, with the CPU device's results", { skip: openclProbe }, () => {
  const dir = tmp("image-opencl");
  const image = join(dir, "opencl.gpucimg");
  const p = gpuc({ GPUC_CACHE: "0" }, "precompile", join(FIX, "workload-opencl.mjs"), "-o", image);
  assert.equal(p.code, 0, p.err);
  assert.match(p.out, /: 2 specialization\(s\) of 2 kernel\(s\), \d+ bytes, sha256 [0-9a-f]{64}\n$/);
  const inspect = gpuc({}, "image", "inspect", image);
  assert.match(inspect.out, / {2}opencl {2}weigh\(f32\[\], f32\[\]\) {2}\[relocation table, checks on, debug 1\] {2}\d+ bytes, 1 relocation site\(s\)/);
  const revived = app({ GPUC_CACHE: "0", GPUC_TEST_DEVICE: "opencl" }, image);
  assert.equal(revived.compiled, false, "no compiler loaded");
  assert.equal(revived.image!.loaded.length, 2);
  assert.deepEqual(revived.results, app({ GPUC_CACHE: "0" }).results);
  rmSync(dir, { recursive: true, force: true });
});

test("kernel images: LLVM IR entries, one per architecture: an AMD GPU's code serves that GPU only, and a missing one is named", () => {
  const dir = tmp("image-llvm");
  const image = join(dir, "llvm.gpucimg");
  const p = gpuc({ GPUC_CACHE: "0" }, "precompile", join(FIX, "workload-llvm.mjs"), "-o", image);
  assert.equal(p.code, 0, p.err);
  assert.match(p.out, /: 4 specialization\(s\) of 2 kernel\(s\), /);
  const inspect = gpuc({}, "image", "inspect", image);
  assert.match(inspect.out, /\n4 usable, 0 skipped\n$/);
  // An AMD code object serves its own architecture only: inspect says which entry each takes.
  assert.match(inspect.out, / {2}llvm {2}axpy\(f32, f32\[\], f32\[\]\): a device of spir64 → spir64, gfx90a → gfx90a, gfx940 → compiles, gfx1100 → compiles\n/);
  const r = spawnSync(process.execPath, [join(FIX, "llvm-arch.mjs"), image, "gfx90a", "spir64", "gfx940"], { cwd: root, encoding: "utf8", env: { ...process.env, GPUC_CACHE: "0", GPUC_FIXTURE_ENTRY: "gpuc/runtime" } });
  assert.equal(r.status, 0, r.stderr);
  assert.deepEqual(JSON.parse(r.stdout), {
    gfx90a: "gfx90a", spir64: "spir64",
    gfx940: "KernelError not-precompiled: kernel 'axpy' (f32, f32[], f32[]) for llvm on gfx940 is not in the loaded images; compile it at build time (gpuc/plugin, gpuc precompile) or import 'gpuc' instead of 'gpuc/runtime'",
  });
  rmSync(dir, { recursive: true, force: true });
});

test("kernel images: SPIR-V entries (binary code, stored as base64) are stored, read back and checked like any other", async () => {
  const dir = tmp("image-spirv");
  const image = join(dir, "spirv.gpucimg");
  const p = gpuc({ GPUC_CACHE: "0" }, "precompile", join(FIX, "workload-spirv.mjs"), "-o", image);
  assert.equal(p.code, 0, p.err);
  const inspect = gpuc({}, "image", "inspect", image);
  assert.match(inspect.out, / {2}spirv {2}weigh\(f32\[\], f32\[\]\) {2}\[relocation table, checks on, debug 1\] {2}\d+ bytes, 1 relocation site\(s\)/);
  assert.match(inspect.out, /\n2 usable, 0 skipped\n$/);
  const { entries } = await parseImage(readFileSync(image), image);
  const axpy = entries.find((e) => e.kernel === "axpy")!;
  assert.equal(axpy.artifact.binary, true, "stored as base64");
  const revived = reviveArtifact(axpy.artifact);
  assert.ok(revived.code instanceof Uint8Array && new Uint32Array(revived.code.slice().buffer)[0] === 0x07230203, "the SPIR-V words again");
  assert.equal(await spirvReadBack.checkCode(revived), null);
  rmSync(dir, { recursive: true, force: true });
});

test("gpuc/runtime: the same kernels run from an image without the compiler (never loaded); a kernel in no image is a not-precompiled KernelError", () => {
  const dir = tmp("runtime");
  const image = join(dir, "kernels.gpucimg");
  assert.equal(gpuc({ GPUC_CACHE: "0" }, "precompile", join(FIX, "workload.mjs"), "-o", image).code, 0);
  const run = (args: string[]) => {
    const r = spawnSync(process.execPath, ["--import", join(FIX, "track.mjs"), join(FIX, "runtime-app.mjs"), ...args], { cwd: root, encoding: "utf8", env: { ...process.env, GPUC_CACHE: "0", GPUC_FIXTURE_ENTRY: "gpuc/runtime" } });
    assert.equal(r.status, 0, r.stderr);
    return JSON.parse(r.stdout) as { results: AppRun["results"] | null; error: { name: string; kind: string; message: string } | null; compiled: boolean; full: boolean; runtime: boolean };
  };
  const fromImage = run([image]);
  assert.equal(fromImage.error, null, fromImage.error?.message);
  assert.deepEqual(fromImage.results, app({ GPUC_CACHE: "0" }).results);
  assert.deepEqual([fromImage.runtime, fromImage.full, fromImage.compiled], [true, false, false]);
  const none = run([]);
  assert.equal(none.results, null);
  assert.deepEqual([none.error?.name, none.error?.kind], ["KernelError", "not-precompiled"]);
  // No image holds the kernel at all (not even its signature): its argument types are not known.
  assert.match(none.error!.message, /^kernel 'axpy' is not in the loaded images; compile it at build time \(gpuc\/plugin, gpuc precompile\) or import 'gpuc' instead of 'gpuc\/runtime'$/);
  assert.equal(none.compiled, false);
  // The image knows the kernel (its signature) but has no js code for it: the message says which specialization is missing.
  const expo = run([image, "expo"]);
  assert.deepEqual([expo.error?.kind, expo.compiled], ["not-precompiled", false]);
  assert.equal(expo.error!.message, "kernel 'expo' (f32[], f32[]) for js is not in the loaded images; compile it at build time (gpuc/plugin, gpuc precompile) or import 'gpuc' instead of 'gpuc/runtime'");
});

test("architecture fallback: a device takes the newest stored PTX it can run, its own first; other targets never fall back", () => {
  assert.deepEqual(runnableArches("ptx", "sm_90"), ["sm_90", "sm_89", "sm_86", "sm_80", "sm_75"]);
  assert.deepEqual(runnableArches("ptx", "sm_75"), ["sm_75"]);
  assert.deepEqual(runnableArches("js", null), [null]);
  assert.deepEqual(runnableArches("wgsl", null), [null]);
  assert.equal(pickArch("ptx", ["sm_75"], "sm_90"), "sm_75");
  assert.equal(pickArch("ptx", ["sm_75", "sm_80", "sm_90"], "sm_86"), "sm_80");
  assert.equal(pickArch("ptx", ["sm_75", "sm_90"], "sm_90"), "sm_90");
  assert.equal(pickArch("ptx", ["sm_80", "sm_90"], "sm_75"), null, "newer code never runs on an older GPU");
});

test("kernel images: a failing workload writes nothing; another gpuc version's entries and corrupt images are refused with the reason", async () => {
  const dir = tmp("image2");
  const image = join(dir, "bad.gpucimg");
  const fail = gpuc({ GPUC_CACHE: "0" }, "precompile", join(FIX, "failing-workload.mjs"), "-o", image);
  assert.equal(fail.code, 1);
  assert.match(fail.err, /use of undefined name 'undefinedThing'/);
  assert.equal(existsSync(image), false);
  assert.deepEqual(readdirSync(dir), [], "not even a temporary file");
  // A workload that fails with its own error (not gpuc's) is the user's failure, not an internal one.
  writeFileSync(join(dir, "throws.mjs"), "export default async function () { throw new Error('boom'); }\n");
  const thrown = gpuc({ GPUC_CACHE: "0" }, "precompile", join(dir, "throws.mjs"), "-o", image);
  assert.equal(thrown.code, 1, thrown.err);
  assert.match(thrown.err, /^gpuc: the workload '.*throws\.mjs' failed; no image was written:\nError: boom\n/);
  assert.equal(existsSync(image), false);
  rmSync(join(dir, "throws.mjs"));
  const good = join(dir, "good.gpucimg");
  assert.equal(gpuc({ GPUC_CACHE: "0" }, "precompile", join(FIX, "workload.mjs"), "-o", good).code, 0);
  const { entries } = await parseImage(readFileSync(good), good);
  const old = entries.map((e) => ({ ...e, owner: { ...e.owner, gpuc: "0.0.1+0123456789abcdef" } }));
  const oldImage = join(dir, "old.gpucimg");
  writeFileSync(oldImage, serializeImage(old));
  const inspect = gpuc({}, "image", "inspect", oldImage);
  assert.match(inspect.out, /skipped: js axpy: compiled by gpuc 0\.0\.1; this is gpuc 0\.1\.0/);
  // Another build of the same version (the compiler changed): skipped by a built gpuc too.
  const otherBuild = join(dir, "other-build.gpucimg");
  writeFileSync(otherBuild, serializeImage(entries.map((e) => ({ ...e, owner: { ...e.owner, gpuc: "0.1.0+0123456789abcdef" } }))));
  assert.match(gpuc({}, "image", "inspect", otherBuild).out, /skipped: js axpy: compiled by another build of gpuc 0\.1\.0 \(0123456789abcdef\); this is build [0-9a-f]{16}/);
  assert.match(inspect.out, /\n0 usable, 11 skipped\n$/);
  const r = app({ GPUC_CACHE: "0" }, oldImage);
  assert.equal(r.compiled, true, "nothing fit: compiled");
  assert.equal(r.image!.skipped.length, 11);
  const bytes = readFileSync(good);
  bytes[bytes.length - 10] ^= 1;
  const invalid = (re: RegExp) => (e: unknown) => e instanceof KernelError && e.kind === "invalid-image" && re.test(e.message);
  await assert.rejects(loadImage(bytes), invalid(/<bytes> is corrupt: its checksum does not match/));
  await assert.rejects(loadImage(new TextEncoder().encode("hello")), invalid(/is not a gpuc kernel image/));
  await assert.rejects(loadImage(join(dir, "missing.gpucimg")), invalid(/cannot read the kernel image .*missing\.gpucimg: ENOENT/));
  // The CLI says the same, as a user error (exit 1), not an internal error.
  writeFileSync(join(dir, "not-an-image.txt"), "hello");
  const notImage = gpuc({}, "image", "inspect", join(dir, "not-an-image.txt"));
  assert.equal(notImage.code, 1, notImage.err);
  assert.match(notImage.err, /^gpuc: .*not-an-image\.txt is not a gpuc kernel image \(no 'gpuc-image' header\)\n$/);
  rmSync(dir, { recursive: true, force: true });
});

test("kernel images: a poisoned entry is skipped; code linked with a redefined runtime function is compiled afresh", async () => {
  const dir = tmp("image3");
  const good = join(dir, "good.gpucimg");
  assert.equal(gpuc({ GPUC_CACHE: "0" }, "precompile", join(FIX, "workload.mjs"), "-o", good).code, 0);
  const { entries } = await parseImage(readFileSync(good), good);
  const poisoned = entries.map((e) => (e.owner.target === "js" ? JSON.parse(JSON.stringify(e)) as CacheEntry : e));
  for (const e of poisoned) if (e.owner.target === "js") poisonJS(e);
  const bad = join(dir, "poisoned.gpucimg");
  writeFileSync(bad, serializeImage(poisoned));
  const r = app({ GPUC_CACHE: "0" }, bad);
  assert.equal(r.compiled, true);
  assert.equal(r.image!.skipped.length, 2);
  assert.match(r.image!.skipped[0].reason, /^poisoned: it calls 'gpuc_missing\$\d+', which it does not define$/);
  // Entries record the runtime library they were linked with: another one is a miss.
  const stale = entries.map((e) => ({ ...e, runtime: "0".repeat(64) }));
  const staleImage = join(dir, "stale.gpucimg");
  writeFileSync(staleImage, serializeImage(stale));
  assert.equal(app({ GPUC_CACHE: "0" }, staleImage).compiled, true);
  assert.equal(app({ GPUC_CACHE: "0" }, good).compiled, false);
  // A runtime function redefined in the process that loads the image: its kernels compile afresh.
  const redefined = app({ GPUC_CACHE: "0", GPUC_TEST_REDEFINE_RUNTIME: "1" }, good);
  assert.equal(redefined.compiled, true);
  assert.deepEqual(redefined.results, app({ GPUC_CACHE: "0" }).results);
  rmSync(dir, { recursive: true, force: true });
});

// ---- poison in memory and in fresh output -------------------------------------------------------------

test("poison in a kernel's own table is found before its first load on a device, discarded and healed", async () => {
  const dev = await device("cpu");
  const k = kernel(function healMe(o: Float32Array) { o[threadIdx.x] = threadIdx.x * 3; });
  const art = await k.compile({ target: "js", types: ["f32[]"] });
  const specs = (k as unknown as { specs: { table: Map<string, { artifact: Artifact }> } }).specs.table;
  const [key, spec] = [...specs][0];
  const poisoned = { ...art, code: (art.code as string).replace(/(?<!function )gpuc_report_exception\$(\d+)\(/, "gpuc_missing$$$1(") };
  assert.ok(await findPoison(poisoned));
  specs.set(key, { ...spec, artifact: poisoned });
  const o = new Float32Array(4);
  await k.launch(dev, { blocks: 1, threads: 4 }, o);
  assert.deepEqual(Array.from(o), [0, 3, 6, 9]);
  assert.equal(await findPoison(specs.get(key)!.artifact), null);
  dev.close();
});

test("a poisoned fresh emission is an internal error and is never cached", async () => {
  // The JS back end made to emit a call to a function it does not define (a bug gpuc must catch).
  const js = (await loadTarget("js"))!;
  const emit = js.emit;
  js.emit = (m, f) => { const a = emit(m, f); return { ...a, code: `${a.code}\nfunction $never$1() { return gpuc_undefined$7(); }` }; };
  try {
    const k = kernel(function poisonFresh(o: Float32Array) { o[threadIdx.x] = 1; });
    for (let i = 0; i < 2; i++)
      await assert.rejects(k.compile({ target: "js", types: ["f32[]"] }), (e: unknown) =>
        e instanceof InternalCompilerErrorForTests && /the js code of kernel 'poisonFresh' is poisoned: it calls 'gpuc_undefined\$7', which it does not define/.test((e as Error).message));
  } finally {
    js.emit = emit;
  }
});
