// Setup that just works (issue #19, item 5): the packed package in fresh ES module, CommonJS, tsx
// and strict tsc projects (scripts/pack-test.mjs), require("gpuc") where Node cannot require() an
// ES module, and Dawn's log lines kept off stderr unless GPUC_DEBUG asks for them.

import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const node = (args: string[], env: Record<string, string> = {}) =>
  spawnSync(process.execPath, args, { cwd: root, encoding: "utf8", env: { ...process.env, GPUC_CACHE: "0", ...env } });

test("the packed tarball runs the README's first example in ESM, CommonJS, tsx and strict tsc projects", () => {
  const r = node(["scripts/pack-test.mjs"]);
  const results = JSON.parse(r.stdout) as { config: string; ok: boolean; outputs: { command: string; status: number; stdout: string; stderr: string }[] }[];
  assert.deepEqual(results.map((c) => c.config), ["esm", "commonjs", "tsx", "strict-tsc", "strict-tsc-noUncheckedIndexedAccess"]);
  for (const c of results) {
    assert.ok(c.ok, `${c.config}: ${JSON.stringify(c.outputs.at(-1), null, 2)}`);
    const run = c.outputs.find((o) => /[ /]app\.(js|ts)$/.test(o.command))!;
    assert.match(run.stdout, /^4\n"use strict";\n/, `${c.config}: the example prints 4, then the generated JavaScript`);
    assert.equal(run.stderr, "", `${c.config}: nothing on stderr (no Dawn warnings)`);
  }
  // require("gpuc"): the module itself where Node can require() ES modules (20.19+), else the error that says to import() it.
  const required = results.find((c) => c.config === "commonjs")!.outputs.find((o) => o.command.endsWith("require.js"))!;
  assert.match(required.stdout, /^(function|ERR_REQUIRE_ESM: gpuc is an ES module and cannot be loaded with require\(\) on Node v[\d.]+\. In CommonJS code, load it with import\(\))/);
  assert.equal(r.status, 0);
});

test("require(\"gpuc\") on a Node that cannot require() ES modules: ERR_REQUIRE_ESM saying to use import()", () => {
  const r = node(["-e", `Object.defineProperty(process.features, "require_module", { value: false });
    try { require("./cjs/index.cjs"); } catch (e) { console.log(e.code + ": " + e.message); }`]);
  assert.equal(r.stdout.trim(), `ERR_REQUIRE_ESM: gpuc is an ES module and cannot be loaded with require() on Node ${process.version}. ` +
    "In CommonJS code, load it with import(): `const { kernel, device } = await import(\"gpuc\");` (inside an async function); " +
    "or make your code an ES module (\"type\": \"module\" in package.json, or a .mjs/.mts file) and write `import { kernel, device } from \"gpuc\";`.");
});

test("the native stderr filter drops only the matching lines, keeps the rest in order, and restores stderr when the call throws", { skip: process.platform === "linux" ? false : "SKIPPED: the filter works on Linux only" }, () => {
  const r = node(["--import", "tsx", "test/fixtures/setup/stderr-filter.ts"]);
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stdout, "thrown\n5\n");
  assert.equal(r.stderr, "something else\nbefore the throw\nafter\n");
  const debug = node(["--import", "tsx", "test/fixtures/setup/stderr-filter.ts"], { GPUC_DEBUG: "1" });
  assert.equal(debug.stderr, "Warning: artificially reduced\nsomething else\nWarning: again\nbefore the throw\nafter\n");
});

// A shader Dawn rejects is gpuc's to report (a CompileError at the kernel's line, from the module's
// compilation info): its WGSL error is not printed by Dawn as well (devices/webgpu.ts, variant()).
test("a kernel WGSL rejects is a CompileError, and Dawn prints nothing of it", (t) => {
  const script = `const { device, kernel, threadIdx, shared, syncthreads } = await import("gpuc");
    let dev; try { dev = await device("webgpu"); } catch (e) { console.log("no webgpu: " + e.message); process.exit(0); }
    const k = kernel(function nonUniform(o) { const s = shared(Int32Array, 64); s[threadIdx.x] = threadIdx.x; syncthreads(); const u = s[(threadIdx.x * 7) & 63]; for (let i = 0; i < (u & 3); i++) { syncthreads(); o[threadIdx.x] += 1; } });
    try { await k.launch(dev, { blocks: 1, threads: 64 }, new Int32Array(64)); console.log("ran"); } catch (e) { console.log(e.name + " " + e.kind); }
    dev.close();`;
  const r = node(["--input-type=module", "-e", script], { GPUC_CACHE: "0", XDG_RUNTIME_DIR: process.env.XDG_RUNTIME_DIR ?? "/tmp" });
  assert.equal(r.status, 0, r.stderr);
  if (r.stdout.startsWith("no webgpu")) {
    if ((process.env.GPUC_REQUIRE_DEVICES ?? "").split(",").includes("webgpu")) assert.fail(`webgpu is required (GPUC_REQUIRE_DEVICES) but did not open: ${r.stdout}`);
    t.skip(`SKIPPED: ${r.stdout.trim()}`);
    return;
  }
  assert.equal(r.stdout, "CompileError unsupported-syntax\n");
  assert.doesNotMatch(r.stderr, /Error while parsing WGSL|uniform control flow/);
});

test("device(\"webgpu\"): Dawn's warnings only with GPUC_DEBUG", () => {
  const script = `const { device } = await import("gpuc"); try { (await device("webgpu")).close(); console.log("opened"); } catch (e) { console.log("none: " + e.message); }`;
  const debug = node(["--input-type=module", "-e", script], { GPUC_DEBUG: "1", XDG_RUNTIME_DIR: process.env.XDG_RUNTIME_DIR ?? "/tmp" });
  const quiet = node(["--input-type=module", "-e", script], { XDG_RUNTIME_DIR: process.env.XDG_RUNTIME_DIR ?? "/tmp" });
  assert.equal(quiet.status, 0, quiet.stderr);
  assert.equal(quiet.stdout, debug.stdout);
  assert.doesNotMatch(quiet.stderr, /^Warning: /m);
  // (lavapipe's Dawn says "… artificially reduced …"; other drivers may say nothing.)
  if (quiet.stdout === "opened\n" && /artificially reduced/.test(debug.stderr)) assert.equal(quiet.stderr, "");
});
