// The package as a user gets it (issue #19, item 5): `npm pack` of this checkout (built first:
// `npm run build`), unpacked into fresh projects — ES module, CommonJS, tsx, and strict tsc
// (`strict`, `noUncheckedIndexedAccess`, only @types/node: no DOM library, no skipLibCheck) — each
// running the README's first example ("A first kernel", taken from README.md itself).
//
// The tarball is unpacked into node_modules/gpuc as `npm install` would put it; its dependencies
// (and tsx, typescript, @types/node) are linked from this checkout's node_modules, so the test
// needs no registry and takes seconds. `node scripts/pack-test.mjs [--keep]`; exit code 1 when a
// configuration fails. Run by test/pack.test.ts.

import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const keep = process.argv.includes("--keep");
const work = mkdtempSync(join(tmpdir(), "gpuc-pack-"));

/** The README's first example, as written there. */
const readme = readFileSync(join(root, "README.md"), "utf8");
const example = /## A first kernel\n+```ts\n([\s\S]*?)\n```/.exec(readme)?.[1];
if (!example) throw new Error("README.md: no ```ts block under '## A first kernel'");

const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
execFileSync("npm", ["pack", "--ignore-scripts", "--silent", "--pack-destination", work], { cwd: root, stdio: ["ignore", "ignore", "inherit"] });
const tarball = join(work, `${pkg.name}-${pkg.version}.tgz`);

/** A fresh project: package.json, gpuc unpacked from the tarball, its dependencies and the tools linked. */
function project(name, packageJson, files) {
  const dir = join(work, name);
  mkdirSync(join(dir, "node_modules/gpuc"), { recursive: true });
  mkdirSync(join(dir, "node_modules/@types"), { recursive: true });
  execFileSync("tar", ["-xzf", tarball, "-C", join(dir, "node_modules/gpuc"), "--strip-components=1"]);
  for (const dep of [...Object.keys(pkg.dependencies ?? {}), "tsx", "typescript", "@types/node"])
    symlinkSync(join(root, "node_modules", dep), join(dir, "node_modules", dep), "dir");
  writeFileSync(join(dir, "package.json"), JSON.stringify({ name, private: true, ...packageJson }, null, 2));
  for (const [file, text] of Object.entries(files)) writeFileSync(join(dir, file), text);
  return dir;
}

/** The example with its types stripped (esbuild, as any JavaScript user would have written it). */
const js = execFileSync(join(root, "node_modules/.bin/esbuild"), ["--loader=ts", "--format=esm", "--log-level=warning"], { input: example, encoding: "utf8" });
/** …and as CommonJS: the import as import(), the top-level awaits inside an async function. */
const cjs = `"use strict";\n(async () => {\n${js.replace(/^import (\{[^}]*\}) from "gpuc";$/m, (_, names) => `const ${names} = await import("gpuc");`)}\n})().catch((e) => { console.error(e); process.exit(1); });\n`;
if (!cjs.includes(`await import("gpuc")`)) throw new Error("the README example's import of gpuc was not found");

const strictTsconfig = (extra = {}) => JSON.stringify({
  compilerOptions: {
    strict: true, exactOptionalPropertyTypes: true, skipLibCheck: false, ...extra,
    module: "nodenext", moduleResolution: "nodenext", target: "es2022", lib: ["es2022"], types: ["node"], outDir: "out",
  },
  files: ["app.ts"],
}, null, 2);
/**
 * Under noUncheckedIndexedAccess every read of a typed array is `number | undefined` (no type can
 * say otherwise: the option applies to every index signature), so a kernel reads `x[i]!`, as the
 * README says: the example with its reads written so.
 */
const unchecked = example.replace(/\b([xy])\[i\](?!\s*=(?!=))/g, "$1[i]!");
if (!unchecked.includes("x[i]!")) throw new Error("the README example reads no x[i]");

const node = process.execPath;
const configs = [
  { name: "esm", dir: () => project("esm", { type: "module" }, { "app.js": js }), steps: [[node, "app.js"]] },
  {
    name: "commonjs",
    dir: () => project("commonjs", {}, {
      "app.js": cjs,
      // require("gpuc") itself: the module where this Node can require() ES modules, else the error that says to use import().
      "require.js": `try { const g = require("gpuc"); console.log(typeof g.kernel); } catch (e) { console.log(e.code + ": " + e.message); }\n`,
    }),
    steps: [[node, "app.js"], [node, "require.js"]],
  },
  { name: "tsx", dir: () => project("tsx", { type: "module" }, { "app.ts": example }), steps: [[node, "--import", "tsx", "app.ts"]] },
  {
    name: "strict-tsc",
    dir: () => project("strict-tsc", { type: "module" }, { "app.ts": example, "tsconfig.json": strictTsconfig() }),
    steps: [[node, join(root, "node_modules/typescript/bin/tsc"), "-p", "."], [node, "out/app.js"]],
  },
  {
    name: "strict-tsc-noUncheckedIndexedAccess",
    dir: () => project("strict-tsc-unchecked", { type: "module" }, { "app.ts": unchecked, "tsconfig.json": strictTsconfig({ noUncheckedIndexedAccess: true }) }),
    steps: [[node, join(root, "node_modules/typescript/bin/tsc"), "-p", "."], [node, "out/app.js"]],
  },
];

let failed = 0;
const results = [];
for (const c of configs) {
  const dir = c.dir();
  const outputs = [];
  let ok = true;
  for (const [cmd, ...args] of c.steps) {
    const r = spawnSync(cmd, args, { cwd: dir, encoding: "utf8", env: { ...process.env, GPUC_CACHE: "0" } });
    outputs.push({ command: [cmd === node ? "node" : cmd, ...args].join(" "), status: r.status, stdout: r.stdout, stderr: r.stderr });
    if (r.status !== 0) { ok = false; break; }
  }
  if (!ok) failed++;
  results.push({ config: c.name, ok, outputs });
}
console.log(JSON.stringify(results, null, 2));
if (!keep) rmSync(work, { recursive: true, force: true });
else console.error(`kept ${work}`);
process.exit(failed ? 1 : 0);
