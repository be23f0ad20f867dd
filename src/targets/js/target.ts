// The JavaScript target: runs kernels on the CPU device; the reference for every other target.

import type { Module } from "../../ir/module.js";
import { typeName } from "../../ir/types.js";
import { runtimeTables } from "../../runtime/host.js";
import { kernelParams, type Target } from "../target.js";
import { emitJS } from "./emit.js";

export const jsTarget: Target = {
  name: "js",
  description: "JavaScript (the CPU device; exact reference semantics)",
  allowRecursion: true,
  overlay: null,
  validate: () => [],
  emit(m: Module) {
    const { code, entry, bindings, locations } = emitJS(m);
    const kernel = m.functions[m.entry];
    return {
      target: "js",
      kernel: kernel.name,
      entry,
      code,
      params: kernelParams(m),
      globals: m.globals.map((g, i) => ({ name: bindings[i], type: typeName(g.type), value: g.value })),
      bindings,
      runtime: runtimeTables(m, locations, m.debugLevel),
    };
  },
};
