// The JavaScript target: runs kernels on the CPU device; the reference for every other target.

import type { Module } from "../../ir/module.js";
import { artifactOf, type Target, type TargetFeatures } from "../target.js";
import { emitJS } from "./emit.js";
import { TARGET_INFO } from "../info.js";

export const jsTarget: Target = {
  name: "js",
  description: "JavaScript (the CPU device; exact reference semantics)",
  // The code names each table (`$g0_LUT`) and the loader binds it: `bake` binds this session's
  // values; `table` marks the same code persistable, its tables resolved by name at load.
  relocations: TARGET_INFO.js.relocations,
  allowRecursion: true,
  overlay: null,
  validate: () => [],
  emit(m: Module, features: TargetFeatures) {
    const out = emitJS(m);
    return artifactOf("js", m, features, out, out.bindings, (i) => out.bindings[i]);
  },
};
