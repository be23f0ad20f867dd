// The external tools the targets check their code with where they are installed (ptxas; SPIRV-Tools'
// spirv-val and spirv-dis; LLVM's opt, llc and ld.lld): each run on files in a fresh folder, its
// messages (stdout then stderr) collected, the folder removed after it. Node only: the targets'
// validators (ptx/ptxas.ts, spirv/spirv-tools.ts, llvm/llvm-tools.ts) import it, loaded on demand.

import { execFile, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** How a run ended: whether the tool succeeded, and what it said (or why it could not run). */
export interface ToolRun { ok: boolean; out: string }

const said = (ok: boolean, stdout: string, stderr: string, error: string): ToolRun => ({ ok, out: `${stdout}${stderr}`.trim() || (ok ? "" : error) });

/** `tool args…`, its messages. */
export function runTool(tool: string, args: string[]): Promise<ToolRun> {
  return new Promise((resolve) => execFile(tool, args, { maxBuffer: 64 << 20 }, (err, stdout, stderr) => resolve(said(!err, stdout, stderr, String(err?.message)))));
}

/** The same, synchronously (a device that links a kernel in its load call). */
export function runToolSync(tool: string, args: string[]): ToolRun {
  const r = spawnSync(tool, args, { encoding: "utf8", maxBuffer: 64 << 20 });
  return said(r.status === 0, r.stdout ?? "", r.stderr ?? "", r.error ? r.error.message : `exit status ${r.status}`);
}

/** `body` given a fresh folder holding `files` (name → contents), removed when it is done (a promise: when it settles). */
export function inFolder<R>(prefix: string, files: Record<string, string | Uint8Array>, body: (dir: string) => R): R {
  const dir = mkdtempSync(join(tmpdir(), `gpuc-${prefix}-`));
  const remove = () => rmSync(dir, { recursive: true, force: true });
  let out: R;
  try {
    for (const [name, data] of Object.entries(files)) writeFileSync(join(dir, name), data);
    out = body(dir);
  } catch (e) { remove(); throw e; }
  if (out instanceof Promise) return out.finally(remove) as R;
  remove();
  return out;
}

const available = new Map<string, Promise<boolean>>();
/** Whether `tool --version` runs here (asked once a process). */
export function toolAvailable(tool: string): Promise<boolean> {
  let p = available.get(tool);
  if (!p) available.set(tool, (p = runTool(tool, ["--version"]).then((r) => r.ok)));
  return p;
}
