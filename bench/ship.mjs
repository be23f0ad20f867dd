// Shipping kernels (BENCHMARKS.md §n): bundle sizes of gpuc/runtime and of all of gpuc, minified,
// for the browser and for Node, and the example app's time to its first kernel result — built with
// the plugin (gpuc/runtime, the kernels from the image) against the same app importing gpuc with
// no plugin (the kernels compiled at run time). `npm run build && node bench/ship.mjs [runs] [--modules]`
// (--modules: also the page by gpuc's source modules, then stop).
import { build } from "esbuild";
import { gzipSync } from "node:zlib";
import { execSync, spawnSync } from "node:child_process";
import { createServer } from "node:http";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { extname, join, normalize } from "node:path";
import { fileURLToPath } from "node:url";
import { buildApp } from "../examples/app/build.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));
const runs = Number(process.argv.slice(2).find((a) => !a.startsWith("--")) ?? 7);
const out = join(root, ".exp/ship");
rmSync(out, { recursive: true, force: true });
const NATIVE = ["webgpu", "koffi", "oxc-parser"];

/** Bytes an entry loads before it runs (itself and its static imports), and with what loads lazily; gzipped too. */
function sizes(metafile, entryFile) {
  const outputs = metafile.outputs;
  const js = Object.keys(outputs).filter((o) => o.endsWith(".js"));
  // (A dynamic import's chunk has an entryPoint too: the entry is the one of the given file.)
  const entry = js.find((o) => outputs[o].entryPoint?.endsWith(entryFile));
  const eager = new Set();
  const visit = (o) => { if (eager.has(o)) return; eager.add(o); for (const i of outputs[o].imports) if (i.kind === "import-statement" && outputs[i.path]) visit(i.path); };
  visit(entry);
  const bytes = (list) => list.reduce((n, o) => n + readFileSync(join(root, o)).length, 0);
  const gz = (list) => list.reduce((n, o) => n + gzipSync(readFileSync(join(root, o))).length, 0);
  return { start: bytes([...eager]), startGzip: gz([...eager]), all: bytes(js), allGzip: gz(js) };
}

async function bundle(name, entry, platform, extra = {}) {
  const r = await build({
    entryPoints: [entry], outdir: join(out, name), bundle: true, splitting: true, format: "esm", platform, target: "es2022",
    minify: true, metafile: true, logLevel: "error", absWorkingDir: root, ...(platform === "node" ? { external: NATIVE } : {}), ...extra,
  });
  return sizes(r.metafile, entry.split("/").pop());
}

// An entry that uses what an app uses: kernel, device, loadImage.
const use = (spec) => `import { kernel, device, loadImage } from "${spec}"; globalThis.k = [kernel, device, loadImage];`;
mkdirSync(out, { recursive: true });
writeFileSync(join(out, "runtime.mjs"), use("gpuc/runtime"));
writeFileSync(join(out, "full.mjs"), use("gpuc"));
const rows = [
  ["gpuc/runtime, browser", await bundle("rb", join(out, "runtime.mjs"), "browser")],
  ["gpuc, browser", await bundle("fb", join(out, "full.mjs"), "browser")],
  ["gpuc/runtime, Node", await bundle("rn", join(out, "runtime.mjs"), "node")],
  ["gpuc, Node", await bundle("fn", join(out, "full.mjs"), "node")],
];
const app = await buildApp(join(out, "app"), { minify: true });
rows.push(["example app page (gpuc/runtime + plugin; one file)", sizes(app.web, "main.ts")], ["example app Node script (gpuc/runtime + plugin)", sizes(app.node, "node.ts")]);
const kib = (n) => (n / 1024).toFixed(1);
console.log("| bundle (esbuild, minified, ESM, code split) | at start | gzip | with what loads lazily | gzip |\n|---|---:|---:|---:|---:|");
for (const [name, s] of rows) console.log(`| ${name} | ${kib(s.start)} KiB | ${kib(s.startGzip)} KiB | ${kib(s.all)} KiB | ${kib(s.allGzip)} KiB |`);
// #36's goals, in bytes: the page's one file, and the Node output in all its chunks.
const [pageSize, nodeSize] = [rows.at(-2)[1].all, rows.at(-1)[1].all];
console.log(`\nthe example app as shipped: the page ${pageSize.toLocaleString("en")} bytes (goal ≤ 80,000: ${(pageSize / 80000).toFixed(2)}×), the Node output ${nodeSize.toLocaleString("en")} bytes in all its chunks (goal ≤ 100,000: ${(nodeSize / 100000).toFixed(2)}×)`);
const image = readFileSync(join(out, "app/web/kernels.gpuc")).length;
console.log(`\nthe page's image (4 kernels, wgsl + js): ${kib(image)} KiB, ${kib(gzipSync(readFileSync(join(out, "app/web/kernels.gpuc"))).length)} KiB gzip`);

