// The browser build and the example page, in headless Chromium (Debian's chromium package,
// driven by playwright-core): the page compiles the kernel in its text box to WGSL and runs it
// on the CPU device, and on WebGPU when Chromium's WebGPU works here; gpuc/runtime in a page runs
// a package's unsigned image, whose entries its code check passes.

import { test, before, after, type TestContext } from "node:test";
import assert from "node:assert/strict";
import { createServer, type Server } from "node:http";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { spawnSync } from "node:child_process";
import { tmpdir } from "node:os";
import { extname, join, normalize } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium, type Browser } from "playwright-core";

const root = fileURLToPath(new URL("..", import.meta.url));
const CHROMIUM = "/usr/bin/chromium";
const required = (process.env.GPUC_REQUIRE_DEVICES ?? "").split(",").includes("browser");
const missing = !existsSync(CHROMIUM) ? `SKIPPED: no ${CHROMIUM} (apt-get install chromium)` : !existsSync(join(root, "dist/gpuc.browser.js")) ? "SKIPPED: no dist/gpuc.browser.js (npm run build)" : null;
if (missing && required) throw new Error(`the browser test is required (GPUC_REQUIRE_DEVICES) but ${missing}`);

const TYPES: Record<string, string> = { ".html": "text/html", ".js": "text/javascript", ".mjs": "text/javascript", ".map": "application/json" };
let server: Server, browser: Browser, base = "";
/** Files a test serves under /mem/ (made in the test, not in the repository). */
const served = new Map<string, { type: string; body: Buffer | string }>();

before(async () => {
  if (missing) return;
  server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://x");
    const mem = served.get(url.pathname);
    if (mem) { res.writeHead(200, { "content-type": mem.type }).end(mem.body); return; }
    const path = normalize(join(root, decodeURIComponent(url.pathname)));
    if (!path.startsWith(root) || !existsSync(path)) { res.writeHead(404).end(); return; }
    res.writeHead(200, { "content-type": TYPES[extname(path)] ?? "application/octet-stream" }).end(readFileSync(path));
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ["--no-sandbox", "--enable-unsafe-webgpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"],
  });
});

after(async () => {
  await browser?.close();
  server?.close();
});

async function runPage(query: string): Promise<{ title: string; status: string; result: string; wgsl: string; device: string }> {
  const page = await browser.newPage();
  await page.goto(`${base}/examples/browser/index.html?autorun&${query}`);
  await page.waitForFunction(() => document.title.startsWith("done") || document.title === "error", undefined, { timeout: 60_000 });
  const text = (id: string) => page.$eval(`#${id}`, (e) => e.textContent ?? "");
  const out = { title: await page.title(), status: await text("status"), result: await text("result"), wgsl: await text("wgsl"), device: await text("device") };
  await page.close();
  return out;
}

const EXPECTED = Array.from({ length: 8 }, (_, i) => (2.5 * i + 1).toFixed(2)).join(", ");

test("the page compiles the kernel to WGSL and runs it on the CPU device", { skip: missing ?? false }, async () => {
  const r = await runPage("device=cpu");
  assert.equal(r.title, "done: cpu", r.status);
  assert.equal(r.result, EXPECTED);
  assert.match(r.wgsl, /@compute @workgroup_size\(wgx, wgy, wgz\)/);
});

/**
 * Whether Chromium has a WebGPU adapter here. Required (CI's GPUC_REQUIRE_DEVICES has "browser"):
 * a missing adapter fails the test instead of skipping it; otherwise the test says it skipped.
 */
async function chromiumAdapter(t: TestContext): Promise<boolean> {
  const page = await browser.newPage();
  await page.goto(`${base}/examples/browser/index.html`);
  const adapter = await page.evaluate(async () => !!(navigator.gpu && (await navigator.gpu.requestAdapter())));
  await page.close();
  if (!adapter && required) assert.fail("the browser test is required (GPUC_REQUIRE_DEVICES) but Chromium has no WebGPU adapter here");
  if (!adapter) t.skip("SKIPPED: Chromium has no WebGPU adapter on this machine");
  return adapter;
}

test("the page runs the kernel on Chromium's WebGPU", { skip: missing ?? false }, async (t) => {
  if (!(await chromiumAdapter(t))) return;
  const r = await runPage("");
  assert.equal(r.title, "done: webgpu", r.status);
  assert.equal(r.result, EXPECTED);
});

