// The PTX target: kernels for NVIDIA GPUs (the CUDA driver JIT-compiles the PTX; ptxas validates it).

import { quoteName, type Diagnostic } from "../../errors.js";
import type { Loc, Module } from "../../ir/module.js";
import type { BackEnd, TargetFeatures } from "../target.js";
import { artifactOf } from "../artifact.js";
import { emitPTX } from "./emit.js";
import { arrayBytes } from "./common.js";
import { ptxMethods } from "./math.js";
import { PTX_LEGAL } from "./legal.js";

/** Kernel parameter space (bytes) and static shared memory per block (bytes) every architecture here has. */
const PTX_LIMITS = { paramBytes: 4096, sharedBytes: 48 * 1024 } as const;

const where = (l: Loc | null) => (l ? l.src.locate(l.at) : null);

export const ptxBackEnd: BackEnd = {
  allowRecursion: true,
  overlay: ptxMethods(),
  legal: PTX_LEGAL,
  validate(m: Module, features: TargetFeatures): Diagnostic[] {
    const out: Diagnostic[] = [];
    // The entry's parameters: scalars 4 or 8 bytes, arrays a pointer and a length, the kernel state the same.
    const kernel = m.functions[m.entry];
    let bytes = kernel.stateParam !== null ? 16 : 0;
    for (const p of kernel.params) {
      const t = kernel.locals[p].type;
      bytes = t.kind === "array" ? align(bytes, 8) + 12 : t.kind === "scalar" && t.scalar === "f64" ? align(bytes, 8) + 8 : bytes + 4;
    }
    if (bytes > PTX_LIMITS.paramBytes)
      out.push({ kind: "unsupported-type", frames: [], location: where(kernel.loc), message: `kernel ${quoteName(kernel.name)} needs ${bytes} bytes of parameters; PTX kernels take at most ${PTX_LIMITS.paramBytes}`, hint: "pass the values in an array" });
    const shared = m.shared.reduce((n, s) => n + arrayBytes(s.type.elem, s.type.size ?? 0).bytes, 0);
    if (shared > PTX_LIMITS.sharedBytes)
      out.push({ kind: "unsupported-type", frames: [], location: where(kernel.loc), message: `kernel ${quoteName(kernel.name)} uses ${shared} bytes of shared memory per block; the ptx target allows ${PTX_LIMITS.sharedBytes} (static shared memory)`, hint: "use smaller shared arrays" });
    const bounds = features.requiredThreads ?? features.maxThreads;
    if (bounds && bounds[0] * bounds[1] * bounds[2] > 1024)
      out.push({ kind: "invalid-option", frames: [], location: null, message: `launch bounds of ${bounds.join("×")} threads exceed 1024 threads per block` });
    return out;
  },
  emit(m: Module, features: TargetFeatures) {
    const out = emitPTX(m, features);
    const { layout } = out;
    const bindings = layout.relocation === "patch" ? layout.tables.map((t) => t.symbol) : [];
    return artifactOf("ptx", m, features, out, bindings, (i) => layout.tables[i].symbol);
  },
};

function align(n: number, a: number): number { return Math.ceil(n / a) * a; }
