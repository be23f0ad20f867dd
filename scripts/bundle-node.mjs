// Inlines the schema library into dist/cache/schema.js (esbuild, tree-shaken: ~20 KB instead of
// valibot's whole 200 KB module), so that the first entry a warm start reads back costs a small
// module load, not valibot's. gpuc's own modules stay separate imports.
import { build } from "esbuild";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const file = `${root}dist/cache/schema.js`;
const ownModulesExternal = { name: "own-modules-external", setup(b) { b.onResolve({ filter: /^\.\.?\// }, (a) => (a.kind === "entry-point" ? null : { path: a.path, external: true })); } };
await build({ entryPoints: [file], outfile: file, allowOverwrite: true, bundle: true, format: "esm", platform: "node", target: "node20", plugins: [ownModulesExternal], logLevel: "warning" });
