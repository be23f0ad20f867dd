// The registry of targets: one line per target.

import { jsTarget } from "./js/target.js";
import { ptxTarget } from "./ptx/target.js";
import { wgslTarget } from "./wgsl/target.js";
import type { Target } from "./target.js";

export const TARGETS: ReadonlyMap<string, Target> = new Map([
  [jsTarget.name, jsTarget],
  [wgslTarget.name, wgslTarget],
  [ptxTarget.name, ptxTarget],
]);

export type { Artifact, Target } from "./target.js";
