// The LLVM IR target: textual LLVM IR for AMD GPUs (HIP code objects) and SPIR (OpenCL drivers
// that take it: PoCL here); LLVM's own tools validate it (llvm-tools.ts).

import type { Module } from "../../ir/module.js";
import type { BackEnd, TargetFeatures } from "../target.js";
import { artifactOf } from "../artifact.js";
import { softMathMethods } from "../softmath/f32.js";
import { emitLLVM } from "./emit.js";
import { LLVM_LEGAL } from "./legal.js";

export const llvmBackEnd: BackEnd = {
  allowRecursion: false,
  // AMD GPUs have no device library here (and SPIR's would differ from them): Math's functions
  // beyond sqrt, floor/ceil/trunc and f32 exp/log/sin/cos are gpuc's own, in the kernel language.
  overlay: softMathMethods(),
  inline: { always: true, maxStatements: Infinity, multiReturn: true },
  legal: LLVM_LEGAL,
  // Subgroups are threads of one, as on the opencl and spirv targets.
  validate: () => [],
  emit(m: Module, features: TargetFeatures) {
    const out = emitLLVM(m, features);
    return artifactOf("llvm", m, features, out, [], (i) => out.layout.tables[i].symbol);
  },
};
