// Golden files: the IR after inference and after the passes, and the JS target's code, for the
// kernels in fixtures/golden.mjs. Regenerate with GPUC_UPDATE_GOLDEN=1 and review the diff.

import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, readFileSync, writeFileSync, existsSync } from "node:fs";
import { kernel } from "../src/index.ts";
import { cases } from "./fixtures/golden.mjs";

const UPDATE = process.env.GPUC_UPDATE_GOLDEN === "1";
const root = new URL("./golden/", import.meta.url);

function golden(dir: string, name: string, actual: string): void {
  const dirUrl = new URL(`${dir}/`, root);
  const file = new URL(name, dirUrl);
  if (UPDATE) {
    mkdirSync(dirUrl, { recursive: true });
    writeFileSync(file, actual);
    return;
  }
  assert.ok(existsSync(file), `missing golden file test/golden/${dir}/${name}: run with GPUC_UPDATE_GOLDEN=1`);
  assert.equal(actual, readFileSync(file, "utf8"), `test/golden/${dir}/${name} differs (GPUC_UPDATE_GOLDEN=1 regenerates it)`);
}

for (const c of cases as { fn: Function & { scope?: Record<string, unknown> }; types: string[] }[]) {
  test(`golden: ${c.fn.name}`, async () => {
    const dumps: Record<string, string> = {};
    const art = await kernel(c.fn, { scope: c.fn.scope }).compile({
      target: "js", types: c.types, dump: ["infer", "dce"], dumpSink: (stage, text) => { dumps[stage] = text; },
    });
    golden("ir", `${c.fn.name}.infer.ir`, dumps.infer);
    golden("ir", `${c.fn.name}.final.ir`, dumps.dce);
    golden("js", `${c.fn.name}.js`, art.code as string);
    // The golden JS must at least load: a syntax error here would only show at launch.
    assert.equal(typeof new Function(...art.globals.map((g) => g.name), `${art.code}\nreturn ${art.entry};`)(), "function");
  });
}
