// gpuc's bundler plugin (`gpuc/plugin`), one code base for vite, esbuild, rollup and webpack
// (unplugin): at build time it compiles the kernel() calls of the app's modules for the targets the
// app names (build-kernels.ts), writes each compiled call's id into it (ARCHITECTURE.md, "Kernel
// identity": a minified bundle still finds its kernels), emits the kernel image next to the
// bundle, and makes every module with kernels load it (a virtual module that calls
// loadImage(new URL("./kernels.gpuc", import.meta.url)), under webpack by its public path, which
// a launch waits for: ES module output). A kernel's compile error is a build error at its source location; a kernel the build cannot compile (its types or
// scope known only at run time) is a warning, and compiles at run time. Under vite's dev server
// nothing is compiled ahead: gpuc/runtime is served as gpuc there.

import { mkdirSync, readdirSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { createUnplugin, type UnpluginContext } from "unplugin";
import "../index.js";   // the compiler (the build compiles: provideCompiler)
import { CompileError, unknownOption } from "../errors.js";
import { startGenerating, stopGenerating } from "../cache/image.js";
import { imageSha256, serializeImage } from "../cache/image-file.js";
import { buildModuleKernels, buildTargets } from "./build-kernels.js";
import * as compilerModule from "../compiler/compile.js";
import { useLoadedCompiler } from "../specializer.js";
import { compiling } from "../compiling.js";

// The plugin imports the compiler's ES modules itself (build-kernels.ts): they are the build's
// compiler, not the package entry's compiler script.
useLoadedCompiler(compiling(compilerModule));

export interface GpucPluginOptions {
  /** What to compile for: "wgsl" (WebGPU), "js" (the CPU device), "ptx" or "ptx:sm_80" (CUDA). Default: ["wgsl", "js"]. */
  targets?: string[];
  /** The image's file name, beside the bundle's entry chunks (default "kernels.gpuc"). */
  fileName?: string;
  /**
   * Which modules are searched for kernel() calls (default: .js/.ts/.mjs/.mts/.jsx/.tsx files,
   * those of packages in node_modules included: a library's kernels go into the app's image). A
   * module is searched only if it imports gpuc or gpuc/runtime.
   */
  include?: RegExp;
  /**
   * Keep gpuc's checks of records and code that nothing authenticates (default false). The app's
   * own image is pinned by its bundle and needs none of them, so they are left out — with the
   * parser and schema library they bring — and the app refuses any image neither pinned nor
   * signed, saying why. `true` keeps them, for an app that loads such images itself.
   */
  checks?: boolean;
}

/** An ES module that imports gpuc (gpuc's own modules import each other by path). */
const IMPORTS_GPUC = /\bfrom\s*["']gpuc(?:\/runtime)?["']/;
/** A module that imports gpuc/runtime, and gpuc itself not: its kernels run from images only (KernelOptions.imageOnly). */
const RUNTIME_ONLY = /\bfrom\s*["']gpuc\/runtime["']/;
const FULL_GPUC = /\bfrom\s*["']gpuc["']/;

/**
 * The module every module with compiled kernels imports: it loads the image. (No `virtual:`
 * scheme: webpack takes a scheme for a URL to fetch before any plugin resolves it.)
 */
const IMAGE_MODULE = "gpuc-image.virtual";

/**
 * The image's SHA-256 in the virtual module's loadImage call (its `sha256`: the bundle pins its
 * image, which then needs no check of its records or code). The image is made when the build has
 * compiled every module, after the virtual module was loaded: the call holds this placeholder,
 * of the hash's length, and the plugin writes the hash over it in the output (rollup and vite as
 * they render each chunk, webpack among its assets before it minifies them, esbuild in the files
 * it wrote), so no position moves and source maps stay right. Not hex: left in place by
 * mistake, loadImage refuses it (invalid-option) rather than trusting anything.
 */
const PIN_PLACEHOLDER = "gpuc:the-kernel-image-sha256-is-written-here-once-it-is-made....";   // 64 characters, as the hash
const pinned = (code: string, pin: string): string => code.split(PIN_PLACEHOLDER).join(pin);

/** The plugin's options, checked when the bundler's config makes it: each mistake an invalid-option CompileError. */
function checkPluginOptions(options: unknown): GpucPluginOptions {
  const bad = (what: string) => CompileError.single("invalid-option", `gpuc plugin: ${what}`);
  if (options === null || typeof options !== "object") throw bad(`options must be an object ({ ${PLUGIN_OPTIONS.join(", ")} }), got ${options === null ? "null" : typeof options}`);
  const o = options as GpucPluginOptions;
  const unknown = unknownOption(o, PLUGIN_OPTIONS);
  if (unknown) throw bad(unknown);
  if (o.targets !== undefined && !(Array.isArray(o.targets) && o.targets.length && o.targets.every((t) => typeof t === "string")))
    throw bad(`targets must be a non-empty array of target names (e.g. ["wgsl", "js", "ptx:sm_80"]), got ${JSON.stringify(o.targets) ?? typeof o.targets}`);
  if (o.fileName !== undefined && !(typeof o.fileName === "string" && /^[^/\\]+$/.test(o.fileName) && o.fileName !== "." && o.fileName !== ".."))
    throw bad(`fileName must be a file name (no directories), got ${JSON.stringify(o.fileName) ?? typeof o.fileName}`);
  if (o.include !== undefined && !(o.include instanceof RegExp)) throw bad(`include must be a RegExp, got ${typeof o.include}`);
  if (o.checks !== undefined && typeof o.checks !== "boolean") throw bad(`checks must be true or false, got ${typeof o.checks}`);
  return o;
}

const PLUGIN_OPTIONS = ["targets", "fileName", "include", "checks"];

/**
 * gpuc's checks of unauthenticated records and code, as the runtime's modules import them (the
 * Node build's and the browser build's: scripts/bundle-node.mjs, build-browser.mjs), each with its
 * stand-in beside it (cache/no-checks.js, which refuses what would need them: ARCHITECTURE.md,
 * "Shipping"). A bundle's import of one of these files is resolved to its stand-in.
 */
const DIST = dirname(dirname(fileURLToPath(import.meta.url)));
const realPath = (p: string): string => { try { return realpathSync(p); } catch { return p; } };
const CHECKS = new Map([join(DIST, "cache"), join(DIST, "runtime-browser", "cache")].map((d) => [realPath(join(d, "checks.js")), join(d, "no-checks.js")]));

/**
 * The devices' modules (both builds': entries at fixed paths), each with the targets whose code its
 * device runs. An app's image holds code for the plugin's targets only, so a device that runs none
 * of them could open but run nothing: its module is left out of the bundle (a stand-in says why
 * it does not open). The sanitizer's always is: the image holds no code compiled to be sanitized.
 */
const DEVICE_TARGETS: ReadonlyMap<string, { name: string; targets: readonly string[] }> = new Map([
  ["cpu", { name: "the CPU device", targets: ["js"] }], ["webgpu", { name: "WebGPU", targets: ["wgsl"] }],
  ["cuda", { name: "CUDA", targets: ["ptx"] }], ["amdgpu", { name: "the AMD GPU device", targets: ["llvm"] }],
  ["opencl", { name: "OpenCL", targets: ["opencl", "spirv", "llvm"] }],
  ["cpu-sanitizer", { name: "the CPU device's sanitizer", targets: [] }],
]);
const DEVICE_MODULES = new Map([join(DIST, "devices"), join(DIST, "runtime-browser", "devices")].flatMap((d) => [...DEVICE_TARGETS.keys()].map((k) => [realPath(join(d, `${k}.js`)), k] as const)));

/** A relative import that may name the checks or a device's module (the rest are not looked at). */
const SWAPPABLE = new RegExp(`^\\.\\.?/.*\\b(checks|disk|${[...DEVICE_TARGETS.keys()].join("|")})\\.js$`);

/**
 * The disk cache's module (Node's build; a page's has none), which an app's bundle leaves out: it
 * compiles nothing, and its pinned image's entries need no checked copies kept. Kept where the app
 * keeps the checks (an unpinned image's entries, checked once, are kept there for the next
 * process) or has llvm code (the AMD GPU device keeps the code objects it links there).
 */
const DISK = realPath(join(DIST, "cache", "disk.js"));

/** The stand-in module for a device left out of the bundle, which an app built for `targets` has no code for. */
function leftOutDevice(kind: string, targets: readonly string[]): string {
  const { name, targets: runs } = DEVICE_TARGETS.get(kind)!;
  const built = `gpuc/plugin built this app's image for ${targets.join(", ")}`;
  if (kind === "cpu-sanitizer")
    return `export function openSanitizer() { return ${JSON.stringify(`device("cpu", { sanitize: true }) runs kernels compiled to be sanitized, which this app's image does not hold (${built}): the sanitizer is left out of its bundle; sanitize in development, with gpuc`)}; }\n`;
  const why = `${built}, with no code for ${name} (${runs.length > 1 ? `its targets: ${runs.join(", ")}` : `its target: ${runs[0]}`}), so its bundle leaves ${name === "the CPU device" ? "it" : "the device"} out; add ${runs.length > 1 ? "one of those" : "it"} to the plugin's targets to run kernels there`;
  // (A GPU runtime's failure to open is a reason device() reports with its name; the CPU device's is said as it is.)
  return kind === "cpu"
    ? `export async function openDevice() { return ${JSON.stringify(`the CPU device cannot be opened: ${why}`)}; }\n`
    : `export async function openDevice() { throw new Error(${JSON.stringify(why)}); }\n`;
}

export const gpuc = createUnplugin<GpucPluginOptions | undefined>((given = {}) => {
  const options = checkPluginOptions(given);
  const targets = buildTargets(options.targets ?? ["wgsl", "js"]);
  const fileName = options.fileName ?? "kernels.gpuc";
  const include = options.include ?? /\.[cm]?[jt]sx?$/;
  // The virtual module's id: a file in the project's directory (esbuild resolves its import of
  // gpuc/runtime from there), which no file on disk is.
  const imageModuleId = resolve("gpuc-image.virtual.js");
  /** The stand-ins of devices left out of the bundle: `<prefix><kind>.js`, files no file on disk is (see leftOutDevice). */
  const leftOutPrefix = resolve("gpuc-left-out-device.virtual-");
  /** The stand-in of the disk cache's module (see DISK). */
  const noDiskId = resolve("gpuc-no-disk-cache.virtual.js");
  let esbuildOut: string | null = null;
  /** Vite's directory of chunks (build.assetsDir), where the image goes beside them. */
  let assetsDir = "";
  /** Vite's dev server (nothing compiled ahead: see the vite hooks below). */
  let serving = false;
  /** A webpack (or rspack) build: its bundles find their files through its own runtime (see load). */
  let webpackLike = false;
  /** The image's SHA-256, once it is made (buildEnd). */
  let pin: string | null = null;
  /** A rendered chunk with the pin written over its placeholder (no position moves: the map stays). */
  const pinChunk = (code: string) => (pin !== null && code.includes(PIN_PLACEHOLDER) ? { code: pinned(code, pin), map: null } : null);
  return {
    name: "gpuc",
    // Before the bundler's own TypeScript transform: the kernels' annotations are their types.
    enforce: "pre",
    buildStart() { if (!serving) startGenerating(); },
    transformInclude(id) { return include.test(id) && id !== imageModuleId; },
    async transform(code, id) {
      if (serving) return null;
      if (!IMPORTS_GPUC.test(code) || !/\bkernel\s*\(/.test(code)) return null;
      try {
        const built = await buildModuleKernels(id, code, targets, RUNTIME_ONLY.test(code) && !FULL_GPUC.test(code));
        for (const n of built.notes) this.warn({ id, message: n.message, loc: { file: id, line: n.line, column: n.column - 1 } });
        if (built.code === null) return null;
        // (At the end: imports are hoisted, and the module's lines stay where they were.)
        return { code: `${built.code}\nimport ${JSON.stringify(IMAGE_MODULE)};\n`, map: null };
      } catch (e) {
        if (!(e instanceof CompileError)) throw e;
        reportCompileError(this, e, id);
        return null;
      }
    },
    resolveId(id, importer) {
      if (id === IMAGE_MODULE) return imageModuleId;
      // Under vite's dev server nothing is bundled ahead: all of gpuc is there.
      if (serving || !importer || !SWAPPABLE.test(id)) return null;
      const path = realPath(resolve(dirname(importer), id));
      // gpuc's checks, left out (see CHECKS) unless the app keeps them.
      if (!options.checks && CHECKS.has(path)) return CHECKS.get(path)!;
      if (path === DISK) return options.checks || targets.some((t) => t.target === "llvm") ? null : noDiskId;
      // A device the image has no code for (see DEVICE_TARGETS).
      const device = DEVICE_MODULES.get(path);
      if (device && !DEVICE_TARGETS.get(device)!.targets.some((t) => targets.some((b) => b.target === t))) return `${leftOutPrefix}${device}.js`;
      return null;
    },
    loadInclude(id) { return id === imageModuleId || id === noDiskId || id.startsWith(leftOutPrefix); },
    load(id) {
      if (id === noDiskId) return "export function openDiskCache() { return null; }\n";
      if (id.startsWith(leftOutPrefix)) return leftOutDevice(id.slice(leftOutPrefix.length, -3), targets.map((t) => t.target));
      if (id !== imageModuleId) return null;
      // Not awaited: the image loads while the program goes on (opens its device); a launch waits
      // for it, and a kernel then missing from the images says why the image did not load. (The name through a variable: vite would look for the file at build time, before
      // it is written.)
      // Webpack replaces import.meta.url with the source module's path at build time, and takes
      // new URL(…, import.meta.url) for an asset of its own to resolve then: a bundle of its
      // finds the image as it finds its assets, by its public path (output.publicPath; "auto":
      // where the bundle is) against its base URI.
      const url = webpackLike ? `new URL(__webpack_public_path__ + image, __webpack_base_uri__)` : "new URL(image, import.meta.url)";
      return `import { loadImage } from "gpuc/runtime";\nconst image = ${JSON.stringify(webpackLike ? fileName : `./${fileName}`)};\nloadImage(${url}, { sha256: ${JSON.stringify(PIN_PLACEHOLDER)} });\n`;
    },
    buildEnd() {
      if (serving) return;
      const source = serializeImage(stopGenerating());
      pin = imageSha256(source);
      // esbuild: next to the bundle (its outdir, or its outfile's directory), written here with the
      // pin written into the files it wrote; the others take it as an asset of the build.
      if (esbuildOut !== null) {
        mkdirSync(esbuildOut, { recursive: true });
        writeFileSync(join(esbuildOut, fileName), source);
        pinFiles(esbuildOut, pin);
        return;
      }
      this.emitFile({ type: "asset", fileName: assetsDir ? `${assetsDir}/${fileName}` : fileName, source });
      // webpack (and rspack) run this among the assets' processing, before minifying them.
      const native = this.getNativeBuildContext?.();
      if (native && (native.framework === "webpack" || native.framework === "rspack") && native.compilation) {
        const compilation = native.compilation as { getAssets(): { name: string; source: { source(): string | Buffer } }[]; updateAsset(name: string, source: unknown): void };
        const { RawSource } = (native.compiler as { webpack: { sources: { RawSource: new (code: string) => unknown } } }).webpack.sources;
        for (const a of compilation.getAssets()) {
          if (!/\.[cm]?js$/.test(a.name)) continue;
          const code = String(a.source.source());
          if (code.includes(PIN_PLACEHOLDER)) compilation.updateAsset(a.name, new RawSource(pinned(code, pin)));
        }
      }
    },
    webpack() { webpackLike = true; },
    rspack() { webpackLike = true; },
    esbuild: {
      config(o) { esbuildOut = o.outdir ? resolve(o.outdir) : o.outfile ? dirname(resolve(o.outfile)) : null; },
    },
    rollup: { renderChunk: pinChunk },
    vite: {
      // Vite's dev server compiles nothing ahead: there gpuc/runtime is gpuc, whose kernels compile
      // in the page, so that the app's import stays the same in development and in its build.
      config(_config: unknown, env: { command: string }) {
        if (env.command === "serve") return { resolve: { alias: [{ find: /^gpuc\/runtime$/, replacement: "gpuc" }] } };
      },
      configResolved(config: { command: string; build: { assetsDir: string } }) { serving = config.command === "serve"; assetsDir = config.build.assetsDir; },
      renderChunk: pinChunk,
    },
  };
});

/** The pin written over its placeholder in the JavaScript files esbuild wrote under `dir`. */
function pinFiles(dir: string, pin: string): void {
  for (const f of readdirSync(dir, { recursive: true }).map(String)) {
    if (!/\.[cm]?js$/.test(f)) continue;
    const path = join(dir, f);
    const code = readFileSync(path, "utf8");
    if (code.includes(PIN_PLACEHOLDER)) writeFileSync(path, pinned(code, pin));
  }
}

/** Each problem of a kernel's compile error, as a build error at its source location. */
function reportCompileError(ctx: UnpluginContext, e: CompileError, id: string): void {
  for (const d of e.diagnostics) {
    const loc = d.location ? { file: d.location.file, line: d.location.line, column: d.location.column - 1 } : undefined;
    const frames = d.frames.slice(1).map((f) => `\n    called from '${f.function}'${f.location ? ` at ${f.location.file}:${f.location.line}:${f.location.column}` : ""}`).join("");
    ctx.error({ id, message: `${d.message}${frames}${d.hint ? `\n    hint: ${d.hint}` : ""} [gpuc ${d.kind}]`, loc });
  }
}

export const vite = gpuc.vite;
export const esbuild = gpuc.esbuild;
export const rollup = gpuc.rollup;
export const webpack = gpuc.webpack;
export default gpuc;
