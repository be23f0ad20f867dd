// The `gpuc` command as a user runs it: output, errors and exit codes.

import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { join } from "node:path";
import { device } from "../src/index.ts";
import { llvmToolsAvailable } from "../src/targets/llvm/llvm-tools.ts";

const root = fileURLToPath(new URL("..", import.meta.url));

const FIX = "test/fixtures/cli";

function gpuc(...args: string[]): { code: number | null; out: string; err: string } {
  const r = spawnSync(process.execPath, ["dist/cli/main.js", ...args], { cwd: root, encoding: "utf8" });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

test("compile prints the JS of the chosen kernel, with types from annotations", () => {
  const r = gpuc("compile", `${FIX}/kernels.ts`, "--kernel", "scale");
  assert.equal(r.code, 0, r.err);
  assert.match(r.out, /\nfunction scale\(\$state, out, x, n, \$gx/);
  // The scope constant and the helper are resolved from the file: 4 is folded in.
  assert.match(r.out, /Math\.fround\(x\[i\] \* 4\)/);
});

test("--target ptx prints PTX for the chosen architecture; --arch is checked", () => {
  const r = gpuc("compile", `${FIX}/kernels.ts`, "--kernel", "scale", "--target", "ptx", "--arch", "sm_90");
  assert.equal(r.code, 0, r.err);
  assert.match(r.out, /^\.version 7\.8\n\.target sm_90\n\.address_size 64$/m);
  assert.match(r.out, /^\.visible \.entry scale\(/m);
  const bad = gpuc("compile", `${FIX}/kernels.ts`, "--kernel", "scale", "--target", "ptx", "--arch", "sm_50");
  assert.equal(bad.code, 2);
  assert.equal(bad.err, "gpuc: --arch 'sm_50' is not an architecture of target 'ptx' (sm_75, sm_80, sm_86, sm_89, sm_90)\n");
});

test("--validate assembles the PTX with ptxas and reports its register use", { skip: spawnSync("ptxas", ["--version"]).status === 0 ? false : "SKIPPED: ptxas not found" }, () => {
  const r = gpuc("compile", `${FIX}/kernels.ts`, "--kernel", "scale", "--target", "ptx", "--arch", "sm_90", "--validate");
  assert.equal(r.code, 0, r.err);
  assert.match(r.err, /^ptxas sm_90: scale: \d+ registers, 0 bytes spilled, 0 bytes of stack\n$/);
  const js = gpuc("compile", `${FIX}/kernels.ts`, "--kernel", "scale", "--validate");
  assert.equal(js.code, 2);
  assert.match(js.err, /--validate checks PTX with ptxas, OpenCL C with the OpenCL driver, SPIR-V with spirv-val and LLVM IR with LLVM's tools; target 'js' has no validator here/);
});

test("--target llvm --arch gfx1100 prints LLVM IR for an AMD GPU; --validate verifies, compiles and links it; SPIR by default", { skip: llvmToolsAvailable() ? false : "SKIPPED: LLVM 16's tools not found" }, () => {
  const r = gpuc("compile", `${FIX}/kernels.ts`, "--kernel", "scale", "--target", "llvm", "--arch", "gfx1100", "--validate");
  assert.equal(r.code, 0, r.err);
  assert.match(r.out, /^target triple = "amdgcn-amd-amdhsa"$/m);
  assert.match(r.out, /^define amdgpu_kernel void @gpuc_scale\(/m);
  assert.match(r.err, /^verified by opt, optimized by opt -O2 and compiled by llc for gfx1100, linked by ld\.lld: a code object of \d+ bytes \(what the AMD GPU device loads\)\n$/);
  const spir = gpuc("compile", `${FIX}/kernels.ts`, "--kernel", "scale", "--target", "llvm", "--validate");
  assert.equal(spir.code, 0, spir.err);
  assert.match(spir.out, /^target triple = "spir64-unknown-unknown"$/m);
  assert.equal(spir.err, "verified by opt\n");
  const bad = gpuc("compile", `${FIX}/kernels.ts`, "--kernel", "scale", "--target", "llvm", "--arch", "gfx942");
  assert.equal(bad.code, 2);
  assert.equal(bad.err, "gpuc: --arch 'gfx942' is not an architecture of target 'llvm' (spir64, gfx90a, gfx940, gfx1100)\n");
});

test("--target spirv: --emit=spirv-asm prints spirv-dis's text; --validate runs spirv-val", { skip: spawnSync("spirv-val", ["--version"]).status === 0 ? false : "SKIPPED: spirv-tools not found" }, () => {
  const r = gpuc("compile", `${FIX}/kernels.ts`, "--kernel", "scale", "--target", "spirv", "--emit=spirv-asm", "--validate");
  assert.equal(r.code, 0, r.err);
  assert.match(r.out, /^; SPIR-V\n; Version: 1\.0\n/);
  assert.match(r.out, /OpEntryPoint Kernel %\d+ "gpuc_scale"/);
  assert.match(r.err, /^valid under spirv-val --target-env opencl1\.2\n$/);
  const other = gpuc("compile", `${FIX}/kernels.ts`, "--kernel", "scale", "--emit=spirv-asm");
  assert.equal(other.code, 2);
  assert.match(other.err, /--emit=spirv-asm is for --target spirv, not 'js'/);
});

const noOpenCL: false | string = await device("opencl").then((d) => { d.close(); return false as const; }, (e: Error) => `SKIPPED: no OpenCL device: ${e.message}`);
test("--validate builds OpenCL C with the OpenCL driver", { skip: noOpenCL }, () => {
  const r = gpuc("compile", `${FIX}/kernels.ts`, "--kernel", "scale", "--target", "opencl", "--validate");
  assert.equal(r.code, 0, r.err);
  assert.match(r.out, /^__kernel void gpuc_scale\(/m);
  assert.match(r.err, /^built by OpenCL \(.+\)\n$/);
});

test("--emit=manifest prints the relocation manifest; --relocation chooses the strategy", () => {
  const r = gpuc("compile", `${FIX}/kernels.ts`, "--kernel", "scale", "--target", "ptx", "--relocation", "table", "--emit=manifest");
  assert.equal(r.code, 0, r.err);
  const m = JSON.parse(r.out);
  assert.equal(m.strategy, "table");
  assert.deepEqual(m.sites, []);
  assert.match(m.codeHash, /^[0-9a-f]{32}$/);
  const code = gpuc("compile", `${FIX}/kernels.ts`, "--kernel", "scale", "--target", "ptx", "--relocation", "table");
  assert.equal(code.code, 0);
  const bad = gpuc("compile", `${FIX}/kernels.ts`, "--kernel", "scale", "--target", "wgsl", "--relocation", "patch");
  assert.equal(bad.code, 1);
  assert.equal(bad.err, "the wgsl target does not implement the 'patch' relocation strategy (it has table)\n");
  const usage = gpuc("compile", `${FIX}/kernels.ts`, "--kernel", "scale", "--emit", "ir");
  assert.equal(usage.code, 2);
  assert.match(usage.err, /^gpuc: --emit must be 'code', 'manifest' or 'spirv-asm', got 'ir'\n/);
});

test("--dump prints the IR after the named stages", () => {
  const r = gpuc("compile", `${FIX}/kernels.ts`, "--kernel", "scale", "--dump=infer,dce");
  assert.equal(r.code, 0, r.err);
  assert.match(r.out, /;; ---- IR after infer ----\n(.|\n)*helper #\d+ @clampUnit\(%0:v: f32\) -> f32 \{/);
  assert.match(r.out, /;; ---- IR after dce ----\n(.|\n)*kernel #\d+ @scale\(%0:out: f32\[\], %1:x: f32\[\], %2:n: i32; state %3:\$state\) -> void \{/);
  assert.doesNotMatch(r.out, /use strict/);
});

test("--types supplies types the file does not declare", () => {
  const missing = gpuc("compile", `${FIX}/kernels.ts`, "--kernel", "untyped");
  assert.equal(missing.code, 1);
  assert.equal(missing.err, `${FIX}/kernels.ts:15:67: parameter 'k' of 'untyped' has no type: annotate it (k: f32) or pass --types k=f32\n`);
  const ok = gpuc("compile", `${FIX}/kernels.ts`, "--kernel", "untyped", "--types", "k=f32");
  assert.equal(ok.code, 0, ok.err);
  assert.match(ok.out, /out\[\$tx\] = k;/);
  // An object type has commas of its own: --types splits at the others.
  const obj = gpuc("compile", `${FIX}/kernels.ts`, "--kernel", "untyped", "--types", "out=f32[], k={ a: f32, b: i32 }");
  assert.equal(obj.code, 1);
  assert.match(obj.err, /expected a number or boolean, got an object value \{ a: f32, b: i32 \}/);
});

test("compile errors exit 1 with the located message", () => {
  const r = gpuc("compile", `${FIX}/kernels.ts`, "--kernel", "broken");
  assert.equal(r.code, 1);
  assert.match(r.err, /^test\/fixtures\/cli\/kernels\.ts:20:12: use of undefined name 'missing'\n/);
  const s = gpuc("compile", `${FIX}/syntax.ts`);
  assert.equal(s.code, 1);
  assert.match(s.err, /^test\/fixtures\/cli\/syntax\.ts:2:15: Unexpected token/);
});

test("usage errors exit 2 and say what is wrong", () => {
  const cases: [string[], RegExp][] = [
    [["compile", "nope.ts"], /^gpuc: cannot read 'nope\.ts': no such file\n$/],
    [["compile", `${FIX}/kernels.ts`, "--kernel", "nope"], /^gpuc: no kernel named 'nope' in 'test\/fixtures\/cli\/kernels\.ts' \(kernels: scale, untyped, broken\)\n$/],
    [["compile", `${FIX}/kernels.ts`], /has 3 kernels \(scale, untyped, broken\): choose one with --kernel/],
    [["compile", `${FIX}/kernels.ts`, "--kernel", "scale", "--target", "vhdl"], /^gpuc: unknown target 'vhdl' \(available: js, wgsl, ptx, opencl, spirv, llvm\)\n$/],
    [["compile", `${FIX}/kernels.ts`, "--kernel", "scale", "--dump=parse"], /unknown stage 'parse' for --dump/],
    [["compile", `${FIX}/kernels.ts`, "--kernel", "untyped", "--types", "k=float"], /--types: unknown type 'float' for 'k'/],
    [["frobnicate"], /^gpuc: unknown command 'frobnicate'/],
    [[], /^usage:/],
  ];
  for (const [args, expected] of cases) {
    const r = gpuc(...args);
    assert.equal(r.code, 2, `gpuc ${args.join(" ")}: ${r.err}`);
    assert.match(args.length ? r.err : r.out, expected);
  }
});

test("devices lists the CPU as available", () => {
  const r = gpuc("devices");
  assert.equal(r.code, 0);
  assert.match(r.out, /^\* cpu +CPU \(JavaScript, Node\.js /m);
  const extra = gpuc("devices", "--all");
  assert.equal(extra.code, 2);
  assert.match(extra.err, /^gpuc: devices takes no arguments, got '--all'\n/);
});

test("the examples compile from the command line", () => {
  for (const [file, kernel] of [["examples/saxpy.ts", "saxpy"], ["examples/mandelbrot.ts", "mandelbrot"], ["examples/hash.ts", "hash"]]) {
    const r = gpuc("compile", file, "--kernel", kernel, "--types", kernel === "hash" ? "rounds=i32" : "");
    assert.equal(r.code, 0, `${file}: ${r.err}`);
    assert.match(r.out, new RegExp(`function ${kernel}\\(`));
  }
});

test("a reader that stops early ends the output quietly (EPIPE): exit 0, no stack trace", async () => {
  const { spawn } = await import("node:child_process");
  const p = spawn(process.execPath, [join(root, "dist/cli/main.js"), "compile", join(root, "examples/mandelbrot.ts"), "--target", "ptx", "--dump=all"], { stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, GPUC_CACHE: "0" } });
  let err = "";
  p.stderr.on("data", (d) => { err += d; });
  p.stdout.once("data", () => p.stdout.destroy());
  const code = await new Promise<number | null>((resolve) => p.on("close", resolve));
  assert.equal(code, 0, err);
  assert.doesNotMatch(err, /EPIPE|at .*\.js:\d+/);
});

