// overlay(): give a global name a target-specific implementation, written in the kernel language.

import { addOverlay } from "./registry.js";

/**
 * `overlay("js", "Math.exp", function exp(x) { … })`: kernels compiled for `target` ("*" for
 * every target) call `impl` for `name`. Code compiled earlier that used `name` is recompiled on
 * its next launch; everything else is reused.
 */
export function overlay(target: string, name: string, impl: Function): void {
  addOverlay(target, name, impl);
}
