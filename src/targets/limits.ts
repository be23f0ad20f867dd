// Target limits as data (TargetInfo.limits, each target's info.ts), checked against a module by
// one validator before emission: shared memory per block, the entry's parameter bytes, and launch
// bounds within the kernel language's block limits. A target lists what every one of its devices
// has; a device's own (larger or smaller) limits are its loader's to check at launch.

import { quoteName, type Diagnostic } from "../errors.js";
import type { Loc, Module } from "../ir/module.js";
import { elemBytes, isNarrow } from "../ir/types.js";
import { BLOCK_LIMITS, type TargetFeatures, type TargetInfo } from "./target.js";

const where = (l: Loc | null) => (l ? l.src.locate(l.at) : null);

/** The static shared memory of a module in bytes: every shared array of constant size, narrow ones padded to whole 4-byte words (as every back end lays them out). */
export function staticSharedBytes(m: Module): number {
  return m.shared.reduce((n, s) => {
    const bytes = elemBytes(s.type.elem) * (s.type.size ?? 0);
    return n + (isNarrow(s.type.elem) ? Math.ceil(bytes / 4) * 4 : bytes);
  }, 0);
}

/** Where a module exceeds its target's limits, as diagnostics (empty when it fits). */
export function limitDiagnostics(m: Module, features: TargetFeatures, info: TargetInfo): Diagnostic[] {
  const out: Diagnostic[] = [];
  const kernel = m.functions[m.entry];
  const { paramBytes, sharedBytes } = info.limits;
  if (paramBytes) {
    let bytes = kernel.stateParam !== null ? paramBytes.state : 0;
    for (const p of kernel.params) {
      const t = kernel.locals[p].type;
      bytes = t.kind === "array" ? align(bytes, 8) + paramBytes.array : t.kind === "scalar" && t.scalar === "f64" ? align(bytes, 8) + 8 : bytes + 4;
    }
    if (bytes > paramBytes.max)
      out.push({ kind: "unsupported-type", frames: [], location: where(kernel.loc), message: `kernel ${quoteName(kernel.name)} needs ${bytes} bytes of parameters; ${info.name.toUpperCase()} kernels take at most ${paramBytes.max}`, hint: "pass the values in an array" });
  }
  if (sharedBytes) {
    const shared = staticSharedBytes(m);
    if (shared > sharedBytes.max)
      out.push({ kind: "unsupported-type", frames: [], location: where(kernel.loc), message: `kernel ${quoteName(kernel.name)} uses ${shared} bytes of shared memory per block; the ${info.name} target allows ${sharedBytes.max} (${sharedBytes.why})`, hint: "use smaller shared arrays" });
  }
  const bounds = features.requiredThreads ?? features.maxThreads;
  if (bounds && bounds[0] * bounds[1] * bounds[2] > BLOCK_LIMITS.threads)
    out.push({ kind: "invalid-option", frames: [], location: null, message: `launch bounds of ${bounds.join("×")} threads exceed ${BLOCK_LIMITS.threads} threads per block` });
  return out;
}

function align(n: number, a: number): number { return Math.ceil(n / a) * a; }