// WGSL's exception record is two texels of a storage texture (targets/wgsl/emit.ts, RECORD), which
// the device copies out beside the state's header: Chromium's WebGPU binds and reads it as Dawn's does.
test("a bounds error on Chromium's WebGPU shows as a KernelError with the failing thread and block", { skip: missing ?? false }, async (t) => {
  if (!(await chromiumAdapter(t))) return;
  const page = await browser.newPage();
  await page.goto(`${base}/examples/browser/index.html`);
  // Element 700 (thread 188 of block 2) reads x[1700]: the page's arrays hold 1,024 floats.
  await page.fill("#source", "function oob(a, x, y) { const i = blockIdx.x * blockDim.x + threadIdx.x; y[i] = a * x[i === 700 ? 1700 : i]; }");
  await page.click("#run");
  await page.waitForFunction(() => document.title === "error" || document.title.startsWith("done"), undefined, { timeout: 60_000 });
  const status = await page.$eval("#status", (e) => e.textContent ?? "");
  const used = await page.$eval("#device", (e) => e.textContent ?? "");
  await page.close();
  assert.match(used, /WebGPU/);
  assert.match(status, /^KernelError: oob:1:\d+: index 1700 out of bounds for array 'x' of length 1024 \(thread \(188, 0, 0\) of block \(2, 0, 0\) in kernel 'oob'\)$/);
});

test("a compile error shows as a CompileError on the page", { skip: missing ?? false }, async () => {
  const page = await browser.newPage();
  await page.goto(`${base}/examples/browser/index.html`);
  await page.fill("#source", "function bad(a, x, y) { y[0] = nothingHere; }");
  await page.click("#run");
  await page.waitForFunction(() => document.title === "error" || document.title.startsWith("done"), undefined, { timeout: 60_000 });
  const status = await page.$eval("#status", (e) => e.textContent ?? "");
  await page.close();
  assert.match(status, /^CompileError: bad:1:32: use of undefined name 'nothingHere'/);
});

// A package's unsigned image (gpuc precompile), loaded by gpuc/runtime in a page: its entries
// are checked on first use (the schemas, and the code check, which loads with the image: its
// JavaScript parsed by acorn as a script, as `new Function` takes it), pass, and run on the CPU
// device.
test("gpuc/runtime in a page runs a package's unsigned image on the CPU device: its JavaScript passes the code check", { skip: missing ?? false }, async () => {
  const dir = mkdtempSync(join(tmpdir(), "gpuc-browser-image-"));
  try {
    const image = join(dir, "kernels.gpuc");
    const p = spawnSync(process.execPath, [join(root, "dist/cli/main.js"), "precompile", join(root, "test/fixtures/cache/workload.mjs"), "-o", image], { cwd: root, encoding: "utf8", env: { ...process.env, GPUC_CACHE: "0" } });
    assert.equal(p.status, 0, p.stderr);
    served.set("/mem/kernels.gpuc", { type: "application/octet-stream", body: readFileSync(image) });
    // (The fixture's kernels import the entry process.env names: the page gives it one.)
    served.set("/mem/unsigned.html", { type: "text/html", body: `<!doctype html><title>loading</title><script type="module">
      globalThis.process = { env: { GPUC_FIXTURE_ENTRY: "/dist/runtime-browser/gpuc.runtime.browser.js" } };
      const g = await import("/dist/runtime-browser/gpuc.runtime.browser.js");
      try {
        const report = await g.loadImage(new URL("/mem/kernels.gpuc", location.href));
        const { axpy, weigh } = await import("/test/fixtures/cache/kernels.mjs");
        const dev = await g.device("cpu");
        const x = new Float32Array([1, 2, 3, 4]), y = new Float32Array([1, 1, 1, 1]), o = new Float32Array(4);
        await axpy.launch(dev, { blocks: 1, threads: 4 }, 2, x, y);
        await weigh.launch(dev, { blocks: 1, threads: 4 }, o, x);
        document.title = "done " + JSON.stringify({ signed: report.signed, pinned: report.pinned, js: report.loaded.filter((e) => e.target === "js").map((e) => e.kernel).sort(), skipped: report.skipped, y: [...y], o: [...o] });
      } catch (e) { document.title = "error " + e.name + ": " + e.message; }
    </script>` });
    const page = await browser.newPage();
    await page.goto(`${base}/mem/unsigned.html`);
    await page.waitForFunction(() => document.title.startsWith("done") || document.title.startsWith("error"), undefined, { timeout: 60_000 });
    const title = await page.title();
    await page.close();
    assert.match(title, /^done /, title);
    assert.deepEqual(JSON.parse(title.slice(5)), { signed: false, pinned: false, js: ["axpy", "weigh"], skipped: [], y: [3, 5, 7, 9], o: [1, 8, -6, 32] });
  } finally {
    served.clear();
    rmSync(dir, { recursive: true, force: true });
  }
});
