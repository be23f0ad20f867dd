// The JavaScript target: runs kernels on the CPU device; the reference for every other target.

import type { Module } from "../../ir/module.js";
import { typeName } from "../../ir/types.js";
import { runtimeTables } from "../../runtime/host.js";
import { kernelParams, moduleManifest, type Target, type TargetFeatures } from "../target.js";
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
    const { code, entry, bindings, locations } = emitJS(m);
    const kernel = m.functions[m.entry];
    return {
      target: "js",
      kernel: kernel.name,
      entry,
      code,
      params: kernelParams(m),
      globals: m.globals.map((g) => ({ name: g.name, type: typeName(g.type), value: g.value })),
      bindings,
      runtime: runtimeTables(m, locations, m.debugLevel),
      manifest: moduleManifest(m, features.relocation!, code, (i) => bindings[i]),
    };
  },
};
