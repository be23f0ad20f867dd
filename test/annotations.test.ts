// TypeScript annotations found by position (issue #19, item 1): one kernel module whose kernel and
// parameters a transpiler must rename (test/fixtures/annotations/renamed.ts) run under tsx, as tsc
// output (with and without --enable-source-maps), as an esbuild bundle, and under Node's own type
// stripping where this Node has it; and the warning where the declaration cannot be found.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const FIXTURE = "test/fixtures/annotations/renamed.ts";
const bin = (name: string) => join(root, "node_modules/.bin", name);

interface Outcome { source: string; half: string; run: string; xs: number[]; float64: string; fractional: string; halved: string; o: number[]; compiled: string }

/** A project beside the repository: the fixture, `"type": "module"`, and gpuc as node_modules/gpuc (this checkout). */
let dir = "";
before(() => {
  dir = mkdtempSync(join(tmpdir(), "gpuc-annotations-"));
  mkdirSync(join(dir, "node_modules"));
  symlinkSync(root, join(dir, "node_modules/gpuc"), "dir");
  writeFileSync(join(dir, "package.json"), JSON.stringify({ type: "module" }));
  copyFileSync(join(root, FIXTURE), join(dir, "renamed.ts"));
});
after(() => rmSync(dir, { recursive: true, force: true }));

function run(args: string[], cwd: string): { out: Outcome; stderr: string } {
  const r = spawnSync(process.execPath, args, { cwd, encoding: "utf8", env: { ...process.env, GPUC_CACHE: "0" } });
  assert.equal(r.status, 0, r.stderr);
  return { out: JSON.parse(r.stdout.trim().split("\n").at(-1)!), stderr: r.stderr };
}

function sh(cmd: string, args: string[]): void {
  const r = spawnSync(cmd, args, { cwd: dir, encoding: "utf8" });
  assert.equal(r.status, 0, `${cmd} ${args.join(" ")}: ${r.stdout}${r.stderr}`);
}

/** What every configuration must show: the annotations held, and messages use the source's parameter names. */
function annotationsHeld(out: Outcome, file: RegExp): void {
  assert.equal(out.run, "ok");
  assert.deepEqual(out.xs, [2, 4, 6, 4]);
  assert.match(out.float64, /^argument-type: .*: argument 'x' of kernel '[^']+' is declared f32\[\] but got Float64Array$/);
  assert.match(out.fractional, /^argument-type: .*: argument 'n' of kernel '[^']+' is declared i32 but got 2\.5, which is not an i32 value/);
  assert.match(out.float64, file);
  assert.equal(out.halved, "ok");
  assert.deepEqual(out.o, [2.5], "the helper's h: i32 converts 5.5 to 5");
  assert.equal(out.compiled, "ok", "v: f32 is declared, so compile() needs no type for it");
}

/** The transpiler did rename (else the test would pass without finding anything by position). */
function renamed(out: Outcome): void {
  assert.match(out.source, /^function saxpy2\(a, ?x2, ?n2\)/);
  assert.match(out.half, /function half2\(h2\)/);
}

test("tsx: the renamed kernel (saxpy2, x2, n2) and helper (h2) keep their annotations", () => {
  const { out, stderr } = run(["--import", "tsx", FIXTURE], root);
  renamed(out);
  annotationsHeld(out, /renamed\.ts:\d+:\d+: /);
  assert.doesNotMatch(stderr, /GPUC_ANNOTATIONS/);
});

test("tsc output: annotations through the source map, with and without --enable-source-maps", () => {
  sh(bin("tsc"), ["renamed.ts", "--outDir", "tsc", "--sourceMap", "--module", "nodenext", "--moduleResolution", "nodenext", "--target", "es2022",
    "--skipLibCheck", "--types", "node", "--typeRoots", join(root, "node_modules/@types")]);
  // (tsc renames nothing: this checks the position lookup through a map file.)
  const plain = run(["tsc/renamed.js"], dir);
  assert.match(plain.out.source, /^function saxpy\(a, x, n\)/);
  annotationsHeld(plain.out, /renamed\.js:\d+:\d+: /);
  annotationsHeld(run(["--enable-source-maps", "tsc/renamed.js"], dir).out, /renamed\.ts:\d+:\d+: /);
});

test("an esbuild bundle with a source map: the renamed kernel and helper keep their annotations", () => {
  sh(bin("esbuild"), ["renamed.ts", "--bundle", "--format=esm", "--platform=node", "--sourcemap", "--external:gpuc", "--outfile=bundle/app.mjs", "--log-level=warning"]);
  const { out } = run(["bundle/app.mjs"], dir);
  renamed(out);
  annotationsHeld(out, /app\.mjs:\d+:\d+: /);
  // An inline source map does as well.
  sh(bin("esbuild"), ["renamed.ts", "--bundle", "--format=esm", "--platform=node", "--sourcemap=inline", "--external:gpuc", "--outfile=bundle/inline.mjs", "--log-level=warning"]);
  annotationsHeld(run(["bundle/inline.mjs"], dir).out, /inline\.mjs:\d+:\d+: /);
});

const stripping = (process.features as { typescript?: unknown }).typescript !== undefined;
test("Node's own type stripping", { skip: stripping ? false : `SKIPPED: Node ${process.version} has no type stripping (--experimental-strip-types came in Node 22.6)` }, () => {
  const { out } = run(["--experimental-strip-types", "--no-warnings", "renamed.ts"], dir);
  annotationsHeld(out, /renamed\.ts:\d+:\d+: /);
});

test("a declaration that cannot be found (the .ts is gone) is a GPUC_ANNOTATIONS warning with the reason, once per function", () => {
  const sub = join(dir, "gone");
  mkdirSync(sub);
  copyFileSync(join(dir, "renamed.ts"), join(sub, "renamed.ts"));
  sh(bin("esbuild"), ["gone/renamed.ts", "--bundle", "--format=esm", "--platform=node", "--sourcemap", "--external:gpuc", "--outfile=gone/app.mjs", "--log-level=warning"]);
  unlinkSync(join(sub, "renamed.ts"));
  const { out, stderr } = run(["gone/app.mjs"], dir);
  // Without its annotations the kernel is typed by its arguments, and the warning says why.
  assert.equal(out.float64, "ok");
  assert.deepEqual(out.o, [2.75]);
  const warnings = stderr.split("\n").filter((l) => l.includes("GPUC_ANNOTATIONS"));
  assert.equal(warnings.length, 3, stderr);   // the kernels and the helper, once each
  assert.match(warnings[0], /\[GPUC_ANNOTATIONS\] Warning: gpuc: the TypeScript annotations of 'saxpy2' were not found \(.*gone\/renamed\.ts cannot be read \(ENOENT\)\); its parameters are typed by their arguments/);
});
