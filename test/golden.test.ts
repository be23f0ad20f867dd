// Golden files: the IR after inference and after the passes, and the code of every target (JS,
// WGSL, PTX, OpenCL C, SPIR-V), for the kernels in fixtures/golden.mjs — compared always, whatever
// tools are installed. Where they are, every WGSL file is validated by Dawn (its null backend: the
// WGSL compiler and pipeline validation, no driver needed); every PTX file is assembled by ptxas
// for sm_75 and sm_90; every OpenCL C file is built by the OpenCL driver (PoCL here and on CI);
// every SPIR-V module is validated by spirv-val and kept as spirv-dis's text too (its words are
// the golden compared everywhere).
// Regenerate with GPUC_UPDATE_GOLDEN=1 and review the diff.

import { test, after } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, readFileSync, writeFileSync, existsSync } from "node:fs";
import { create, globals } from "webgpu";
import { kernel, device, CompileError, threadIdx, type Device } from "../src/index.ts";
import { cases, riskyCases, fenceCases } from "./fixtures/golden.mjs";
import { assemblePTX, formatPtxasErrors, ptxasAvailable } from "../src/targets/ptx/ptxas.ts";
import { disassembleSPIRV, spirvValAvailable, validateSPIRV } from "../src/targets/spirv/spirv-tools.ts";
import { checkLLVM, llvmToolsAvailable } from "../src/targets/llvm/llvm-tools.ts";
import type { WGSLLayout } from "../src/targets/wgsl/layout.ts";
import { variantCode } from "../src/devices/webgpu-variants.ts";

const ptxasRequired = (process.env.GPUC_REQUIRE_DEVICES ?? "").split(",").includes("ptxas");
const openclRequired = (process.env.GPUC_REQUIRE_DEVICES ?? "").split(",").includes("opencl");
/** The OpenCL device that builds the golden OpenCL C (clBuildProgram), or why there is none. */
const opencl: Device | string = await device("opencl").catch((e: Error) => e.message);
if (typeof opencl === "string" && openclRequired) throw new Error(`an OpenCL device is required (GPUC_REQUIRE_DEVICES) but cannot be opened: ${opencl}`);
after(() => { if (typeof opencl !== "string") opencl.close(); });
const haveSpirvTools = await spirvValAvailable();
const haveLLVMTools = llvmToolsAvailable();
if (!haveLLVMTools && (process.env.GPUC_REQUIRE_DEVICES ?? "").split(",").includes("llvm")) throw new Error("LLVM 16's tools are required (GPUC_REQUIRE_DEVICES) but are not installed");
if (!haveSpirvTools && (process.env.GPUC_REQUIRE_DEVICES ?? "").split(",").includes("spirv-val")) throw new Error("spirv-val is required (GPUC_REQUIRE_DEVICES) but cannot be run");
const haveptxas = await ptxasAvailable();
if (!haveptxas && ptxasRequired) throw new Error("ptxas is required (GPUC_REQUIRE_DEVICES) but cannot be run");

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

Object.assign(globalThis, globals);
// Dawn's instance must stay referenced while its devices are used (a collected instance aborts
// the process): the `after` hook's closure holds it.
const dawn = create(["backend=null"]);
// (With subgroups, where the null adapter has them: the golden subgroup kernel enables them.)
const nullAdapter = (await dawn.requestAdapter())!;
const gpu = await nullAdapter.requestDevice({ requiredFeatures: nullAdapter.features.has("subgroups") ? ["subgroups" as GPUFeatureName] : [] });
after(() => { gpu.destroy(); void dawn; });

/**
 * Dawn's verdict on a shader: its compilation errors and warnings (a warning, e.g. of unreachable
 * code, is printed to the user's console by Dawn), and a compute pipeline with a 64×1×1 workgroup.
 */
async function dawnErrors(code: string, entry: string): Promise<string[]> {
  const module = gpu.createShaderModule({ code });
  const info = await module.getCompilationInfo();
  const errors = info.messages.filter((m) => m.type !== "info").map((m) => `${m.type} ${m.lineNum}:${m.linePos} ${m.message}`);
  if (errors.length) return errors;
  gpu.pushErrorScope("validation");
  gpu.createComputePipeline({ layout: "auto", compute: { module, entryPoint: entry, constants: { wgx: 64, wgy: 1, wgz: 1 } } });
  const err = await gpu.popErrorScope();
  return err ? [err.message] : [];
}

type Case = { fn: Function & { scope?: Record<string, unknown> }; types: string[]; refuses?: Partial<Record<string, string>> };
const ALL: Case[] = [...(cases as Case[]), ...(riskyCases as Case[]), ...(fenceCases as Case[])];

/**
 * The case compiled for `target`, or null where the target refuses it (a CompileError of the kind
 * the case names: WGSL has no recursion; that is checked too).
 */
