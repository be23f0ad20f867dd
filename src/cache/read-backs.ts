// Each target's checks of what is read back from a cache or an image (targets/<name>/read-back.ts:
// the layout's schema, the code check), loaded on first use. One line per target, as in the
// registry (targets/index.ts), which cannot hold these loaders: everything the runtime imports
// reaches the registry, and a bundler follows every import() it sees — the JS check brings a
// parser. Only the checks import this table (checks.ts, code-check.ts), so an app bundled without
// them (gpuc/plugin, ARCHITECTURE.md "An app's bundle has no checks") carries none of it.

import type { ReadBack } from "../targets/target.js";

const LOADERS: Readonly<Record<string, () => Promise<ReadBack>>> = {
  js: () => import("../targets/js/read-back.js").then((m) => m.jsReadBack),
  wgsl: () => import("../targets/wgsl/read-back.js").then((m) => m.wgslReadBack),
  ptx: () => import("../targets/ptx/read-back.js").then((m) => m.ptxReadBack),
  opencl: () => import("../targets/opencl/read-back.js").then((m) => m.openclReadBack),
  spirv: () => import("../targets/spirv/read-back.js").then((m) => m.spirvReadBack),
  llvm: () => import("../targets/llvm/read-back.js").then((m) => m.llvmReadBack),
};

const loaded = new Map<string, Promise<ReadBack>>();

/** A target's read-back checks (loaded once), or undefined for a name that is not a target. */
export function readBackOf(target: string): Promise<ReadBack> | undefined {
  if (!Object.hasOwn(LOADERS, target)) return undefined;
  let p = loaded.get(target);
  if (!p) loaded.set(target, (p = LOADERS[target]!()));
  return p;
}

/** The targets with read-back checks (a test holds them to the registry's). */
export const READ_BACK_TARGETS: readonly string[] = Object.keys(LOADERS);
