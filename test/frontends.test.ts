// One front end for the CLI and the runtime (issue #19, item 4): each case is a module with one
// kernel() call, compiled by `gpuc compile` (which reads the file without running it) and by the
// kernel object the module makes when it runs; both must accept it with the same code, or reject
// it with the same kind of error.

import { test, after } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const GPUC = pathToFileURL(join(root, "dist/index.js")).href;
const dir = mkdtempSync(join(tmpdir(), "gpuc-frontends-"));
after(() => rmSync(dir, { recursive: true, force: true }));

/** [what, the module's declarations and kernel() call, null (accepted) or the error kind both give] */
const CASES: [string, string, string | null][] = [
  ["a top-level constant the scope does not list", "const N = 4;\nexport const k = kernel(function k(o) { o[0] = N; });", "undefined-name"],
  ["a top-level constant in the scope", "const N = 4;\nexport const k = kernel(function k(o) { o[0] = N; }, { scope: { N } });", null],
  ["constants computed from literals, Math and other constants", "const B = 256;\nconst H = B / 2 + Math.floor(Math.PI) - (1 << 3);\nexport const k = kernel(function k(o) { o[H] = H * 0.5; }, { scope: { H } });", null],
  ["a value under another name", "const N = 7;\nexport const k = kernel(function k(o) { o[0] = M; }, { scope: { M: N } });", null],
  ["a helper the scope does not list", "function twice(v) { return v * 2; }\nexport const k = kernel(function k(o) { o[0] = twice(o[1]); });", "undefined-name"],
  ["a helper in the scope, with its own constant", "const C = 3;\nfunction twice(v) { return v * C; }\nexport const k = kernel(function k(o) { o[0] = twice(o[1]); }, { scope: { twice, C } });", null],
  ["a typed array of literals as a table", "const W = new Float32Array([0.5, 2, -1]);\nexport const k = kernel(function k(o) { o[0] = W[1] + W[(o.length | 0) % 3]; }, { scope: { W } });", null],
  ["a string in the scope", "const S = \"x\";\nexport const k = kernel(function k(o) { o[0] = S; }, { scope: { S } });", "unsupported-value"],
  ["a name gpuc's globals do not have", "export const k = kernel(function k(o) { o[0] = Math.random2(1); });", "undefined-name"],
];

for (const [what, body, kind] of CASES) {
  test(`the CLI and kernel() agree: ${what}`, async () => {
    const file = join(dir, `${what.replace(/\W+/g, "-")}.mjs`);
    writeFileSync(file, `import { kernel } from ${JSON.stringify(GPUC)};\n${body}\n`);
    const cli = spawnSync(process.execPath, [join(root, "dist/cli/main.js"), "compile", file, "--target", "js", "--types", "o=f32[]"], { encoding: "utf8", env: { ...process.env, GPUC_CACHE: "0" } });
    const mod = (await import(pathToFileURL(file).href)) as { k: { compile(o: object): Promise<{ code: string }> } };
    let runtime: { code: string } | { kind: string };
    try { runtime = await mod.k.compile({ target: "js", types: ["f32[]"] }); } catch (e) { runtime = { kind: (e as { kind: string }).kind }; }
    if (kind === null) {
      assert.equal(cli.status, 0, `gpuc compile rejected it: ${cli.stderr}`);
      assert.ok("code" in runtime, `kernel() rejected it: ${JSON.stringify(runtime)}`);
      assert.equal(cli.stdout.trimEnd(), runtime.code.trimEnd(), "the same code");
    } else {
      assert.equal(cli.status, 1, `gpuc compile: ${cli.stdout}${cli.stderr}`);
      assert.deepEqual(runtime, { kind }, "kernel()");
      assert.match(cli.stderr, new RegExp(`${kind === "undefined-name" ? "undefined name" : "cannot|not|unsupported"}`), "gpuc compile's message");
    }
  });
}