async function compiled(c: Case, target: string, features?: { arch: string }) {
  const k = kernel(c.fn, { scope: c.fn.scope });
  const refused = c.refuses?.[target];
  if (!refused) return k.compile({ target, types: c.types, ...(features ? { features } : {}) });
  await assert.rejects(k.compile({ target, types: c.types, ...(features ? { features } : {}) }), (e: unknown) => e instanceof CompileError && e.kind === refused);
  return null;
}

/** SPIR-V words as text, eight to a line: compared always (spirv-dis writes the readable golden where it is installed). */
function spirvWords(code: Uint8Array): string {
  const words = new Uint32Array(code.slice().buffer);
  const lines: string[] = [];
  for (let i = 0; i < words.length; i += 8) lines.push(Array.from(words.subarray(i, i + 8), (w) => w.toString(16).padStart(8, "0")).join(" "));
  return `${lines.join("\n")}\n`;
}

for (const c of ALL) {
  test(`golden: ${c.fn.name}`, async () => {
    const dumps: Record<string, string> = {};
    const art = await kernel(c.fn, { scope: c.fn.scope }).compile({
      target: "js", types: c.types, dump: ["infer", "dce"], dumpSink: (stage, text) => { dumps[stage] = text; },
    });
    golden("ir", `${c.fn.name}.infer.ir`, dumps.infer);
    golden("ir", `${c.fn.name}.final.ir`, dumps.dce);
    golden("js", `${c.fn.name}.js`, art.code as string);
    // The golden JS must at least load: a syntax error here would only show at launch.
    assert.equal(typeof new Function(...art.bindings, `${art.code}\nreturn ${art.entry};`)(), "function");
  });

  test(`golden wgsl: ${c.fn.name}`, async () => {
    const art = await compiled(c, "wgsl");
    if (!art) return;
    golden("wgsl", `${c.fn.name}.wgsl`, art.code as string);
    assert.deepEqual(await dawnErrors(art.code as string, art.entry), [], `Dawn rejects test/golden/wgsl/${c.fn.name}.wgsl`);
  });

  test(`golden wgsl sites: ${c.fn.name}`, async () => {
    const art = await compiled(c, "wgsl");
    if (!art) return;
    const code = art.code as string, layout = art.layout as WGSLLayout;
    // The layout records where each array parameter's variable is declared and every place it is
    // named (here found by the regular expressions the WebGPU device no longer uses).
    const params = layout.bindings.filter((b) => b.role === "param");
    assert.deepEqual(layout.sites.map((s) => s.binding), params.map((b) => b.binding));
    for (const s of layout.sites) {
      const decl = /^@group\(0\) @binding\((\d+)\) var<storage, read(?:_write)?> (\w+): [^\n]*$/m.exec(code.slice(s.declaration[0]))!;
      assert.deepEqual([decl?.index, decl?.[1]], [0, String(s.binding)], `binding ${s.binding}'s declaration`);
      assert.equal(decl[0].length, s.declaration[1] - s.declaration[0]);
      const name = decl[2];
      const accesses = s.accesses.filter((_, i) => i % 2 === 0);
      const recorded = [s.declaration[0] + decl[0].indexOf(` ${name}:`) + 1, ...accesses, ...s.mentions].sort((a, b) => a - b);
      assert.deepEqual([...code.matchAll(new RegExp(`\\b${name}\\b`, "g"))].map((m) => m.index), recorded, `every '${name}' in the code is a recorded site`);
      for (let i = 0; i < s.accesses.length; i += 2) assert.equal(code.slice(s.accesses[i] + name.length, s.accesses[i] + name.length + 1) + code[s.accesses[i + 1]], "[]");
    }
    // A variant spliced there (every read-only parameter of the first written one's type merged
    // into it, as one array passed to both; each parameter shifted): WGSL that Dawn takes.
    const kept = params.find((b) => !b.readOnly);
    if (!kept) return;
    const narrow = (b: { index: number }) => /^(i8|u8|u8c|i16|u16)\[\]$/.test(c.types[b.index]);
    const merge = new Map(params.filter((b) => b.readOnly && c.types[b.index] === c.types[kept.index]).map((b) => [b.binding, kept.binding]));
    const shift = new Map(params.map((b) => [b.binding, narrow(b) ? 0 : 3 + b.binding]));
    const variant = variantCode(art.kernel, code, layout, merge, shift);
    assert.notEqual(variant, code);
    assert.deepEqual(await dawnErrors(variant, art.entry), [], `Dawn rejects a variant of test/golden/wgsl/${c.fn.name}.wgsl`);
  });

  test(`golden opencl: ${c.fn.name}`, async (t) => {
    const art = await compiled(c, "opencl");
    if (!art) return;
    golden("opencl", `${c.fn.name}.cl`, art.code as string);
    // The driver builds it (a failure is a CompileError with the build log).
    if (typeof opencl === "string") return t.skip(`SKIPPED: the golden OpenCL C is compared, not built (${opencl})`);
    opencl.load(art);
  });

  test(`golden spirv: ${c.fn.name}`, async (t) => {
    const art = await compiled(c, "spirv");
    if (!art) return;
    golden("spirv", `${c.fn.name}.spv.txt`, spirvWords(art.code as Uint8Array));
    if (!haveSpirvTools) return t.skip("SKIPPED: spirv-tools not found (the golden words are compared; the module is not disassembled or validated)");
    golden("spirv", `${c.fn.name}.spvasm`, (await disassembleSPIRV(art.code as Uint8Array))!);
    const r = await validateSPIRV(art.code as Uint8Array);
    assert.ok(r.ok, `spirv-val rejects test/golden/spirv/${c.fn.name}.spvasm:\n${r.log}`);
  });

  test(`golden llvm: ${c.fn.name}`, async (t) => {
    // SPIR and one AMD GPU: the text compared always; verified (and for the GPU compiled and
    // linked) by LLVM 16's tools where they are installed.
    for (const arch of ["spir64", "gfx90a"]) {
      const art = await compiled(c, "llvm", { arch });
      if (!art) return;
      golden("llvm", `${c.fn.name}.${arch}.ll`, art.code as string);
      if (!haveLLVMTools) continue;
      const r = await checkLLVM(art, arch);
      assert.ok(r.ok, `LLVM rejects test/golden/llvm/${c.fn.name}.${arch}.ll:\n${r.log}`);
    }
    if (!haveLLVMTools) t.skip("SKIPPED: LLVM 16's tools not found (the golden LLVM IR is compared, not verified)");
  });

  test(`golden ptx: ${c.fn.name}`, async (t) => {
    const art = await compiled(c, "ptx");
    if (!art) return;
    golden("ptx", `${c.fn.name}.ptx`, art.code as string);
    if (!haveptxas) return t.skip("SKIPPED: ptxas not found (the golden PTX is compared, not assembled)");
    for (const arch of ["sm_75", "sm_90"]) {
      const r = await assemblePTX(art.code as string, arch);
      assert.ok(r.ok, `ptxas -arch=${arch} rejects test/golden/ptx/${c.fn.name}.ptx:\n${formatPtxasErrors(r)}`);
    }
  });
}

