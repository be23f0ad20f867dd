// The llvm target's square root on AMD GPUs, run here: LLVM 16 spells llvm.sqrt as v_sqrt_f32/f64
// there, which are not correctly rounded, so the emitter writes its own (emit.ts, sqrtF64). Its
// text, taken from a kernel compiled for gfx90a, is compiled for this host by llc (the hardware's
// estimate v_rsq_f64 played by 1/sqrt(x) made worse by up to 2^-20) and checked against the
// host's sqrt on millions of inputs (test/fixtures/llvm-sqrt/harness.c), f64 and f32.

import { after, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { kernel, threadIdx } from "../src/index.ts";
import { llvmBin } from "../src/targets/llvm/llvm-tools.ts";

const root = fileURLToPath(new URL("..", import.meta.url));
const dir = mkdtempSync(join(tmpdir(), "gpuc-llvm-sqrt-"));
after(() => rmSync(dir, { recursive: true, force: true }));
const bin = llvmBin();
const cc = spawnSync("cc", ["--version"], { encoding: "utf8" });
const llvmRequired = (process.env.GPUC_REQUIRE_DEVICES ?? "").split(",").includes("llvm");
const skip = cc.status !== 0 ? "SKIPPED: no C compiler for the harness" : !bin && !llvmRequired ? "SKIPPED: LLVM 16's llc is not installed (llvm-16)" : false;

const roots = kernel(function roots(o: Float32Array, x: Float64Array) {
  const i = threadIdx.x;
  o[i] = Math.sqrt(o[i]);
  x[i] = Math.sqrt(x[i]);
});
const code = async (arch: string) => (await roots.compile({ target: "llvm", types: ["f32[]", "f64[]"], features: { arch } })).code as string;

test("an AMD GPU's Math.sqrt is gpuc's correctly rounded one; SPIR's is the driver's", async () => {
  for (const arch of ["gfx90a", "gfx940", "gfx1100"]) {
    const text = await code(arch);
    assert.doesNotMatch(text, /llvm\.sqrt/, arch);
    assert.equal(text.match(/call double @gpuc_sqrt_f64\(/g)?.length, 2, `${arch}: f32 and f64 through the f64 root`);
  }
  assert.match(await code("spir64"), /call float @llvm\.sqrt\.f32\(/);
});

test("the AMD square root, compiled for this host, is correctly rounded on 9 million inputs", { skip }, async () => {
  assert.ok(bin, "LLVM's tools are required (GPUC_REQUIRE_DEVICES includes llvm) but not installed");
  const fn = /^define internal double @gpuc_sqrt_f64\(double %x\) \{\n[^]*?\n\}$/m.exec(await code("gfx90a"));
  assert.ok(fn, "the emitted function");
  const host = `${fn[0].replace("define internal", "define").replaceAll("@llvm.amdgcn.rsq.f64", "@gpuc_test_rsq")}
declare double @gpuc_test_rsq(double)
declare double @llvm.fma.f64(double, double, double)
`;
  writeFileSync(join(dir, "sqrt.ll"), host);
  const llc = spawnSync(join(bin, "llc"), ["-O2", "-filetype=obj", "-relocation-model=pic", join(dir, "sqrt.ll"), "-o", join(dir, "sqrt.o")], { encoding: "utf8" });
  assert.equal(llc.status, 0, llc.stderr);
  const link = spawnSync("cc", ["-O1", join(root, "test/fixtures/llvm-sqrt/harness.c"), join(dir, "sqrt.o"), "-lm", "-o", join(dir, "harness")], { encoding: "utf8" });
  assert.equal(link.status, 0, link.stderr);
  const run = spawnSync(join(dir, "harness"), ["200000"], { encoding: "utf8" });
  assert.equal(run.stdout.trim().split("\n").at(-1), "9000180 checked, 0 differ", run.stdout);
  assert.equal(run.status, 0);
});
