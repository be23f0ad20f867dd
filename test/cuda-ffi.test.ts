// The CUDA device's calls into the driver API, checked without a GPU: the device is opened on a
// stand-in driver (test/fixtures/fakecuda/fakecuda.c: device memory is host memory, launches are
// recorded, nothing runs) to see what koffi hands the driver — out parameters, 64-bit pointers,
// the kernel-parameter array, patched globals and pointer tables, the JIT log buffers. What the
// kernels compute on a real GPU is the job of scripts/gpu-check.sh (and of the [cuda] runs of the
// execution suites where a GPU is present).

import { after, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const FIX = join(root, "test/fixtures/fakecuda");
const libDir = mkdtempSync(join(tmpdir(), "gpuc-fakecuda-"));
const lib = join(libDir, "libfakecuda.so");
after(() => rmSync(libDir, { recursive: true, force: true }));
const cc = spawnSync("cc", ["-shared", "-fPIC", "-O1", "-o", lib, join(FIX, "fakecuda.c")], { encoding: "utf8" });
const skip = cc.status === 0 ? false : `SKIPPED: no C compiler to build the stand-in driver (${cc.error?.message ?? cc.stderr.trim()})`;

const bits = (v: number) => { const b = new DataView(new ArrayBuffer(4)); b.setFloat32(0, v, true); return b.getUint32(0, true).toString(16).padStart(8, "0"); };
const words = (xs: number[]) => `[${xs.map(bits).join(" ")}]`;

test("CUDA device on a stand-in driver: context, module, patched tables, the parameter array, the JIT log", { skip }, () => {
  const r = spawnSync(process.execPath, [join(FIX, "run.mjs")], { cwd: root, encoding: "utf8", env: { ...process.env, GPUC_LIBCUDA: lib, GPUC_CACHE: "0" } });
  assert.equal(r.status, 0, r.stderr);
  const out = JSON.parse(r.stdout) as Record<string, string>;
  assert.equal(out.kind, "cuda");
  assert.equal(out.name, "CUDA (Fake GPU (gpuc's test driver), sm_90)");
  assert.equal(out.arch, "sm_90", "the newest architecture gpuc emits that the GPU runs");
  assert.equal(out.best, "cuda", "device() prefers CUDA");
  assert.deepEqual(out.out, [9, 9, 9, 9], "nothing ran (a stand-in): the output came back as it went in");
  // patch: the entry's parameters in order, and the table's address in the module's global.
  const lines = out.patched.split("\n");
  const at = lines.findIndex((l) => l.startsWith("launch tbl"));
  assert.equal(lines[at], "launch tbl grid 2 1 1 block 4 1 1 shared 0 stream (nil) extra (nil)");
  assert.deepEqual(lines.slice(at + 1, at + 9), [
    `  param 0 u64 -> ${words([9, 9, 9, 9])}`,
    "  param 1 u32 4",
    `  param 2 u64 -> ${words([1, 2, 3, 4])}`,
    "  param 3 u32 4",
    "  param 4 f32 0.5",
    "  param 5 u64 -> [00000000 00000000 00000000 00000000]",
    `  param 6 u32 ${32 + 65536}`,
    `  global gpuc_table_0_LUT -> ${words([1.5, 2.5, -3, 4])}`,
  ]);
  // table: one more entry parameter (the pointer table), no patched global.
  assert.match(out.table, /^launch tbl grid 1 1 1 block 4 1 1 /m);
  assert.match(out.table, /^ {2}param 5 u64 -> \[[0-9a-f]{8} [0-9a-f]{8} /m);
  assert.match(out.table, /^ {2}param 7 u32 65568$/m);
  assert.doesNotMatch(out.table, /global gpuc_table/);
  // The JIT log reaches the error, with the driver's code and message.
  assert.match(out.jitError, /^InternalCompilerError: internal compiler error: the CUDA driver rejected the PTX of kernel 'tbl': CUDA_ERROR_INVALID_PTX \(218\): a PTX JIT compilation failed\nptxas fatal : the fake driver rejects this PTX \(FAKE_JIT_ERROR\)/);
  assert.match(out.missing, /^KernelError: cuModuleGetFunction failed: CUDA_ERROR_NOT_FOUND \(500\): named symbol not found$/);
  // dev.copy (cuMemcpyDtoD; overlapping ranges through a temporary) and views (pointers into the allocation).
  const o2 = out as unknown as Record<string, unknown>;
  assert.deepEqual(o2.copied, [0, 3, 4, 5, 0, 0, 0, 0]);
  assert.deepEqual(o2.overlapped, [1, 2, 1, 2, 3, 4, 7, 8]);
  assert.deepEqual(o2.viewed, [[4, -1, -2], [1, 2, 1, 2, 3, 4, -1, -2]]);
  // setTable: the second launch reads the new values through the patched global.
  const launches = (o2.rewritten as string).split(/^(?=launch )/m).filter((l) => l.startsWith("launch"));
  assert.equal(launches.length, 2, o2.rewritten as string);
  assert.match(launches[0], new RegExp(`global gpuc_table_0_RW -> \\${words([1, 2, 3, 4]).replace(/]$/, "\\]")}`));
  assert.match(launches[1], new RegExp(`global gpuc_table_0_RW -> \\${words([10, 20, 30, 40]).replace(/]$/, "\\]")}`));
  // Shared memory sized at launch: blockDim.x * n floats = 4 * 3 * 4 bytes, rounded up to 16.
  assert.match(o2.dynamic as string, /^launch dyn grid 1 1 1 block 4 1 1 shared 48 /m);
  // Narrow arrays: views and copies at byte offsets; a shared Uint8Array of 4 × 5 bytes, rounded up to 32.
  assert.deepEqual(o2.narrow, [[1, 2, 3, 4, 2, 3, 4, 200, 201], [4, 2, 3], [-4, -5, -3, -4, -5], [-5, -3, -4, -5]]);
  assert.match(o2.dynamic8 as string, /^launch dyn8 grid 1 1 1 block 4 1 1 shared 32 /m);
});