test("ptxas's validation is real: a broken line is reported with the PTX line and the kernel's source line", { skip: !haveptxas && "SKIPPED: ptxas not found" }, async () => {
  const k = kernel(function broken(o: Float32Array, x: Float32Array) {
    o[threadIdx.x] = x[threadIdx.x] * 2;   // @BROKEN
  });
  const art = await k.compile({ target: "ptx", types: ["f32[]", "f32[]"] });
  const code = (art.code as string).replace(/mul\.rn\.f32 (%f\d+), (%f\d+), 0f40000000;/, "mul.rn.f32 $1, $2, %nosuchreg;");
  assert.notEqual(code, art.code, "the multiplication to break is in the PTX");
  const r = await assemblePTX({ ...art, code });
  assert.equal(r.ok, false);
  const e = r.errors[0];
  assert.match(e.message, /^Arguments mismatch for instruction .mul.$/);
  assert.match(e.text, /^mul\.rn\.f32 %f\d+, %f\d+, %nosuchreg;$/);
  const line = readFileSync(new URL(import.meta.url), "utf8").split("\n").findIndex((l) => l.includes("// @BROKEN")) + 1;
  assert.equal(e.source?.replace(/:\d+$/, ""), `test/golden.test.ts:${line}`);
  assert.match(formatPtxasErrors(r), /^ptxas: Arguments mismatch.*\n    at PTX line \d+: mul\.rn\.f32 .*\n    from test\/golden\.test\.ts:\d+:\d+\n/);
});

test("a helper whose every path returns leaves no unreachable code (Dawn would warn of it)", async () => {
  function pick(a: number, b: number) {
    if (a <= b) return b;
    else return a;
    return 0;   // (unreachable in JavaScript too)
  }
  const k = kernel(function everyPathReturns(out: Float32Array, x: Float32Array) {
    const i = threadIdx.x;
    out[i] = pick(x[i], 0.5) + pick(x[i + 1], x[i]);
  }, { scope: { pick } });
  const art = await k.compile({ target: "wgsl", types: ["f32[]", "f32[]"] });
  assert.deepEqual(await dawnErrors(art.code as string, art.entry), []);
  // The helper's dead return is gone from every target's code (the JS too).
  const js = await k.compile({ target: "js", types: ["f32[]", "f32[]"] });
  assert.doesNotMatch(js.code as string, /return 0/);
});

test("Dawn's validation is real: a broken shader is rejected", async () => {
  const errors = await dawnErrors("@compute @workgroup_size(1) fn main() { let x: i32 = 1.5; }", "main");
  assert.equal(errors.length, 1);
  assert.match(errors[0], /^error 1:54 cannot convert value of type 'abstract-float' to type 'i32'/);
});
