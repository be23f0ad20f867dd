// Measuring PTX without a GPU: ptxas -v's report (registers, spills, stack) and the machine
// code's size in the cubin (SASS instructions are 16 bytes from Volta on). Used by bench/ptx.ts
// and bench/codegen.ts. Needs ptxas (the CUDA toolkit).

import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export interface Measure { registers: number; spillBytes: number; stackBytes: number; ptxInstructions: number; sassInstructions: number; sassTotal: number }

/** Assemble PTX for `arch` (in `dir`); read ptxas -v and the cubin. */
export function measurePtx(arch: string, dir: string, ptx: string, entry: string, tag: string): Measure {
  const ptxFile = join(dir, `${tag}.ptx`), cubin = join(dir, `${tag}.cubin`);
  writeFileSync(ptxFile, ptx);
  const info = ptxasLog(arch, ptxFile, cubin);
  const regs = new RegExp(`Compiling entry function '${entry}'[\\s\\S]*?Used (\\d+) registers`).exec(info);
  const props = new RegExp(`Function properties for ${entry}\\s+(\\d+) bytes stack frame, (\\d+) bytes spill stores, (\\d+) bytes spill loads`).exec(info);
  const sections = elfSections(readFileSync(cubin));
  const own = sections.get(`.text.${entry}`) ?? 0;
  const total = [...sections].filter(([n]) => n.startsWith(".text.")).reduce((s, [, v]) => s + v, 0);
  return {
    registers: Number(regs?.[1] ?? NaN),
    stackBytes: Number(props?.[1] ?? 0),
    spillBytes: Number(props?.[2] ?? 0) + Number(props?.[3] ?? 0),
    ptxInstructions: countPtxInstructions(ptx, entry),
    sassInstructions: own / 16,
    sassTotal: total / 16,
  };
}

/** ptxas -v's report (it writes to stderr). */
export function ptxasLog(arch: string, ptxFile: string, cubin: string): string {
  const r = spawnSync("ptxas", [`-arch=${arch}`, "-v", ptxFile, "-o", cubin], { encoding: "utf8" });
  if (r.status !== 0) throw new Error(`ptxas failed on ${ptxFile}:\n${r.stderr}`);
  return `${r.stdout}${r.stderr}`;
}

/** Instructions in one function's body: lines that are not directives, labels, braces or comments. */
export function countPtxInstructions(ptx: string, entry: string): number {
  const start = ptx.search(new RegExp(`\\.entry ${entry}\\b`));
  const open = ptx.indexOf("{", ptx.indexOf(")", start));
  let depth = 0, i = open, end = open;
  for (; i < ptx.length; i++) {
    if (ptx[i] === "{") depth++;
    else if (ptx[i] === "}" && --depth === 0) { end = i; break; }
  }
  return ptx.slice(open + 1, end).split("\n").map((l) => l.trim())
    .filter((l) => l && !l.startsWith(".") && !l.startsWith("//") && !l.endsWith(":") && l !== "{" && l !== "}").length;
}

/** Section sizes of an ELF64 file, by name. */
function elfSections(b: Buffer): Map<string, number> {
  const shoff = Number(b.readBigUInt64LE(0x28)), shentsize = b.readUInt16LE(0x3a), shnum = b.readUInt16LE(0x3c), shstrndx = b.readUInt16LE(0x3e);
  const header = (i: number) => shoff + i * shentsize;
  const strOff = Number(b.readBigUInt64LE(header(shstrndx) + 0x18));
  const out = new Map<string, number>();
  for (let i = 0; i < shnum; i++) {
    const h = header(i);
    const nameAt = strOff + b.readUInt32LE(h);
    const name = b.toString("latin1", nameAt, b.indexOf(0, nameAt));
    out.set(name, Number(b.readBigUInt64LE(h + 0x20)));
  }
  return out;
}

