// The PTX target: kernels for NVIDIA GPUs (the CUDA driver JIT-compiles the PTX; ptxas validates it).

import type { Module } from "../../ir/module.js";
import type { BackEnd, TargetFeatures } from "../target.js";
import { artifactOf } from "../artifact.js";
import { emitPTX } from "./emit.js";
import { softMathMethods } from "../softmath/f32.js";
import { PTX_LEGAL } from "./legal.js";

export const ptxBackEnd: BackEnd = {
  allowRecursion: true,
  overlay: softMathMethods(),
  legal: PTX_LEGAL,
  // (Its limits, parameter space and static shared memory, are data: info.ts.)
  validate: () => [],
  emit(m: Module, features: TargetFeatures) {
    const out = emitPTX(m, features);
    const { layout } = out;
    const bindings = layout.relocation === "patch" ? layout.tables.map((t) => t.symbol) : [];
    return artifactOf("ptx", m, features, out, bindings, (i) => layout.tables[i].symbol);
  },
};
