// The WGSL target (WebGPU compute shaders), as the rest of gpuc knows it without loading its back end.

import type { TargetInfo } from "../target.js";

export const wgslInfo: TargetInfo = {
  name: "wgsl",
  // Constant tables are storage bindings given at launch.
  relocations: ["table"],
  // WGSL functions cannot take storage arrays: every helper is inlined.
  alwaysInline: true,
  layout: true,
  // WebGPU's maxComputeWorkgroupsPerDimension as gpuc's WebGPU device asks for it: the default.
  maxBlocks: [65535, 65535, 65535],
  // A pipeline per workgroup size: its code may as well know the size.
  specializeThreads: true,
  launchProofs: true,
  // Workgroup memory and bindings differ by adapter: the WebGPU device checks them at launch.
  limits: {},
};