// --modules: the page by gpuc's source modules (BENCHMARKS §n), from the page built as the
// plugin builds it but from gpuc's sources (the runtime's browser build's stand-ins and aliases:
// scripts/build-browser.mjs; the checks and the sanitizer left out as gpuc/plugin leaves them) —
// within a few hundred bytes of the page built from dist/, whose minified chunks say nothing of
// their sources.
if (process.argv.includes("--modules")) {
  const { runtimeBuildOptions } = await import("../scripts/build-browser.mjs");
  const gpuc = (await import("gpuc/plugin")).default;
  const o = runtimeBuildOptions();
  const fromSources = { name: "gpuc-from-sources", setup(b) {
    b.onResolve({ filter: /^gpuc\/runtime$/ }, () => ({ path: join(root, "src/runtime-only.ts") }));
    b.onResolve({ filter: /^\.\/checks\.js$/ }, (a) => (a.resolveDir === join(root, "src/cache") ? { path: join(root, "src/cache/no-checks.ts") } : null));
    b.onResolve({ filter: /^\.\/cpu-sanitizer\.js$/ }, () => ({ path: "cpu-sanitizer", namespace: "left-out" }));
    b.onLoad({ filter: /.*/, namespace: "left-out" }, () => ({ contents: "export function openSanitizer() { return \"left out\"; }" }));
  } };
  const r = await build({
    entryPoints: [join(root, "examples/app/main.ts")], outdir: join(out, "modules"), write: false, bundle: true, splitting: false, format: "esm", platform: "browser",
    target: "es2022", minify: true, metafile: true, logLevel: "error", alias: o.alias, define: o.define, plugins: [gpuc.esbuild({ targets: ["wgsl", "js"] }), fromSources, ...o.plugins],
  });
  const page = Object.values(r.metafile.outputs).find((x) => x.entryPoint);
  console.log(`\nthe page built from gpuc's sources (${page.bytes.toLocaleString("en")} bytes; from dist/: ${pageSize.toLocaleString("en")}) by module, the largest first:`);
  for (const [src, x] of Object.entries(page.inputs).sort((a, b) => b[1].bytesInOutput - a[1].bytesInOutput).slice(0, 30)) console.log(`${String(x.bytesInOutput).padStart(7)}  ${src}`);
  process.exit(0);
}

// The same app without the plugin, importing gpuc: its kernels compile at run time. Not minified:
// gpuc cannot compile what esbuild's minifier makes of the kernels (a \`let\` it moves: "variable
// 'n' is used before any value is assigned to it"), and renamed parameters no longer match the
// types option's names.
const compiled = join(out, "app-compiled");
for (const [side, entry, platform] of [["node", "node.ts", "node"], ["web", "main.ts", "browser"]]) {
  await build({
    entryPoints: [join(root, "examples/app", entry)], outdir: join(compiled, side), bundle: true, splitting: platform === "node", format: "esm", platform, target: "es2022",
    minify: false, logLevel: "error", alias: { "gpuc/runtime": "gpuc" }, ...(platform === "node" ? { external: NATIVE } : {}),
  });
}
const pageHtml = readFileSync(join(root, "examples/app/index.html"), "utf8").replace("./main.ts", "./main.js");
writeFileSync(join(compiled, "web/index.html"), pageHtml);
// The page with the plugin, code split as gpuc's own browser runtime is (each lazy chunk a fetch).
const split = join(out, "app-split");
await build({
  entryPoints: [join(root, "examples/app/main.ts")], outdir: join(split, "web"), bundle: true, splitting: true, format: "esm", platform: "browser", target: "es2022",
  minify: true, logLevel: "error", plugins: [(await import("gpuc/plugin")).default.esbuild({ targets: ["wgsl", "js"] })],
});
writeFileSync(join(split, "web/index.html"), pageHtml);

