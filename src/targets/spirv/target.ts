// The SPIR-V target: binary SPIR-V modules for OpenCL drivers that take IL (OpenCL 2.1+, oneAPI).

import type { Diagnostic } from "../../errors.js";
import type { Module } from "../../ir/module.js";
import type { BackEnd, TargetFeatures } from "../target.js";
import { artifactOf } from "../artifact.js";
import { emitSPIRV } from "./emit.js";
import { SPIRV_LEGAL } from "./legal.js";

export const spirvBackEnd: BackEnd = {
  allowRecursion: false,
  overlay: null,
  inline: { always: true, maxStatements: Infinity, multiReturn: true },
  legal: SPIRV_LEGAL,
  // Subgroups are threads of one (OpenCL 1.2's model has none), as on the opencl target.
  validate(): Diagnostic[] { return []; },
  emit(m: Module, features: TargetFeatures) {
    const out = emitSPIRV(m, features);
    return artifactOf("spirv", m, features, out, [], (i) => out.layout.tables[i].symbol);
  },
};
