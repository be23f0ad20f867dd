// gpuc's layers, enforced (ARCHITECTURE.md, "Layers"): a module imports only modules of its own
// layer or of the layers below it — type-only and dynamic imports included — and no file of src/
// is outside a layer. Run by `npm test` (`npm run deps`).
//
// From the top: the bundler plugin (gpuc/plugin: it compiles the kernels the CLI's file reader finds); the CLI; the public entry; the kernel object (specializer: caches, compiler,
// devices); the devices (loaders and launchers of artifacts); the caches (stores of artifacts);
// the compiler (the compile job, the pipeline); the targets (IR to code); inference (untyped to
// typed IR, linking the runtime library); the front end (source to untyped IR); the runtime
// library (device functions as data, the kernel state's layout, its host-side decoding); the
// relocation manifests; the IR (its types, ops, passes); and the base (errors, the registry of
// overlays and the world, typed arrays, hashes, version). platform/ holds the browser build's
// stand-ins (swapped in by scripts/build-browser.mjs), which no module imports.

const { readdirSync } = require("node:fs");
const { join, relative } = require("node:path");

const LAYERS = [
  ["plugin", "^src/plugin/"],
  ["cli", "^src/cli/"],
  ["api", "^src/(index|runtime-only)\\.ts$"],
  ["kernel", "^src/(kernel|compile-options|argument-errors|overlay|specializer|compiling|captured-tables|struct-arrays|object-arguments|launch-variant)\\.ts$"],
  ["devices", "^src/devices/"],
  ["cache", "^src/cache/"],
  ["compiler", "^src/compiler/"],
  ["targets", "^src/targets/"],
  ["infer", "^src/infer/"],
  ["frontend", "^src/frontend/"],
  ["runtime", "^src/runtime/"],
  ["reloc", "^src/reloc/"],
  ["ir", "^src/ir/"],
  ["base", "^src/(errors|version|build-id|js-reserved|typed-arrays|registry|intrinsics|sha256)\\.ts$"],
  ["platform", "^src/platform/"],
];

// Every source file is on a layer: a new file directly in src/ must be placed in the list above.
const walk = (dir) => readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(join(dir, e.name)) : [join(dir, e.name)]));
const outside = walk(join(__dirname, "src"))
  .map((f) => relative(__dirname, f).split("\\").join("/"))
  .filter((f) => /\.ts$/.test(f) && !f.endsWith(".d.ts") && !LAYERS.some(([, re]) => new RegExp(re).test(f)));
if (outside.length) throw new Error(`.dependency-cruiser.cjs: on no layer: ${outside.join(", ")} (add each to a layer)`);

const layerRules = LAYERS.slice(1).map(([name, path], i) => ({
  name: `layer-${name}`,
  comment: `the ${name} layer imports only itself and the layers below it (${LAYERS.slice(i + 2).map(([n]) => n).join(", ") || "none"})`,
  severity: "error",
  from: { path },
  to: { path: LAYERS.slice(0, i + 1).map(([, p]) => p) },
}));

module.exports = {
  forbidden: [
    ...layerRules,
    {
      name: "no-circular",
      comment: "no import cycles between files (a cycle is a layer inside a layer that does not point one way)",
      severity: "error",
      from: { path: "^src/" },
      to: { circular: true },
    },
    {
      name: "targets-apart",
      comment: "a target's folder does not import another target's folder (softmath/, the software Math some targets overlay, is no target)",
      severity: "error",
      from: { path: "^src/targets/([^/]+)/" },
      to: { path: "^src/targets/[^/]+/", pathNot: "^src/targets/($1|softmath)/" },
    },
    {
      name: "targets-shared",
      comment: "the targets' shared files do not import a target's folder; only the registry (targets/index.ts) lists them",
      severity: "error",
      from: { path: "^src/targets/[^/]+\\.ts$", pathNot: "^src/targets/index\\.ts$" },
      to: { path: "^src/targets/[^/]+/" },
    },
    {
      name: "emission-on-the-ir",
      comment: "a back end's emission sees the IR alone: its files (all but info.ts, target.ts, read-back.ts and the software Math overlays of softmath/) import the IR, the base, relocation strategies, the targets' shared emission helpers and the kernel state's layout (runtime/state.ts: data, which WGSL's exception record is written by), never inference, the front end, the runtime library's functions, the caches or the devices",
      severity: "error",
      from: { path: "^src/targets/[^/]+/", pathNot: "^src/targets/softmath/|^src/targets/[^/]+/(info|target|read-back)\\.ts$" },
      to: { path: "^src/(infer|frontend|runtime|cache|devices|compiler|plugin|cli)/|^src/(kernel|specializer|captured-tables|struct-arrays|object-arguments|launch-variant|compile-options|argument-errors|overlay|index|runtime-only)\\.ts$", pathNot: "^src/runtime/state\\.ts$" },
    },
    {
      name: "platform-unimported",
      comment: "platform/ holds the browser build's stand-ins, swapped in by the bundler: no module imports them",
      severity: "error",
      from: { path: "^src/" },
      to: { path: "^src/platform/" },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "\\.d\\.ts$" },
    parser: "swc",
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
  },
};
