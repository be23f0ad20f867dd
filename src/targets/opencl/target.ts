// The OpenCL C target: kernels for any OpenCL 1.2 device (GPUs of AMD, Intel, ARM, Apple; CPUs
// through PoCL), built from source by the driver (clBuildProgram).

import { quoteName, type Diagnostic } from "../../errors.js";
import type { Loc, Module } from "../../ir/module.js";
import { elemBytes } from "../../ir/types.js";
import type { BackEnd, TargetFeatures } from "../target.js";
import { artifactOf } from "../artifact.js";
import { emitOpenCL } from "./emit.js";
import { OPENCL_LEGAL } from "./legal.js";

/** Static `__local` memory per work-group every OpenCL 1.2 device has (CL_DEVICE_LOCAL_MEM_SIZE's minimum). */
const OPENCL_LIMITS = { localBytes: 32 * 1024 } as const;

const where = (l: Loc | null) => (l ? l.src.locate(l.at) : null);

export const openclBackEnd: BackEnd = {
  allowRecursion: false,
  overlay: null,
  // OpenCL C 1.2 has no generic address space (a helper's array parameter would need one copy per
  // address space) and no recursion: every helper is inlined. The runtime library stays out of
  // line: its only array is the kernel state, always __global.
  inline: { always: true, maxStatements: Infinity, multiReturn: true },
  legal: OPENCL_LEGAL,
  validate(m: Module, features: TargetFeatures): Diagnostic[] {
    const out: Diagnostic[] = [];
    const kernel = m.functions[m.entry];
    const local = m.shared.reduce((n, s) => n + elemBytes(s.type.elem) * (s.type.size ?? 0), 0);
    if (local > OPENCL_LIMITS.localBytes)
      out.push({ kind: "unsupported-type", frames: [], location: where(kernel.loc), message: `kernel ${quoteName(kernel.name)} uses ${local} bytes of shared memory per block; the opencl target allows ${OPENCL_LIMITS.localBytes} (what every OpenCL device has)`, hint: "use smaller shared arrays" });
    const bounds = features.requiredThreads ?? features.maxThreads;
    if (bounds && bounds[0] * bounds[1] * bounds[2] > 1024)
      out.push({ kind: "invalid-option", frames: [], location: null, message: `launch bounds of ${bounds.join("×")} threads exceed 1024 threads per block` });
    return out;
  },
  emit(m: Module, features: TargetFeatures) {
    const out = emitOpenCL(m, features);
    return artifactOf("opencl", m, features, out, [], (i) => out.layout.tables[i].symbol);
  },
};
