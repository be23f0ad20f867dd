// Bundles tsc's dist/ for Node (esbuild, ES modules with code splitting), so that a process loads
// a handful of modules instead of a hundred: Node's ESM loader costs about half a millisecond per
// module (resolution, reading, compiling, linking, often in sequence), which was most of
// `import("gpuc")` and of the first compile (the compiler loads lazily, see specializer.ts).
//
// The entry points below keep their paths in dist/ and are the only files anything loads: every
// module of gpuc lives in exactly one output file (an entry, or a chunk in dist/chunks/ shared by
// the entries that reach it), so each has one instance per process whichever entry imported it
// (class identity for `instanceof CompileError`, interned IR types, registries). A dynamic
// import() becomes its own chunk, so what loads lazily still does (the compiler: entry
// compiler/compile.js; back ends, checks of code read back, devices). tsc's per-module files stay
// beside them (for the .d.ts files and source maps) but no entry imports them: a script that
// imports a dist module must name an entry, which the check at the end enforces.
import { build } from "esbuild";
import { readFileSync, readdirSync, rmSync, renameSync, mkdirSync, existsSync, writeFileSync } from "node:fs";
import { createHash } from "node:crypto";
import { dirname, join, relative } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const dist = join(root, "dist");

/**
 * What loads gpuc's built modules: the package entry, the runtime-only entry, the bundler plugin, the CLI, the lazily loaded compiler, the
 * lazily loaded check of code read back (tests observe by their paths that a warm start loads
 * neither), the checks' seam and its stand-in and the devices' modules (gpuc/plugin resolves
 * cache/checks.js to cache/no-checks.js in an app's bundle, and a device its image has no code for
 * to a stand-in: at fixed paths), and the modules scripts and test fixtures import directly.
 */
export const ENTRIES = [
  "index.js", "runtime-only.js", "plugin/index.js", "cli/main.js", "compiler/compile.js", "cache/compiler-script.js", "cache/code-check.js", "cache/checks.js", "cache/no-checks.js",
  "devices/cpu.js", "devices/webgpu.js", "devices/cuda.js", "devices/amdgpu.js", "devices/opencl.js", "devices/cpu-sanitizer.js",
  "build-id.js", "runtime/functions.js", "reloc/manifest.js", "targets/ptx/ptxas.js",
  "cache/image-file.js", "cache/disk.js", "cache/entry.js", "sha256.js", "ir/launch-proof.js",
];

const out = join(root, ".bundle-tmp");
rmSync(out, { recursive: true, force: true });
const esm = await build({
  metafile: true,
  entryPoints: ENTRIES.map((e) => join(dist, e)),
  outdir: out,
  outbase: dist,
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20",
  // Packages stay imports (native bindings, optional devices, the CLI's progress bar and tsx);
  // valibot is bundled, tree-shaken to what the cache's schema uses, and acorn, the parser of
  // function sources (part of the compiler script, code-cached with it; a build-time dependency).
  packages: "external",
  plugins: [{ name: "bundle-valibot-acorn", setup(b) { b.onResolve({ filter: /^(valibot|acorn)$/ }, (a) => ({ path: fileURLToPath(import.meta.resolve(a.path)) })); } }],
  chunkNames: "chunks/[name]-[hash]",
  sourcemap: true,
  minifyWhitespace: true,
  minifySyntax: true,
  logLevel: "warning",
});
rmSync(join(dist, "chunks"), { recursive: true, force: true });
for (const f of readdirSync(out, { recursive: true }).map(String)) {
  const from = join(out, f);
  if (!f.endsWith(".js") && !f.endsWith(".js.map")) continue;
  mkdirSync(dirname(join(dist, f)), { recursive: true });
  renameSync(from, join(dist, f));
}
rmSync(out, { recursive: true, force: true });

