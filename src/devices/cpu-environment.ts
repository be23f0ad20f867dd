// The CPU device's options from the environment (Node's process.env): GPUC_CPU_THREADS,
// GPUC_CPU_PARALLEL, GPUC_CPU_WASM and GPUC_SANITIZE. A page has no environment: the browser
// build puts src/platform/no-cpu-environment.ts in this module's place.

import { CompileError } from "../errors.js";

/**
 * The CPU device's options from the environment, where set: GPUC_CPU_THREADS (threads) and
 * GPUC_CPU_PARALLEL (parallel). The environment is input like any other: a value the option
 * cannot take is an invalid-option error naming the variable, not a default taken silently.
 */
export function cpuEnvironment(): { threads?: number; parallel?: "auto" | "always"; wasm?: boolean | "always"; sanitize?: boolean } {
  const env = typeof process !== "undefined" ? process.env : undefined;
  const out: { threads?: number; parallel?: "auto" | "always"; wasm?: boolean | "always"; sanitize?: boolean } = {};
  const threads = env?.GPUC_CPU_THREADS, parallel = env?.GPUC_CPU_PARALLEL, wasm = env?.GPUC_CPU_WASM, sanitize = env?.GPUC_SANITIZE;
  if (sanitize) {
    if (sanitize !== "0" && sanitize !== "1") throw CompileError.single("invalid-option", `device("cpu"): the environment's GPUC_SANITIZE must be 0 or 1, got ${JSON.stringify(sanitize)}`);
    out.sanitize = sanitize === "1";
  }
  if (wasm) {
    if (wasm !== "0" && wasm !== "1" && wasm !== "always") throw CompileError.single("invalid-option", `device("cpu"): the environment's GPUC_CPU_WASM must be 0, 1 or always, got ${JSON.stringify(wasm)}`);
    out.wasm = wasm === "always" ? wasm : wasm === "1";
  }
  if (threads) {
    if (!/^\d+$/.test(threads) || Number(threads) < 1 || Number(threads) > 256)
      throw CompileError.single("invalid-option", `device("cpu"): the environment's GPUC_CPU_THREADS must be an integer from 1 to 256, got ${JSON.stringify(threads)}`);
    out.threads = Number(threads);
  }
  if (parallel) {
    if (parallel !== "auto" && parallel !== "always")
      throw CompileError.single("invalid-option", `device("cpu"): the environment's GPUC_CPU_PARALLEL must be "auto" or "always", got ${JSON.stringify(parallel)}`);
    out.parallel = parallel;
  }
  return out;
}
