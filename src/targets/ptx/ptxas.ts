// Validation of PTX artifacts with NVIDIA's assembler (`ptxas`, from the CUDA toolkit), where it
// is installed: the tests assemble every kernel they compile, and `gpuc compile --target ptx
// --validate` does it for one. Node only.

import { join } from "node:path";
import type { Artifact } from "../target.js";
import { inFolder, runTool, toolAvailable } from "../tools.js";
import { ptxLayout } from "./layout.js";

interface PtxasResult {
  ok: boolean;
  /** ptxas's own messages (with `-v`: registers, spills, shared memory per function). */
  log: string;
  /** Each error with the offending PTX line and, where known, the kernel source location it came from. */
  errors: { line: number; message: string; text: string; source: string | null }[];
  /** From `-v`: per function, registers, spill bytes (stores + loads) and stack frame bytes. */
  usage: { function: string; registers: number; spillBytes: number; stackBytes: number }[];
}

/** The ptxas command: $PTXAS, else `ptxas` on the PATH. */
function ptxasCommand(): string { return process.env.PTXAS ?? "ptxas"; }

/** Whether ptxas runs here. */
export function ptxasAvailable(): Promise<boolean> { return toolAvailable(ptxasCommand()); }

/** Assemble a PTX artifact (or PTX text) for `arch` (default: the artifact's own). */
export function assemblePTX(artifact: Artifact | string, arch?: string): Promise<PtxasResult> {
  const code = typeof artifact === "string" ? artifact : (artifact.code as string);
  const target = arch ?? (typeof artifact === "string" ? "sm_75" : (ptxLayout(artifact)?.arch ?? "sm_75"));
  return inFolder("ptxas", { "kernel.ptx": code }, async (dir) => {
    const { ok, out: log } = await runTool(ptxasCommand(), [`-arch=${target}`, "-v", join(dir, "kernel.ptx"), "-o", join(dir, "kernel.cubin")]);
    const lines = code.split("\n");
    const errors = [...log.matchAll(/line (\d+); error\s*:\s*(.*)/g)].map((m) => {
      const line = Number(m[1]);
      let source: string | null = null;
      const layout = typeof artifact !== "string" ? ptxLayout(artifact) : null;
      if (typeof artifact !== "string" && layout) {
        const loc = artifact.runtime.location(layout.lines[line - 1] ?? -1);
        if (loc) source = `${loc.file}:${loc.line}:${loc.column}`;
      }
      return { line, message: m[2].trim(), text: (lines[line - 1] ?? "").trim(), source };
    });
    if (!ok && !errors.length) errors.push({ line: 0, message: log, text: "", source: null });
    return { ok, log, errors, usage: parseUsage(log) };
  });
}

/** ptxas -v: "Function properties for f / N bytes stack frame, S bytes spill stores, L bytes spill loads / Used R registers". */
function parseUsage(log: string): PtxasResult["usage"] {
  const out: PtxasResult["usage"] = [];
  const blocks = log.split(/ptxas info\s+: (?=Function properties for|Compiling entry function)/);
  const stack = new Map<string, { stackBytes: number; spillBytes: number }>();
  for (const b of blocks) {
    const props = /^Function properties for (\S+)\s+(\d+) bytes stack frame, (\d+) bytes spill stores, (\d+) bytes spill loads/m.exec(b);
    if (props) stack.set(props[1], { stackBytes: Number(props[2]), spillBytes: Number(props[3]) + Number(props[4]) });
  }
  for (const m of log.matchAll(/Compiling entry function '([^']+)'[\s\S]*?Used (\d+) registers/g)) {
    const s = stack.get(m[1]) ?? { stackBytes: 0, spillBytes: 0 };
    out.push({ function: m[1], registers: Number(m[2]), ...s });
  }
  return out;
}

/** A readable report of a failed assembly: ptxas's message next to the PTX line (and the kernel line). */
export function formatPtxasErrors(r: PtxasResult): string {
  return r.errors.map((e) => `ptxas: ${e.message}\n    at PTX line ${e.line}: ${e.text}${e.source ? `\n    from ${e.source}` : ""}`).join("\n");
}