// The compiler as one classic script (dist/compiler/script.cjs), which the package entry loads
// through node:vm with V8's code cache (cache/compiler-script.ts; ARCHITECTURE.md, "gpuc's own
// code cache"): Node 20 caches no compiled ES module code, and a first compile in a new process
// spent most of its time compiling gpuc's own functions. The script is the compiler entry's
// module graph bundled as CommonJS, less every module that something other than the compiler
// reaches (the runtime's modules: its classes, registries and caches exist once per process):
// those stay ES modules, which the script reaches through `require("gpuc:<path in dist>")`, each
// imported by the loader before the script runs. Its first line names them, with the script's
// SHA-256 (what its code cache entries are filed under).
{
  const rel = (o) => relative(out, join(root, o)).split("\\").join("/");
  const outputs = esm.metafile.outputs;
  const byPath = new Map(Object.keys(outputs).filter((o) => o.endsWith(".js")).map((o) => [rel(o), outputs[o]]));
  const COMPILER = "compiler/compile.js";
  // What everything but the compiler reaches, statically or lazily. The CLI and the bundler
  // plugin import the compiler's ES modules and tell the specializer to use them
  // (useLoadedCompiler): a process that loads either never loads the script.
  const ESM_COMPILER = new Set([COMPILER, "cli/main.js", "plugin/index.js"]);
  const runtime = new Set();
  const visit = (p) => {
    if (runtime.has(p) || p === COMPILER) return;
    runtime.add(p);
    for (const i of byPath.get(p)?.imports ?? []) if (!i.external) visit(rel(i.path));
  };
  for (const e of ENTRIES) if (!ESM_COMPILER.has(e)) visit(e);
  const externals = new Set();
  const problems = [];
  const script = await build({
    entryPoints: [join(dist, COMPILER)],
    bundle: true, format: "cjs", platform: "node", target: "node20", write: false, metafile: true,
    minifyWhitespace: true, minifySyntax: true, logLevel: "warning",
    plugins: [{
      name: "runtime-modules-external",
      setup(b) {
        b.onResolve({ filter: /.*/ }, (a) => {
          if (a.kind === "entry-point") return null;
          // (A lazy import of a module bundled into the script becomes a call of its init; one of
          // anything left outside would stay an import(), which a classic script cannot run.)
          const outside = !a.path.startsWith(".");
          const p = outside ? a.path : relative(dist, join(a.resolveDir, a.path)).split("\\").join("/");
          if (!outside && !runtime.has(p)) return null;
          if (a.kind === "dynamic-import") problems.push(`${relative(dist, a.importer)} imports ${p} lazily`);
          if (outside) {
            if (!a.path.startsWith("node:")) problems.push(`${relative(dist, a.importer)} imports the package ${a.path}`);
            return { path: a.path, external: true };
          }
          externals.add(p);
          return { path: `gpuc:${p}`, external: true };
        });
      },
    }],
  });
  const body = script.outputFiles[0].text;
  // ASCII only: V8 then holds it as a one-byte string, which Node reads and V8 hashes without
  // decoding (one character a regular expression literal spelled as itself cost 6 ms a load).
  const wide = /[^\x00-\x7f]/.exec(body);
  if (wide) problems.push(`the script holds the character ${JSON.stringify(wide[0])} (at ${JSON.stringify(body.slice(Math.max(0, wide.index - 40), wide.index + 10))}): spell it with an escape in the source`);
  if (problems.length) {
    console.error(`scripts/bundle-node.mjs: the compiler cannot be one classic script (the compiler's modules may import only gpuc's modules and node: built-ins, none lazily):\n  ${problems.join("\n  ")}`);
    process.exit(1);
  }
  // Its loader finds it by its own URL: its code must stay in its entry's file (esbuild moves an
  // entry's code into a chunk when another module imports it statically).
  if (!readFileSync(join(dist, "cache", "compiler-script.js"), "utf8").includes("import.meta.url")) {
    console.error("scripts/bundle-node.mjs: dist/cache/compiler-script.js is not the loader's own code (a module imports it statically; index.ts must import it lazily)");
    process.exit(1);
  }
  const text = `(function (exports, require, module) {\n${body}\n})\n`;
  const sha = createHash("sha256").update(text).digest("hex");
  const { GPUC_BUILD } = await import(pathToFileURL(join(dist, "build-id.js")).href);
  writeFileSync(join(dist, "compiler", "script.cjs"), `// gpuc compiler script ${GPUC_BUILD} ${sha} ${JSON.stringify([...externals].sort())}\n${text}`);
}

// Every dist module a script, benchmark, example or test fixture imports must be an entry.
const entrySet = new Set(ENTRIES);
const missing = [];
for (const dir of ["scripts", "bench", "test", "examples"]) {
  if (!existsSync(join(root, dir))) continue;
  for (const f of readdirSync(join(root, dir), { recursive: true }).map(String)) {
    if (!/\.(mjs|js|ts|mts)$/.test(f) || f.includes("node_modules")) continue;
    const text = readFileSync(join(root, dir, f), "utf8");
    for (const m of text.matchAll(/dist\/([A-Za-z0-9_/.-]+\.js)\b/g)) {
      const mod = m[1];
      if (!entrySet.has(mod) && !mod.startsWith("chunks/") && mod !== "gpuc.browser.js" && !mod.startsWith("runtime-browser/") && !mod.startsWith("exp-")) missing.push(`${relative(root, join(root, dir, f))} imports dist/${mod}`);
    }
  }
}
if (missing.length) {
  console.error(`scripts/bundle-node.mjs: not an entry of the Node bundle (add it to ENTRIES):\n  ${missing.join("\n  ")}`);
  process.exit(1);
}
