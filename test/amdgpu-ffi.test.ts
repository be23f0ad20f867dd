// The AMD GPU device's calls into HIP, checked without a GPU: the device is opened on a stand-in
// runtime (test/fixtures/fakehip/fakehip.c: device memory is host memory, launches are recorded
// with each argument decoded by the code object's own metadata, nothing runs) to see what koffi
// hands HIP — out parameters, 64-bit pointers, the kernelParams array, tables as arguments, the
// dynamic LDS — and that the code objects gpuc links (llc, ld.lld) are ELF files for the GPU's
// architecture holding the kernel. What the kernels compute on a real GPU is the job of
// scripts/amd-check.sh on an AMD machine.

import { after, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import * as llvmTools from "../src/targets/llvm/llvm-tools.ts";

const root = fileURLToPath(new URL("..", import.meta.url));
const FIX = join(root, "test/fixtures/fakehip");
const libDir = mkdtempSync(join(tmpdir(), "gpuc-fakehip-"));
const lib = join(libDir, "libfakehip.so");
after(() => rmSync(libDir, { recursive: true, force: true }));
const cc = spawnSync("cc", ["-shared", "-fPIC", "-O1", "-o", lib, join(FIX, "fakehip.c")], { encoding: "utf8" });
// LLVM's tools make the code objects; CI installs them (GPUC_REQUIRE_DEVICES names llvm there).
const llvmRequired = (process.env.GPUC_REQUIRE_DEVICES ?? "").split(",").includes("llvm");
const skip = cc.status !== 0 ? `SKIPPED: no C compiler to build the stand-in runtime (${cc.error?.message ?? cc.stderr.trim()})`
  : !llvmTools.llvmToolsAvailable() && !llvmRequired ? "SKIPPED: the AMD GPU device links code objects with LLVM 16's llc and ld.lld, which are not installed (llvm-16, lld-16)" : false;

const bits = (v: number) => { const b = new DataView(new ArrayBuffer(4)); b.setFloat32(0, v, true); return b.getUint32(0, true).toString(16).padStart(8, "0"); };
const words = (xs: number[]) => `[${xs.map(bits).join(" ")}]`;
const hex = (v: number) => (v >>> 0).toString(16).padStart(8, "0");

test("AMD GPU device on a stand-in HIP runtime: its architecture, code objects, kernelParams, tables, views, dynamic LDS", { skip }, () => {
  const r = spawnSync(process.execPath, [join(FIX, "run.mjs")], { cwd: root, encoding: "utf8", env: { ...process.env, GPUC_LIBHIP: lib, GPUC_LIBCUDA: join(libDir, "no-libcuda.so"), GPUC_CACHE: "0", FAKE_HIP_ARCH: "" } });
  assert.equal(r.status, 0, r.stderr);
  const out = JSON.parse(r.stdout) as Record<string, unknown>;
  assert.equal(out.kind, "amdgpu");
  assert.equal(out.target, "llvm");
  assert.equal(out.name, "AMD GPU (Fake AMD GPU (gpuc's test runtime), gfx90a:sramecc+:xnack-)");
  assert.equal(out.arch, "gfx90a", "the base of the properties' gcnArchName");
  assert.equal(out.best, "amdgpu", "device() takes the AMD GPU where there is no CUDA");
  assert.deepEqual(out.out, [9, 9, 9, 9], "nothing ran (a stand-in): the output came back as it went in");
  // The code object is for gfx90a, and every explicit argument is where its metadata says.
  const first = out.first as string;
  assert.match(first, /^load \d+ bytes, EF_AMDGPU_MACH 0x3f$/m);
  const lines = first.split("\n");
  const at = lines.findIndex((l) => l.startsWith("launch gpuc_tbl"));
  assert.equal(lines[at], "launch gpuc_tbl grid 2 1 1 block 4 1 1 shared 0 stream (nil)");
  assert.deepEqual(lines.slice(at + 1, at + 12), [
    `  arg 0 @0 ptr -> ${words([9, 9, 9, 9])}`,
    "  arg 1 @8 b32 00000000",            // o's offset (a view's is in its pointer)
    "  arg 2 @12 b32 00000004",           // o.length
    `  arg 3 @16 ptr -> ${words([1, 2, 3, 4])}`,
    "  arg 4 @24 b32 00000000",
    "  arg 5 @28 b32 00000004",
    `  arg 6 @32 b32 ${bits(0.5)}`,       // a: f32
    "  arg 7 @40 f64 0.25",               // d: f64, 8-byte aligned
    "  arg 8 @48 ptr -> [00000000 00000000 00000000 00000000]", // the state, cleared
    `  arg 9 @56 b32 ${hex(32 + 65536)}`, // its length in words
    `  arg 10 @64 ptr -> ${words([1.5, 2.5, -3, 4])}`,          // LUT, a table argument
  ]);
  assert.equal(out.otherArch, "KernelError: the llvm code of kernel 'tbl' is for gfx940; this GPU is gfx90a (compile it for gfx90a, or precompile an image entry for it)");
  assert.equal(out.missing, "KernelError: hipModuleGetFunction failed: hipErrorNotFound (500): named symbol not found");
  assert.deepEqual(out.copied, [0, 3, 4, 5, 0, 0, 0, 0]);
  assert.deepEqual(out.overlapped, [1, 2, 1, 2, 3, 4, 7, 8]);
  // A view: a pointer into its base's allocation.
  assert.match(out.view as string, new RegExp(`^ {2}arg 0 @0 ptr -> \\${words([3, 4, 7, 8]).replace(/]$/, "\\]")}$`, "m"));
  // setTable: the second launch's table argument holds the new values.
  const launches = (out.rewritten as string).split(/^(?=launch )/m).filter((l) => l.startsWith("launch"));
  assert.equal(launches.length, 2, out.rewritten as string);
  assert.match(launches[0], new RegExp(`arg 8 @48 ptr -> \\${words([1, 2, 3, 4]).replace(/]$/, "\\]")}`));
  assert.match(launches[1], new RegExp(`arg 8 @48 ptr -> \\${words([10, 20, 30, 40]).replace(/]$/, "\\]")}`));
  // Dynamic LDS: 4 × 3 floats at byte 0, 3 bytes at byte 48, 64 bytes in all; each array's byte offset and length.
  const dynamic = out.dynamic as string;
  assert.match(dynamic, /^launch gpuc_dyn grid 1 1 1 block 4 1 1 shared 64 /m);
  assert.match(dynamic, /^ {2}arg 6 @36 b32 00000000\n {2}arg 7 @40 b32 0000000c\n {2}arg 8 @44 b32 00000030\n {2}arg 9 @48 b32 00000003$/m);
  // A GPU gpuc emits nothing for is refused with its name; an RDNA 3 GPU gets gfx1100 code objects.
  assert.equal(out.unknownArch, "KernelError: the AMD GPU 'Fake AMD GPU (gpuc's test runtime)' is gfx942, which gpuc emits no code for (it does for gfx90a, gfx940, gfx1100)");
  assert.equal(out.rdnaArch, "gfx1100");
  assert.match(out.rdnaLaunch as string, /^load \d+ bytes, EF_AMDGPU_MACH 0x41\nlaunch gpuc_tbl /);
});

test("device(\"amdgpu\") where there is no ROCm says why", async () => {
  const r = spawnSync(process.execPath, ["--input-type=module", "-e", `import { device } from "gpuc"; try { await device("amdgpu"); } catch (e) { console.log(e.name + ": " + e.kind + ": " + e.message); }`], { cwd: root, encoding: "utf8", env: { ...process.env, GPUC_LIBHIP: join(libDir, "no-such-libamdhip64.so") } });
  assert.equal(r.stdout.trim(), "KernelError: device-unavailable: no ROCm here (HIP's runtime, libamdhip64.so, not found: install ROCm, or set GPUC_LIBHIP to the library)");
});

test("the AMD GPU device keeps code objects in the disk cache: a second process links none, and a tampered one is linked again", { skip }, () => {
  // LLVM's tools behind wrappers that log each run, in a folder of their own (GPUC_LLVM_BIN).
  const { llvmBin } = llvmTools;
  const tools = join(libDir, "tools"), log = join(libDir, "tools.log"), cache = join(libDir, "cache");
  mkdirSync(tools, { recursive: true });
  for (const t of ["opt", "llc", "ld.lld"]) {
    writeFileSync(join(tools, t), `#!/bin/sh\necho ${t} >> ${log}\nexec ${join(llvmBin()!, t)} "$@"\n`);
    chmodSync(join(tools, t), 0o755);
  }
  const script = `import { device, kernel } from "gpuc";
const dev = await device("amdgpu");
const k = kernel(function twice(o, x) { const i = threadIdx.x; if (i < o.length) o[i] = x[i] * 2; }, { types: { o: "f32[]", x: "f32[]" } });
await k.launch(dev, { blocks: 1, threads: 4 }, new Float32Array(4), new Float32Array(4));
dev.close();`;
  const env = { ...process.env, GPUC_LIBHIP: lib, GPUC_LLVM_BIN: tools, GPUC_CACHE: "1", GPUC_CACHE_DIR: cache, GPUC_KEY_FILE: join(libDir, "key"), FAKE_HIP_ARCH: "" };
  const run = () => {
    rmSync(log, { force: true });
    const r = spawnSync(process.execPath, ["--input-type=module", "-e", script], { cwd: root, encoding: "utf8", env });
    assert.equal(r.status, 0, r.stderr);
    return existsSync(log) ? readFileSync(log, "utf8").trim().split("\n") : [];
  };
  assert.deepEqual(run(), ["opt", "llc", "ld.lld"], "the first process links the kernel's code object");
  const objects = join(cache, "v2", "objects");
  const [file] = readdirSync(objects);
  assert.match(file, /^[0-9a-f]{64}\.o$/);
  assert.deepEqual(run(), [], "the second takes it from the disk cache");
  // A byte of the object changed: its tag fails, it is deleted and linked again (and rewritten).
  const bytes = readFileSync(join(objects, file));
  bytes[bytes.length - 100] ^= 1;
  writeFileSync(join(objects, file), bytes);
  assert.deepEqual(run(), ["opt", "llc", "ld.lld"]);
  assert.deepEqual(run(), []);
});

test("an AMD GPU's architecture is read from its properties by the form of gcnArchName, wherever the ROCm version puts it", async () => {
  const { gcnArchName, isCodeObjectFor } = await import("../src/devices/amdgpu.ts");
  const props = (at: number, text: string, before = 0) => { const b = new Uint8Array(2048); b.set(new TextEncoder().encode("gfx1100 (not here: the name)"), 0); b[at - 1] = before; b.set(new TextEncoder().encode(text), at); return b; };
  assert.equal(gcnArchName(props(1160, "gfx90a:sramecc+:xnack-")), "gfx90a:sramecc+:xnack-");
  assert.equal(gcnArchName(props(396, "gfx1100", 0x8a)), "gfx1100", "after an int field's last byte (ROCm 5's gcnArch before it)");
  assert.equal(gcnArchName(props(398, "gfx1100")), null, "not at a field's boundary");
  assert.equal(gcnArchName(props(1160, "gfx90a:sramecc+:xnack")), null, "a feature without its sign");
  assert.equal(gcnArchName(new Uint8Array(2048)), null);
  // A code object read back is an ELF for the GPU's architecture, or not used.
  const elf = new Uint8Array(128);
  elf.set([0x7f, 0x45, 0x4c, 0x46, 2, 1]);
  new DataView(elf.buffer).setUint16(18, 224, true);
  new DataView(elf.buffer).setUint32(48, 0x53f, true);
  assert.equal(isCodeObjectFor(elf, "gfx90a"), true);
  assert.equal(isCodeObjectFor(elf, "gfx940"), false);
  assert.equal(isCodeObjectFor(elf.subarray(0, 60), "gfx90a"), false);
  elf[18] = 62;
  assert.equal(isCodeObjectFor(elf, "gfx90a"), false, "an x86-64 ELF");
});
