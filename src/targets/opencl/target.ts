// The OpenCL C target: kernels for any OpenCL 1.2 device (GPUs of AMD, Intel, ARM, Apple; CPUs
// through PoCL), built from source by the driver (clBuildProgram).

import type { Module } from "../../ir/module.js";
import type { BackEnd, TargetFeatures } from "../target.js";
import { artifactOf } from "../artifact.js";
import { emitOpenCL } from "./emit.js";
import { OPENCL_LEGAL } from "./legal.js";

export const openclBackEnd: BackEnd = {
  allowRecursion: false,
  overlay: null,
  // OpenCL C 1.2 has no generic address space (a helper's array parameter would need one copy per
  // address space) and no recursion: every helper is inlined. The runtime library stays out of
  // line: its only array is the kernel state, always __global.
  inline: { always: true, maxStatements: Infinity, multiReturn: true },
  legal: OPENCL_LEGAL,
  // (Its limit, local memory, is data: info.ts.)
  validate: () => [],
  emit(m: Module, features: TargetFeatures) {
    const out = emitOpenCL(m, features);
    return artifactOf("opencl", m, features, out, [], (i) => out.layout.tables[i].symbol);
  },
};