const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor(s.length / 2)]; };
const variants = [["image (gpuc/runtime + plugin)", join(out, "app")], ["compile at run time (gpuc, no plugin)", compiled]];

console.log(`\nNode, CPU device, a new process each (GPUC_CACHE=0; median of ${runs}, interleaved): ms from the process's start`);
const node = variants.map(() => ({ first: [], wall: [] }));
for (let i = 0; i < runs; i++) {
  variants.forEach(([, dir], v) => {
    const t0 = performance.now();
    const r = spawnSync(process.execPath, [join(dir, "node/node.js")], { cwd: root, encoding: "utf8", env: { ...process.env, GPUC_CACHE: "0" } });
    const wall = performance.now() - t0;
    if (r.status !== 0) throw new Error(r.stderr);
    const o = JSON.parse(r.stdout);
    if (!o.results.every((x) => x.ok)) throw new Error(`wrong results: ${r.stdout}`);
    node[v].first.push(o.firstResultMs); node[v].wall.push(wall);
  });
}
console.log("| app | first kernel result | all four kernels, process exit |\n|---|---:|---:|");
variants.forEach(([name], v) => console.log(`| ${name} | ${median(node[v].first).toFixed(1)} | ${median(node[v].wall).toFixed(1)} |`));

// In Chromium: a new browser per run (no shader or compile cache carried over).
const CHROMIUM = "/usr/bin/chromium";
if (existsSync(CHROMIUM)) {
  const { chromium } = await import("playwright-core");
  const server = createServer((req, res) => {
    const path = normalize(join(out, decodeURIComponent(new URL(req.url ?? "/", "http://x").pathname)));
    if (!path.startsWith(out) || !existsSync(path)) { res.writeHead(404).end(); return; }
    res.writeHead(200, { "content-type": extname(path) === ".html" ? "text/html" : extname(path) === ".js" ? "text/javascript" : "application/octet-stream" }).end(readFileSync(path));
  });
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  const base = `http://127.0.0.1:${server.address().port}`;
  const pageRuns = Math.max(3, Math.floor(runs / 2));
  console.log(`\nChromium (headless, --enable-unsafe-webgpu), a new browser each (median of ${pageRuns}, interleaved): ms from navigation start to the device open and to the first kernel result`);
  console.log("| app | webgpu: device open | webgpu: first result | cpu: first result |\n|---|---:|---:|---:|");
  const pages = [variants[0], ["image, code split (chunks fetched as needed)", split], variants[1]];
  const page = pages.map(() => ({ webgpu: [], cpu: [], open: [] }));
  for (let i = 0; i < pageRuns; i++) {
    for (const [v, [, dir]] of pages.entries()) {
      for (const kind of ["webgpu", "cpu"]) {
        const browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox", "--enable-unsafe-webgpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"] });
        const p = await browser.newPage();
        await p.goto(`${base}/${dir.slice(out.length + 1)}/web/index.html?device=${kind}`);
        await p.waitForFunction(() => document.title.startsWith("done") || document.title === "error", undefined, { timeout: 60_000 });
        if ((await p.title()) !== `done: ${kind}`) throw new Error(await p.$eval("#results", (e) => e.textContent));
        page[v][kind].push(Number(await p.$eval("#first", (e) => e.textContent)));
        if (kind === "webgpu") page[v].open.push(Number(await p.$eval("#device", (e) => e.textContent)));
        await browser.close();
      }
    }
  }
  pages.forEach(([name], v) => console.log(`| ${name} | ${median(page[v].open).toFixed(1)} | ${median(page[v].webgpu).toFixed(1)} | ${median(page[v].cpu).toFixed(1)} |`));
  server.close();
}
console.log(`\nat ${execSync("git rev-parse --short HEAD", { cwd: root }).toString().trim()}${execSync("git status --porcelain", { cwd: root }).toString().trim() ? " (with uncommitted changes)" : ""}`);
