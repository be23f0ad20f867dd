// gpuc's own code cache (ARCHITECTURE.md, "gpuc's own code cache"; issue #35): the built
// package's compiler loaded as one classic script with V8's code cache of an earlier process,
// kept in the user's cache directory under the user's key. Whole processes, as a user meets it:
// the code they compile is the ES modules' code, the cache is written once and then used, and
// every way its file can be wrong (edited, planted with a valid tag, made for other code) is
// refused or rewritten, never crashes. Needs the build (`npm test` builds first).

import { after, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { createHmac } from "node:crypto";

const root = fileURLToPath(new URL("..", import.meta.url));
const CLI = join(root, "dist/cli/main.js");
const dirs: string[] = [];
const tmp = (name: string) => { const d = mkdtempSync(join(tmpdir(), `gpuc-code-${name}-`)); dirs.push(d); return d; };
after(() => { for (const d of dirs) rmSync(d, { recursive: true, force: true }); });

const keyFile = join(tmp("key"), "cache-key");
// Kernels whose compiles run much of the compiler: shared memory, barriers, atomics, a loop.
const app = join(tmp("app"), "app.mjs");
writeFileSync(app, `
import { kernel, blockIdx, blockDim, threadIdx, shared, syncthreads, atomicAdd } from ${JSON.stringify(pathToFileURL(join(root, "dist/index.js")).href)};
import { createHash } from "node:crypto";
const saxpy = () => kernel(function saxpy(a, x, y) { const i = blockIdx.x * blockDim.x + threadIdx.x; if (i < y.length) y[i] = a * x[i] + y[i]; }, { types: { a: "f32" } });
const sums = () => kernel(function sums(total, x) {
  const s = shared(Float32Array, 64);
  const t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
  s[t] = i < x.length ? x[i] : 0;
  syncthreads();
  for (let d = blockDim.x >> 1; d > 0; d >>= 1) { if (t < d) s[t] += s[t + d]; syncthreads(); }
  if (t === 0) atomicAdd(total, 0, s[0]);
});
const out = {};
for (const target of process.argv.slice(2)) {
  out[target] = [
    (await saxpy().compile({ target, types: ["f32", "f32[]", "f32[]"] })).code,
    (await sums().compile({ target, types: ["f32[]", "f32[]"] })).code,
  ].map((c) => createHash("sha256").update(typeof c === "string" ? c : Buffer.from(c)).digest("hex"));
}
console.log(JSON.stringify(out));
`);

/** The app in a new process: each target's code hashes. */
function run(cacheDir: string, targets: string[], env: Record<string, string> = {}): Record<string, string[]> {
  const r = spawnSync(process.execPath, [app, ...targets], { encoding: "utf8", env: { ...process.env, GPUC_CACHE: "0", GPUC_CACHE_DIR: cacheDir, GPUC_KEY_FILE: keyFile, ...env } });
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout) as Record<string, string[]>;
}

const codeDir = (cacheDir: string) => join(cacheDir, "v2", "code");
const codeFiles = (cacheDir: string) => (existsSync(codeDir(cacheDir)) ? readdirSync(codeDir(cacheDir)).filter((f) => f.endsWith(".v8")).map((f) => join(codeDir(cacheDir), f)) : []);
const header = (file: string) => { const b = readFileSync(file); return b.subarray(0, b.indexOf(10)).toString("latin1").split(" "); };
/** A code cache file with this data and a tag that verifies under the test's key (a file only this user's gpuc could have written). */
function plant(file: string, data: Buffer, script = header(file)[3], targets = header(file)[4]): void {
  const key = Buffer.from(readFileSync(keyFile, "utf8").trim(), "hex");
  const tag = createHmac("sha256", key).update(`gpuc-code ${script} ${targets}\n`).update(data).digest("hex");
  writeFileSync(file, Buffer.concat([Buffer.from(`gpuc-code 1 ${tag} ${script} ${targets}\n`), data]));
}

/** Whether a code cache file's tag verifies under the test's key. */
function verifies(file: string): boolean {
  const b = readFileSync(file), nl = b.indexOf(10), h = header(file);
  const key = Buffer.from(readFileSync(keyFile, "utf8").trim(), "hex");
  return createHmac("sha256", key).update(`gpuc-code ${h[3]} ${h[4]}\n`).update(b.subarray(nl + 1)).digest("hex") === h[2];
}

const TARGETS = ["wgsl", "js", "ptx", "opencl", "spirv"];
/** The code as the compiler's ES modules make it (no script, no code cache). */
const reference = run(tmp("reference"), TARGETS, { GPUC_CODE_CACHE: "0" });

test("the compiler script compiles what the ES modules compile, and its code cache is written once, then used", () => {
  const dir = tmp("cache");
  assert.deepEqual(run(dir, TARGETS), reference);
  const [file, ...more] = codeFiles(dir);
  assert.ok(file, "a code cache file was written");
  assert.equal(more.length, 0);
  assert.equal(header(file)[4], "js,opencl,ptx,spirv,wgsl", "the file says which targets' compiles it covers");
  assert.equal(statSync(file).mode & 0o777, 0o600);
  const before = readFileSync(file);
  assert.deepEqual(run(dir, ["wgsl", "ptx"]), { wgsl: reference.wgsl, ptx: reference.ptx });
  assert.deepEqual(readFileSync(file), before, "a process whose targets the data covers does not write it again");
});

