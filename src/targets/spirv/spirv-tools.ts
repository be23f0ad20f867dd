// SPIRV-Tools where installed (Debian's spirv-tools): spirv-val validates SPIR-V artifacts (the
// tests validate every kernel they compile; `gpuc compile --target spirv --validate` one), and
// spirv-dis disassembles them (`--emit=spirv-asm`, the golden files). Node only.

import { join } from "node:path";
import { inFolder, runTool, toolAvailable } from "../tools.js";

/** The environment gpuc's SPIR-V is valid for (the oldest OpenCL that takes SPIR-V is 2.1; the module is SPIR-V 1.0, as OpenCL 1.2's SPIR-V environment has it). */
export const SPIRV_TARGET_ENV = "opencl1.2";

const run = (tool: string, args: string[], input: Uint8Array) => inFolder("spirv", { "kernel.spv": input }, (dir) => runTool(tool, [...args, join(dir, "kernel.spv")]));

/** Whether spirv-val runs here. */
export function spirvValAvailable(): Promise<boolean> { return toolAvailable(process.env.SPIRV_VAL ?? "spirv-val"); }

/** spirv-val's verdict on a module: ok, or its message. */
export function validateSPIRV(code: Uint8Array): Promise<{ ok: boolean; log: string }> {
  return run(process.env.SPIRV_VAL ?? "spirv-val", ["--target-env", SPIRV_TARGET_ENV], code).then((r) => ({ ok: r.ok, log: r.out }));
}

/** spirv-dis's text of a module (ids as numbers, so that the text is the binary's, one to one), or null where it fails. */
export async function disassembleSPIRV(code: Uint8Array): Promise<string | null> {
  const r = await run(process.env.SPIRV_DIS ?? "spirv-dis", ["--raw-id"], code);
  return r.ok ? `${r.out}\n` : null;
}
