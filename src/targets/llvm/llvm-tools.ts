// LLVM's own tools where installed (Debian's llvm-16 and lld-16; a ROCm install's): `opt`
// verifies every module, `llc` compiles an AMD GPU's to a code object and `ld.lld` links it (what
// HIP loads), as ptxas does for PTX. The tests check every kernel they compile this way, and
// `gpuc compile --target llvm --validate` checks one. Node only.

import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { inFolder, runTool, runToolSync } from "../tools.js";
import type { Artifact } from "../target.js";
import { llvmLayout } from "./layout.js";

/** The folder of LLVM 16's tools: $GPUC_LLVM_BIN, else Debian's, else ROCm's. */
export function llvmBin(): string | null {
  const candidates = [process.env.GPUC_LLVM_BIN, "/usr/lib/llvm-16/bin", "/opt/rocm/llvm/bin"].filter((d): d is string => !!d);
  return candidates.find((d) => existsSync(join(d, "opt")) && existsSync(join(d, "llc")) && existsSync(join(d, "ld.lld"))) ?? null;
}

/** Whether opt, llc and ld.lld run here. */
export function llvmToolsAvailable(): boolean { return llvmBin() !== null; }

const MISSING = "LLVM's tools (opt, llc, ld.lld of LLVM 16) are not installed: install llvm-16 and lld-16, or set GPUC_LLVM_BIN";

/**
 * The steps from a module's text (in `dir`/kernel.ll) to what is checked or loaded: verify it,
 * and for an AMD GPU optimize it (`opt -O2`), compile it (`llc -O2`) and link the code object
 * (`ld.lld -shared`, what HIP loads) in `dir`/kernel.hsaco. One list for the check and for the device's link.
 */
function steps(bin: string, dir: string, arch: string, verify: boolean): { label: string; tool: string; args: string[] }[] {
  const ll = join(dir, "kernel.ll"), bc = join(dir, "kernel.bc"), obj = join(dir, "kernel.o");
  return [
    ...(verify ? [{ label: "opt", tool: join(bin, "opt"), args: ["-passes=verify", "-disable-output", ll] }] : []),
    ...(arch === "spir64" ? [] : [
      // LLVM's optimizations first, as clang's pipeline does (llc alone promotes no local to a
      // register: every one would live in scratch memory, and calls keep a 16 KiB stack per thread).
      { label: `opt -O2 -mcpu=${arch}`, tool: join(bin, "opt"), args: [`-mcpu=${arch}`, "-passes=default<O2>", ll, "-o", bc] },
      { label: `llc -mcpu=${arch}`, tool: join(bin, "llc"), args: ["-mtriple=amdgcn-amd-amdhsa", `-mcpu=${arch}`, "-O2", "-filetype=obj", bc, "-o", obj] },
      { label: "ld.lld", tool: join(bin, "ld.lld"), args: ["-shared", obj, "-o", join(dir, "kernel.hsaco")] },
    ]),
  ];
}

export interface LLVMCheck {
  ok: boolean;
  /** What failed: the tool's messages. */
  log: string;
  /** An AMD GPU's code object (the linked ELF HIP loads), where the module is for one and it built. */
  codeObject: Uint8Array | null;
}

/**
 * Verify an llvm artifact's module (`opt -passes=verify`) and, for an AMD GPU, make the code
 * object for its architecture (or `arch` given) as the AMD GPU device does (see steps).
 */
export async function checkLLVM(artifact: Artifact, arch?: string): Promise<LLVMCheck> {
  const bin = llvmBin();
  if (!bin) return { ok: false, log: MISSING, codeObject: null };
  const target = arch ?? llvmLayout(artifact)?.arch ?? "spir64";
  return inFolder("llvm", { "kernel.ll": artifact.code as string }, async (dir): Promise<LLVMCheck> => {
    for (const step of steps(bin, dir, target, true)) {
      const r = await runTool(step.tool, step.args);
      if (!r.ok) return { ok: false, log: `${step.label}: ${r.out}`, codeObject: null };
    }
    return { ok: true, log: "", codeObject: target === "spir64" ? null : new Uint8Array(readFileSync(join(dir, "kernel.hsaco"))) };
  });
}

/**
 * An AMD GPU's code object of an llvm module for `arch` (llc and ld.lld, synchronously: a device
 * loads a kernel in one call), or what failed. The module was verified when it was checked (the
 * tests, `--validate`) or read back; the device links what it runs.
 */
export function linkCodeObject(code: string, arch: string): LLVMCheck {
  const bin = llvmBin();
  if (!bin) return { ok: false, log: MISSING, codeObject: null };
  return inFolder("llvm", { "kernel.ll": code }, (dir) => {
    for (const step of steps(bin, dir, arch, false)) {
      const r = runToolSync(step.tool, step.args);
      if (!r.ok) return { ok: false, log: `${step.label}: ${r.out}`, codeObject: null };
    }
    return { ok: true, log: "", codeObject: new Uint8Array(readFileSync(join(dir, "kernel.hsaco"))) };
  });
}
