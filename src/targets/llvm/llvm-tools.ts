// LLVM's own tools where installed (Debian's llvm-16 and lld-16; a ROCm install's): `opt`
// verifies every module, `llc` compiles an AMD GPU's to a code object and `ld.lld` links it (what
// HIP loads), as ptxas does for PTX. The tests check every kernel they compile this way, and
// `gpuc compile --target llvm --validate` checks one. Node only.

import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Artifact } from "../target.js";
import { llvmLayout } from "./layout.js";

/** The folder of LLVM 16's tools: $GPUC_LLVM_BIN, else Debian's, else ROCm's. */
export function llvmBin(): string | null {
  const candidates = [process.env.GPUC_LLVM_BIN, "/usr/lib/llvm-16/bin", "/opt/rocm/llvm/bin"].filter((d): d is string => !!d);
  return candidates.find((d) => existsSync(join(d, "opt")) && existsSync(join(d, "llc")) && existsSync(join(d, "ld.lld"))) ?? null;
}

/** Whether opt, llc and ld.lld run here. */
export function llvmToolsAvailable(): boolean { return llvmBin() !== null; }

const run = (tool: string, args: string[]): Promise<{ ok: boolean; out: string }> => new Promise((resolve) => {
  execFile(tool, args, { maxBuffer: 64 << 20 }, (err, stdout, stderr) => resolve({ ok: !err, out: `${stdout}${stderr}`.trim() || (err ? String(err.message) : "") }));
});

export interface LLVMCheck {
  ok: boolean;
  /** What failed: the tool's messages. */
  log: string;
  /** An AMD GPU's code object (the linked ELF HIP loads), where the module is for one and it built. */
  codeObject: Uint8Array | null;
}

/**
 * Verify an llvm artifact's module (`opt -passes=verify`) and, for an AMD GPU, compile it for its
 * architecture (`llc -O2`, or `arch` given) and link the code object (`ld.lld -shared`).
 */
export async function checkLLVM(artifact: Artifact, arch?: string): Promise<LLVMCheck> {
  const bin = llvmBin();
  if (!bin) return { ok: false, log: "LLVM's tools (opt, llc, ld.lld of LLVM 16) are not installed: install llvm-16 and lld-16, or set GPUC_LLVM_BIN", codeObject: null };
  const target = arch ?? llvmLayout(artifact)?.arch ?? "spir64";
  const dir = mkdtempSync(join(tmpdir(), "gpuc-llvm-"));
  try {
    const ll = join(dir, "kernel.ll");
    writeFileSync(ll, artifact.code as string);
    const verified = await run(join(bin, "opt"), ["-passes=verify", "-disable-output", ll]);
    if (!verified.ok) return { ok: false, log: `opt: ${verified.out}`, codeObject: null };
    if (target === "spir64") return { ok: true, log: "", codeObject: null };
    const obj = join(dir, "kernel.o"), hsaco = join(dir, "kernel.hsaco");
    const compiled = await run(join(bin, "llc"), ["-mtriple=amdgcn-amd-amdhsa", `-mcpu=${target}`, "-O2", "-filetype=obj", ll, "-o", obj]);
    if (!compiled.ok) return { ok: false, log: `llc -mcpu=${target}: ${compiled.out}`, codeObject: null };
    const linked = await run(join(bin, "ld.lld"), ["-shared", obj, "-o", hsaco]);
    if (!linked.ok) return { ok: false, log: `ld.lld: ${linked.out}`, codeObject: null };
    return { ok: true, log: "", codeObject: new Uint8Array(readFileSync(hsaco)) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
