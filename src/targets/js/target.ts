// The JavaScript target: runs kernels on the CPU device; the reference for every other target.

import type { Module } from "../../ir/module.js";
import type { BackEnd, TargetFeatures } from "../target.js";
import { artifactOf } from "../artifact.js";
import { emitJS } from "./emit.js";
import { JS_LEGAL } from "./legal.js";

export const jsBackEnd: BackEnd = {
  allowRecursion: true,
  overlay: null,
  validate: () => [],
  legal: JS_LEGAL,
  emit(m: Module, features: TargetFeatures) {
    const out = emitJS(m, { fastMath: features.fastMath, sanitize: features.sanitize });
    // (Its loader, the CPU device, skips copying an array a launch fills into WebAssembly's memory.)
    return artifactOf("js", m, features, out, out.bindings, (i) => out.bindings[i], { fills: true });
  },
};