test("a compile for a target the data was not made with writes it again, covering that target too", () => {
  const dir = tmp("targets");
  run(dir, ["wgsl"]);
  const [file] = codeFiles(dir);
  assert.equal(header(file)[4], "wgsl");
  assert.deepEqual(run(dir, ["js"]), { js: reference.js });
  assert.equal(header(codeFiles(dir)[0])[4], "js,wgsl");
});

test("an edited code cache file is deleted and written again; planted data with a valid tag is refused by V8 and rewritten; neither changes what compiles", () => {
  const dir = tmp("tamper");
  run(dir, ["wgsl"]);
  const [file] = codeFiles(dir);
  const bytes = readFileSync(file);
  // One bit of V8's data changed, the tag kept: the tag no longer verifies.
  bytes[bytes.length - 100] ^= 1;
  writeFileSync(file, bytes);
  assert.ok(!verifies(file));
  assert.deepEqual(run(dir, ["wgsl"]), { wgsl: reference.wgsl });
  assert.ok(verifies(file), "deleted and written again");
  // Data that is no V8 code cache, under a tag the user's key makes: V8 refuses it (cachedDataRejected).
  const junk = Buffer.from("not a code cache ".repeat(64));
  plant(file, junk);
  assert.deepEqual(run(dir, ["wgsl", "js"]), { wgsl: reference.wgsl, js: reference.js });
  assert.ok(verifies(file) && !readFileSync(file).includes(junk), "rewritten");
  assert.equal(header(file)[4], "js,wgsl");
  // Truncated data under a valid tag, and a valid file of another script: refused alike.
  plant(file, readFileSync(file).subarray(readFileSync(file).indexOf(10) + 1, 5000));
  assert.deepEqual(run(dir, ["wgsl"]), { wgsl: reference.wgsl });
  assert.ok(readFileSync(file).length > 100_000, "rewritten");
  const good = readFileSync(file);
  plant(file, good.subarray(good.indexOf(10) + 1), "0".repeat(64));
  assert.deepEqual(run(dir, ["wgsl"]), { wgsl: reference.wgsl });
  assert.equal(header(codeFiles(dir)[0])[3], header(file)[3]);
  assert.notEqual(header(file)[3], "0".repeat(64), "the other script's file was replaced");
});

test("each installation of the same compiler script has a code cache file of its own, so that the compiler's stack frames name its own files", () => {
  // (V8's data names the script it was made from: read by another installation, its functions'
  // frames named the first one's script, a file that may no longer exist.)
  const copy = tmp("copy");
  cpSync(join(root, "dist"), join(copy, "dist"), { recursive: true });
  cpSync(join(root, "package.json"), join(copy, "package.json"));
  symlinkSync(join(root, "node_modules"), join(copy, "node_modules"));
  const probe = join(tmp("probe"), "probe.mjs");
  // A compile that fails in the compiler: its error's stack passes through the compiler script.
  writeFileSync(probe, `const { kernel } = await import(process.argv[2]);
const k = kernel(function objParam(o, po) { po.k = 1; o[0] = po.k; });
try { await k.compile({ target: "js", types: ["f32[]", "{ k: f32 }"] }); } catch (e) { console.log(/\\((\\/[^)]*script\\.cjs)/.exec(e.stack)?.[1] ?? "none"); }
`);
  const dir = tmp("installations");
  const stackScript = (pkg: string) => {
    const r = spawnSync(process.execPath, [probe, pathToFileURL(join(pkg, "dist/index.js")).href], { encoding: "utf8", env: { ...process.env, GPUC_CACHE_DIR: dir, GPUC_KEY_FILE: keyFile } });
    assert.equal(r.status, 0, r.stderr);
    return r.stdout.trim();
  };
  for (const pkg of [copy, root, copy, root]) assert.equal(stackScript(pkg), join(pkg, "dist/compiler/script.cjs"));
  assert.equal(codeFiles(dir).length, 2);
});

test("GPUC_CODE_CACHE=0 writes nothing; a cache directory other users can write is not used; GPUC_CACHE=0 leaves the code cache on", () => {
  const off = tmp("off");
  assert.deepEqual(run(off, ["wgsl"], { GPUC_CODE_CACHE: "0" }), { wgsl: reference.wgsl });
  assert.deepEqual(codeFiles(off), []);
  const open = join(tmp("open"), "cache");
  mkdirSync(open, { mode: 0o700 });
  chmodSync(open, 0o777);
  assert.deepEqual(run(open, ["wgsl"]), { wgsl: reference.wgsl });
  assert.deepEqual(codeFiles(open), []);
});

test("gpuc cache stats counts the code cache, verify removes a bad file, clear removes it", () => {
  const dir = tmp("cli");
  run(dir, ["js"]);
  const env = { ...process.env, GPUC_CACHE_DIR: dir, GPUC_KEY_FILE: keyFile };
  const cli = (...args: string[]) => spawnSync(process.execPath, [CLI, "cache", ...args], { encoding: "utf8", env });
  assert.match(cli("stats").stdout, /code cache\s+1 file\(s\)/);
  assert.match(cli("verify").stdout, /1 file\(s\) checked, 0 bad/);
  const [file] = codeFiles(dir);
  const bytes = readFileSync(file);
  bytes[bytes.length - 1] ^= 1;
  writeFileSync(file, bytes);
  const v = cli("verify");
  assert.equal(v.status, 1);
  assert.match(v.stdout, /bad, removed: .*\.v8: its tag does not verify/);
  assert.deepEqual(codeFiles(dir), []);
  run(dir, ["js"]);
  assert.equal(codeFiles(dir).length, 1);
  assert.match(cli("clear").stdout, /removed 1 file/);
  assert.deepEqual(codeFiles(dir), []);
});
