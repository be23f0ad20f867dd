// A back end's emitted code as an Artifact (target.ts): its parameters, table values and sites,
// runtime tables and frozen manifest. The back ends' own (every emit ends here), apart from
// target.ts, which the runtime imports: a program that only loads artifacts never reads it.

import type { Loc, Module } from "../ir/module.js";
import { typeName, type Scalar } from "../ir/types.js";
import { filledParams, writtenParams } from "../ir/module-info.js";
import { runtimeTables } from "../runtime/tables.js";
import { freezeManifest, type RelocationSite } from "../reloc/manifest.js";
import type { Artifact, TargetFeatures, TargetLayout } from "./target.js";

/** The sites of a module's constant tables, with each one's name in the code. */
function tableSites(m: Module, symbol: (i: number) => string): RelocationSite[] {
  // Tables are 4- and 8-byte typed arrays only (typed-arrays.ts, tableElement).
  return m.globals.map((g, i) => ({ name: g.name, kind: "table", elem: g.type.elem as Scalar, length: g.value.length, symbol: symbol(i) }));
}

/**
 * The artifact of emitted code: parameters, this session's table values, runtime tables, the
 * frozen manifest (the module's globals are already in name order: see reloc/sites.ts) and the
 * emitted layout, if any. `symbol(i)` names table i in the code; `bindings` what the loader binds.
 */
export function artifactOf(
  target: string, m: Module, features: TargetFeatures,
  emitted: { code: string | Uint8Array; entry: string; locations: Loc[]; layout?: TargetLayout },
  bindings: string[], symbol: (i: number) => string,
  /** Whether the target's loaders use `fills` (the CPU device's copies into WebAssembly's memory): only then is it worked out. */
  options: { fills?: boolean } = {},
): Artifact {
  const kernel = m.functions[m.entry];
  const written = writtenParams(m)[m.entry], filled = options.fills ? filledParams(m) : null;
  const a: Artifact = {
    target,
    kernel: kernel.name,
    entry: emitted.entry,
    code: emitted.code,
    params: kernel.params.map((p, i) => {
      const type = kernel.locals[p].type;
      const param = { name: kernel.paramNames[i], type: typeName(type) };
      return type.kind !== "array" ? param : !written[i] ? { ...param, readOnly: true as const } : filled?.[i] ? { ...param, fills: true as const } : param;
    }),
    globals: m.globals.map((g) => ({ name: g.name, type: typeName(g.type), value: g.value })),
    bindings,
    runtime: runtimeTables(m, emitted.locations, m.debugLevel),
    manifest: freezeManifest(features.relocation!, tableSites(m, symbol), emitted.code, m.folded),
  };
  if (emitted.layout) a.layout = emitted.layout;
  const dynamic = m.shared.filter((s) => s.size).map((s) => ({ name: s.name, elem: s.type.elem, size: s.size! }));
  if (dynamic.length) a.dynamicShared = dynamic;
  return a;
}
