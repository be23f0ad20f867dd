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
import { readFileSync, readdirSync, rmSync, renameSync, mkdirSync, existsSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const dist = join(root, "dist");

/**
 * What loads gpuc's built modules: the package entry, the runtime-only entry, the bundler plugin, the CLI, the lazily loaded compiler, the
 * lazily loaded check of code read back (tests observe by their paths that a warm start loads
 * neither), and the modules scripts and test fixtures import directly.
 */
export const ENTRIES = [
  "index.js", "runtime-only.js", "plugin/index.js", "cli/main.js", "compiler/compile.js", "cache/code-check.js",
  "build-id.js", "runtime/functions.js", "reloc/manifest.js", "targets/ptx/ptxas.js",
  "cache/schema.js", "cache/image-file.js", "cache/disk.js", "cache/entry.js", "sha256.js",
];

const out = join(root, ".bundle-tmp");
rmSync(out, { recursive: true, force: true });
await build({
  entryPoints: ENTRIES.map((e) => join(dist, e)),
  outdir: out,
  outbase: dist,
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20",
  // Packages stay imports (native bindings, optional devices, the CLI's progress bar and tsx);
  // valibot is bundled, tree-shaken to what the cache's schema uses.
  packages: "external",
  plugins: [{ name: "bundle-valibot", setup(b) { b.onResolve({ filter: /^valibot$/ }, () => ({ path: fileURLToPath(import.meta.resolve("valibot")) })); } }],
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
